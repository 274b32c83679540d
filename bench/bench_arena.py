"""Arena speed over loopback: four ``guandan agent`` heuristic clients (separate processes)
play a duplicate match against the arena in this process.

Prints deals per second (server and clients included, wall clock), messages per second
(every frame the server sent or received), and per deal the server's CPU time beside the
engine's share of it (legal plays for ``actionList`` and applying the plays) — the rest is
the arena's own cost: JSON, WebSocket frames, asyncio. Then the server's work without
sockets, and the transport alone: the same ping-pong with prebuilt messages and clients
that answer at once (the ceiling on deals per second when neither side thinks).
``--socket-free`` measures only server and agents in one process, on both cores.

    python bench/bench_arena.py --boards 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.arena.agent import AgentStats, choose, native_index, split_act  # noqa: E402
from duplicate.arena.client import SilentClient  # noqa: E402
from duplicate.arena.connection import tune_gc  # noqa: E402
from duplicate.arena.duplicate_match import play_duplicate_match  # noqa: E402
from duplicate.arena.protocol import dumps  # noqa: E402
from duplicate.arena.server import ArenaServer, Limits, Table  # noqa: E402
from duplicate.arena.wsclient import WSClient  # noqa: E402
from duplicate.dealing import LevelSchedule, generate_boards  # noqa: E402
from duplicate.policies import make_player  # noqa: E402
from duplicate.simulate import simulation_key  # noqa: E402
from engine import core  # noqa: E402


class _RandomTable(Table):
    """A table whose seats answer at once with a random index (no sockets)."""

    rng = random.Random(1)

    async def ask(self, pos: int, message: dict[str, Any] | str, limit: float,
                  index_range: int | None = None, fallback: Any = None) -> int:
        self.messages += 2
        top = index_range if index_range is not None else int(message["indexRange"])  # type: ignore[index]
        return self.rng.randint(0, top)


class _AgentTable(Table):
    """A table whose seats are agents answering in this process as ``guandan agent`` does
    (arena.agent: the compiled core's reader for the heuristic bot, else ``split_act`` and
    ``choose``), without sockets; the agents' CPU time is counted apart from the server's."""

    def setup(self, policy: str) -> None:
        self.players = [make_player(policy, str(p)) for p in range(4)]
        self.stats = AgentStats()
        self.agent_cpu = 0.0

    async def ask(self, pos: int, message: dict[str, Any] | str, limit: float,
                  index_range: int | None = None, fallback: Any = None) -> int:
        self.messages += 2
        t0 = time.process_time()
        data = (message if isinstance(message, str) else dumps(message)).encode()
        player = self.players[pos]
        index = native_index(player, data, pos)
        if index < 0:
            split = split_act(data)
            index = (choose(player, split[0], pos, self.stats, split[1]) if split is not None
                     else choose(player, json.loads(data), pos, self.stats))
        self.agent_cpu += time.process_time() - t0
        return index


async def socket_free(boards: list[Any], policy: str) -> None:
    """Server and agents in one process without sockets, on each implementation of the
    engine in turn: CPU time a deal and an action for the server (legal plays, actionList,
    messages, the deal) and for the agents (reading the act, the choice, the index). The
    implementation is chosen at import (docs/CORE.md): the pure-Python one runs in a child
    process with ``GUANDAN_CORE=python``."""
    figures: dict[str, tuple[float, float]] = {}
    if core.native is not None:
        figures["native"] = await socket_free_here(boards, policy)
    child = subprocess.run(
        [sys.executable, __file__, "--socket-free-child", "--boards", str(len(boards)),
         "--policy", policy],
        env={**os.environ, "GUANDAN_CORE": "python"}, capture_output=True, text=True, check=True)
    print(child.stdout.splitlines()[0])
    figures["python"] = tuple(json.loads(child.stdout.splitlines()[-1]))  # type: ignore[assignment]
    if len(figures) == 2:
        (ns, na), (ps, pa) = figures["native"], figures["python"]
        print(f"socket-free, python / native: server {ps / ns:.1f}×, agents {pa / na:.1f}×, "
              f"both {(ps + pa) / (ns + na):.1f}×")


async def socket_free_here(boards: list[Any], policy: str) -> tuple[float, float]:
    """:func:`socket_free`'s measure with the implementation chosen at import: the CPU
    seconds of the server and of the agents."""
    impl = core.implementation()
    table = _AgentTable([SilentClient(p) for p in range(4)], Limits())  # type: ignore[misc]
    table.setup(policy)
    cpu = time.process_time()
    result = await play_duplicate_match(table, boards, ("a", "b"))
    cpu = time.process_time() - cpu
    server, agent = cpu - table.agent_cpu, table.agent_cpu
    print(f"socket-free, {impl} core ({result.deals} deals, {result.acts / result.deals:.0f} "
          f"acts a deal): server {1000 * server / result.deals:.2f} ms a deal "
          f"({1e6 * server / result.acts:.1f} µs an action), agents "
          f"{1000 * agent / result.deals:.2f} ms a deal ({1e6 * agent / result.acts:.1f} µs "
          f"an action); {result.deals / cpu:.0f} deals a CPU second", flush=True)
    return server, agent


async def server_work(boards: list[Any]) -> None:
    """The arena's own work per deal without sockets or clients: legal plays, messages."""
    table = _RandomTable([SilentClient(p) for p in range(4)], Limits())  # type: ignore[misc]
    cpu = time.process_time()
    result = await play_duplicate_match(table, boards, ("a", "b"))
    cpu = time.process_time() - cpu
    print(f"server work without sockets (random choices, {result.acts / result.deals:.0f} acts "
          f"a deal): {1000 * cpu / result.deals:.1f} ms a deal, of which engine "
          f"{1000 * result.engine_seconds / result.deals:.1f} ms")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def procs_cpu(pids: list[int]) -> float | None:
    """CPU seconds (user + system) the running processes ``pids`` have used so far, from
    /proc (None elsewhere): the clients' CPU during the match alone, without their start-up
    (imports), which varies by a tenth of a second a process from run to run."""
    total = 0
    try:
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, IndexError, ValueError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


async def startup_cpu() -> float:
    """CPU time of one agent process that starts and finds nobody listening."""
    before = children_cpu()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from cli import main; main()", "agent", "-q",
        "--url", "ws://127.0.0.1:9/game/x", "--connect-timeout", "1",
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=os.getcwd(),
    )
    await proc.wait()
    return children_cpu() - before


async def bench(n_boards: int, policies: list[str], tables: int = 1) -> None:
    boards = list(generate_boards(simulation_key(b"\x42"), n_boards, LevelSchedule.parse("cycle")))
    start_cost = await startup_cpu()
    before = children_cpu()
    async with ArenaServer(port=0) as srv:
        procs = []
        for i, policy in enumerate(policies * tables):
            procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-c", "from cli import main; main()", "agent", "-q",
                "--url", f"{srv.url}client{i + 1}", "--policy", policy, "--seed", str(i),
                stdout=subprocess.DEVNULL, cwd=os.getcwd(),
            ))
            if (i + 1) % 4:
                await srv.wait_for_clients((i + 1) % 4, 60)
        table = await srv.next_table(60)
        second = await srv.next_table(60) if tables == 2 else None
        pids = [p.pid for p in procs]
        load0, clients0 = os.getloadavg()[0], procs_cpu(pids)
        cpu0, t0 = time.process_time(), time.perf_counter()
        result = await play_duplicate_match(table, boards, ("a", "b"), closed_table=second)
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        clients1, load1 = procs_cpu(pids), os.getloadavg()[0]
        await table.close()
        if second is not None:
            await second.close()
        for p in procs:
            await p.wait()
    if clients0 is not None and clients1 is not None:
        client_cpu, how = clients1 - clients0, "during the match, from /proc"
    else:
        client_cpu = children_cpu() - before - 4 * tables * start_cost
        how = f"start-up of {start_cost:.2f} s each left out"
    deals = result.deals
    clients = table.clients + (second.clients if second is not None else [])
    messages = sum(c.sent + c.received for c in clients)
    print(f"boards {n_boards}, deals {deals}, agents {' '.join(policies)}, tables {tables}; "
          f"load average {load0:.2f} before, {load1:.2f} after")
    print(f"deals/s (wall, server + {4 * tables} clients): {deals / wall:.1f}")
    print(f"messages/s: {messages / wall:,.0f} ({messages / deals:.0f} a deal; "
          f"{result.acts / deals:.0f} acts a deal)")
    print(f"server CPU per deal: {1000 * cpu / deals:.1f} ms, of which engine "
          f"{1000 * result.engine_seconds / deals:.1f} ms (legal plays and their actionList "
          f"text, the plays) and arena "
          f"{1000 * (cpu - result.engine_seconds) / deals:.1f} ms (JSON, frames, asyncio)")
    print(f"clients' CPU per deal ({4 * tables} processes, {how}): "
          f"{1000 * client_cpu / deals:.1f} ms; CPU-bound capacity on 2 cores: "
          f"{2 * deals / (cpu + client_cpu):.1f} deals/s")


def echo_client(url: str) -> None:
    """A client that answers every ``act`` with index 0 at once, reading nothing else (the
    transport's floor: what remains of a deal when no side thinks)."""
    conn = WSClient(url)
    conn.open(10)
    for data in conn.messages():
        if data.startswith(b'{"type":"act"'):
            conn.send_text('{"actIndex": 0}')


async def transport_floor(actions: int, act_size: int = 1700) -> None:
    """The arena's ping-pong without game work: four :func:`echo_client` processes, a
    prebuilt ``act`` of about the average size and one ``notify play`` an action."""
    async with ArenaServer(port=0) as srv:
        procs = []
        for i in range(4):
            procs.append(await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--echo-client", f"{srv.url}client{i + 1}",
                cwd=os.getcwd(),
            ))
            if i < 3:
                await srv.wait_for_clients(i + 1, 60)
        table = await srv.next_table(60)
        act = ('{"type":"act","stage":"play","pad":"' + "x" * act_size
               + '","actionList":[["PASS","PASS","PASS"]],"indexRange":0}')
        notice = ('{"type":"notify","stage":"play","curPos":0,"curAction":["PASS","PASS","PASS"],'
                  '"greaterPos":1,"greaterAction":["Single","2",["S2"]]}')
        cpu, t0 = time.process_time(), time.perf_counter()
        for i in range(actions):
            await table.ask(i % 4, act, 15.0, 0)
            await table.tell_all(notice)
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu
        await table.close()
        for p in procs:
            await p.wait()
    per = wall / actions
    print(f"transport alone (prebuilt acts of {act_size} bytes, clients answering at once): "
          f"{per * 1e6:.0f} µs an action, server CPU {cpu / actions * 1e6:.0f} µs; "
          f"{1 / (per * 89):.0f} deals/s at 89 actions a deal")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--echo-client":
        echo_client(sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--policy", default="heuristic", choices=["heuristic", "random"])
    ap.add_argument("--tables", type=int, default=1, choices=[1, 2],
                    help="2: eight clients, the two rooms at once")
    ap.add_argument("--socket-free", action="store_true",
                    help="only the socket-free measure of server and agents, on both cores")
    ap.add_argument("--socket-free-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    tune_gc()  # as `guandan arena` does (the agents' command does it too)
    boards = list(generate_boards(simulation_key(b"\x42"), args.boards, LevelSchedule.parse("cycle")))
    if args.socket_free_child:  # one implementation's measure, its seconds last as JSON
        print(json.dumps(asyncio.run(socket_free_here(boards, args.policy))))
        return
    if args.socket_free:
        asyncio.run(socket_free(boards, args.policy))
        return
    asyncio.run(bench(args.boards, [args.policy] * 4, args.tables))
    asyncio.run(server_work(boards))
    asyncio.run(transport_floor(89 * args.boards))


if __name__ == "__main__":
    main()
