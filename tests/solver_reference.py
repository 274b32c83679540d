"""Reference searches for the solver tests, written apart from ``analysis``.

``brute_value``: plain minimax over the engine's :class:`Deal` (every concrete legal play
and the pass, no pruning, no table). ``memo_value``: the same minimax with a memo keyed by
the engine's own state (a second, independent search for bigger positions).
``random_position``: a seeded random deal with few cards a hand, played forward at random
so that players may be out and 接风 pending.
"""

from __future__ import annotations

import random

from engine.cards import NUM_CARDS, from_ids
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side


def _terminal(deal: Deal) -> int:
    return deal.result().score(Side.NS)


class TooBig(Exception):
    """The brute-force tree went past its node cap."""


def brute_value(deal: Deal, cap: list[int] | None = None) -> int:
    """Value for N–S by full minimax (the deal is left as it was). ``cap`` is a one-item
    list counting down the nodes allowed; :class:`TooBig` when it runs out."""
    if cap is not None:
        cap[0] -= 1
        if cap[0] < 0:
            raise TooBig
    if deal.is_over:
        return _terminal(deal)
    turn = deal.turn
    assert turn is not None
    maxing = turn.side == Side.NS
    best: int | None = None
    actions = list(deal.legal_plays())
    for combo in actions:
        deal._apply_play(combo)  # legal by construction: skip re-verifying it
        v = brute_value(deal, cap)
        deal.undo()
        if best is None or (v > best if maxing else v < best):
            best = v
    if deal.to_beat is not None:
        deal._apply_pass()
        v = brute_value(deal, cap)
        deal.undo()
        if best is None or (v > best if maxing else v < best):
            best = v
    assert best is not None
    return best


def _key(deal: Deal) -> tuple[object, ...]:
    passes = 0
    if deal.to_beat is not None:
        for a in reversed(deal.actions):
            if a.combo is not None:
                break
            passes += 1
    tb = deal.to_beat
    return (
        deal.hands,
        deal.turn,
        None if tb is None else (tb.type, tb.rank, tb.size),
        deal.last_player if tb is not None else None,
        passes,
        tuple(deal.finish_order[:1]),
        frozenset(deal.finish_order),
    )


def memo_value(deal: Deal, memo: dict[tuple[object, ...], int] | None = None) -> int:
    """Value for N–S by minimax with a memo on the engine's state (no pruning)."""
    if memo is None:
        memo = {}
    if deal.is_over:
        return _terminal(deal)
    key = _key(deal)
    got = memo.get(key)
    if got is not None:
        return got
    turn = deal.turn
    assert turn is not None
    vals = []
    for combo in list(deal.legal_plays()):
        deal._apply_play(combo)
        vals.append(memo_value(deal, memo))
        deal.undo()
    if deal.to_beat is not None:
        deal._apply_pass()
        vals.append(memo_value(deal, memo))
        deal.undo()
    v = max(vals) if turn.side == Side.NS else min(vals)
    memo[key] = v
    return v


def random_position(
    rng: random.Random,
    max_cards: int,
    rules: Ruleset = COMPETITION,
    level: int | None = None,
    wild_bias: bool = True,
    max_total: int = 108,
) -> Deal:
    """A random deal of 1..``max_cards`` cards a hand (``max_total`` in all), then a few
    random actions."""
    lv = rng.randrange(13) if level is None else level
    while True:
        ids = list(range(NUM_CARDS))
        rng.shuffle(ids)
        if wild_bias and rng.random() < 0.5:  # put wild hearts in play more often
            wild = [2 * (4 * lv + 1), 2 * (4 * lv + 1) + 1]
            ids = wild + [i for i in ids if i not in wild]
            head = ids[: 2 * max_cards]
            rng.shuffle(head)
            ids = head + ids[2 * max_cards :]
        hands = []
        pos = 0
        for i in range(4):
            n = rng.randint(1, max(1, min(max_cards, max_total - pos - (3 - i))))
            hands.append(from_ids(ids[pos : pos + n]))
            pos += n
        rng.shuffle(hands)
        deal = Deal(hands, lv, Seat(rng.randrange(4)), rules)
        steps = rng.randrange(0, 2 * max_cards + 2)
        for _ in range(steps):
            if deal.is_over:
                break
            plays = list(deal.legal_plays())
            if deal.can_pass() and (not plays or rng.random() < 0.4):
                deal.pass_()
            else:
                deal.play(rng.choice(plays))
        if not deal.is_over:
            return deal
