"""Benchmark of self-play (duplicate.bots, duplicate.simulate): prints figures, asserts nothing.

Complete simulated deals per second for each bot policy, played the way ``guandan
simulate`` plays them: boards from a fixed seed with levels drawn from it, each board in
the open and the closed room, every play verified by ``engine.deal.Deal.play`` and written
into a ``DealRecord``. Also the cost of the heuristic's hand plan (``plan_hand``, uncached)
and the play statistics of the heuristic deals beside the real-play figures.

Deterministic (the seed fixes every card and every choice); figures are for one core, by
the wall clock and by CPU time (``time.process_time``), which a busy machine disturbs less.
Run: ``python bench/bench_selfplay.py [--boards N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from duplicate.bots import plan_hand
from duplicate.dealing import LevelSchedule, generate_boards
from duplicate.simulate import format_statistics, play_statistics, simulate_match, simulation_key


def main() -> None:
    """Time each policy pairing and print deals per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100, help="boards per run (2 deals each)")
    parser.add_argument("--rounds", type=int, default=3, help="runs per figure (best is kept)")
    args = parser.parse_args()

    key = simulation_key(b"bench-selfplay")
    boards = list(generate_boards(key, args.boards, LevelSchedule("random")))
    print(f"Python {platform.python_version()} on {platform.machine()}, {sys.platform}; "
          f"{args.boards} boards = {2 * args.boards} deals per run, best of {args.rounds}")

    for x, y in (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random")):
        best = best_cpu = float("inf")
        records = []
        for _ in range(args.rounds):
            plan_hand.cache_clear()
            t, c = time.perf_counter(), time.process_time()
            records = simulate_match(boards, x, y, key)
            best = min(best, time.perf_counter() - t)
            best_cpu = min(best_cpu, time.process_time() - c)
        stats = play_statistics(records)
        actions = sum(len(r.plays or []) for r in records)
        print(f"X {x:9} Y {y:9}: {len(records) / best:7.1f} deals/s "
              f"({len(records) / best_cpu:.1f} per CPU second), "
              f"{actions / best:8.0f} actions/s ({stats.mean_plays:.1f} plays and "
              f"{stats.passes / stats.deals:.1f} passes a deal)")

    hands = [h for b in boards for h in b.hands]
    plan_hand.cache_clear()
    t = time.perf_counter()
    for b in boards:
        for h in b.hands:
            plan_hand(h, b.level)
    per = (time.perf_counter() - t) / len(hands)
    print(f"plan_hand of a 27-card hand, uncached: {per * 1e6:.0f} µs")

    print()
    print("heuristic against heuristic:")
    print(format_statistics(play_statistics(simulate_match(boards, "heuristic", "heuristic", key))))


if __name__ == "__main__":
    main()
