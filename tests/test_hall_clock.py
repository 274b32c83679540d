"""The round clock, check-in and lateness (seeds/004 rules 3–6), and table tokens."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session
from test_hall_support import EVENT, make_event, minutes

from duplicate import events, hall, models
from duplicate.hall import HallError
from duplicate.hall.clock import status_of


def test_clock_phases_follow_the_time(migrated_engine: Engine) -> None:
    e = migrated_engine
    make_event(e, start=False)
    before = hall.round_clock(e, EVENT, 1, now=minutes(-5))
    assert (before.phase, before.started_at, before.seconds_left) == ("not_started", None, None)
    assert before.minutes == 50 and before.to_dict()["phase"] == "not_started"
    with pytest.raises(HallError) as exc:
        hall.close_round(e, EVENT, 1, "director")
    assert exc.value.kind == "invalid"
    for bad in (dict(minutes=0), dict(warning_minutes=60), dict(correction_minutes=-1)):
        with pytest.raises(HallError) as exc:
            hall.start_round(e, EVENT, 1, "director", now=minutes(0), **bad)  # type: ignore[arg-type]
        assert exc.value.kind == "invalid"
    started = hall.start_round(
        e, EVENT, 1, "director", minutes=40, warning_minutes=5, now=minutes(0)
    )
    assert (started.phase, started.seconds_left, started.ends_at) == ("running", 2400, minutes(40))
    with pytest.raises(HallError) as exc:
        hall.start_round(e, EVENT, 1, "director", now=minutes(1))
    assert exc.value.kind == "conflict"
    assert hall.round_clock(e, EVENT, 1, now=minutes(34.5)).phase == "running"
    warning = hall.round_clock(e, EVENT, 1, now=minutes(35))
    assert (warning.phase, warning.seconds_left, warning.warning_at) == (
        "warning",
        300,
        minutes(35),
    )
    over = hall.round_clock(e, EVENT, 1, now=minutes(41))
    assert (over.phase, over.seconds_left) == ("over", 0)
    d = over.to_dict()
    assert d["ends_at"] == minutes(40).isoformat() and d["correction_until"] is None
    assert [x["action"] for x in events.admin_log(e, EVENT)][-1] == "hall start"


def test_round_without_boards_cannot_start_or_issue(migrated_engine: Engine) -> None:
    e = migrated_engine
    make_event(e)
    events.pair_round(e, EVENT)  # round 2, no boards yet
    for call in (
        lambda: hall.start_round(e, EVENT, 2, "director"),
        lambda: hall.issue_tokens(e, EVENT, 2, "director"),
    ):
        with pytest.raises(HallError) as exc:
            call()
        assert exc.value.kind == "invalid"
    assert hall.current_round(e, EVENT) == 1


def test_check_in_and_lateness(migrated_engine: Engine) -> None:
    e = migrated_engine
    make_event(e)
    teams = [a.team for a in hall.arrivals(e, EVENT, 1, now=minutes(0))]
    assert sorted(teams) == sorted(t.name for t in events.list_teams(e, EVENT))
    early = hall.check_in(e, EVENT, 1, teams[0], "director", now=minutes(-3))
    assert (early.status, early.minutes_late) == ("on_time", 0.0)
    late = hall.check_in(e, EVENT, 1, teams[1], "director", now=minutes(4))
    assert late.status == "late" and late.table == 1
    # checking in again changes nothing: the first time stands
    assert hall.check_in(e, EVENT, 1, teams[1], "director", now=minutes(30)) == late
    hall.check_in(e, EVENT, 1, teams[2], "director", now=minutes(10))
    arrivals = {a.team: a for a in hall.arrivals(e, EVENT, 1, now=minutes(12))}
    assert arrivals[teams[2]].status == "concedes"
    assert (arrivals[teams[3]].status, arrivals[teams[3]].checked_in_at) == ("forfeits", None)
    assert arrivals[teams[3]].minutes_late == 12.0
    assert hall.arrivals(e, EVENT, 1, now=minutes(3))[3].status == "waiting"
    assert arrivals[teams[1]].to_dict()["checked_in_at"] == minutes(4).isoformat()


@given(st.floats(min_value=0, max_value=60, allow_nan=False), st.booleans())
def test_lateness_thresholds(late: float, checked_in: bool) -> None:
    status = status_of(late, checked_in)
    if late > 10:
        assert status == "forfeits"
    elif late > 5:
        assert status == "concedes"
    elif not checked_in:
        assert status == "waiting"
    else:
        assert status == ("on_time" if late == 0 else "late")


def test_tokens_are_stored_hashed_and_do_one_thing(migrated_engine: Engine) -> None:
    e = migrated_engine
    cards = make_event(e)
    with Session(e) as s:
        rows = list(s.scalars(select(models.HallToken)))
    assert len(rows) == 8 and all(not r.void for r in rows)
    stored = {r.token_hash for r in rows}
    for c in cards.values():
        for token, role in ((c.report_token, "report"), (c.confirm_token, "confirm")):
            assert token not in stored
            assert hashlib.sha256(token.encode()).hexdigest() in stored
            g = hall.grant_for(e, token)
            assert (g.event, g.round_no, g.table, g.room, g.role) == (
                EVENT, 1, c.table, c.room, role,
            )  # fmt: skip
    logged = [x for x in events.admin_log(e, EVENT) if x["action"] == "hall tokens"]
    assert len(logged) == 1 and all(c.report_token not in str(logged) for c in cards.values())
