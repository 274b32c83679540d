"""Bot plays for a captured board: what ``guandan table-sim`` sends, as a device would,
and what the tests enter. Four bots (by default :class:`~duplicate.bots.HeuristicPlayer`;
any policy of ``duplicate.bots.make_player``) play the deal out from its start (hands,
level, leader) and the actions come back as the device protocol writes them
(docs/CAPTURE.md): seat, card tokens (none for a pass), type and rank."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from duplicate.bots import View
from duplicate.policies import make_player
from engine.cards import Cards, parse_cards, parse_level, parse_rank, rank_name, to_tokens
from engine.combo import ComboType
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat


@dataclass(frozen=True, slots=True)
class SimAction:
    """One action as the protocol sends it (``cards`` empty: a pass)."""

    seat: str
    cards: tuple[str, ...]
    type: str | None
    rank: str | None


def bot_actions(
    hands: Sequence[Cards], level: int, leader: Seat, rules: Ruleset = COMPETITION,
    seed: str = "table-sim", policy: str = "heuristic", start: Sequence[SimAction] = (),
) -> list[SimAction]:
    """The whole deal played by four bots of ``policy`` (seeded per seat), as actions;
    with ``start``, the bots go on from after those actions (which come first)."""
    deal = Deal(hands, level, leader, rules)
    players = {s: make_player(policy, f"{seed}/{s.name}") for s in Seat}
    out: list[SimAction] = list(start)
    played: Cards = 0
    for a in start:
        cards = parse_cards(list(a.cards))
        if cards:
            ctype = ComboType.from_name(a.type) if a.type else None
            deal.play_cards(cards, ctype, parse_rank(a.rank) if a.rank else None, Seat[a.seat])
            played += cards
        else:
            deal.pass_(Seat[a.seat])
    while deal.turn is not None:
        seat = deal.turn
        to_beat = deal.to_beat
        c = deal.card_counts
        view = View(seat, deal.hand(seat), level, to_beat,
                    deal.last_player if to_beat is not None else None,
                    (c[0], c[1], c[2], c[3]), rules, played, tuple(deal.finish_order))
        combo = players[seat].act(view)
        if combo is None:
            deal.pass_(seat)
            out.append(SimAction(seat.name, (), None, None))
        else:
            deal.play(combo, seat)
            played += combo.cards
            out.append(SimAction(seat.name, tuple(to_tokens(combo.cards)),
                                 combo.type.record_name, rank_name(combo.rank)))
    return out


def actions_for_state(hands: dict[str, list[str]], level: str, leader: str,
                      rules: Ruleset = COMPETITION, seed: str = "table-sim",
                      policy: str = "heuristic",
                      start: Sequence[SimAction] = ()) -> list[SimAction]:
    """:func:`bot_actions` from a board's state as the protocol gives it (at its start)."""
    cards = [parse_cards(hands[s.name]) for s in Seat]
    return bot_actions(cards, parse_level(level), Seat[leader], rules, seed, policy, start)
