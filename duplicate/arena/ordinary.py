"""An ordinary match (一局) between two agents: levels 2 to A with tribute, as the
competition plays it (RULES.md §7–10, PROTOCOL.md §3).

Agent A's clients sit at positions 0 and 2 (N–S), B's at 1 and 3 (E–W). Deal ``i``'s
hands are board ``i``'s of the given boards (a seed's boards, so the cards are fair and
reproducible); the first deal's leader is board 1's. From the second deal the tribute
phase of ``engine.match`` runs over the protocol: ``notify anti-tribute`` when it is
resisted, else ``act tribute`` to each payer, ``notify tribute``, ``act back`` to each
receiver, ``notify back``. Every deal's record (the hands as play began, after the
tribute) is replayed before it counts; a ``Tribute`` tag names the cards given, and
``NorthClient``..``WestClient`` each seat's client and agent.

A seat without its client is played by the fallback bot (``duplicate.arena.table``); a seat still
empty at a deal's start after ``Limits.reconnect`` seconds ends the match: the side that
failed **forfeits** it (the other side wins; both failing, no winner).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from duplicate.arena.duplicate_match import (
    check_seating,
    dropped_replies,
    match_file_name,
    room_ns,
    seating_rows,
)
from duplicate.arena.episode import (
    client_tags,
    deal_record,
    faults_tag,
    play_out,
    send_beginning,
    send_episode_over,
)
from duplicate.arena.protocol import hand_tokens, level_int, level_str, lowest_card_index
from duplicate.arena.server import ArenaError, Fault, Table
from duplicate.dealing import Board
from duplicate.gdn import DealRecord, dumps
from duplicate.i18n import phrase
from engine.cards import KIND_TOKENS, size
from engine.match import Match, TributePhase
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

__all__ = ["OrdinaryResult", "ordinary_path", "play_ordinary_match"]

_SEAT_TAGS = ("North", "East", "South", "West")


@dataclass(slots=True)
class OrdinaryResult:
    """A played ordinary match: its deals' records, the match state, faults, timings."""

    names: tuple[str, str]
    match: Match
    records: list[DealRecord] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    abandoned: str = ""
    seconds: float = 0.0
    file: Path | None = None
    #: ``"x"`` (A), ``"y"`` (B) or ``"both"``: who forfeited the match
    forfeited_by: str = ""
    seating: list[tuple[int, int, str, str]] = field(default_factory=list)
    #: replies dropped, by client id (``stale``, ``unsolicited``)
    dropped: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def winner(self) -> str:
        """The winning agent's name, or ``""`` (a draw, or not over)."""
        if self.forfeited_by:
            return {"x": self.names[1], "y": self.names[0]}.get(self.forfeited_by, "")
        w = self.match.winner
        return "" if w is None else self.names[int(w)]

    def summary(self) -> dict[str, Any]:
        """The match in a few figures (JSON-ready)."""
        ns, ew = self.match.levels
        return {"a": self.names[0], "b": self.names[1], "deals": len(self.records),
                "winner": self.winner, "end": self.match.end_reason,
                # numbers, 2..14 (14 = A), as the protocol's beginning writes a level
                "levels": [level_int(ns), level_int(ew)],
                "faults": [f.text() for f in self.faults], "abandoned": self.abandoned,
                "forfeited_by": self.forfeited_by,
                "seating": [{"table": t, "position": p, "client": c, "agent": g}
                            for t, p, c, g in self.seating],
                "dropped_replies": self.dropped}


def _info(hands: Sequence[int]) -> list[dict[str, Any]]:
    return [{"rest": size(h), "playArea": None} for h in hands]


async def _tribute(table: Table, phase: TributePhase, match: Match) -> None:
    """The tribute phase over the protocol (positions are seats: no rotation)."""
    level = phase.level
    ns, ew = match.levels

    def act(seat: Seat, stage: str, options: list[int]) -> dict[str, Any]:
        own, other = (ns, ew) if seat.side == 0 else (ew, ns)
        actions = [[stage, stage, [KIND_TOKENS[k]]] for k in options]
        return {
            "type": "act", "stage": stage,
            "handCards": hand_tokens(phase.hands[seat], level),
            "publicInfo": _info(phase.hands), "selfRank": level_str(own),
            "oppoRank": level_str(other), "curRank": level_str(level),
            "curPos": -1, "curAction": None, "greaterPos": -1, "greaterAction": None,
            "actionList": actions, "indexRange": len(actions) - 1,
        }

    if phase.resisted:
        await table.tell_all({"type": "notify", "stage": "anti-tribute",
                              "antiNums": len(phase.payers),
                              "antiPos": [int(s) for s in phase.payers]})
        return
    # PROTOCOL.md §3: the 4th finisher is asked first, then the 3rd in a double down
    for seat in reversed(phase.pending_tributes()):
        options = phase.legal_tributes(seat)
        index = await table.ask(int(seat), act(seat, "tribute", options), table.limits.action)
        phase.tribute(seat, options[index])
    paid = [[int(t.giver), int(t.receiver), KIND_TOKENS[t.card]]
            for t in phase.transfers if t.what == "tribute" and t.receiver is not None]
    await table.tell_all({"type": "notify", "stage": "tribute", "result": paid})
    for seat in phase.pending_returns():
        options = phase.legal_returns(seat)
        msg = act(seat, "back", options)
        index = await table.ask(int(seat), msg, table.limits.action, None,
                                partial(lowest_card_index, msg["actionList"], level))
        phase.give_return(seat, options[index])
    back = [[int(t.giver), int(t.receiver), KIND_TOKENS[t.card]]
            for t in phase.transfers if t.what == "return" and t.receiver is not None]
    await table.tell_all({"type": "notify", "stage": "back", "result": back})


def ordinary_path(out_dir: str | Path, names: tuple[str, str]) -> Path:
    """The records file an ordinary match of ``names`` writes into ``out_dir``."""
    return Path(out_dir) / ("ordinary-" + match_file_name(*names))


async def play_ordinary_match(
    table: Table,
    boards: Sequence[Board],
    names: tuple[str, str],
    *,
    rules: Ruleset = COMPETITION,
    max_deals: int | None = None,
    event: str = "Arena ordinary match",
    out_dir: str | Path | None = None,
) -> OrdinaryResult:
    """Play until a side passes A (or ``max_deals``, then the higher level wins, §8)."""
    if names[0] == names[1]:
        raise ArenaError(phrase("rest.arena.err.same_names", name=repr(names[0])))
    limit = min(len(boards), max_deals) if max_deals else len(boards)
    if limit < 1:
        raise ArenaError(phrase("rest.arena.err.ordinary_boards"))
    check_seating(table, names)
    started = time.perf_counter()
    match = Match(rules, boards[0].leader, max_deals=max_deals)
    out = OrdinaryResult(names, match, seating=seating_rows(table))
    while not match.is_over:
        n = match.deals_played
        if n >= len(boards):
            raise ArenaError(phrase("rest.arena.err.more_boards", n=len(boards)))
        missing = await table.await_seats()
        if missing:
            sides = {p & 1 for p in missing}
            out.forfeited_by = "both" if len(sides) == 2 else "x" if 0 in sides else "y"
            out.abandoned = ("a client did not come back: its side forfeits the match"
                             if len(sides) == 1 else "clients of both sides did not come back")
            break
        table.where = f"deal {n + 1}"
        table.where_said = phrase("arena.fault.where_deal", n=n + 1)
        hands = boards[n].hands
        level = match.deal_level
        levels = match.levels

        def ranks(pos: int, lv: tuple[int, int] = levels) -> tuple[int, int]:
            return (lv[pos & 1], lv[1 - (pos & 1)])

        await send_beginning(table, hands, level, 0, ranks)
        phase = match.deal_hands(hands)
        if phase is not None:
            await _tribute(table, phase, match)
        deal = match.start_deal()
        outcome = await play_out(table, deal, 0, ranks)
        await send_episode_over(table, deal, 0)
        match.finish_deal()
        tags = {"Event": event, "Board": str(n + 1)}
        tags.update({_SEAT_TAGS[s]: names[s & 1] for s in range(4)})
        extra: dict[str, str] = {}
        if phase is not None:
            extra["Tribute"] = ("resisted (抗贡)" if phase.resisted else
                                "; ".join(t.describe() for t in phase.transfers))
        extra.update(client_tags(table, 0))
        if outcome.faults:
            extra["ArenaFaults"] = faults_tag(outcome.faults)
        record = deal_record(outcome, tags, extra)
        room_ns(record, rules)  # replayed: raises if the record does not replay
        out.records.append(record)
    await table.tell_all({"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 1})
    w: int | None = None if match.winner is None else int(match.winner)
    if out.forfeited_by:
        w = {"x": 1, "y": 0}.get(out.forfeited_by)
    await table.tell_all({
        "type": "notify", "stage": "gameResult",
        "victoryNum": [1 if w is not None and (p & 1) == w else 0 for p in range(4)],
        "draws": [1 if w is None and match.is_over else 0] * 4,
    })
    await table.flush()
    out.faults = list(table.faults)
    out.dropped = dropped_replies([table])
    out.seconds = time.perf_counter() - started
    if out_dir is not None:
        path = ordinary_path(out_dir, names)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(out.records), encoding="utf-8")
        out.file = path
    return out

