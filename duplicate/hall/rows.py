"""The hall's lookups inside a transaction: the event, round, match and clock rows, the
seating of a match, a report as plain data, and the log entry of a director's action.

Unknown names and numbers raise ``HallError(kind="not_found")`` here, so the modules
above never pass a library ``EventError`` for them on to the web layer. Seating is read
with a few narrow queries (the four pairs of one match), not the whole field: a phone's
request must stay cheap in a hall of 200 tables.
"""

from __future__ import annotations

import threading
import weakref
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, bindparam, select, update
from sqlalchemy.orm import Session, aliased
from sqlalchemy.orm.attributes import set_committed_value

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import EventError, _round_boards
from duplicate.events.limit import DirectorLimitError, check_limit
from duplicate.events.log import checked, log_change, what_words
from duplicate.hall.base import Clock, HallError, Report, Seat4, utc, utc_or_none
from duplicate.i18n import Named, phrase
from duplicate.limits import shown

#: The round clock's defaults (seeds/004 rule 3, seeds/000 更正).
DEFAULT_MINUTES, DEFAULT_WARNING, DEFAULT_CORRECTION = 50, 5, 10


_READY: weakref.WeakSet[Engine] = weakref.WeakSet()
_READY_LOCK = threading.Lock()


def ready(engine: Engine) -> None:
    """``db.check_schema`` once per engine (a process's engine stays on one database):
    reading the migration scripts costs tens of milliseconds, too much for every request
    of a phone. A database migrated away under a running service is not supported."""
    if engine in _READY:
        return
    check_schema(engine)
    with _READY_LOCK:
        _READY.add(engine)


def event_row(session: Session, name: str) -> models.Event:
    """The event named ``name``."""
    row = session.scalar(select(models.Event).where(models.Event.name == name))
    if row is None:
        raise HallError(phrase("admin.no_event", event=shown(name)), "not_found")
    return row


def round_row(session: Session, ev: models.Event, number: int) -> models.EventRound:
    """Round ``number`` of the event."""
    row = session.scalar(
        select(models.EventRound).where(
            models.EventRound.event_id == ev.id, models.EventRound.number == number
        )
    )
    if row is None:
        raise HallError(phrase("lw.err.no_round", event=Named(ev.name), round=number),
                        "not_found")
    return row


def match_row(
    session: Session, ev: models.Event, rnd: models.EventRound, table: int
) -> models.EventMatch:
    """The match at ``table`` in the round."""
    m = session.scalar(
        select(models.EventMatch).where(
            models.EventMatch.round_id == rnd.id, models.EventMatch.table_no == table
        )
    )
    if m is None:
        raise HallError(phrase("lw.err.no_table", event=Named(ev.name), round=rnd.number,
                               table=table), "not_found")
    return m


_ev, _rnd, _m, _hr = models.Event, models.EventRound, models.EventMatch, models.HallRound
#: :func:`table_rows`' statement, built once (building one costs about as much as running it).
_TABLE_ROWS = (
    select(_ev, _rnd, _m, _hr)
    .join(_rnd, (_rnd.event_id == _ev.id) & (_rnd.number == bindparam("round_no")))
    .join(_m, (_m.round_id == _rnd.id) & (_m.table_no == bindparam("table")))
    .outerjoin(_hr, _hr.round_id == _rnd.id)
    .where(_ev.name == bindparam("event"))
)


def table_rows(
    session: Session, event: str, round_no: int, table: int
) -> tuple[models.Event, models.EventRound, models.EventMatch, models.HallRound | None]:
    """:func:`event_row`, :func:`round_row`, :func:`match_row` and :func:`hall_round` in one
    query (a phone's request is a handful of statements; each costs a round trip). When
    one is missing, the separate lookups name which."""
    row = session.execute(
        _TABLE_ROWS, {"event": event, "round_no": round_no, "table": table}
    ).first()
    if row is None:
        e = event_row(session, event)
        match_row(session, e, round_row(session, e, round_no), table)
        raise AssertionError("unreachable: one of the lookups above raises")  # pragma: no cover
    return row[0], row[1], row[2], row[3]


def matches(session: Session, rnd: models.EventRound) -> list[models.EventMatch]:
    """The round's matches in table order."""
    return list(
        session.scalars(
            select(models.EventMatch)
            .where(models.EventMatch.round_id == rnd.id)
            .order_by(models.EventMatch.table_no)
        )
    )


def boards_of(ev: models.Event, rnd: models.EventRound) -> tuple[int, ...]:
    """The board numbers the round plays (empty before boards are assigned)."""
    return _round_boards(ev, rnd)


def check_board(ev: models.Event, rnd: models.EventRound, board: int) -> None:
    """Refuse a board the round does not play (not_found), or a round without boards."""
    boards = boards_of(ev, rnd)
    if not boards:
        raise HallError(phrase("events.err.no_boards", event=repr(ev.name), round=rnd.number))
    if board not in boards:
        raise HallError(
            phrase("events.err.not_round_board", round=rnd.number, first=boards[0],
                   last=boards[-1], board=board),
            "not_found",
        )


def check_room(room: str) -> None:
    """Refuse a room that is not ``open`` or ``closed``."""
    if room not in ("open", "closed"):
        raise HallError(phrase("results.room", room=repr(room)))


def hall_round(
    session: Session, rnd: models.EventRound, *, lock: bool = False
) -> models.HallRound | None:
    """The round's clock row (``None``: not started); ``lock`` takes it FOR UPDATE."""
    query = select(models.HallRound).where(models.HallRound.round_id == rnd.id)
    if lock:
        query = query.with_for_update()
    return session.scalar(query)


def correction_until(hr: models.HallRound | None) -> datetime | None:
    """When the round's correction window ends (``None`` while the round is not closed)."""
    if hr is None or hr.closed_at is None:
        return None
    return utc(hr.closed_at) + timedelta(minutes=hr.correction_minutes)


def window_over(hr: models.HallRound | None, now: datetime) -> bool:
    """Whether the round is closed and its correction window is over."""
    until = correction_until(hr)
    return until is not None and now > until


def make_clock(event: str, number: int, hr: models.HallRound | None, now: datetime) -> Clock:
    """The round's clock at ``now``."""
    if hr is None:
        return Clock(
            event, number, "not_started", None, None, None, None, None, None, None,
            DEFAULT_MINUTES, DEFAULT_WARNING, DEFAULT_CORRECTION,
        )  # fmt: skip
    started = utc(hr.started_at)
    ends = started + timedelta(minutes=hr.minutes, seconds=hr.shift_seconds or 0)
    closed, published = utc_or_none(hr.closed_at), utc_or_none(hr.published_at)
    paused = utc_or_none(hr.paused_at)
    if paused is not None and closed is None:  # the end moves on while the clock is paused
        ends += max(now - paused, timedelta(0))
    warning = ends - timedelta(minutes=hr.warning_minutes)
    if published is not None:
        phase = "published"
    elif closed is not None:
        phase = "closed"
    elif now >= ends:
        phase = "over"
    elif now >= warning:
        phase = "warning"
    else:
        phase = "running"
    left = max(0, int((ends - now).total_seconds()))
    return Clock(
        event, number, phase, started, ends, warning, closed, published,
        correction_until(hr), left, hr.minutes, hr.warning_minutes, hr.correction_minutes,
        paused if closed is None else None, hr.shift_seconds or 0,
    )  # fmt: skip


def team_names(session: Session, ids: list[int]) -> dict[int, str]:
    """Team names by id."""
    rows = session.execute(
        select(models.EventTeam.id, models.EventTeam.name).where(models.EventTeam.id.in_(ids))
    )
    return {a: b for a, b in rows}


_p, _p1, _p2, _tm = (models.EventPair, aliased(models.EventPlayer), aliased(models.EventPlayer),
                     models.EventTeam)
#: The pairs of a match with their players' and team's names, in one statement built once.
_SEATING = (
    select(_p.id, _p1.name, _p2.name, _tm.id, _tm.name)
    .join(_p1, _p1.id == _p.player_1_id)
    .join(_p2, _p2.id == _p.player_2_id)
    .join(_tm, _tm.id == _p.team_id)
    .where(_p.id.in_(bindparam("pairs", expanding=True)))
)


def seating(session: Session, m: models.EventMatch) -> tuple[str, str, Seat4, Seat4]:
    """Team X, team Y and who sits where in the open and closed rooms (RULES.md §11: open
    room X's pair N–S and Y's pair E–W; closed room Y's other pair N–S, X's other pair E–W;
    a pair's first player sits N or E)."""
    pair_ids = [m.open_ns_pair_id, m.open_ew_pair_id, m.closed_ns_pair_id, m.closed_ew_pair_id]
    pairs: dict[int, tuple[str, str]] = {}
    teams: dict[int, str] = {}
    for pair, first, second, team, name in session.execute(_SEATING, {"pairs": pair_ids}):
        pairs[pair] = (first, second)
        teams[team] = name
    if m.team_x_id not in teams or m.team_y_id not in teams:  # a team none of whose pairs plays
        teams.update(team_names(session, [m.team_x_id, m.team_y_id]))

    def room(ns: int, ew: int) -> Seat4:
        (n, s), (e, w) = pairs[ns], pairs[ew]
        return Seat4(n, e, s, w)

    return (
        teams[m.team_x_id],
        teams[m.team_y_id],
        room(m.open_ns_pair_id, m.open_ew_pair_id),
        room(m.closed_ns_pair_id, m.closed_ew_pair_id),
    )


def room_of(
    team_x: str, team_y: str, open_: Seat4, closed: Seat4, room: str
) -> tuple[str, str, Seat4]:
    """The N–S team, the E–W team and the seats of one room."""
    if room == "open":
        return team_x, team_y, open_
    return team_y, team_x, closed


def report_of(row: models.HallReport, event: str, round_no: int) -> Report:
    """A stored report as plain data."""
    return Report(
        id=row.id,
        event=event,
        round_no=round_no,
        table=row.table_no,
        room=row.room,
        board=row.board,
        finish=row.finish,
        unfinished=row.unfinished,
        ns_result=row.ns_result,
        has_record=row.record is not None,
        state=row.state,
        reported_by=row.reported_by,
        reported_at=utc(row.reported_at),
        confirmed_at=utc_or_none(row.confirmed_at),
        dispute_note=row.dispute_note,
        settled_by=row.settled_by,
        settled_at=utc_or_none(row.settled_at),
        settled_reason=row.settled_reason,
        correction=row.correction,
    )


def who(by: str, reason: str, what: str) -> tuple[str, str]:
    """Who and why of a director's action, stripped (NFC); invalid when either is empty."""
    if not by or not by.strip():
        raise HallError(phrase("events.err.who", what=what_words(what)))
    try:
        change = checked(by, reason, what)
    except EventError as exc:  # missing or too long
        raise HallError(exc.phrase if exc.phrase is not None else str(exc)) from None
    return change.by, change.reason


def log(session: Session, action: str, by: str, reason: str, detail: str, event: str) -> None:
    """An entry of the event's admin log (``duplicate.events.admin_log``)."""
    change = checked(by, reason, action)
    log_change(session, action, change, detail, event=event)


def within_limit(
    session: Session, ev: models.Event, rnd: models.EventRound, by: str, reason: str,
    where: str, *, chief: bool, now: datetime | None,
) -> None:
    """The directors' limit on changing a result of a published round
    (:func:`duplicate.events.limit.check_limit`): refused as ``forbidden`` after it, unless
    ``chief`` (the chief director's change, logged as overriding the limit)."""
    try:
        check_limit(session, ev, rnd, by, reason, where, chief=chief, now=now)
    except DirectorLimitError as exc:
        raise HallError(exc.phrase or str(exc), "forbidden") from None


def move_report(session: Session, report_id: int, from_state: str, **values: object) -> bool:
    """Move a report out of ``from_state`` with ``values`` (its revision counted), only if
    it is still in that state: ``False`` when another request changed it first (two phones,
    a confirmation racing a correction: one wins, nothing is applied twice)."""
    h = models.HallReport
    done = session.execute(
        update(h)
        .where(h.id == report_id, h.state == from_state)
        .values(rev=h.rev + 1, **values)
        .execution_options(synchronize_session=False)
    )
    return getattr(done, "rowcount", 1) == 1


#: :func:`report_moved`'s statements, by the columns they set.
_MOVES: dict[tuple[str, ...], Any] = {}


def report_moved(
    session: Session, row: models.HallReport, from_state: str, **values: object
) -> bool:
    """:func:`move_report` of ``row`` in one statement that gives its new revision back,
    which ``row`` then holds with ``values`` (no read again): ``False``, ``row`` unchanged,
    when another request changed the report first."""
    names = tuple(sorted(values))
    statement = _MOVES.get(names)
    if statement is None:  # built once for each set of columns
        h = models.HallReport
        statement = _MOVES[names] = (
            update(h).where(h.id == bindparam("report_id"), h.state == bindparam("from_state"))
            .values(rev=h.rev + 1, **{n: bindparam(n) for n in names}).returning(h.rev)
        )  # fmt: skip
    rev = session.connection().execute(
        statement, {"report_id": row.id, "from_state": from_state, **values}
    ).scalar()
    if rev is None:
        return False
    for name, value in {**values, "rev": rev}.items():
        set_committed_value(row, name, value)
    return True


def reports_in(engine: Engine, event: str, state: str, round_no: int | None = None) -> list[Report]:
    """The event's reports (or one round's) in ``state``, oldest first: the disputes, the
    reports waiting for North, the tables' requests after publication."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        h, r = models.HallReport, models.EventRound
        query = (
            select(h, r.number)
            .join(r, r.id == h.round_id)
            .where(r.event_id == ev.id, h.state == state)
            .order_by(h.id)
        )
        if round_no is not None:
            query = query.where(r.id == round_row(session, ev, round_no).id)
        return [report_of(row, ev.name, n) for row, n in session.execute(query)]


def event_report(
    session: Session, event: str, report_id: int
) -> tuple[models.Event, models.EventRound, models.HallReport]:
    """Report ``report_id`` of ``event`` with the event and its round; a report of another
    event, or none, is not found."""
    ev = event_row(session, event)
    row = session.get(models.HallReport, report_id)
    rnd = session.get(models.EventRound, row.round_id) if row is not None else None
    if row is None or rnd is None or rnd.event_id != ev.id:
        raise HallError(
            phrase("hall.err.event_no_report", event=repr(event), id=report_id), "not_found"
        )
    return ev, rnd, row
