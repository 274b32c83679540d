"""A/B of the hall's saturated reports between source trees, on a machine others share.

Run: ``python bench/bench_hall_ab.py --tree main=/path/to/main --tree this=. [--segments 8]
[--per 3] [--tables 200] [--connections 64] [--poll 10] [--nice N]``.

On a shared machine the figures of two whole runs of ``bench_hall.py`` minutes apart
differ more than two versions of the code do (other work comes and goes). This compares
them in alternating **segments** on **one** database: the event (``--tables`` teams, i.e.
physical tables of round 1) is set up once with ``segments x (1 + per)`` boards and its
clock started; each segment starts ``guandan serve --workers 2`` from the next tree
(``A B B A A B ...``), warms it up with one board of every table (as the peak phase
would), moves the standings' version (a director's pause and resume of the clock, as
a publish or a pairing does before ``bench_hall.py``'s saturated phase: the phones then
fetch new standings), then sends ``--per`` boards of every table's reports as fast as
the service answers (``--connections`` in flight, the 4 phones of every table polling the
standings every ``--poll`` s, each phone's first poll a full answer) and stops it.

A tree is a source directory of the project (``cli.py``, ``web/``, ``duplicate/``, with its
compiled core in place: ``git archive REV | tar -x -C DIR`` and copy
``engine/_native/*.so``); the server runs with that directory first on ``PYTHONPATH``.
``--nice N`` (root only) runs the servers, their PostgreSQL backends and this client at
niceness ``N`` (e.g. ``-10``): other work on the machine then takes only what they leave,
closer to a quiet machine (it slows everyone else meanwhile).

Prints each segment's reports per second, the service's CPU milliseconds a report (the
phones' polls included), the phones' full-answer poll p50 and the load, then each tree's
median. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_hall as bh  # noqa: E402

from duplicate import db, hall  # noqa: E402


@contextmanager
def server(tree: str, url: str, port: int, log: Path, nice: int | None) -> Iterator[int]:
    """``guandan serve --workers 2`` from ``tree`` on ``url``; yields its pid."""
    env = dict(os.environ, GUANDAN_DB=url, GUANDAN_DIRECTOR_PASSWORD=bh.PASSWORD,
               GUANDAN_SECRET_KEY=bh.SECRET, PYTHONPATH=tree)
    argv = ["guandan", "serve", "--db", url, "--host", "127.0.0.1", "--port", str(port),
            "--workers", "2"]
    code = f"import sys; from cli import main; sys.argv = {argv!r}; main()"
    cmd = ([] if nice is None else ["nice", "-n", str(nice)]) + [sys.executable, "-c", code]
    with bh.answering(cmd, tree, env, log, port) as pid:
        yield pid


def renice_backends(database: str, nice: int) -> None:
    """The PostgreSQL backends serving ``database`` at niceness ``nice``."""
    found = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-Atc",
         f"select pid from pg_stat_activity where datname = '{database}'", "postgres"],
        capture_output=True, text=True, check=False,
    ).stdout.split()
    if found:
        subprocess.run(["renice", "-n", str(nice), "-p", *found], capture_output=True,
                       check=False)


def _with_boards(tables: list[bh.Table], boards: tuple[int, ...]) -> list[bh.Table]:
    return [bh.Table(t.round_no, t.table, t.room, t.report_token, t.confirm_token, boards)
            for t in tables]


async def segment(
    args: argparse.Namespace, base: str, pid: int, tables: list[bh.Table],
    boards: tuple[int, ...], bump: Callable[[], None], database: str,
) -> dict[str, Any]:
    """One segment on a started server: warm-up, the version moved, the measured boards."""
    phones = 4 * args.tables
    warm = bh.Hall(base, args.connections, seed=1)
    await bh.run_phase(warm, _with_boards(tables, boards[:1]), phones, args.poll, None, 0)
    await warm.client.aclose()
    await asyncio.to_thread(bump)
    if args.nice is not None:
        renice_backends(database, args.nice)
    sat = bh.Hall(base, args.connections, seed=2)  # new connections, first polls full
    cpu0, busy0 = bh.tree_cpu(pid), bh.machine_busy()
    wall = await bh.run_phase(sat, _with_boards(tables, boards[1:]), phones, args.poll, None, 0)
    busy1 = bh.machine_busy()
    await sat.client.aclose()
    n = len(sat.stats.latency["report POST"])
    rows = {r["endpoint"]: r for r in sat.stats.rows(wall)}
    return {
        "reports_per_s": n / wall,
        "server_cpu_ms_a_report": (bh.tree_cpu(pid) - cpu0) * 1000 / max(1, n),
        "report_p50_ms": rows["report POST"]["p50_ms"],
        "poll_200_p50_ms": rows.get("standings GET 200", {}).get("p50_ms"),
        "machine_busy": (busy1[0] - busy0[0]) / max(1.0, busy1[1] - busy0[1]),
        "load": os.getloadavg()[0],
        "errors": len(sat.stats.errors),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tree", action="append", required=True, metavar="NAME=DIR",
                    help="a source tree to serve from (two or more)")
    ap.add_argument("--segments", type=int, default=8)
    ap.add_argument("--per", type=int, default=3, help="boards measured a segment")
    ap.add_argument("--tables", type=int, default=200, help="teams (tables of round 1)")
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--poll", type=float, default=10.0)
    ap.add_argument("--nice", type=int, default=None)
    ap.add_argument("--pg", default=os.environ.get("GUANDAN_BENCH_DATABASE_URL") or bh.DEFAULT_PG)
    args = ap.parse_args()
    trees = [tuple(t.split("=", 1)) for t in args.tree]
    if len(trees) < 2 or any(len(t) != 2 for t in trees):
        ap.error("give two or more --tree NAME=DIR")
    if args.nice is not None:
        os.nice(args.nice)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in trees}
    with db.temporary_database(args.pg, prefix="guandan_bench_hall_ab") as url:
        engine = db.make_engine(url)
        try:
            db.upgrade(engine)
            bh.setup_event(engine, args.tables, args.segments * (1 + args.per))
            tables = bh.issue_cards(engine, 1)
            hall.start_round(engine, bh.EVENT, 1, by="bench")
            turns = [0]

            def bump() -> None:  # the standings' version moves (the director's log)
                turns[0] += 1
                move = hall.pause_clock if turns[0] % 2 else hall.resume_clock
                move(engine, bh.EVENT, 1, by="director", reason="bench")

            boards = tables[0].boards
            for i in range(args.segments):
                order = trees if (i // len(trees)) % 2 == 0 else trees[::-1]
                name, tree = order[i % len(trees)]
                chunk = tuple(boards[i * (1 + args.per):(i + 1) * (1 + args.per)])
                port = bh.free_port()
                log = Path(f"/tmp/guandan-bench-hall-ab-{name}.log")
                with server(tree, url, port, log, args.nice) as pid:
                    gc.freeze()
                    out = asyncio.run(segment(args, f"http://127.0.0.1:{port}", pid, tables,
                                              chunk, bump, str(engine.url.database)))
                    gc.unfreeze()
                results[name].append(out)
                print(name, json.dumps({k: round(v, 2) if isinstance(v, float) else v
                                        for k, v in out.items()}), flush=True)
        finally:
            engine.dispose()
    for name, outs in results.items():
        rates = [o["reports_per_s"] for o in outs]
        print(f"{name}: reports/s {[round(r) for r in rates]}, median "
              f"{statistics.median(rates):.0f}; CPU ms a report "
              f"{[round(o['server_cpu_ms_a_report'], 2) for o in outs]}; poll p50 ms "
              f"{[round(o['poll_200_p50_ms'] or 0) for o in outs]}; load "
              f"{[round(o['load'], 1) for o in outs]}")


if __name__ == "__main__":
    main()
