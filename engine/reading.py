"""Reading a set of cards as combinations (RULES.md §2–3) and choosing a reading (§5).

A set of cards may read several ways once wild hearts are in it (RULES.md §2 逢人配: each
wild heart of the level rank may stand for any non-joker card, any rank and suit, itself
included). :func:`readings` lists every distinct ``(type, rank)`` reading,
:func:`read_declared` checks a declared one (as a record states it), and
:func:`choose_reading` applies §5 when the record does not say.

How wilds are treated: every card of the wild kind in the set is a free card; only the
*natural* cards (everything else) constrain the reading. A wild "played as itself" is just
the wild standing for the heart of the level rank, so it needs no separate case. The one
exception is a set of wilds alone, which §2 reads as what they are: a single or a pair of
level cards.
"""

from __future__ import annotations

from typing import Any

from engine import core as _core
from engine._tables import (
    FIELD_COUNT,
    FIELD_SUITS,
    HR_SHIFT,
    NON_JOKER_MASK,
    SB_SHIFT,
    SHIFTS,
    STRAIGHT_WINDOWS,
    THREE_PAIR_WINDOWS,
    TWO_TRIPS_WINDOWS,
)
from engine.cards import (
    BIG_JOKER,
    GUARD_BITS,
    KIND_BIT,
    LOW_BITS,
    NUM_KINDS,
    RANK_NAMES,
    SMALL_JOKER,
    Cards,
    format_cards,
    parse_cards,
    parse_rank,
    rank_name,
    size,
    wild_kind,
)
from engine.combo import Combo, ComboType
from engine.errors import IllegalPlayError, InvalidCardError, InvalidComboError
from engine.ruleset import COMPETITION, Ruleset

T = ComboType

__all__ = [
    "c_reading_keys",
    "c_readings",
    "py_reading_keys",
    "py_readings",
    "readings",
    "reading_keys",
    "read_declared",
    "choose_reading",
    "check_cards",
    "check_level",
    "parse_play",
]

_ALL_KINDS = (1 << (3 * NUM_KINDS)) - 1


def check_cards(cards: Cards, what: str = "cards") -> None:
    """Raise :class:`InvalidCardError` unless ``cards`` is a valid ``Cards`` value.

    Valid: a non-negative int over the 54 kinds, each kind at most twice (two packs).
    """
    if (
        not isinstance(cards, int)
        or cards < 0
        or cards & ~_ALL_KINDS
        or cards & GUARD_BITS
        or cards & LOW_BITS & (cards >> 1)
    ):
        raise InvalidCardError(
            f"{what} {cards!r} is not a valid Cards value (54 kinds, each at most twice)",
            "engine.bad_cards_value", what=what, cards=repr(cards),
        )


def check_level(level: int) -> None:
    """Raise :class:`InvalidCardError` unless ``level`` is a rank index 0..12 (2..A)."""
    if not isinstance(level, int) or not 0 <= level <= 12:
        raise InvalidCardError(f"invalid level {level!r}: a level is a rank index 0..12 (2..A)",
                               "engine.bad_level_index", level=repr(level))


def _single_bit_index(mask: int) -> int:
    """Index of the only set bit of ``mask`` (callers ensure exactly one)."""
    return mask.bit_length() - 1


def py_reading_keys(cards: Cards, level: int, rules: Ruleset = COMPETITION) -> list[tuple[T, int]]:
    """Every distinct ``(type, rank)`` reading of exactly ``cards`` (unchecked input).

    The fast core of :func:`readings`, without validation and without building Combos.
    The order is by type, then by strength (§4) within a type. (The compiled core, when in
    use, checks its input and raises :class:`InvalidCardError` for a bad value.)
    """
    n = size(cards)
    if n == 0 or n > 10:
        # nothing has no reading; no play is larger than a 10-card bomb (§3)
        return []
    wk = wild_kind(level)
    w = (cards >> (3 * wk)) & 7
    sb = (cards >> SB_SHIFT) & 7
    hr = (cards >> HR_SHIFT) & 7
    nat = (cards & NON_JOKER_MASK) - w * KIND_BIT[wk]

    if sb or hr:
        # Wilds never stand for jokers (§3), so jokers only read as themselves.
        nj = sb + hr
        if nj == n:
            if n == 1:
                return [(T.SINGLE, SMALL_JOKER if sb else BIG_JOKER)]
            if n == 2 and sb != 1:  # SB SB or HR HR; SB+HR is no pair (§3)
                return [(T.PAIR, SMALL_JOKER if sb else BIG_JOKER)]
            if n == 4 and sb == 2 and hr == 2:
                return [(T.FOUR_KINGS, SMALL_JOKER)]
            return []
        # A pair of jokers may be the pair of a full house (variant joker_pair_in_full_house).
        if n == 5 and nj == 2 and sb != 1 and rules.joker_pair_in_full_house and nat:
            mask = 0
            for r in range(13):
                if FIELD_COUNT[(nat >> SHIFTS[r]) & 0xFFF]:
                    mask |= 1 << r
            if mask & (mask - 1) == 0:  # the other three cards are one rank (wilds fill)
                return [(T.THREE_WITH_TWO, _single_bit_index(mask))]
        return []

    if not nat:
        # Wild hearts alone are what they are: level cards (§2).
        return [(T.SINGLE, level)] if n == 1 else [(T.PAIR, level)]

    mask = 0
    maxc = 0
    suits = 0
    counts = [0] * 13
    for r in range(13):
        f = (nat >> SHIFTS[r]) & 0xFFF
        if f:
            c = FIELD_COUNT[f]
            counts[r] = c
            mask |= 1 << r
            suits |= FIELD_SUITS[f]
            if c > maxc:
                maxc = c
    out: list[tuple[T, int]] = []
    one_rank = mask & (mask - 1) == 0
    if one_rank:
        r = _single_bit_index(mask)
        if n == 1:
            return [(T.SINGLE, r)]
        if n == 2:
            return [(T.PAIR, r)]
        if n == 3:
            return [(T.TRIPS, r)]
    if n == 5:
        # ThreeWithTwo: a triple and a pair of different ranks (same rank = a bomb, §3).
        if one_rank:
            r = _single_bit_index(mask)
            if counts[r] == 3:  # two wilds: the pair, of any other rank
                out.append((T.THREE_WITH_TWO, r))
        elif mask.bit_count() == 2:
            a = _single_bit_index(mask & -mask)
            b = _single_bit_index(mask)
            # weaker triple first (level order) so that the list is ordered by strength
            if a == level:
                a, b = b, a
            if counts[a] <= 3 and counts[b] <= 2:
                out.append((T.THREE_WITH_TWO, a))
            if counts[b] <= 3 and counts[a] <= 2:
                out.append((T.THREE_WITH_TWO, b))
        if maxc == 1:
            flush = suits & (suits - 1) == 0
            straights = [rank for rank, wmask, _ in STRAIGHT_WINDOWS if not mask & ~wmask]
            out.extend((T.STRAIGHT, rank) for rank in straights)
            if flush:
                out.extend((T.STRAIGHT_FLUSH, rank) for rank in straights)
    elif n == 6:
        if maxc <= 2:
            out.extend(
                (T.THREE_PAIR, rank) for rank, wmask, _ in THREE_PAIR_WINDOWS if not mask & ~wmask
            )
        if maxc <= 3:
            out.extend(
                (T.TWO_TRIPS, rank) for rank, wmask, _ in TWO_TRIPS_WINDOWS if not mask & ~wmask
            )
    if one_rank and 4 <= n <= rules.bomb_max:
        out.append((T.BOMB, _single_bit_index(mask)))
    return out


def py_readings(cards: Cards, level: int, rules: Ruleset = COMPETITION) -> list[Combo]:
    """Every distinct reading ``(type, rank)`` of exactly ``cards`` (RULES.md §2–3).

    Each is a :class:`Combo` whose ``cards`` is ``cards``; ordered by type, then from weakest
    to strongest. Empty when the cards are no combination. Raises
    :class:`InvalidCardError` for a value that is not a valid ``Cards`` or a bad level.
    """
    check_cards(cards)
    check_level(level)
    return [Combo(t, r, cards) for t, r in py_reading_keys(cards, level, rules)]


def c_reading_keys(cards: Cards, level: int, rules: Ruleset = COMPETITION) -> list[tuple[T, int]]:
    """:func:`py_reading_keys` in the compiled core (it checks its input)."""
    return _C.reading_keys(cards, level, rules)  # type: ignore[no-any-return]


def c_readings(cards: Cards, level: int, rules: Ruleset = COMPETITION) -> list[Combo]:
    """:func:`py_readings` in the compiled core."""
    return _C.readings(cards, level, rules)  # type: ignore[no-any-return]


#: the compiled core (engine.core.compiled) the ``c_`` functions call
_C: Any = _core.compiled
#: the public names, bound once to the implementation engine.core chose
reading_keys = c_reading_keys if _core.native is not None else py_reading_keys
readings = c_readings if _core.native is not None else py_readings


def _describe_readings(keys: list[tuple[T, int]]) -> str:
    if not keys:
        return "it is no combination"
    return "it reads as " + ", ".join(f"{t.record_name} {rank_name(r)}" for t, r in keys)


def read_declared(
    cards: Cards, level: int, ctype: ComboType, rank: int, rules: Ruleset = COMPETITION
) -> Combo:
    """The reading of ``cards`` with type ``ctype`` and record rank ``rank`` (as a record
    declares it, FORMAT.md). Raises :class:`InvalidComboError` naming the cards, the
    declaration and what the cards do read as, when it is not one of their readings."""
    check_cards(cards)
    check_level(level)
    if not isinstance(ctype, ComboType):
        raise InvalidComboError(f"{ctype!r} is not a combination type", "engine.not_type",
                                shown=repr(ctype))
    if not isinstance(rank, int) or not 0 <= rank <= BIG_JOKER:
        raise InvalidComboError(f"{rank!r} is not a rank (0..14, 2..A then B and R)",
                                "engine.not_rank", shown=repr(rank))
    keys = reading_keys(cards, level, rules)
    if (ctype, rank) in keys:
        return Combo(ctype, rank, cards)
    raise InvalidComboError(
        f"{format_cards(cards) or '(no cards)'} is not {ctype.record_name} {rank_name(rank)} "
        f"at level {rank_name(level)}: {_describe_readings(keys)}",
        "engine.not_declared" if keys else "engine.not_declared_none",
        cards=format_cards(cards) or "(no cards)", type=ctype.record_name,
        rank=rank_name(rank), level=rank_name(level),
        **({"readings": ", ".join(f"{t.record_name} {rank_name(r)}" for t, r in keys)}
           if keys else {}),
    )


def choose_reading(
    cards: Cards, level: int, to_beat: Combo | None, rules: Ruleset = COMPETITION
) -> Combo:
    """The reading RULES.md §5 takes for undeclared cards.

    Among the readings of ``cards``, keep those legal now (every one when leading; when
    following, those that beat ``to_beat``, §4) and take the one ranking highest by §4,
    i.e. the largest :meth:`Combo.power`.

    Tie rule for readings that §4 does not compare (two non-bomb types of the same cards,
    which can only happen when leading, e.g. ``S5 S5 S6 S6 H7 H7`` at level 7 reads as
    ThreePair 4, ThreePair 5 and TwoTrips 5): ``power`` puts the type's index second, so the
    later type in :class:`ComboType` order wins (TwoTrips over ThreePair), then the higher
    rank. The power tuples of distinct readings of the same cards are always distinct, so
    the choice is unique.

    Raises :class:`InvalidComboError` when the cards are no combination and
    :class:`IllegalPlayError` when no reading beats ``to_beat``.
    """
    options = readings(cards, level, rules)
    if not options:
        raise InvalidComboError(
            f"{format_cards(cards) or '(no cards)'} is no combination at level {rank_name(level)}",
            "engine.no_combination", cards=format_cards(cards) or "(no cards)",
            level=rank_name(level),
        )
    if to_beat is not None:
        legal = [c for c in options if c.beats(to_beat, level)]
        if not legal:
            raise IllegalPlayError(
                f"{format_cards(cards)} ({', '.join(c.describe() for c in options)}) does not "
                f"beat {to_beat.describe()} {format_cards(to_beat.cards)} at level "
                f"{rank_name(level)}",
                "engine.no_reading_beats", cards=format_cards(cards),
                readings=", ".join(c.describe() for c in options),
                beat=to_beat.describe(), beat_cards=format_cards(to_beat.cards),
                level=rank_name(level),
            )
        options = legal
    return max(options, key=lambda c: c.power(level))


def parse_play(
    text: str, level: int, to_beat: Combo | None = None, rules: Ruleset = COMPETITION
) -> Combo:
    """Parse the FORMAT.md text of a play, ``Type rank cards…`` (``Straight 3 S3 H4 C5 D6
    H7``), into its checked :class:`Combo`.

    Without type and rank (``S3 H4 C5 D6 H7``) the reading is chosen by §5
    (:func:`choose_reading`, against ``to_beat``). Raises :class:`InvalidCardError` for a bad
    card or rank token and :class:`InvalidComboError` for an unknown type, a type without a
    rank, or cards that are not the declared combination.
    """
    check_level(level)
    toks = text.split()
    if not toks:
        raise InvalidComboError("empty play: expected 'Type rank cards…' or cards",
                                "engine.empty_play")
    first = toks[0]
    if first.upper() == "PASS":
        raise InvalidComboError("PASS is not a combination", "engine.pass_not_combo")
    if len(first) <= 3 and (first in ("SB", "HR") or first[:1].upper() in "SHCD"):
        # no declaration: the cards alone, read by §5
        return choose_reading(parse_cards(toks), level, to_beat, rules)
    ctype = ComboType.from_name(first)
    if len(toks) < 3 or len(toks[1]) > 2 or toks[1].upper() not in (*RANK_NAMES, "10"):
        raise InvalidComboError(
            f"{text.strip()!r}: a play is 'Type rank cards…' (e.g. 'Straight 3 S3 H4 C5 D6 H7')",
            "engine.play_form", shown=repr(text.strip()),
        )
    rank = parse_rank(toks[1])
    return read_declared(parse_cards(toks[2:]), level, ctype, rank, rules)
