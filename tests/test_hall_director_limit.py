"""The directors' limit on changing a published result (seeds/000 更正): within
``director_minutes`` after the round's publication (公示) a director may; after it every path
that changes a result (a correction, an unfinished board, a ruling with an effect, a
table's request accepted) is refused with one line in the asker's language and the
database left as it was, unless made as the chief director (裁判长), which is logged as
overriding the limit; no limit (``None``) never refuses; the limit is set per event and
checked. Time passes by the ``now`` the library takes, or by moving the stored
publication back (the service reads the clock). Library, API, command line; SQLite and
PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.hall import (
    BEARER,
    EV,
    EVENT,
    Hall,
    finish_round,
    open_hall,
    refused,
    room_result,
    snapshot,
)
from sqlalchemy import select

from cli import main
from duplicate import events, hall, models
from duplicate.db import session_scope
from duplicate.events import DirectorLimitError, EventError

LIMIT_EN = "after that only the chief director can"
LIMIT_ZH = "此后只有裁判长可以更正"


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def published(h: Hall) -> datetime:
    """Round 1 played (N-S +1 everywhere), closed and published; when it was published."""
    finish_round(h)
    assert h.director("POST", "/rounds/1/close").status_code == 200
    assert h.director("POST", "/rounds/1/publish").status_code == 200
    at = hall.round_clock(h.engine, EVENT, 1).published_at
    assert at is not None
    return at


def age(h: Hall, minutes: float) -> None:
    """The round's publication ``minutes`` earlier (time passes; the table's window, from
    the close, is left alone)."""
    with session_scope(h.engine) as session:
        for row in session.scalars(select(models.HallRound)):
            assert row.published_at is not None
            row.published_at = row.published_at - timedelta(minutes=minutes)


def overrides(h: Hall) -> list[dict[str, Any]]:
    return [e for e in events.admin_log(h.engine, EVENT) if e["action"] == "chief override"]


def request_of(h: Hall, table: int, room: str, board: int, finish: str) -> int:
    """A table's correction sent after publication: a request on the desk; its id."""
    r = h.report(table, room, board, finish=finish, correction="we misread the sheet")
    assert r.status_code in (200, 201), r.text
    assert r.json()["state"] == "requested", r.text
    rid: int = r.json()["id"]
    return rid


def test_inside_the_limit_a_director_changes_a_published_result(h: Hall) -> None:
    at = published(h)
    assert events.director_minutes(h.engine, EVENT) == 20  # seeds/000: 20 minutes
    hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 2, "TD Wu", "sheet misread",
                          now=at + timedelta(minutes=19, seconds=59))
    assert room_result(h.engine, 1, 1, "open") == 2
    events.record_unfinished(h.engine, EVENT, 1, 2, 2, "time", ("closed",),
                             events.Correction("time", "TD Wu"), now=at + timedelta(minutes=20))
    assert room_result(h.engine, 2, 2, "closed") is None  # unfinished: no N-S result
    assert overrides(h) == []


def test_after_the_limit_every_path_is_refused_and_nothing_changes(h: Hall) -> None:
    at = published(h)
    rid = request_of(h, 1, "closed", 1, "E N W")
    late = at + timedelta(minutes=20, seconds=1)
    before = snapshot(h.engine)
    requests = hall.table_requests(h.engine, EVENT)
    attempts = [
        lambda: hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 2, "TD Wu", "misread",
                                      now=late),
        lambda: hall.record_ruling(h.engine, EVENT, 1, 1, "foul", "assigned", "TD Wu", "revoke",
                                   board=1, room="open", ns_result=3, now=late),
        lambda: hall.record_ruling(h.engine, EVENT, 1, 2, "late", "conceded", "TD Wu", "late",
                                   team="Team B", now=late),
        lambda: hall.accept_request(h.engine, EVENT, rid, "TD Wu", "agreed", now=late),
    ]
    for attempt in attempts:
        with pytest.raises(hall.HallError) as caught:
            attempt()
        assert caught.value.kind == "forbidden"
        assert LIMIT_EN in str(caught.value) and "\n" not in str(caught.value)
        assert LIMIT_ZH in caught.value.text("zh")
    for attempt in (
        lambda: events.correct_result(h.engine, EVENT, 1, 1, 1, "open", 2,
                                      events.Correction("misread", "TD Wu"), now=late),
        lambda: events.record_unfinished(h.engine, EVENT, 1, 1, 1, "time", ("open",),
                                         events.Correction("time", "TD Wu"), now=late),
    ):
        with pytest.raises(DirectorLimitError, match=LIMIT_EN):
            attempt()
    assert snapshot(h.engine) == before
    assert hall.table_requests(h.engine, EVENT) == requests
    # a warning changes no result: recorded after the limit too
    warning = hall.record_ruling(h.engine, EVENT, 1, 1, "warning", "none", "TD Wu", "slow",
                                 now=late)
    assert warning.effect == "none" and overrides(h) == []


def test_an_imported_correction_past_the_limit_needs_the_chief_director(h: Hall) -> None:
    at = published(h)
    text = events.bot_records(h.engine, EVENT, 1, "heuristic", "heuristic")[0]
    fix = events.Correction("the table's records arrived late", "TD Wu")
    assert hall.round_clock(h.engine, EVENT, 1).published_at == at
    age(h, 30)  # an import reads the clock
    before = snapshot(h.engine)
    with pytest.raises(DirectorLimitError, match=LIMIT_EN):
        events.import_texts(h.engine, EVENT, [text], round_no=1, correction=fix)
    assert snapshot(h.engine) == before
    done = events.import_texts(h.engine, EVENT, [text], round_no=1, correction=fix, chief=True)
    assert done.corrected > 0  # some room's record says another result than N-S +1
    log = overrides(h)
    assert len(log) == done.corrected and {e["by"] for e in log} == {"TD Wu"}


def test_the_chief_director_overrides_the_limit_and_it_is_logged(h: Hall) -> None:
    at = published(h)
    rid = request_of(h, 2, "open", 2, "E N W")
    late = at + timedelta(minutes=45)
    hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 3, "Chief Li", "scorer's slip",
                          chief=True, now=late)
    assert room_result(h.engine, 1, 1, "open") == 3
    accepted = hall.accept_request(h.engine, EVENT, rid, "Chief Li", "agreed", chief=True,
                                   now=late)
    assert accepted.state == "accepted" and room_result(h.engine, 2, 2, "open") == -2
    log = overrides(h)
    assert [(e["by"], e["reason"]) for e in log] == [
        ("Chief Li", "scorer's slip"), ("Chief Li", "agreed")]
    assert "round 1, table 1, board 1, open room" in log[0]["detail"]
    assert "25 min after the directors' limit (20 min after publication" in log[0]["detail"]
    # the change itself is in the store's log with who, when, why, as any correction
    fixed = [c for c in events.list_corrections(h.engine, EVENT)
             if (c["table"], c["board"], c["room"]) == (1, 1, "open")]
    assert fixed[-1]["by"] == "Chief Li" and fixed[-1]["reason"] == "scorer's slip"


def test_no_limit_never_refuses_and_the_limit_is_checked(h: Hall) -> None:
    at = published(h)
    who = {"by": "Chief Li", "reason": "the chief director's rule for this event"}
    assert events.set_director_minutes(h.engine, EVENT, None, **who) == 20
    assert events.director_minutes(h.engine, EVENT) is None
    hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", -1, "TD Wu", "late find",
                          now=at + timedelta(days=2))
    assert room_result(h.engine, 1, 1, "open") == -1 and overrides(h) == []
    # a shorter limit bites sooner
    assert events.set_director_minutes(h.engine, EVENT, 5, **who) is None
    with pytest.raises(hall.HallError, match="5 minutes"):
        hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 2, "TD Wu", "x",
                              now=at + timedelta(minutes=6))
    logged = [e for e in events.admin_log(h.engine, EVENT) if e["action"] == "director limit"]
    assert [e["detail"] for e in logged] == [
        "directors' limit after publication: 20 min -> none",
        "directors' limit after publication: none -> 5 min"]
    for bad in (-1, 7 * 24 * 60 + 1, True, "20", 2.5):
        with pytest.raises(EventError, match="whole minutes from 0 to 10080"):
            events.set_director_minutes(h.engine, EVENT, bad, **who)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="who and why"):
        events.set_director_minutes(h.engine, EVENT, 10, "Chief Li", "")
    assert events.director_minutes(h.engine, EVENT) == 5
    with pytest.raises(EventError, match="whole minutes"):
        events.create_event(h.engine, "Other Cup", director_minutes=-5)
    assert [e.name for e in events.list_events(h.engine)] == [EVENT]
    events.create_event(h.engine, "Open Cup", director_minutes=None)
    assert events.director_minutes(h.engine, "Open Cup") is None


def test_the_api_refuses_after_the_limit_and_takes_the_chief_field(h: Hall) -> None:
    published(h)
    rid = request_of(h, 1, "closed", 2, "E N W")
    r = h.director("GET", "/director-minutes")
    assert r.status_code == 200 and r.json()["minutes"] == 20
    refused(h.director("PUT", "/director-minutes", json={"minutes": -1, "reason": "x"}), 422)
    refused(h.director("PUT", "/director-minutes", json={"minutes": 30}), 422)
    r = h.director("PUT", "/director-minutes", json={"minutes": 30, "reason": "long day"})
    assert r.status_code == 200 and r.json() == {"event": EVENT, "minutes": 30, "before": 20}
    age(h, 31)
    before = snapshot(h.engine)
    body = {"table": 1, "board": 1, "room": "open", "ns_result": 2, "reason": "misread"}
    error = refused(h.director("POST", "/rounds/1/corrections", json=body), 403)
    assert error["error"] == "forbidden" and LIMIT_EN in error["message"]
    zh = h.client.post(f"/api/events/{EV}/rounds/1/corrections", json=body,
                       headers={**BEARER, "Accept-Language": "zh-CN"})
    assert zh.status_code == 403 and LIMIT_ZH in zh.json()["message"], zh.text
    refused(h.director("POST", f"/requests/{rid}/accept", json={"reason": "agreed"}), 403)
    refused(h.director("POST", "/rounds/1/unfinished",
                       json={"table": 1, "board": 1, "room": "open", "reason": "time"}), 403)
    refused(h.director("POST", "/rounds/1/rulings", json={
        "table": 1, "category": "foul", "effect": "assigned", "board": 1, "room": "open",
        "ns_result": 3, "reason": "revoke"}), 403)
    assert snapshot(h.engine) == before
    r = h.director("POST", "/rounds/1/corrections", json={**body, "chief": True})
    assert r.status_code == 200, r.text
    r = h.director("POST", f"/requests/{rid}/accept", json={"reason": "agreed", "chief": True})
    assert r.status_code == 200 and r.json()["state"] == "accepted", r.text
    assert room_result(h.engine, 1, 1, "open") == 2
    assert room_result(h.engine, 1, 2, "closed") == -2
    assert [e["by"] for e in overrides(h)] == ["director", "director"]
    # no limit through the API
    r = h.director("PUT", "/director-minutes", json={"minutes": None, "reason": "no limit"})
    assert r.status_code == 200 and r.json()["minutes"] is None
    r = h.director("POST", "/rounds/1/corrections", json={**body, "ns_result": 1})
    assert r.status_code == 200, r.text


def test_the_command_line_takes_chief_and_sets_the_limit(h: Hall, migrated_url: str) -> None:
    published(h)
    age(h, 21)

    def run(*args: str, code: int = 0) -> str:
        res = CliRunner().invoke(main, [*args[:1], "--db", migrated_url, *args[1:]])
        assert res.exit_code == code, res.output
        return res.output

    where = ("--round", "1", "--table", "1", "--board", "1")
    correct = ("event", "correct", EVENT, *where, "--room", "open", "--result", "NS +3",
               "--by", "TD Wu", "--reason", "misread")
    out = run(*correct, code=1)
    assert LIMIT_EN in out and "--chief" in out
    assert room_result(h.engine, 1, 1, "open") == 1
    run(*correct, "--chief")
    assert room_result(h.engine, 1, 1, "open") == 3
    unfinished = ("event", "unfinished", EVENT, *where, "--room", "closed", "--reason", "time",
                  "--by", "TD Wu")
    assert LIMIT_EN in run(*unfinished, code=1)
    run(*unfinished, "--chief")
    assert room_result(h.engine, 1, 1, "closed") is None
    assert len(overrides(h)) == 2
    who = ("--by", "Chief Li", "--reason", "long day")
    assert "60 minutes" in run("event", "director-limit", EVENT, "60", *who)
    assert events.director_minutes(h.engine, EVENT) == 60
    run(*correct[:-4], "--result", "NS +1", "--by", "TD Wu", "--reason", "again")
    assert "no limit" in run("event", "director-limit", EVENT, "none", *who)
    assert events.director_minutes(h.engine, EVENT) is None
    assert "whole minutes" in run("event", "director-limit", EVENT, "99999", *who, code=1)
    assert "expected whole minutes or 'none'" in run("event", "director-limit", EVENT,
                                                     "soon", *who, code=2)
    assert events.director_minutes(h.engine, EVENT) is None
    run("event", "create", "Short Cup", "--director-minutes", "5")
    assert events.director_minutes(h.engine, "Short Cup") == 5
    run("event", "create", "Open Cup", "--director-minutes", "none")
    assert events.director_minutes(h.engine, "Open Cup") is None


def test_a_result_reported_as_a_correction_is_held_to_the_limit(
    h: Hall, migrated_url: str
) -> None:
    """'guandan event result --correction' changes a published result as a director does:
    past the limit it is refused with nothing changed and nothing logged, and '--chief'
    changes it, logged as overriding the limit."""
    published(h)
    age(h, 21)
    before = snapshot(h.engine)
    args = ["event", "result", EVENT, "--db", migrated_url, "--round", "1", "--table", "1",
            "--board", "2", "--room", "open", "--finish", "E S W", "--by", "TD Wu",
            "--reason", "the sheet said East", "--correction"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1 and LIMIT_EN in res.output, res.output
    assert snapshot(h.engine) == before and overrides(h) == []
    res = CliRunner().invoke(main, [*args, "--chief"])
    assert res.exit_code == 0, res.output
    assert room_result(h.engine, 1, 2, "open") == -2
    assert len(overrides(h)) == 1


def test_a_late_teams_ruling_past_the_limit_takes_the_chief_field(h: Hall) -> None:
    """The late team's one-click ruling holds the limit like every other path: 403 with
    nothing changed, then made as the chief director (API ``chief``), logged as such."""
    published(h)
    age(h, 21)
    with session_scope(h.engine) as session:  # the round began an hour before; nobody checked in
        for row in session.scalars(select(models.HallRound)):
            assert row.published_at is not None
            row.started_at = row.published_at - timedelta(hours=1)
        for checkin in session.scalars(select(models.HallCheckin)):
            session.delete(checkin)
    due = h.director("GET", "/rounds/1/late")
    assert due.status_code == 200, due.text
    assert due.json(), "a team that never checked in is due a ruling"
    team, effect = sorted(due.json().items())[0]
    before = snapshot(h.engine)
    rulings = len(hall.rulings(h.engine, EVENT, 1))
    error = refused(h.director("POST", "/rounds/1/late", json={"team": team}), 403)
    assert LIMIT_EN in error["message"]
    assert snapshot(h.engine) == before and len(hall.rulings(h.engine, EVENT, 1)) == rulings
    r = h.director("POST", "/rounds/1/late", json={"team": team, "chief": True})
    assert r.status_code == 201, r.text
    assert r.json()["effect"] == effect and r.json()["team"] == team
    assert [e["by"] for e in overrides(h)] == ["director"]
