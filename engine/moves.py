"""Legal plays of a hand (RULES.md §3–4): lazily generated, with a fast one-per-reading path.

A *play* is a :class:`Combo` ``(type, rank, cards)`` with ``cards`` taken from the hand and
``(type, rank)`` one of the readings of ``cards`` (:func:`engine.reading.readings`). Two
plays are the same when type, rank and cards are equal; cards are equal when they hold the
same kinds (the two packs' copies are not told apart). The same cards may give several
plays (a wild heart with 3-4-5-6 is both Straight 2 and Straight 3).

Generation works by type from per-rank fields of the hand (see :mod:`engine._tables`): for
every ``(type, rank)`` it asks each rank involved for ``need`` cards, offered as "these
natural cards plus so many wilds" options, and combines them while the wilds last. Every
card set is produced exactly once per reading because the natural cards of a play determine
how many of each rank it took, hence which option of each rank made it.

Passing is not a play: the deal handles it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from engine._tables import (
    FIELD_COUNT,
    FOUR_KINGS_CARDS,
    HR_BIT,
    HR_SHIFT,
    LEVEL_ORDER,
    NON_JOKER_MASK,
    OPTIONS,
    SB_BIT,
    SB_SHIFT,
    SHIFTS,
    STRAIGHT_WINDOWS,
    SUIT_UNIT,
    THREE_PAIR_WINDOWS,
    TWO_TRIPS_WINDOWS,
)
from engine.cards import BIG_JOKER, KIND_BIT, SMALL_JOKER, Cards, is_subset, level_value, wild_kind
from engine.combo import Combo, ComboType, sequence_position
from engine.errors import InvalidComboError
from engine.reading import check_cards, check_level, reading_keys
from engine.ruleset import COMPETITION, Ruleset

T = ComboType

__all__ = ["legal_plays", "legal_readings", "is_legal", "count_plays"]

#: (type, cards needed per rank, windows) of the three non-flush sequence types
_SEQUENCES = (
    (T.THREE_PAIR, 2, THREE_PAIR_WINDOWS),
    (T.TWO_TRIPS, 3, TWO_TRIPS_WINDOWS),
    (T.STRAIGHT, 1, STRAIGHT_WINDOWS),
)
_GROUPS = ((T.SINGLE, 1), (T.PAIR, 2), (T.TRIPS, 3))
#: the bomb-class power (RULES.md §4) every combination beats when leading
_NO_FLOOR = (-1, -1, -1)


def _check_combo(combo: Combo, what: str) -> None:
    if not isinstance(combo, Combo) or not isinstance(combo.type, ComboType):
        raise InvalidComboError(f"{what} {combo!r} is not a Combo")
    check_cards(combo.cards, f"{what} cards")


class _Hand:
    """What generation needs to know of a hand at a level, computed once per call."""

    __slots__ = ("fields", "counts", "w", "wbit", "sb", "hr", "level", "rules")

    def __init__(self, hand: Cards, level: int, rules: Ruleset) -> None:
        wk = wild_kind(level)
        self.wbit = KIND_BIT[wk]
        self.w = (hand >> (3 * wk)) & 7
        nat = (hand & NON_JOKER_MASK) - self.w * self.wbit
        #: the natural (non-wild) cards of each rank 0..12, as 12-bit fields
        self.fields = [(nat >> sh) & 0xFFF for sh in SHIFTS]
        self.counts = [FIELD_COUNT[f] for f in self.fields]
        self.sb = (hand >> SB_SHIFT) & 7
        self.hr = (hand >> HR_SHIFT) & 7
        self.level = level
        self.rules = rules


def _groups(h: _Hand, ctype: ComboType, need: int, floor: int, first_only: bool) -> Iterator[Combo]:
    """Singles, pairs or trips of every rank stronger than ``floor`` (a level value)."""
    level, w, wbit, fields = h.level, h.w, h.wbit, h.fields
    for r in LEVEL_ORDER[level]:
        if level_value(r, level) <= floor:
            continue
        f = fields[r]
        if not f and r != level:
            continue  # wilds alone are level cards (§2): no other rank without a natural
        sh = SHIFTS[r]
        for sub, u in OPTIONS[f][need]:
            if u > w or (not sub and r != level):
                break  # (an all-wild option comes last: wilds alone are level cards)
            yield Combo(ctype, r, (sub << sh) + u * wbit)
            if first_only:
                break
    # jokers: singles and pairs of their own (never completed by wilds, §3)
    if ctype == T.SINGLE:
        if h.sb and floor < 14:
            yield Combo(T.SINGLE, SMALL_JOKER, SB_BIT)
        if h.hr and floor < 15:
            yield Combo(T.SINGLE, BIG_JOKER, HR_BIT)
    elif ctype == T.PAIR:
        if h.sb == 2 and floor < 14:
            yield Combo(T.PAIR, SMALL_JOKER, 2 * SB_BIT)
        if h.hr == 2 and floor < 15:
            yield Combo(T.PAIR, BIG_JOKER, 2 * HR_BIT)


def _pair_sources(h: _Hand) -> list[tuple[int, int, int]]:
    """Every way to supply the pair of a full house: ``(rank, cards, wilds used)``.

    Ordered canonically: fewest wilds, then weakest pair (level order). A pair of two wilds
    stands for a pair of any rank, so it appears once, with rank -1 (it never clashes with
    the triple's rank); joker pairs only with ``joker_pair_in_full_house`` (§3).
    """
    level, w, wbit, fields = h.level, h.w, h.wbit, h.fields
    out: list[tuple[int, int, int, int]] = []
    for r in LEVEL_ORDER[level]:
        f = fields[r]
        if not f:
            continue
        sh = SHIFTS[r]
        lv = level_value(r, level)
        for sub, u in OPTIONS[f][2]:
            if u > w or not sub:
                break  # two wilds alone are added once below
            out.append((u, lv, r, (sub << sh) + u * wbit))
    if h.rules.joker_pair_in_full_house:
        if h.sb == 2:
            out.append((0, 14, SMALL_JOKER, 2 * SB_BIT))
        if h.hr == 2:
            out.append((0, 15, BIG_JOKER, 2 * HR_BIT))
    if w == 2:
        out.append((2, 16, -1, 2 * wbit))
    out.sort(key=lambda x: (x[0], x[1]))  # stable: within a rank, options keep their order
    return [(r, cards, u) for u, _, r, cards in out]


def _three_with_two(h: _Hand, floor: int, first_only: bool) -> Iterator[Combo]:
    """Full houses (triple + pair of another rank; the record rank is the triple's)."""
    level, w, wbit, fields = h.level, h.w, h.wbit, h.fields
    pairs: list[tuple[int, int, int]] | None = None
    for t in LEVEL_ORDER[level]:
        f = fields[t]
        if not f or level_value(t, level) <= floor or h.counts[t] + w < 3:
            continue
        if pairs is None:
            pairs = _pair_sources(h)
        sh = SHIFTS[t]
        for sub, ut in OPTIONS[f][3]:
            if ut > w:
                break
            triple = (sub << sh) + ut * wbit
            left = w - ut
            done = False
            for p, cards, up in pairs:
                if up > left:
                    continue
                if p == t:
                    continue
                yield Combo(T.THREE_WITH_TWO, t, triple + cards)
                if first_only:
                    done = True
                    break
            if done:
                break


def _sequences(
    h: _Hand,
    ctype: ComboType,
    need: int,
    windows: tuple[tuple[int, int, tuple[int, ...]], ...],
    floor: int,
    first_only: bool,
) -> Iterator[Combo]:
    """Straights, tubes (ThreePair) or plates (TwoTrips) above ``floor`` (a position)."""
    w, wbit, fields, counts = h.w, h.wbit, h.fields, h.counts
    for rank, _, ranks in windows:
        if sequence_position(rank) <= floor:
            continue
        missing = 0
        for r in ranks:
            c = counts[r]
            if c < need:
                missing += need - c
        if missing > w:
            continue
        partial = [(0, 0)]
        for r in ranks:
            sh = SHIFTS[r]
            opts = OPTIONS[fields[r]][need]
            nxt = []
            for pc, pu in partial:
                room = w - pu
                for sub, u in opts:
                    if u > room:
                        break
                    nxt.append((pc + (sub << sh), pu + u))
                    if first_only:
                        break
            partial = nxt
        for pc, pu in partial:
            yield Combo(ctype, rank, pc + pu * wbit)
            if first_only:
                break


def _straight_flushes(h: _Hand, floor: int, first_only: bool) -> Iterator[Combo]:
    """Straight flushes above ``floor`` (a sequence position); wilds fill any suit."""
    w, wbit, fields = h.w, h.wbit, h.fields
    for rank, _, ranks in STRAIGHT_WINDOWS:
        if sequence_position(rank) <= floor:
            continue
        best: tuple[int, int] | None = None
        for s in range(4):
            unit = SUIT_UNIT[s]
            present = [(fields[r] >> (3 * s)) & 7 for r in ranks]
            missing = present.count(0)
            if missing > w:
                continue
            if first_only:
                # one choice per rank: the suit needing fewest wilds (then S H C D order)
                if best is None or missing < best[1]:
                    nat = sum(unit << SHIFTS[r] for r, c in zip(ranks, present, strict=True) if c)
                    best = (nat + missing * wbit, missing)
                continue
            partial = [(0, 0)]
            for r, c in zip(ranks, present, strict=True):
                bit = unit << SHIFTS[r]
                nxt = []
                for pc, pu in partial:
                    if c:
                        nxt.append((pc + bit, pu))
                    if pu < w:
                        nxt.append((pc, pu + 1))
                partial = nxt
            for pc, pu in partial:
                yield Combo(T.STRAIGHT_FLUSH, rank, pc + pu * wbit)
        if best is not None:
            yield Combo(T.STRAIGHT_FLUSH, rank, best[0])


def _bomb_power(n: int, value: int) -> tuple[int, int, int]:
    """:meth:`Combo.power` of a bomb of ``n`` cards whose rank has level value ``value``."""
    return (3 if n >= 6 else 1, n, value)


def _bombs(h: _Hand, floor: tuple[int, int, int], first_only: bool) -> Iterator[Combo]:
    """Bombs (4..``bomb_max`` cards of one rank, wilds filling) stronger than ``floor``."""
    level, w, wbit, fields, counts = h.level, h.w, h.wbit, h.fields, h.counts
    top = h.rules.bomb_max
    for n in range(4, top + 1):
        for r in LEVEL_ORDER[level]:
            c = counts[r]
            if c + w < n or not c:
                continue
            if _bomb_power(n, level_value(r, level)) <= floor:
                continue
            sh = SHIFTS[r]
            for sub, u in OPTIONS[fields[r]][n]:
                if u > w:
                    break
                yield Combo(T.BOMB, r, (sub << sh) + u * wbit)
                if first_only:
                    break


def _generate(
    hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset, first_only: bool
) -> Iterator[Combo]:
    """Every legal play (or, with ``first_only``, one per (type, rank)), by type."""
    h = _Hand(hand, level, rules)
    bomb_floor = _NO_FLOOR
    sf_floor = -2
    if to_beat is not None:
        tb = to_beat.type
        if tb == T.FOUR_KINGS:
            return  # the joker bomb beats everything (§4.1)
        if to_beat.is_bomb_class:
            bomb_floor = to_beat.power(level)
            # a straight flush beats 4-5 card bombs and lower straight flushes (§4.2)
            if bomb_floor[0] > 2:
                sf_floor = 99
            elif bomb_floor[0] == 2:
                sf_floor = bomb_floor[2]
        else:
            # same type, strictly higher rank (§4.4)
            for ctype, need in _GROUPS:
                if ctype == tb:
                    yield from _groups(h, ctype, need, level_value(to_beat.rank, level), first_only)
            if tb == T.THREE_WITH_TWO:
                yield from _three_with_two(h, level_value(to_beat.rank, level), first_only)
            for ctype, need, windows in _SEQUENCES:
                if ctype == tb:
                    yield from _sequences(
                        h, ctype, need, windows, sequence_position(to_beat.rank), first_only
                    )
    else:
        for ctype, need in _GROUPS:
            yield from _groups(h, ctype, need, -1, first_only)
        yield from _three_with_two(h, -1, first_only)
        for ctype, need, windows in _SEQUENCES:
            yield from _sequences(h, ctype, need, windows, -2, first_only)
    yield from _straight_flushes(h, sf_floor, first_only)
    yield from _bombs(h, bomb_floor, first_only)
    if h.sb == 2 and h.hr == 2:
        yield Combo(T.FOUR_KINGS, SMALL_JOKER, FOUR_KINGS_CARDS)


def _check_args(hand: Cards, level: int, to_beat: Combo | None) -> None:
    check_cards(hand, "hand")
    check_level(level)
    if to_beat is not None:
        _check_combo(to_beat, "play to beat")


def legal_plays(
    hand: Cards, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> Iterator[Combo]:
    """Every legal concrete play from ``hand``, lazily, without duplicates.

    Leading (``to_beat`` is None): every reading of every sub-multiset of the hand.
    Following: the same type with a strictly higher rank, plus every bomb, straight flush
    and joker bomb that beats ``to_beat`` (RULES.md §4). Ordered by type (ComboType
    order), then from weakest to strongest. Arguments are checked at once; plays are
    generated as the iterator is consumed.
    """
    _check_args(hand, level, to_beat)
    return _generate(hand, level, to_beat, rules, False)


def legal_readings(
    hand: Cards, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> list[Combo]:
    """One play per distinct legal ``(type, rank)``, in :func:`legal_plays` order.

    Bombs of one rank but different sizes are different plays of different strength
    (§4.2), so for bombs the key is ``(type, rank, size)``; every other type has a fixed
    size, so the key is ``(type, rank, size)`` throughout. The card choice is canonical: natural cards before wilds (fewest wilds), natural cards
    taken in suit order S H C D; a full house takes the weakest pair needing fewest wilds;
    a straight flush the suit needing fewest wilds.
    """
    _check_args(hand, level, to_beat)
    return list(_generate(hand, level, to_beat, rules, True))


def is_legal(
    hand: Cards,
    combo: Combo,
    level: int,
    to_beat: Combo | None = None,
    rules: Ruleset = COMPETITION,
) -> bool:
    """True when ``combo`` is a legal play from ``hand``: its cards are held, its type and
    rank are a reading of its cards (§3, wild hearts as §2 allows) and, when following, it
    beats ``to_beat`` (§4). Answers one question without generating every play."""
    _check_args(hand, level, to_beat)
    _check_combo(combo, "play")
    if not is_subset(combo.cards, hand):
        return False
    if (combo.type, combo.rank) not in reading_keys(combo.cards, level, rules):
        return False
    return to_beat is None or combo.beats(to_beat, level)


def count_plays(
    hand: Cards,
    level: int,
    to_beat: Combo | None = None,
    rules: Ruleset = COMPETITION,
    concrete: bool = True,
) -> dict[ComboType, int]:
    """Number of legal plays of each type (perft-style counts; types with none left out).

    ``concrete=True`` counts every concrete play (:func:`legal_plays`), ``False`` counts
    distinct readings (:func:`legal_readings`).
    """
    _check_args(hand, level, to_beat)
    counts = Counter(c.type for c in _generate(hand, level, to_beat, rules, not concrete))
    return {t: counts[t] for t in ComboType if counts[t]}
