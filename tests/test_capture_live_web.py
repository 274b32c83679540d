"""The live view and the director's calls over HTTP, from docs/CAPTURE.md: the director
chooses the live view and hands out a spectator link; the public live pages hold a board
being played (no hands, no plays in the page) until it is released; no table token opens
the spectator pages; the spectator link shows a board late by the delay; the director
corrects a captured play, marks a deal unfinished, takes a record back, each answered with
before and after and shown on the live page; in both languages."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
from conftest import DESK_PASSWORD
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event

from duplicate import capture, events
from duplicate.capture.sim import actions_for_state

BEARER = {"Authorization": f"Bearer {DESK_PASSWORD}"}
E = quote(EVENT, safe="")


@pytest.fixture
def setup(migrated_engine: Engine) -> dict[Any, Any]:
    cards = make_event(migrated_engine, boards=2)
    rec = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")
    return {"cards": cards, "rec": {(c.table, c.room): c.token for c in rec}}


def _lead_and_passes(client: TestClient, token: str, board: int, n: int) -> dict[str, Any]:
    """Start the board and enter ``n`` actions as a device would: the leader plays its
    first card, the others pass (docs/CAPTURE.md, the protocol)."""
    base = f"/api/capture/{token}/boards/{board}"
    state = client.post(base + "/start").json()
    for seq in range(1, n + 1):
        turn = state["turn"]
        cards = [state["hands"][turn][0]] if state["to_beat"] is None else []
        r = client.post(base + "/actions", json={"seq": seq, "seat": turn, "cards": cards})
        assert r.status_code == 200, r.text
        state = client.get(base).json()
    return state


def _plays_in(html: str) -> bool:
    """Whether the page carries a board's movie (its hands and plays)."""
    return 'id="movie-data"' in html


def test_the_public_live_page_holds_a_board_until_released(
        client: TestClient, setup: dict[Any, Any], migrated_engine: Engine) -> None:
    token = setup["rec"][(1, "open")]
    _lead_and_passes(client, token, 1, 3)
    tables = client.get(f"/e/{E}/live")
    assert tables.status_code == 200
    assert "being played" in tables.text and "/live/round/1/table/1/board/1" not in tables.text
    board = client.get(f"/e/{E}/live/round/1/table/1/board/1")
    assert board.status_code == 200 and not _plays_in(board.text)
    assert 'id="held"' in board.text
    zh = client.get(f"/e/{E}/live/round/1/table/1/board/1", headers={"Accept-Language": "zh"})
    assert "这副牌还在进行中" in zh.text and not _plays_in(zh.text)
    events.release_board(migrated_engine, EVENT, 1, 1, "director", "a table withdrew")
    board = client.get(f"/e/{E}/live/round/1/table/1/board/1")
    assert _plays_in(board.text) and 'data-shown="3"' in board.text
    version = client.get(f"/e/{E}/live/round/1/table/1/board/1/version").json()["version"]
    _ = client.post(f"/api/capture/{token}/boards/1/undo", json={"seq": 3})
    assert client.get(
        f"/e/{E}/live/round/1/table/1/board/1/version").json()["version"] != version


def test_no_table_token_opens_the_spectator_pages(client: TestClient,
                                                   setup: dict[Any, Any]) -> None:
    url = f"/api/events/{E}/live-settings"
    assert client.put(url, json={"mode": "delayed", "delay": 0}).status_code == 401
    r = client.put(url, json={"mode": "delayed", "delay": 0}, headers=BEARER)
    assert r.status_code == 200 and r.json() == {"event": EVENT, "mode": "delayed",
                                                 "delay": 0, "has_link": False}
    assert client.put(url, json={"mode": "soon"}, headers=BEARER).status_code == 422
    link = client.post(f"/api/events/{E}/watch-link", headers=BEARER)
    assert link.status_code == 201 and link.json()["url"].endswith("/w/" + link.json()["token"])
    watch = link.json()["token"]
    token = setup["rec"][(2, "closed")]
    _lead_and_passes(client, token, 2, 2)
    others = [c.report_token for c in setup["cards"].values()] + [
        c.confirm_token for c in setup["cards"].values()] + list(setup["rec"].values())
    for t in others:
        for path in (f"/w/{t}", f"/w/{t}/round/1/table/2/board/2",
                     f"/w/{t}/round/1/table/2/board/2/version"):
            r = client.get(path)
            assert r.status_code == 403, path
            assert not _plays_in(r.text)
    page = client.get(f"/w/{watch}/round/1/table/2/board/2")
    assert page.status_code == 200 and _plays_in(page.text)
    assert 'data-shown="2"' in page.text
    listing = client.get(f"/w/{watch}")
    assert f"/w/{watch}/round/1/table/2/board/2" in listing.text
    # ten minutes late: the board started a moment ago is not shown to the link
    client.put(url, json={"mode": "delayed", "delay": 10}, headers=BEARER)
    late = client.get(f"/w/{watch}/round/1/table/2/board/2")
    assert late.status_code == 200 and not _plays_in(late.text)
    assert "Shown 10 minutes late" in client.get(f"/w/{watch}").text
    # back to "released": the link opens nothing
    client.put(url, json={"mode": "released"}, headers=BEARER)
    assert client.get(f"/w/{watch}").status_code == 403


def test_the_director_corrects_a_captured_board_over_http(
        client: TestClient, setup: dict[Any, Any], migrated_engine: Engine) -> None:
    token = setup["rec"][(1, "closed")]
    state = _lead_and_passes(client, token, 2, 1)
    leader = state["actions"][0]["seat"]
    other = state["hands"][leader][-1]
    base = f"/api/events/{E}/rounds/1/tables/1/rooms/closed/boards/2"
    body = {"seq": 1, "seat": leader, "cards": [other], "reason": "wrong card tapped"}
    assert client.post(base + "/correct-play", json=body).status_code == 401
    r = client.post(base + "/correct-play", json=body, headers=BEARER)
    assert r.status_code == 200, r.text
    assert r.json()["after"] == f"{leader} {other}" and r.json()["kind"] == "play"
    assert client.get(f"/api/capture/{token}/boards/2").json()["actions"][0]["cards"] == [other]
    bad = client.post(base + "/correct-play", json={**body, "seq": 5}, headers=BEARER)
    assert bad.status_code == 409
    r = client.post(base + "/mark-unfinished", json={"reason": "time"}, headers=BEARER)
    assert r.status_code == 200 and r.json()["state"] == "unfinished"
    r = client.post(base + "/take-back", json={"reason": "x"}, headers=BEARER)
    assert r.status_code == 409
    events.release_board(migrated_engine, EVENT, 1, 2, "director", "shown")
    page = client.get(f"/e/{E}/live/round/1/table/1/board/2").text
    assert re.search(r"Action 1 corrected by [^:]+: .* → " + re.escape(f"{leader} {other}"),
                     page)
    assert "marked the deal unfinished (time)" in page
    zh = client.get(f"/e/{E}/live/round/1/table/1/board/2",
                    headers={"Accept-Language": "zh"}).text
    assert "第1步由" in zh and "将此牌标为未完成（time）" in zh


def test_a_board_ended_in_both_rooms_shows_its_analysis(
        client: TestClient, setup: dict[Any, Any], migrated_engine: Engine) -> None:
    e = migrated_engine
    for room in ("open", "closed"):
        token = setup["rec"][(2, room)]
        state = capture.start_board(e, token, 1)
        plan = actions_for_state(state.hands, state.level, state.leader, seed=f"w{room}",
                                 policy="mixed")
        for seq, a in enumerate(plan, 1):
            capture.enter_action(e, token, 1, seq, a.seat, a.cards, a.type, a.rank)
    capture.wait_idle()
    events.release_board(e, EVENT, 1, 1, "director", "shown")
    page = client.get(f"/e/{E}/live/round/1/table/2/board/1")
    assert page.status_code == 200 and 'class="analysis"' in page.text
    assert page.text.count('data-state="ended"') == 2
    zh = client.get(f"/e/{E}/live/round/1/table/2/board/1", headers={"Accept-Language": "zh"})
    assert zh.status_code == 200 and 'class="analysis"' in zh.text
