"""Benchmark of the tournament hall service: a hall of phones against ``guandan serve``.

Run: ``python bench/bench_hall.py [--tables 200] [--boards 8] [--workers 2] [--duration 120]
[--connections 64] [--runs 1] [--hosts 1] [--pg URL] [--quick] [--json] [--profile FILE]``.

**The hall.** ``--tables`` is the number of *physical* tables, as in the issue's "200 tables
(800 phones)": four players a table, so 800 phones. A teams match is played at one table
number in two rooms (open and closed), i.e. on two physical tables, so 200 tables are
**100 matches of 200 teams**, each table (match and room) holding its own card with a West
(report) and a North (confirm) token. (200 matches would be 400 physical tables and 1,600
phones: twice the issue's hall.)

The event is set up with the library on a fresh PostgreSQL database of its own
(``duplicate.db.temporary_database`` on ``--pg`` / ``$GUANDAN_BENCH_DATABASE_URL``, default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``): 2 rounds, Swiss, 20-VP, the teams,
round 1 paired, its boards assigned and its cards issued (``duplicate.hall.issue_tokens``).
Then ``guandan serve --workers N`` runs as a subprocess on it, and an asyncio client of
our own (``bench/hall_client.py``: plain HTTP/1.1 on asyncio streams, about 0.15 ms of CPU
a request where httpx took 3.5) plays the hall over HTTP:

1. **Peak.** The director starts round 1 (API). Every table reports its ``--boards`` boards
   spread over ``--duration`` seconds (board *k* at a random moment of the *k*-th
   ``duration / boards`` slice): West ``POST /api/table/{t}/reports``; one to three seconds
   later North loads his table view (``GET /api/table/{t}``, where the report appears) and
   confirms it (``POST …/reports/{id}/confirm?board=k``). Meanwhile every phone polls the standings
   every 10 s with ``If-None-Match``. Every phone has its own connection, so a latency
   includes every wait in the service and none in the client. A real round is 50 minutes for 8 boards; the
   default 120 s compresses it 25 times (1,600 reports at 13 a second against the real
   hall's average of 0.5 a second and a peak of about 3.3 a second, when all 200 tables
   finish a board within the same minute): the measured "peak" is a harsher one.
2. **Director.** Close round 1 (which scores it) and publish it **at the desk**, as a
   browser does (the HTML forms with their CSRF token, each followed by the round's page
   it redirects to), timed step by step and together ("desk close+publish"); round 2 is
   then paired, its boards assigned and its cards issued (library).
3. **Saturated.** Round 2's reports as fast as the service answers: ``--connections``
   senders take West's reports from one queue (every table's first board, then every
   table's second, ...), each sending its next as soon as the last is answered; then,
   the same way, North's confirmations of them (a confirmation writes the store: it is
   measured on its own). The phones still poll. Throughput is reports (confirmations) per
   second of wall clock.

4. **The server's CPU a request.** North's table page (every table's, a few times), then
   standings polls answered 304 and polls answered 200, each a burst of its own: the
   services' CPU (/proc, every worker) over the requests; a report's and a
   confirmation's from the saturated phases, less their polls. The database backends'
   CPU likewise. Printed with the CPU's model and the load averages.

At the end the store is checked against what the client sent: every slot (round, table,
room, board) has exactly one result, the one reported, from exactly one confirmed report,
with one change in the store's log (``count_results``): lost, wrong and duplicated results
are counted (goal: none).

Goals printed beside the figures (the issue's, on the project's 2-vCPU machine, in every
run): p99 under 200 ms for a report or a confirmation at the peak rate; at least 300
reports and 300 confirmations per second saturated; the desk's close and publish of the
round (100 matches at 200 tables) under 1 s; the server's CPU at most 2 ms a report, a
confirmation and a table page and 0.5 ms a standings poll answered 304; nothing lost.
``--runs N`` runs the whole bench N times (a fresh database each) and prints each goal
against every run and the medians. ``--hosts N`` runs N services (``guandan serve
--workers W`` each, on a port of its own) on the one database behind a local HAProxy
(``apt-get install haproxy``), as N hosts would be. ``--profile FILE`` runs one worker
under cProfile instead (every thread of it: the path operations run in a thread pool) and
prints its main costs: the figures of such a run are not comparable. ``--poll 0``: no
phone polls the standings (the reports' and confirmations' own cost).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import platform
import pstats
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from hall_client import RawClient, Response, TransportError  # noqa: E402
from sqlalchemy import Engine, func, select, text  # noqa: E402

from duplicate import db, events, models  # noqa: E402
from duplicate.dealing import parse_seed_file, seed_file_bytes  # noqa: E402
from duplicate.store.calls import current_results, result_of_finish  # noqa: E402

EVENT = "Bench Hall"
SEED = "4a11be"
BOARD_SEED = parse_seed_file(seed_file_bytes(bytes.fromhex("4a" * 32)))
PASSWORD = "bench-director-password"
SECRET = "bench-secret-key-0123456789abcdef"
DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
SEATS = "NESW"
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}

GOAL_P99_MS = 200.0
GOAL_REPORTS_PER_S = 300.0
GOAL_CONFIRMS_PER_S = 300.0
GOAL_CLOSE_PUBLISH_S = 1.0
#: The server's CPU a request, by kind (ms): the goals, whatever the machine's load.
GOAL_CPU_MS = {"report": 2.0, "confirmation": 2.0, "table page": 2.0, "standings 304": 0.5}
#: How many requests each of the CPU phases sends (table pages: every table's, this often).
CPU_POLLS = 3000
CPU_PAGES_PER_TABLE = 4

#: (round, table, room, board): one room's board, the unit a result is stored for.
SlotId = tuple[int, int, str, int]


# --- counting results (pure: unit-tested) ------------------------------------------------


@dataclass
class Tally:
    """What the store holds against what the client sent."""

    expected: int = 0
    ok: int = 0
    lost: list[str] = field(default_factory=list)  # sent and confirmed, no result stored
    wrong: list[str] = field(default_factory=list)  # a result other than the one sent
    duplicated: list[str] = field(default_factory=list)  # more than one row/change/report
    unexpected: list[str] = field(default_factory=list)  # a result nobody sent

    @property
    def clean(self) -> bool:
        """No result lost, wrong, duplicated or unexpected."""
        return not (self.lost or self.wrong or self.duplicated or self.unexpected)

    def summary(self) -> dict[str, int]:
        """The counts (JSON)."""
        return {
            "expected": self.expected,
            "ok": self.ok,
            "lost": len(self.lost),
            "wrong": len(self.wrong),
            "duplicated": len(self.duplicated),
            "unexpected": len(self.unexpected),
        }


def _name(slot: SlotId) -> str:
    r, t, room, b = slot
    return f"round {r} table {t} {room} board {b}"


def count_results(
    expected: Mapping[SlotId, int],
    stored: Iterable[tuple[SlotId, int | None]],
    changes: Mapping[SlotId, int],
    confirmed: Mapping[SlotId, int],
    slots: Iterable[SlotId] = (),
) -> Tally:
    """Compare the store with what was sent.

    ``expected``: the N–S result the client reported (and North confirmed) per slot;
    ``stored``: one ``(slot, ns_result)`` per room result row of the event (a slot seen
    twice is a duplicated row); ``changes``: the number of changes in the store's log per
    slot (one report is one change: more is a result stored twice); ``confirmed``: the
    number of confirmed hall reports per slot (exactly one each); ``slots``: every slot
    the hall played, so that one whose report was never acknowledged counts as lost."""
    every = set(slots) | set(expected)
    tally = Tally(expected=len(every))
    seen: Counter[SlotId] = Counter()
    result: dict[SlotId, int | None] = {}
    for slot, ns in stored:
        seen[slot] += 1
        result[slot] = ns
    for slot in sorted(set(seen) | every):
        name = _name(slot)
        if slot not in every:
            tally.unexpected.append(name)
            continue
        if slot not in expected:
            tally.lost.append(f"{name}: never acknowledged")
            continue
        if seen[slot] > 1 or changes.get(slot, 0) > 1 or confirmed.get(slot, 0) > 1:
            tally.duplicated.append(
                f"{name}: {seen[slot]} rows, {changes.get(slot, 0)} changes, "
                f"{confirmed.get(slot, 0)} confirmed reports"
            )
        elif slot not in result or result[slot] is None or confirmed.get(slot, 0) == 0:
            tally.lost.append(name)
        elif result[slot] != expected[slot]:
            tally.wrong.append(f"{name}: stored {result[slot]}, sent {expected[slot]}")
        else:
            tally.ok += 1
    return tally


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(p / 100 * len(ordered))))
    return ordered[rank - 1]


# --- the hall set up with the library ----------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One physical table: a match's room, its two tokens."""

    round_no: int
    table: int
    room: str
    report_token: str
    confirm_token: str
    boards: tuple[int, ...]  # as the round numbers them (round 2 of 8 boards: 9 to 16)

    def __str__(self) -> str:  # never the tokens
        return f"round {self.round_no} table {self.table} {self.room}"


def setup_event(engine: Engine, teams: int, boards: int) -> None:
    """Create the event (2 rounds, Swiss, 20-VP) and its teams; pair round 1; its boards."""
    events.create_event(engine, EVENT, seed=SEED, rounds=2, boards_per_round=boards, scale="vp20")
    for i in range(1, teams + 1):
        name = f"T{i:03d}"
        events.add_team(engine, EVENT, name, [f"{name}-{j}" for j in range(1, 5)])
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, 1, seed=BOARD_SEED)


def issue_cards(engine: Engine, round_no: int) -> list[Table]:
    """The round's cards (library: ``hall.issue_tokens``), one ``Table`` per card."""
    from duplicate import hall

    cards = hall.issue_tokens(engine, EVENT, round_no, by="bench")
    boards = tuple(events.get_round(engine, EVENT, round_no).boards)
    return [
        Table(round_no, c.table, c.room, c.report_token, c.confirm_token, boards)
        for c in cards
    ]


def next_round(engine: Engine, round_no: int) -> list[Table]:
    """Pair round ``round_no``, assign its boards, issue its cards (library)."""
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, round_no, seed=BOARD_SEED)
    return issue_cards(engine, round_no)


def stored_slots(engine: Engine) -> tuple[
    list[tuple[SlotId, int | None]], dict[SlotId, int], dict[SlotId, int]
]:
    """What the store holds for the event: rows with their current N–S result, the number
    of changes per slot, the number of confirmed hall reports per slot."""

    def slot_of(rnd: str, table: str, room: str, board: str) -> SlotId:
        return (int(rnd), int(table), room, int(board))

    stored = [
        (slot_of(c.key.round, c.key.table, c.key.room, c.board), c.state.ns_result)
        for c in current_results(engine, event=EVENT)
    ]
    r, ch = models.RoomResult, models.ResultChange
    with engine.connect() as conn:
        rows = conn.execute(
            select(r.round, r.table_key, r.room, r.board, func.count(ch.id))
            .join(ch, ch.result_id == r.id)
            .where(r.event == EVENT)
            .group_by(r.round, r.table_key, r.room, r.board)
        )
        changes = {slot_of(*row[:4]): int(row[4]) for row in rows}
    return stored, changes, confirmed_reports(engine)


def confirmed_reports(engine: Engine) -> dict[SlotId, int]:
    """The number of confirmed hall reports per slot (``hall_reports``, any state
    ``confirmed``: one per slot, whether live or not, or the slot was stored twice)."""
    h, rnd, ev = models.HallReport, models.EventRound, models.Event
    with engine.connect() as conn:
        rows = conn.execute(
            select(rnd.number, h.table_no, h.room, h.board, func.count(h.id))
            .join(rnd, rnd.id == h.round_id)
            .join(ev, ev.id == rnd.event_id)
            .where(ev.name == EVENT, h.state == "confirmed")
            .group_by(rnd.number, h.table_no, h.room, h.board)
        )
        return {(int(r[0]), int(r[1]), str(r[2]), int(r[3])): int(r[4]) for r in rows}


# --- the server --------------------------------------------------------------------------


def free_port() -> int:
    """A free TCP port on the loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: One uvicorn worker in this process with cProfile in every thread: FastAPI runs the
#: (synchronous) path operations in a thread pool, which a profile of the main thread alone
#: (``python -m cProfile``) never sees. Each new thread's first profile event starts a
#: profiler of its own; at the end all are merged into one stats file.
PROFILED_SERVER = """
import cProfile, pstats, sys, threading
profiles = []
def _start(*_):
    sys.setprofile(None)
    p = cProfile.Profile()
    profiles.append(p)
    p.enable()
threading.setprofile(_start)
main = cProfile.Profile()
profiles.append(main)
import uvicorn
main.enable()
uvicorn.run("duplicate.web.app:app_from_env", factory=True, host="127.0.0.1", port={port},
            workers=1, log_level="warning")
main.disable()
stats = pstats.Stats(profiles[0])
for p in profiles[1:]:
    try:
        stats.add(p)
    except Exception:
        pass
stats.dump_stats({profile!r})
"""


@contextmanager
def server(url: str, port: int, workers: int, profile: str | None, log: Path) -> Iterator[int]:
    """``guandan serve`` (or one uvicorn worker under cProfile) on ``url``; yields its pid."""
    env = dict(
        os.environ,
        GUANDAN_DB=url,
        GUANDAN_DIRECTOR_PASSWORD=PASSWORD,
        GUANDAN_SECRET_KEY=SECRET,
    )
    if profile:
        code = PROFILED_SERVER.format(profile=profile, port=port)
        cmd = [sys.executable, "-c", code]
    else:
        guandan = shutil.which("guandan", path=str(Path(sys.executable).parent)) or "guandan"
        cmd = [
            guandan, "serve", "--db", url, "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(workers),
        ]
    with answering(cmd, ROOT, env, log, port) as pid:
        yield pid


@contextmanager
def answering(cmd: list[str], cwd: str | Path, env: dict[str, str], log: Path,
              port: int) -> Iterator[int]:
    """The server ``cmd`` started (its output in ``log``) and waited for until it answers on
    ``port``; yields its pid, and stops it (SIGINT, then kill) at the end."""
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"the server stopped: {log.read_text(errors='replace')[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/events", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer within 60 s")
            time.sleep(0.2)
        yield proc.pid
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


#: The local proxy in front of ``--hosts`` services (HAProxy: each request to the service
#: with the fewest in flight; connections to the services kept open and reused).
HAPROXY_CONFIG = """
global
    maxconn 4000
defaults
    mode http
    timeout connect 5s
    timeout client 300s
    timeout server 300s
    option http-keep-alive
    http-reuse always
frontend hall
    bind 127.0.0.1:{port}
    default_backend hosts
backend hosts
    balance leastconn
{servers}
"""


@contextmanager
def service(url: str, args: argparse.Namespace, workers: int,
            log: Path) -> Iterator[tuple[list[int], int | None]]:
    """The service the phones talk to on ``args.port``: one ``guandan serve`` (or one
    worker under cProfile), or with ``--hosts N`` N of them on ports of their own, as N
    hosts would be, behind HAProxy on ``args.port``. Yields the services' pids and the
    proxy's (``None``: no proxy)."""
    if args.hosts == 1:
        with server(url, args.port, workers, args.profile, log) as pid:
            yield [pid], None
        return
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not Path(haproxy).exists():
        raise SystemExit("--hosts needs HAProxy (Debian: apt-get install haproxy)")
    with ExitStack() as stack:
        ports = [free_port() for _ in range(args.hosts)]
        pids = [
            stack.enter_context(server(url, port, workers, None, log.with_suffix(f".{i}.log")))
            for i, port in enumerate(ports, 1)
        ]
        config = log.with_suffix(".haproxy.cfg")
        config.write_text(HAPROXY_CONFIG.format(port=args.port, servers="\n".join(
            f"    server host{i} 127.0.0.1:{port}" for i, port in enumerate(ports, 1))))
        proxy = stack.enter_context(answering(
            [haproxy, "-db", "-f", str(config)], ROOT, dict(os.environ),
            log.with_suffix(".haproxy.log"), args.port))
        yield pids, proxy


def tree_cpu(pid: int | list[int]) -> float:
    """CPU seconds (user + system) of processes and their live children (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = [pid] if isinstance(pid, int) else list(pid)
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                kids = (task / "children").read_text().split()
                todo.extend(int(k) for k in kids)
        except (OSError, IndexError, ValueError):
            continue
    return total


def database_cpu(engine: Engine) -> float:
    """CPU seconds of the PostgreSQL backends connected to the bench's database now (the
    services' pools keep theirs open; /proc, the server on this host)."""
    with engine.connect() as conn:
        pids = list(conn.scalars(text(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()")))
    return tree_cpu([int(p) for p in pids])


def cpu_model() -> str:
    """The CPU's model name (/proc/cpuinfo), or the platform's word for it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_text() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine (/proc/stat), for its load over a phase."""
    parts = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + (parts[4] if len(parts) > 4 else 0.0)
    return sum(parts) - idle, sum(parts)


# --- the client --------------------------------------------------------------------------


@dataclass
class Stats:
    """Latencies (seconds) and status codes per endpoint."""

    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    status: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    errors: list[str] = field(default_factory=list)
    retries: Counter[str] = field(default_factory=Counter)

    def add(self, name: str, seconds: float, status: int) -> None:
        self.latency[name].append(seconds)
        self.status[name][status] += 1

    def rows(self, wall: float) -> list[dict[str, Any]]:
        """Per endpoint: count, rate, p50, p99, max (ms), statuses."""
        out = []
        for name in sorted(self.latency):
            values = self.latency[name]
            out.append(
                {
                    "endpoint": name,
                    "requests": len(values),
                    "per_s": len(values) / wall if wall else 0.0,
                    "p50_ms": percentile(values, 50) * 1000,
                    "p99_ms": percentile(values, 99) * 1000,
                    "max_ms": max(values) * 1000,
                    "status": dict(sorted(self.status[name].items())),
                }
            )
        return out


class Hall:
    """The phones of the hall, as one asyncio client."""

    def __init__(self, base: str, connections: int, seed: int) -> None:
        host, _, port = base.removeprefix("http://").partition(":")
        self.client = RawClient(host, int(port))
        self.gate = asyncio.Semaphore(connections)
        self.connections = connections
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.expected: dict[SlotId, int] = {}
        self.played: set[SlotId] = set()
        self.to_confirm: list[tuple[Table, int, int]] = []
        self.etags: dict[int, str | None] = {}
        self.standings = f"/api/events/{quote(EVENT, safe='')}/standings"

    async def call(
        self, name: str, method: str, url: str, by_status: bool = False, retries: int = 0,
        **kw: Any,
    ) -> Response | None:
        """One request, timed from the moment it may go out (a free connection) to its
        answer; counted under ``name`` (and its status, when ``by_status``). A dropped
        connection or a 5xx is tried again up to ``retries`` times, as a phone does (the
        service stores a repeated report once): the time counts from the first try."""
        async with self.gate:
            t0 = time.perf_counter()
            for attempt in range(retries + 1):
                try:
                    resp = await self.client.request(method, url, **kw)
                except TransportError as exc:
                    if attempt < retries:
                        self.stats.retries[f"{name} {type(exc).__name__}"] += 1
                        continue
                    self.stats.errors.append(f"{name}: {type(exc).__name__} {exc}")
                    return None
                if resp.status_code < 500 or attempt == retries:
                    break
                self.stats.retries[f"{name} {resp.status_code}"] += 1
            seconds = time.perf_counter() - t0
        if by_status:
            name = f"{name} {resp.status_code}"
        self.stats.add(name, seconds, resp.status_code)
        return resp

    def finish(self) -> str:
        """A random finishing order: two partners out first is a double down ("N S")."""
        first, second = self.rng.sample(SEATS, 2)
        if PARTNER[first] == second:
            return f"{first} {second}"
        third = self.rng.choice([s for s in SEATS if s not in (first, second)])
        return f"{first} {second} {third}"

    async def report(self, table: Table, board: int) -> int | None:
        """West reports ``board``; the new report's id."""
        finish = self.finish()
        self.played.add((table.round_no, table.table, table.room, board))
        resp = await self.call(
            "report POST",
            "POST",
            f"/api/table/{table.report_token}/reports",
            json={"board": board, "finish": finish},
            retries=3,
        )
        if resp is None or resp.status_code not in (200, 201):
            if resp is not None:
                self.stats.errors.append(f"report {table} board {board}: {resp.text[:200]}")
            return None
        self.expected[(table.round_no, table.table, table.room, board)] = result_of_finish(finish)
        return int(resp.json()["id"])

    async def confirm(self, table: Table, board: int, report_id: int, look: bool) -> None:
        """North (after loading his table view when ``look``) confirms the report."""
        if look:
            view = await self.call(
                "table view GET", "GET", f"/api/table/{table.confirm_token}", retries=3
            )
            if view is None or view.status_code != 200:
                return
        resp = await self.call(
            "confirm POST",
            "POST",
            f"/api/table/{table.confirm_token}/reports/{report_id}/confirm",
            params={"board": board},
            retries=3,
        )
        if resp is not None and resp.status_code != 200:
            self.stats.errors.append(f"confirm {table} board {board}: {resp.text[:200]}")

    async def phone(self, stop: asyncio.Event, interval: float, index: int) -> None:
        """Phone ``index`` on the standings page: a poll every ``interval`` s, with the ETag
        it last got (kept from phase to phase in ``etags``, as a phone keeps its page)."""
        etag = self.etags.get(index)
        await asyncio.sleep(self.rng.uniform(0, interval))
        while not stop.is_set():
            headers = {"If-None-Match": etag} if etag else {}
            t0 = time.monotonic()
            resp = await self.call(
                "standings GET", "GET", self.standings, by_status=True, headers=headers
            )
            if resp is not None and resp.status_code == 200:
                etag = self.etags[index] = resp.headers.get("etag", etag)
            try:
                await asyncio.wait_for(stop.wait(), max(0.0, interval - (time.monotonic() - t0)))
            except TimeoutError:
                pass

    async def peak_table(self, table: Table, duration: float, gap: float) -> None:
        """A table at the hall's pace: its k-th board in the k-th slice of ``duration``."""
        start = time.monotonic()
        slice_ = duration / len(table.boards)
        for k, board in enumerate(table.boards):
            at = start + slice_ * (k + self.rng.uniform(0.2, 0.9))
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            report_id = await self.report(table, board)
            if report_id is None:
                continue
            await asyncio.sleep(self.rng.uniform(gap / 3, gap))
            await self.confirm(table, board, report_id, look=True)

    async def saturated_reports(self, queue: asyncio.Queue[tuple[Table, int]]) -> None:
        """One of ``--connections`` senders: West's reports from ``queue`` as fast as the
        service answers (the ids kept for :meth:`saturated_confirms`)."""
        while not queue.empty():
            table, board = queue.get_nowait()
            report_id = await self.report(table, board)
            if report_id is not None:
                self.to_confirm.append((table, board, report_id))

    async def burst(self, name: str, paths: list[str], headers: dict[str, str]) -> None:
        """GET every path of ``paths`` (counted under ``name``), ``connections`` at a time."""
        queue: asyncio.Queue[str] = asyncio.Queue()
        for path in paths:
            queue.put_nowait(path)

        async def sender() -> None:
            while not queue.empty():
                path = queue.get_nowait()
                await self.call(name, "GET", path, by_status=True, headers=headers)

        await asyncio.gather(*(sender() for _ in range(self.connections)))

    async def saturated_confirms(self, queue: asyncio.Queue[tuple[Table, int, int]]) -> None:
        """One of ``--connections`` senders: North's confirmations from ``queue``."""
        while not queue.empty():
            table, board, report_id = queue.get_nowait()
            await self.confirm(table, board, report_id, look=False)


async def run_phase(
    hall: Hall, tables: list[Table], phones: int, poll: float, duration: float | None, gap: float,
    confirms: list[tuple[Table, int, int]] | None = None,
) -> float:
    """One phase (peak when ``duration`` is given; else saturated: West's reports, or
    North's ``confirms``); its wall seconds."""
    stop = asyncio.Event()
    pollers = [asyncio.create_task(hall.phone(stop, poll, i)) for i in range(phones if poll else 0)]
    t0 = time.perf_counter()
    if duration is not None:
        work = [hall.peak_table(t, duration, gap) for t in tables]
    elif confirms is None:  # every table's first board, then every table's second, ...
        reports: asyncio.Queue[tuple[Table, int]] = asyncio.Queue()
        for k in range(max(len(t.boards) for t in tables)):
            for t in tables:
                if k < len(t.boards):
                    reports.put_nowait((t, t.boards[k]))
        work = [hall.saturated_reports(reports) for _ in range(hall.connections)]
    else:  # in the order the reports were answered
        queue: asyncio.Queue[tuple[Table, int, int]] = asyncio.Queue()
        for item in confirms:
            queue.put_nowait(item)
        work = [hall.saturated_confirms(queue) for _ in range(hall.connections)]
    await asyncio.gather(*work)
    wall = time.perf_counter() - t0
    stop.set()
    await asyncio.gather(*pollers)
    return wall


async def director(hall: Hall, path: str) -> tuple[int, float, str]:
    """A director's API call (Bearer): status, seconds, the start of its answer."""
    t0 = time.perf_counter()
    resp = await hall.client.request(
        "POST", path, headers={"Authorization": f"Bearer {PASSWORD}"}
    )
    return resp.status_code, time.perf_counter() - t0, resp.text[:300]


async def desk_close_and_publish(base: str, round_no: int) -> dict[str, dict[str, Any]]:
    """The director closes (scores) and publishes the round at the desk, as a browser
    does: logged in, the round's page read for its CSRF token (not timed), then each form
    POSTed and the page it redirects to (Post/Redirect/Get: the round's desk, with its
    message) loaded. Seconds of each step (the POST and the page after it) and of both."""
    path = f"/desk/e/{quote(EVENT, safe='')}/round/{round_no}"
    out: dict[str, dict[str, Any]] = {}
    async with httpx.AsyncClient(base_url=base, timeout=300) as desk:
        r = await desk.post("/desk/login", data={"password": PASSWORD, "next": path})
        page = await desk.get(path)
        m = re.search(r'name="csrf" value="([^"]+)"', page.text)
        if r.status_code != 303 or m is None:
            return {"desk close": {"status": page.status_code, "ok": False, "s": 0.0,
                                   "answer": "the desk's login or round page failed"}}
        total = 0.0
        for step in ("close", "publish"):
            t0 = time.perf_counter()
            r = await desk.post(f"{path}/{step}", data={"csrf": m.group(1)},
                                follow_redirects=True)
            secs = time.perf_counter() - t0
            total += secs
            flash = re.search(r'<p class="flash (ok|bad)"[^>]*>(.*?)</p>', r.text, re.S)
            ok = r.status_code == 200 and flash is not None and flash.group(1) == "ok"
            said = flash.group(2).strip() if flash is not None else r.text[:120]
            out[f"desk {step}"] = {"status": r.status_code, "ok": ok, "s": secs,
                                   "answer": said[:120]}
            if not ok:
                return out
        out["desk close+publish"] = {"ok": True, "s": total}
    return out


# --- the run ---------------------------------------------------------------------------


def phase_result(
    label: str, stats: Stats, wall: float, cpu: dict[str, float]
) -> dict[str, Any]:
    """One phase's figures."""
    reports = len(stats.latency.get("report POST", []))
    confirms = len(stats.latency.get("confirm POST", []))
    return {
        "phase": label,
        "wall_s": wall,
        "reports_per_s": reports / wall if wall else 0.0,
        "confirms_per_s": confirms / wall if wall else 0.0,
        "endpoints": stats.rows(wall),
        "errors": len(stats.errors),
        "retries": dict(stats.retries),
        "first_errors": stats.errors[:5],
        **cpu,
    }


async def cpu_phases(
    hall: Hall, tables: list[Table], out: dict[str, Any], snapshot: Callable[[], Any],
    cpu_since: Callable[[Any], dict[str, float]], polls: int = CPU_POLLS,
) -> None:
    """The server's CPU a request of the kinds no other phase sends alone: North's table
    page, a standings poll answered 304, and one answered 200 (the standings' JSON as the
    worker keeps it), each a burst of nothing else (``connections`` in flight, no phone
    polling), after the round's reports are all in."""
    first = await hall.client.request("GET", hall.standings)
    etag = first.headers.get("etag", "")
    pages = [f"/api/table/{t.confirm_token}" for t in tables] * CPU_PAGES_PER_TABLE
    for label, name, paths, headers in (
        ("table pages", "table view GET", pages, {}),
        ("standings polls 304", "standings GET", [hall.standings] * polls,
         {"If-None-Match": etag}),
        ("standings polls 200", "standings GET", [hall.standings] * polls, {}),
    ):
        hall.stats = Stats()
        s = snapshot()
        t0 = time.perf_counter()
        await hall.burst(name, paths, headers)
        wall = time.perf_counter() - t0
        out["phases"].append(phase_result(label, hall.stats, wall, cpu_since(s)))


def cpu_per_request(result: dict[str, Any]) -> dict[str, float]:
    """The server's CPU (ms) a request of each kind: a CPU phase's CPU over its requests;
    a saturated phase's, less its phones' polls (at the CPU phases' cost of a poll), over
    its reports or confirmations; the desk's close and publish, whole (its CPU, not ms a
    request)."""
    by_phase = {ph["phase"]: ph for ph in result["phases"]}

    def count(ph: dict[str, Any], name: str) -> int:
        return sum(r["requests"] for r in ph["endpoints"] if r["endpoint"].startswith(name))

    out: dict[str, float] = {}
    for label, kind, name in (("table pages", "table page", "table view GET"),
                              ("standings polls 304", "standings 304", "standings GET"),
                              ("standings polls 200", "standings 200", "standings GET")):
        ph = by_phase.get(label)
        if ph is not None and count(ph, name):
            out[kind] = 1000 * ph["server_cpu_s"] / count(ph, name)
    for label, kind, name in (("saturated reports", "report", "report POST"),
                              ("saturated confirmations", "confirmation", "confirm POST"),
                              ("table pages", "table page", "table view GET")):
        ph = by_phase.get(label)
        if ph is not None and count(ph, name) and "database_cpu_s" in ph:
            out[f"{kind}: PostgreSQL"] = 1000 * ph["database_cpu_s"] / count(ph, name)
    for label, kind, name in (("saturated reports", "report", "report POST"),
                              ("saturated confirmations", "confirmation", "confirm POST")):
        ph = by_phase.get(label)
        if ph is None or not count(ph, name):
            continue
        polls = {r["endpoint"]: r["requests"] for r in ph["endpoints"]}
        less = (polls.get("standings GET 304", 0) * out.get("standings 304", 0.0)
                + polls.get("standings GET 200", 0) * out.get("standings 200", 0.0)) / 1000
        out[kind] = 1000 * (ph["server_cpu_s"] - less) / count(ph, name)
    peak = by_phase.get("peak")
    if peak is not None:
        n = sum(r["requests"] for r in peak["endpoints"])
        out["peak (any request)"] = 1000 * peak["server_cpu_s"] / max(1, n)
    if "desk_server_cpu_s" in result:
        out["desk close+publish (whole)"] = 1000 * result["desk_server_cpu_s"]
    return out


async def run_hall(
    args: argparse.Namespace, url: str, engine: Engine, pid: list[int], proxy: int | None
) -> dict[str, Any]:
    """Both phases and the director's calls between them; figures by phase."""
    base = f"http://127.0.0.1:{args.port}"
    ev = f"/api/events/{quote(EVENT, safe='')}"
    phones = args.tables * 4
    out: dict[str, Any] = {"phases": [], "director": {}}

    def snapshot() -> tuple[float, float, float, tuple[float, float], float, float]:
        return (time.perf_counter(), time.process_time(), tree_cpu(pid), machine_busy(),
                tree_cpu(proxy) if proxy else 0.0, database_cpu(engine))

    def cpu_since(
        s: tuple[float, float, float, tuple[float, float], float, float],
    ) -> dict[str, Any]:
        wall = time.perf_counter() - s[0]
        busy, total = machine_busy()
        return {
            "client_cpu_s": time.process_time() - s[1],
            "server_cpu_s": tree_cpu(pid) - s[2],
            "proxy_cpu_s": (tree_cpu(proxy) - s[4]) if proxy else 0.0,
            "database_cpu_s": database_cpu(engine) - s[5],
            "machine_busy": (busy - s[3][0]) / max(1.0, total - s[3][1]),
            "load_avg_1min": os.getloadavg()[0],
            "load": load_text(),
            "wall_clock_s": wall,
        }

    tables1 = issue_cards(engine, 1)
    # at the peak every phone has its own connection (as in the hall): a request's latency
    # includes any wait in the server, none in the client
    hall = Hall(base, max(args.connections, phones), seed=1)
    try:
        status, secs, text = await director(hall, f"{ev}/rounds/1/start")
        out["director"]["start"] = {"status": status, "s": secs, "answer": text[:120]}
        s = snapshot()
        wall = await run_phase(hall, tables1, phones, args.poll, args.duration, args.gap)
        out["phases"].append(phase_result("peak", hall.stats, wall, cpu_since(s)))
        expected = dict(hall.expected)
        played = set(hall.played)

        cpu0 = tree_cpu(pid)
        desk = await desk_close_and_publish(base, 1)
        out["desk_server_cpu_s"] = tree_cpu(pid) - cpu0
        out["director"].update(desk)
        if "desk close+publish" not in desk:
            failed = next(v for v in desk.values() if not v.get("ok"))
            out["saturated_skipped"] = (
                "round 1 could not be closed and published at the desk: " + failed["answer"]
            )
            return {**out, "expected": expected, "played": played}
        t0 = time.perf_counter()
        tables2 = await asyncio.to_thread(next_round, engine, 2)
        out["director"]["pair+assign+cards (library)"] = {"s": time.perf_counter() - t0}
        status, secs, text = await director(hall, f"{ev}/rounds/2/start")
        out["director"]["start 2"] = {"status": status, "s": secs, "answer": text[:120]}

        sat = Hall(base, args.connections, seed=2)
        sat.etags = hall.etags  # the same phones
        try:
            s = snapshot()
            wall = await run_phase(sat, tables2, phones, args.poll, None, 0)
            out["phases"].append(phase_result("saturated reports", sat.stats, wall, cpu_since(s)))
            sat.stats = Stats()
            s = snapshot()
            wall = await run_phase(sat, tables2, phones, args.poll, None, 0, sat.to_confirm)
            out["phases"].append(
                phase_result("saturated confirmations", sat.stats, wall, cpu_since(s))
            )
            expected.update(sat.expected)
            played |= sat.played
            await cpu_phases(sat, tables2, out, snapshot, cpu_since,
                             CPU_POLLS // 10 if args.quick else CPU_POLLS)
        finally:
            await sat.client.aclose()
    finally:
        await hall.client.aclose()
    return {**out, "expected": expected, "played": played}


def server_errors(log: Path) -> dict[str, Any]:
    """The server log's errors: how many tracebacks, and the exceptions they end with
    (the most frequent few), so that a 500 says why."""
    text = log.read_text(errors="replace") if log.exists() else ""
    kinds: Counter[str] = Counter(
        m.group(0)[:200]
        for m in re.finditer(r"(?m)^[A-Za-z_][\w.]*(?:Error|Exception|Timeout)\w*(?::.*)?$", text)
    )
    return {
        "path": str(log),
        "tracebacks": text.count("Traceback (most recent call last)"),
        "kinds": kinds.most_common(5),
    }


def print_report(result: dict[str, Any]) -> None:
    """The figures as a table a person reads."""
    cfg = result["config"]
    print(
        f"hall: {cfg['tables']} tables ({cfg['matches']} matches x 2 rooms, {cfg['teams']} teams), "
        + (f"{cfg['phones']} phones polling the standings every {cfg['poll_s']:g} s, "
           if cfg["poll_s"] else "no standings polls, ")
        + f"{cfg['boards']} boards a table; "
        f"{cfg['workers']} worker(s)"
        + (f" on each of {cfg['hosts']} hosts behind HAProxy" if cfg.get("hosts", 1) > 1 else "")
        + " on PostgreSQL; client connections: "
        f"{cfg['peak_connections']} at the peak (one a phone), {cfg['connections']} saturated"
    )
    print(f"machine: {cfg['machine']}; load {result.get('load_at_start', '?')} at this run's start")
    for ph in result["phases"]:
        print(
            f"\n{ph['phase']}: {ph['wall_s']:.1f} s, {ph['reports_per_s']:.1f} reports/s, "
            f"{ph['confirms_per_s']:.1f} confirmations/s; CPU: server {ph['server_cpu_s']:.1f} s, "
            + (f"proxy {ph['proxy_cpu_s']:.1f} s, " if ph.get("proxy_cpu_s") else "")
            + f"PostgreSQL {ph.get('database_cpu_s', 0.0):.1f} s, "
            + f"client {ph['client_cpu_s']:.1f} s, machine busy {ph['machine_busy']:.0%}, "
            f"load {ph.get('load', ph['load_avg_1min'])}; errors {ph['errors']}, "
            f"retried {sum(ph.get('retries', {}).values())}"
        )
        print(f"  {'endpoint':<20} {'requests':>8} {'per s':>7} {'p50 ms':>7} {'p99 ms':>7} "
              f"{'max ms':>7}  statuses")
        for row in ph["endpoints"]:
            print(
                f"  {row['endpoint']:<20} {row['requests']:>8} {row['per_s']:>7.1f} "
                f"{row['p50_ms']:>7.1f} {row['p99_ms']:>7.1f} {row['max_ms']:>7.0f}  "
                f"{row['status']}"
            )
        for err in ph["first_errors"]:
            print(f"  error: {err}")
    print("\ndirector:", ", ".join(
        f"{k} {v.get('status', '')} {v['s'] * 1000:.0f} ms" for k, v in result["director"].items()
    ))
    errs = result.get("server_log", {})
    if errs.get("tracebacks"):
        print(f"server log {errs['path']}: {errs['tracebacks']} tracebacks")
        for kind, n in errs["kinds"]:
            print(f"  {n} x {kind}")
    if "saturated_skipped" in result:
        print("saturated phase skipped:", result["saturated_skipped"])
    print("server CPU a request (the services' processes; ': PostgreSQL': its backends' CPU):")
    for kind, ms in result.get("cpu_ms", {}).items():
        goal = GOAL_CPU_MS.get(kind)
        print(f"  {kind:<28} {ms:7.2f} ms" + (f"  (goal <= {goal:g} ms)" if goal else ""))
    t = result["results"]
    print(
        f"results: {t['expected']} sent and confirmed, {t['ok']} stored once as sent; "
        f"lost {t['lost']}, wrong {t['wrong']}, duplicated {t['duplicated']}, "
        f"unexpected {t['unexpected']}"
    )
    for line in result.get("result_problems", [])[:10]:
        print("  ", line)
    for goal in result["goals"]:
        print(f"goal: {goal['goal']}: {goal['measured']} -> {'met' if goal['met'] else 'NOT met'}")


def goals(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's goals against the figures."""
    out = []
    by_phase = {ph["phase"]: ph for ph in result["phases"]}
    if "peak" in by_phase:
        rows = {r["endpoint"]: r for r in by_phase["peak"]["endpoints"]}
        p99 = max(rows.get(n, {"p99_ms": 0.0})["p99_ms"] for n in ("report POST", "confirm POST"))
        out.append({"goal": f"p99 of a report or confirmation at peak < {GOAL_P99_MS:g} ms",
                    "measured": f"{p99:.0f} ms", "met": p99 < GOAL_P99_MS})
    if "saturated reports" in by_phase:
        rate = by_phase["saturated reports"]["reports_per_s"]
        out.append({"goal": f">= {GOAL_REPORTS_PER_S:g} reports/s saturated",
                    "measured": f"{rate:.0f} reports/s", "met": rate >= GOAL_REPORTS_PER_S})
    if "saturated confirmations" in by_phase:
        rate = by_phase["saturated confirmations"]["confirms_per_s"]
        out.append({"goal": f">= {GOAL_CONFIRMS_PER_S:g} confirmations/s saturated",
                    "measured": f"{rate:.0f} confirmations/s",
                    "met": rate >= GOAL_CONFIRMS_PER_S})
    cpu = result.get("cpu_ms", {})
    for kind, goal in GOAL_CPU_MS.items():
        if kind in cpu:
            out.append({"goal": f"server CPU a {kind} <= {goal:g} ms",
                        "measured": f"{cpu[kind]:.2f} ms", "met": cpu[kind] <= goal})
    desk = result["director"].get("desk close+publish")
    if desk is not None:
        matches = result["config"]["matches"]
        out.append({"goal": f"the desk's close and publish of a {matches}-match round "
                            f"< {GOAL_CLOSE_PUBLISH_S:g} s",
                    "measured": f"{desk['s']:.2f} s", "met": desk["s"] < GOAL_CLOSE_PUBLISH_S})
    t = result["results"]
    bad = t["lost"] + t["wrong"] + t["duplicated"] + t["unexpected"]
    out.append({"goal": "no result lost or duplicated", "measured": f"{bad} bad of {t['expected']}",
                "met": bad == 0 and t["expected"] > 0})
    return out


def print_profile(path: str, top: int = 30) -> None:
    """The profiled worker's main costs (every thread: CPU and waits for the database)."""
    stats = pstats.Stats(path)
    print(f"\nprofile of one worker, every thread ({path}), by own time:")
    stats.sort_stats("tottime").print_stats(top)
    print("by cumulative time, the project's functions:")
    stats.sort_stats("cumulative").print_stats(r"/(duplicate|web)/", top)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=200, help="physical tables (2 a match)")
    ap.add_argument("--boards", type=int, default=8, help="boards a round")
    ap.add_argument("--workers", type=int, default=2, help="uvicorn workers (of each host)")
    ap.add_argument("--hosts", type=int, default=1,
                    help="services (each 'guandan serve --workers N' on a port of its own, as "
                    "on a host of its own) behind a local HAProxy, on one database")
    ap.add_argument("--duration", type=float, default=120.0,
                    help="seconds over which the peak phase's reports arrive")
    ap.add_argument("--connections", type=int, default=64,
                    help="client connections (requests in flight) in the saturated phase; "
                    "at the peak every phone has its own")
    ap.add_argument("--poll", type=float, default=10.0, help="standings poll interval (s)")
    ap.add_argument("--gap", type=float, default=3.0,
                    help="at most this many seconds between West's report and North's look")
    ap.add_argument("--pg", metavar="URL",
                    default=os.environ.get("GUANDAN_BENCH_DATABASE_URL") or DEFAULT_PG,
                    help="PostgreSQL server (a database is created and dropped on it)")
    ap.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    ap.add_argument("--quick", action="store_true",
                    help="a small run (4 tables, 2 boards, 2 s): a smoke check")
    ap.add_argument("--runs", type=int, default=1,
                    help="run the whole bench this many times (a fresh database each) and "
                    "print the median of each goal's figure")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--server-log", metavar="FILE",
                    default=str(Path(tempfile.gettempdir()) / "guandan-bench-hall-server.log"),
                    help="where the server's output goes (kept)")
    ap.add_argument("--profile", metavar="FILE",
                    help="one worker under cProfile, stats to FILE (figures not comparable)")
    args = ap.parse_args()
    if args.quick:
        args.tables, args.boards, args.duration, args.gap, args.poll = 4, 2, 2.0, 0.3, 2.0
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    if args.hosts < 1 or (args.hosts > 1 and args.profile):
        ap.error("--hosts must be at least 1, and 1 with --profile")
    if args.tables < 2 or args.tables % 2:
        ap.error("--tables must be even (a match is two tables) and at least 2")
    args.port = args.port or free_port()
    matches = args.tables // 2
    workers = 1 if args.profile else args.workers
    config = {
        "tables": args.tables, "matches": matches, "teams": 2 * matches,
        "phones": 4 * args.tables, "boards": args.boards, "workers": workers,
        "hosts": args.hosts,
        "connections": args.connections, "peak_connections": max(args.connections, 4 * args.tables), "poll_s": args.poll, "peak_duration_s": args.duration,
        "profiled": bool(args.profile),
        "machine": f"{os.cpu_count()} cores, {cpu_model()}, "
                   f"Python {platform.python_version()}, load {load_text()} (1/5/15 min) at start",
    }
    runs = []
    for run in range(1, args.runs + 1):
        if not args.json:
            print(f"{f'run {run} of {args.runs}: ' if args.runs > 1 else ''}setting up "
                  f"{2 * matches} teams on a fresh database ...", flush=True)
        load = load_text()
        result = one_run(args, workers, 2 * matches)
        result["load_at_start"] = load
        result["cpu_ms"] = cpu_per_request(result)
        result["config"] = config
        result["goals"] = goals(result)
        runs.append(result)
        if not args.json:
            print_report(result)
            if args.profile:
                print_profile(args.profile)
        args.port = free_port()  # the next run's server
    if args.json:
        print(json.dumps(runs[0] if args.runs == 1 else
                         {"runs": runs, "medians": medians(runs)}, indent=2, default=str))
    elif args.runs > 1:
        print_medians(medians(runs), args.runs)


def one_run(args: argparse.Namespace, workers: int, teams: int) -> dict[str, Any]:
    """One run of the bench on a fresh database: its figures and the store's tally."""
    with db.temporary_database(args.pg, prefix="guandan_bench_hall") as url:
        engine = db.make_engine(url)
        try:
            db.upgrade(engine)
            setup_event(engine, teams, args.boards)
            log = Path(args.server_log)
            with service(url, args, workers, log) as (pids, proxy):
                gc.freeze()  # the client's own collections would pause every phone at once
                result = asyncio.run(run_hall(args, url, engine, pids, proxy))
                gc.unfreeze()
            result["server_log"] = server_errors(log)
            expected = result.pop("expected")
            played = result.pop("played")
            stored, changes, confirmed = stored_slots(engine)
            tally = count_results(expected, stored, changes, confirmed, played)
        finally:
            engine.dispose()
    result["results"] = tally.summary()
    result["result_problems"] = (tally.lost + tally.wrong + tally.duplicated + tally.unexpected)[:50]
    return result


def figures(result: dict[str, Any]) -> dict[str, float | None]:
    """The three figures the README gives (``None``: the run did not reach the phase)."""
    by_phase = {ph["phase"]: ph for ph in result["phases"]}
    p99 = None
    if "peak" in by_phase:
        rows = {r["endpoint"]: r for r in by_phase["peak"]["endpoints"]}
        p99 = max(rows.get(n, {"p99_ms": 0.0})["p99_ms"] for n in ("report POST", "confirm POST"))
    sat = by_phase.get("saturated reports")
    desk = result["director"].get("desk close+publish")
    bad = sum(result["results"][k] for k in ("lost", "wrong", "duplicated", "unexpected"))
    conf = by_phase.get("saturated confirmations")
    cpu = result.get("cpu_ms", {})
    return {
        "saturated_reports_per_s": sat["reports_per_s"] if sat else None,
        "saturated_confirms_per_s": conf["confirms_per_s"] if conf else None,
        "peak_p99_ms": p99,
        "desk_close_publish_s": desk["s"] if desk else None,
        "bad_results": float(bad),
        **{f"cpu_ms {kind}": cpu.get(kind) for kind in GOAL_CPU_MS},
    }


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median of each figure over the runs (a run missing a figure counts against
    it: its median is ``None`` unless every run has it), and every run's figures."""
    each = [figures(r) for r in runs]
    out: dict[str, Any] = {"runs": len(runs), "each": each}
    for name in each[0]:
        values = [f[name] for f in each]
        known = [v for v in values if v is not None]
        out[name] = statistics.median(known) if len(known) == len(values) else None
    return out


def print_medians(med: dict[str, Any], runs: int) -> None:
    """The medians over the runs, with the goals against them."""
    print(f"\nmedians of {runs} runs:")
    for f in med["each"]:
        print("  run:", ", ".join(f"{k} {v:.2f}" if v is not None else f"{k} -"
                                  for k, v in f.items()))
    rate, p99, desk = (med["saturated_reports_per_s"], med["peak_p99_ms"],
                       med["desk_close_publish_s"])
    each = med["each"]
    for name, goal, unit, ok in (
        ("saturated_reports_per_s", GOAL_REPORTS_PER_S, "reports/s", lambda v, g: v >= g),
        ("saturated_confirms_per_s", GOAL_CONFIRMS_PER_S, "confirmations/s",
         lambda v, g: v >= g),
        ("peak_p99_ms", GOAL_P99_MS, "ms", lambda v, g: v < g),
        ("desk_close_publish_s", GOAL_CLOSE_PUBLISH_S, "s", lambda v, g: v < g),
        *((f"cpu_ms {k}", g, "ms", lambda v, g: v <= g) for k, g in GOAL_CPU_MS.items()),
    ):
        values = [f[name] for f in each]
        met = all(v is not None and ok(v, goal) for v in values)
        shown = ", ".join("-" if v is None else f"{v:.2f}" for v in values)
        print(f"every run: {name} (goal {goal:g} {unit}): {shown} -> "
              f"{'met in every run' if met else 'NOT met in every run'}")
    rows = [
        (f">= {GOAL_REPORTS_PER_S:g} reports/s saturated", rate, "reports/s",
         rate is not None and rate >= GOAL_REPORTS_PER_S),
        (f"p99 of a report or confirmation at peak < {GOAL_P99_MS:g} ms", p99, "ms",
         p99 is not None and p99 < GOAL_P99_MS),
        (f"the desk's close and publish < {GOAL_CLOSE_PUBLISH_S:g} s", desk, "s",
         desk is not None and desk < GOAL_CLOSE_PUBLISH_S),
        ("no result lost or duplicated (every run)", sum(f["bad_results"] for f in med["each"]),
         "bad", all(f["bad_results"] == 0 for f in med["each"])),
    ]
    for goal, value, unit, met in rows:
        shown = "-" if value is None else f"{value:.2f} {unit}"
        print(f"median: {goal}: {shown} -> {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
