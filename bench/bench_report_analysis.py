"""Benchmark of the event report with the analysis: a round of ``--matches`` matches, every
record analysed once; then the same report in the second language from the stored
analyses.

Run: ``python bench/bench_report_analysis.py [--matches 100] [--boards 2]
[--exact-cards 24] [--playouts 24] [--workdir DIR]``.

A Swiss round of 2 × ``--matches`` teams (``--boards`` boards a match, both rooms played by
the bots, not timed) is stored on a scratch SQLite database. Timed, on one core (CPU time,
``time.process_time``: the fair figure on a machine loaded by other work; wall time
beside it):

1. the report in English with ``--analyse`` from scratch: every record analysed (the budget
   counted in cards, the same values on either core), and at each board's first
   divergence every play valued; the CPU time per record analysed and per board;
2. the report in Chinese into another folder that holds the analyses of the first (what
   one build of both languages does: each record analysed once): nothing is analysed
   again, so the second language costs the pages alone.
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
from duplicate.analysis.estimate import Budget  # noqa: E402
from duplicate.dealing import parse_seed_file, seed_file_bytes  # noqa: E402
from duplicate.events.site import write_event_site  # noqa: E402
from engine import core  # noqa: E402

EVENT = "Bench Analysis"
BOARD_SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--boards", type=int, default=2)
    ap.add_argument("--exact-cards", type=int, default=24)
    ap.add_argument("--playouts", type=int, default=24)
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args()
    budget = Budget(playouts=args.playouts, cards=args.exact_cards)
    work = args.workdir or Path(tempfile.mkdtemp(prefix="bench-analysis-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / "event.sqlite"
    path.unlink(missing_ok=True)
    engine = db.make_engine(f"sqlite:///{path}")
    db.upgrade(engine)
    events.create_event(engine, EVENT, seed="be9c41", rounds=3, boards_per_round=args.boards)
    for i in range(1, 2 * args.matches + 1):
        events.add_team(engine, EVENT, f"T{i:03d}", [f"T{i:03d}-{j}" for j in range(1, 5)])
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, 1, seed=BOARD_SEED)
    t0 = time.perf_counter()
    events.import_texts(engine, EVENT, events.bot_records(engine, EVENT, 1), round_no=1)
    print(f"round: {args.matches} matches of {args.boards} boards played and stored in "
          f"{time.perf_counter() - t0:.0f} s (not timed); core: {core.implementation()}")
    first, second = work / "en", work / "zh"
    for folder in (first, second):
        shutil.rmtree(folder, ignore_errors=True)
    t, c = time.perf_counter(), time.process_time()
    built = write_event_site(engine, EVENT, str(first), "en", budget)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    stored = list((first / "analysis").glob("*.json"))
    records = sum(1 for p in stored if not p.stem.endswith("-options"))
    print(f"English with the analysis: {wall:.1f} s (CPU {cpu:.1f} s), {built.boards_drawn} "
          f"board pages, {records} records analysed ({args.exact_cards} cards exact, "
          f"{args.playouts} playouts): CPU {cpu / max(records, 1):.2f} s a record, "
          f"{cpu / max(built.boards_drawn, 1):.2f} s a board")
    second.mkdir(parents=True)
    shutil.copytree(first / "analysis", second / "analysis")
    t, c = time.perf_counter(), time.process_time()
    again = write_event_site(engine, EVENT, str(second), "zh", budget)
    wall2, cpu2 = time.perf_counter() - t, time.process_time() - c
    print(f"Chinese from the stored analyses: {wall2:.1f} s (CPU {cpu2:.1f} s), "
          f"{again.boards_drawn} board pages: {100 * cpu2 / max(cpu, 1e-9):.1f}% of the first "
          f"language's CPU")
    engine.dispose()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one process")


if __name__ == "__main__":
    main()
