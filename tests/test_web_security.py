"""The hall service's hardening, over HTTP (FastAPI's test client on a migrated database,
SQLite and PostgreSQL when configured): the throttle on wrong director passwords (429 with
Retry-After, a growing wait, per address and for all, logged), server-side sessions that
log-out, a new password and a new secret key end, the Content-Security-Policy and frame
rules on every kind of page, HEAD wherever GET is, the API's documentation without a CDN,
and an OpenAPI document that names its security and what each body accepts.

The throttle's clock is the application's (``app.state.clock``): the tests move it instead
of sleeping.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from helpers.hall import EV, EVENT, PASSWORD, SECRET, Hall, open_hall
from itsdangerous import URLSafeTimedSerializer

from duplicate import events
from duplicate.sessions import Throttle
from duplicate.web.app import create_app
from duplicate.web.settings import Settings
from tests.test_limits import sqlite_url  # noqa: F401  (a fixture)

THROTTLE = Throttle(free=3, base=2.0, cap=60.0, free_all=8, cap_all=30.0, forget=600.0)


class Clock:
    """The application's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def move(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def service(url: str, password: str = PASSWORD, secret: str = SECRET,
            clock: Clock | None = None) -> TestClient:
    app = create_app(Settings(url, password, secret, throttle=THROTTLE))
    if clock is not None:
        app.state.clock = clock
    return TestClient(app, follow_redirects=False)


def login(client: TestClient, password: str = PASSWORD) -> Any:
    return client.post("/desk/login", data={"password": password, "next": "/desk"},
                       headers={"Accept": "application/json"}, follow_redirects=False)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def desk(migrated_url: str, clock: Clock) -> Iterator[TestClient]:
    with service(migrated_url, clock=clock) as client:
        yield client


# --- the throttle ---------------------------------------------------------------------------


def test_wrong_passwords_make_the_next_try_wait_longer_each_time(
    desk: TestClient, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="guandan.web")
    for _ in range(THROTTLE.free):  # the first few cost nothing
        assert login(desk, "wrong").status_code == 401
    waits = []
    for _ in range(4):
        assert login(desk, "wrong").status_code == 401  # counted: the next one must wait
        early = login(desk, PASSWORD)  # even the right password waits
        assert early.status_code == 429, early.text
        assert early.json()["error"] == "too_many_requests"
        waits.append(int(early.headers["Retry-After"]))
        clock.move(waits[-1])  # past the wait: the next try is heard
    assert waits == [2, 4, 8, 16]  # twice as long each time
    refusals = [r for r in caplog.records if "director password" in r.getMessage()]
    assert sum("wrong director password" in r.getMessage() for r in refusals) == 7
    assert sum("refused" in r.getMessage() for r in refusals) == 4
    assert all("testclient" in r.getMessage() for r in refusals)  # the address is named
    assert PASSWORD not in caplog.text and "'wrong'" not in caplog.text  # no password logged
    ok = login(desk, PASSWORD)
    assert ok.status_code == 303 and "guandan_desk" in ok.headers["set-cookie"]


def test_the_wait_is_capped_and_forgotten_after_a_quiet_spell(
    desk: TestClient, clock: Clock
) -> None:
    for _ in range(THROTTLE.free + 10):
        assert login(desk, "wrong").status_code == 401
        clock.move(THROTTLE.cap)  # each wait over before the next try
    assert login(desk, "wrong").status_code == 401
    assert int(login(desk, "wrong").headers["Retry-After"]) == THROTTLE.cap
    clock.move(THROTTLE.forget + 1)
    assert login(desk, "wrong").status_code == 401  # counted afresh from 1
    assert login(desk, "wrong").status_code == 401


def test_bearer_passwords_are_throttled_too(desk: TestClient, clock: Clock) -> None:
    wrong = {"Authorization": "Bearer not the password"}
    for _ in range(THROTTLE.free + 1):
        assert desk.get(f"/api/events/{EV}/disputes", headers=wrong).status_code == 401
    r = desk.get(f"/api/events/{EV}/disputes", headers={"Authorization": f"Bearer {PASSWORD}"})
    assert r.status_code == 429 and r.headers["Retry-After"] == "2"
    clock.move(2)
    r = desk.get(f"/api/events/{EV}/disputes", headers={"Authorization": f"Bearer {PASSWORD}"})
    assert r.status_code == 404  # heard: no such event (the credentials are good)


def test_the_throttle_counts_by_address_and_for_all_together(migrated_url: str) -> None:
    """Per address first: another address is not held back by one address's failures;
    then every address together (a spray from many addresses)."""
    clock = Clock()
    app = create_app(Settings(migrated_url, PASSWORD, SECRET, throttle=THROTTLE))
    app.state.clock = clock
    clients = [TestClient(app, follow_redirects=False, client=(f"10.0.0.{i}", 5000))
               for i in range(1, 5)]
    first, second, third, fourth = clients
    for _ in range(THROTTLE.free + 1):
        assert login(first, "wrong").status_code == 401
    assert login(first, PASSWORD).status_code == 429
    assert login(second, PASSWORD).status_code == 303  # another address: heard
    for _ in range(THROTTLE.free):  # 4 + 3 failures from all: no address past its own
        assert login(second, "wrong").status_code == 401
    assert login(third, "wrong").status_code == 401  # the 8th of all: still free
    assert login(fourth, "wrong").status_code == 401  # the 9th: all together wait now
    for client in (second, third, fourth):  # none past its own free tries, all wait
        r = login(client, PASSWORD)
        assert r.status_code == 429 and r.headers["Retry-After"] == "2"


def test_a_throttled_login_page_says_when_to_try_again(desk: TestClient) -> None:
    for _ in range(THROTTLE.free + 1):
        desk.post("/desk/login", data={"password": "wrong"})
    page = desk.post("/desk/login", data={"password": "wrong"})
    assert page.status_code == 429 and page.headers["Retry-After"] == "2"
    assert "text/html" in page.headers["content-type"] and "2 s" in page.text


# --- sessions -------------------------------------------------------------------------------


def test_logging_out_ends_the_session_for_every_copy_of_the_cookie(desk: TestClient) -> None:
    assert login(desk).status_code == 303
    cookie = desk.cookies["guandan_desk"]
    session = desk.get("/api/session").json()
    assert session["director"] is True and session["csrf"]
    r = desk.get("/api/events/x/disputes")
    assert r.status_code == 404  # the director's: no such event
    out = desk.post("/desk/logout", data={"csrf": session["csrf"]})
    assert out.status_code == 303
    desk.cookies.set("guandan_desk", cookie)  # a copy kept (another tab, a thief)
    assert desk.get("/api/events/x/disputes").status_code == 401
    assert desk.get("/api/session").json() == {"director": False, "csrf": None}


def test_a_new_password_or_secret_key_ends_every_session(migrated_url: str) -> None:
    with service(migrated_url) as first:
        assert login(first).status_code == 303
        cookie = first.cookies["guandan_desk"]
        assert first.get("/api/events/x/disputes").status_code == 404
    # the service restarted with the same settings: the session stays
    with service(migrated_url) as same:
        same.cookies.set("guandan_desk", cookie)
        assert same.get("/api/events/x/disputes").status_code == 404
    # restarted with another director password (the same secret key): the cookie's
    # signature still holds, but its session was opened under the old password
    with service(migrated_url, password="a new director password") as changed:
        changed.cookies.set("guandan_desk", cookie)
        assert changed.get("/api/events/x/disputes").status_code == 401
    with service(migrated_url) as back:  # and it stays ended, even with the old password
        back.cookies.set("guandan_desk", cookie)
        assert back.get("/api/events/x/disputes").status_code == 401
        back.cookies.clear()
        assert login(back).status_code == 303
        cookie = back.cookies["guandan_desk"]
    with service(migrated_url, secret="another secret key of 32+ characters") as rekeyed:
        rekeyed.cookies.set("guandan_desk", cookie)
        assert rekeyed.get("/api/events/x/disputes").status_code == 401


def test_a_cookie_signed_with_the_right_key_is_no_session_unless_the_store_has_it(
    desk: TestClient,
) -> None:
    """What a stateless cookie would have let through: a well-signed cookie naming no
    session the store opened."""
    forged = URLSafeTimedSerializer(SECRET, salt="guandan-desk-session")
    desk.cookies.set("guandan_desk", forged.dumps({"sid": "made up"}))
    assert desk.get("/api/events/x/disputes").status_code == 401
    desk.cookies.set("guandan_desk", forged.dumps({"who": "director", "csrf": "c"}))
    assert desk.get("/api/events/x/disputes").status_code == 401


# --- headers on every page ------------------------------------------------------------------

CSP = re.compile(r"script-src 'self' 'nonce-([A-Za-z0-9_-]{16,})';")


@pytest.fixture
def sqlite_hall_round(sqlite_url: str) -> Iterator[Hall]:  # noqa: F811
    """A round in the hall, on SQLite only: what these tests check happens before the
    database is asked (headers, routing, documents); the throttle and the sessions above
    run on both databases."""
    yield from open_hall(sqlite_url)


def every_kind_of_page(h: Hall) -> dict[str, Any]:
    """One answer of every kind: public, table, desk and error pages, the API, static
    files, the documentation, and the service's own refusals (413, 429)."""
    c = h.client
    token = h.token(1, "open", "report")
    answers = {
        "home": c.get("/"),
        "event": c.get(f"/e/{EV}"),
        "round": c.get(f"/e/{EV}/round/1"),
        "table page": c.get(f"/t/{token}"),
        "north page": c.get(f"/t/{h.token(1, 'open', 'confirm')}"),
        "not found page": c.get("/no/such/page"),
        "api": c.get(f"/api/events/{EV}"),
        "api error": c.get("/api/events/none"),
        "static": c.get("/static/hall/hall.css"),
        "docs": c.get("/api/docs"),
        "redoc": c.get("/api/redoc"),
        "openapi": c.get("/api/openapi.json"),
        "too large": c.post("/api/events", content=b"x" * (1024 * 1024 + 1)),
        "login page": c.get("/desk/login"),
    }
    assert login(c).status_code == 303
    answers |= {
        "desk": c.get("/desk"),
        "desk event": c.get(f"/desk/e/{EV}"),
        "desk round": c.get(f"/desk/e/{EV}/round/1"),
        "desk cards": c.get(f"/desk/e/{EV}/round/1/cards"),
    }
    return answers


def test_every_answer_forbids_framing_and_inline_scripts_without_its_nonce(
    sqlite_hall_round: Hall,
) -> None:
    answers = every_kind_of_page(sqlite_hall_round)
    nonces = set()
    for kind, r in answers.items():
        assert r.status_code < 500, (kind, r.status_code)
        policy = r.headers.get("content-security-policy", "")
        found = CSP.search(policy)
        assert found, (kind, policy)
        nonces.add(found.group(1))
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, kind
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0], kind
        assert r.headers["x-frame-options"] == "DENY", kind
        assert r.headers["x-content-type-options"] == "nosniff", kind
        if "text/html" not in r.headers.get("content-type", ""):
            continue
        # every script that runs is a file of this origin or carries this answer's nonce
        for tag in re.findall(r"<script\b[^>]*>", r.text):
            if 'type="application/json"' in tag:
                continue  # data, never run
            src = re.search(r'src="([^"]+)"', tag)
            if src:
                assert src.group(1).startswith("/"), (kind, tag)  # no CDN
            else:
                assert f'nonce="{found.group(1)}"' in tag, (kind, tag)
        assert not re.search(r"\son[a-z]+=", r.text), kind  # no inline handler
    assert len(nonces) == len(answers)  # a fresh nonce every time
    assert answers["too large"].status_code == 413
    assert answers["desk round"].status_code == 200 and "nonce=" in answers["desk round"].text


def test_the_documentation_loads_nothing_from_elsewhere(sqlite_hall_round: Hall) -> None:
    c = sqlite_hall_round.client
    for path in ("/api/docs", "/api/redoc"):
        page = c.get(path)
        assert page.status_code == 200
        assert not re.search(r"(src|href)=\"(https?:)?//", page.text), path
        for asset in re.findall(r"(?:src|href)=\"(/[^\"]+)\"", page.text):
            got = c.get(asset)
            assert got.status_code == 200 and len(got.content) > 100, asset
    assert "SwaggerUIBundle" in c.get("/static/docs/swagger-ui-bundle.js").text[:3000]


def test_head_is_answered_wherever_get_is(sqlite_hall_round: Hall) -> None:
    c = sqlite_hall_round.client
    token = sqlite_hall_round.token(1, "open", "report")
    assert login(c).status_code == 303
    for path in ("/", f"/e/{EV}", f"/e/{EV}/round/1", f"/t/{token}", f"/api/events/{EV}",
                 f"/api/events/{EV}/standings", f"/api/table/{token}", "/api/openapi.json",
                 "/api/docs", "/static/hall/hall.css", "/desk", f"/desk/e/{EV}",
                 f"/api/events/{EV}/rounds/1/status", "/no/such/page"):
        got, head = c.get(path), c.head(path)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        assert head.headers["content-type"] == got.headers["content-type"], path
        assert "content-security-policy" in head.headers, path
    assert c.head("/api/events").status_code == 200


# --- the OpenAPI document -------------------------------------------------------------------


def test_openapi_names_the_security_of_every_director_operation(sqlite_hall_round: Hall) -> None:
    doc = sqlite_hall_round.client.get("/api/openapi.json").json()
    schemes = doc["components"]["securitySchemes"]
    assert schemes["directorPassword"] == {**schemes["directorPassword"], "type": "http",
                                           "scheme": "bearer"}
    assert schemes["csrfToken"]["in"] == "header"
    assert schemes["csrfToken"]["name"] == "X-CSRF-Token"
    assert schemes["deskSession"]["in"] == "cookie"
    protected = 0
    for path, operations in doc["paths"].items():
        for method, op in operations.items():
            director = "director" in op.get("tags", []) or (path, method) == (
                "/api/events", "post")
            if not director:
                assert "security" not in op, (path, method)
                continue
            protected += 1
            security = op["security"]
            assert {"directorPassword": []} in security, (path, method)
            session = next(s for s in security if "deskSession" in s)
            assert ("csrfToken" in session) == (method != "get"), (path, method)
            assert {"401", "403", "429"} <= op["responses"].keys(), (path, method)
    assert protected >= 18
    tables = [op for path, ops in doc["paths"].items() if "{token}" in path for op in ops.values()]
    assert len(tables) >= 5
    assert all("token in the path" in op["description"] for op in tables)


def test_openapi_bodies_say_exactly_what_is_accepted(sqlite_hall_round: Hall) -> None:
    c = sqlite_hall_round.client
    schemas = c.get("/api/openapi.json").json()["components"]["schemas"]

    def field(model: str, name: str) -> dict[str, Any]:
        spec: dict[str, Any] = schemas[model]["properties"][name]
        options = spec.get("anyOf", [spec])
        return next(o for o in options if o.get("type") != "null")

    for model in ("CorrectionIn", "SettleIn", "RulingIn"):
        values = field(model, "ns_result")["enum"]
        assert sorted(values) == [-4, -3, -2, -1, 1, 2, 3, 4], model
        assert 0 not in values
    assert field("EventIn", "name")["maxLength"] == 200
    assert field("TeamIn", "players")["items"]["maxLength"] == 200
    assert field("CorrectionIn", "reason")["maxLength"] == 500
    assert field("CorrectionIn", "board")["maximum"] == 2**31 - 1
    assert field("ReportIn", "unfinished")["maxLength"] == 500
    # and the service refuses what the schema does not allow, before the library sees it
    r = c.post(f"/api/events/{EV}/rounds/1/corrections",
               headers={"Authorization": f"Bearer {PASSWORD}"},
               json={"table": 1, "board": 1, "room": "open", "ns_result": 0, "reason": "x"})
    assert r.status_code == 422 and "ns_result" in r.json()["message"]


# --- event names the service reaches -------------------------------------------------------


def test_an_event_named_with_a_slash_is_reachable_and_dots_are_refused(
    sqlite_hall_round: Hall,
) -> None:
    c = sqlite_hall_round.client
    bearer = {"Authorization": f"Bearer {PASSWORD}"}
    name = "2026/27 Cup"
    r = c.post("/api/events", json={"name": name, "rounds": 1}, headers=bearer)
    assert r.status_code == 201, r.text
    enc = quote(name, safe="")
    assert c.get(f"/api/events/{enc}").json()["name"] == name
    page = c.get(f"/e/{enc}")
    assert page.status_code == 200 and name in page.text
    assert c.get(f"/e/{quote('2026', safe='')}/27%20Cup").status_code == 404  # not split
    for bad in (".", ".."):
        r = c.post("/api/events", json={"name": bad}, headers=bearer)
        assert r.status_code == 422 and "no web address" in r.json()["message"], bad
    assert [e.name for e in events.list_events(sqlite_hall_round.engine)] == sorted([EVENT, name])


# --- the migration --------------------------------------------------------------------------


def test_migration_0012_goes_down_and_up_with_rows_in_it(migrated_engine: Any) -> None:
    """Down to 0008 drops the sessions and the throttle's counts (every director logs in
    again) and keeps everything else; up again, both tables are back, empty."""
    from sqlalchemy import inspect, text

    from duplicate import db, sessions

    engine = migrated_engine
    now = Clock().now
    events.create_event(engine, "Kept", seed="ab", time_zone="UTC")  # 0008 keeps all it holds
    token, _csrf = sessions.open_session(engine, "tag", now, 3600)
    assert sessions.login_failed(engine, "10.1.1.1", now, THROTTLE) == 0
    db.downgrade(engine, "0008")
    tables = set(inspect(engine).get_table_names())
    assert not {"desk_sessions", "desk_login_failures"} & tables and "events" in tables
    with engine.connect() as conn:
        assert conn.scalar(text("SELECT name FROM events")) == "Kept"
    db.upgrade(engine)
    assert sessions.session_csrf(engine, token, "tag", now) is None
    assert sessions.login_wait(engine, "10.1.1.1", now) == 0
    assert events.get_event(engine, "Kept").name == "Kept"
    again, _ = sessions.open_session(engine, "tag", now, 3600)
    assert sessions.session_csrf(engine, again, "tag", now) is not None


def test_refusals_speak_the_askers_language(sqlite_hall_round: Hall, migrated_url: str) -> None:
    c = sqlite_hall_round.client
    bearer = {"Authorization": f"Bearer {PASSWORD}", "Accept-Language": "zh-CN"}
    r = c.post("/api/events", json={"name": ".."}, headers=bearer)
    assert r.status_code == 422 and "没有网址" in r.json()["message"]
    r = c.post(f"/api/events/{EV}/teams", headers=bearer,
               json={"name": "队" * 201, "players": ["甲", "乙", "丙", "丁"]})
    assert r.status_code == 422, r.text  # the schema's own words: the field and its limit
    with service(migrated_url, clock=Clock()) as desk:
        for _ in range(THROTTLE.free + 1):
            login(desk, "wrong")
        r = desk.post("/desk/login", data={"password": "wrong"},
                      headers={"Accept": "application/json", "Accept-Language": "zh-CN"})
        assert r.status_code == 429 and "请 2 秒后再试" in r.json()["message"]
