"""The hall service's JSON API, the director's part and the public reads: the
director's credentials (Bearer password, or the desk's signed cookie with a CSRF token),
every director endpoint doing its one thing and refusing everyone else, and the public
reads hiding what is not yet released."""

from __future__ import annotations

from typing import Any

import pytest
from helpers.hall import (
    BEARER,
    EV,
    EVENT,
    PASSWORD,
    Hall,
    finish_round,
    refused,
    room_result,
    snapshot,
)
from itsdangerous import URLSafeTimedSerializer

from duplicate import events, hall


def director_calls(client: Any) -> list[tuple[str, str]]:
    """Every director endpoint of the OpenAPI document, with round 1 and id 1 filled in."""
    doc = client.get("/api/openapi.json").json()
    calls = []
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if "director" in op.get("tags", []):
                concrete = (path.replace("{event}", EV).replace("{n}", "1")
                            .replace("{report_id}", "1"))
                calls.append((method.upper(), concrete))
    return calls


def login(h: Hall) -> str:
    """Log the test client in at the desk; the session's CSRF token."""
    r = h.client.post("/desk/login", data={"password": PASSWORD, "next": "/desk/e/x"},
                      follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/desk/e/x"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    session = h.client.get("/api/session").json()  # the session lives in the store
    assert session["director"] is True
    csrf: str = session["csrf"]
    return csrf


# --- credentials ---------------------------------------------------------------------------


def test_every_director_endpoint_refuses_without_the_password(hall_round: Hall) -> None:
    h = hall_round
    calls = director_calls(h.client)
    assert len(calls) >= 18
    before = snapshot(h.engine)
    for method, path in calls:
        for headers in ({}, {"Authorization": "Bearer wrong password"},
                        {"Authorization": f"Basic {PASSWORD}"}):
            r = h.client.request(method, path, headers=headers, json={})
            body = refused(r, 401)
            assert body["error"] == "unauthorized", (method, path)
    assert snapshot(h.engine) == before


def test_table_tokens_are_no_director_credential(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    for card in h.cards:
        headers = {"Authorization": f"Bearer {card['report_token']}"}
        refused(h.client.post(f"/api/events/{EV}/rounds/1/close", headers=headers), 401)
    assert snapshot(h.engine) == before


def test_cookie_session_needs_the_csrf_header_for_writes(hall_round: Hall) -> None:
    h = hall_round
    csrf = login(h)
    assert h.client.get(f"/api/events/{EV}/rounds/1/arrivals").status_code == 200
    before = snapshot(h.engine)
    path = f"/api/events/{EV}/rounds/1/checkins"
    refused(h.client.post(path, json={"team": "Team A"}), 403)
    refused(h.client.post(path, json={"team": "Team A"}, headers={"X-CSRF-Token": "forged"}),
            403)
    refused(h.client.post(path, json={"team": "Team A"},
                          headers={"X-CSRF-Token": csrf[:-1]}), 403)
    for method, other in director_calls(h.client):  # every write of the director's API
        if method != "GET":
            refused(h.client.request(method, other, json={}, headers={"X-CSRF-Token": "x"}),
                    403)
            refused(h.client.request(method, other, json={}), 403)
    assert snapshot(h.engine) == before
    r = h.client.post(path, json={"team": "Team A"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert r.json()["team"] == "Team A" and r.json()["checked_in_at"] is not None


def test_a_forged_or_foreign_cookie_is_no_session(hall_round: Hall) -> None:
    h = hall_round
    other = URLSafeTimedSerializer("another key of 32 characters......",
                                   salt="guandan-desk-session")
    h.client.cookies.set("guandan_desk", other.dumps({"who": "director", "csrf": "c"}))
    before = snapshot(h.engine)
    refused(h.client.post(f"/api/events/{EV}/rounds/1/checkins", json={"team": "Team A"},
                          headers={"X-CSRF-Token": "c"}), 401)
    h.client.cookies.set("guandan_desk", "not even signed")
    refused(h.client.get(f"/api/events/{EV}/rounds/1/status"), 401)
    assert snapshot(h.engine) == before


def test_the_session_cookie_ends_with_the_browser_and_expires(
    hall_round: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = hall_round
    r = h.client.post("/desk/login", data={"password": PASSWORD}, follow_redirects=False)
    cookie = r.headers["set-cookie"].lower()
    assert "max-age" not in cookie and "expires" not in cookie and "secure" in cookie
    assert h.client.get(f"/api/events/{EV}/rounds/1/status").status_code == 200
    monkeypatch.setattr("duplicate.web.auth.SESSION_SECONDS", -1)  # every signature is too old now
    refused(h.client.get(f"/api/events/{EV}/rounds/1/status"), 401)


def test_login_refuses_a_wrong_password_and_foreign_next(hall_round: Hall) -> None:
    h = hall_round
    r = h.client.post("/desk/login", data={"password": "guess"}, follow_redirects=False)
    assert r.status_code == 401 and "guandan_desk" not in r.headers.get("set-cookie", "")
    r = h.client.post("/desk/login", data={"password": "guess"},
                      headers={"Accept": "application/json"}, follow_redirects=False)
    assert refused(r, 401)["error"] == "unauthorized"
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "desk"):
        r = h.client.post("/desk/login", data={"password": PASSWORD, "next": target},
                          follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/desk", target


def test_logout_ends_the_session(hall_round: Hall) -> None:
    h = hall_round
    csrf = login(h)
    r = h.client.post("/desk/logout", data={"csrf": "forged"}, follow_redirects=False)
    assert r.status_code == 403
    assert h.client.get(f"/api/events/{EV}/rounds/1/status").status_code == 200
    r = h.client.post("/desk/logout", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert "guandan_desk" not in h.client.cookies
    refused(h.client.get(f"/api/events/{EV}/rounds/1/status"), 401)


# --- the director's actions ------------------------------------------------------------------


def test_event_reads_never_show_the_seed(hall_round: Hall) -> None:
    h = hall_round
    listed = h.client.get("/api/events").json()
    assert [e["name"] for e in listed] == [EVENT] and listed[0]["current_round"] == 1
    detail = h.client.get(f"/api/events/{EV}").json()
    seed = events.get_event(h.engine, EVENT).seed
    assert seed not in h.client.get(f"/api/events/{EV}").text
    assert "seed" not in detail
    assert [t["name"] for t in detail["teams"]] == ["Team A", "Team B", "Team C", "Team D"]
    assert detail["paired_rounds"][0]["boards"] == [1, 2]
    refused(h.client.get("/api/events/No%20such%20cup"), 404)


def test_draw_and_clock_are_public(hall_round: Hall) -> None:
    h = hall_round
    draw = h.client.get(f"/api/events/{EV}/rounds/1/draw").json()
    assert [d["table"] for d in draw] == [1, 2]
    card = h.card(1, "open")
    assert draw[0]["open"]["north"] == card["seats"]["N"]
    clock = h.client.get(f"/api/events/{EV}/rounds/1/clock").json()
    assert clock["phase"] == "running" and clock["minutes"] == 50
    assert 0 < clock["seconds_left"] <= 50 * 60
    refused(h.client.get(f"/api/events/{EV}/rounds/9/clock"), 404)


def test_start_twice_is_a_conflict(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    refused(h.director("POST", "/rounds/1/start"), 409)
    assert snapshot(h.engine) == before


def test_check_in_and_arrivals(hall_round: Hall) -> None:
    h = hall_round
    r = h.director("POST", "/rounds/1/checkins", json={"team": "Team B"})
    assert r.status_code == 200, r.text
    assert r.json()["status"] in ("on_time", "late") and r.json()["minutes_late"] < 1
    again = h.director("POST", "/rounds/1/checkins", json={"team": "Team B"})
    assert again.json()["checked_in_at"] == r.json()["checked_in_at"]
    arrivals = {a["team"]: a["status"] for a in h.director("GET", "/rounds/1/arrivals").json()}
    assert arrivals["Team B"] == r.json()["status"] and arrivals["Team A"] == "waiting"
    refused(h.director("POST", "/rounds/1/checkins", json={"team": "Nobody"}), 404)


def test_status_settle_close_publish_and_standings(hall_round: Hall) -> None:
    h = hall_round
    finish_round(h)  # every room N-S +1
    status = h.director("GET", "/rounds/1/status").json()
    assert len(status) == 4
    assert all(b["state"] == "confirmed" for room in status for b in room["boards"])
    # a correction by the table, disputed by North, settled by the director
    r = h.report(2, "closed", 2, finish="E W", correction="wrong order")
    rid = r.json()["id"]
    token = h.token(2, "closed", "confirm")
    h.client.post(f"/api/table/{token}/reports/{rid}/dispute", json={"note": "it was N S"})
    refused(h.director("POST", "/rounds/1/close"), 422)  # a dispute is open
    r = h.director("POST", f"/disputes/{rid}/settle",
                   json={"reason": "both pairs agree: N S", "finish": "N S"})
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "settled"
    assert room_result(h.engine, 2, 2, "closed") == 3
    assert h.director("GET", "/disputes").json() == []
    version = h.client.get(f"/api/events/{EV}/standings")
    assert version.status_code == 200
    etag = version.headers["etag"]
    assert h.client.get(f"/api/events/{EV}/standings",
                        headers={"If-None-Match": etag}).status_code == 304
    r = h.director("POST", "/rounds/1/close")
    assert r.status_code == 200 and r.json()["phase"] == "closed"
    after_close = h.client.get(f"/api/events/{EV}/standings", headers={"If-None-Match": etag})
    assert after_close.status_code == 200 and after_close.headers["etag"] != etag
    standings = after_close.json()
    assert standings["provisional"] is True and standings["through"] == 1
    live = hall.live_standings(h.engine, EVENT)
    assert [(r["team"], r["points"]) for r in standings["rows"]] == [
        (row.team, row.points) for row in live.rows
    ]
    r = h.director("POST", "/rounds/1/publish")
    assert r.status_code == 200 and r.json()["phase"] == "published"
    assert h.client.get(f"/api/events/{EV}/standings").json()["provisional"] is False
    match = h.client.get(f"/api/events/{EV}/rounds/1/tables/2").json()
    assert match["provisional"] is False
    assert [(b["open_ns"], b["closed_ns"]) for b in match["boards"]] == [(1, 1), (1, 3)]


def test_rulings_are_recorded_and_listed(hall_round: Hall) -> None:
    h = hall_round
    r = h.director("POST", "/rounds/1/rulings", json={
        "table": 1, "category": "warning", "effect": "none", "team": "Team A",
        "reason": "slow play",
    })
    assert r.status_code == 201, r.text
    assert r.json()["by"] == "director" and r.json()["category"] == "warning"
    r = h.director("POST", "/rounds/1/rulings", json={
        "table": 2, "category": "foul", "effect": "assigned", "board": 1, "room": "open",
        "ns_result": -3, "reason": "revoke: offenders double down",
    })
    assert r.status_code == 201, r.text
    assert room_result(h.engine, 2, 1, "open") == -3
    listed = h.director("GET", "/rulings").json()
    assert [x["category"] for x in listed] == ["warning", "foul"]
    before = snapshot(h.engine)
    refused(h.director("POST", "/rounds/1/rulings", json={
        "table": 1, "category": "scolding", "effect": "none", "reason": "x"}), 422)
    assert snapshot(h.engine) == before


def test_corrections_export_and_log(hall_round: Hall) -> None:
    h = hall_round
    finish_round(h)
    r = h.director("POST", "/rounds/1/corrections", json={
        "table": 1, "board": 2, "room": "closed", "ns_result": -2,
        "reason": "score sheet misread",
    })
    assert r.status_code == 200, r.text
    assert room_result(h.engine, 1, 2, "closed") == -2
    log = h.director("GET", "/log").json()
    assert any(e["reason"] == "score sheet misread" and e["by"] == "director"
               for e in log["results"])
    assert len(log["reports"]) == 8  # every board of every room, who and when
    assert all(r["state"] == "confirmed" and r["reported_by"] and r["confirmed_at"]
               for r in log["reports"])
    assert any(e["action"] == "hall start" for e in log["admin"])
    r = h.director("GET", "/rounds/1/export")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    refused(h.director("GET", "/rounds/1/export", params={"unreleased": "true"}), 422)
    r = h.director("GET", "/rounds/1/export",
                   params={"unreleased": "true", "reason": "the desk's copy"})
    assert r.status_code == 200
    assert any(e["reason"] == "the desk's copy" for e in h.director("GET", "/log").json()["admin"])


def test_a_board_is_hidden_until_every_table_has_it(hall_round: Hall) -> None:
    h = hall_round
    r = h.report(1, "open", 1, finish="N S")
    h.confirm(1, "open", r.json()["id"])
    body = refused(h.client.get(f"/api/events/{EV}/rounds/1/boards/1"), 403)
    assert "hands" not in body
    # the director sees it at once
    seen = h.client.get(f"/api/events/{EV}/rounds/1/boards/1", headers=BEARER)
    assert seen.status_code == 200 and len(seen.json()["hands"]) == 4
    for table, room in ((1, "closed"), (2, "open"), (2, "closed")):
        r = h.report(table, room, 1, finish="N S")
        h.confirm(table, room, r.json()["id"])
    board = h.client.get(f"/api/events/{EV}/rounds/1/boards/1")
    assert board.status_code == 200, board.text
    data = board.json()
    assert data["board"] == 1 and sorted(data["hands"]) == ["E", "N", "S", "W"]
    assert [(t["table"], t["open"], t["closed"]) for t in data["tables"]] == [
        (1, "+3", "+3"), (2, "+3", "+3")
    ]
    refused(h.client.get(f"/api/events/{EV}/rounds/1/boards/7"), 404)


def test_create_event_teams_pairing_and_boards_refusals(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    refused(h.client.post("/api/events", headers=BEARER, json={"name": EVENT}), 400)
    refused(h.client.post("/api/events", headers=BEARER,
                          json={"name": "X", "variants": {"no_such_rule": 1}}), 422)
    refused(h.client.post("/api/events", headers=BEARER,
                          json={"name": "X", "format": "knockout"}), 422)
    body = refused(h.client.post("/api/events", headers=BEARER, json={"name": ".."}), 422)
    assert "name" in body["message"]  # a name '..' could never be reached by URL
    refused(h.director("POST", "/teams", json={"name": "Late", "players": ["a", "b", "c"]}), 422)
    refused(h.director("POST", "/rounds/1/boards", json={}), 422)
    refused(h.director("POST", "/rounds/1/boards", json={"set_name": "missing"}), 404)
    assert snapshot(h.engine) == before
    r = h.client.post("/api/events", headers=BEARER, json={
        "name": "Second Cup", "teams": [{"name": "T1", "players": ["a", "b", "c", "d"]}],
    })
    assert r.status_code == 201, r.text
    r = h.client.post("/api/events/Second%20Cup/teams", headers=BEARER,
                      json={"name": "T2", "players": ["e", "f", "g", "h"]})
    assert r.status_code == 201 and r.json()["pairs"] == [["e", "f"], ["g", "h"]]
    r = h.client.post("/api/events/Second%20Cup/rounds", headers=BEARER, json={})
    assert r.status_code == 201 and len(r.json()["matches"]) == 1


def test_standings_are_computed_once_per_results_version(
    hall_round: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = hall_round
    computed: list[str] = []
    real = hall.live_standings

    def counting(engine: Any, event: str) -> Any:
        computed.append(event)
        return real(engine, event)

    monkeypatch.setattr(hall, "live_standings", counting)
    first = h.client.get(f"/api/events/{EV}/standings")
    second = h.client.get(f"/api/events/{EV}/standings")
    assert first.json() == second.json() and first.headers["etag"] == second.headers["etag"]
    assert len(computed) == 1  # the second poll was served from this worker's cache
    finish_round(h)
    assert h.director("POST", "/rounds/1/close").status_code == 200
    third = h.client.get(f"/api/events/{EV}/standings")
    assert len(computed) == 2 and third.headers["etag"] != first.headers["etag"]
    assert third.json()["through"] == 1 and third.json() != first.json()
