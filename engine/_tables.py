"""Precomputed tables shared by :mod:`engine.reading` and :mod:`engine.moves` (private).

A rank's four suits occupy one 12-bit *field* of a ``Cards`` int (3 bits per suit, S H C D
from the low end; see :mod:`engine.cards`). Everything here is a function of one field or
of the fixed sequence windows, computed once at import, so the hot paths replace per-card
Python loops by one shift, one mask and one list index per rank.
"""

from __future__ import annotations

from itertools import product

from engine.cards import FIELD, KIND_BIT, KIND_HR, KIND_SB, RANK_A, level_value

#: bits of a rank field (4 suits x 3 bits)
FIELD_MASK = 0xFFF
#: bit offset of each rank's field (ranks 0..12 = 2..A)
SHIFTS: tuple[int, ...] = tuple(12 * r for r in range(13))
#: the 52 non-joker kinds' bits (all 13 rank fields)
NON_JOKER_MASK = (1 << (12 * 13)) - 1
#: shifts of the two jokers' 3-bit counts
SB_SHIFT = FIELD * KIND_SB
HR_SHIFT = FIELD * KIND_HR
SB_BIT = KIND_BIT[KIND_SB]
HR_BIT = KIND_BIT[KIND_HR]
#: the joker bomb's cards (SB SB HR HR)
FOUR_KINGS_CARDS = 2 * SB_BIT + 2 * HR_BIT
#: the largest count a kind may have (two packs)
MAX_COPIES = 2

_NFIELDS = 1 << 12


def _field_counts(f: int) -> tuple[int, int, int, int]:
    return (f & 7, (f >> 3) & 7, (f >> 6) & 7, (f >> 9) & 7)


#: number of cards in each field value
FIELD_COUNT: list[int] = [sum(_field_counts(f)) for f in range(_NFIELDS)]
#: 4-bit mask of the suits present in each field value (bit s for suit s)
FIELD_SUITS: list[int] = [
    sum(1 << s for s, c in enumerate(_field_counts(f)) if c) for f in range(_NFIELDS)
]
#: the field holding one card of each suit: ``SUIT_UNIT[s] << shift`` is that card
SUIT_UNIT: tuple[int, ...] = (1, 1 << 3, 1 << 6, 1 << 9)


def _valid(f: int) -> bool:
    return all(c <= MAX_COPIES for c in _field_counts(f))


def _subs_by_size(f: int) -> list[tuple[int, ...]]:
    """Every sub-multiset of field ``f``, grouped by size (index = number of cards).

    Within one size the order is fixed (more copies of spades first, then hearts, ...), so
    the first entry is the canonical choice: natural cards taken in suit order S H C D.
    """
    counts = _field_counts(f)
    by_size: list[list[int]] = [[] for _ in range(FIELD_COUNT[f] + 1)]
    ranges = [range(c, -1, -1) for c in counts]
    for take in product(*ranges):
        sub = take[0] | (take[1] << 3) | (take[2] << 6) | (take[3] << 9)
        by_size[sum(take)].append(sub)
    return [tuple(x) for x in by_size]


#: ``SUBS[f][k]``: the distinct sub-multisets of ``k`` cards of field ``f`` (valid fields only:
#: every suit count 0..2; other entries are empty)
SUBS: list[list[tuple[int, ...]]] = [_subs_by_size(f) if _valid(f) else [] for f in range(_NFIELDS)]

#: the most cards one rank can be asked for (a bomb of ``bomb_max`` <= 10 cards)
MAX_NEED = 10
#: the most wild cards a hand can hold
MAX_WILDS = 2


def _options(f: int, need: int) -> tuple[tuple[int, int], ...]:
    """Ways to supply ``need`` cards of one rank from field ``f`` plus wilds.

    Each option is ``(natural sub-field, wilds used)``, ordered by wilds used (fewest first,
    the canonical choice first); options needing more than :data:`MAX_WILDS` are left out.
    """
    out: list[tuple[int, int]] = []
    have = FIELD_COUNT[f]
    for c in range(min(have, need), max(0, need - MAX_WILDS) - 1, -1):
        for sub in SUBS[f][c]:
            out.append((sub, need - c))
    return tuple(out)


#: ``OPTIONS[f][need]``: see :func:`_options` (valid fields only)
OPTIONS: list[list[tuple[tuple[int, int], ...]]] = [
    [_options(f, need) for need in range(MAX_NEED + 1)] if _valid(f) else []
    for f in range(_NFIELDS)
]

#: ``FIRST_SUB[f][need]``: the canonical natural part of ``need`` cards from field ``f``: as
#: many natural cards as it has (up to ``need``), taken in suit order (valid fields only)
FIRST_SUB: list[list[int]] = [
    [SUBS[f][min(FIELD_COUNT[f], need)][0] for need in range(MAX_NEED + 1)] if _valid(f) else []
    for f in range(_NFIELDS)
]


def _window(low: int, length: int) -> tuple[int, ...]:
    """Ranks of a sequence of ``length`` starting at natural position ``low`` (-1 = A low)."""
    return tuple(RANK_A if p == -1 else p for p in range(low, low + length))


def _windows(length: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """``(record rank, rank mask, ranks)`` of every sequence of ``length`` ranks (RULES.md §2:
    A high or low, no wrapping), lowest first. The record rank is the lowest rank (§3)."""
    out = []
    for low in range(-1, 13 - length + 1):
        ranks = _window(low, length)
        out.append((ranks[0], sum(1 << r for r in ranks), ranks))
    return tuple(out)


#: Straights / straight flushes (5 ranks): A2345 .. TJQKA
STRAIGHT_WINDOWS = _windows(5)
#: ThreePair (3 consecutive pairs): AA2233 .. QQKKAA
THREE_PAIR_WINDOWS = _windows(3)
#: TwoTrips (2 consecutive triples): AAA222 .. KKKAAA
TWO_TRIPS_WINDOWS = _windows(2)


def level_order(level: int) -> tuple[int, ...]:
    """Non-joker ranks 0..12 from weakest to strongest in level order (RULES.md §2)."""
    return tuple(r for r in range(13) if r != level) + (level,)


#: ``LEVEL_ORDER[level]``: :func:`level_order` for every level
LEVEL_ORDER: tuple[tuple[int, ...], ...] = tuple(level_order(lv) for lv in range(13))


#: ``LEVEL_VALUES[level][rank]``: :func:`engine.cards.level_value` for ranks 0..14
LEVEL_VALUES: tuple[tuple[int, ...], ...] = tuple(
    tuple(level_value(r, lv) for r in range(15)) for lv in range(13)
)
#: position of each rank 0..12 as a sequence's lowest rank (A low = -1; RULES.md §2)
SEQ_POSITION: tuple[int, ...] = tuple(-1 if r == RANK_A else r for r in range(13))
