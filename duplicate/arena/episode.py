"""One deal (小局, an episode) played over the protocol at a :class:`~duplicate.arena.server.Table`.

The engine's :class:`~engine.deal.Deal` runs in board seats N E S W; the table's clients sit
at protocol positions 0..3. ``rot`` maps them: position ``p`` holds board seat
``(p + rot) % 4``, so that one set of four connections can play both rooms of a board
(open room ``rot = 0``; closed room ``rot = 1``: the board turned one seat). Play order is
the same on both sides (0→1→2→3 is N→E→S→W turned).

:func:`send_beginning`, :func:`play_out` and :func:`send_episode_over` are the three parts
of PROTOCOL.md §3 (the tribute of an ordinary match comes between the first two); each
``act`` carries the engine's legal plays as ``actionList``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial

from duplicate.arena.protocol import (
    act_options,
    act_text,
    action_json,
    hand_tokens,
    level_int,
    level_str,
)
from duplicate.arena.protocol import tokens as card_tokens
from duplicate.arena.server import Fault, Table
from duplicate.bots import Player, View
from duplicate.gdn import MAX_TAG_VALUE, DealRecord, Play
from duplicate.policies import make_player
from engine.cards import Cards, size
from engine.combo import Combo
from engine.deal import Deal
from engine.seat import Seat

__all__ = ["CLIENT_TAGS", "EpisodeOutcome", "Ranks", "client_tags", "deal_record",
           "fallback_index", "play_out", "send_beginning", "send_episode_over"]

_NO_ACTION_JSON = "[null,null,null]"  # NO_ACTION


@lru_cache(maxsize=1024)
def _hand_json(hand: Cards, level: int) -> str:
    """The tokens of ``handCards`` joined for a JSON list (a seat that passed is asked again
    with the same hand)."""
    return '","'.join(hand_tokens(hand, level))
#: the (selfRank, oppoRank) levels of a position: (its side's level, the other side's)
Ranks = Callable[[int], tuple[int, int]]


def seat_of(pos: int, rot: int) -> Seat:
    """The board seat held by protocol position ``pos``."""
    return Seat((pos + rot) & 3)


def pos_of(seat: Seat, rot: int) -> int:
    """The protocol position holding board seat ``seat``."""
    return (int(seat) - rot) & 3


@dataclass(slots=True)
class EpisodeOutcome:
    """A played deal: the engine's deal, the record's play list, the faults, timings."""

    deal: Deal
    plays: list[Play]
    faults: list[Fault] = field(default_factory=list)
    engine_seconds: float = 0.0  # CPU time (process_time)
    acts: int = 0


@lru_cache(maxsize=8)
def fallback_player(policy: str) -> Player:
    """The fallback policy's bot (docs/ARENA.md "Escalation"): our bots keep no state
    between actions, so one serves every seat."""
    return make_player(policy, "arena fallback")


def fallback_index(policy: str, deal: Deal, plays: Sequence[Combo | None],
                   counts: Sequence[int]) -> int:
    """The index in ``plays`` of the fallback bot's play for the seat to move."""
    seat = deal.turn
    assert seat is not None
    to_beat = deal.to_beat
    view = View(seat, deal.hand(seat), deal.level, to_beat,
                deal.last_player if to_beat is not None else None,
                (counts[0], counts[1], counts[2], counts[3]), deal.rules,
                deal.played, tuple(deal.finish_order))
    combo = fallback_player(policy).act(view)
    for i, p in enumerate(plays):
        if p == combo:
            return i
    return 0


async def send_beginning(
    table: Table, hands: Sequence[Cards], level: int, rot: int, ranks: Ranks
) -> None:
    """``notify beginning`` to each position: its hand, ``myPos`` and the levels (ints).
    A new deal for the table: seats the fallback took by escalation go back to their
    clients (:meth:`Table.new_deal`)."""
    table.new_deal()
    for pos in range(4):
        own, other = ranks(pos)
        await table.tell(pos, {
            "type": "notify",
            "stage": "beginning",
            "handCards": hand_tokens(hands[seat_of(pos, rot)], level),
            "myPos": pos,
            "curRank": level_int(level),
            "selfRank": level_int(own),
            "oppoRank": level_int(other),
        })


async def play_out(table: Table, deal: Deal, rot: int, ranks: Ranks) -> EpisodeOutcome:
    """Ask the seat to move, apply its choice, tell all four, until the deal is over."""
    level = deal.level
    cur_rank = level_str(level)
    counts = [size(h) for h in deal.hands]  # by board seat
    area = ["null"] * 4  # by position: the JSON text of its last action this deal
    cur_pos, cur_json = -1, _NO_ACTION_JSON
    best_pos, best_json = -1, _NO_ACTION_JSON
    out = EpisodeOutcome(deal, [])
    first_fault = len(table.faults)
    engine = 0.0
    while deal.turn is not None:
        seat = deal.turn
        pos = pos_of(seat, rot)
        to_beat = deal.to_beat
        t0 = time.process_time()
        plays, listed = act_options(deal.hand(seat), level, to_beat, deal.rules)
        engine += time.process_time() - t0
        own, other = ranks(pos)
        leading = to_beat is None
        # the act's fields as dumps() writes them ("type", "stage", "handCards",
        # "publicInfo", "selfRank", "oppoRank", "curRank", "curPos", "curAction",
        # "greaterPos", "greaterAction"), from the cached action texts
        hand = _hand_json(deal.hand(seat), level)
        public = ",".join([f'{{"rest":{counts[(p + rot) & 3]},"playArea":{area[p]}}}'
                           for p in range(4)])  # position p holds seat (p + rot) % 4
        head = (
            f'{{"type":"act","stage":"play","handCards":["{hand}"],"publicInfo":[{public}],'
            f'"selfRank":"{level_str(own)}","oppoRank":"{level_str(other)}",'
            f'"curRank":"{cur_rank}","curPos":{-1 if leading else cur_pos},'
            f'"curAction":{_NO_ACTION_JSON if leading else cur_json},'
            f'"greaterPos":{-1 if leading else best_pos},'
            f'"greaterAction":{_NO_ACTION_JSON if leading else best_json}}}'
        )
        limit = table.limits.first_lead if not out.plays else table.limits.action
        index = await table.ask(
            pos, act_text(head, plays, listed), limit, len(plays) - 1,
            partial(fallback_index, table.limits.fallback, deal, plays, counts))
        out.acts += 1
        combo = plays[index]
        action = action_json(combo)
        t0 = time.process_time()
        if combo is None:
            deal.pass_()
            out.plays.append(Play(seat))
        else:
            counts[seat] = deal.play(combo).cards_left
            out.plays.append(Play(seat, combo.cards, combo.type, combo.rank))
            best_pos, best_json = pos, action
        engine += time.process_time() - t0
        area[pos] = action
        cur_pos, cur_json = pos, action
        # the most frequent frame (the same JSON as dumps() of {"type", "stage", "curPos",
        # "curAction", "greaterPos", "greaterAction"})
        await table.tell_all(
            f'{{"type":"notify","stage":"play","curPos":{pos},"curAction":{action},'
            f'"greaterPos":{best_pos},"greaterAction":{best_json}}}'
        )
    out.faults = table.faults[first_fault:]
    out.engine_seconds = engine
    return out


async def send_episode_over(table: Table, deal: Deal, rot: int) -> None:
    """``notify episodeOver``: the finishing order (a double down's losers in position
    order), the deal's level, the cards left in hand."""
    result = deal.result()
    order = [pos_of(s, rot) for s in result.finish_order]
    if result.double_down:
        order = order[:2] + sorted(order[2:])
    rest = [
        [pos, card_tokens(deal.hand(seat_of(pos, rot)))]
        for pos in range(4)
        if deal.hand(seat_of(pos, rot))
    ]
    await table.tell_all({
        "type": "notify",
        "stage": "episodeOver",
        "order": order,
        "curRank": level_str(deal.level),
        "restCards": rest,
    })
    table.deal_over()
    await table.flush()


#: the record tags naming each seat's client and agent (docs/FORMAT.md "Tags")
CLIENT_TAGS = ("NorthClient", "EastClient", "SouthClient", "WestClient")


def client_tags(table: Table, rot: int) -> dict[str, str]:
    """``NorthClient`` .. ``WestClient``: the client id holding each board seat and the
    agent it plays for, ``"<id> (<agent>)"`` (the id alone when the agent is not known)."""
    out = {}
    for seat in Seat:
        c = table.clients[pos_of(seat, rot)]
        out[CLIENT_TAGS[seat]] = f"{c.id} ({c.agent})" if c.agent else c.id
    return out


def faults_tag(faults: Sequence[Fault]) -> str:
    """The ``ArenaFaults`` tag of a deal: its faults, as many as a tag value holds
    (``duplicate.gdn.MAX_TAG_VALUE``); the rest are counted (every fault is in the log)."""
    texts = [f.text() for f in faults]
    out: list[str] = []
    for i, text in enumerate(texts):
        rest = len(texts) - i
        more = f"; … {rest} more faults (see the arena's log)"
        candidate = "; ".join([*out, text])
        if len(candidate) + (len(more) if rest > 1 else 0) > MAX_TAG_VALUE:
            return "; ".join(out) + more if out else more.lstrip("; ")
        out.append(text)
    return "; ".join(out)


def deal_record(
    outcome: EpisodeOutcome, tags: dict[str, str], extra: dict[str, str] | None = None
) -> DealRecord:
    """The ``.gdn`` record of a played deal: ``tags`` first, ``extra`` (unknown tags such as
    ``ArenaFaults``) kept after them; Finish and Result from the engine."""
    deal = outcome.deal
    result = deal.result()
    all_tags = dict(tags)
    if extra:
        all_tags.update(extra)
    return DealRecord(
        tags=all_tags,
        hands=deal.initial_hands,
        level=deal.level,
        leader=deal.leader,
        plays=outcome.plays,
        finish=result.finish_order[:2] if result.double_down else result.finish_order,
        result=(result.winner, result.levels),
    )
