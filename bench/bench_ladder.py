"""A ladder of our bots: random, heuristic and search at several budgets, in duplicate.

Every pair of policies plays the same boards as a teams match (``duplicate.simulate``:
open room X at N–S, closed room X at E–W, same cards), so the cards' luck cancels. Prints,
per pair, the mean swing a board with its 95% interval; per policy (after every pair, so that
a run cut short still reports), the Bradley–Terry
rating over board swings with its 95% profile-likelihood interval (``duplicate.arena.rating``, the
arena's tournaments' method) and the CPU time per decision (every action asked, and for
the search the decisions it searched: more than one legal action).

    python bench/bench_ladder.py --boards 6 --budgets 64,256,1024
    python bench/bench_ladder.py --boards 40 --only search:128,heuristic --progress
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from duplicate.arena.rating import BoardGame, rate  # noqa: E402
from duplicate.bots import Player, View  # noqa: E402
from duplicate.policies import make_player  # noqa: E402
from duplicate.simulate import simulate_boards, simulation_key  # noqa: E402
from engine import core  # noqa: E402
from engine.combo import Combo  # noqa: E402


class Timed:
    """A player whose every decision's CPU time is added to its policy's tally."""

    def __init__(self, inner: Player, tally: dict[str, float]) -> None:
        self.inner = inner
        self.name = inner.name
        self.tally = tally

    def act(self, view: View) -> Combo | None:
        t = time.process_time()
        try:
            return self.inner.act(view)
        finally:
            self.tally["cpu"] += time.process_time() - t
            self.tally["acts"] += 1


def interval(xs: list[int]) -> tuple[float, float]:
    """Mean and half-width of the 95% t-interval (normal beyond 30)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, float("inf")
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    t = 1.96 if n > 30 else {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36,
                              9: 2.31, 10: 2.26}.get(n, 2.1)
    return mean, t * sd / math.sqrt(n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=6, help="boards per pair (each in two rooms)")
    ap.add_argument("--budgets", default="64,256,1024", help="search budgets (playouts)")
    ap.add_argument("--only", help="comma-separated policies instead of the ladder")
    ap.add_argument("--seed", default="1adde7", help="hex seed of the boards and the bots")
    ap.add_argument("--all-pairs", action="store_true",
                    help="random also plays the searches (by default it plays the heuristic only: "
                    "it loses every board by 6 to any of them)")
    ap.add_argument("--progress", action="store_true", help="a line after every board")
    args = ap.parse_args()
    if args.only:
        policies = args.only.split(",")
    else:
        policies = ["random", "heuristic"] + [f"search:{b}" for b in args.budgets.split(",")]
    tallies = {p: {"cpu": 0.0, "acts": 0, "searched": 0} for p in policies}
    searchers: dict[str, list[Player]] = {p: [] for p in policies}

    def factory(policy: str):  # type: ignore[no-untyped-def]
        def build(seed: bytes) -> Player:
            player = make_player(policy, seed)
            searchers[policy].append(player)
            return Timed(player, tallies[policy])

        return build

    key = simulation_key(bytes.fromhex(args.seed))
    games: list[BoardGame] = []
    print(f"core: {'native' if core.native is not None else 'python'}; boards per pair: "
          f"{args.boards}; load average {os.getloadavg()[0]:.1f}", flush=True)
    start = time.perf_counter()
    pairs = [(a, b) for a, b in itertools.combinations(policies, 2)
             if args.all_pairs or "random" not in (a, b) or "heuristic" in (a, b)]
    for m, (a, b) in enumerate(pairs):
        swings = []
        for o in simulate_boards(key, args.boards, factory(a), factory(b)):
            swings.append(o.swing)
            games.append(BoardGame(m, a, b, o.swing))
            if args.progress:
                mean, half = interval(swings)
                print(f"  board {o.board.number}: {a} vs {b} swing {o.swing:+d}; so far "
                      f"{mean:+.2f} ± {half:.2f} over {len(swings)}", flush=True)
        mean, half = interval(swings)
        print(f"{a:>12} vs {b:<12} {mean:+.2f} ± {half:.2f} levels a board "
              f"(swings {' '.join(f'{s:+d}' for s in swings)})", flush=True)
        table(policies, games, tallies, searchers)
    print(f"\nwall time {time.perf_counter() - start:.0f} s; load average "
          f"{os.getloadavg()[0]:.1f}")


def table(policies: list[str], games: list[BoardGame], tallies: dict[str, dict[str, float]],
          searchers: dict[str, list[Player]]) -> None:
    """The ratings and CPU figures so far, as a Markdown table."""
    played = [p for p in policies if any(p in (g.a, g.b) for g in games)]
    print("| policy | rating | 95% interval | boards | CPU ms / action | CPU ms / searched decision |")
    print("| --- | ---: | --- | ---: | ---: | ---: |")
    ratings = {r.name: r for r in rate(played, games)}
    for p in sorted(played, key=lambda p: -ratings[p].rating):
        r, t = ratings[p], tallies[p]
        searched = sum(getattr(s, "decisions", 0) for s in searchers[p])
        per_act = 1000 * t["cpu"] / max(1, int(t["acts"]))
        per_search = f"{1000 * t['cpu'] / searched:.1f}" if searched else "-"
        print(f"| {p} | {r.rating:+.0f} | {r.low:+.0f} … {r.high:+.0f} | {r.boards} | "
              f"{per_act:.2f} | {per_search} |", flush=True)


if __name__ == "__main__":
    main()
