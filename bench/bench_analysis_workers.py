"""Benchmark of an event's analysis as jobs (duplicate.jobs): 2 workers against 1.

Run: ``python bench/bench_analysis_workers.py --db postgresql://USER@HOST/SCRATCH_DB
[--teams 200] [--boards 1] [--nodes 300000] [--playouts 24]``, or ``--db sqlite`` for the
local processes of SQLite (``event analyse --jobs 1`` against ``--jobs 2``).

A Swiss round of ``--teams`` teams (``--teams``/2 matches of ``--boards`` boards, both rooms
played by the bots; not timed) is stored in a scratch schema (PostgreSQL; the database
must exist and may be shared: the schema ``bench_analysis_workers`` is dropped and made
again) or a scratch SQLite file. Then, each run from an empty ``analyses`` table and an
empty queue:

1. the jobs deferred (one a record), then 1 ``guandan worker --once`` process: wall time;
2. the same with 2 ``guandan worker --once`` processes at once.

On SQLite the same with ``event analyse --jobs 1`` and ``--jobs 2`` (local processes).
Printed: records, wall time and the workers' CPU time of each run, the ratio (goal ≥ 1.8× on 2 cores), the load
average before and after (the machine may be shared), and the check that no job was lost
or doubled: every record stored once, every job succeeded, each job started once.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers.jobs import EVENT, play_round  # noqa: E402
from sqlalchemy import create_engine, make_url, text  # noqa: E402

from duplicate.analysis.budget import DEFAULT_BUDGET, Budget  # noqa: E402
from duplicate.db import make_engine  # noqa: E402
from duplicate.jobs.event import event_jobs  # noqa: E402

SCHEMA = "bench_analysis_workers"


def _scratch_pg(url: str) -> str:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
        conn.execute(text(f'CREATE SCHEMA "{SCHEMA}"'))
    engine.dispose()
    return make_url(url).update_query_dict({"options": f"-csearch_path={SCHEMA}"}) \
        .render_as_string(hide_password=False)


def _empty(engine: object, pg: bool) -> None:
    with engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(text("DELETE FROM analyses"))
        if pg:
            conn.execute(text("TRUNCATE procrastinate_jobs, procrastinate_events CASCADE"))


def _guandan(url: str, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "cli", "--db", url, *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _run(url: str, engine: object, pg: bool, n: int, budget: Budget) -> tuple[float, float]:
    from duplicate.jobs import queue

    _empty(engine, pg)
    opts = ["--nodes", str(budget.nodes), "--playouts", str(budget.playouts),
            "--seed", str(budget.seed)]
    if pg:
        queue.defer(engine, event_jobs(engine, EVENT, budget))  # type: ignore[arg-type]
        cpu = _children_cpu()
        start = time.perf_counter()
        procs = [_guandan(url, "worker", "--once") for _ in range(n)]
    else:
        cpu = _children_cpu()
        start = time.perf_counter()
        procs = [_guandan(url, "event", "analyse", EVENT, *opts, "--jobs", str(n))]
    for p in procs:
        if p.wait() != 0:
            raise SystemExit(p.stderr.read().decode() if p.stderr else "a worker failed")
    return time.perf_counter() - start, _children_cpu() - cpu


def _check(engine: object, pg: bool, records: int) -> str:
    with engine.connect() as conn:  # type: ignore[attr-defined]
        stored = conn.execute(text("SELECT COUNT(*) FROM analyses")).scalar_one()
        out = f"stored {stored} of {records}"
        if pg:
            ok = conn.execute(text(
                "SELECT COUNT(*) FROM procrastinate_jobs WHERE status = 'succeeded'")).scalar_one()
            started = conn.execute(text(
                "SELECT COUNT(*) FROM procrastinate_events WHERE type = 'started'")).scalar_one()
            out += f", jobs succeeded {ok}, jobs started {started}"
            lost_or_doubled = stored != records or ok != records or started != records
        else:
            lost_or_doubled = stored != records
    return out + (" LOST OR DOUBLED" if lost_or_doubled else ": 0 lost, 0 doubled")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True, help="postgresql://… (a scratch database) or sqlite")
    ap.add_argument("--teams", type=int, default=200)
    ap.add_argument("--boards", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=DEFAULT_BUDGET.nodes)
    ap.add_argument("--playouts", type=int, default=DEFAULT_BUDGET.playouts)
    args = ap.parse_args()
    pg = args.db != "sqlite"
    tmp = tempfile.mkdtemp(prefix="bench-jobs-")
    url = _scratch_pg(args.db) if pg else f"sqlite:///{tmp}/bench.sqlite"
    engine = make_engine(url)
    play_round(engine, args.teams, args.boards, migrate=True)
    budget = Budget(nodes=args.nodes, playouts=args.playouts)
    if pg:
        from duplicate.jobs import queue

        queue.ensure_schema(engine)
    records = len(event_jobs(engine, EVENT, budget))
    print(f"{args.teams // 2} matches x {args.boards} boards x 2 rooms = {records} records; "
          f"budget {args.nodes} nodes, {args.playouts} playouts; "
          f"{'PostgreSQL, guandan worker' if pg else 'SQLite, event analyse --jobs'}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
    one, cpu1 = _run(url, engine, pg, 1, budget)
    print(f"1 worker:  {one:7.1f} s wall, {cpu1:7.1f} s CPU  ({_check(engine, pg, records)})")
    two, cpu2 = _run(url, engine, pg, 2, budget)
    print(f"2 workers: {two:7.1f} s wall, {cpu2:7.1f} s CPU  ({_check(engine, pg, records)})")
    print(f"wall time ratio {one / two:.2f}x (CPU ratio {cpu2 / cpu1:.2f}); "
          f"load average after {os.getloadavg()[0]:.2f}")
    engine.dispose()


if __name__ == "__main__":
    main()
