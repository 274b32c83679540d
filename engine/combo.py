"""Combination types and the comparison of combinations (RULES.md §3–4).

A :class:`Combo` is one reading of a play: its type, its rank as the records write it
(FORMAT.md: the triple's rank for ThreeWithTwo, the **lowest** rank for sequences, 13/14
for joker singles and pairs, 13 for FourKings) and the concrete cards (``Cards``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from engine.cards import RANK_A, Cards, level_value, rank_name, size
from engine.constants import COMBO_TYPES
from engine.errors import InvalidComboError


class ComboType(IntEnum):
    """The combinations of RULES.md §3, named as FORMAT.md (the AI protocol) names them."""

    SINGLE = 0
    PAIR = 1
    TRIPS = 2
    THREE_WITH_TWO = 3
    THREE_PAIR = 4  # 三连对 (tube)
    TWO_TRIPS = 5  # 钢板 (plate)
    STRAIGHT = 6
    STRAIGHT_FLUSH = 7
    BOMB = 8
    FOUR_KINGS = 9  # 天王炸 (joker bomb)

    @property
    def record_name(self) -> str:
        """The FORMAT.md name (``ThreeWithTwo``)."""
        return _NAMES[self]

    @classmethod
    def from_name(cls, name: str) -> ComboType:
        """Parse a FORMAT.md type name (case-insensitive)."""
        t = _BY_NAME.get(name.lower())
        if t is None:
            raise InvalidComboError(
                f"unknown combination type {name!r}: expected one of {', '.join(_NAMES)}",
                "engine.unknown_type", shown=repr(name), names=", ".join(_NAMES),
            )
        return t

    @property
    def is_sequence(self) -> bool:
        """Straights, tubes, plates and straight flushes: ranked in natural order."""
        return self in _SEQUENCES


#: the FORMAT.md names, by type (engine/constants.py, which the compiled core is built from)
_NAMES = tuple(record for _, record in COMBO_TYPES)
if [(t.name, t.value) for t in ComboType] != [(n, i) for i, (n, _) in enumerate(COMBO_TYPES)]:
    raise ImportError("ComboType differs from engine/constants.py's COMBO_TYPES")
_BY_NAME = {n.lower(): ComboType(i) for i, n in enumerate(_NAMES)}
_SEQUENCES = frozenset(
    {ComboType.STRAIGHT, ComboType.THREE_PAIR, ComboType.TWO_TRIPS, ComboType.STRAIGHT_FLUSH}
)
#: number of cards of every fixed-size type
FIXED_SIZE = {
    ComboType.SINGLE: 1,
    ComboType.PAIR: 2,
    ComboType.TRIPS: 3,
    ComboType.THREE_WITH_TWO: 5,
    ComboType.THREE_PAIR: 6,
    ComboType.TWO_TRIPS: 6,
    ComboType.STRAIGHT: 5,
    ComboType.STRAIGHT_FLUSH: 5,
    ComboType.FOUR_KINGS: 4,
}


def sequence_position(rank: int) -> int:
    """Position of a sequence's lowest rank in natural order; A as lowest is -1 (§2)."""
    return -1 if rank == RANK_A else rank


class Combo(NamedTuple):
    """One reading of a play: type, record rank and the concrete cards."""

    type: ComboType
    rank: int
    cards: Cards

    @property
    def size(self) -> int:
        """Number of cards."""
        return size(self.cards)

    @property
    def is_bomb_class(self) -> bool:
        """Bombs, straight flushes and the joker bomb: they beat any other type (§4.3)."""
        return self.type >= ComboType.STRAIGHT_FLUSH

    def power(self, level: int) -> tuple[int, int, int]:
        """Sort key that orders combinations as RULES.md §4 does.

        Bomb-class combinations are totally ordered by it. Other combinations compare
        only within the same type (their types have fixed sizes), by the last element.
        """
        t = self.type
        if t == ComboType.FOUR_KINGS:
            return (4, 0, 0)
        if t == ComboType.BOMB:
            n = self.size
            # §4.2: 6+ card bombs beat straight flushes, which beat 4- and 5-card bombs.
            return (3 if n >= 6 else 1, n, level_value(self.rank, level))
        if t == ComboType.STRAIGHT_FLUSH:
            return (2, 0, sequence_position(self.rank))
        if t in _SEQUENCES:
            return (0, int(t), sequence_position(self.rank))
        return (0, int(t), level_value(self.rank, level))

    def beats(self, other: Combo, level: int) -> bool:
        """True when this combination may be played on ``other`` (RULES.md §4)."""
        if self.is_bomb_class:
            if not other.is_bomb_class:
                return True
            return self.power(level) > other.power(level)
        if other.is_bomb_class or self.type != other.type:
            return False
        return self.power(level)[2] > other.power(level)[2]

    def describe(self) -> str:
        """``Type rank`` as in records (``Straight 3``, ``Single R``)."""
        return f"{self.type.record_name} {rank_name(self.rank)}"
