"""Benchmark of a whole teams event: import, replay and score; a script that prints figures.

Run: ``python bench/bench_event.py [--teams 200] [--rounds 7] [--boards 8] [--jobs J]
[--pg URL] [--workdir DIR]``.

The event is a Swiss of ``--teams`` teams, ``--rounds`` rounds of ``--boards`` boards: with
the defaults 100 matches a round, 1,600 records a round, 11,200 records in all.

1. **Records (not timed).** The event is run once on a scratch SQLite database, the bots
   playing every board in both rooms (``events.bot_records``, ``mixed`` teams); each
   round's records are written to ``--files`` ``.gdn`` files in ``--workdir`` (kept, and
   reused by the next run with the same parameters).
2. **Timed, end to end**, on a fresh SQLite file and on PostgreSQL (``--pg`` or
   ``$GUANDAN_BENCH_DATABASE_URL`` / ``$GUANDAN_TEST_DATABASE_URL``; skipped when none):
   migrate, create the event and its teams, then per round pair it (Swiss, from the
   standings recomputed from the stored results), assign its boards, import its files
   (each read, every deal replayed in ``--jobs`` processes, one transaction per file),
   and score it; finally the standings. Goal: under 60 s on SQLite for the defaults.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import Engine  # noqa: E402

from duplicate import db, events  # noqa: E402
from duplicate.dealing import parse_seed_file, seed_file_bytes  # noqa: E402

EVENT = "Bench Swiss"
SEED = "be9c40"
BOARD_SEED = parse_seed_file(seed_file_bytes(bytes.fromhex("5e" * 32)))


def setup_event(engine: Engine, teams: int, rounds: int, boards: int) -> None:
    """Create the event and enter its teams (players ``<team>-1`` .. ``<team>-4``)."""
    events.create_event(
        engine, EVENT, seed=SEED, rounds=rounds, boards_per_round=boards, scale="vp20"
    )
    for i in range(1, teams + 1):
        name = f"T{i:03d}"
        events.add_team(engine, EVENT, name, [f"{name}-{j}" for j in range(1, 5)])


def split(texts: list[str], parts: int) -> list[str]:
    """Match texts joined into ``parts`` files' worth of text."""
    size = -(-len(texts) // parts)
    return ["\n".join(texts[i : i + size]) for i in range(0, len(texts), size)]


def make_records(
    workdir: Path, teams: int, rounds: int, boards: int, files: int
) -> list[list[Path]]:
    """Play the event once with the bots; the paths of each round's record files."""
    paths = [[workdir / f"round{r}-{k}.gdn" for k in range(files)] for r in range(1, rounds + 1)]
    if all(p.is_file() for ps in paths for p in ps):
        print(f"records: reusing {sum(len(p) for p in paths)} files in {workdir}")
        return paths
    workdir.mkdir(parents=True, exist_ok=True)
    scratch = workdir / "scratch.sqlite"
    scratch.unlink(missing_ok=True)
    engine = db.make_engine(f"sqlite:///{scratch}")
    db.upgrade(engine)
    setup_event(engine, teams, rounds, boards)
    t0 = time.perf_counter()
    for r in range(1, rounds + 1):
        events.pair_round(engine, EVENT)
        events.assign_boards(engine, EVENT, r, seed=BOARD_SEED)
        texts = events.bot_records(engine, EVENT, r)
        chunks = split(texts, files)
        for path, chunk in zip(paths[r - 1], chunks, strict=True):
            path.write_text(chunk, encoding="utf-8")
        events.import_texts(engine, EVENT, ["\n".join(texts)], round_no=r)
        print(
            f"records: round {r} played ({len(texts)} matches), "
            f"{time.perf_counter() - t0:.0f} s so far",
            flush=True,
        )
    engine.dispose()
    scratch.unlink()
    return paths


def timed_event(
    url: str, paths: list[list[Path]], teams: int, boards: int, jobs: int
) -> dict[str, float]:
    """Run the whole event from the record files; seconds spent in each step."""
    spent: dict[str, float] = {
        "setup": 0.0,
        "pair": 0.0,
        "boards": 0.0,
        "import": 0.0,
        "score": 0.0,
        "standings": 0.0,
    }

    def step(name: str, work: Callable[[], object]) -> object:
        t = time.perf_counter()
        out = work()
        spent[name] += time.perf_counter() - t
        return out

    engine = db.make_engine(url)
    try:
        step("setup", lambda: (db.upgrade(engine), setup_event(engine, teams, len(paths), boards)))
        records = 0
        for r, files in enumerate(paths, 1):
            step("pair", lambda: events.pair_round(engine, EVENT))
            step("boards", lambda r=r: events.assign_boards(engine, EVENT, r, seed=BOARD_SEED))  # type: ignore[misc]
            summary = step(
                "import", lambda files=files: events.import_files(engine, EVENT, files, jobs=jobs)
            )  # type: ignore[misc]
            assert isinstance(summary, events.ImportSummary) and summary.added == summary.records
            records += summary.records
            step("score", lambda r=r: events.score_event(engine, EVENT, r))  # type: ignore[misc]
        table, after = events.event_standings(engine, EVENT)
        assert after == len(paths)
        step("standings", lambda: events.event_standings(engine, EVENT))
        spent["records"] = records
        spent["leader_points"] = table[0].points
    finally:
        engine.dispose()
    return spent


def report(label: str, spent: dict[str, float]) -> float:
    """Print one database's figures; return the total seconds."""
    total = sum(v for k, v in spent.items() if k not in ("records", "leader_points"))
    steps = ", ".join(
        f"{k} {v:.1f} s" for k, v in spent.items() if k not in ("records", "leader_points")
    )
    print(
        f"{label:<10} {total:6.1f} s end to end, {spent['records'] / total:,.0f} records/s "
        f"({steps}); leader {spent['leader_points']:g} VP"
    )
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--teams", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--boards", type=int, default=8, help="boards per round")
    ap.add_argument("--files", type=int, default=4, help="record files per round")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="replay processes")
    ap.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "guandan-bench-event",
        help="where the record files are kept between runs",
    )
    ap.add_argument(
        "--pg",
        metavar="URL",
        default=os.environ.get("GUANDAN_BENCH_DATABASE_URL")
        or os.environ.get("GUANDAN_TEST_DATABASE_URL"),
        help="PostgreSQL server URL (a database is created and dropped on it)",
    )
    args = ap.parse_args()

    records = args.teams // 2 * args.rounds * args.boards * 2
    print(
        f"event: {args.teams} teams, {args.rounds} rounds of {args.boards} boards, "
        f"{records:,} records; {args.jobs} jobs; Python {platform.python_version()}, "
        f"{os.cpu_count()} cores"
    )
    work = args.workdir / f"t{args.teams}-r{args.rounds}-b{args.boards}-f{args.files}"
    paths = make_records(work, args.teams, args.rounds, args.boards, args.files)

    sqlite_file = work / "timed.sqlite"
    sqlite_file.unlink(missing_ok=True)
    total = report(
        "SQLite", timed_event(f"sqlite:///{sqlite_file}", paths, args.teams, args.boards, args.jobs)
    )
    sqlite_file.unlink(missing_ok=True)
    print(f"goal: under 60 s on SQLite: {'met' if total < 60 else 'NOT met'}")
    if args.pg:
        with db.temporary_database(args.pg, prefix="guandan_bench") as url:
            report("PostgreSQL", timed_event(url, paths, args.teams, args.boards, args.jobs))
    else:
        print("PostgreSQL: skipped (no --pg URL and no $GUANDAN_BENCH_DATABASE_URL)")


if __name__ == "__main__":
    main()
