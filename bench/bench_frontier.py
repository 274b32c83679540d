"""The exact solver's frontier: what it settles within a time budget. Prints figures,
asserts nothing.

Three measurements, each with the implementation in use (engine.core; ``GUANDAN_CORE``
chooses) and a budget a position (``--budget``, 2 s) of CPU time: a position counts as
settled when the solver values it in at most that much CPU time (``time.process_time``).
The solver's own budget (``max_seconds``) is wall-clock, which on a shared machine gives
a process less CPU than that; each search is stopped at ``--slack`` (3) times the budget of
wall-clock time instead, so a search that needs more CPU than the budget is still cut, and
a loaded machine does not count against the solver:

* **self-play positions**: the first position of a seeded heuristic self-play deal where
  every hand holds at most ``--cards`` cards (12), ``--n`` positions (150; bench_solver.py's
  positions), each from a fresh solver: how many settle within the budget, and the median,
  90th percentile and maximum CPU time of those that do;
* **fresh deals**: random deals of exactly ``--fresh`` cards a hand (8), nobody out, a
  random leader, ``--fresh-n`` of them (30), each capped at ``--limit`` CPU seconds (10): the
  median CPU time (an unsettled deal counts as the limit, so the median is exact while
  fewer than half are unsettled);
* **a deal's decisions**: ``--deals`` self-play deals (10); each deal's positions are
  valued from its last decision backwards with one solver (its tables kept, as an
  annotation keeps them), each within the budget, until ``--misses`` positions in a row (2)
  fail (earlier positions hold more cards: the scan stops there, so the share is a lower
  bound): the share of all decisions valued exactly, and each deal's share;
* **the cliff** (``--skip`` it like the others): the same scan of ``--cliff-deals`` deals
  (3) counted in nodes rather than seconds, each position stopped at ``--cliff-nodes``
  (10^8, about five times the budget's nodes): where each deal's scan stops, how many cards
  the four hands hold there, and how many they hold at the decision that a share of 60%
  would need (what separates the solver from the goal, in cards, whatever the machine's
  load), and each question of the bisection of the first position it could not settle,
  asked alone (which of them are out of reach).

Run: ``nice python bench/bench_frontier.py [--cards 12] [--n 150] [--fresh 8]
[--deals 10] [--budget 2] [--cliff-deals 3]``; ``--skip positions fresh deals cliff`` leaves
parts out.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_solver import fresh_position, position_with, self_play_positions  # noqa: E402

from duplicate.analysis.solver import BudgetExceeded, Solver  # noqa: E402
from duplicate.analysis.state import Position  # noqa: E402
from engine import core  # noqa: E402
from engine.cards import size  # noqa: E402


def timed(solver: Solver, pos: Position, budget: float) -> float | None:
    """CPU seconds to value ``pos`` (None: over ``budget`` of CPU time or the solver's own
    wall-clock budget)."""
    t0 = time.process_time()
    try:
        solver.value(pos)
    except BudgetExceeded:
        return None
    t = time.process_time() - t0
    return t if t <= budget else None


def spread(times: list[float]) -> str:
    if not times:
        return "none"
    times = sorted(times)
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    return f"median {statistics.median(times):.3f} s, p90 {p90:.3f} s, max {times[-1]:.3f} s"


def self_play(cards: int, n: int, budget: float, slack: float) -> None:
    settled: list[float] = []
    seed = done = 0
    while done < n:
        seed += 1
        got = position_with(1000 * cards + seed, cards)
        if got is None:
            continue
        level, pos = got
        done += 1
        t = timed(Solver(level, max_seconds=budget * slack), pos, budget)
        if t is not None:
            settled.append(t)
    print(f"self-play positions, <= {cards} cards a hand: {n}, settled within {budget:g} s: "
          f"{len(settled)} ({len(settled) / n:.0%}); CPU time of those: {spread(settled)}",
          flush=True)


def fresh(cards: int, n: int, limit: float, slack: float) -> None:
    times: list[float] = []
    unsettled = 0
    for seed in range(1, n + 1):
        level, pos = fresh_position(seed, cards)
        t = timed(Solver(level, max_seconds=limit * slack), pos, limit)
        if t is None:
            unsettled += 1
            t = limit
        times.append(t)
    print(f"fresh deals, {cards} cards a hand: {n}, {spread(times)} (an unsettled deal counted "
          f"as {limit:g} s), unsettled within {limit:g} s: {unsettled}", flush=True)


def deals(count: int, budget: float, misses: int, slack: float) -> None:
    valued = total = 0
    shares = []
    for seed in range(count):
        level, positions = self_play_positions(50_000 + seed)
        solver = Solver(level, max_seconds=budget * slack)
        here = miss = 0
        for pos in reversed(positions):
            if timed(solver, pos, budget) is None:
                miss += 1
                if miss >= misses:
                    break
            else:
                miss = 0
                here += 1
        valued += here
        total += len(positions)
        shares.append(here / len(positions))
    print(f"self-play deals: {count}, decisions {total}, valued exactly within {budget:g} s "
          f"each: {valued} ({valued / max(1, total):.0%}); a deal's share: median "
          f"{statistics.median(shares):.0%}, lowest {min(shares):.0%}, highest {max(shares):.0%}",
          flush=True)


def cliff(count: int, max_nodes: int, misses: int) -> None:
    for seed in range(count):
        level, positions = self_play_positions(50_000 + seed)
        solver = Solver(level, max_nodes=max_nodes)
        here = miss = 0
        settled: list[tuple[int, int]] = []  # (cards, nodes) of each settled position
        stopped = 0
        first_stop: Position | None = None
        for pos in reversed(positions):
            before = solver.nodes
            try:
                solver.value(pos)
            except BudgetExceeded:
                first_stop = first_stop or pos
                stopped = stopped or cards_of(pos)
                miss += 1
                if miss >= misses:
                    break
                continue
            miss = 0
            here += 1
            settled.append((cards_of(pos), solver.nodes - before))
        goal = positions[int(len(positions) * 0.4)]
        costly = max(settled, key=lambda cn: cn[1]) if settled else (0, 0)
        print(f"deal {50_000 + seed}: {here} of {len(positions)} decisions settled within "
              f"{max_nodes:.0e} nodes each ({here / len(positions):.0%}); the scan stopped at "
              f"{stopped} cards in the four hands; the costliest settled position: "
              f"{costly[0]} cards, {costly[1]:.2g} nodes; a 60% share needs the decision "
              f"with {cards_of(goal)} cards", flush=True)
        if first_stop is not None:
            print(f"  its first unsettled position, each question of the bisection from a fresh "
                  f"solver: {questions(level, first_stop, max_nodes)}", flush=True)


def questions(level: int, pos: Position, max_nodes: int) -> str:
    """Each null-window question of ``pos`` (at least t, t above the lowest value) asked
    alone from a fresh solver: its answer and nodes, or "stopped"."""
    said = []
    for t in Solver(level).values[1:]:
        solver = Solver(level, max_nodes=max_nodes)
        try:
            answer = "yes" if solver.test(pos, t) else "no"
        except BudgetExceeded:
            answer = "stopped"
        said.append(f"at least {t:+d}: {answer} ({solver.nodes:.2g} nodes)")
    return "; ".join(said)


def cards_of(pos: Position) -> int:
    return sum(size(h) for h in pos.hands)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--cards", type=int, default=12)
    parser.add_argument("--n", type=int, default=150, help="self-play positions")
    parser.add_argument("--budget", type=float, default=2.0, help="CPU seconds a position")
    parser.add_argument("--slack", type=float, default=3.0,
                        help="wall-clock cut of a search, in budgets")
    parser.add_argument("--fresh", type=int, default=8)
    parser.add_argument("--fresh-n", type=int, default=30)
    parser.add_argument("--limit", type=float, default=10.0, help="CPU seconds a fresh deal")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--misses", type=int, default=2)
    parser.add_argument("--cliff-deals", type=int, default=3)
    parser.add_argument("--cliff-nodes", type=float, default=1e8)
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=["positions", "fresh", "deals", "cliff"])
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {sys.platform}; "
          f"solver: {core.implementation()}; CPU time of one process", flush=True)
    if "positions" not in args.skip:
        self_play(args.cards, args.n, args.budget, args.slack)
    if "fresh" not in args.skip:
        fresh(args.fresh, args.fresh_n, args.limit, args.slack)
    if "deals" not in args.skip:
        deals(args.deals, args.budget, args.misses, args.slack)
    if "cliff" not in args.skip:
        cliff(args.cliff_deals, int(args.cliff_nodes), args.misses)


if __name__ == "__main__":
    main()
