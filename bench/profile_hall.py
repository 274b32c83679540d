"""Where a hall request's milliseconds go: each kind of request run in this process, its
CPU, its statements and its profile.

Run: ``python bench/profile_hall.py [--db sqlite|URL] [--tables 40] [--boards 4]
[--profile KIND] [--web]``.

The event of ``bench/bench_hall.py`` is set up on a fresh database (SQLite in a temporary
directory, or a temporary database on the PostgreSQL server ``URL``), round 1 started, and
then, one kind after another, every table's requests are run: West's report
(``hall.west_report`` with the token, as ``POST /api/table/{t}/reports`` calls it), North's
table page (``hall.table_view``), North's confirmation (``hall.north_confirm`` with the
token), the standings' version (what a poll answered 304 reads, at most once a second a
worker) and the standings themselves (a poll answered 200 after a new version), then the
desk's close and publish of the round (``hall.close_round``, ``hall.publish_round``).

For each kind it prints the thread CPU a request (``time.thread_time``: this thread only,
PostgreSQL's own CPU is not in it) and the statements it sent (SQLAlchemy's
``before_cursor_execute`` event, BEGIN and COMMIT not counted).
With ``--web`` the same requests go through the service's application, called as uvicorn
calls it (one ASGI call a request, no socket; ``version`` is then a poll answered 304 and
``standings`` one answered 200): routing, validation, the thread pool and the JSON
counted, the process's CPU. ``--profile KIND`` prints the cProfile of that kind's requests (``report``, ``view``,
``confirm``, ``version``, ``standings``, ``close``, ``publish``).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_hall import DEFAULT_PG, EVENT, issue_cards, setup_event  # noqa: E402
from sqlalchemy import Engine, event  # noqa: E402

from duplicate import db, hall  # noqa: E402


class Statements:
    """Counts the statements an engine sends (by their first words)."""

    def __init__(self, engine: Engine) -> None:
        self.count = 0
        self.kinds: Counter[str] = Counter()
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        self.count += 1
        self.kinds[" ".join(statement.split()[:3])[:60]] += 1


@contextmanager
def database(spec: str) -> Iterator[str]:
    """A fresh database: SQLite in a temporary directory, or one on a PostgreSQL server."""
    if spec == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield f"sqlite:///{tmp}/hall.sqlite"
    else:
        with db.temporary_database(spec, prefix="guandan_profile_hall") as url:
            yield url


def measure(
    name: str, calls: list[Callable[[], Any]], counter: Statements, profile: str | None,
    web: bool = False,
) -> dict[str, Any]:
    """Run ``calls`` one after the other: CPU (this thread's; the process's with ``web``)
    and statements a call."""
    prof = cProfile.Profile() if profile == name else None
    before = counter.count
    counter.kinds.clear()
    clock = time.process_time if web else time.thread_time
    t0, w0 = clock(), time.perf_counter()
    if prof is not None:
        prof.enable()
    for call in calls:
        call()
    if prof is not None:
        prof.disable()
    cpu, wall = clock() - t0, time.perf_counter() - w0
    n = max(1, len(calls))
    row = {"kind": name, "requests": len(calls), "cpu_ms": 1000 * cpu / n,
           "wall_ms": 1000 * wall / n, "statements": (counter.count - before) / n,
           "which": {k: v / n for k, v in counter.kinds.most_common(12)}}
    if prof is not None:
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(r"duplicate/", 40)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--db", default="sqlite", help="'sqlite' or a PostgreSQL server's URL "
                    f"(e.g. {DEFAULT_PG})")
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--profile", metavar="KIND")
    ap.add_argument("--web", action="store_true",
                    help="through the service's application (ASGI calls, no socket)")
    args = ap.parse_args()
    with database(args.db) as url:
        engine = db.make_engine(url)
        db.upgrade(engine)
        setup_event(engine, args.tables, args.boards)
        tables = issue_cards(engine, 1)
        hall.start_round(engine, EVENT, 1, by="bench")
        counter = Statements(engine)
        rows = run(engine, url, tables, counter, args)
        for r in rows:
            print(f"{r['kind']:<12} {r['requests']:>5} requests  CPU {r['cpu_ms']:6.2f} ms  "
                  f"wall {r['wall_ms']:6.2f} ms  statements {r['statements']:5.1f}")
            for k, v in r["which"].items():
                print(f"    {v:5.2f}  {k}")
        engine.dispose()


class Asgi:
    """The service's application called as uvicorn calls it (one ASGI call a request, no
    socket, no client), from a thread of its own running an event loop: a request's CPU
    is this process's (``time.process_time``: the loop's thread and the pool's) less
    nothing, since nothing else runs."""

    def __init__(self, url: str) -> None:
        from duplicate.web.app import create_app  # lazy: only with --web
        from duplicate.web.settings import Settings

        self.app = create_app(Settings(db_url=url, director_password="bench-password-0123",
                                       secret_key="bench-secret-key-0123456789abcdef"))
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._run(self._lifespan_start())

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    async def _lifespan_start(self) -> None:
        started = asyncio.Event()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        await queue.put({"type": "lifespan.startup"})

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "lifespan.startup.complete":
                started.set()

        self.lifespan = asyncio.ensure_future(
            self.app({"type": "lifespan", "asgi": {"version": "3.0"}}, queue.get, send)
        )
        await started.wait()

    async def _call(self, method: str, path: str, body: bytes, query: str,
                    headers: list[tuple[bytes, bytes]]) -> tuple[int, bytes]:
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": unquote(path), "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), (b"content-length", str(len(body)).encode()),
                        (b"content-type", b"application/json"), *headers],
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
        }
        sent = False
        status = 0
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)

    def call(self, method: str, path: str, body: Any = None, query: str = "",
             headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else b""
        status, text = self._run(self._call(method, path, data, query, headers or []))
        return status, text


def run(engine: Engine, url: str, tables: list[Any], counter: Statements,
        args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every kind of request, every table's, in turn."""
    rows = []
    slots = [(t, b) for b in tables[0].boards for t in tables]
    ids: dict[tuple[str, int], int] = {}

    def report(t: Any, b: int) -> None:
        rep, created = hall.west_report(engine, t.report_token, b, finish="N S E")
        assert created
        ids[(t.report_token, b)] = rep.id

    def view(t: Any) -> None:
        hall.table_view(engine, t.confirm_token)

    def confirm(t: Any, b: int) -> None:
        hall.north_confirm(engine, t.confirm_token, b, ids[(t.report_token, b)])

    def version() -> None:
        hall.standings_version(engine, EVENT)

    def standings() -> None:
        hall.live_standings(engine, EVENT)

    if args.web:
        web = Asgi(url)
        counter = Statements(web.app.state.engine)
        poll = f"/api/events/{quote(EVENT, safe='')}/standings"
        etag: list[tuple[bytes, bytes]] = []

        def report(t: Any, b: int) -> None:
            status, text = web.call("POST", f"/api/table/{t.report_token}/reports",
                                    {"board": b, "finish": "N S E"})
            assert status == 201, text
            ids[(t.report_token, b)] = json.loads(text)["id"]

        def view(t: Any) -> None:
            status, text = web.call("GET", f"/api/table/{t.confirm_token}")
            assert status == 200, text

        def confirm(t: Any, b: int) -> None:
            status, text = web.call(
                "POST", f"/api/table/{t.confirm_token}/reports/{ids[(t.report_token, b)]}"
                "/confirm", query=f"board={b}")
            assert status == 200, text

        def version() -> None:  # a poll answered 304
            if not etag:
                web.call("GET", poll)
                etag.append((b"if-none-match", f'"{hall.standings_version(engine, EVENT)}"'
                             .encode()))
            status, text = web.call("GET", poll, headers=etag)
            assert status == 304, (status, text)

        def standings() -> None:  # a poll answered 200 (the JSON as the worker keeps it)
            status, text = web.call("GET", poll)
            assert status == 200, text

    half = len(slots) // 2
    for label, part in (("warm-up", slots[:half]), ("", slots[half:])):
        prof = None if label else args.profile
        rows.append(measure("report", [lambda t=t, b=b: report(t, b) for t, b in part],
                            counter, prof, args.web))
        rows.append(measure("view", [lambda t=t: view(t) for t, _ in part],
                            counter, prof, args.web))
        rows.append(measure("confirm", [lambda t=t, b=b: confirm(t, b) for t, b in part],
                            counter, prof, args.web))
        if label:
            for r in rows[-3:]:
                r["kind"] += " " + label
    rows.append(measure("version", [version] * 200, counter, args.profile, args.web))
    rows.append(measure("standings", [standings] * (200 if args.web else 5), counter,
                        args.profile, args.web))
    rows.append(measure("close", [lambda: hall.close_round(engine, EVENT, 1, by="bench")],
                        counter, args.profile))
    rows.append(measure("publish", [lambda: hall.publish_round(engine, EVENT, 1, by="bench")],
                        counter, args.profile))
    return rows


if __name__ == "__main__":
    main()
