"""The checks and writes behind the table's reports: a finishing order read and the
result it implies (RULES.md §7, ``store.result_of_finish`` under the event's rules), a
``.gdn`` record checked against the round's board, room and seating (as ``guandan event
import`` would), and a confirmed or settled report written to the store in the caller's
transaction through the library's own paths (a result reported from the table, an
unfinished board, the record imported)."""

from __future__ import annotations

import dataclasses
import functools
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.db import session_scope
from duplicate.dealing import Board, board_from_hands
from duplicate.errors import DuplicateError
from duplicate.events.base import _round_board_set, _rules, _slot
from duplicate.events.imports import _Importer, prepare_text
from duplicate.events.results import _room
from duplicate.hall.base import Grant, HallError, Preview, where_phrase
from duplicate.hall.rows import event_row, ready
from duplicate.i18n import Phrase, engine_phrase, phrase
from duplicate.i18n.stored import coded
from duplicate.i18n.typed import finish_letters
from duplicate.records import Correction
from duplicate.store.log import order_phrase, orders_differ
from engine.cards import parse_cards
from engine.ruleset import Ruleset
from engine.seat import Seat

#: The largest record accepted from a phone.
MAX_RECORD = 256 * 1024


def where_of(g: Grant, board: int) -> Phrase:
    """A board of a table and room, for messages."""
    return where_phrase(g.round_no, g.table, board, g.room)


def parse_finish(finish: str, rules: Ruleset) -> tuple[str, Preview]:
    """A finishing order in canonical form (``"N S E"``, ``"N S"`` for a double down) and
    the result it implies; invalid on a bad order."""
    if not isinstance(finish, str) or len(finish) > 40:
        raise HallError(phrase("hall.err.finish_form"))
    finish = finish_letters(finish)  # 北 南 as N S
    try:
        ns = store.result_of_finish(finish, rules)  # reads the seats and refuses a bad order
    except store.StoreError as exc:
        raise HallError(exc.phrase or str(exc)) from None
    seats = [Seat[n] for n in finish.replace(",", " ").upper().split()]
    double = seats[1] == seats[0].partner
    text = " ".join(s.name for s in (seats[:2] if double else seats[:3]))
    return text, Preview(ns, "NS" if ns > 0 else "EW", abs(ns), double)


def preview_finish(engine: Engine, event: str, finish: str) -> Preview:
    """The result ``finish`` implies under the event's rules (side, levels, double down)."""
    ready(engine)
    with session_scope(engine) as session:
        return parse_finish(finish, _rules(event_row(session, event)))[1]


def check_record(
    session: Session,
    ev: models.Event,
    rnd: models.EventRound,
    g: Grant,
    board: int,
    seats: tuple[str, str, str, str],
    text: str,
    ns: int | None,
) -> None:
    """The record must replay under the event's rules, be this board, room and seating,
    and say what the report says (checked again, in full, when it is imported)."""
    where = where_of(g, board)
    if len(text) > MAX_RECORD:
        raise HallError(phrase("hall.err.record_size", where=where, kib=MAX_RECORD // 1024))
    try:
        recs = prepare_text(text, "report.gdn", _rules(ev))
    except (DuplicateError, ValueError) as exc:  # EventError, GdnError, GuandanError
        raise HallError(phrase("hall.err.record_bad", where=where,
                               reason=getattr(exc, "phrase", None) or engine_phrase(exc))) from None
    if len(recs) != 1:
        raise HallError(phrase("hall.err.record_count", where=where, count=len(recs)))
    rec = recs[0]
    tags = {k: v.strip() for k, v in rec.tags.items()}
    expected = {"Board": str(board), "Room": g.room, "Round": str(g.round_no)}
    for tag, want in expected.items():
        got = tags.get(tag)
        if got is not None and got.lower() != want.lower():
            raise HallError(phrase(
                "hall.err.record_tag", where=where, tag=tag, got=repr(got), want=repr(want)
            ))
    for tag, want in zip(("North", "East", "South", "West"), seats, strict=True):
        if tags.get(tag) != want:
            raise HallError(phrase(
                "hall.err.record_seat", where=where, tag=tag, got=repr(tags.get(tag)),
                want=repr(want),
            ))
    b = _round_board_set(session, ev, rnd)[board]
    if (rec.hands, rec.level, rec.leader) != (b.hands, b.level, int(b.leader)):
        raise HallError(phrase("hall.err.record_hands", where=where, board=board))
    if rec.ns_result != ns:
        unfinished = phrase("result.unfinished")
        said = unfinished if rec.ns_result is None else f"N–S {rec.ns_result:+d}"
        meant = unfinished if ns is None else f"N–S {ns:+d}"
        raise HallError(phrase("hall.err.record_result", where=where, said=said, meant=meant))


def table_author(row: models.HallReport) -> store.Author:
    """Who and why of a report the table agreed on (West reported, North confirmed): the
    table, room and seat that reported it (as the report names it: ``table 1 open West``),
    and the table's own typed reason for a correction (else: West's report, confirmed by
    North)."""
    by = row.reported_by
    reason = row.correction or coded("lw.reason.table")
    return store.Author(by, reason, correction=row.correction is not None)


@dataclasses.dataclass(frozen=True, slots=True)
class RoomRead:
    """What a caller read already of the room a report counts in (in the statement that
    read the report): its match, the board (``board_of``) and the room's current result
    (``None``: nothing stored)."""

    match: models.EventMatch
    board: Board
    now: store.Now | None


@functools.lru_cache(maxsize=4096)
def board_of(generator: str, number: int, level: int, hands: tuple[str, str, str, str]) -> Board:
    """A stored board's value, worked out once per process for the same stored row (a
    board's hands, level and generator never change; rebuilding it from its hands, its
    DealId, is the costly part of finding the room a report counts in)."""
    return board_from_hands([parse_cards(h) for h in hands], number, level, generator)


def count_report(
    session: Session,
    ev: models.Event,
    rnd: models.EventRound,
    row: models.HallReport,
    author: store.Author,
    at: datetime | None = None,
    read: RoomRead | None = None,
) -> None:
    """Write a confirmed (or accepted) report to the store (the caller's transaction), with
    ``author`` (:func:`table_author`, or the director accepting it) at ``at``: the record
    imported, or the finishing order reported, or the board marked unfinished. Unless
    ``author.correction``, a different result already stored is a conflict. ``read``: the
    room as the caller read it in this transaction (else read here)."""
    where = where_phrase(rnd.number, row.table_no, row.board, row.room)  # words if needed
    fix = Correction(author.reason, author.by) if author.correction else None
    try:
        if row.record is not None:
            rec = prepare_text(row.record, "report.gdn", _rules(ev))[0]
            rec = dataclasses.replace(rec, where=f"{where}: West's report")
            imp = _Importer(session, ev, fix, author.by, chief=None)  # the caller's limit
            imp.add(rec, rnd.number)
            imp.flush()
            return
        if read is None:
            result_id, old = _room(session, ev, rnd.number, row.table_no, row.board, row.room)
        elif read.now is not None:
            result_id, old = read.now.result_id, read.now.state
        else:
            slot = _slot(ev, rnd, read.match, read.board, row.room)
            result_id, old = store.result_row_id(session, slot), None
        if row.finish is not None:
            new = store.State("played", row.ns_result, None, None, None, row.finish)
            action = "report"
        else:
            new = store.State("unfinished", None, row.unfinished)
            action = "unfinished"
        if old is not None and (old.status, old.ns_result) == (new.status, new.ns_result):
            if new.status == "unfinished" and old.note == new.note:
                return  # the same result counts already: keep it
            same_order = store.canonical_finish(new.finish) == old.finish
            if new.status == "played" and fix is None and orders_differ(old.finish, new.finish):
                raise HallError(order_phrase(old, new.finish, where), "conflict")
            if new.status == "played" and (fix is None or same_order):
                return  # the same result counts already (a ruling, a record): keep it
        store.apply_change(session, result_id, action, new, author, where, old, at=at)
    except (DuplicateError, ValueError) as exc:  # EventError, StoreError, RecordImportError
        raise HallError(str(exc), "conflict") from None
