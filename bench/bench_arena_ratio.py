"""How many duplicate boards give the same precision as how many ordinary deals?

Two agents are compared by their mean result per deal (levels won or conceded). In
ordinary play (matches from 2 to A with tribute, agent X at N-S) that is the mean of X's
per-deal results over m deals: standard error ``sd_ord / √m``. In duplicate play a board is
two deals with the cards swapped, and X's swing (open N-S − closed N-S) is twice X's
per-deal advantage on that board: standard error ``sd_swing / (2 √n)`` over n boards.
Equal standard errors need ``m = n · 4 sd_ord² / sd_swing²`` ordinary deals, i.e.
``2 sd_ord² / sd_swing²`` times as many deals played (a board is two deals).

Pairs measured: the heuristic bot against "mixed" (the heuristic playing a random action
one time in ten: two agents of close strength, the case a ranking must resolve), random
against random (equal strength, all noise), and heuristic against random (far apart).
Bootstrap 95% intervals for the ratio.

    python bench/bench_arena_ratio.py --boards 1000 --deals 2000
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate.bots import Player, View, XorShift64  # noqa: E402
from duplicate.dealing import LevelSchedule, generate_boards  # noqa: E402
from duplicate.policies import make_player  # noqa: E402
from duplicate.simulate import iter_match, simulation_key  # noqa: E402
from engine.cards import size  # noqa: E402
from engine.combo import Combo  # noqa: E402
from engine.deal import Deal  # noqa: E402
from engine.match import play_match  # noqa: E402
from engine.seat import Side  # noqa: E402


class Mixed:
    """The heuristic bot that plays a random legal action one time in ten (an agent of
    strength close to the heuristic's, with noise of its own)."""

    name = "mixed"

    def __init__(self, seed: bytes) -> None:
        self._h = make_player("heuristic", seed)
        self._r = make_player("random", seed)
        self._rng = XorShift64(b"mixed|" + seed)

    def act(self, view: View) -> Combo | None:
        return (self._r if self._rng.below(10) == 0 else self._h).act(view)


def player(policy: str, seed: bytes) -> Player:
    return Mixed(seed) if policy == "mixed" else make_player(policy, seed)


def duplicate_swings(x: str, y: str, n: int, seed: bytes) -> list[int]:
    key = simulation_key(seed)
    boards = generate_boards(key, n, LevelSchedule.parse("random"))
    return [o.swing for o in iter_match(
        boards, lambda s: player(x, s), lambda s: player(y, s), key)]


def ordinary_results(x: str, y: str, m: int, seed: bytes) -> list[int]:
    """X's result (+levels / −levels) of each deal of ordinary matches, X at N-S."""
    key = simulation_key(seed + b"|ordinary")
    boards = list(generate_boards(key, m + 400))
    out: list[int] = []
    used = 0
    k = 0
    while len(out) < m:
        k += 1
        players = [player(x if s % 2 == 0 else y, f"{seed.hex()}|{k}|{s}".encode())
                   for s in range(4)]

        def policy(deal: Deal, players: list[Player] = players) -> Combo | None:
            seat = deal.turn
            assert seat is not None
            counts = tuple(size(h) for h in deal.hands)
            view = View(seat, deal.hand(seat), deal.level, deal.to_beat,
                        deal.last_player if deal.to_beat is not None else None,
                        (counts[0], counts[1], counts[2], counts[3]), deal.rules)
            return players[seat].act(view)

        start = used
        match = play_match(policy, lambda i, s=start: boards[(s + i) % len(boards)].hands,
                           first_leader=boards[start].leader)
        for rec in match.history:
            out.append(rec.result.levels if rec.result.winner == Side.NS else -rec.result.levels)
        used += match.deals_played
    return out[:m]


def sd(xs: list[int]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((v - mean) ** 2 for v in xs) / (len(xs) - 1))


def ratio(swings: list[int], results: list[int]) -> float:
    s = sd(swings)
    return math.inf if s == 0 else 2 * sd(results) ** 2 / s**2


def report(x: str, y: str, n: int, m: int, seed: bytes) -> None:
    t0 = time.perf_counter()
    swings = duplicate_swings(x, y, n, seed)
    results = ordinary_results(x, y, m, seed)
    rng = random.Random(1)
    boot = sorted(
        ratio([rng.choice(swings) for _ in swings], [rng.choice(results) for _ in results])
        for _ in range(200)
    )
    r = ratio(swings, results)
    mean_dup = sum(swings) / len(swings) / 2
    mean_ord = sum(results) / len(results)
    print(f"{x} vs {y}: {n} boards ({2 * n} deals), {m} ordinary deals "
          f"[{time.perf_counter() - t0:.0f} s]")
    print(f"  per-deal advantage of {x}: duplicate {mean_dup:+.3f} "
          f"(SE {sd(swings) / (2 * math.sqrt(n)):.3f}), ordinary {mean_ord:+.3f} "
          f"(SE {sd(results) / math.sqrt(m):.3f})")
    print(f"  sd of the board swing {sd(swings):.2f}, sd of an ordinary deal {sd(results):.2f}")
    print(f"  one board (2 deals) = {2 * r:.1f} ordinary deals for the same standard error: "
          f"ordinary play needs {r:.1f}x the deals "
          f"(95% bootstrap {boot[5]:.1f}-{boot[194]:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--deals", type=int, default=2000)
    args = ap.parse_args()
    report("heuristic", "mixed", args.boards, args.deals, b"ratio-3")
    report("random", "random", args.boards, args.deals, b"ratio-2")
    report("heuristic", "random", args.boards, args.deals, b"ratio-1")


if __name__ == "__main__":
    main()
