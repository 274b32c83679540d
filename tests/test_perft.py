"""Perft-style golden counts of legal plays for fixed 27-card hands (tests/golden/perft.json).

For each of 33 fixed hands (11 each holding 0, 1 and 2 wild hearts, at varied levels) the
golden file holds, per type, the number of legal readings (``legal_readings``) and of
concrete plays (``legal_plays``) when leading and when following each play of
:data:`FOLLOWS`. The test asserts equality, so any change in the counts is a deliberate
rules change: regenerate the file with

    python tests/test_perft.py --regenerate

and review the diff. Hands come from a SHA-256 sort of the 108 card ids (no ``random``),
so the file can be rebuilt anywhere; the test also checks that the stored hands are the
ones the seeds give.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cards import (
    Cards,
    count,
    format_cards,
    from_ids,
    parse_cards,
    parse_rank,
    rank_name,
    wild_kind,
)
from engine.combo import Combo, ComboType
from engine.moves import count_plays

GOLDEN = Path(__file__).parent / "golden" / "perft.json"
PER_GROUP = 11

#: the plays followed: (label, type, rank, cards); none holds a heart, so each is a valid
#: reading at every level
FOLLOWS: list[tuple[str, ComboType, str, str]] = [
    ("Single 9", ComboType.SINGLE, "9", "S9"),
    ("Pair 5", ComboType.PAIR, "5", "S5 C5"),
    ("Trips J", ComboType.TRIPS, "J", "SJ CJ DJ"),
    ("ThreeWithTwo 8", ComboType.THREE_WITH_TWO, "8", "S8 C8 D8 S3 C3"),
    ("Straight 4", ComboType.STRAIGHT, "4", "S4 C5 D6 S7 C8"),
    ("ThreePair 6", ComboType.THREE_PAIR, "6", "S6 C6 S7 C7 S8 C8"),
    ("TwoTrips 3", ComboType.TWO_TRIPS, "3", "S3 C3 D3 S4 C4 D4"),
    ("Bomb 6 (4 cards)", ComboType.BOMB, "6", "S6 C6 D6 D6"),
    ("StraightFlush 5", ComboType.STRAIGHT_FLUSH, "5", "S5 S6 S7 S8 S9"),
    ("Bomb 2 (6 cards)", ComboType.BOMB, "2", "S2 S2 C2 C2 D2 D2"),
]


def seed_hand(seed: int) -> tuple[Cards, int]:
    """Hand and level of ``seed``: seat ``seed % 4`` of a hash-sorted deal, level ``5*seed % 13``."""
    ids = sorted(range(108), key=lambda i: hashlib.sha256(f"perft:{seed}:{i}".encode()).digest())
    seat = seed % 4
    return from_ids(ids[27 * seat : 27 * (seat + 1)]), (5 * seed) % 13


def pick_seeds() -> list[int]:
    """The first seeds giving :data:`PER_GROUP` hands with 0, 1 and 2 wild hearts."""
    groups: dict[int, list[int]] = {0: [], 1: [], 2: []}
    seed = 0
    while min(len(g) for g in groups.values()) < PER_GROUP:
        hand, level = seed_hand(seed)
        g = groups[count(hand, wild_kind(level))]
        if len(g) < PER_GROUP:
            g.append(seed)
        seed += 1
    return sorted(groups[0] + groups[1] + groups[2])


def _named(counts: dict[ComboType, int]) -> dict[str, int]:
    return {t.record_name: n for t, n in counts.items()}


def perft_case(hand: Cards, level: int) -> dict[str, Any]:
    """All counts of one hand, as stored in the golden file (without hand and seed)."""
    out: dict[str, Any] = {}
    situations: list[tuple[str, Combo | None]] = [("lead", None)]
    situations += [(label, Combo(t, parse_rank(r), parse_cards(c))) for label, t, r, c in FOLLOWS]
    for label, to_beat in situations:
        out[label] = {
            "readings": _named(count_plays(hand, level, to_beat, concrete=False)),
            "plays": _named(count_plays(hand, level, to_beat)),
        }
    return out


def build() -> list[dict[str, Any]]:
    """The whole golden file's content."""
    cases = []
    for seed in pick_seeds():
        hand, level = seed_hand(seed)
        cases.append(
            {
                "seed": seed,
                "level": rank_name(level),
                "wilds": count(hand, wild_kind(level)),
                "hand": format_cards(hand),
                "counts": perft_case(hand, level),
            }
        )
    return cases


def dumps(cases: list[dict[str, Any]]) -> str:
    """JSON text of the golden file: one line per case header and per situation."""
    lines = ["["]
    for i, case in enumerate(cases):
        head = {k: v for k, v in case.items() if k != "counts"}
        lines.append(" " + json.dumps(head)[:-1] + ', "counts": {')
        items = list(case["counts"].items())
        for j, (label, counts) in enumerate(items):
            comma = "," if j < len(items) - 1 else ""
            lines.append(f"  {json.dumps(label)}: {json.dumps(counts)}{comma}")
        lines.append(" }}" + ("," if i < len(cases) - 1 else ""))
    lines.append("]")
    return "\n".join(lines) + "\n"


def load() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_golden_file_covers_wild_groups_and_levels() -> None:
    cases = load()
    assert len(cases) >= 30
    for w in (0, 1, 2):
        assert sum(1 for c in cases if c["wilds"] == w) == PER_GROUP
    assert len({c["level"] for c in cases}) >= 8


def test_stored_hands_come_from_their_seeds() -> None:
    for case in load():
        hand, level = seed_hand(case["seed"])
        assert format_cards(hand) == case["hand"]
        assert rank_name(level) == case["level"]


@pytest.mark.parametrize(
    "case", load() if GOLDEN.exists() else [], ids=lambda c: f"seed{c['seed']}"
)
def test_perft_counts(case: dict[str, Any]) -> None:
    hand = parse_cards(case["hand"])
    level = parse_rank(case["level"])
    assert perft_case(hand, level) == case["counts"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python tests/test_perft.py --regenerate")
    GOLDEN.write_text(dumps(build()), encoding="utf-8")
    print(f"wrote {GOLDEN}")
