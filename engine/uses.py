"""What each card of a played combination stands for (RULES.md §2 逢人配, FORMAT.md): a
natural card counts as itself, a wild heart as the card the combination's type and rank
fix. The comparison of rooms, the review's card faces and the words of a play all read a
play's cards through :func:`card_uses`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.cards import (
    HEARTS,
    KIND_TOKENS,
    RANK_A,
    SUIT_CHARS,
    Kind,
    count,
    format_cards,
    iter_kinds,
    rank_name,
    rank_of,
    suit_of,
    wild_kind,
)
from engine.combo import FIXED_SIZE, Combo, ComboType
from engine.errors import GuandanError

__all__ = ["CardUse", "UseError", "card_uses", "describe_combo", "sequence_ranks", "wild_uses"]


class UseError(GuandanError):
    """Cards that cannot be the combination a record names (its type and rank)."""



class CardUse(NamedTuple):
    """One card of a play and the natural card it counts as.

    A natural card counts as itself (its own rank and suit). For a wild heart, ``suit`` is
    the one the combination fixes (a straight flush fixes every card's), else ``None``: a
    wild heart standing for a 9 in a bomb of nines is "a 9", of no particular suit.
    """

    kind: Kind
    rank: int
    suit: int | None

    def is_wild(self, level: int) -> bool:
        """True when the card played is a wild heart (the heart of the level rank)."""
        return self.kind == wild_kind(level)

    def as_itself(self, level: int) -> bool:
        """True when a wild heart counts as what it is: a heart (or any card) of the level."""
        return self.rank == level and self.suit in (None, HEARTS)

    def describe(self, level: int) -> str:
        """``H7 as 9``, ``H7 as S7``, ``H7 as itself`` or just the token for natural cards."""
        token = KIND_TOKENS[self.kind]
        if not self.is_wild(level):
            return token
        if self.as_itself(level):
            return f"{token} as itself"
        if self.suit is None:
            return f"{token} as {rank_name(self.rank)}"
        return f"{token} as {SUIT_CHARS[self.suit]}{rank_name(self.rank)}"


def sequence_ranks(low: int, length: int) -> list[int]:
    """Ranks of a sequence named by its lowest rank (A as lowest is A-2-3-..., RULES.md §2)."""
    if low == RANK_A:
        return [RANK_A, *range(0, length - 1)]
    return list(range(low, low + length))


def _slots(combo: Combo, naturals: list[Kind], level: int) -> Sequence[tuple[int, int | None]]:
    """The (rank, suit) slots that a combination of this type and record rank consists of.

    The rank in a record (FORMAT.md) fixes everything but the pair of a full house, which
    is taken from the natural cards outside the triple (or, when there are none, the wild
    hearts form the pair as themselves).
    """
    t, r, n = combo.type, combo.rank, combo.size
    if t in (ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPS, ComboType.BOMB):
        return [(r, None)] * n
    if t == ComboType.FOUR_KINGS:
        return [(rank_of(k), None) for k in naturals]
    if t == ComboType.STRAIGHT:
        return [(x, None) for x in sequence_ranks(r, 5)]
    if t == ComboType.STRAIGHT_FLUSH:
        suits = {suit_of(k) for k in naturals}
        if len(suits) > 1:
            raise UseError(
                f"{describe_combo(combo, level)}: a straight flush's natural cards are of "
                f"one suit, these are of several"
            )
        suit = suits.pop() if suits else HEARTS  # wild hearts alone: hearts
        return [(x, suit) for x in sequence_ranks(r, 5)]
    if t == ComboType.THREE_PAIR:
        return [(x, None) for x in sequence_ranks(r, 3) for _ in range(2)]
    if t == ComboType.TWO_TRIPS:
        return [(x, None) for x in sequence_ranks(r, 2) for _ in range(3)]
    # THREE_WITH_TWO: the triple's rank is the record rank; the pair is whatever else.
    others = [rank_of(k) for k in naturals if rank_of(k) != r]
    if others:
        pair = others[0]
    elif len(naturals) > 3:
        pair = r  # more natural cards of the triple's rank than the triple holds
    else:
        pair = level  # the pair is made of wild hearts alone: read as what they are
    return [(r, None)] * 3 + [(pair, None)] * 2


def card_uses(combo: Combo, level: int) -> tuple[CardUse, ...]:
    """Every card of ``combo`` with the natural card it counts as, at ``level``.

    Type and rank say what a wild heart stands for (FORMAT.md): at level 7,
    ``Straight 3 S3 H4 C5 D6 H7`` uses H7 as itself (the 7 of 3-4-5-6-7) while
    ``Bomb 9 S9 C9 D9 H7`` uses it as a 9. Natural cards fill the slots of their own rank
    (and suit, in a straight flush) first; the wild hearts fill the rest, in slot order.
    Raises :class:`UseError` when the cards cannot be that combination.
    """
    wild = wild_kind(level)
    n_wild = count(combo.cards, wild)
    naturals = [k for k in iter_kinds(combo.cards) if k != wild]
    expected = FIXED_SIZE.get(combo.type)
    if expected is not None and combo.size != expected:
        raise UseError(
            f"{combo.describe()} with {combo.size} cards: that combination has {expected}"
        )
    open_slots = list(_slots(combo, naturals, level))
    uses: list[CardUse] = []
    for k in naturals:
        rank, suit = rank_of(k), suit_of(k)
        for i, (slot_rank, slot_suit) in enumerate(open_slots):
            if slot_rank == rank and slot_suit in (None, suit):
                uses.append(CardUse(k, rank, suit))
                del open_slots[i]
                break
        else:
            raise UseError(
                f"{describe_combo(combo, level)}: card {KIND_TOKENS[k]} has no place in a "
                f"{combo.describe()} at level {rank_name(level)}"
            )
    if len(open_slots) != n_wild:
        raise UseError(
            f"{describe_combo(combo, level)}: {n_wild} wild heart(s) for "
            f"{len(open_slots)} missing card(s) of a {combo.describe()}"
        )
    uses.extend(CardUse(wild, rank, suit) for rank, suit in open_slots)
    return tuple(uses)


def wild_uses(combo: Combo, level: int) -> tuple[CardUse, ...]:
    """The wild hearts of ``combo`` and what each stood for (see :func:`card_uses`)."""
    if not count(combo.cards, wild_kind(level)):
        return ()
    return tuple(u for u in card_uses(combo, level) if u.is_wild(level))


def describe_combo(combo: Combo, level: int) -> str:
    """A play as records write it: ``Straight 3 S3 H4 C5 D6 H7``.

    Cards are sorted as ``duplicate.gdn`` writes them: sequences in natural order, every
    other combination in level order.
    """
    order = None if combo.type.is_sequence else level
    return f"{combo.describe()} {format_cards(combo.cards, order)}"
