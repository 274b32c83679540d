"""Benchmark of the exact solver (analysis.solver): prints figures, asserts nothing.

Positions are reached by self-play: a seeded random deal of 27 cards a hand at a random
level, the heuristic bots playing every seat, stopped at the first position where every
hand holds at most K cards (K = 4, 6, 8, 10 by default; 150 positions a row). Each
position is solved from a fresh solver (empty table) on one core; the figures are the
median, 90th percentile and maximum time, nodes per second and the table hit rate.
Positions past ``--limit`` seconds are counted as unsettled (their time counted as the
limit).

``--impl python native`` solves the row with each implementation in turn (the
pure-Python search and the compiled core's, engine.core; the one not chosen at import in a
child process run with ``GUANDAN_CORE``), and prints a row
for each and their ratios over the positions both settle: nodes a second (raw speed: the
two count nodes the same way, one per call of the search, but the core's table forgets
more, so their node counts differ a little; the node counts' ratio is printed too) and
time to solve (the sum of the times). Without ``--impl`` the implementation in use runs.

``--fraction N`` also plays N self-play deals and reports the share of their decisions
whose position the solver settles within ``--budget`` seconds (what ``guandan analyse``
can annotate exactly). ``--fresh K ...`` adds harder positions: random deals of exactly
K cards a hand where nobody is out yet (the bots' positions often have a player out).

Run: ``python bench/bench_solver.py [--cards 4 6 8 10] [--n 150] [--limit 60]
[--impl python native]``. The issue's frontier (every self-play position of <= 12 cards a
hand settled within 2 s, fresh deals of 8 cards a hand, the share of a deal's decisions
valued exactly at 2 s each) is bench_frontier.py.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time

from duplicate.analysis.estimate import bot_action
from duplicate.analysis.solver import BudgetExceeded, Solver, step
from duplicate.analysis.state import Position
from duplicate.bots import HeuristicPlayer, Player
from engine import core
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


class Row:
    """One implementation's results on a row of positions."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.nodes: list[int] = []
        self.settled: list[bool] = []
        self.lookups = self.hits = 0

    def add(self, seconds: float, solver: Solver, settled: bool) -> None:
        self.times.append(seconds)
        self.nodes.append(solver.nodes)
        self.settled.append(settled)
        self.lookups += solver.lookups
        self.hits += solver.hits

    def summary(self, limit: float) -> str:
        times = sorted(self.times)
        total = sum(times)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        unsettled = self.settled.count(False)
        return (f"median {statistics.median(times):.3f} s, p90 {p90:.3f} s, max {times[-1]:.3f} s, "
                f"{sum(self.nodes) / max(total, 1e-9):,.0f} nodes/s, table hit rate "
                f"{self.hits / max(1, self.lookups):.0%}, unsettled (> {limit:g} s) {unsettled}")


def solve_timed(level: int, pos: Position, limit: float) -> tuple[float, Solver, bool]:
    """Solve ``pos`` from a fresh solver: CPU seconds (the limit when unsettled), the
    solver (its counters) and whether it settled."""
    solver = Solver(level, max_seconds=limit)
    t0 = time.process_time()
    try:
        solver.value(pos)
    except BudgetExceeded:
        return limit, solver, False
    return time.process_time() - t0, solver, True


def solve_row(cards: int, n: int, limit: float, fresh: bool) -> Row:
    """The row of ``n`` positions solved with the implementation chosen at import."""
    row = Row()
    seed = 0
    done = 0
    while done < n:
        seed += 1
        got = (fresh_position(seed, cards) if fresh
               else position_with(1000 * cards + seed, cards))
        if got is None:
            continue
        level, pos = got
        row.add(*solve_timed(level, pos, limit))
        done += 1
    return row


def row_elsewhere(name: str, cards: int, n: int, limit: float, fresh: bool) -> Row:
    """The row solved in a child process run with ``GUANDAN_CORE=name`` (the implementation
    is chosen at import, docs/CORE.md)."""
    child = subprocess.run(
        [sys.executable, __file__, "--row-child", str(cards), str(n), str(limit),
         "1" if fresh else "0"],
        env={**os.environ, "GUANDAN_CORE": name}, capture_output=True, text=True, check=True)
    row = Row()
    row.__dict__.update(json.loads(child.stdout))
    return row


def bench_cards(cards: int, n: int, limit: float, fresh: bool = False,
                impls: list[str] | None = None) -> None:
    names = impls or [core.implementation()]
    rows = {name: (solve_row(cards, n, limit, fresh) if name == core.implementation()
                   else row_elsewhere(name, cards, n, limit, fresh)) for name in names}
    what = f"   {cards:2d} cards a hand, fresh" if fresh else f"<= {cards:2d} cards a hand"
    for name in names:
        print(f"{what}, {name}: {n} positions, {rows[name].summary(limit)}")
    if len(names) == 2:
        a, b = rows[names[0]], rows[names[1]]
        both = [i for i in range(n) if a.settled[i] and b.settled[i]]
        ta = sum(a.times[i] for i in both)
        tb = sum(b.times[i] for i in both)
        na = sum(a.nodes[i] for i in both)
        nb = sum(b.nodes[i] for i in both)
        print(f"{what}, {names[1]} / {names[0]} on the {len(both)} positions both settle: "
              f"nodes a second {nb / max(tb, 1e-9) / max(na / max(ta, 1e-9), 1e-9):.1f}x "
              f"({na / max(ta, 1e-9):,.0f} / {nb / max(tb, 1e-9):,.0f}), time to solve "
              f"{ta / max(tb, 1e-9):.1f}x ({ta:.3f} s / {tb:.3f} s), nodes {nb / max(na, 1):.3f}x")


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
    parser.add_argument("--n", type=int, default=150, help="positions per size")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per position")
    parser.add_argument("--fraction", type=int, default=0, metavar="DEALS")
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--fresh", type=int, nargs="*", default=[], metavar="K",
                        help="also random deals of exactly K cards a hand, nobody out")
    parser.add_argument("--impl", nargs="+", choices=["python", "native"], default=None,
                        help="the row solved by each implementation (the one not chosen at "
                        "import in a child process)")
    parser.add_argument("--row-child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row_child:  # one row with this process's implementation, as JSON
        cards, n, limit, fresh = args.row_child
        print(json.dumps(solve_row(int(cards), int(n), float(limit), fresh == "1").__dict__))
        return
    print(f"Python {platform.python_version()} on {platform.machine()}, {sys.platform}; "
          f"CPU time of one process")
    for k in args.cards:
        bench_cards(k, args.n, args.limit, impls=args.impl)
    for k in args.fresh:
        bench_cards(k, args.n, args.limit, fresh=True, impls=args.impl)
    if args.fraction:
        bench_fraction(args.fraction, args.budget)


if __name__ == "__main__":
    main()
