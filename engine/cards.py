"""Cards, card kinds and hands (RULES.md §1, FORMAT.md "Cards and plays").

Three representations, each for its job:

* **card id** ``0..107``: one physical card of the 108 (two packs). Only the dealer
  needs to tell the two copies apart. ``id = 2 * kind + copy``.
* **kind** ``0..53``: what a card *is* (suit and rank); two cards of the same kind are
  equal for every rule. ``kind = 4 * rank + suit`` for ranks ``0..12`` (2..A) and suits
  ``0..3`` (S H C D); ``52`` is the small joker ``SB`` and ``53`` the big joker ``HR``.
* **Cards**: a multiset of kinds packed in one ``int``, 3 bits per kind (bits
  ``3k..3k+2`` hold the count of kind ``k``, 0..2 in a deal; bit ``3k+2`` stays clear so
  that subset tests work word-wide, SWAR style). A hand, the cards of a play and a
  trick's cards are all ``Cards``. Adding is ``a + b``, removing ``a - b``,
  ``is_subset(b, a)`` tests containment, and equality is ``==``.

Ranks are indices: ``0..12`` for ``2 3 4 5 6 7 8 9 T J Q K A``, ``13`` for the small
joker (``B`` in records) and ``14`` for the big joker (``R``). A rank's 4 suits occupy
12 consecutive bits (``12 * rank``), so per-rank counts come from one shift and mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.constants import HAND_SIZE as HAND_SIZE
from engine.errors import InvalidCardError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHCD"
SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3
RANK_2, RANK_A = 0, 12
RANK_T = 8
SMALL_JOKER = 13  # rank index of the small joker, "B" in records
BIG_JOKER = 14  # rank index of the big joker, "R" in records
KIND_SB = 52
KIND_HR = 53
NUM_KINDS = 54
NUM_CARDS = 108
#: rank characters of all 15 ranks, jokers as the records write them
RANK_NAMES = RANK_CHARS + "BR"

FIELD = 3  # bits per kind in a ``Cards`` value
_FIELD_MASK = 0b111
#: bit 0 of every field
LOW_BITS = sum(1 << (FIELD * k) for k in range(NUM_KINDS))
#: bit 1 of every field
MID_BITS = LOW_BITS << 1
#: bit 2 (the guard) of every field
GUARD_BITS = LOW_BITS << 2
#: the whole 108-card pack as ``Cards``
FULL_PACK = 2 * LOW_BITS

Cards = int
Kind = int


def kind_of(card_id: int) -> Kind:
    """The kind (suit and rank) of physical card ``card_id``."""
    return card_id >> 1


def rank_of(kind: Kind) -> int:
    """Rank index of a kind: 0..12 for 2..A, 13 small joker, 14 big joker."""
    if kind < 52:
        return kind >> 2
    return SMALL_JOKER if kind == KIND_SB else BIG_JOKER


def suit_of(kind: Kind) -> int:
    """Suit index of a kind (S H C D = 0..3); -1 for the jokers, which have no suit."""
    return kind & 3 if kind < 52 else -1


def make_kind(rank: int, suit: int) -> Kind:
    """The kind of ``rank`` (0..12) in ``suit`` (0..3); jokers by their rank 13/14."""
    if rank == SMALL_JOKER:
        return KIND_SB
    if rank == BIG_JOKER:
        return KIND_HR
    return 4 * rank + suit


def _token(kind: Kind) -> str:
    if kind == KIND_SB:
        return "SB"
    if kind == KIND_HR:
        return "HR"
    return SUIT_CHARS[kind & 3] + RANK_CHARS[kind >> 2]


#: FORMAT.md token of every kind
KIND_TOKENS: tuple[str, ...] = tuple(_token(k) for k in range(NUM_KINDS))
#: token -> kind; lower case and "10" for "T" are accepted on read
TOKEN_KINDS: dict[str, Kind] = {}
for _k, _t in enumerate(KIND_TOKENS):
    TOKEN_KINDS[_t] = _k
    TOKEN_KINDS[_t.lower()] = _k
    TOKEN_KINDS[_t[0].lower() + _t[1]] = _k
    if _t[1] == "T":
        TOKEN_KINDS[_t[0] + "10"] = _k
        TOKEN_KINDS[_t[0].lower() + "10"] = _k
del _k, _t

#: the single-card ``Cards`` value of every kind
KIND_BIT: tuple[int, ...] = tuple(1 << (FIELD * k) for k in range(NUM_KINDS))


def parse_kind(token: str) -> Kind:
    """Parse one card token (``S5``, ``HT``, ``SB``, ``HR``) into its kind."""
    kind = TOKEN_KINDS.get(token)
    if kind is None:
        raise InvalidCardError(
            f"invalid card {token!r}: a card is a suit S H C D and a rank "
            f"2-9 T J Q K A (e.g. S5, HT), or SB / HR for the small / big joker",
            "engine.bad_card", token=repr(token),
        )
    return kind


def parse_cards(text: str | Iterable[str]) -> Cards:
    """Parse card tokens (a whitespace-separated string or an iterable) into ``Cards``.

    Raises :class:`InvalidCardError` naming the first bad token, or when a kind appears
    more than twice (there are only two packs).
    """
    tokens = text.split() if isinstance(text, str) else text
    cards = 0
    for tok in tokens:
        bit = KIND_BIT[parse_kind(tok)]
        cards += bit
        if (cards >> (bit.bit_length() - 1)) & _FIELD_MASK > 2:
            raise InvalidCardError(
                f"card {tok!r} appears more than twice: there are only two packs",
                "engine.card_thrice", token=repr(tok),
            )
    return cards


def count(cards: Cards, kind: Kind) -> int:
    """How many cards of ``kind`` are in ``cards``."""
    return (cards >> (FIELD * kind)) & _FIELD_MASK


def size(cards: Cards) -> int:
    """Number of cards in ``cards``."""
    return (cards & LOW_BITS).bit_count() + 2 * (cards & MID_BITS).bit_count() + 4 * (
        cards & GUARD_BITS
    ).bit_count()


def is_subset(part: Cards, whole: Cards) -> bool:
    """True when every card of ``part`` is in ``whole`` (as multisets of kinds)."""
    return ((whole | GUARD_BITS) - part) & GUARD_BITS == GUARD_BITS


def iter_kinds(cards: Cards) -> Iterator[Kind]:
    """Each kind in ``cards``, repeated by its count, in kind order."""
    k = 0
    while cards:
        c = cards & _FIELD_MASK
        for _ in range(c):
            yield k
        cards >>= FIELD
        k += 1


def from_kinds(kinds: Iterable[Kind]) -> Cards:
    """``Cards`` holding the given kinds (with repetition)."""
    cards = 0
    for k in kinds:
        cards += KIND_BIT[k]
    return cards


def from_ids(ids: Iterable[int]) -> Cards:
    """``Cards`` holding the given physical card ids."""
    return from_kinds(i >> 1 for i in ids)


def rank_counts(cards: Cards) -> list[int]:
    """Count of cards of each of the 15 ranks (jokers at 13 and 14)."""
    out = [0] * 15
    for r in range(13):
        f = (cards >> (12 * r)) & 0xFFF
        if f:
            out[r] = (f & 7) + ((f >> 3) & 7) + ((f >> 6) & 7) + ((f >> 9) & 7)
    out[SMALL_JOKER] = count(cards, KIND_SB)
    out[BIG_JOKER] = count(cards, KIND_HR)
    return out


def level_value(rank: int, level: int) -> int:
    """Position of ``rank`` in level order (RULES.md §2): higher is stronger.

    2..A keep 0..12 except the level rank, lifted to 13; small joker 14, big joker 15.
    """
    if rank == level:
        return 13
    return rank if rank < 13 else rank + 1


def wild_kind(level: int) -> Kind:
    """The wild card (逢人配) at ``level``: the heart of the level rank (RULES.md §2)."""
    return 4 * level + HEARTS


def sort_key(kind: Kind, level: int | None = None) -> tuple[int, int]:
    """Sort key for displaying cards: by level order when a level is given, then suit."""
    r = rank_of(kind)
    v = level_value(r, level) if level is not None else (r if r < 13 else r + 1)
    return (v, kind & 3 if kind < 52 else 0)


def to_tokens(cards: Cards, level: int | None = None) -> list[str]:
    """The tokens of ``cards``, sorted low to high (by level order when a level is given)."""
    kinds = sorted(iter_kinds(cards), key=lambda k: sort_key(k, level))
    return [KIND_TOKENS[k] for k in kinds]


def format_cards(cards: Cards, level: int | None = None) -> str:
    """``cards`` as space-separated tokens, sorted low to high."""
    return " ".join(to_tokens(cards, level))


def parse_rank(text: str) -> int:
    """Parse a rank character (``2``..``9``, ``T``/``10``, ``J Q K A``, ``B``, ``R``)."""
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_NAMES:
        raise InvalidCardError(f"invalid rank {text!r}: expected one of 2-9 T J Q K A B R",
                               "engine.bad_rank", text=repr(text))
    return RANK_NAMES.index(t)


def parse_level(text: str | int) -> int:
    """Parse a deal level: a rank 2..A (``7``, ``T``, ``10``, ``A``), as rank index 0..12."""
    r = parse_rank(str(text))
    if r > RANK_A:
        raise InvalidCardError(f"invalid level {text!r}: a level is a rank from 2 to A",
                               "engine.bad_level", text=repr(text))
    return r


def rank_name(rank: int) -> str:
    """The record character of a rank index (``T`` for ten, ``B``/``R`` for jokers)."""
    return RANK_NAMES[rank]
