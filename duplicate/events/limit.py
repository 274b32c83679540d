"""The directors' limit on changing a published result (seeds/000 更正).

A table corrects an entry error within its window after the round (``duplicate.hall``);
a **published** (公示) result is changed only by the directors, within
``events.director_minutes`` after the round's publication (default 20; ``None``: no limit);
the chief director (裁判长) may set other limits (:func:`set_director_minutes`) and may
change a result after the limit, explicitly (``chief=True``), which is logged as such.

:func:`check_limit` is called, inside the caller's transaction, by every path that
changes a room's result as the director: ``correct_result``, ``record_unfinished``, the
hall's settled disputes, rulings with an effect, accepted requests and confirmed reports.
The publication time is ``hall_rounds.published_at`` (set by ``hall.publish_round``);
``now`` is the hall's clock (aware UTC from the application, as the tables' window:
``duplicate.hall.rows.window_over``), passed in by tests.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import EventError, _event_row
from duplicate.events.log import checked, log_change
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, nested
from duplicate.zones import When, when_code

#: The limit when the chief director set none (seeds/000 更正: 20 minutes).
DEFAULT_MINUTES = 20
#: The longest limit the chief director may set (a week), in minutes.
MAX_MINUTES = 7 * 24 * 60
#: The admin log's action for a change the chief director made past the limit.
OVERRIDE = "chief override"


class DirectorLimitError(EventError):
    """A director's change of a published result after the directors' limit, not made as
    the chief director (HTTP 403 in the web service)."""

    kind = "forbidden"


def _aware(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def published_at(session: Session, rnd: models.EventRound) -> datetime | None:
    """When the round was published (公示; ``None``: not published, or no hall clock)."""
    h = models.HallRound
    when = session.scalar(select(h.published_at).where(h.round_id == rnd.id))
    return None if when is None else _aware(when)


def check_limit(
    session: Session,
    ev: models.Event,
    rnd: models.EventRound,
    by: str,
    reason: str,
    where: str,
    *,
    chief: bool = False,
    now: datetime | None = None,
) -> bool:
    """Allow a director's change of a result of ``rnd`` at ``now`` (default: now), or
    refuse it (:class:`DirectorLimitError`, one line in the asker's language) when the round was
    published more than ``ev.director_minutes`` ago and ``chief`` is false. A change the
    chief director makes past the limit is allowed and logged (who, when, why, which
    result and the limit overridden, action ``chief override``); ``True`` then."""
    limit = ev.director_minutes
    published = published_at(session, rnd)
    if limit is None or published is None:
        return False
    at = _aware(now) if now is not None else datetime.now(UTC)
    until = published + timedelta(minutes=limit)
    if at <= until:
        return False
    if not chief:
        raise DirectorLimitError(phrase(
            "events.err.director_limit", round=rnd.number, minutes=limit,
            published=When(published, ev.time_zone), until=When(until, ev.time_zone),
        ), cli_hint="--chief")
    # when it was published, in the event's zone as every time shown (an older row says
    # "lw.detail.override" with the time in UTC)
    detail = coded("lw.detail.override_at", where=where,
                   late=int((at - until).total_seconds() // 60), limit=limit,
                   published=when_code(published, ev.time_zone))
    log_change(session, OVERRIDE, checked(by, reason, "a change as the chief director"), detail,
               event=ev.name)
    return True


def check_minutes(minutes: int | None) -> int | None:
    """A limit the chief director may set: whole minutes 0..a week, or ``None`` (none)."""
    if minutes is None:
        return None
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not (
        0 <= minutes <= MAX_MINUTES
    ):
        raise EventError(phrase("events.err.director_minutes", most=MAX_MINUTES,
                                value=repr(minutes)[:40]))
    return minutes


def director_minutes(engine: Engine, event: str) -> int | None:
    """The event's directors' limit in minutes after a round's publication (``None``:
    no limit)."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _event_row(session, event).director_minutes


def set_director_minutes(
    engine: Engine, event: str, minutes: int | None, by: str, reason: str
) -> int | None:
    """The chief director sets the event's limit (``None``: no limit), logged with who
    and why (action ``director limit``). Returns the limit it replaced."""
    minutes = check_minutes(minutes)
    change = checked(by, reason, "setting the directors' limit")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        before = ev.director_minutes
        ev.director_minutes = minutes
        log_change(session, "director limit", change,
                   coded("lw.detail.limit", before=_limit(before), after=_limit(minutes)),
                   event=ev.name)
        return before


def _limit(minutes: int | None) -> dict[str, Any]:
    """A directors' limit as a value of a logged phrase (``30 min``, ``none``)."""
    return nested("lw.limit.none") if minutes is None else nested("lw.limit.minutes",
                                                                  minutes=minutes)
