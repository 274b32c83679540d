"""The director's desk: every table live, disputes settled, the round closed (scored),
published (公示) and corrected.

* ``settle_dispute``: the director decides a disputed report (a finishing order, an N–S
  result or ``unfinished``); the store gets it as a ruling (``store.RULING_NOTE``, who and
  why kept in its log) and the report becomes ``settled``.
* ``close_round``: refused (invalid, naming the first) while a board of a room has no
  result that counts (conceded boards and forfeited matches need none) or a report waits
  for North or the director; else the round is scored (``duplicate.events`` scoring, in
  the same transaction) and closed; the correction window starts.
* ``publish_round`` needs the round closed; results of an unpublished round are
  provisional on the public pages.
* ``director_correct``: a room's result (an N–S result or a finishing order) set at any
  time (``events.correct_result``: a ruling with who, when, why). After publication it
  is shown on the public pages as a correction (``duplicate.hall.outcomes``).
* A table's change after publication is a request on the desk: ``duplicate.hall.requests``.

Every action here is in the event's admin log as well (``events.admin_log``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine, select

from duplicate import models, store
from duplicate.db import session_scope
from duplicate.errors import DuplicateError
from duplicate.events import correct_result
from duplicate.events.base import _rules
from duplicate.events.field import _load_field
from duplicate.events.limit import DirectorLimitError
from duplicate.events.results import _room
from duplicate.events.scores import _round_scores
from duplicate.hall.base import (
    Clock,
    HallError,
    Report,
    state_phrase,
    utc,
    where_phrase,
)
from duplicate.hall.checks import parse_finish
from duplicate.hall.clock import arrivals
from duplicate.hall.rows import (
    check_board,
    check_room,
    event_report,
    event_row,
    hall_round,
    log,
    make_clock,
    match_row,
    matches,
    move_report,
    ready,
    report_of,
    reports_in,
    round_row,
    who,
    within_limit,
)
from duplicate.hall.rulings import record_ruling, rulings
from duplicate.hall.status import room_statuses
from duplicate.hall.views import (
    RoomStatus,
    Ruling,
)
from duplicate.i18n import phrase
from duplicate.i18n.stored import FinishText, ResultText, coded, nested, stored
from duplicate.records import Correction
from duplicate.scoring import check_result
from duplicate.store import retrying


def round_status(engine: Engine, event: str, round_no: int) -> list[RoomStatus]:
    """Every table and room of the round, board by board (the desk's live view)."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        return room_statuses(session, ev, rnd, matches(session, rnd))


def disputes(engine: Engine, event: str, round_no: int | None = None) -> list[Report]:
    """The open disputes of the event (or of one round), oldest first."""
    return reports_in(engine, event, "disputed", round_no)


@retrying
def settle_dispute(
    engine: Engine,
    event: str,
    report_id: int,
    by: str,
    reason: str,
    *,
    finish: str | None = None,
    ns_result: int | None = None,
    unfinished: str | None = None,
    chief: bool = False,
    now: datetime | None = None,
) -> Report:
    """The director settles a disputed report with a finishing order, an N–S result or an
    unfinished board (exactly one): the store gets it as a ruling; the report is settled.
    In a published round, after the directors' limit only as the chief director
    (``chief``: :mod:`duplicate.events.limit`)."""
    by, reason = who(by, reason, "settling a dispute")
    if sum(v is not None for v in (finish, ns_result, unfinished)) != 1:
        raise HallError(phrase("hall.err.settle_one"))
    if unfinished is not None and not unfinished.strip():
        raise HallError(phrase("hall.err.unfinished_needs_reason"))
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = event_report(session, event, report_id)
        if row.state != "disputed":
            raise HallError(
                phrase("hall.err.not_disputed", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        rules = _rules(ev)
        where = str(where_phrase(rnd.number, row.table_no, row.board, row.room))
        within_limit(session, ev, rnd, by, reason, where, chief=chief, now=at)
        order = None
        if finish is not None:
            order, preview = parse_finish(finish, rules)
            ns_result = preview.ns_result
        if ns_result is not None:
            try:
                check_result(ns_result, rules,
                             where=where_phrase(rnd.number, row.table_no, row.board, row.room))
            except ValueError as exc:
                raise HallError(getattr(exc, "phrase", None) or str(exc)) from None
        result_id, old = _room(session, ev, rnd.number, row.table_no, row.board, row.room)
        if unfinished is not None:
            new = store.State("unfinished", None, unfinished.strip())
        else:
            keep = (old.record_id, old.record_hash) if old is not None else (None, None)
            new = store.State("played", ns_result, store.RULING_NOTE, keep[0], keep[1], order)
        author = store.Author(by, reason, correction=True)
        store.apply_change(session, result_id, "ruling", new, author, where, old, at=at)
        if not move_report(session, row.id, "disputed", state="settled", settled_by=by,
                           settled_at=at, settled_reason=reason):
            raise HallError(phrase("hall.err.changed_meanwhile", id=report_id), "conflict")
        session.refresh(row)
        said = (nested("lw.said.unfinished") if ns_result is None
                else nested("lw.said.ns", ns=f"{ns_result:+d}"))
        if order:
            said = nested("lw.said.finish", said=said, order=order)
        where_said = stored(where_phrase(rnd.number, row.table_no, row.board, row.room))
        log(session, "hall settle", by, reason,
            coded("lw.detail.settled", where=where_said, said=said), ev.name)
        return report_of(row, ev.name, rnd.number)


def close_round(
    engine: Engine, event: str, round_no: int, by: str, now: datetime | None = None
) -> Clock:
    """Close the round: every board of every room counts and no report waits, else
    invalid naming the first that does not; the round is scored and closed, the correction
    window starts. Closing a closed round returns its clock."""
    at = utc(now)
    by, _ = who(by, "close", "closing a round")
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        hr = hall_round(session, rnd, lock=True)
        if hr is None:
            raise HallError(phrase("hall.err.not_started", event=repr(event), round=round_no))
        if hr.closed_at is not None:
            return make_clock(ev.name, round_no, hr, at)
        h = models.HallReport
        waiting = session.scalar(
            select(h)
            .where(h.round_id == rnd.id, h.state.in_(("reported", "disputed")))
            .order_by(h.table_no, h.room.desc(), h.board)
            .limit(1)
        )
        if waiting is not None:
            where = where_phrase(round_no, waiting.table_no, waiting.board, waiting.room)
            key = "north" if waiting.state == "reported" else "director"
            raise HallError(phrase(f"hall.err.close_waits_{key}", where=where))
        _, missing = _round_scores(session, ev, _load_field(session, ev), rnd, strict=False)
        if missing:
            raise HallError(
                phrase("hall.err.close_missing", first=missing[0], more=len(missing) - 1)
                if len(missing) > 1 else phrase("hall.err.close_missing_one", first=missing[0])
            )
        _round_scores(session, ev, _load_field(session, ev), rnd, strict=True)
        rnd.scored_at = at
        hr.closed_at = at
        session.flush()
        log(session, "hall close", by, coded("lw.reason.closed"),
            coded("lw.detail.round", round=round_no), ev.name)
        return make_clock(ev.name, round_no, hr, at)


def publish_round(
    engine: Engine, event: str, round_no: int, by: str, now: datetime | None = None
) -> Clock:
    """Publish (公示) the closed round; publishing again returns its clock."""
    at = utc(now)
    by, _ = who(by, "publish", "publishing a round")
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        hr = hall_round(session, rnd, lock=True)
        if hr is None or hr.closed_at is None:
            raise HallError(phrase("hall.err.not_closed", event=repr(event), round=round_no))
        if hr.published_at is None:
            hr.published_at = at
            session.flush()
            log(session, "hall publish", by, coded("lw.reason.published"),
                coded("lw.detail.round", round=round_no), ev.name)
        return make_clock(ev.name, round_no, hr, at)


def director_correct(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    ns_result: int | None,
    by: str,
    reason: str,
    *,
    finish: str | None = None,
    chief: bool = False,
    now: datetime | None = None,
) -> bool:
    """The director sets a room's result: an N–S result or a finishing order (``finish``,
    the result it implies; both: they must agree). A ruling in the store's log with who,
    when, why and the order it was counted from (none for an N–S result). Any time before
    publication; after it within the directors' limit, or as the chief director
    (``chief``, logged as overriding it: :mod:`duplicate.events.limit`). ``False`` when
    the room already holds this very ruling: nothing written, nothing logged. Refused when
    it changes no number (the room counts that result already, from no order or the same
    one: ``events.correct_result``), nothing logged."""
    by, reason = who(by, reason, "a correction")
    check_room(room)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        match_row(session, ev, rnd, table)
        check_board(ev, rnd, board)
        if finish is not None:
            finish, preview = parse_finish(finish, _rules(ev))
            if ns_result is not None and ns_result != preview.ns_result:
                raise HallError(phrase(
                    "hall.err.finish_result_differ", finish=FinishText(finish),
                    ns=ResultText(ns_result), implied=ResultText(preview.ns_result),
                ))
            ns_result = preview.ns_result
    if ns_result is None:
        raise HallError(phrase("hall.err.correct_needs"))
    try:
        before = correct_result(
            engine, event, round_no, table, board, room, ns_result, Correction(reason, by),
            finish=finish, chief=chief, now=now,
        )
    except DirectorLimitError as exc:  # a published result after the directors' limit
        raise HallError(exc.phrase or str(exc), "forbidden") from None
    except DuplicateError as exc:  # EventError: said in the asker's language
        raise HallError(exc.phrase or str(exc)) from None
    except ValueError as exc:  # a result out of range
        raise HallError(str(exc)) from None
    return before is not None


def late_rulings_due(
    engine: Engine, event: str, round_no: int, now: datetime | None = None
) -> dict[str, str]:
    """The ruling each late team's lateness calls for and the director has not recorded
    yet (seeds/004 rule 3): team -> ``conceded`` (more than 5 minutes: the first board) or
    ``forfeit`` (more than 10: the round). A team ruled to concede the first board that is
    then more than 10 minutes late is due the forfeit still; a forfeited team is due
    nothing more. A bye has no table: nothing is due."""
    ruled: dict[str, set[str]] = {}
    for r in rulings(engine, event, round_no):
        if r.team is not None:
            ruled.setdefault(r.team, set()).add(r.effect)
    due: dict[str, str] = {}
    for a in arrivals(engine, event, round_no, now):
        done = ruled.get(a.team, set())
        if a.table is None or "forfeit" in done:
            continue
        if a.status == "forfeits":
            due[a.team] = "forfeit"
        elif a.status == "concedes" and "conceded" not in done:
            due[a.team] = "conceded"
    return due


def rule_late(
    engine: Engine, event: str, round_no: int, team: str, by: str, now: datetime | None = None,
    *, chief: bool = False, expect: str | None = None,
) -> Ruling:
    """Record the ruling ``team``'s lateness calls for now (:func:`late_rulings_due`):
    the first board conceded, or the round forfeited; its reason stored as a code (said in
    each page's language: ``i18n.stored``). Refused when nothing is due (on time, ruled
    already: a second click does nothing twice). Lateness is the round clock's, never a
    number typed: from the start to the team's check-in, or to ``now`` while it has not
    checked in, and the reason says which (``hall.reason.late_in`` / ``late_out``).
    ``expect``: the ruling the director was shown (``conceded`` or ``forfeit``); refused
    (conflict, nothing recorded) when the clock now calls for the other one."""
    due = late_rulings_due(engine, event, round_no, now).get(team)
    if due is None:
        raise HallError(phrase("hall.act.late_nothing_due", team=team), "conflict")
    if expect is not None and expect != due:
        shown = phrase(f"desk.effect.{expect}") if expect in ("conceded", "forfeit") else expect
        raise HallError(phrase("hall.act.late_other_due", team=team, shown=shown,
                               due=phrase(f"desk.effect.{due}")), "conflict")
    arrival = next(a for a in arrivals(engine, event, round_no, now) if a.team == team)
    assert arrival.table is not None
    key = "hall.reason.late_in" if arrival.checked_in_at is not None else "hall.reason.late_out"
    reason = coded(key, team=team, minutes=f"{arrival.minutes_late:.1f}")
    return record_ruling(engine, event, round_no, arrival.table, "late", due, by, reason,
                         team=team, chief=chief)
