"""The solver's own compact state of a deal (RULES.md §6–7), without history.

A :class:`Position` is what decides the rest of a deal and nothing more: the four hands
(``Cards``), the seat to act, the play to beat (only its type, rank and size matter for
what beats it), who made it, how many passes followed it, the first player out (上游) and
the set of players out. :func:`from_deal` takes it from an engine :class:`~engine.deal.Deal`.

**Hand keys.** Two hands that differ only in suits that can never matter are the same hand
for the rest of the deal. A natural card's suit matters only to straight flushes (§3), and
only when some 5-rank window holds natural cards of that suit at enough ranks for the wild
hearts to fill the rest. :func:`hand_key` maps a hand to an ``int`` holding its per-rank
counts (natural cards, wild hearts, jokers) and the exact cards whose suit still matters.
Such a card stays relevant or becomes irrelevant as the hand shrinks; an irrelevant card
never becomes relevant again, and which cards are relevant depends only on the relevant
cards and the wilds, so equal keys have equal futures (docs/ANALYSIS.md gives the proof).
"""

from __future__ import annotations

from typing import NamedTuple

from engine._tables import (
    FIELD_COUNT,
    HR_SHIFT,
    NON_JOKER_MASK,
    SB_SHIFT,
    SHIFTS,
    STRAIGHT_WINDOWS,
)
from engine.cards import KIND_BIT, Cards, size, wild_kind
from engine.combo import Combo, ComboType
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset

__all__ = [
    "HandKeys",
    "Position",
    "beat_signature",
    "deal_result_value",
    "from_deal",
    "max_value",
    "possible_values",
    "rotate",
]

_BOMB = ComboType.BOMB


class Position(NamedTuple):
    """A position of a deal as the solver sees it.

    ``hands`` N, E, S, W (empty for a player out); ``turn`` the seat to act (0..3);
    ``to_beat`` the play to beat or ``None`` when ``turn`` leads; ``last`` the seat that
    made it (-1 when leading); ``passes`` passes since that play; ``first`` the 1st player
    out (-1 while nobody is); ``out`` a bit mask of the seats out.
    """

    hands: tuple[Cards, Cards, Cards, Cards]
    turn: int
    to_beat: Combo | None
    last: int
    passes: int
    first: int
    out: int


def from_deal(deal: Deal) -> Position:
    """The solver's position of an engine deal that is not over."""
    turn = deal.turn
    if turn is None:
        raise ValueError("the deal is over: there is no position to solve")
    passes = 0
    if deal.to_beat is not None:
        for action in reversed(deal.actions):
            if action.combo is not None:
                break
            passes += 1
    order = deal.finish_order
    out = 0
    for s in order:
        out |= 1 << s
    hands = deal.hands
    last = deal.last_player
    return Position(
        (hands[0], hands[1], hands[2], hands[3]),
        int(turn),
        deal.to_beat,
        -1 if last is None or deal.to_beat is None else int(last),
        passes,
        int(order[0]) if order else -1,
        out,
    )


def rotate(pos: Position, k: int = 1) -> Position:
    """The same position with every seat turned ``k`` places on (N's hand and role to E
    for ``k = 1``); an odd ``k`` swaps the sides, so the value changes sign."""

    def s(x: int) -> int:
        return x if x < 0 else (x + k) & 3

    h = pos.hands
    hands = (h[(0 - k) & 3], h[(1 - k) & 3], h[(2 - k) & 3], h[(3 - k) & 3])
    out = 0
    for seat in range(4):
        if pos.out >> seat & 1:
            out |= 1 << s(seat)
    return Position(hands, s(pos.turn), pos.to_beat, s(pos.last), pos.passes, s(pos.first), out)


def max_value(rules: Ruleset = COMPETITION) -> int:
    """Levels of a double down (§7): 3, or 4 under ``double_down_plus4``."""
    return 4 if rules.double_down_plus4 else 3


def possible_values(rules: Ruleset = COMPETITION) -> tuple[int, ...]:
    """Every value a deal can have for N–S, lowest first (never 0: one side goes up)."""
    d = max_value(rules)
    return (-d, -2, -1, 1, 2, d)


def deal_result_value(first: int, ender: int, n_out: int, rules: Ruleset = COMPETITION) -> int:
    """The deal's value for N–S when ``ender``'s finish ends it (its partner is out) and
    ``n_out`` players are out with it (§7): the 1st player's side goes up 3 (4), 2 or 1."""
    if (ender ^ first) & 1:
        levels = 1  # the 1st player's opponents are both out: the partner is 4th
    elif n_out == 2:
        levels = max_value(rules)
    else:
        levels = 2
    return levels if first & 1 == 0 else -levels


def beat_signature(combo: Combo | None) -> int:
    """What of the play to beat matters to what beats it: type, rank, and size for bombs
    (§4); -1 when leading."""
    if combo is None:
        return -1
    sig = (int(combo.type) << 8) | (combo.rank << 4)
    if combo.type == _BOMB:
        sig |= size(combo.cards)
    return sig


class HandKeys:
    """:func:`hand_key` for one level, with a cache (hands recur all through a search)."""

    __slots__ = ("level", "wbit", "wshift", "cache")

    def __init__(self, level: int) -> None:
        self.level = level
        wk = wild_kind(level)
        self.wbit = KIND_BIT[wk]
        self.wshift = 3 * wk
        self.cache: dict[Cards, int] = {0: 0}

    def __call__(self, hand: Cards) -> int:
        key = self.cache.get(hand)
        if key is None:
            key = self.cache[hand] = self._key(hand)
        return key

    def _key(self, hand: Cards) -> int:
        w = (hand >> self.wshift) & 7
        nat = (hand & NON_JOKER_MASK) - w * self.wbit
        packed = 0
        total = w
        fields = []
        for r in range(13):
            f = (nat >> SHIFTS[r]) & 0xFFF
            fields.append(f)
            c = FIELD_COUNT[f]
            total += c
            packed |= c << (4 * r)
        sb = (hand >> SB_SHIFT) & 7
        hr = (hand >> HR_SHIFT) & 7
        packed |= (w << 52) | (sb << 55) | (hr << 58)
        if total < 5:
            return packed
        relevant = 0
        for s in range(4):
            mask = 0
            for r in range(13):
                if (fields[r] >> (3 * s)) & 7:
                    mask |= 1 << r
            if not mask:
                continue
            keep = 0
            for _, wmask, _ranks in STRAIGHT_WINDOWS:
                have = mask & wmask
                if have and have.bit_count() + w >= 5:
                    keep |= have
            r = 0
            while keep:
                if keep & 1:
                    relevant |= ((fields[r] >> (3 * s)) & 7) << (SHIFTS[r] + 3 * s)
                keep >>= 1
                r += 1
        return packed | (relevant << 64)
