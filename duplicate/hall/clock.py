"""The round clock, check-in (签到) and lateness (迟到).

A round's clock starts when the director says so (``start_round``: 50 minutes by default,
the warning 5 minutes before the end, seeds/004 rules 4 and 6: at the warning no new board
is started) and then runs by itself: its phase is computed from the stored times and
``now`` (``not_started`` → ``running`` → ``warning`` → ``over``), until the director
closes the round (``closed``, the correction window of ``correction_minutes``, default 10
per seeds/000 更正, starts) and publishes it (``published``, 公示). Nothing ticks in memory:
every worker reads the same row.

Lateness (seeds/004 rule 3, seeds/000 迟到) is measured from the round's start to the
team's check-in, or to ``now`` while it has not checked in:

* checked in at or before the start: ``on_time``; up to 5 minutes late: ``late`` (a
  warning); not in yet and at most 5 minutes past the start: ``waiting``;
* more than 5 minutes: ``concedes`` (the first board, the opponents +3);
* more than 10 minutes: ``forfeits`` (the round).

The status only tells the director: the conceded board or the forfeit counts once the
director records it as a ruling (``duplicate.hall.record_ruling``), as seeds/000 wants
(判罚 are the director's).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import session_scope
from duplicate.hall.base import Arrival, Clock, HallError, no_team, utc, utc_or_none
from duplicate.hall.rows import (
    DEFAULT_CORRECTION,
    DEFAULT_MINUTES,
    DEFAULT_WARNING,
    boards_of,
    event_row,
    hall_round,
    log,
    make_clock,
    matches,
    ready,
    round_row,
    who,
)
from duplicate.i18n import Phrase, phrase
from duplicate.i18n.stored import coded

#: Minutes late after which a team concedes the first board, then forfeits the round.
CONCEDE_AFTER, FORFEIT_AFTER = 5.0, 10.0


class ClockSetting(NamedTuple):
    """One setting of a round's clock, in whole minutes: its default and its bounds."""

    default: int
    low: int
    high: int


#: The longest any setting of a round's clock may be: a day, in minutes.
MAX_CLOCK_MINUTES = 24 * 60
#: The settings :func:`start_round` takes, by name: the round's length, the warning before
#: its end, the correction window after closing. The one definition the desk's form, the
#: API's schema (``duplicate.web.api_models_director.StartIn``) and the library's check read, so
#: that every way of starting a round accepts and refuses the same minutes.
CLOCK_SETTINGS: Mapping[str, ClockSetting] = {
    "minutes": ClockSetting(DEFAULT_MINUTES, 1, MAX_CLOCK_MINUTES),
    "warning_minutes": ClockSetting(DEFAULT_WARNING, 0, MAX_CLOCK_MINUTES),
    "correction_minutes": ClockSetting(DEFAULT_CORRECTION, 0, MAX_CLOCK_MINUTES),
}


def start_round(
    engine: Engine,
    event: str,
    round_no: int,
    by: str,
    *,
    minutes: int = DEFAULT_MINUTES,
    warning_minutes: int = DEFAULT_WARNING,
    correction_minutes: int = DEFAULT_CORRECTION,
    now: datetime | None = None,
) -> Clock:
    """Start the round's clock at ``now``; conflict when it was started already. Each
    setting is a whole number within :data:`CLOCK_SETTINGS`' bounds, the warning no longer
    than the round."""
    at = utc(now)
    by, _ = who(by, "start", "starting a round")
    given = {"minutes": minutes, "warning_minutes": warning_minutes,
             "correction_minutes": correction_minutes}
    for what, value in given.items():
        low, high = CLOCK_SETTINGS[what].low, CLOCK_SETTINGS[what].high
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise HallError(phrase("hall.err.minutes", what=phrase(f"hall.clock.{what}"),
                                   low=low, high=high, value=repr(value)))
    if warning_minutes > minutes:
        raise HallError(phrase("hall.err.warning_longer", warning=warning_minutes, minutes=minutes))
    ready(engine)
    try:
        with session_scope(engine) as session:
            ev = event_row(session, event)
            rnd = round_row(session, ev, round_no)
            if not boards_of(ev, rnd):
                raise HallError(phrase("events.err.no_boards", event=repr(event), round=round_no))
            if hall_round(session, rnd) is not None:
                raise HallError(_started(event, round_no), "conflict")
            hr = models.HallRound(
                round_id=rnd.id,
                started_at=at,
                minutes=minutes,
                warning_minutes=warning_minutes,
                correction_minutes=correction_minutes,
                started_by=by,
            )
            session.add(hr)
            session.flush()
            detail = coded("lw.detail.start", round=round_no, minutes=minutes,
                           warning=warning_minutes, corrections=correction_minutes)
            log(session, "hall start", by, coded("lw.reason.started"), detail, ev.name)
            return make_clock(ev.name, round_no, hr, at)
    except IntegrityError:  # another desk started it at the same moment
        raise HallError(_started(event, round_no), "conflict") from None


def _started(event: str, round_no: int) -> Phrase:
    return phrase("hall.err.started", event=repr(event), round=round_no)


def round_clock(engine: Engine, event: str, round_no: int, now: datetime | None = None) -> Clock:
    """The round's clock at ``now`` (``not_started`` before the director starts it)."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        return make_clock(ev.name, round_no, hall_round(session, rnd), at)


def status_of(minutes_late: float, checked_in: bool) -> str:
    """A team's arrival status for ``minutes_late`` (see the module's docstring)."""
    if minutes_late > FORFEIT_AFTER:
        return "forfeits"
    if minutes_late > CONCEDE_AFTER:
        return "concedes"
    if not checked_in:
        return "waiting"
    return "on_time" if minutes_late <= 0 else "late"


def _arrival(
    team: str, table: int | None, at: datetime | None, started: datetime | None, now: datetime
) -> Arrival:
    if started is None:
        return Arrival(team, table, at, 0.0, "on_time" if at is not None else "waiting")
    until = at if at is not None else now
    late = max(0.0, (until - started).total_seconds() / 60)
    return Arrival(team, table, at, late, status_of(late, at is not None))


def _teams(session: Session, rnd: models.EventRound) -> list[tuple[int, int | None]]:
    """(team id, table) of every team of the round, table order (X before Y), bye last."""
    out: list[tuple[int, int | None]] = []
    for m in matches(session, rnd):
        out += [(m.team_x_id, m.table_no), (m.team_y_id, m.table_no)]
    if rnd.bye_team_id is not None:
        out.append((rnd.bye_team_id, None))
    return out


def check_in(
    engine: Engine, event: str, round_no: int, team: str, by: str, now: datetime | None = None
) -> Arrival:
    """Check ``team`` in for the round at ``now``; checking in again changes nothing (the
    first time stands)."""
    at = utc(now)
    by, _ = who(by, "check-in", "checking a team in")
    ready(engine)
    for attempt in (1, 2):
        try:
            with session_scope(engine) as session:
                ev = event_row(session, event)
                rnd = round_row(session, ev, round_no)
                t = session.scalar(
                    select(models.EventTeam).where(
                        models.EventTeam.event_id == ev.id, models.EventTeam.name == team
                    )
                )
                if t is None:
                    raise HallError(no_team(event, team), "not_found")
                table = dict(_teams(session, rnd))
                if t.id not in table:
                    raise HallError(phrase("hall.err.team_not_in_round", team=repr(team),
                                           round=round_no))
                row = session.scalar(
                    select(models.HallCheckin).where(
                        models.HallCheckin.round_id == rnd.id, models.HallCheckin.team_id == t.id
                    )
                )
                if row is None:
                    row = models.HallCheckin(
                        round_id=rnd.id, team_id=t.id, checked_in_at=at, made_by=by
                    )
                    session.add(row)
                    session.flush()
                hr = hall_round(session, rnd)
                started = utc(hr.started_at) if hr is not None else None
                return _arrival(t.name, table[t.id], utc(row.checked_in_at), started, at)
        except IntegrityError:  # the same team checked in twice at once: the first stands
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def arrivals(
    engine: Engine, event: str, round_no: int, now: datetime | None = None
) -> list[Arrival]:
    """Every team of the round (table order, the bye last): checked in when, how late."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        hr = hall_round(session, rnd)
        started = utc(hr.started_at) if hr is not None else None
        checked = dict(
            (a, b)
            for a, b in session.execute(
                select(models.HallCheckin.team_id, models.HallCheckin.checked_in_at).where(
                    models.HallCheckin.round_id == rnd.id
                )
            )
        )
        teams = _teams(session, rnd)
        names = dict(
            (a, b)
            for a, b in session.execute(
                select(models.EventTeam.id, models.EventTeam.name).where(
                    models.EventTeam.event_id == ev.id
                )
            )
        )
        return [
            _arrival(names[tid], table, utc_or_none(checked.get(tid)), started, at)
            for tid, table in teams
        ]


#: The most a move of the clock may add or take off at once (minutes).
MAX_MOVE = 120


def _running(session: Session, event: str, round_no: int) -> tuple[models.Event, models.HallRound]:
    """The event and the clock of a started, not closed round (locked), else refused."""
    ev = event_row(session, event)
    rnd = round_row(session, ev, round_no)
    hr = hall_round(session, rnd, lock=True)
    if hr is None:
        raise HallError(phrase("hall.err.not_started", event=repr(event), round=round_no))
    if hr.closed_at is not None:
        raise HallError(phrase("hall.act.clock_closed", round=round_no), "conflict")
    return ev, hr


def pause_clock(
    engine: Engine, event: str, round_no: int, by: str, reason: str,
    now: datetime | None = None,
) -> Clock:
    """Pause the round's clock (a disturbance in the hall): its end moves on while it is
    paused. Pausing a paused clock changes nothing. Logged with who and why."""
    at = utc(now)
    by, reason = who(by, reason, "pausing the clock")
    ready(engine)
    with session_scope(engine) as session:
        ev, hr = _running(session, event, round_no)
        if hr.paused_at is None:
            hr.paused_at = at
            session.flush()
            log(session, "hall pause", by, reason, coded("lw.detail.paused", round=round_no),
                ev.name)
        return make_clock(ev.name, round_no, hr, at)


def resume_clock(
    engine: Engine, event: str, round_no: int, by: str, reason: str,
    now: datetime | None = None,
) -> Clock:
    """Let a paused clock run again: the round ends later by the pause's length. Resuming
    a running clock changes nothing. Logged with who and why."""
    at = utc(now)
    by, reason = who(by, reason, "resuming the clock")
    ready(engine)
    with session_scope(engine) as session:
        ev, hr = _running(session, event, round_no)
        paused = utc_or_none(hr.paused_at)
        if paused is not None:
            seconds = max(0, int((at - paused).total_seconds()))
            hr.shift_seconds = (hr.shift_seconds or 0) + seconds
            hr.paused_at = None
            session.flush()
            log(session, "hall resume", by, reason,
                coded("lw.detail.resumed", round=round_no, seconds=seconds), ev.name)
        return make_clock(ev.name, round_no, hr, at)


def move_clock(
    engine: Engine, event: str, round_no: int, minutes: int, by: str, reason: str,
    now: datetime | None = None,
) -> Clock:
    """Move the round's end by ``minutes`` (positive: more time; negative: less; at most
    ``MAX_MOVE`` either way at once; the round's whole length stays at least one minute).
    Logged with who and why."""
    at = utc(now)
    by, reason = who(by, reason, "moving the clock")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 \
            or abs(minutes) > MAX_MOVE:
        raise HallError(phrase("hall.act.move_minutes", most=MAX_MOVE, value=repr(minutes)))
    ready(engine)
    with session_scope(engine) as session:
        ev, hr = _running(session, event, round_no)
        shift = (hr.shift_seconds or 0) + 60 * minutes
        if hr.minutes * 60 + shift < 60:
            raise HallError(phrase("hall.act.move_too_short", minutes=minutes))
        hr.shift_seconds = shift
        session.flush()
        log(session, "hall move clock", by, reason,
            coded("lw.detail.moved", round=round_no, minutes=f"{minutes:+d}"), ev.name)
        return make_clock(ev.name, round_no, hr, at)
