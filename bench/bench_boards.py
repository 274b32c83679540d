"""Benchmark of board generation and storage: prints figures, asserts nothing.

* **generated**: boards per second on one core, ``duplicate.dealing.generate_boards``
  (shuffle, hands, level, leader and DealId), best of ``--rounds``. Goal: ≥ 20,000/s.
* **stored (SQLite)**: boards per second stored by ``duplicate.boards.store_set`` in bulk
  (one transaction, executemany) into a fresh, migrated SQLite file. Goal: ≥ 5,000/s.
* **stored (PostgreSQL)**: the same into a fresh database created on the server named by
  ``--pg`` or ``GUANDAN_TEST_DATABASE_URL`` (dropped afterwards); skipped without one.

Generation is timed with the process's CPU time (``time.process_time``) so that other
work on the machine disturbs it less; storage is timed by the wall clock, since the
database does part of the work. Every run uses a fresh secret, so no DealId repeats.
Run: ``python bench/bench_boards.py [--boards N] [--store N] [--pg URL]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import sys
import tempfile
import time
import uuid

from duplicate.boards import generate_set, store_set
from duplicate.db import make_engine, temporary_database, upgrade
from duplicate.dealing import (
    LevelSchedule,
    derive_key,
    generate_boards,
    parse_seed_file,
    seed_file_bytes,
)


def bench_generate(boards: int, rounds: int) -> float:
    """Best boards/s of ``rounds`` runs generating ``boards`` boards."""
    schedule = LevelSchedule.parse("cycle")
    best = 0.0
    for _ in range(rounds):
        key = derive_key(secrets.token_bytes(32))
        start = time.process_time()
        for _board in generate_boards(key, boards, schedule):
            pass
        best = max(best, boards / (time.process_time() - start))
    return best


def bench_store(url: str, boards: int) -> float:
    """Boards/s storing one set of ``boards`` boards into the migrated database at ``url``."""
    engine = make_engine(url)
    try:
        upgrade(engine)
        seed = parse_seed_file(seed_file_bytes(secrets.token_bytes(32)))
        board_set = generate_set(seed, boards, f"bench-{uuid.uuid4().hex[:8]}", "cycle")
        start = time.perf_counter()
        store_set(engine, board_set)
        return boards / (time.perf_counter() - start)
    finally:
        engine.dispose()


def bench_postgres(server: str, boards: int) -> float:
    """:func:`bench_store` into a fresh database on ``server``, dropped afterwards."""
    with temporary_database(server, prefix="guandan_bench") as url:
        return bench_store(url, boards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50_000, help="boards generated per round")
    parser.add_argument("--rounds", type=int, default=3, help="generation rounds (best is kept)")
    parser.add_argument("--store", type=int, default=20_000, help="boards stored per database")
    parser.add_argument(
        "--pg",
        default=os.environ.get("GUANDAN_TEST_DATABASE_URL"),
        help="PostgreSQL server URL (default: $GUANDAN_TEST_DATABASE_URL)",
    )
    args = parser.parse_args()

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    rate = bench_generate(args.boards, args.rounds)
    print(f"generated:           {rate:10,.0f} boards/s (one core; goal 20,000)")
    with tempfile.TemporaryDirectory() as tmp:
        rate = bench_store(f"sqlite:///{tmp}/bench.sqlite", args.store)
    print(f"stored (SQLite):     {rate:10,.0f} boards/s ({args.store:,} in one set; goal 5,000)")
    if args.pg:
        rate = bench_postgres(args.pg, args.store)
        print(f"stored (PostgreSQL): {rate:10,.0f} boards/s ({args.store:,} in one set)")
    else:
        print("stored (PostgreSQL): skipped (no --pg URL and no GUANDAN_TEST_DATABASE_URL)")


if __name__ == "__main__":
    sys.exit(main())
