"""Estimates from search playouts against heuristic playouts, near the exact frontier.

Positions: boards played by four heuristic bots until every hand holds ``--cards`` cards or
fewer (the last quarter of a deal or so), kept when the exact solver settles them within
``--offline-nodes`` (computed here, slowly) but not within ``--frontier-nodes`` (the
analysis would have to estimate them). Each is estimated with every hand seen, as the
analysis defines its values (:func:`analysis.estimate.evaluate`, the solver skipped):

* ``search``: ``--playouts`` playouts by the search policy (``search:--inner``);
* ``heuristic, same CPU``: heuristic playouts until they have used the search's CPU time;
* ``heuristic, same count``: ``--playouts`` heuristic playouts (the default estimate).

Prints the mean absolute error of each against the exact value, with the CPU per estimate.
At most 1,000 boards are tried (at 7 cards a hand about 1.5% of them give a position).

    python bench/bench_search_estimates.py --positions 20 --cards 7
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from analysis.estimate import Budget, evaluate, playout  # noqa: E402
from analysis.solver import BudgetExceeded, Solver, step  # noqa: E402
from analysis.state import Position  # noqa: E402
from duplicate.bots import HeuristicPlayer, Player  # noqa: E402
from duplicate.dealing import generate_boards  # noqa: E402
from duplicate.search import heuristic_playout  # noqa: E402
from duplicate.simulate import simulation_key  # noqa: E402
from engine import core  # noqa: E402
from engine.cards import size  # noqa: E402
from engine.ruleset import COMPETITION  # noqa: E402

del heuristic_playout  # imported to fail early when the search module is missing


def positions(cards: int, count: int, seed: bytes, frontier: int, offline: int):  # type: ignore[no-untyped-def]
    """(position, level, exact value) near the frontier, from self-played boards."""
    from analysis.estimate import bot_action

    key = simulation_key(seed)
    found = 0
    for board in generate_boards(key, 1000):
        if found >= count:
            return
        solver = Solver(board.level, COMPETITION)
        pos: Position | int = Position(tuple(board.hands), int(board.leader), None, -1, 0, -1, 0)  # type: ignore[arg-type]
        h = HeuristicPlayer(0)
        while isinstance(pos, Position) and max(size(x) for x in pos.hands) > cards:
            pos = step(pos, bot_action(pos, h, board.level, solver), COMPETITION)
        if not isinstance(pos, Position):
            continue
        try:
            Solver(board.level, COMPETITION, max_nodes=frontier).value(pos)
            continue  # inside the frontier: the analysis would have it exact
        except BudgetExceeded:
            pass
        try:
            value = Solver(board.level, COMPETITION, max_nodes=offline).value(pos)
        except BudgetExceeded:
            continue
        found += 1
        yield pos, board.level, value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--cards", type=int, default=7)
    ap.add_argument("--playouts", type=int, default=24, help="playouts per estimate")
    ap.add_argument("--inner", type=int, default=16, help="the search's playouts per decision")
    ap.add_argument("--frontier-nodes", type=int, default=20_000)
    ap.add_argument("--offline-nodes", type=int, default=3_000_000)
    ap.add_argument("--seed", default="0e57")
    args = ap.parse_args()
    print(f"core: {'native' if core.native is not None else 'python'}; load average "
          f"{os.getloadavg()[0]:.1f}", flush=True)
    err = {"search": [], "same_cpu": [], "same_count": []}  # type: dict[str, list[float]]
    cpu = {"search": 0.0, "same_cpu": 0.0, "same_count": 0.0}
    nplay = 0
    for i, (pos, level, exact) in enumerate(positions(
            args.cards, args.positions, bytes.fromhex(args.seed), args.frontier_nodes,
            args.offline_nodes)):
        solver = Solver(level, COMPETITION)
        t = time.process_time()
        s = evaluate(pos, solver, Budget(playouts=args.playouts, seed=i,
                                         policy=f"search:{args.inner}"), exact=False)
        t_search = time.process_time() - t
        cpu["search"] += t_search
        t = time.process_time()
        h = evaluate(pos, solver, Budget(playouts=args.playouts, seed=i), exact=False)
        cpu["same_count"] += time.process_time() - t
        # heuristic playouts until they have had the search's CPU time
        rng = random.Random(f"same-cpu/{i}")
        players: list[Player] = [HeuristicPlayer(s) for s in range(4)]
        vals: list[int] = []
        t = time.process_time()
        while not vals or time.process_time() - t < t_search:
            vals.append(playout(pos, solver, players, rng))
        cpu["same_cpu"] += time.process_time() - t
        nplay += len(vals)
        err["search"].append(abs(s.value - exact))
        err["same_count"].append(abs(h.value - exact))
        err["same_cpu"].append(abs(sum(vals) / len(vals) - exact))
        print(f"  {i + 1}: exact {exact:+d}; search {s.value:+.2f}; heuristic same CPU "
              f"{sum(vals) / len(vals):+.2f} ({len(vals)}); same count {h.value:+.2f}", flush=True)
    n = len(err["search"])
    print(f"\n{n} positions (every hand at most {args.cards} cards, beyond "
          f"{args.frontier_nodes} nodes, exact within {args.offline_nodes})")
    print("| estimate | mean abs. error | ± (95%) | CPU s / estimate |")
    print("| --- | ---: | ---: | ---: |")
    names = {"search": f"search playouts ({args.playouts}, search:{args.inner})",
             "same_cpu": f"heuristic playouts, same CPU (mean {nplay / max(n, 1):.0f})",
             "same_count": f"heuristic playouts ({args.playouts})"}
    for k, e in err.items():
        mean = sum(e) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in e) / (n - 1)) if n > 1 else 0.0
        print(f"| {names[k]} | {mean:.2f} | {1.96 * sd / math.sqrt(n):.2f} | {cpu[k] / n:.2f} |")


if __name__ == "__main__":
    main()
