"""Results changed by hand: unfinished boards, a director's ruling, corrections, and the
list of them. Every change is a row of the store's log (:mod:`duplicate.store`): who, when
(UTC), why, the result it replaced and the new one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    ROOMS,
    EventError,
    _board_ids,
    _event_row,
    _find_match,
    _round_board_set,
    _round_boards,
    _rules,
    _slot,
)
from duplicate.events.limit import check_limit
from duplicate.events.scores import Decided, _decisions
from duplicate.events.waiting import set_aside_waiting
from duplicate.i18n import Named, Term, phrase
from duplicate.i18n.stored import StateText, coded, said, unfinished_code
from duplicate.i18n.typed import finish_letters, result_letters
from duplicate.records import Correction
from duplicate.scoring import check_result
from duplicate.store import Author, Change, Slot, State, StoreError, retrying


def _describe(state: State | None) -> str:
    """A stored result in a few words, for corrections and errors."""
    return "no result" if state is None else state.describe()


def _author(correction: Correction | None, why: str, by: str | None = None) -> Author:
    """Who and why of a change: the correction's, else ``by`` (default: this login) and
    ``why``."""
    if correction is not None:
        return Author(correction.by, correction.reason, correction=True)
    return Author(by or store.default_by(), why)


def _room(
    session: Session, ev: models.Event, round_no: int, table: int, board: int, room: str
) -> tuple[int, State | None]:
    """The stored room result of a match's board in one room (added when missing), and
    its current result (``None``: nothing stored yet)."""
    rnd, m = _find_match(session, ev, round_no, table)
    _check_slot(ev, rnd, board, room)
    boards = _round_board_set(session, ev, rnd, only=board)
    slot = _slot(ev, rnd, m, boards[board], room)
    now = store.room_now(session, m.id, board, room)
    if now is not None:
        return now.result_id, now.state
    return store.result_row(session, slot).id, None


def _within_limit(
    session: Session, ev: models.Event, round_no: int, table: int, board: int, room: str,
    author: Author, chief: bool, now: datetime | None,
) -> None:
    """The directors' limit on a published round (:func:`duplicate.events.limit.check_limit`)."""
    rnd, _ = _find_match(session, ev, round_no, table)
    where = f"round {round_no}, table {table}, board {board}, {room} room"
    check_limit(session, ev, rnd, author.by, author.reason, where, chief=chief, now=now)


def _check_slot(ev: models.Event, rnd: models.EventRound, board: int, room: str) -> None:
    boards = _round_boards(ev, rnd)
    if not boards:
        raise EventError(phrase("events.err.no_boards", event=repr(ev.name), round=rnd.number))
    if board not in boards:
        raise EventError(phrase("events.err.not_round_board", round=rnd.number, first=boards[0],
                                last=boards[-1], board=board))
    if room not in ROOMS:
        raise EventError(phrase("results.room", room=repr(room)))


def result_slot(
    engine: Engine, event: str, round_no: int, table: int, board: int, room: str
) -> Slot:
    """The store's slot of a match's board in one room (``duplicate.store``): what the hall
    service hands to ``store.report_result``, ``store.attach_record``, ``store.mark_unfinished``
    and ``store.result_history``. Refused for a table, board or room the round does not have."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd, m = _find_match(session, ev, round_no, table)
        _check_slot(ev, rnd, board, room)
        boards = _round_board_set(session, ev, rnd)
        return _slot(ev, rnd, m, boards[board], room, _board_ids(session, rnd).get(board))


def report_result(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    author: Author,
    *,
    finish: str | None = None,
    ns_result: int | None = None,
    chief: bool = False,
    now: datetime | None = None,
) -> Change | None:
    """A room's result reported without a record (``store.report_result``): the finishing
    order from the table (``finish``, e.g. ``"N S"``) or the N–S result. ``None``: the same
    result was in already. A correction (``author.correction``) of a published round is a
    director's change: held to the directors' limit unless ``chief``, in the same
    transaction (:mod:`duplicate.events.limit`)."""
    slot = result_slot(engine, event, round_no, table, board, room)
    if finish is not None:
        finish = finish_letters(finish)  # 北 南 as N S

    def limit(session: Session) -> None:
        ev = _event_row(session, event)
        _refuse_decided(session, ev, round_no, table, board, room)
        if author.correction:
            _within_limit(session, ev, round_no, table, board, room, author, chief, now)

    try:
        return store.report_result(  # the refusal is said at the room's place, once
            engine, slot, author, finish=finish, ns_result=ns_result, guard=limit, where=""
        )
    except StoreError as exc:
        raise EventError(phrase("results.at", round=round_no, table=table, board=board,
                                room=Term(room, f"report.room.{room}"),
                                error=exc.phrase or str(exc))) from None


def room_history(
    engine: Engine, event: str, round_no: int, table: int, board: int, room: str
) -> list[Change]:
    """Every change of a match's board in one room, oldest first: who, when, why (a reason
    the program wrote in English: :func:`duplicate.i18n.stored.said`), old, new."""
    return [
        replace(c, reason=said(c.reason) or c.reason)
        for c in store.result_history(
            engine, result_slot(engine, event, round_no, table, board, room).key
        )
    ]


@retrying
def record_unfinished(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    reason: str,
    rooms: Sequence[str] = ROOMS,
    correction: Correction | None = None,
    by: str | None = None,
    *,
    chief: bool = False,
    now: datetime | None = None,
) -> int:
    """Record that ``board`` of a match was not finished (``reason``: time, withdrawal, …)
    in ``rooms``; it is scored by the event's unfinished rule. A room that already has a
    result needs ``correction``. A table's report that waits on the board in that room is
    set aside (:mod:`duplicate.events.waiting`). Returns the number of rooms marked. In a
    published round the directors' limit holds (``chief``, ``now``:
    :mod:`duplicate.events.limit`)."""
    if not reason.strip():
        raise EventError(phrase("store.err.unfinished_reason"))
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        for room in rooms:
            row, old = _room(session, ev, round_no, table, board, room)
            _refuse_decided(session, ev, round_no, table, board, room)
            new = State("unfinished", None, reason.strip())
            if old is not None and (old.status, old.note) == ("unfinished", new.note):
                continue
            if old is not None and correction is None:
                raise EventError(
                    phrase("results.has", round=round_no, table=table, board=board,
                           room=Term(room, f"report.room.{room}"),
                           stored=StateText(_describe(old))),
                    cli_hint="--by NAME --reason TEXT",
                )
            author = _author(correction, coded("lw.reason.unfinished",
                                               reason=unfinished_code(reason.strip())), by)
            _within_limit(session, ev, round_no, table, board, room, author, chief, now)
            store.apply_change(session, row, "unfinished", new, author, "", old)
            rnd, _ = _find_match(session, ev, round_no, table)
            set_aside_waiting(session, ev.name, rnd, table, author.by, author.reason,
                              board=board, room=room, at=now)
        return len(rooms)


@retrying
def correct_result(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    ns_result: int | None,
    correction: Correction,
    *,
    finish: str | None = None,
    chief: bool = False,
    now: datetime | None = None,
) -> str | None:
    """A director's ruling: set a room's N–S result on a board (±1..±3, or ±4 when the
    event plays ``double_down_plus4``, RULES.md §7), kept with who, when and why; the
    record, if any, stays stored beside it. ``finish``: the finishing order the director
    counted it from (``N S E`` or ``北 南 东``; the result it implies, checked to be
    ``ns_result`` when both are given), kept in the log as the room's order; without it
    the room has no order (an N–S result given). A table's report that waits on the board
    in that room is set aside (:mod:`duplicate.events.waiting`). Returns what it
    replaced, or ``None`` when the room already holds this very ruling (the same result,
    by a ruling, from the same order): nothing is written, nothing logged (a second run of
    the same correction changes nothing). Refused (nothing written) when it would change
    no number: the room already counts that result, and ``finish`` is not given or is the
    order it counts already (:func:`_changes_nothing`). In a published round the
    directors' limit holds: after it only ``chief`` (the chief director, logged as
    overriding it) may (:mod:`duplicate.events.limit`; ``now``: the hall's clock, default
    now)."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        if finish is not None:
            finish = finish_letters(finish)
            try:
                implied = store.result_of_finish(finish, _rules(ev))
            except StoreError as exc:
                raise EventError(exc.phrase or str(exc)) from None
            if ns_result is None:
                ns_result = implied
            elif implied != ns_result:
                raise EventError(phrase(
                    "results.finish_differs", finish=repr(finish),
                    implied=StateText(_ns_text(implied)), given=StateText(_ns_text(ns_result)),
                ))  # fmt: skip
        if ns_result is None:
            raise EventError(phrase("hall.err.correct_needs"))
        check_result(ns_result, _rules(ev), where=phrase(
            "scoring.where_event", event=repr(event), board=board,
            room=phrase(f"hall.room.{room}") if room in ("open", "closed") else f"{room} room"))
        row, old = _room(session, ev, round_no, table, board, room)
        _refuse_decided(session, ev, round_no, table, board, room)
        new = State(
            "played",
            ns_result,
            store.RULING_NOTE,
            old.record_id if old else None,
            old.record_hash if old else None,
            store.canonical_finish(finish),
        )
        if old is not None and old == new and old.finish == new.finish:
            return None
        if _changes_nothing(old, new):
            raise EventError(phrase(
                "results.no_change", round=round_no, table=table, board=board,
                room=Term(room, f"report.room.{room}"), stored=StateText(_describe(old)),
            ))
        author = _author(correction, "")
        _within_limit(session, ev, round_no, table, board, room, author, chief, now)
        store.apply_change(session, row, "ruling", new, author, "", old)
        rnd, _ = _find_match(session, ev, round_no, table)
        set_aside_waiting(session, ev.name, rnd, table, author.by, author.reason, board=board,
                          room=room, at=now)
        return _describe(old)


def _refuse_decided(
    session: Session, ev: models.Event, round_no: int, table: int, board: int, room: str
) -> None:
    """Refuse a director's result or unfinished mark for a board a ruling decided (a
    conceded board, a forfeited match): it is scored from the ruling, so a room result
    there would count for nothing while the log said it counts."""
    for d in _decisions(session, ev):
        if (d.round, d.table) == (round_no, table) and d.board in (None, board):
            raise EventError(phrase(
                "results.decided", round=round_no, table=table, board=board,
                room=Term(room, f"report.room.{room}"),
                decision=phrase(f"events.decided.{d.effect}", team=d.team, board=d.board),
            ))


def _changes_nothing(old: State | None, new: State) -> bool:
    """Whether a director's result would change no number of a room that has one: the
    same N–S result, from no finishing order or from the one the room already counts. Such
    a "correction" would only take the room's order away or call the table's result a
    ruling; it is refused as not a correction (a change of the order alone is one)."""
    if old is None or old.status != "played" or old.ns_result != new.ns_result:
        return False
    return new.finish is None or new.finish == old.finish


_RESULT_RE = re.compile(r"^\s*+(NS|N-S|EW|E-W)\s*+\+?\s*+([1-4])\s*+$", re.IGNORECASE)


def _ns_text(ns_result: int) -> str:
    """``NS +2`` / ``EW +1``: a result as the library writes it."""
    return f"{'NS' if ns_result > 0 else 'EW'} +{abs(ns_result)}"


def parse_result(text: str) -> int:
    """A room result as written in records (``NS +2``, ``EW +1``; or as a Chinese director
    types it, ``南北+2``: :mod:`duplicate.i18n.typed`) to N–S's view (+2, −1)."""
    m = _RESULT_RE.match(result_letters(text))
    if m is None:
        raise EventError(phrase("results.invalid",
                                result=Named(text[:40], cut=len(text) > 40)))
    levels = int(m.group(2))
    return levels if m.group(1).upper().startswith("N") else -levels


def result_log(engine: Engine, event: str, round_no: int | None = None) -> list[dict[str, Any]]:
    """Every change of the event's rooms (or of one round's), oldest first, as it
    happened: where, what (``action``), who (a table, room and seats; or the director by
    name), when, why (the table's own typed reason of a correction), the result before
    and after and the finishing order each was counted from."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        return _changes_of(session, ev, None, round_no)


def _changes_of(
    session: Session, ev: models.Event, actions: Sequence[str] | None,
    round_no: int | None = None,
) -> list[dict[str, Any]]:
    """The store's log of the event's rooms as dicts: every change with the finishing
    orders before and after, or only ``actions`` (the corrections' list, as before)."""
    where = dict(
        (a, b)
        for a, b in session.execute(
            select(models.EventMatch.id, models.EventRound.number)
            .join(models.EventRound, models.EventMatch.round_id == models.EventRound.id)
            .where(models.EventRound.event_id == ev.id)
        )
        if round_no is None or b == round_no
    )
    clauses: list[Any] = [models.RoomResult.match_id.in_(list(where))]
    if actions is not None:
        clauses.append(models.ResultChange.action.in_(list(actions)))
    return [
        {
            "round": where[row.match_id or 0],
            "table": int(row.table_key),
            "board": int(row.board),
            "room": row.room,
            "action": c.action,
            "by": c.by,
            "at": c.at.isoformat(),
            "reason": said(c.reason),
            "before": _describe(c.old),
            "after": _describe(c.new),
            "kind": c.action,
            "before_ns": c.old.ns_result if c.old is not None else None,
            "after_ns": c.new.ns_result,
            **(
                {"finish_before": c.old.finish if c.old else None, "finish_after": c.new.finish}
                if actions is None
                else {}
            ),
        }
        for row, c in store.changes(session, *clauses)
    ]


def list_corrections(engine: Engine, event: str) -> list[dict[str, Any]]:
    """Every correction and ruling of the event, oldest first: who, when, why, what changed
    (the store's log of the event's rooms)."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _corrections(session, _event_row(session, event))


def _corrections(session: Session, ev: models.Event) -> list[dict[str, Any]]:
    """:func:`list_corrections` in the caller's session: the store's corrections and
    rulings, and the hall's rulings that decide a board or a match without a result (a
    board conceded, a match forfeited: :func:`_decided_row`), oldest first."""
    rows = _changes_of(session, ev, ("correction", "ruling"))
    rows += [_decided_row(d) for d in _decisions(session, ev)]
    return sorted(rows, key=lambda c: datetime.fromisoformat(c["at"]))


def _decided_row(d: Decided) -> dict[str, Any]:
    """A conceded board or a forfeited match as a row of the corrections' list: no room
    (it decides both), no result before or after; ``after`` says the decision (English,
    ``decision`` its words' key and ``team`` the team, for a person's language)."""
    key = f"events.decided.{d.effect}"
    return {
        "round": d.round, "table": d.table, "board": d.board, "room": "",
        "action": d.effect, "by": d.by, "at": store.utc(d.at).isoformat(), "reason": said(d.reason),
        "before": "", "after": phrase(key, team=d.team, board=d.board).text("en"),
        "kind": d.effect, "before_ns": None, "after_ns": None,
        "decision": key, "team": d.team,
    }
