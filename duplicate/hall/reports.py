"""Reports from the table: West reports, North confirms or disputes.

West's phone (a ``report`` token) sends, per board, the finishing order (``"N S E"``: who
went out 1st, 2nd, 3rd; ``"N S"`` for a double down) or ``unfinished`` with a reason, and
optionally the ``.gdn`` play record. The report is stored (``hall_reports``) with the
result it implies (``store.result_of_finish`` under the event's rules, RULES.md §7), but it
does not count yet. North's phone (a ``confirm`` token) confirms it, and only then is it
written to the store, in the same transaction, through the library's own paths (a result
reported from the table, an unfinished board, or the record imported as ``guandan event
import`` does), with Author ``table T room North``; or North disputes it and the director
settles it (``duplicate.hall.director``).

* The same report again (a double tap, a retry) returns the live one: ``(report, False)``.
* A different report while one is live is a ``conflict``, unless it is a ``correction``
  (its reason) and the round is not closed or its correction window is open: the live one
  becomes ``replaced`` and the new one waits for North again (the old result counts
  meanwhile). A report the director settled is his: the table cannot replace it.
* At most one live report per board and room, enforced by the database (a unique key on
  (round, table, room, board, live)); two phones racing give one winner, the other gets
  the winner's report (same content) or a conflict, never a second row. Confirming and
  disputing change the state only from ``reported`` (compare-and-set), so a confirmation
  racing a correction either confirms the old report (and the correction then replaces a
  confirmed one) or finds it replaced (conflict): nothing lost, nothing counted twice.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.db import session_scope
from duplicate.errors import DuplicateError
from duplicate.events.base import _current, _round_board_set, _rules
from duplicate.events.imports import _Importer, prepare_text
from duplicate.events.results import _room
from duplicate.hall.base import Grant, HallError, Preview, Report, TableView, utc
from duplicate.hall.rows import (
    check_board,
    event_row,
    hall_round,
    make_clock,
    match_row,
    ready,
    report_of,
    room_of,
    round_row,
    seating,
    window_over,
)
from duplicate.hall.status import room_statuses
from duplicate.records import Correction
from engine.ruleset import Ruleset
from engine.seat import Seat

#: Longest inputs accepted from a phone.
MAX_REASON, MAX_NOTE, MAX_RECORD = 200, 1000, 256 * 1024


class _Retry(Exception):
    """A concurrent change got there first: run the transaction again."""


def parse_finish(finish: str, rules: Ruleset) -> tuple[str, Preview]:
    """A finishing order in canonical form (``"N S E"``, ``"N S"`` for a double down) and
    the result it implies; invalid on a bad order."""
    if not isinstance(finish, str) or len(finish) > 40:
        raise HallError("invalid finishing order: expected seats like 'N S E'")
    names = finish.replace(",", " ").upper().split()
    try:
        seats = [Seat[n] for n in names]
        ns = store.result_of_finish(seats, rules)
    except KeyError:
        raise HallError(f"invalid finishing order {finish!r}: expected seats N E S W") from None
    except store.StoreError as exc:
        raise HallError(str(exc)) from None
    double = seats[1] == seats[0].partner
    text = " ".join(s.name for s in (seats[:2] if double else seats[:3]))
    return text, Preview(ns, "NS" if ns > 0 else "EW", abs(ns), double)


def preview_finish(engine: Engine, event: str, finish: str) -> Preview:
    """The result ``finish`` implies under the event's rules (side, levels, double down)."""
    ready(engine)
    with session_scope(engine) as session:
        return parse_finish(finish, _rules(event_row(session, event)))[1]


def _where(g: Grant, board: int) -> str:
    return f"round {g.round_no}, table {g.table}, board {board}, {g.room} room"


def _check_record(
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
    where = _where(g, board)
    if len(text) > MAX_RECORD:
        raise HallError(f"{where}: the record is over {MAX_RECORD // 1024} KiB")
    try:
        recs = prepare_text(text, "report.gdn", _rules(ev))
    except (DuplicateError, ValueError) as exc:  # EventError, GdnError, GuandanError
        raise HallError(f"{where}: {exc}") from None
    if len(recs) != 1:
        raise HallError(f"{where}: send one record of this board and room, not {len(recs)}")
    rec = recs[0]
    tags = {k: v.strip() for k, v in rec.tags.items()}
    expected = {"Board": str(board), "Room": g.room, "Round": str(g.round_no)}
    for tag, want in expected.items():
        got = tags.get(tag)
        if got is not None and got.lower() != want.lower():
            raise HallError(f"{where}: the record's {tag} tag is {got!r}, not {want!r}")
    for tag, want in zip(("North", "East", "South", "West"), seats, strict=True):
        if tags.get(tag) != want:
            raise HallError(f"{where}: the record seats {tags.get(tag)!r} at {tag}, not {want!r}")
    b = _round_board_set(session, ev, rnd)[board]
    if (rec.hands, rec.level, rec.leader) != (b.hands, b.level, int(b.leader)):
        raise HallError(f"{where}: the record's hands are not board {board} of the round")
    if rec.ns_result != ns:
        said = "unfinished" if rec.ns_result is None else f"N–S {rec.ns_result:+d}"
        meant = "unfinished" if ns is None else f"N–S {ns:+d}"
        raise HallError(f"{where}: the record says {said}, the report {meant}")


def _validate(
    grant: Grant, finish: str | None, unfinished: str | None, correction: str | None
) -> tuple[str | None, str | None]:
    if grant.role != "report":
        raise HallError("this card confirms; West's card reports", "forbidden")
    if (finish is None) == (unfinished is None):
        raise HallError("report either the finishing order or 'unfinished' with its reason")
    if unfinished is not None:
        unfinished = unfinished.strip()
        if not unfinished or len(unfinished) > MAX_REASON:
            raise HallError(
                f"an unfinished board needs its reason (at most {MAX_REASON} characters)"
            )
    if correction is not None:
        correction = correction.strip()
        if not correction or len(correction) > MAX_REASON:
            raise HallError(f"a correction needs its reason (at most {MAX_REASON} characters)")
    return unfinished, correction


def west_report(
    engine: Engine,
    grant: Grant,
    board: int,
    *,
    finish: str | None = None,
    unfinished: str | None = None,
    record: str | None = None,
    correction: str | None = None,
    now: datetime | None = None,
) -> tuple[Report, bool]:
    """West reports ``board``: ``(report, True)`` when stored, ``(live report, False)``
    when it says what the live one says. See the module's docstring for the refusals."""
    unfinished, correction = _validate(grant, finish, unfinished, correction)
    at = utc(now)
    ready(engine)
    for attempt in range(3):
        try:
            return _report_once(engine, grant, board, finish, unfinished, record, correction, at)
        except (IntegrityError, _Retry):
            if attempt == 2:
                raise HallError(
                    f"{_where(grant, board)}: reported meanwhile; try again", "conflict"
                ) from None
    raise AssertionError("unreachable")


def _report_once(
    engine: Engine,
    g: Grant,
    board: int,
    finish: str | None,
    unfinished: str | None,
    record: str | None,
    correction: str | None,
    at: datetime,
) -> tuple[Report, bool]:
    where = _where(g, board)
    with session_scope(engine) as session:
        ev = event_row(session, g.event)
        rnd = round_row(session, ev, g.round_no)
        m = match_row(session, ev, rnd, g.table)
        check_board(ev, rnd, board)
        hr = hall_round(session, rnd)
        closed = hr is not None and hr.closed_at is not None
        if window_over(hr, at):
            raise HallError(f"{where}: the round's correction window is over", "closed")
        ns: int | None = None
        if finish is not None:
            finish, preview = parse_finish(finish, _rules(ev))
            ns = preview.ns_result
        if record is not None:
            s = room_of(*seating(session, m), g.room)[2]
            _check_record(
                session, ev, rnd, g, board, (s.north, s.east, s.south, s.west), record, ns
            )
        h = models.HallReport
        live = session.scalar(
            select(h).where(
                h.round_id == rnd.id, h.table_no == g.table, h.room == g.room,
                h.board == board, h.live.is_(True),
            )
        )  # fmt: skip
        if live is not None:
            if (live.finish, live.unfinished, live.record) == (finish, unfinished, record):
                return report_of(live, ev.name, rnd.number), False
            said = live.finish or f"unfinished ({live.unfinished})"
            if closed and correction is None:
                raise HallError(
                    f"{where}: the round is closed; a change now is a correction (its reason)",
                    "closed",
                )
            if live.state == "settled":
                raise HallError(
                    f"{where}: the director settled this board ({said}): ask the director",
                    "conflict",
                )
            if correction is None:
                raise HallError(
                    f"{where}: West already reported {said} ({live.state}); a different report "
                    f"is a correction (give its reason)",
                    "conflict",
                )
            done = session.execute(
                update(h)
                .where(h.id == live.id, h.state == live.state)
                .values(state="replaced", live=None, rev=h.rev + 1)
            )
            if getattr(done, "rowcount", 1) != 1:
                raise _Retry
        elif closed and correction is None:
            raise HallError(f"{where}: the round is closed; nothing was reported here", "closed")
        elif correction is None:
            _check_stored(session, m, board, g.room, finish, ns, unfinished, where)
        row = h(
            round_id=rnd.id, table_no=g.table, room=g.room, board=board, finish=finish,
            unfinished=unfinished, ns_result=ns, record=record, correction=correction,
            state="reported", live=True, rev=1, reported_by=f"table {g.table} {g.room} West",
            reported_at=at,
        )  # fmt: skip
        session.add(row)
        session.flush()
        return report_of(row, ev.name, rnd.number), True


def _check_stored(
    session: Session,
    m: models.EventMatch,
    board: int,
    room: str,
    finish: str | None,
    ns: int | None,
    unfinished: str | None,
    where: str,
) -> None:
    """A first report of a room whose result came otherwise (a director's ruling, an
    import) must say the same, or be a correction."""
    now = _current(session, [m.id]).get((m.id, board, room))
    if now is None:
        return
    st = now.state
    if finish is not None and (st.status, st.ns_result) == ("played", ns):
        return
    if unfinished is not None and (st.status, st.note) == ("unfinished", unfinished):
        return
    raise HallError(
        f"{where}: the result stored is {st.describe()}: a different report is a correction "
        f"(give its reason)",
        "conflict",
    )


def _own_report(
    session: Session, g: Grant, board: int, report_id: int
) -> tuple[models.Event, models.EventRound, models.HallReport]:
    if g.role != "confirm":
        raise HallError("this card reports; North's card confirms", "forbidden")
    ev = event_row(session, g.event)
    rnd = round_row(session, ev, g.round_no)
    row = session.get(models.HallReport, report_id)
    if row is None or row.round_id != rnd.id:
        raise HallError(f"no report {report_id} in round {g.round_no}", "not_found")
    if (row.table_no, row.room) != (g.table, g.room):
        raise HallError(f"report {report_id} is not of table {g.table}, {g.room} room", "forbidden")
    if row.board != board:
        raise HallError(f"report {report_id} is of board {row.board}, not board {board}")
    return ev, rnd, row


def count_report(
    session: Session,
    ev: models.Event,
    rnd: models.EventRound,
    row: models.HallReport,
    by: str,
    reason: str,
) -> None:
    """Write a confirmed report to the store (the caller's transaction): the record
    imported, or the finishing order reported, or the board marked unfinished. A report
    that is a correction replaces a different stored result; otherwise a different result
    already stored is a conflict."""
    where = f"round {rnd.number}, table {row.table_no}, board {row.board}, {row.room} room"
    fix = Correction(row.correction, by) if row.correction else None
    try:
        if row.record is not None:
            rec = prepare_text(row.record, "report.gdn", _rules(ev))[0]
            rec = dataclasses.replace(rec, where=f"{where}: West's report, {reason}")
            imp = _Importer(session, ev, fix, by)
            imp.add(rec, rnd.number)
            imp.flush()
            return
        result_id, old = _room(session, ev, rnd.number, row.table_no, row.board, row.room)
        author = store.Author(by, reason, correction=fix is not None)
        if row.finish is not None:
            new = store.State("played", row.ns_result, None, None, None, row.finish)
            action = "report"
        else:
            new = store.State("unfinished", None, row.unfinished)
            action = "unfinished"
        if old is not None and (old.status, old.ns_result) == (new.status, new.ns_result):
            if new.status == "played" or old.note == new.note:
                return  # the same result counts already (a ruling, a record): keep it
        store.apply_change(session, result_id, action, new, author, where, old)
    except (DuplicateError, ValueError) as exc:  # EventError, StoreError, RecordImportError
        raise HallError(str(exc), "conflict") from None


def north_confirm(
    engine: Engine, grant: Grant, board: int, report_id: int, now: datetime | None = None
) -> Report:
    """North confirms West's report: it counts (written to the store). Confirming a
    confirmed report again returns it unchanged."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _own_report(session, grant, board, report_id)
        if row.state == "confirmed":
            return report_of(row, ev.name, rnd.number)
        if row.state != "reported":
            raise HallError(
                f"report {report_id} is {row.state}: it cannot be confirmed", "conflict"
            )
        h = models.HallReport
        done = session.execute(
            update(h)
            .where(h.id == row.id, h.state == "reported")
            .values(state="confirmed", confirmed_at=at, rev=h.rev + 1)
            .execution_options(synchronize_session=False)
        )
        session.refresh(row)
        if getattr(done, "rowcount", 1) != 1:  # another phone got there first
            if row.state == "confirmed":
                return report_of(row, ev.name, rnd.number)  # a double tap: confirmed once
            raise HallError(f"report {report_id} is {row.state} now: look again", "conflict")
        by = f"table {grant.table} {grant.room} North"
        count_report(session, ev, rnd, row, by, "confirmed West's report")
        return report_of(row, ev.name, rnd.number)


def north_dispute(
    engine: Engine,
    grant: Grant,
    board: int,
    report_id: int,
    note: str,
    now: datetime | None = None,
) -> Report:
    """North disputes West's report (``note``: what North says): it goes to the director.
    The same dispute again returns it unchanged."""
    note = (note or "").strip()
    if not note or len(note) > MAX_NOTE:
        raise HallError(f"a dispute needs a note (at most {MAX_NOTE} characters)")
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _own_report(session, grant, board, report_id)
        if row.state == "disputed" and row.dispute_note == note:
            return report_of(row, ev.name, rnd.number)
        if row.state != "reported":
            raise HallError(f"report {report_id} is {row.state}: it cannot be disputed", "conflict")
        h = models.HallReport
        done = session.execute(
            update(h)
            .where(h.id == row.id, h.state == "reported")
            .values(state="disputed", dispute_note=note, rev=h.rev + 1)
            .execution_options(synchronize_session=False)
        )
        session.refresh(row)
        if getattr(done, "rowcount", 1) != 1:  # another phone got there first
            if (row.state, row.dispute_note) == ("disputed", note):
                return report_of(row, ev.name, rnd.number)
            raise HallError(f"report {report_id} is {row.state} now: look again", "conflict")
        return report_of(row, ev.name, rnd.number)


def table_view(engine: Engine, grant: Grant, now: datetime | None = None) -> TableView:
    """What a token's holder sees: its table and room, the seating, every board's state
    (with the live report and the result that counts) and the round's clock."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, grant.event)
        rnd = round_row(session, ev, grant.round_no)
        m = match_row(session, ev, rnd, grant.table)
        x, y, open_, closed = seating(session, m)
        ns, ew, seats = room_of(x, y, open_, closed, grant.room)
        boards = room_statuses(session, ev, rnd, [m], (grant.room,))[0].boards
        clock = make_clock(ev.name, rnd.number, hall_round(session, rnd), at)
        return TableView(grant, ns, ew, seats, boards, clock)
