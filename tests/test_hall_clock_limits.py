"""The round clock's settings have one definition (duplicate.hall.CLOCK_SETTINGS): the
library, the desk's start form and the director API's schema accept the same most (a
day: 1,440 minutes for the round, its warning and its correction window) and refuse one
more, each with its clear error (the API: 422). The clock's move (hall.MAX_MOVE) likewise.
SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from helpers.hall import BEARER, EV, make_client, setup_round
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event, minutes
from test_web_desk import EVQ, login, post
from test_web_desk import make_event as desk_event

from duplicate import hall
from duplicate.events.limit import MAX_MINUTES as MAX_DIRECTOR_MINUTES
from duplicate.hall import CLOCK_SETTINGS, MAX_CLOCK_MINUTES, MAX_MOVE, HallError

NAMES = ("minutes", "warning_minutes", "correction_minutes")
#: Each setting's words in the refusal (English, Chinese).
WORDS = {
    "minutes": ("the round's length (minutes)", "本轮时长（分钟）"),
    "warning_minutes": ("the warning (minutes before the end)", "预警时间（结束前分钟数）"),
    "correction_minutes": ("the correction window (minutes after closing)",
                           "更正时限（结束后分钟数）"),
}
MOST = {name: MAX_CLOCK_MINUTES for name in NAMES}  # every setting's most at once


def test_one_definition_a_day_for_every_setting() -> None:
    assert MAX_CLOCK_MINUTES == 1440
    assert {n: (s.default, s.low, s.high) for n, s in CLOCK_SETTINGS.items()} == {
        "minutes": (50, 1, 1440), "warning_minutes": (5, 0, 1440),
        "correction_minutes": (10, 0, 1440)}
    assert MAX_MOVE == 120


# --- the library ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_library_refuses_one_minute_more(migrated_engine: Engine, name: str) -> None:
    e = migrated_engine
    make_event(e, start=False)
    with pytest.raises(HallError) as exc:
        hall.start_round(e, EVENT, 1, "director", now=minutes(0), **{**MOST, name: 1441})
    assert exc.value.kind == "invalid"
    en, zh = WORDS[name]
    low = CLOCK_SETTINGS[name].low
    assert str(exc.value) == f"{en} must be a whole number from {low} to 1440, not 1441"
    assert exc.value.text("zh") == f"{zh}必须是 {low} 到 1440 之间的整数，而不是 1441"
    assert hall.round_clock(e, EVENT, 1).phase == "not_started"  # nothing changed
    clock = hall.start_round(e, EVENT, 1, "director", now=minutes(0), **MOST)
    assert (clock.minutes, clock.warning_minutes, clock.correction_minutes) == (1440,) * 3


# --- the director API ----------------------------------------------------------------------


@pytest.fixture
def api(migrated_url: str) -> Iterator[TestClient]:
    with make_client(migrated_url) as client:
        setup_round(client, start=False)
        yield client


def test_the_api_schema_takes_the_librarys_bounds(api: TestClient) -> None:
    schema = api.get("/api/openapi.json").json()["components"]["schemas"]
    start = schema["StartIn"]["properties"]
    for name, s in CLOCK_SETTINGS.items():
        assert (start[name]["default"], start[name]["minimum"], start[name]["maximum"]) == (
            s.default, s.low, s.high), start[name]
    move = schema["MoveIn"]["properties"]["minutes"]
    assert (move["minimum"], move["maximum"]) == (-MAX_MOVE, MAX_MOVE)
    # the directors' limit after publication: the library's week (duplicate.events.limit)
    for body in ("EventIn", "DirectorLimitIn"):
        field = schema[body]["properties"]["director_minutes" if body == "EventIn" else "minutes"]
        bounded = next(a for a in field["anyOf"] if a.get("type") == "integer")
        assert (bounded["minimum"], bounded["maximum"]) == (0, MAX_DIRECTOR_MINUTES), field


@pytest.mark.parametrize("name", NAMES)
def test_the_api_refuses_one_minute_more_with_422(api: TestClient, name: str) -> None:
    path = f"/api/events/{EV}/rounds/1/start"
    r = api.post(path, headers=BEARER, json={**MOST, name: 1441})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "invalid" and name in body["message"], body
    assert "1440" in body["message"], body
    assert api.get(f"/api/events/{EV}/rounds/1/clock").json()["phase"] == "not_started"


def test_the_api_accepts_a_day_for_every_setting(api: TestClient) -> None:
    r = api.post(f"/api/events/{EV}/rounds/1/start", headers=BEARER, json=MOST)
    assert r.status_code == 200, r.text
    clock = r.json()
    assert (clock["minutes"], clock["warning_minutes"], clock["correction_minutes"]) == (
        1440, 1440, 1440)


def test_the_api_moves_the_clock_by_the_librarys_most(api: TestClient) -> None:
    assert api.post(f"/api/events/{EV}/rounds/1/start", headers=BEARER,
                    json={"minutes": 200}).status_code == 200
    path = f"/api/events/{EV}/rounds/1/clock/move"
    r = api.post(path, headers=BEARER, json={"minutes": MAX_MOVE + 1, "reason": "x"})
    assert r.status_code == 422, r.text
    r = api.post(path, headers=BEARER, json={"minutes": -MAX_MOVE, "reason": "noise"})
    assert r.status_code == 200, r.text


# --- the desk ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_desk_refuses_one_minute_more_and_takes_a_day(
    client: TestClient, name: str
) -> None:
    csrf = login(client)
    desk_event(client, csrf)
    base = f"/desk/e/{EVQ}/round/1"
    page = client.get(base).text
    for n, s in CLOCK_SETTINGS.items():  # the form says the library's bounds
        field = re.search(rf'<input name="{n}" type="number"[^>]*>', page)
        assert field, n
        assert f'min="{s.low}" max="{s.high}" value="{s.default}"' in field.group(0)
    assert f'min="-{MAX_MOVE}" max="{MAX_MOVE}"' not in page  # shown once the clock runs
    form = {n: str(v) for n, v in MOST.items()}
    status, page, msg = post(client, f"{base}/start", csrf=csrf, **{**form, name: "1441"})
    low = CLOCK_SETTINGS[name].low
    assert msg == (f"Refused, nothing changed: {WORDS[name][0]} must be a whole number "
                   f"from {low} to 1440, not 1441"), msg
    engine = client.app.state.engine  # type: ignore[attr-defined]
    assert hall.round_clock(engine, "Spring Cup", 1).phase == "not_started"
    status, page, msg = post(client, f"{base}/start", csrf=csrf, **form)
    assert msg == "Round 1: the clock is running.", msg
    clock = hall.round_clock(engine, "Spring Cup", 1)
    assert (clock.minutes, clock.warning_minutes, clock.correction_minutes) == (1440,) * 3
    assert f'min="-{MAX_MOVE}" max="{MAX_MOVE}"' in page  # the move's field
