"""The hall service's API as a whole: the OpenAPI document lists every path of
the contract, errors are JSON with a message and the right status, bodies over the limit
are refused early, tokens never reach the access log, settings refuse to start unsafe."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from helpers.hall import EV, Hall, make_client, refused, snapshot

from duplicate.web.app import BodyLimit, TokenLogFilter, hide_tokens
from duplicate.web.settings import MAX_BODY, Settings, SettingsError

#: Every path of the contract's API list (section 2, "URLs").
CONTRACT_PATHS = {
    # the whole event's export and its order of tie-breaks
    "/api/events/{event}/export": {"get"},
    "/api/events/{event}/tiebreaks": {"post"},
    # plays captured at the table: the device protocol (docs/CAPTURE.md), recorders' cards
    "/api/capture/{token}": {"get"},
    "/api/capture/{token}/boards/{board}": {"get"},
    "/api/capture/{token}/boards/{board}/start": {"post"},
    "/api/capture/{token}/boards/{board}/actions": {"post"},
    "/api/capture/{token}/boards/{board}/readings": {"post"},
    "/api/capture/{token}/boards/{board}/undo": {"post"},
    "/api/events/{event}/rounds/{n}/recorder-cards": {"post"},
    # the live view's settings and spectator link; the director's calls on a captured board
    "/api/events/{event}/live-settings": {"get", "put"},
    "/api/events/{event}/watch-link": {"post"},
    "/api/events/{event}/rounds/{n}/tables/{t}/rooms/{room}/boards/{b}/correct-play": {"post"},
    "/api/events/{event}/rounds/{n}/tables/{t}/rooms/{room}/boards/{b}/mark-unfinished":
        {"post"},
    "/api/events/{event}/rounds/{n}/tables/{t}/rooms/{room}/boards/{b}/take-back": {"post"},
    "/api/session": {"get"},
    "/api/events/{event}/requests": {"get"},
    "/api/events/{event}/requests/{report_id}/accept": {"post"},
    "/api/events/{event}/requests/{report_id}/dismiss": {"post"},
    "/api/events": {"get", "post"},
    "/api/events/{event}": {"get"},
    "/api/events/{event}/rounds/{n}/draw": {"get"},
    "/api/events/{event}/standings": {"get"},
    "/api/events/{event}/rounds/{n}/tables/{t}": {"get"},
    "/api/events/{event}/rounds/{n}/boards/{b}": {"get"},
    "/api/events/{event}/rounds/{n}/clock": {"get"},
    "/api/table/{token}": {"get"},
    "/api/table/{token}/preview": {"get"},
    "/api/table/{token}/reports": {"post"},
    "/api/table/{token}/reports/{report_id}/confirm": {"post"},
    "/api/table/{token}/reports/{report_id}/dispute": {"post"},
    "/api/events/{event}/teams": {"post"},
    "/api/events/{event}/rounds": {"post"},
    "/api/events/{event}/rounds/{n}/boards": {"post"},
    "/api/events/{event}/rounds/{n}/cards": {"post"},
    "/api/events/{event}/rounds/{n}/start": {"post"},
    "/api/events/{event}/rounds/{n}/checkins": {"post"},
    "/api/events/{event}/rounds/{n}/arrivals": {"get"},
    "/api/events/{event}/rounds/{n}/status": {"get"},
    "/api/events/{event}/disputes": {"get"},
    "/api/events/{event}/disputes/{report_id}/settle": {"post"},
    "/api/events/{event}/rounds/{n}/rulings": {"post"},
    "/api/events/{event}/rulings": {"get"},
    "/api/events/{event}/rounds/{n}/close": {"post"},
    "/api/events/{event}/rounds/{n}/publish": {"post"},
    "/api/events/{event}/rounds/{n}/corrections": {"post"},
    "/api/events/{event}/rounds/{n}/export": {"get"},
    "/api/events/{event}/log": {"get"},
    # the director's further actions (duplicate/web/api_director_actions.py)
    "/api/events/{event}/rounds/{n}/pending": {"get"},
    "/api/events/{event}/reports/{report_id}/confirm": {"post"},
    "/api/events/{event}/reports/{report_id}/dismiss": {"post"},
    "/api/events/{event}/rounds/{n}/unfinished": {"post"},
    "/api/events/{event}/rounds/{n}/release": {"post"},
    "/api/events/{event}/rounds/{n}/clock/pause": {"post"},
    "/api/events/{event}/rounds/{n}/clock/resume": {"post"},
    "/api/events/{event}/rounds/{n}/clock/move": {"post"},
    "/api/events/{event}/rounds/{n}/late": {"get", "post"},
    "/api/events/{event}/teams/rename": {"post"},
    "/api/events/{event}/players/rename": {"post"},
    "/api/events/{event}/time-zone": {"post"},
    "/api/events/{event}/substitutions": {"post"},
    "/api/events/{event}/withdrawals": {"post"},
    "/api/events/{event}/director-minutes": {"get", "put"},
    "/api/events/{event}/import": {"post"},
    "/api/events/{event}/delete": {"post"},
    "/api/board-sets": {"get"},
    "/api/seeds": {"post"},
}


def test_openapi_lists_every_path_with_its_models(hall_round: Hall) -> None:
    r = hall_round.client.get("/api/openapi.json")
    assert r.status_code == 200
    doc = r.json()
    paths = {p: set(ops) for p, ops in doc["paths"].items() if p.startswith("/api/")}
    assert paths == CONTRACT_PATHS
    schemas = doc["components"]["schemas"]
    for name in ("ReportIn", "ReportOut", "TableViewOut", "ClockOut", "StandingsOut",
                 "RulingIn", "ErrorOut", "CardOut"):
        assert name in schemas, name
    report = doc["paths"]["/api/table/{token}/reports"]["post"]
    assert report["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ReportIn")
    assert {"201", "200", "403", "409", "410", "422"} <= set(report["responses"])
    assert "/desk/login" not in doc["paths"]
    docs = hall_round.client.get("/api/docs")
    assert docs.status_code == 200 and "/api/openapi.json" in docs.text


def test_errors_are_json_with_the_right_status(hall_round: Hall) -> None:
    c = hall_round.client
    assert refused(c.get("/api/no/such/thing"), 404)["error"] == "not_found"
    assert refused(c.delete("/api/events"), 405)["error"] == "method_not_allowed"
    body = refused(c.get(f"/api/events/{EV}/rounds/zero/clock"), 422)
    assert "n" in body["message"]
    token = hall_round.token(1, "open", "report")
    body = refused(c.post(f"/api/table/{token}/reports", json={"board": "three"}), 422)
    assert "board" in body["message"]
    body = refused(c.post(f"/api/table/{token}/reports", content=b"{not json",
                          headers={"Content-Type": "application/json"}), 422)
    assert body["error"] == "invalid"
    assert refused(c.get("/api/events/Nothing%20here"), 404)["error"] == "not_found"
    # pages are not JSON
    page = c.get("/no/such/page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "no such page: /no/such/page" in page.text
    zh = c.get("/no/such/page", params={"lang": "zh"})
    assert zh.status_code == 404 and zh.headers["content-language"] == "zh-CN"
    assert c.post("/desk/login", data={"password": "x"}).status_code == 401


def test_an_oversized_body_is_refused_before_it_is_read(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    token = h.token(1, "open", "report")
    big = b'{"board": 1, "finish": "N S", "record": "' + b"x" * MAX_BODY + b'"}'
    r = h.client.post(f"/api/table/{token}/reports", content=big,
                      headers={"Content-Type": "application/json"})
    assert refused(r, 413)["error"] == "too_large"

    def chunks() -> Any:  # no Content-Length: refused while streaming
        yield b'{"board": 1, "finish": "N S", "record": "'
        for _ in range(40):
            yield b"y" * 65536
        yield b'"}'

    r = h.client.post(f"/api/table/{token}/reports", content=chunks(),
                      headers={"Content-Type": "application/json"})
    assert refused(r, 413)["error"] == "too_large"
    r = h.client.post("/desk/login", content=b"password=" + b"p" * MAX_BODY,
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    assert snapshot(h.engine) == before


@pytest.mark.anyio
async def test_body_limit_stops_reading_at_the_limit() -> None:
    received: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            received.append(len(message.get("body", b"")))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    limited = BodyLimit(app, limit=100)
    transport = httpx.ASGITransport(app=limited, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        r = await client.post("/api/x", content=b"z" * 101)
        assert r.status_code == 413 and received == []  # never read: Content-Length said it
        r = await client.post("/api/x", content=b"z" * 100)
        assert r.status_code == 200 and sum(received) == 100


def test_tokens_never_reach_the_access_log() -> None:
    token = "Zq3-abcDEF_0123456789xyzXYZ0123456"
    assert hide_tokens(f"/t/{token}") == "/t/…"
    assert hide_tokens(f"/t/{token}/confirm/3") == "/t/…/confirm/3"
    assert hide_tokens(f"/api/table/{token}/reports?x=1") == "/api/table/…/reports?x=1"
    assert hide_tokens("/api/events/Cup/standings") == "/api/events/Cup/standings"
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "POST", f"/api/table/{token}/reports", "1.1", 201), None,
    )
    assert TokenLogFilter().filter(record)
    assert token not in record.getMessage() and "/api/table/…/reports" in record.getMessage()


def test_settings_refuse_a_missing_or_short_password(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/x.sqlite"
    with pytest.raises(SettingsError, match="director password"):
        Settings(url, "short", "k" * 32)
    with pytest.raises(SettingsError, match="secret key"):
        Settings(url, "long enough password", "k")
    with pytest.raises(SettingsError, match="GUANDAN_DIRECTOR_PASSWORD"):
        Settings.from_env({"GUANDAN_DB": url, "GUANDAN_SECRET_KEY": "k" * 32})
    s = Settings.from_env({
        "GUANDAN_DB": url, "GUANDAN_DIRECTOR_PASSWORD": "long enough password",
        "GUANDAN_SECRET_KEY": "k" * 32, "GUANDAN_PUBLIC_URL": "https://hall.example.org/",
    })
    assert s.public_url == "https://hall.example.org"
    assert Settings.from_env(s.to_env()) == s


def test_the_cards_use_the_request_address_without_a_public_url(migrated_url: str) -> None:
    from helpers.hall import setup_round

    with make_client(migrated_url, public_url="") as client:
        cards = setup_round(client, start=False)
    assert all(c["report_url"] == f"https://testserver/t/{c['report_token']}" for c in cards)


def test_a_write_that_lost_a_race_is_tried_again() -> None:
    from sqlalchemy.exc import IntegrityError, OperationalError

    from duplicate.web.context import RACE_TRIES
    from duplicate.web.deps import retry_races

    calls: list[int] = []

    @retry_races
    def write(n: int) -> int:
        calls.append(n)
        if len(calls) < 3:
            raise IntegrityError("INSERT ...", {}, Exception("duplicate key"))
        return n * 2

    assert write(21) == 42 and calls == [21, 21, 21]
    calls.clear()

    @retry_races
    def always(n: int) -> int:
        calls.append(n)
        raise IntegrityError("INSERT ...", {}, Exception("duplicate key"))

    with pytest.raises(IntegrityError):
        always(1)
    assert len(calls) == RACE_TRIES
    calls.clear()

    @retry_races
    def broken() -> None:
        calls.append(0)
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    with pytest.raises(OperationalError):
        broken()
    assert calls == [0]  # not a race: no second try
