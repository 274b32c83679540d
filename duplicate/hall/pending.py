"""The director and a report that waits for North (before the round is published).

A report West sent and North has neither confirmed nor disputed blocks the round's close.
The director can settle it from the desk:

* ``director_confirm``: it counts, as if North had confirmed it (written to the store
  through the same path, :func:`duplicate.hall.checks.count_report`), with the director as
  its author and the director's reason in the store's log;
* ``director_dismiss``: it does not count; it leaves the board (state ``replaced``, no
  longer live, with who dismissed it, when and why), so the table may report the board
  again and the round may close once the board has a result that counts.

A disputed report is settled with :func:`duplicate.hall.settle_dispute`; it may also be
dismissed. Both are compare-and-set on the report's state (a phone confirming at the same
moment wins or loses as a whole: nothing counted twice) and are in the event's admin log.
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
from duplicate.i18n.stored import coded, stored


def _report(
    session: Session, event: str, report_id: int
) -> tuple[models.Event, models.EventRound, models.HallReport]:
    return event_report(session, event, report_id)


def pending_reports(engine: Engine, event: str, round_no: int | None = None) -> list[Report]:
    """The reports that wait for North (state ``reported``), oldest first."""
    return reports_in(engine, event, "reported", round_no)


def director_confirm(
    engine: Engine, event: str, report_id: int, by: str, reason: str,
    now: datetime | None = None, *, chief: bool = False,
) -> Report:
    """The director confirms a report that waits for North: it counts (the store's log
    says who and why). Confirming a confirmed report again returns it unchanged. In a
    published round the directors' limit holds (``chief``: :mod:`duplicate.events.limit`)."""
    at = utc(now)
    by, reason = who(by, reason, "confirming a report")
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _report(session, event, report_id)
        if row.state == "confirmed":
            return report_of(row, ev.name, rnd.number)
        if row.state != "reported":
            raise HallError(
                phrase("hall.err.cannot_confirm", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        within_limit(session, ev, rnd, by, reason,
                     str(where_phrase(rnd.number, row.table_no, row.board, row.room)),
                     chief=chief, now=at)
        if not move_report(session, row.id, "reported", state="confirmed", confirmed_at=at,
                           settled_by=by, settled_at=at, settled_reason=reason):
            raise HallError(phrase("hall.err.changed_meanwhile", id=report_id), "conflict")
        session.refresh(row)
        count_report(session, ev, rnd, row, store.Author(by, reason, correction=row.correction is not None), at)
        where = where_phrase(rnd.number, row.table_no, row.board, row.room)
        log(session, "hall confirm", by, reason, coded("lw.detail.confirmed", where=stored(where)),
            ev.name)
        return report_of(row, ev.name, rnd.number)


def director_dismiss(
    engine: Engine, event: str, report_id: int, by: str, reason: str,
    now: datetime | None = None,
) -> Report:
    """The director dismisses a report that waits for North (or a disputed one): it does
    not count and the board is free for a new report. Logged with who and why."""
    at = utc(now)
    by, reason = who(by, reason, "dismissing a report")
    ready(engine)
    with session_scope(engine) as session:
        ev, rnd, row = _report(session, event, report_id)
        if row.state not in ("reported", "disputed"):
            raise HallError(
                phrase("hall.act.cannot_dismiss", id=report_id, state=state_phrase(row.state)),
                "conflict",
            )
        if not move_report(session, row.id, row.state, state="replaced", live=None,
                           settled_by=by, settled_at=at, settled_reason=reason):
            raise HallError(phrase("hall.err.changed_meanwhile", id=report_id), "conflict")
        session.refresh(row)
        where = where_phrase(rnd.number, row.table_no, row.board, row.room)
        log(session, "hall dismiss", by, reason, coded("lw.detail.dismissed", where=stored(where)),
            ev.name)
        return report_of(row, ev.name, rnd.number)

