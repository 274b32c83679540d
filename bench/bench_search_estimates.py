"""Estimates from search playouts against heuristic playouts, near the exact frontier.

Positions: boards played by four heuristic bots until every hand holds ``--cards`` cards or
fewer (the last quarter of a deal or so), kept when the exact solver settles them within
``--offline-nodes`` (computed here, slowly) but not within ``--frontier-nodes`` (the
analysis would have to estimate them). Each is estimated with every hand seen, as the
analysis defines its values (:func:`duplicate.analysis.estimate.evaluate`, the solver skipped):

* ``search``: ``--playouts`` playouts by the search policy (``search:--inner``, with
  ``--exact-cards``, ``--search-nodes``, ``--search-candidates``); with ``--search-noise 0``
  one playout, checked equal to what ``guandan analyse --playout-policy
  search:INNER,exact=CARDS,nodes=N --playout-noise 0`` computes (``evaluate``);
* ``heuristic, same CPU``: heuristic playouts until they have used the search's CPU time;
* ``heuristic, same count``: ``--playouts`` heuristic playouts (the default estimate).

Prints the mean absolute error of each against the exact value, with the CPU per estimate,
and the ratio of the search's error to the same-CPU heuristic's with a 95% bootstrap
interval (positions resampled). Boards are tried in chunks of ``--chunk`` (at 7 cards a hand
about 1.5% of them give a position), up to ``--boards``; ``--jobs 2`` works on two chunks at
once. Each position's estimates are seeded by its board number, so the figures do not depend
on ``--jobs``.

    python bench/bench_search_estimates.py --positions 20 --cards 7
    nice -n 10 python bench/bench_search_estimates.py --positions 200 --boards 20000 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from duplicate.analysis.estimate import Budget, evaluate, playout  # noqa: E402
from duplicate.analysis.solver import BudgetExceeded, Solver, step  # noqa: E402
from duplicate.analysis.state import Position  # noqa: E402
from duplicate.bots import HeuristicPlayer, Player  # noqa: E402
from duplicate.dealing import generate_boards  # noqa: E402
from duplicate.search import SearchBudget, SearchPlayer  # noqa: E402
from duplicate.simulate import simulation_key  # noqa: E402
from engine import core  # noqa: E402
from engine.cards import size  # noqa: E402
from engine.ruleset import COMPETITION  # noqa: E402


def positions(cards: int, seed: bytes, first: int, count: int, frontier: int, offline: int):  # type: ignore[no-untyped-def]
    """(board number, position, level, exact value) near the frontier, from boards
    ``first`` .. ``first + count - 1`` self-played by the heuristic."""
    from duplicate.analysis.estimate import bot_action

    key = simulation_key(seed)
    for board in generate_boards(key, count, first=first):
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
        yield board.number, pos, board.level, value


Row = tuple[int, int, float, float, float, int, float, float, float, int]


def chunk(job: tuple[argparse.Namespace, int]) -> tuple[int, list[Row]]:
    """The rows of the positions found in one chunk of boards: (board, exact, search,
    same-CPU heuristic, same-count heuristic, same-CPU playouts, the three CPU times, and
    whether the solver settles it with the nodes the search used)."""
    args, first = job
    rows = []
    for number, pos, level, exact in positions(
            args.cards, bytes.fromhex(args.seed), first, args.chunk, args.frontier_nodes,
            args.offline_nodes):
        solver = Solver(level, COMPETITION)
        t = time.process_time()
        if (args.exact_cards, args.search_nodes, args.search_noise, args.search_candidates) == (
                5, 20_000, 0.1, 24):
            s_value = evaluate(pos, solver, Budget(playouts=args.playouts, seed=number,
                                                   policy=f"search:{args.inner}"), exact=False).value
            used = 0
        else:  # the same playouts by a search budget the policy's name cannot give
            s_value, used = search_estimate(pos, solver, args, number)
        t_search = time.process_time() - t
        if used and args.search_noise == 0:  # the very estimate `guandan analyse` makes
            spec = (f"search:{args.inner},exact={args.exact_cards},nodes={args.search_nodes},"
                    f"candidates={args.search_candidates}")
            again = evaluate(pos, Solver(level, COMPETITION), Budget(policy=spec, noise=0),
                             exact=False)
            assert again.value == s_value and again.samples == 1, (number, again, s_value)
        # would the exact solver have settled it with the nodes the search's solvers used?
        settled = 0
        if used:
            try:
                Solver(level, COMPETITION, max_nodes=used).value(pos)
                settled = 1
            except BudgetExceeded:
                pass
        t = time.process_time()
        h = evaluate(pos, solver, Budget(playouts=args.playouts, seed=number), exact=False)
        t_count = time.process_time() - t
        # heuristic playouts until they have had the search's CPU time
        rng = random.Random(f"same-cpu/{number}")
        players: list[Player] = [HeuristicPlayer(s) for s in range(4)]
        vals: list[int] = []
        t = time.process_time()
        while not vals or time.process_time() - t < t_search:
            vals.append(playout(pos, solver, players, rng))
        t_cpu = time.process_time() - t
        rows.append((number, exact, s_value, sum(vals) / len(vals), h.value, len(vals),
                     t_search, t_cpu, t_count, settled))
    return first, rows


def search_estimate(pos: Position, solver: Solver, args: argparse.Namespace,
                    number: int) -> tuple[float, int]:
    """The mean of the search's playouts (every hand seen, as ``evaluate`` makes them) with
    the bench's search budget and noise, and the solver nodes the search used; without
    noise the playouts are all the same and one is made."""
    budget = SearchBudget(playouts=args.inner, exact_cards=args.exact_cards,
                          nodes=args.search_nodes, candidates=args.search_candidates)
    players = [SearchPlayer(f"{number}-{s}", budget) for s in range(4)]
    rng = random.Random(f"{number}/0")
    end = Solver(solver.level, solver.rules, max_nodes=4_000, table_limit=200_000)
    n = args.playouts if args.search_noise > 0 else 1
    vals = [playout(pos, solver, list(players), rng, noise=args.search_noise, end_solver=end,
                    seen=True) for _ in range(n)]
    return sum(vals) / n, sum(p.nodes for p in players) + end.nodes


def _mean_ci(e: list[float]) -> tuple[float, float]:
    n = len(e)
    mean = sum(e) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in e) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def ratio_interval(a: list[float], b: list[float], draws: int = 4000) -> tuple[float, float, float]:
    """sum(a) / sum(b) and its 95% percentile bootstrap interval (pairs resampled)."""
    rng = random.Random(0)
    n = len(a)
    got = []
    for _ in range(draws):
        idx = [rng.randrange(n) for _ in range(n)]
        sb = sum(b[i] for i in idx)
        got.append(sum(a[i] for i in idx) / sb if sb else float("inf"))
    got.sort()
    return sum(a) / sum(b), got[int(0.025 * draws)], got[int(0.975 * draws) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--cards", type=int, default=7)
    ap.add_argument("--playouts", type=int, default=24, help="playouts per estimate")
    ap.add_argument("--inner", type=int, default=16, help="the search's playouts per decision")
    ap.add_argument("--frontier-nodes", type=int, default=20_000)
    ap.add_argument("--offline-nodes", type=int, default=3_000_000)
    ap.add_argument("--seed", default="0e57")
    ap.add_argument("--exact-cards", type=int, default=5,
                    help="the search values its candidates exactly at this many cards a hand")
    ap.add_argument("--search-nodes", type=int, default=20_000,
                    help="the search's solver nodes per candidate")
    ap.add_argument("--search-candidates", type=int, default=24,
                    help="the search's candidates per decision")
    ap.add_argument("--search-noise", type=float, default=0.1,
                    help="share of random plays in the search's playouts (0: one playout)")
    ap.add_argument("--boards", type=int, default=1000, help="most boards tried")
    ap.add_argument("--chunk", type=int, default=50, help="boards per unit of work")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    args = ap.parse_args()
    print(f"core: {'native' if core.native is not None else 'python'}; load average "
          f"{os.getloadavg()[0]:.1f}; jobs {args.jobs}", flush=True)
    jobs = [(args, first) for first in range(1, args.boards + 1, args.chunk)]
    rows: list[tuple[int, int, float, float, float, int, float, float, float, int]] = []
    wall = time.perf_counter()
    done = 0
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    it = pool.imap(chunk, jobs) if pool is not None else map(chunk, jobs)
    for first, got in it:
        done += args.chunk
        rows.extend(got)
        for r in got:
            print(f"  board {r[0]}: exact {r[1]:+d}; search {r[2]:+.2f}; heuristic same CPU "
                  f"{r[3]:+.2f} ({r[5]}); same count {r[4]:+.2f}", flush=True)
        print(f"[boards {first}..{first + args.chunk - 1}: {len(rows)} positions, "
              f"{time.perf_counter() - wall:.0f} s, load {os.getloadavg()[0]:.1f}]", flush=True)
        if len(rows) >= args.positions:
            break
    if pool is not None:
        pool.terminate()
    rows = rows[:args.positions]
    n = len(rows)
    if not n:
        print("no positions found")
        return
    err = {"search": [abs(r[2] - r[1]) for r in rows],
           "same_cpu": [abs(r[3] - r[1]) for r in rows],
           "same_count": [abs(r[4] - r[1]) for r in rows]}
    cpu = {"search": sum(r[6] for r in rows), "same_cpu": sum(r[7] for r in rows),
           "same_count": sum(r[8] for r in rows)}
    nplay = sum(r[5] for r in rows)
    print(f"\n{n} positions from boards of seed {args.seed} (every hand at most {args.cards} "
          f"cards, beyond {args.frontier_nodes} nodes, exact within {args.offline_nodes}); "
          f"load average {os.getloadavg()[0]:.1f}")
    print("| estimate | mean abs. error | ± (95%) | CPU s / estimate |")
    print("| --- | ---: | ---: | ---: |")
    npl = args.playouts if args.search_noise > 0 else 1
    names = {"search": f"search playouts ({npl}, search:{args.inner}, exact at "
                       f"{args.exact_cards} cards within {args.search_nodes} nodes, "
                       f"{args.search_candidates} candidates, noise {args.search_noise})",
             "same_cpu": f"heuristic playouts, same CPU (mean {nplay / n:.0f})",
             "same_count": f"heuristic playouts ({args.playouts})"}
    for k, e in err.items():
        mean, half = _mean_ci(e)
        print(f"| {names[k]} | {mean:.3f} | {half:.3f} | {cpu[k] / n:.3f} |")
    d = [a - b for a, b in zip(err["search"], err["same_cpu"], strict=True)]
    mean, half = _mean_ci(d)
    ratio, lo, hi = ratio_interval(err["search"], err["same_cpu"])
    print(f"\nsearch error / same-CPU heuristic error: {ratio:.2f} (95% bootstrap "
          f"{lo:.2f} … {hi:.2f}); paired difference {mean:+.3f} ± {half:.3f}")
    print(f"positions the exact solver settles within the nodes the search's solvers used: "
          f"{sum(r[9] for r in rows)} of {n}")


if __name__ == "__main__":
    main()
