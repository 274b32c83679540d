"""A table's request on the desk: what a table sends once its round is published (公示).

seeds/000 更正: an entry error is corrected by the table within its window after the
round; a published result only by the directors. So after publication West's correction
(or one North confirms then) is stored as a ``requested`` report: it changes no result
and waits for the director, who

* **accepts** it (:func:`accept_request`): the table's order (or unfinished board, or
  record) is counted as a correction by the director, logged in the store with the
  director's name, the director's reason and the table's own typed reason, before and
  after; the report becomes ``accepted``;
* or **dismisses** it (:func:`dismiss_request`): the result stays; the report becomes
  ``dismissed`` (who, when, why kept on it and in the event's admin log).

A report still waiting for North before publication is not a request (the desk confirms
or dismisses it in North's place: ``duplicate.hall.pending``). A change the director makes
after publication is shown on the public pages as a correction
(:mod:`duplicate.hall.outcomes`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.db import session_scope
from duplicate.hall.base import HallError, Report, state_phrase, utc, where_phrase
from duplicate.hall.checks import count_report
from duplicate.hall.rows import (
    event_report,
    log,
    move_report,
    ready,
    report_of,
    reports_in,
    who,
    within_limit,
)
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, decoded, nested, stored, unfinished_code, who_code

#: The state a table's request waits on the desk in.
WAITING = ("requested",)


def table_requests(engine: Engine, event: str, round_no: int | None = None) -> list[Report]:
    """The tables' requests waiting on the desk (state ``requested``), oldest first."""
    return reports_in(engine, event, "requested", round_no)


def _waiting(
    session: Session, event: str, report_id: int
) -> tuple[models.Event, models.EventRound, models.HallReport]:
    ev, rnd, row = event_report(session, event, report_id)
    if row.state not in WAITING:
        raise HallError(
            phrase("hall.err.not_waiting", id=report_id, state=state_phrase(row.state)),
            "conflict",
        )
    return ev, rnd, row


def _accepted_why(reason: str, row: models.HallReport) -> str:
    """Why the accepted request's result counts, as the store keeps it: a coded phrase (the
    director's reason, who at the table asked what, and why), said in each reader's
    language (:mod:`duplicate.i18n.stored`); the director's own words stay as typed."""
    found = decoded(reason)
    given: object = nested(found[0], **found[1]) if found is not None else reason
    said = (row.finish if row.finish is not None
            else nested("lw.said.unfinished_why", why=unfinished_code(row.unfinished)))
    words = {"reason": given, "who": who_code(row.reported_by), "order": said}
    if row.correction:
        return coded("lw.reason.accepted_why", why=row.correction, **words)
    return coded("lw.reason.accepted", **words)


def _request_said(round_no: int, row: models.HallReport) -> str:
    """The log's detail of a table's request decided (a coded phrase, :mod:`duplicate.i18n.stored`):
    where, who reported what, and the table's reason."""
    where = stored(where_phrase(round_no, row.table_no, row.board, row.room))
    said = (row.finish if row.finish is not None
            else nested("lw.said.unfinished_why", why=unfinished_code(row.unfinished)))
    words = {"where": where, "who": who_code(row.reported_by), "said": said}
    if row.correction:
        return coded("lw.detail.request_why", why=row.correction, **words)
    return coded("lw.detail.request", **words)


def accept_request(
    engine: Engine, event: str, report_id: int, by: str, reason: str,
    now: datetime | None = None, *, chief: bool = False,
) -> Report:
    """The director accepts a table's request: it counts, as the director's correction
    (see the module). Refused (conflict) unless the report is ``requested``; the result it
    replaces is in the store's log. After the directors' limit only as the chief director
    (``chief``: :mod:`duplicate.events.limit`, logged as overriding it)."""
    by, reason = who(by, reason, "accepting a table's request")
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _waiting(session, event, report_id)
        where = str(where_phrase(rnd.number, row.table_no, row.board, row.room))
        within_limit(session, ev, rnd, by, reason, where, chief=chief, now=at)
        state = row.state
        if not move_report(session, row.id, state, state="accepted", settled_by=by,
                           settled_at=at, settled_reason=reason):
            raise HallError(phrase("hall.err.changed_meanwhile", id=report_id), "conflict")
        session.refresh(row)
        why = _accepted_why(reason, row)
        count_report(session, ev, rnd, row, store.Author(by, why, correction=True), at)
        log(session, "hall accept", by, reason, _request_said(rnd.number, row), ev.name)
        return report_of(row, ev.name, rnd.number)


def dismiss_request(
    engine: Engine, event: str, report_id: int, by: str, reason: str,
    now: datetime | None = None,
) -> Report:
    """The director dismisses a table's request: no result changes; the report is
    ``dismissed`` with who, when and why (and logged)."""
    by, reason = who(by, reason, "dismissing a table's request")
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _waiting(session, event, report_id)
        if not move_report(session, row.id, row.state, state="dismissed", settled_by=by,
                           settled_at=at, settled_reason=reason):
            raise HallError(phrase("hall.err.changed_meanwhile", id=report_id), "conflict")
        session.refresh(row)
        log(session, "hall dismiss", by, reason, _request_said(rnd.number, row), ev.name)
        return report_of(row, ev.name, rnd.number)
