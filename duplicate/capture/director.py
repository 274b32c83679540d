"""The director's side of a captured board: correct a play, mark the deal unfinished,
take the record back. One call each, each one transaction, each logged twice: on the
board (``capture_corrections``: who, when, why, before, after; the live page shows it)
and in the event's admin log.

* :func:`correct_play`: action ``seq`` becomes another (seat, cards, reading). Every
  later action must still be legal after it (the engine replays the whole deal), and a
  deal that had ended must still end at its last action. The superseded action keeps its
  row (taken back by the director). When the deal had ended its record is stored again
  as the room's result, as a correction in the store's log.
* :func:`mark_unfinished`: a deal still being played stops there: the room's result is
  ``unfinished`` (the director's reason) in the store's log.
* :func:`take_back`: an ended deal's record no longer counts: the captured board is
  ``withdrawn`` and, when its record was the room's result, the room is ``unfinished``
  ("the captured record was taken back") until the director rules or corrects it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.capture.base import CaptureError
from duplicate.capture.play import _read_action
from duplicate.capture.record import COUNTED, record_text, store_record
from duplicate.db import session_scope
from duplicate.events.base import _round_board_set, _rules
from duplicate.events.results import _room
from duplicate.hall.base import HallError, utc, where_phrase
from duplicate.hall.rows import (
    check_board,
    check_room,
    event_row,
    log,
    match_row,
    room_of,
    round_row,
    seating,
    who,
)
from duplicate.i18n import engine_phrase, phrase
from duplicate.i18n.stored import coded
from duplicate.replay import finish_text
from duplicate.scoring import room_result
from duplicate.store.data import StoreError
from duplicate.store.log import begin_write, in_savepoint, retrying
from engine.cards import parse_cards, parse_rank, rank_name, to_tokens
from engine.combo import ComboType
from engine.deal import Deal
from engine.errors import GuandanError
from engine.seat import Seat


@dataclass(frozen=True, slots=True)
class Corrected:
    """What a director's call did to a captured board: ``kind`` (``play``,
    ``unfinished``, ``withdrawn``), the action's number for a play, before and after
    (the action in a few words, ``N S3 S4``, ``E PASS``; else the board's state), the
    board's state now."""

    kind: str
    seq: int | None
    before: str
    after: str
    state: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"kind": self.kind, "seq": self.seq, "before": self.before,
                "after": self.after, "state": self.state}


@dataclass(slots=True)
class _Board:
    ev: models.Event
    rnd: models.EventRound
    match: models.EventMatch
    row: models.CaptureBoard
    where: Any


def _board(session: Session, event: str, round_no: int, table: int, room: str,
           board: int) -> _Board:
    check_room(room)
    ev = event_row(session, event)
    rnd = round_row(session, ev, round_no)
    m = match_row(session, ev, rnd, table)
    check_board(ev, rnd, board)
    c = models.CaptureBoard
    row = session.scalar(select(c).where(
        c.round_id == rnd.id, c.table_no == table, c.room == room, c.board == board))
    where = where_phrase(round_no, table, board, room)
    if row is None:
        raise HallError(phrase("live.err.not_captured", where=where), "not_found")
    return _Board(ev, rnd, m, row, where)


def _live(session: Session, capture_id: int) -> list[models.CaptureAction]:
    a = models.CaptureAction
    return list(session.scalars(
        select(a).where(a.capture_id == capture_id, a.live.is_(True)).order_by(a.seq)))


def said(a: models.CaptureAction) -> str:
    """An action in a few words: ``N S3 S4``, ``E PASS``."""
    return " ".join([a.seat, *(a.cards.split() or ["PASS"])])


def _note(session: Session, t: _Board, kind: str, seq: int | None, before: str, after: str,
          by: str, reason: str, at: datetime) -> None:
    session.add(models.CaptureCorrection(
        capture_id=t.row.id, kind=kind, seq=seq, before=before, after=after, made_by=by,
        reason=reason, made_at=at))
    log(session, "capture", by, reason,
        coded("live.detail.corrected", where=coded_where(t), kind=kind, before=before,
              after=after), t.ev.name)


def coded_where(t: _Board) -> str:
    """The board in the log's words: round, table, board, room."""
    return f"{t.rnd.number}/{t.match.table_no}/{t.row.board}/{t.row.room}"


@retrying
def correct_play(
    engine: Engine, event: str, round_no: int, table: int, room: str, board: int, seq: int,
    seat: str, cards: Sequence[str], by: str, reason: str, *, ctype: str | None = None,
    rank: str | None = None, now: datetime | None = None,
) -> Corrected:
    """Action ``seq`` of a captured board becomes ``seat`` playing ``cards`` (none: a
    pass), read as ``ctype``/``rank`` when given (see the module's doc)."""
    by, reason = who(by, reason, "a correction")
    at = utc(now)
    with session_scope(engine) as session:
        begin_write(session)
        t = _board(session, event, round_no, table, room, board)
        if t.row.state not in ("playing", "ended"):
            raise HallError(phrase("live.err.not_correctable", where=t.where,
                                   state=t.row.state), "conflict")
        actions = _live(session, t.row.id)
        if not 1 <= seq <= len(actions):
            raise CaptureError(phrase("live.err.no_action", where=t.where, seq=seq,
                                      last=len(actions)), "conflict", "out_of_order",
                               len(actions) + 1)
        me, parsed, kind, r = _read_action(t.where, seq, seat, cards, ctype, rank)
        b = _round_board_set(session, t.ev, t.rnd, only=board)[board]
        deal = Deal(b.hands, b.level, b.leader, _rules(t.ev))
        replay_actions_until(deal, actions[:seq - 1])
        try:
            if parsed == 0:
                deal.pass_(me)
            else:
                deal.play_cards(parsed, kind, r, me)
        except GuandanError as exc:
            raise CaptureError(phrase("capture.err.refused", where=t.where, seq=seq,
                                      reason=engine_phrase(exc)), "conflict", "illegal",
                               None) from None
        done = deal.actions[-1]
        combo = done.combo
        for later in actions[seq:]:
            if deal.is_over:
                raise HallError(phrase("live.err.ends_early", where=t.where,
                                       seq=deal_length(deal), last=len(actions)), "conflict")
            try:
                replay_actions_until(deal, [later])
            except GuandanError as exc:
                raise HallError(phrase("live.err.later_illegal", where=t.where,
                                       seq=later.seq, reason=engine_phrase(exc)), "conflict") from None
        was_over = t.row.state == "ended"
        if was_over and not deal.is_over:
            raise HallError(phrase("live.err.no_end", where=t.where), "conflict")
        old = actions[seq - 1]
        before = said(old)
        a = models.CaptureAction
        session.execute(update(a).where(a.id == old.id).values(
            live=None, undone_by=by, undone_at=at))
        new = a(capture_id=t.row.id, seq=seq, seat=me.name,
                cards=" ".join(to_tokens(combo.cards)) if combo is not None else "",
                ctype=combo.type.record_name if combo is not None else None,
                rank=rank_name(combo.rank) if combo is not None else None,
                live=True, entered_by=by, entered_at=at)
        session.add(new)
        session.flush()
        after = said(new)
        if deal.is_over:
            seats = room_of(*seating(session, t.match), room)[2]
            if was_over:
                _store_again(session, t, seats, b, deal, by, reason, at)
            else:
                t.row.state, t.row.ended_at, t.row.result = "ended", at, deal.result().result_tag
                t.row.record, t.row.note = store_record(session, t.ev, t.rnd, t.match, room,
                                                        seats, b, deal, by, at)
        _note(session, t, "play", seq, before, after, by, reason, at)
        return Corrected("play", seq, before, after, t.row.state)


def deal_length(deal: Deal) -> int:
    """The number of actions the deal has taken."""
    return len(deal.actions)


def replay_actions_until(deal: Deal, actions: Sequence[models.CaptureAction]) -> None:
    """Apply stored ``actions`` to ``deal`` (the engine refuses an illegal one)."""
    for x in actions:
        seat = Seat[x.seat]
        if not x.cards:
            deal.pass_(seat)
        else:
            deal.play_cards(parse_cards(x.cards),
                            ComboType.from_name(x.ctype) if x.ctype else None,
                            parse_rank(x.rank) if x.rank else None, seat)


def _store_again(session: Session, t: _Board, seats: Any, b: Any, deal: Deal, by: str,
                 reason: str, at: datetime) -> None:
    """The corrected record of an ended deal is the room's record and result again (a
    correction in the store's log) when the captured record counted; else kept on the
    board only."""
    text = record_text(t.ev, t.rnd.number, b, t.row.room, seats, deal)
    t.row.record, t.row.result = text, deal.result().result_tag
    if t.row.note != COUNTED:
        return
    result = deal.result()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    ns = room_result(result.winner, result.levels, deal.rules)
    order = finish_text(result)
    author = store.Author(by, reason, correction=True)

    def step() -> None:
        result_id, old = _room(session, t.ev, t.rnd.number, t.match.table_no, t.row.board,
                               t.row.room)
        rec = store.add_record(session, result_id, text, digest, finish=order,
                               result=result.result_tag, ns_score=ns, source=by)
        new = store.State("played", ns, None, rec.id, digest, store.canonical_finish(order))
        store.apply_change(session, result_id, "correction", new, author, t.where, old, at=at)

    try:
        in_savepoint(session, step)
    except StoreError as exc:
        raise HallError(exc.phrase or str(exc)) from None


@retrying
def mark_unfinished(engine: Engine, event: str, round_no: int, table: int, room: str,
                    board: int, by: str, reason: str, *,
                    now: datetime | None = None) -> Corrected:
    """A captured deal still being played stops: the room's result is ``unfinished``
    (``reason``) in the store's log; the board is ``unfinished``."""
    by, reason = who(by, reason, "a correction")
    at = utc(now)
    with session_scope(engine) as session:
        begin_write(session)
        t = _board(session, event, round_no, table, room, board)
        if t.row.state != "playing":
            raise HallError(phrase("live.err.not_playing", where=t.where, state=t.row.state), "conflict")
        t.row.state, t.row.ended_at = "unfinished", at
        author = store.Author(by, reason, correction=True)

        def step() -> None:
            result_id, old = _room(session, t.ev, round_no, table, board, room)
            store.apply_change(session, result_id, "unfinished",
                               store.State("unfinished", None, reason), author, t.where, old,
                               at=at)

        try:
            in_savepoint(session, step)
        except StoreError as exc:
            raise HallError(exc.phrase or str(exc)) from None
        before = "playing"
        _note(session, t, "unfinished", None, before, "unfinished", by, reason, at)
        return Corrected("unfinished", None, before, "unfinished", "unfinished")


@retrying
def take_back(engine: Engine, event: str, round_no: int, table: int, room: str, board: int,
              by: str, reason: str, *, now: datetime | None = None) -> Corrected:
    """An ended captured deal's record no longer counts (see the module's doc)."""
    by, reason = who(by, reason, "a correction")
    at = utc(now)
    with session_scope(engine) as session:
        begin_write(session)
        t = _board(session, event, round_no, table, room, board)
        if t.row.state != "ended":
            raise HallError(phrase("live.err.not_ended", where=t.where, state=t.row.state), "conflict")
        counted = t.row.note == COUNTED
        before = "ended"
        t.row.state = "withdrawn"
        if counted:
            author = store.Author(by, reason, correction=True)

            def step() -> None:
                result_id, old = _room(session, t.ev, round_no, table, board, room)
                store.apply_change(
                    session, result_id, "correction",
                    store.State("unfinished", None, "the captured record was taken back"),
                    author, t.where, old, at=at)

            try:
                in_savepoint(session, step)
            except StoreError as exc:
                raise HallError(exc.phrase or str(exc)) from None
        _note(session, t, "withdrawn", None, before, "withdrawn", by, reason, at)
        return Corrected("withdrawn", None, before, "withdrawn", "withdrawn")
