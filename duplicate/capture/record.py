"""The record is the result: a captured deal that ends is stored as its room's record
and its finishing order as the room's result, through the store (``store.add_record``,
``store.apply_change``, action ``import``), in the transaction of the action that ended
it, logged with the table's recorder as author and the reason "recorded at the table".

When the room's result counts already and says otherwise (a West report North
confirmed, a director's ruling), the record is not counted: it stays on the capture with
a note saying why, and the room's live report, if any, goes to the director as a
dispute (``hall_reports.state = 'disputed'``)."""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.dealing import Board
from duplicate.events.results import _room
from duplicate.gdn import DealRecord, Play, format_record
from duplicate.hall.base import Seat4, where_phrase
from duplicate.i18n.stored import coded
from duplicate.replay import finish_text
from duplicate.scoring import room_result
from duplicate.store.data import StoreError
from duplicate.store.log import in_savepoint, orders_differ
from engine.deal import Deal

#: The note of a captured record counted as its room's result.
COUNTED = models.CAPTURE_COUNTED


def record_text(ev: models.Event, round_no: int, board: Board, room: str, seats: Seat4,
                deal: Deal) -> str:
    """The canonical ``.gdn`` text of a captured deal, tagged with its event, round, board,
    room and players as ``guandan event import`` reads them."""
    tags = {
        "Event": ev.name, "Round": str(round_no), "Board": str(board.number),
        "Room": room.capitalize(), "North": seats.north, "East": seats.east,
        "South": seats.south, "West": seats.west, "DealId": board.deal_id,
        "Generator": "guandan capture",
    }  # fmt: skip
    plays = [
        Play(a.seat) if a.combo is None
        else Play(a.seat, a.combo.cards, a.combo.type, a.combo.rank)
        for a in deal.actions
    ]
    result = deal.result() if deal.is_over else None
    rec = DealRecord(
        tags=tags, hands=deal.initial_hands, level=deal.level, leader=deal.leader,
        plays=plays,
        finish=(None if result is None else
                result.finish_order[:2] if result.double_down else result.finish_order),
        result=None if result is None else (result.winner, result.levels),
    )  # fmt: skip
    return format_record(rec) + "\n"


def store_record(
    session: Session,
    ev: models.Event,
    rnd: models.EventRound,
    match: models.EventMatch,
    room: str,
    seats: Seat4,
    board: Board,
    deal: Deal,
    by: str,
    at: datetime,
) -> tuple[str, str]:
    """Store the ended ``deal`` as the room's record and result (see the module's
    docstring); answers the record's text and the capture's note (:data:`COUNTED`, or a
    coded phrase saying why it did not count)."""
    text = record_text(ev, rnd.number, board, room, seats, deal)
    result = deal.result()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    rules = deal.rules
    ns = room_result(result.winner, result.levels, rules)
    order = finish_text(result)
    where = where_phrase(rnd.number, match.table_no, board.number, room)
    author = store.Author(by, coded("capture.reason.recorded"))

    def step() -> None:
        result_id, old = _room(session, ev, rnd.number, match.table_no, board.number, room)
        rec = store.add_record(session, result_id, text, digest, finish=order,
                               result=result.result_tag, ns_score=ns, source=by)
        new = store.State("played", ns, None, rec.id, digest, store.canonical_finish(order))
        store.apply_change(session, result_id, "import", new, author, where, old, at=at)

    try:
        in_savepoint(session, step)
    except StoreError as exc:  # another result counts already: the director decides
        _dispute_live_report(session, rnd.id, match.table_no, room, board.number,
                             result.result_tag, order)
        return text, coded("capture.note.differs", reason=str(exc))
    # a report still waiting for North that says otherwise goes to the director too
    _dispute_live_report(session, rnd.id, match.table_no, room, board.number,
                         result.result_tag, order, unless=(ns, order), states=("reported",))
    return text, COUNTED


def _dispute_live_report(
    session: Session, round_id: int, table: int, room: str, board: int, result: str,
    order: str, *, unless: tuple[int, str] | None = None,
    states: tuple[str, ...] = ("reported", "confirmed"),
) -> None:
    """The room's live report (in one of ``states``) becomes a dispute: it contradicts
    the record captured at the table; not when it says ``unless`` (the captured N–S
    result and finishing order)."""
    h = models.HallReport
    live = session.scalar(select(h).where(
        h.round_id == round_id, h.table_no == table, h.room == room, h.board == board,
        h.live.is_(True), h.state.in_(states)))
    if live is None:
        return
    if unless is not None and live.ns_result == unless[0] and live.finish is not None and (
            not orders_differ(live.finish, unless[1])):
        return
    session.execute(update(h).where(h.id == live.id, h.state == live.state).values(
        state="disputed", rev=h.rev + 1,
        dispute_note=coded("capture.dispute.contradicts", result=result, order=order),
    ))
