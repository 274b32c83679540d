"""Hidden hands consistent with what a seat has seen (determinisation).

A seat sees its own hand, every card played so far, every seat's count, the finishing
order so far and the cards publicly known to sit in a hand (a tribute or return card not
played yet): a :class:`~duplicate.bots.View`. :func:`unseen_cards` is the rest of the two
packs; :func:`sample_hands` deals it at random to the three other seats, each getting its
known cards first and then exactly as many more as its count says. Every sampled deal
therefore agrees with everything the seat has seen; the tests check it on random deals
played to random points. (Passing says nothing certain about a hand in Guandan: a player
may pass holding a play that beats, RULES.md §6, so there are no voids to respect.)

When the view does not carry the cards played (``View.played is None``, e.g. a client
that joined mid-deal), the unseen cards are the pack less the seat's own hand, and each
other seat gets a random subset of its count: still consistent with the hand and counts.

:func:`world_position` turns a sampled deal into the solver's
:class:`~duplicate.analysis.state.Position` (the passes since the play to beat, the seats out and the
1st out all follow from the view).
"""

from __future__ import annotations

from duplicate.analysis.state import Position
from duplicate.bots import BotError, View, XorShift64
from duplicate.native import CHOSEN, PLAYERS
from engine.cards import FULL_PACK, KIND_BIT, Cards, is_subset, iter_kinds, size

__all__ = [
    "c_deal_unseen", "deal_unseen", "py_deal_unseen", "sample_hands", "unseen_cards",
    "world_position",
]


def _known(view: View) -> tuple[Cards, Cards, Cards, Cards]:
    known = view.known or (0, 0, 0, 0)
    return (known[0], known[1], known[2], known[3])


def unseen_cards(view: View) -> Cards:
    """Cards the seat cannot see: the two packs less its hand, the cards played and the
    cards publicly known to be in another hand. Raises :class:`BotError` when the view
    contradicts itself (more copies of a card than the packs hold)."""
    seen = view.hand + (view.played or 0)
    for s, cards in enumerate(_known(view)):
        if s != view.seat:
            seen += cards
    if not is_subset(seen, FULL_PACK):
        raise BotError("the view holds more copies of a card than the two packs")
    return FULL_PACK - seen


def sample_hands(view: View, rng: XorShift64) -> tuple[Cards, Cards, Cards, Cards]:
    """Four hands (N, E, S, W) consistent with ``view``: the seat's own hand, and for
    every other seat its known cards plus a uniform random share of the unseen cards,
    as many as its count. Raises :class:`BotError` when the counts cannot be met."""
    hidden = unseen_cards(view)
    known = _known(view)
    need = [0, 0, 0, 0]
    for s in range(4):
        if s != view.seat:
            need[s] = view.counts[s] - size(known[s])
            if need[s] < 0:
                raise BotError(f"seat {s} holds fewer cards than are known to be in its hand")
    total = sum(need)
    n = size(hidden)
    if total > n or (view.played is not None and total != n):
        raise BotError(f"the counts need {total} hidden cards but {n} are unseen")
    drawn = deal_unseen(hidden, need, rng)
    return tuple(  # type: ignore[return-value]
        view.hand if s == view.seat else known[s] + drawn[s] for s in range(4))


def py_deal_unseen(hidden: Cards, need: list[int], rng: XorShift64) -> list[Cards]:
    """``need[s]`` of the ``hidden`` cards for each seat ``s``, drawn uniformly with
    ``rng`` (a partial Fisher–Yates shuffle, seat after seat)."""
    unseen = list(iter_kinds(hidden))
    n = len(unseen)
    total = sum(need)
    # the first ``total`` places become a uniform sample
    for i in range(total):
        j = i + rng.below(n - i)
        unseen[i], unseen[j] = unseen[j], unseen[i]
    drawn = [0, 0, 0, 0]
    at = 0
    for s in range(4):
        cards = 0
        for k in unseen[at:at + need[s]]:
            cards += KIND_BIT[k]
        at += need[s]
        drawn[s] = cards
    return drawn


def c_deal_unseen(hidden: Cards, need: list[int], rng: XorShift64) -> list[Cards]:
    """:func:`py_deal_unseen` in the compiled core: the same draw from the same stream
    (the generator's state goes in and comes back)."""
    drawn, rng._state = PLAYERS.deal_unseen(hidden, need, rng._state)
    return list(drawn)


#: bound once, to the implementation engine.core chose
deal_unseen = c_deal_unseen if CHOSEN else py_deal_unseen


def world_position(view: View, hands: tuple[Cards, Cards, Cards, Cards]) -> Position:
    """The solver's position of ``view`` with the hidden hands filled in by ``hands``."""
    turn = int(view.seat)
    counts = view.counts
    out = 0
    for s in range(4):
        if counts[s] == 0 and s != turn:
            out |= 1 << s
    if view.finish:
        first = int(view.finish[0])
    elif out:
        if out & (out - 1):
            raise BotError("two seats are out but the view does not say which was first")
        first = out.bit_length() - 1
    else:
        first = -1
    if view.to_beat is None or view.to_beat_by is None:
        return Position(hands, turn, None, -1, 0, first, out)
    last = int(view.to_beat_by)
    passes = 0
    s = (last + 1) & 3
    while s != turn:  # every seat still holding cards between the play and us passed
        if counts[s]:
            passes += 1
        s = (s + 1) & 3
    return Position(hands, turn, view.to_beat, last, passes, first, out)
