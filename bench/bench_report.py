"""Benchmark of the event report (duplicate.review): from scratch, and after one new result.

Run: ``python bench/bench_report.py [--teams 200] [--boards 8] [--workdir DIR]
[--analyse [--nodes N] [--playouts K]]``.

A Swiss round of ``--teams`` teams (``--teams``/2 matches of ``--boards`` boards, both rooms
played by the bots, not timed) is stored on a scratch SQLite database with one room held
back. Timed, on one core:

1. the whole report from scratch (every board page drawn: both rooms replayed);
2. a director's ruling on one room, then the report again (one board page drawn);
3. the held-back room imported, then the report again: that board is now in at every
   table, so it is released (drawn) in every match.

Goal: the 200-team event from scratch under 60 s, a single new result under 1 s. With
``--analyse`` every board shown is also analysed (``event report --analyse``, the budget of
``--nodes`` and ``--playouts`` a position): the figures then add the CPU time per record
analysed, and a ruling's rebuild must stay under 1 s CPU (it analyses nothing again).
Each figure is wall time and CPU time (``time.process_time``: what this process used,
the fairer figure on a machine loaded by other work).
"""

from __future__ import annotations

import argparse
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate import db, events  # noqa: E402
from duplicate.analysis.estimate import DEFAULT_BUDGET, Budget  # noqa: E402
from duplicate.dealing import parse_seed_file, seed_file_bytes  # noqa: E402
from duplicate.events.site import write_event_site  # noqa: E402
from duplicate.gdn import format_record, loads  # noqa: E402
from duplicate.records import Correction  # noqa: E402

EVENT = "Bench Report"
BOARD_SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))


def _took(wall: float, cpu: float) -> str:
    """``2.31 s (CPU 1.20 s)`` since the perf_counter and process_time readings given."""
    return f"{time.perf_counter() - wall:.2f} s (CPU {time.process_time() - cpu:.2f} s)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--teams", type=int, default=200)
    ap.add_argument("--boards", type=int, default=8)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--analyse", action="store_true", help="also analyse every board shown")
    ap.add_argument("--nodes", type=int, default=DEFAULT_BUDGET.nodes)
    ap.add_argument("--playouts", type=int, default=DEFAULT_BUDGET.playouts)
    args = ap.parse_args()
    budget = Budget(nodes=args.nodes, playouts=args.playouts) if args.analyse else None
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-report-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / "event.sqlite"
    path.unlink(missing_ok=True)
    engine = db.make_engine(f"sqlite:///{path}")
    db.upgrade(engine)
    events.create_event(engine, EVENT, seed="be9c40", rounds=3, boards_per_round=args.boards)
    for i in range(1, args.teams + 1):
        events.add_team(engine, EVENT, f"T{i:03d}", [f"T{i:03d}-{j}" for j in range(1, 5)])
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, 1, seed=BOARD_SEED)
    t0 = time.perf_counter()
    texts = events.bot_records(engine, EVENT, 1)
    last = loads(texts[-1])
    held = format_record(last[-1])
    texts[-1] = "\n\n".join(format_record(r) for r in last[:-1]) + "\n"
    events.import_texts(engine, EVENT, texts, round_no=1)
    print(f"records: {len(texts)} matches played and stored in {time.perf_counter() - t0:.0f} s "
          f"(not timed); one room held back")
    site = work / "site"
    shutil.rmtree(site, ignore_errors=True)  # from scratch: not the folder of a last run
    t, c = time.perf_counter(), time.process_time()
    first = write_event_site(engine, EVENT, str(site), args.lang, budget)
    cpu = time.process_time() - c
    files = len(list(site.iterdir()))
    print(f"from scratch: {_took(t, c)}, {first.boards_drawn} board pages drawn, "
          f"{len(first.written)} files written ({files} in the folder)")
    if budget is not None:
        analysed = len(list((site / "analysis").glob("*.json")))
        print(f"  with the analysis of {analysed} records ({budget.nodes:,} nodes and "
              f"{budget.playouts} playouts a position): CPU {cpu / max(analysed, 1):.2f} s "
              f"a record, {cpu / max(first.boards_drawn, 1):.2f} s a board page")
    events.correct_result(engine, EVENT, 1, 1, 1, "open", 1,
                          Correction(by="bench", reason="a ruling"))
    t, c = time.perf_counter(), time.process_time()
    ruled = write_event_site(engine, EVENT, str(site), args.lang, budget)
    print(f"after a ruling on one room: {_took(t, c)}, "
          f"{ruled.boards_drawn} board page drawn, {len(ruled.written)} files written")
    events.import_texts(engine, EVENT, [held], round_no=1)
    t, c = time.perf_counter(), time.process_time()
    released = write_event_site(engine, EVENT, str(site), args.lang, budget)
    print(f"after the last room of a board came in: {_took(t, c)}, "
          f"{released.boards_drawn} board pages drawn (the board released in every match), "
          f"{len(released.written)} files written")
    engine.dispose()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process")


if __name__ == "__main__":
    main()
