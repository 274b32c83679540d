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
* Once the round is **published** (公示) the table changes no result: a correction West
  sends (or one North confirms after publication) becomes a ``requested`` report, a
  request that waits on the desk (``duplicate.hall.requests``: the director accepts or
  dismisses it); the published result counts meanwhile.
* A confirmed report is written to the store with the table as its author (table, room,
  West and North) and the table's own typed reason for a correction
  (``checks.table_author``), at the hall's time.
* A board the director decided by a ruling (conceded, or its match forfeited) takes no
  report: refused (``hall.err.decided``, a conflict) in the transaction that would store
  it, by the database (``duplicate.hall.decided``: the insert is written only if no
  ruling decides the board when it runs, and a ruling waits for the reports already on
  their way).
* At most one live report per board and room, enforced by the database (a unique key on
  (round, table, room, board, live)); two phones racing give one winner, the other gets
  the winner's report (same content) or a conflict, never a second row. Confirming and
  disputing change the state only from ``reported`` (compare-and-set), so a confirmation
  racing a correction either confirms the old report (and the correction then replaces a
  confirmed one) or finds it replaced (conflict): nothing lost, nothing counted twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Select, bindparam, literal, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from duplicate import models
from duplicate.db import session_scope
from duplicate.events.base import _rules
from duplicate.hall.base import Grant, HallError, Report, state_phrase, utc
from duplicate.hall.checks import (
    RoomRead,
    board_of,
    check_record,
    count_report,
    parse_finish,
    table_author,
    where_of,
)
from duplicate.hall.decided import (
    deciding,
    deciding_ruling,
    decision,
    guarded_insert,
    is_postgresql,
    lock_table,
    share_table,
)
from duplicate.hall.rows import (
    check_board,
    event_row,
    hall_round,
    make_clock,
    move_report,
    ready,
    report_moved,
    report_of,
    room_of,
    round_row,
    seating,
    table_rows,
    window_over,
)
from duplicate.hall.status import room_statuses
from duplicate.hall.tokens import GRANT, TokenRows, grant_rows, token_row
from duplicate.hall.views import TableView
from duplicate.i18n import Phrase, phrase
from duplicate.i18n.stored import FinishText, UnfinishedText, coded
from duplicate.limits import TEXT_LIMITS
from duplicate.store.log import (
    NOW_CHANGE,
    NOW_COLUMNS,
    NOW_RECORD,
    NOW_RESULT,
    Now,
    latest_change,
    now_of,
    order_phrase,
    orders_differ,
    retrying,
    room_now,
)

#: Longest inputs accepted from a phone.
MAX_REASON, MAX_NOTE = TEXT_LIMITS["reason"], TEXT_LIMITS["note"]  # duplicate.limits


_h, _e, _r = models.HallReport, models.Event, models.EventRound
#: The live report of a board and room (statements built once: building one costs about
#: as much as running it).
_LIVE = select(_h).where(
    _h.round_id == bindparam("round_id"), _h.table_no == bindparam("table"),
    _h.room == bindparam("room"), _h.board == bindparam("board"), _h.live.is_(True),
)  # fmt: skip
#: A report with its event and round (the report ``None`` when not of that round).
_OWN = (
    select(_e, _r, _h)
    .join(_r, (_r.event_id == _e.id) & (_r.number == bindparam("round_no")))
    .outerjoin(_h, (_h.id == bindparam("report_id")) & (_h.round_id == _r.id))
    .where(_e.name == bindparam("event"))
)


_t, _m, _lv = models.HallToken, models.EventMatch, aliased(models.HallReport)


def _report_read(lock: Any) -> Select[Any]:
    """West's report in one read: the token's row with its table (:data:`tokens.GRANT`),
    the live report of the board (``board``) in the token's room, the ruling that decided
    the board if one did (``decided.deciding``), ``lock`` (on PostgreSQL the table's
    advisory lock taken shared, ``waiting.share_table``; on SQLite nothing), and the room's
    current result in the store (``board_key``: the board as the store names it). With the
    insert and the commit, a report is three round trips."""
    return (
        GRANT.add_columns(_lv, deciding(_t.round_id, _t.table_no, bindparam("board")), lock,
                          *NOW_COLUMNS)
        .outerjoin(
            _lv,
            (_lv.round_id == _t.round_id) & (_lv.table_no == _t.table_no)
            & (_lv.room == _t.room) & (_lv.board == bindparam("board")) & _lv.live.is_(True),
        )
        .outerjoin(NOW_CHANGE,
                   NOW_CHANGE.id == latest_change(_m.id, bindparam("board_key"), _t.room))
        .outerjoin(NOW_RESULT, NOW_RESULT.id == NOW_CHANGE.result_id)
        .outerjoin(NOW_RECORD, NOW_RECORD.id == NOW_CHANGE.record_id)
    )  # fmt: skip


_b, _bs = models.Board, models.BoardSet
#: North's confirmation in one read: the token's row with its table (:data:`tokens.GRANT`),
#: the report (``report_id``; ``None`` when not of the token's round), the board
#: (``board``) of the round's set with its generator, and the room's current result in the
#: store (``board_key``: the board as the store names it). With the report's move, the
#: room's row when new, the change and the commit, a confirmation is five round trips.
_CONFIRM = (
    GRANT.add_columns(
        _h, _bs.generator, _b.number, _b.level, _b.hand_n, _b.hand_e, _b.hand_s, _b.hand_w,
        *NOW_COLUMNS,
    )
    .outerjoin(_h, (_h.id == bindparam("report_id")) & (_h.round_id == _t.round_id))
    .outerjoin(_b, (_b.set_id == _r.board_set_id) & (_b.number == bindparam("board")))
    .outerjoin(_bs, _bs.id == _b.set_id)
    .outerjoin(NOW_CHANGE,
               NOW_CHANGE.id == latest_change(_m.id, bindparam("board_key"), _t.room))
    .outerjoin(NOW_RESULT, NOW_RESULT.id == NOW_CHANGE.result_id)
    .outerjoin(NOW_RECORD, NOW_RECORD.id == NOW_CHANGE.record_id)
)  # fmt: skip


def _room_read(row: Any, m: models.EventMatch | None) -> RoomRead | None:
    """What :data:`_CONFIRM` read of the report's room (``None``: no board found)."""
    if m is None or row[6] is None:
        return None
    board = board_of(row[6], row[7], row[8], (row[9], row[10], row[11], row[12]))
    return RoomRead(m, board, now_of(row[13:]))


#: :func:`_report_read` built once for each database (building a statement costs about
#: as much as running it).
_REPORT = _report_read(literal(None))
_REPORT_PG = _report_read(share_table(_t.round_id, _t.table_no))
#: A new report's columns.
_COLUMNS = (
    "round_id", "table_no", "room", "board", "finish", "unfinished", "ns_result", "record",
    "correction", "state", "live", "rev", "reported_by", "reported_at", "dispute_note",
)  # fmt: skip
#: A new report: one statement that gives its id back (the unit of work's flush of one
#: object cost more than the rest of the report), written only if no ruling decides the
#: board when it runs (``decided.guarded_insert``).
_INSERT = guarded_insert(_h, _COLUMNS)


class _Retry(Exception):
    """A concurrent change got there first: run the transaction again."""


def _validate(
    grant: Grant, finish: str | None, unfinished: str | None, correction: str | None
) -> tuple[str | None, str | None]:
    if grant.role == "record":
        raise HallError(phrase("capture.err.recorder_card"), "forbidden")
    if grant.role != "report":
        raise HallError(phrase("hall.err.confirm_card"), "forbidden")
    if (finish is None) == (unfinished is None):
        raise HallError(phrase("hall.err.report_either"))
    if unfinished is not None:
        unfinished = unfinished.strip()
        if not unfinished or len(unfinished) > MAX_REASON:
            raise HallError(phrase("hall.err.unfinished_reason", most=MAX_REASON))
    if correction is not None:
        correction = correction.strip()
        if not correction or len(correction) > MAX_REASON:
            raise HallError(phrase("hall.err.correction_reason", most=MAX_REASON))
    return unfinished, correction


def west_report(
    engine: Engine,
    grant: Grant | str,
    board: int,
    *,
    finish: str | None = None,
    unfinished: str | None = None,
    record: str | None = None,
    correction: str | None = None,
    now: datetime | None = None,
) -> tuple[Report, bool]:
    """West reports ``board``: ``(report, True)`` when stored, ``(live report, False)``
    when it says what the live one says. See the module's docstring for the refusals.
    ``grant`` may be the table token itself, looked up in the same transaction
    (``grant_for``'s refusals)."""
    at = utc(now)
    ready(engine)
    for attempt in range(3):
        try:
            with session_scope(engine) as session:
                rows: TokenRows | None = None
                found: _Found | None = None
                if isinstance(grant, Grant):
                    g = grant
                else:
                    read = _REPORT_PG if is_postgresql(session) else _REPORT
                    g, rows, row = token_row(
                        session, grant, at, read, board=board, board_key=str(board)
                    )
                    found = (row[5], row[6], now_of(row[8:]))
                return _report_once(
                    session, g, board, finish, unfinished, record, correction, at, rows, found
                )
        except (IntegrityError, _Retry):
            if attempt == 2:
                where = where_of(g, board)
                raise HallError(phrase("hall.err.meanwhile", where=where), "conflict") from None
    raise AssertionError("unreachable")


def _report_once(
    session: Session,
    g: Grant,
    board: int,
    finish: str | None,
    unfinished: str | None,
    record: str | None,
    correction: str | None,
    at: datetime,
    rows: TokenRows | None = None,
    found: _Found | None = None,
) -> tuple[Report, bool]:
    """The report in ``session``; ``rows`` and ``found``: what the token's query read
    already (the table's rows; the live report, the ruling that decided the board and the
    room's stored result; the table's lock taken on PostgreSQL)."""
    unfinished, correction = _validate(g, finish, unfinished, correction)
    where = where_of(g, board)
    if rows is not None and rows[2] is not None:  # the token's query brought them
        ev, rnd, m, hr = rows[0], rows[1], rows[2], rows[3]
    else:
        ev, rnd, m, hr = table_rows(session, g.event, g.round_no, g.table)
        found = None
    check_board(ev, rnd, board)
    closed = hr is not None and hr.closed_at is not None
    published = hr is not None and hr.published_at is not None
    if window_over(hr, at):
        raise HallError(phrase("hall.err.window_over", where=where), "closed")
    if found is None:  # a grant given: the table's lock, then what the token's query reads
        lock_table(session, rnd.id, g.table, shared=True)
        decided = deciding_ruling(session, rnd.id, g.table, board)
    else:
        decided = found[1]
    if decided is not None:
        raise _decided(session, decided, where)
    ns: int | None = None
    if finish is not None:
        finish, preview = parse_finish(finish, _rules(ev))
        ns = preview.ns_result
    if record is not None:
        s = room_of(*seating(session, m), g.room)[2]
        check_record(session, ev, rnd, g, board, (s.north, s.east, s.south, s.west), record, ns)
    if found is not None:
        live, _, stored = found
    else:
        live = session.scalar(
            _LIVE, {"round_id": rnd.id, "table": g.table, "room": g.room, "board": board}
        )
        stored = _NOT_READ
    dispute: str | None = None
    if live is not None:
        if (live.finish, live.unfinished, live.record) == (finish, unfinished, record):
            return report_of(live, ev.name, rnd.number), False
        said = (FinishText(live.finish) if live.finish else
                phrase("hall.err.unfinished_because", reason=UnfinishedText(live.unfinished)))
        if closed and correction is None:
            raise HallError(phrase("hall.err.closed_correction", where=where), "closed")
        if live.state in ("settled", "accepted"):
            raise HallError(phrase("hall.err.settled", where=where, said=said), "conflict")
        if correction is None:
            raise HallError(
                phrase("hall.err.already", where=where, said=said,
                       state=state_phrase(live.state)),
                "conflict",
            )
        if not move_report(session, live.id, live.state, state="replaced", live=None):
            raise _Retry
        session.refresh(live)
    elif closed and correction is None:
        raise HallError(phrase("hall.err.closed_nothing", where=where), "closed")
    elif correction is None:
        if stored is _NOT_READ:
            stored = room_now(session, m.id, board, g.room)
        try:
            _check_stored(stored, finish, ns, unfinished, where)
        except HallError:
            captured = None if published else _captured(session, rnd.id, g.table, g.room, board)
            if captured is None:
                raise
            # the record captured at the table counts: the report goes to the director
            dispute = coded("capture.dispute.report", result=captured)
    values = dict(
        round_id=rnd.id, table_no=g.table, room=g.room, board=board, finish=finish,
        unfinished=unfinished, ns_result=ns, record=record, correction=correction,
        state="requested" if published else "disputed" if dispute else "reported", live=True,
        rev=1, reported_by=f"table {g.table} {g.room} West", reported_at=at,
        dispute_note=dispute,
    )  # fmt: skip
    # the unique key on (round, table, room, board, live) refuses a second live report;
    # no row comes back when a ruling decided the board meanwhile (the whole is undone)
    new_id = session.connection().execute(_INSERT, values).scalar()
    if new_id is None:
        decided = deciding_ruling(session, rnd.id, g.table, board)
        if decided is None:  # not to be found any more (the event deleted): read again
            raise _Retry
        raise _decided(session, decided, where)
    row = _h(id=new_id, **values)  # not in the session: only read, for the answer
    return report_of(row, ev.name, rnd.number), True


def _captured(session: Session, round_id: int, table: int, room: str, board: int) -> str | None:
    """The result (``NS +2``) of the record captured at the table that counts for the
    room (``duplicate.capture``), or ``None`` when none does."""
    c = models.CaptureBoard
    found: str | None = session.scalar(select(c.result).where(
        c.round_id == round_id, c.table_no == table, c.room == room, c.board == board,
        c.state == "ended", c.note == models.CAPTURE_COUNTED))
    return found


def _decided(session: Session, ruling: int, where: Phrase) -> HallError:
    """The refusal of a report of a board that ruling ``ruling`` decided."""
    said = decision(session, ruling).said()
    return HallError(phrase("hall.err.decided", where=where, decision=said), "conflict")


#: What the token's query read for a report: the live report, the ruling that decided the
#: board (its id, or ``None``), the room's stored result.
_Found = tuple["models.HallReport | None", "int | None", "Now | None"]
#: ``stored`` when the token's query did not read it (a grant given, not a token).
_NOT_READ: Any = object()


def _check_stored(
    now: Now | None,
    finish: str | None,
    ns: int | None,
    unfinished: str | None,
    where: Phrase,
) -> None:
    """A first report of a room whose result came otherwise (a director's ruling, an
    import) must say the same, finishing order included where the stored result has one,
    or be a correction: ``now`` is the room's result."""
    if now is None:
        return
    st = now.state
    if finish is not None and (st.status, st.ns_result) == ("played", ns):
        if orders_differ(st.finish, finish):  # the same result, another player out first
            raise HallError(order_phrase(st, finish, where), "conflict")
        return
    if unfinished is not None and (st.status, st.note) == ("unfinished", unfinished):
        return
    raise HallError(
        phrase("hall.err.stored_differs", where=where, result=st.describe()), "conflict"
    )


def _confirm_card(g: Grant) -> None:
    """Refuse a card that is not North's (the confirm token)."""
    if g.role == "record":
        raise HallError(phrase("capture.err.recorder_card"), "forbidden")
    if g.role != "confirm":
        raise HallError(phrase("hall.err.report_card"), "forbidden")


def _own_report(
    session: Session, g: Grant, board: int, report_id: int
) -> tuple[models.Event, models.EventRound, models.HallReport]:
    """The report ``report_id`` of the grant's table, room and board, with its event and
    round."""
    _confirm_card(g)
    found = session.execute(
        _OWN, {"event": g.event, "round_no": g.round_no, "report_id": report_id}
    ).first()
    if found is None:
        round_row(session, event_row(session, g.event), g.round_no)
        raise AssertionError("unreachable: one of the lookups above raises")  # pragma: no cover
    return found[0], found[1], _mine(g, board, report_id, found[2])


def _mine(
    g: Grant, board: int, report_id: int, row: models.HallReport | None
) -> models.HallReport:
    """``row``, the report ``report_id`` of the grant's round, if it is of the grant's
    table, room and ``board``."""
    if row is None:
        raise HallError(phrase("hall.err.no_report", id=report_id, round=g.round_no), "not_found")
    if (row.table_no, row.room) != (g.table, g.room):
        raise HallError(
            phrase("hall.err.not_your_report", id=report_id, table=g.table,
                   room=phrase(f"hall.room.{g.room}")),
            "forbidden",
        )
    if row.board != board:
        raise HallError(phrase("hall.err.other_board", id=report_id, board=row.board, asked=board))
    return row


@retrying
def north_confirm(
    engine: Engine, grant: Grant | str, board: int, report_id: int, now: datetime | None = None
) -> Report:
    """North confirms West's report: it counts (written to the store). Confirming a
    confirmed report again returns it unchanged. ``grant`` may be the table token itself,
    looked up in the same transaction (``grant_for``'s refusals)."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        read: RoomRead | None = None
        if isinstance(grant, str):
            grant, rows, found = token_row(
                session, grant, at, _CONFIRM, report_id=report_id, board=board,
                board_key=str(board),
            )  # fmt: skip
            _confirm_card(grant)
            ev, rnd, hr = rows[0], rows[1], rows[3]
            row = _mine(grant, board, report_id, found[5])
            read = _room_read(found, rows[2])
        else:
            ev, rnd, row = _own_report(session, grant, board, report_id)
            hr = hall_round(session, rnd)
        if row.state == "confirmed":
            return report_of(row, ev.name, rnd.number)
        if row.state != "reported":
            raise HallError(
                phrase("hall.err.cannot_confirm", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        if hr is not None and hr.published_at is not None:
            # published: the table's word is a request on the desk, no longer a result
            if not move_report(session, row.id, "reported", state="requested",
                               confirmed_at=at):
                raise HallError(phrase("hall.err.look_again", id=report_id,
                                       state=state_phrase(row.state)), "conflict")
            session.refresh(row)
            return report_of(row, ev.name, rnd.number)
        if not report_moved(session, row, "reported", state="confirmed", confirmed_at=at):
            session.refresh(row)  # another phone got there first
            if row.state == "confirmed":
                return report_of(row, ev.name, rnd.number)  # a double tap: confirmed once
            raise HallError(
                phrase("hall.err.look_again", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        count_report(session, ev, rnd, row, table_author(row), at, read)
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
        raise HallError(phrase("hall.err.dispute_note", most=MAX_NOTE))
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _own_report(session, grant, board, report_id)
        if row.state == "disputed" and row.dispute_note == note:
            return report_of(row, ev.name, rnd.number)
        if row.state != "reported":
            raise HallError(
                phrase("hall.err.cannot_dispute", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        moved = move_report(session, row.id, "reported", state="disputed", dispute_note=note)
        session.refresh(row)
        if not moved:  # another phone got there first
            if (row.state, row.dispute_note) == ("disputed", note):
                return report_of(row, ev.name, rnd.number)
            raise HallError(
                phrase("hall.err.look_again", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        return report_of(row, ev.name, rnd.number)


def table_view(engine: Engine, grant: Grant | str, now: datetime | None = None) -> TableView:
    """What a token's holder sees: its table and room, the seating, every board's state
    (with the live report and the result that counts) and the round's clock. ``grant``
    may be the table token itself, looked up in the same transaction (``grant_for``'s
    refusals)."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        found: TokenRows | None = None
        if isinstance(grant, str):
            grant, found = grant_rows(session, grant, at)
        if found is not None and found[2] is not None:  # the token's query brought them
            ev, rnd, m, hr = found[0], found[1], found[2], found[3]
        else:
            ev, rnd, m, hr = table_rows(session, grant.event, grant.round_no, grant.table)
        x, y, open_, closed = seating(session, m)
        ns, ew, seats = room_of(x, y, open_, closed, grant.room)
        boards = room_statuses(session, ev, rnd, [m], (grant.room,))[0].boards
        clock = make_clock(ev.name, rnd.number, hr, at)
        return TableView(grant, ns, ew, seats, boards, clock)
