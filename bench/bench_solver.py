"""Benchmark of the exact solver (analysis.solver): prints figures, asserts nothing.

Positions are reached by self-play: a seeded random deal of 27 cards a hand at a random
level, the heuristic bots playing every seat, stopped at the first position where every
hand holds at most K cards (K = 4, 6, 8, 10 by default). Each position is solved from a
fresh solver (empty table) on one core; the figures are the median, 90th percentile and
maximum time, nodes per second and the table hit rate. Positions past ``--limit`` seconds
are counted as unsettled (their time counted as the limit).

``--fraction N`` also plays N self-play deals and reports the share of their decisions
whose position the solver settles within ``--budget`` seconds (what ``guandan analyse``
can annotate exactly). ``--fresh K ...`` adds harder positions: random deals of exactly
K cards a hand where nobody is out yet (the bots' positions often have a player out).

Run: ``python bench/bench_solver.py [--cards 4 6 8 10] [--n 30] [--limit 60]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time

from analysis.estimate import bot_action
from analysis.solver import BudgetExceeded, Solver, step
from analysis.state import Position
from duplicate.bots import HeuristicPlayer, Player
from engine.cards import NUM_CARDS, from_ids, size
from engine.ruleset import COMPETITION


def self_play_positions(seed: int) -> tuple[int, list[Position]]:
    """A seeded deal played by the heuristic bots: its level and every position in it."""
    rng = random.Random(seed)
    ids = list(range(NUM_CARDS))
    rng.shuffle(ids)
    hands = tuple(from_ids(ids[27 * i : 27 * i + 27]) for i in range(4))
    level = rng.randrange(13)
    pos: int | Position = Position(
        (hands[0], hands[1], hands[2], hands[3]), rng.randrange(4), None, -1, 0, -1, 0
    )
    players: list[Player] = [HeuristicPlayer(f"{seed}-{s}") for s in range(4)]
    solver = Solver(level)
    out = []
    while isinstance(pos, Position):
        out.append(pos)
        pos = step(pos, bot_action(pos, players[pos.turn], level, solver), COMPETITION)
    return level, out


def position_with(seed: int, cards: int) -> tuple[int, Position] | None:
    """The first position of deal ``seed`` where every hand holds <= ``cards`` cards."""
    level, positions = self_play_positions(seed)
    for p in positions:
        if max(size(h) for h in p.hands) <= cards:
            return level, p
    return None


def fresh_position(seed: int, cards: int) -> tuple[int, Position]:
    """A seeded random deal of exactly ``cards`` cards a hand, nobody out, a random leader."""
    rng = random.Random(seed)
    ids = list(range(NUM_CARDS))
    rng.shuffle(ids)
    hands = [from_ids(ids[cards * i : cards * i + cards]) for i in range(4)]
    level = rng.randrange(13)
    return level, Position((hands[0], hands[1], hands[2], hands[3]), rng.randrange(4), None,
                           -1, 0, -1, 0)


def bench_cards(cards: int, n: int, limit: float, fresh: bool = False) -> None:
    times: list[float] = []
    nodes = lookups = hits = unsettled = 0
    seed = 0
    while len(times) < n:
        seed += 1
        got = (fresh_position(seed, cards) if fresh
               else position_with(1000 * cards + seed, cards))
        if got is None:
            continue
        level, pos = got
        solver = Solver(level, max_seconds=limit)
        t0 = time.process_time()
        try:
            solver.value(pos)
            times.append(time.process_time() - t0)
        except BudgetExceeded:
            unsettled += 1
            times.append(limit)
        nodes += solver.nodes
        lookups += solver.lookups
        hits += solver.hits
    times.sort()
    total = sum(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    what = f"   {cards:2d} cards a hand, fresh" if fresh else f"<= {cards:2d} cards a hand"
    print(
        f"{what}: {n} positions, median {statistics.median(times):.3f} s, "
        f"p90 {p90:.3f} s, max {times[-1]:.3f} s, {nodes / total:,.0f} nodes/s, "
        f"table hit rate {hits / max(1, lookups):.0%}, unsettled (> {limit:g} s) {unsettled}"
    )


def bench_fraction(deals: int, budget: float) -> None:
    settled = total = from_start = 0
    shares = []
    for seed in range(deals):
        level, positions = self_play_positions(50_000 + seed)
        solver = Solver(level, max_seconds=budget)
        # from the end backwards: once a position is out of reach, earlier ones are too
        here = 0
        for pos in reversed(positions):
            try:
                solver.value(pos)
            except BudgetExceeded:
                break
            here += 1
        settled += here
        total += len(positions)
        from_start += here == len(positions)
        shares.append(here / len(positions))
    print(
        f"self-play deals: {deals}, decisions {total}, settled exactly within {budget:g} s "
        f"each: {settled} ({settled / max(1, total):.0%}); par reached from the first lead "
        f"in {from_start} deals, from the earliest settled position in all {deals} (the last "
        f"{statistics.median(shares):.0%} of a deal's decisions, median)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[4, 6, 8, 10])
    parser.add_argument("--n", type=int, default=30, help="positions per size")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per position")
    parser.add_argument("--fraction", type=int, default=0, metavar="DEALS")
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--fresh", type=int, nargs="*", default=[], metavar="K",
                        help="also random deals of exactly K cards a hand, nobody out")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {sys.platform}; "
          f"CPU time of one process")
    for k in args.cards:
        bench_cards(k, args.n, args.limit)
    for k in args.fresh:
        bench_cards(k, args.n, args.limit, fresh=True)
    if args.fraction:
        bench_fraction(args.fraction, args.budget)


if __name__ == "__main__":
    main()
