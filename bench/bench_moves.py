"""Benchmark of legal play generation (engine.moves); a script that prints figures, not a test.

Run: ``python bench/bench_moves.py [--hands N] [--seconds S]``.

Hands are built deterministically: the 108 card ids sorted by a SHA-256 of ``seed:id``
(no ``random``), dealt 27 to each seat; a hand's level is ``seed % 13``. Hands are then
grouped by how many wild hearts (0, 1, 2) they hold at their level, ``N`` per group.
Figures are per single core (one process), the best of 3 rounds per measurement.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import Cards, count, from_ids, parse_cards, wild_kind  # noqa: E402
from engine.combo import Combo, ComboType  # noqa: E402
from engine.moves import is_legal, legal_plays, legal_readings  # noqa: E402


def deal_hands(seed: int) -> list[Cards]:
    """The four 27-card hands of deal ``seed`` (hash-sorted ids; deterministic)."""
    ids = sorted(range(108), key=lambda i: hashlib.sha256(f"{seed}:{i}".encode()).digest())
    return [from_ids(ids[27 * s : 27 * (s + 1)]) for s in range(4)]


def hands_by_wilds(per_group: int) -> dict[int, list[tuple[Cards, int]]]:
    """``per_group`` (hand, level) pairs holding 0, 1 and 2 wild hearts."""
    groups: dict[int, list[tuple[Cards, int]]] = {0: [], 1: [], 2: []}
    seed = 0
    while min(len(g) for g in groups.values()) < per_group:
        level = seed % 13
        for hand in deal_hands(seed):
            g = groups[count(hand, wild_kind(level))]
            if len(g) < per_group:
                g.append((hand, level))
        seed += 1
    return groups


def rate(
    work: Callable[[Cards, int], int], hands: list[tuple[Cards, int]], seconds: float
) -> tuple[float, float]:
    """(hands per second, mean items per hand) of ``work`` over ``hands``, for ~``seconds``.

    The time is split into 3 rounds over all the hands and the best round counts (as
    ``timeit`` advises: slower rounds measure other processes, not this code).
    """
    best = 0.0
    per_hand = 0.0
    for _ in range(3):
        done = 0
        items = 0
        start = time.perf_counter()
        while True:
            for hand, level in hands:
                items += work(hand, level)
                done += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        best = max(best, done / elapsed)
        per_hand = items / done
    return best, per_hand


FOLLOWS = {
    "Single 9": Combo(ComboType.SINGLE, 7, parse_cards("S9")),
    "Pair 5": Combo(ComboType.PAIR, 3, parse_cards("S5 C5")),
    "Straight 4": Combo(ComboType.STRAIGHT, 2, parse_cards("S4 C5 D6 S7 C8")),
    "ThreeWithTwo 8": Combo(ComboType.THREE_WITH_TWO, 6, parse_cards("S8 C8 D8 S3 C3")),
    "Bomb 6 (4)": Combo(ComboType.BOMB, 4, parse_cards("S6 C6 D6 D6")),
    "StraightFlush 5": Combo(ComboType.STRAIGHT_FLUSH, 3, parse_cards("S5 S6 S7 S8 S9")),
}


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="hands per wild group")
    ap.add_argument("--seconds", type=float, default=1.5, help="time per measurement")
    args = ap.parse_args()
    groups = hands_by_wilds(args.hands)
    print(
        f"Python {platform.python_version()} on {platform.machine()}, one core; "
        f"{args.hands} hands of 27 per wild group"
    )

    def readings_lead(hand: Cards, level: int) -> int:
        return len(legal_readings(hand, level))

    def plays_lead(hand: Cards, level: int) -> int:
        return sum(1 for _ in legal_plays(hand, level))

    cache: dict[tuple[Cards, int], list[Combo]] = {
        h: legal_readings(*h) for g in groups.values() for h in g
    }

    def is_legal_all(hand: Cards, level: int) -> int:
        plays = cache[(hand, level)]
        for c in plays:
            is_legal(hand, c, level)
        return len(plays)

    print(f"{'measure':42} {'wilds':>5} {'hands/s':>10} {'per hand':>10}")
    for name, work in (
        ("legal readings, leading", readings_lead),
        ("all concrete plays, leading", plays_lead),
    ):
        for w in (0, 1, 2):
            hps, per = rate(work, groups[w], args.seconds)
            print(f"{name:42} {w:>5} {hps:>10.0f} {per:>10.1f}")
    for fname, tb in FOLLOWS.items():

        def readings_follow(hand: Cards, level: int, tb: Combo = tb) -> int:
            return len(legal_readings(hand, level, tb))

        def plays_follow(hand: Cards, level: int, tb: Combo = tb) -> int:
            return sum(1 for _ in legal_plays(hand, level, tb))

        for label, work in (("readings", readings_follow), ("plays", plays_follow)):
            for w in (0, 2):
                hps, per = rate(work, groups[w], args.seconds / 2)
                print(f"{'following ' + fname + ', ' + label:42} {w:>5} {hps:>10.0f} {per:>10.1f}")
    for w in (0, 2):
        hps, per = rate(is_legal_all, groups[w], args.seconds)
        print(f"{'is_legal (calls/s)':42} {w:>5} {hps * per:>10.0f} {'':>10}")


if __name__ == "__main__":
    main()
