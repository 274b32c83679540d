"""The desk's page of plays captured at the table: it needs the director's login and a
CSRF token; it issues and prints the recorders' cards (a QR code of each table's and
room's recorder page, the tokens working); it sets the live view and shows a new
spectator link once; it corrects a captured play, marks a deal unfinished and takes a
record back, each said in the page's message and kept on the board; in both languages."""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi.testclient import TestClient
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event
from test_web_desk import login, post

from duplicate import capture

BASE = f"/desk/e/{quote(EVENT, safe='')}/round/1/capture"


def test_the_desk_prints_recorders_cards_and_sets_the_live_view(
        client: TestClient, migrated_engine: Engine) -> None:
    make_event(migrated_engine, boards=2)
    assert client.get(BASE, follow_redirects=False).status_code == 303  # the login first
    csrf = login(client)
    page = client.get(BASE)
    assert page.status_code == 200 and 'id="recorder-cards"' in page.text
    assert client.post(BASE + "/cards", data={"csrf": "forged"}).status_code == 403
    cards = client.post(BASE + "/cards", data={"csrf": csrf})
    assert cards.status_code == 200 and cards.headers["Cache-Control"] == "no-store"
    assert cards.text.count('class="rcard"') == 4 and cards.text.count("<svg") == 4
    tokens = re.findall(r'<p class="url">[^<]*/r/([^<]+)</p>', cards.text)
    seen = [(t.table, t.room) for t in (capture.table_capture(migrated_engine, x)
                                         for x in tokens)]
    assert seen == [(1, "open"), (1, "closed"), (2, "open"), (2, "closed")]
    zh = client.post(BASE + "/cards", data={"csrf": csrf, "table": "2"},
                     headers={"Accept-Language": "zh"})
    assert zh.text.count('class="rcard"') == 2 and "记录员" in zh.text
    code, _, flash = post(client, BASE + "/live", csrf=csrf, mode="delayed", delay="7")
    assert code == 303 and "delayed, delay 7 minutes" in flash
    assert capture.live_settings(migrated_engine, EVENT).mode == "delayed"
    code, _, flash = post(client, BASE + "/live", csrf=csrf, mode="soon", delay="7")
    assert "one of" in flash
    linked = client.post(BASE + "/link", data={"csrf": csrf})
    url = re.search(r'id="link">[^<]*<code>([^<]+)</code>', linked.text)
    assert url is not None and "/w/" in url.group(1)
    assert capture.watch_event(migrated_engine, url.group(1).rsplit("/w/", 1)[1]) == EVENT
    assert 'id="link"' not in client.get(BASE).text  # shown once


def test_the_desk_corrects_a_captured_board(client: TestClient,
                                            migrated_engine: Engine) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    token = capture.issue_recorder_tokens(e, EVENT, 1, "director")[0].token
    state = capture.start_board(e, token, 1)
    leader = state.leader
    capture.enter_action(e, token, 1, 1, leader, [state.hands[leader][0]])
    csrf = login(client)
    listing = client.get(BASE).text
    assert "/live/round/1/table/1/board/1" in listing
    other = state.hands[leader][-1]
    where = {"csrf": csrf, "table": "1", "room": "open", "board": "1"}
    code, _, flash = post(client, BASE + "/correct", **where, seq="1", seat=leader,
                          cards=other, reason="wrong card")
    assert code == 303 and f"→ {leader} {other}" in flash, flash
    assert capture.board_state(e, token, 1).actions[0].cards == (other,)
    code, _, flash = post(client, BASE + "/take-back", **where, reason="x")
    assert "only an ended deal" in flash
    code, _, flash = post(client, BASE + "/unfinished", **where, reason="time")
    assert "marked unfinished" in flash
    board = capture.live_board(e, EVENT, 1, 1, 1, capture.DIRECTOR)
    assert [c.kind for c in board.rooms[0].corrections] == ["play", "unfinished"]
    assert len({c.by for c in board.rooms[0].corrections}) == 1  # the logged-in director
