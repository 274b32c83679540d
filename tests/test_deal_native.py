"""engine.deal.Deal on the compiled core and on pure Python: the same states, the same
errors (class and message) and the same results, action by action.

Random deals (every level, three rule sets) are driven on two Deals at once, one per
implementation (``engine.deal.CDeal`` and ``PyDeal``); before each real action a handful of wrong ones is tried on both (another
seat's turn, cards not held, a reading the cards do not have, a play that does not beat,
a pass when leading, garbage; as plays and as declared cards, the way records are
replayed), then the action is made on both and the states compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from helpers.implementations import PY, C

from engine import core
from engine.combo import Combo, ComboType
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

RULES = [COMPETITION, Ruleset(joker_pair_in_full_house=True),
         Ruleset(jiefeng_next=True, double_down_plus4=True, bomb_max=8)]


def outcome(f: Callable[[], Any]) -> tuple[str, str]:
    try:
        return "ok", repr(f())
    except Exception as exc:  # noqa: BLE001 - compared between implementations
        return type(exc).__name__, str(exc)


def both(deals: dict[str, Deal], act: Callable[[Deal], Any]) -> tuple[str, str]:
    got = {impl: outcome(lambda d=deal: act(d)) for impl, deal in deals.items()}
    assert got["native"] == got["python"]
    return got["native"]


def wrong_plays(deal: Deal, log: list[Any], i: int) -> list[Any]:
    seat = deal.turn
    assert seat is not None
    hand = deal.hand(seat)
    other = deal.hand(seat.next)
    out: list[Any] = []
    for entry in log[i + 1:i + 6]:  # later plays: often not held, not beating, not a reading
        if entry is not None:
            out.append(entry)
            out.append(Combo(ComboType((entry.type + 1) % 10), entry.rank, entry.cards))
            out.append(Combo(entry.type, (entry.rank + 1) % 15, entry.cards))
    low = hand & -hand
    out.append(Combo(ComboType.SINGLE, 0, low))
    out.append(Combo(ComboType.PAIR, 3, other & -other))
    out += [Combo(ComboType.SINGLE, 20, low), Combo(ComboType.SINGLE, 0, 0), (0, 0, low),
            Combo(ComboType.SINGLE, 0, -1), "x", None]
    return out


@pytest.mark.parametrize("seed", range(18))
def test_deals_agree_action_by_action(seed: int) -> None:
    rules = RULES[seed % 3]
    level = (seed * 5) % 13
    hands, log, _, _ = C.random_deal_log(seed, level, rules)
    deals = {"native": C.Deal(hands, level, Seat.N, rules),
             "python": PY.Deal(hands, level, Seat.N, rules)}
    for i, entry in enumerate(log):
        turn = deals["native"].turn
        assert turn is not None
        for wrong in wrong_plays(deals["native"], log, i):
            both(deals, lambda d, w=wrong: d.can_play(w))
            both(deals, lambda d, w=wrong: d.verify_play(w))
            if isinstance(wrong, tuple) and len(wrong) == 3:  # declared, as records are replayed
                both(deals, lambda d, w=wrong: d.copy().play_cards(w[2], w[0], w[1]))
        both(deals, lambda d, t=turn, e=entry: d.verify_play(e or Combo(0, 0, 1), t.next))
        both(deals, lambda d: d.verify_pass())
        if entry is None:
            assert both(deals, lambda d, t=turn: d.pass_(t))[0] == "ok"
        elif i % 2:
            assert both(deals, lambda d, t=turn, e=entry: d.play(e, t))[0] == "ok"
        else:
            assert both(deals, lambda d, t=turn, e=entry: d.play_cards(e.cards, e.type, e.rank,
                                                                       t))[0] == "ok"
        assert deals["native"].state_key() == deals["python"].state_key()
    both(deals, lambda d: d.result())
    both(deals, lambda d: d.pass_())
    both(deals, lambda d: d.play(log[-1] or Combo(0, 0, 1)))
    assert deals["native"] == deals["python"]
