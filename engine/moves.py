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

Plays are built in batches, one list per type (list comprehensions, then
``itertools.chain``): the iterator stays lazy from type to type while the per-play cost
stays low. :func:`legal_readings` takes the canonical option of each rank directly.

Passing is not a play: the deal handles it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any

from engine import core as _core
from engine._tables import (
    FIELD_COUNT,
    FIRST_SUB,
    FOUR_KINGS_CARDS,
    HR_BIT,
    HR_SHIFT,
    LEVEL_ORDER,
    LEVEL_VALUES,
    NON_JOKER_MASK,
    OPTIONS,
    SB_BIT,
    SB_SHIFT,
    SEQ_POSITION,
    SHIFTS,
    STRAIGHT_WINDOWS,
    SUIT_UNIT,
    THREE_PAIR_WINDOWS,
    TWO_TRIPS_WINDOWS,
)
from engine.cards import BIG_JOKER, KIND_BIT, SMALL_JOKER, Cards, is_subset, wild_kind
from engine.combo import Combo, ComboType
from engine.errors import InvalidComboError
from engine.reading import check_cards, check_level, reading_keys
from engine.ruleset import COMPETITION, Ruleset

T = ComboType

__all__ = [
    "c_count_plays", "c_is_legal", "c_legal_play_list", "c_legal_plays", "c_legal_readings",
    "count_plays", "is_legal", "legal_play_list", "legal_plays", "legal_readings",
    "py_count_plays", "py_is_legal", "py_legal_play_list", "py_legal_plays",
    "py_legal_readings",
]

#: (type, cards needed per rank, windows) of the three non-flush sequence types
_SEQUENCES = (
    (T.THREE_PAIR, 2, THREE_PAIR_WINDOWS),
    (T.TWO_TRIPS, 3, TWO_TRIPS_WINDOWS),
    (T.STRAIGHT, 1, STRAIGHT_WINDOWS),
)
_GROUPS = ((T.SINGLE, 1), (T.PAIR, 2), (T.TRIPS, 3))
#: the bomb-class power (RULES.md §4) every combination beats when leading
_NO_FLOOR = (-1, -1, -1)
#: builds a Combo without the NamedTuple ``__new__`` wrapper (the hot path's one call)
_new = tuple.__new__


def _shown(value: object) -> str:
    """``repr(value)``, also for a broken value (a Combo of the wrong length, a bad repr)."""
    try:
        return tuple.__repr__(value) if isinstance(value, tuple) else repr(value)
    except Exception:  # noqa: BLE001 - an error message must not fail
        return f"<{type(value).__name__}>"


def _check_combo(combo: Combo, what: str, rank: bool = True) -> None:
    """Raise our own errors for a value that cannot be a play (wrong types, invalid cards
    and, with ``rank``, a rank out of range for its type); whether it is a reading of its
    cards is another question."""
    if not isinstance(combo, Combo) or len(combo) != 3 or not isinstance(combo[0], ComboType):
        raise InvalidComboError(f"{what} {_shown(combo)} is not a Combo", "engine.not_combo",
                                what=what, shown=_shown(combo))
    top = 12 if combo.type.is_sequence else BIG_JOKER
    if rank and (not isinstance(combo.rank, int) or not 0 <= combo.rank <= top):
        raise InvalidComboError(f"{what} {combo!r} has no valid rank for {combo.type.record_name}",
                                "engine.combo_rank", what=what, shown=repr(combo),
                                type=combo.type.record_name)
    check_cards(combo.cards, f"{what} cards")


class _Hand:
    """What generation needs to know of a hand at a level, computed once per call."""

    __slots__ = ("fields", "counts", "w", "wbit", "sb", "hr", "level", "lv", "rules", "_opts")

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
        #: level value of every rank 0..14 (RULES.md §2)
        self.lv = LEVEL_VALUES[level]
        self.rules = rules
        self._opts: dict[int, list[list[tuple[int, int]]]] = {}

    def options(self, need: int) -> list[list[tuple[int, int]]]:
        """Per rank, the ways to supply ``need`` cards of it: ``(cards, wilds used)`` with
        the wilds included in ``cards``, fewest wilds first. The option made of wilds alone
        (when ``need`` <= the wilds held) is the last one and the only one using ``need``."""
        got = self._opts.get(need)
        if got is None:
            w, wbit = self.w, self.wbit
            got = []
            for f, sh in zip(self.fields, SHIFTS, strict=True):
                opts = []
                for sub, u in OPTIONS[f][need]:
                    if u > w:
                        break
                    opts.append(((sub << sh) + u * wbit, u))
                got.append(opts)
            self._opts[need] = got
        return got

    def suit_masks(self) -> list[int]:
        """Per suit S H C D, the 13-bit mask of ranks with a natural card of that suit."""
        masks = [0, 0, 0, 0]
        for r, f in enumerate(self.fields):
            if f:
                for s in range(4):
                    if (f >> (3 * s)) & 7:
                        masks[s] |= 1 << r
        return masks


def _groups(h: _Hand, ctype: ComboType, need: int, floor: int, first_only: bool) -> list[Combo]:
    """Singles, pairs or trips of every rank stronger than ``floor`` (a level value)."""
    level, lv = h.level, h.lv
    out: list[Combo] = []
    if first_only:
        w, wbit, fields, counts = h.w, h.wbit, h.fields, h.counts
        for r in LEVEL_ORDER[level]:
            if lv[r] <= floor:
                continue
            c = counts[r]
            if c >= need:
                out.append(_new(Combo, (ctype, r, FIRST_SUB[fields[r]][need] << SHIFTS[r])))
            elif c and need - c <= w:
                cards = (fields[r] << SHIFTS[r]) + (need - c) * wbit
                out.append(_new(Combo, (ctype, r, cards)))
            elif not c and r == level and need <= w:  # wilds alone: level cards (§2)
                out.append(_new(Combo, (ctype, r, need * wbit)))
    else:
        opts = h.options(need)
        for r in LEVEL_ORDER[level]:
            if lv[r] <= floor:
                continue
            o = opts[r]
            if o and r != level and o[-1][1] == need:
                o = o[:-1]  # wilds alone are level cards (§2), never another rank
            out += [_new(Combo, (ctype, r, c)) for c, _ in o]
    # jokers: singles and pairs of their own (never completed by wilds, §3)
    if ctype == T.SINGLE:
        if h.sb and floor < lv[SMALL_JOKER]:
            out.append(Combo(T.SINGLE, SMALL_JOKER, SB_BIT))
        if h.hr and floor < lv[BIG_JOKER]:
            out.append(Combo(T.SINGLE, BIG_JOKER, HR_BIT))
    elif ctype == T.PAIR:
        if h.sb == 2 and floor < lv[SMALL_JOKER]:
            out.append(Combo(T.PAIR, SMALL_JOKER, 2 * SB_BIT))
        if h.hr == 2 and floor < lv[BIG_JOKER]:
            out.append(Combo(T.PAIR, BIG_JOKER, 2 * HR_BIT))
    return out


def _pair_sources(h: _Hand) -> list[tuple[int, int, int]]:
    """Every way to supply the pair of a full house: ``(rank, cards, wilds used)``.

    Ordered canonically: fewest wilds, then weakest pair (level order). A pair of two wilds
    stands for a pair of any rank, so it appears once, with rank -1 (it never clashes with
    the triple's rank); joker pairs only with ``joker_pair_in_full_house`` (§3).
    """
    lv = h.lv
    opts = h.options(2)
    out: list[tuple[int, int, int, int]] = []
    for r in LEVEL_ORDER[h.level]:
        for cards, u in opts[r]:
            if u < 2:  # u == 2 is two wilds alone: added once below
                out.append((u, lv[r], r, cards))
    if h.rules.joker_pair_in_full_house:
        if h.sb == 2:
            out.append((0, lv[SMALL_JOKER], SMALL_JOKER, 2 * SB_BIT))
        if h.hr == 2:
            out.append((0, lv[BIG_JOKER], BIG_JOKER, 2 * HR_BIT))
    if h.w == 2:
        out.append((2, 99, -1, 2 * h.wbit))
    out.sort(key=lambda x: (x[0], x[1]))  # stable: within a rank, options keep their order
    return [(r, cards, u) for u, _, r, cards in out]


def _three_with_two(h: _Hand, floor: int, first_only: bool) -> list[Combo]:
    """Full houses (triple + pair of another rank; the record rank is the triple's)."""
    w, lv = h.w, h.lv
    triples = h.options(3)  # at least one natural card each (w <= 2)
    out: list[Combo] = []
    pairs: list[tuple[int, int, int]] | None = None
    for t in LEVEL_ORDER[h.level]:
        if lv[t] <= floor or not triples[t]:
            continue
        if pairs is None:
            pairs = _pair_sources(h)
        for tc, ut in triples[t]:
            left = w - ut
            if first_only:
                # the first triple option uses fewest wilds, so it leaves the most for a pair
                for p, pc, up in pairs:
                    if up <= left and p != t:
                        out.append(_new(Combo, (T.THREE_WITH_TWO, t, tc + pc)))
                        break
                break
            out += [
                _new(Combo, (T.THREE_WITH_TWO, t, tc + pc))
                for p, pc, up in pairs
                if up <= left and p != t
            ]
    return out


def _sequences(
    h: _Hand,
    ctype: ComboType,
    need: int,
    windows: tuple[tuple[int, int, tuple[int, ...]], ...],
    floor: int,
    first_only: bool,
) -> list[Combo]:
    """Straights, tubes (ThreePair) or plates (TwoTrips) above ``floor`` (a position)."""
    w, counts, fields, wbit = h.w, h.counts, h.fields, h.wbit
    opts = h.options(need) if not first_only else []
    out: list[Combo] = []
    for rank, _, ranks in windows:
        if SEQ_POSITION[rank] <= floor:
            continue
        missing = 0
        for r in ranks:
            c = counts[r]
            if c < need:
                missing += need - c
        if missing > w:
            continue
        if first_only:  # every natural card the window can use, wilds for the rest
            cards = missing * wbit
            for r in ranks:
                cards += FIRST_SUB[fields[r]][need] << SHIFTS[r]
            out.append(_new(Combo, (ctype, rank, cards)))
            continue
        partial = [(0, 0)]
        for r in ranks[:-1]:
            o = opts[r]
            partial = [(pc + c, pu + u) for pc, pu in partial for c, u in o if pu + u <= w]
        o = opts[ranks[-1]]
        out += [
            _new(Combo, (ctype, rank, pc + c)) for pc, pu in partial for c, u in o if pu + u <= w
        ]
    return out


def _straight_flushes(h: _Hand, floor: int, first_only: bool) -> list[Combo]:
    """Straight flushes above ``floor`` (a sequence position); wilds fill any suit."""
    w, wbit = h.w, h.wbit
    masks = h.suit_masks()
    out: list[Combo] = []
    for rank, wmask, ranks in STRAIGHT_WINDOWS:
        if SEQ_POSITION[rank] <= floor:
            continue
        best: tuple[int, int, int] | None = None
        for s in range(4):
            have = masks[s] & wmask
            missing = 5 - have.bit_count()
            if missing > w:
                continue
            if first_only:
                # one choice per rank: the suit needing fewest wilds (then S H C D order)
                if best is None or missing < best[0]:
                    best = (missing, s, have)
                continue
            unit = SUIT_UNIT[s]
            partial = [(0, 0)]
            for r in ranks:
                bit = unit << SHIFTS[r]
                if (have >> r) & 1:
                    partial = [(pc + bit, pu) for pc, pu in partial] + [
                        (pc + wbit, pu + 1) for pc, pu in partial if pu < w
                    ]
                else:
                    partial = [(pc + wbit, pu + 1) for pc, pu in partial if pu < w]
            out += [_new(Combo, (T.STRAIGHT_FLUSH, rank, pc)) for pc, _ in partial]
        if best is not None:
            missing, s, have = best
            unit = SUIT_UNIT[s]
            cards = sum(unit << SHIFTS[r] for r in ranks if (have >> r) & 1) + missing * wbit
            out.append(_new(Combo, (T.STRAIGHT_FLUSH, rank, cards)))
    return out


def _bomb_power(n: int, value: int) -> tuple[int, int, int]:
    """:meth:`Combo.power` of a bomb of ``n`` cards whose rank has level value ``value``."""
    return (3 if n >= 6 else 1, n, value)


def _bombs(h: _Hand, floor: tuple[int, int, int], first_only: bool) -> list[Combo]:
    """Bombs (4..``bomb_max`` cards of one rank, wilds filling) stronger than ``floor``."""
    level, w, wbit, fields, counts, lv = h.level, h.w, h.wbit, h.fields, h.counts, h.lv
    out: list[Combo] = []
    for n in range(4, h.rules.bomb_max + 1):
        for r in LEVEL_ORDER[level]:
            c = counts[r]
            if c + w < n or not c or _bomb_power(n, lv[r]) <= floor:
                continue
            sh = SHIFTS[r]
            if first_only:
                cards = (FIRST_SUB[fields[r]][n] << sh) + max(0, n - c) * wbit
                out.append(_new(Combo, (T.BOMB, r, cards)))
                continue
            for sub, u in OPTIONS[fields[r]][n]:
                if u > w:
                    break
                out.append(_new(Combo, (T.BOMB, r, (sub << sh) + u * wbit)))
    return out


def _generate(
    hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset, first_only: bool
) -> Iterator[list[Combo]]:
    """Every legal play (or, with ``first_only``, one per reading), in batches by type."""
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
                    yield _groups(h, ctype, need, h.lv[to_beat.rank], first_only)
            if tb == T.THREE_WITH_TWO:
                yield _three_with_two(h, h.lv[to_beat.rank], first_only)
            for ctype, need, windows in _SEQUENCES:
                if ctype == tb:
                    yield _sequences(
                        h, ctype, need, windows, SEQ_POSITION[to_beat.rank], first_only
                    )
    else:
        for ctype, need in _GROUPS:
            yield _groups(h, ctype, need, -1, first_only)
        yield _three_with_two(h, -1, first_only)
        for ctype, need, windows in _SEQUENCES:
            yield _sequences(h, ctype, need, windows, -2, first_only)
    yield _straight_flushes(h, sf_floor, first_only)
    yield _bombs(h, bomb_floor, first_only)
    if h.sb == 2 and h.hr == 2:
        yield [Combo(T.FOUR_KINGS, SMALL_JOKER, FOUR_KINGS_CARDS)]


def _check_args(hand: Cards, level: int, to_beat: Combo | None) -> None:
    check_cards(hand, "hand")
    check_level(level)
    if to_beat is not None:
        _check_combo(to_beat, "play to beat")


def py_legal_plays(
    hand: Cards, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> Iterator[Combo]:
    """Every legal concrete play from ``hand``, lazily, without duplicates.

    Leading (``to_beat`` is None): every reading of every sub-multiset of the hand.
    Following: the same type with a strictly higher rank, plus every bomb, straight flush
    and joker bomb that beats ``to_beat`` (RULES.md §4). Ordered by type (ComboType
    order), then from weakest to strongest. Arguments are checked at once; plays are
    generated type by type as the iterator is consumed.
    """
    _check_args(hand, level, to_beat)
    return chain.from_iterable(_generate(hand, level, to_beat, rules, False))


def py_legal_readings(
    hand: Cards, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> list[Combo]:
    """One play per distinct legal ``(type, rank)``, in :func:`legal_plays` order.

    Bombs of one rank but different sizes are different plays of different strength
    (§4.2), so for bombs the key is ``(type, rank, size)`` (the other types have one size).
    The card choice is canonical: natural cards before wilds (fewest wilds), natural cards
    taken in suit order S H C D; a full house takes the weakest pair needing fewest wilds;
    a straight flush the suit needing fewest wilds.
    """
    _check_args(hand, level, to_beat)
    return list(chain.from_iterable(_generate(hand, level, to_beat, rules, True)))


def py_is_legal(
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
    _check_combo(combo, "play", rank=False)  # a wrong rank is just not a reading: False
    if not is_subset(combo.cards, hand):
        return False
    if (combo.type, combo.rank) not in reading_keys(combo.cards, level, rules):
        return False
    return to_beat is None or combo.beats(to_beat, level)


def py_count_plays(
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
    counts: Counter[ComboType] = Counter()
    for batch in _generate(hand, level, to_beat, rules, not concrete):
        for c in batch:
            counts[c.type] += 1
    return {t: counts[t] for t in ComboType if counts[t]}


def py_legal_play_list(
    hand: Cards,
    level: int,
    to_beat: Combo | None = None,
    rules: Ruleset = COMPETITION,
    concrete: bool = True,
) -> Sequence[Combo]:
    """Every legal play (``concrete``) or one per reading, as a sequence, all at once.

    With the compiled core the plays stay packed in native memory: ``len()`` costs nothing
    and a :class:`Combo` is made only for an item asked for (docs/CORE.md). Same plays, same
    order as :func:`legal_plays` / :func:`legal_readings`.
    """
    if concrete:
        return list(py_legal_plays(hand, level, to_beat, rules))
    return py_legal_readings(hand, level, to_beat, rules)


# --- the same in the compiled core (engine.core.compiled): same answers, same errors ------


def c_legal_plays(
    hand: Cards, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> Iterator[Combo]:
    """:func:`py_legal_plays` in the compiled core (generated at once, handed out lazily)."""
    return iter(_C.plays(hand, level, to_beat, rules, True))


def c_legal_readings(
    hand: Cards, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> list[Combo]:
    """:func:`py_legal_readings` in the compiled core."""
    return _C.legal_readings(hand, level, to_beat, rules)  # type: ignore[no-any-return]


def c_is_legal(
    hand: Cards,
    combo: Combo,
    level: int,
    to_beat: Combo | None = None,
    rules: Ruleset = COMPETITION,
) -> bool:
    """:func:`py_is_legal` in the compiled core."""
    return _C.is_legal(hand, combo, level, to_beat, rules)  # type: ignore[no-any-return]


def c_count_plays(
    hand: Cards,
    level: int,
    to_beat: Combo | None = None,
    rules: Ruleset = COMPETITION,
    concrete: bool = True,
) -> dict[ComboType, int]:
    """:func:`py_count_plays` in the compiled core."""
    n = _C.plays(hand, level, to_beat, rules, concrete).type_counts()
    return {t: n[t] for t in ComboType if n[t]}


def c_legal_play_list(
    hand: Cards,
    level: int,
    to_beat: Combo | None = None,
    rules: Ruleset = COMPETITION,
    concrete: bool = True,
) -> Sequence[Combo]:
    """:func:`py_legal_play_list` in the compiled core: the plays stay packed (PlayList)."""
    return _C.plays(hand, level, to_beat, rules, concrete)  # type: ignore[no-any-return]


#: the compiled core (engine.core.compiled) the ``c_`` functions call
_C: Any = _core.compiled
#: the public names, bound once to the implementation engine.core chose
if _core.native is not None:
    legal_plays, legal_readings, is_legal = c_legal_plays, c_legal_readings, c_is_legal
    count_plays, legal_play_list = c_count_plays, c_legal_play_list
else:
    legal_plays, legal_readings, is_legal = py_legal_plays, py_legal_readings, py_is_legal
    count_plays, legal_play_list = py_count_plays, py_legal_play_list
