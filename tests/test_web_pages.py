"""The hall's table and public pages (duplicate/web/pages/table.py, duplicate/web/pages/public.py) through
FastAPI's test client on the whole application (``duplicate.web.app.create_app``), on a database set
up with the library (``duplicate.events``, ``duplicate.hall``).

Every page in both languages; hostile names escaped everywhere; the token of one table
and role refused for anything else, changing nothing; the form posts (Post/Redirect/Get,
a double submit stored once, a different report refused); a board not yet finished by
every table refused (403) except to the director; provisional results marked until
published (公示). The helpers here serve tests/test_browser_hall.py too.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import Engine
from test_web_desk import unwrap_sides

from duplicate import events, hall
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

PASSWORD = "pages-director-password"
SECRET = "a secret key of the page tests, long enough"
BEARER = {"Authorization": f"Bearer {PASSWORD}"}
EVENT = "Pages Cup"
SEED = parse_seed_file(seed_file_bytes(bytes(range(1, 33))))


def teams(count: int, prefix: str = "Team") -> list[tuple[str, list[str]]]:
    """``count`` teams of four players, named ``Team A`` ... (and ``A1 Player`` ...)."""
    letters = "ABCDEFGHIJKL"[:count]
    return [(f"{prefix} {c}", [f"{c}{i} Player" for i in range(1, 5)]) for c in letters]


@dataclass
class Round:
    """Round 1 of an event set up through the library: its cards (tokens) and boards."""

    engine: Engine
    event: str
    cards: list[hall.TableCard]
    boards: tuple[int, ...]

    def card(self, table: int, room: str) -> hall.TableCard:
        return next(c for c in self.cards if c.table == table and c.room == room)

    def west(self, table: int, room: str) -> str:
        return self.card(table, room).report_token

    def north(self, table: int, room: str) -> str:
        return self.card(table, room).confirm_token

    @property
    def tables(self) -> list[int]:
        return sorted({c.table for c in self.cards})


def setup_round(
    engine: Engine, event: str = EVENT, team_list: list[tuple[str, list[str]]] | None = None,
    boards: int = 2, start: bool = True, now: Any = None,
) -> Round:
    """An event (round robin), round 1 paired, boards assigned, tokens issued, clock started."""
    events.create_event(engine, event, fmt="rr", boards_per_round=boards, rounds=3,
                        teams=team_list or teams(4))
    events.pair_round(engine, event)
    rnd = events.assign_boards(engine, event, 1, seed=SEED)
    cards = hall.issue_tokens(engine, event, 1, by="director")
    if start:
        hall.start_round(engine, event, 1, by="director", now=now)
    return Round(engine, event, cards, rnd.boards)


def app_client(url: str) -> TestClient:
    return TestClient(create_app(Settings(url, PASSWORD, SECRET)), follow_redirects=False)


@pytest.fixture
def pages_round(migrated_url: str) -> Iterator[tuple[TestClient, Round]]:
    """A round set up in the store (not through the API, as ``hall_round`` is) and the
    service on it: the pages' tests read the store's objects."""
    engine = make_engine(migrated_url)
    try:
        rnd = setup_round(engine)
        with app_client(migrated_url) as client:
            yield client, rnd
    finally:
        engine.dispose()


def ev(name: str = EVENT) -> str:
    return quote(name, safe="")


def report_form(board: int, finish: str = "N S E", **more: str) -> dict[str, str]:
    first, second, *rest = finish.split()
    return {"board": str(board), "first": first, "second": second,
            "third": rest[0] if rest else "", **more}


def post_report(client: TestClient, token: str, board: int, finish: str = "N S E",
                **more: str) -> Any:
    return client.post(f"/t/{token}/report", data=report_form(board, finish, **more))


def live_report(rnd: Round, table: int, room: str, board: int) -> hall.Report:
    grant = hall.grant_for(rnd.engine, rnd.north(table, room))
    status = next(b for b in hall.table_view(rnd.engine, grant).boards if b.board == board)
    assert status.report is not None
    return status.report


def finish_board(client: TestClient, rnd: Round, board: int, finish: str = "N S E") -> None:
    """Every table and room reports and confirms ``board`` through the pages."""
    for table in rnd.tables:
        for room in ("open", "closed"):
            assert post_report(client, rnd.west(table, room), board, finish).status_code == 303
            rid = live_report(rnd, table, room, board).id
            r = client.post(f"/t/{rnd.north(table, room)}/confirm/{rid}")
            assert r.status_code == 303, r.text


def state(rnd: Round) -> Any:
    """What a refused request must leave as it was."""
    return (
        [r.to_dict() for r in hall.round_status(rnd.engine, rnd.event, 1)],
        [[b.to_dict() for b in events.match_boards(rnd.engine, rnd.event, 1, t)]
         for t in rnd.tables],
        events.admin_log(rnd.engine, rnd.event) if hasattr(events, "admin_log") else None,
    )


# --- every page, both languages ----------------------------------------------------------


def pages_of(rnd: Round) -> list[str]:
    e = ev(rnd.event)
    return [
        "/", f"/e/{e}", f"/e/{e}/round/1", f"/e/{e}/round/1/table/1",
        f"/e/{e}/round/1/board/{rnd.boards[0]}",
        f"/t/{rnd.west(1, 'open')}", f"/t/{rnd.north(1, 'closed')}",
    ]


@pytest.mark.parametrize(("lang", "html_lang", "word"), [
    ("en", "en", "Events"), ("zh", "zh-CN", "赛事"),
])
def test_every_page_renders_in_both_languages(
    pages_round: tuple[TestClient, Round], lang: str, html_lang: str, word: str
) -> None:
    client, rnd = pages_round
    finish_board(client, rnd, rnd.boards[0])
    for path in pages_of(rnd):
        r = client.get(path, params={"lang": lang})
        assert r.status_code == 200, (path, r.text)
        assert f'<html lang="{html_lang}">' in r.text, path
        assert word in r.text, path  # the header's link home, in the page's language
        other = "zh" if lang == "en" else "en"
        assert f"lang={other}" in r.text, path  # the language switch
        assert r.headers["content-language"] == html_lang
        assert "{{" not in r.text and "web." not in re.sub(r"<[^>]+>", "", r.text), path
    west = client.get(f"/t/{rnd.west(1, 'open')}", params={"lang": lang}).text
    assert ("头游" in west) == (lang == "zh") and ("1st out" in west) == (lang == "en")
    north = client.get(f"/t/{rnd.north(1, 'open')}", params={"lang": lang}).text
    assert ("开室" in north) == (lang == "zh")


def test_language_from_cookie_and_accept_language(pages_round: tuple[TestClient, Round]) -> None:
    client, rnd = pages_round
    r = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    assert '<html lang="zh-CN">' in r.text
    r = client.get("/", params={"lang": "zh"})
    assert r.cookies.get("lang") == "zh"
    r = client.get(f"/e/{ev()}", headers={"Accept-Language": "en"})  # the cookie wins
    assert '<html lang="zh-CN">' in r.text and "排名" in r.text
    client.cookies.clear()
    r = client.get(f"/e/{ev()}", headers={"Accept-Language": "en"})
    assert '<html lang="en">' in r.text and "Standings" in r.text


# --- hostile names -----------------------------------------------------------------------


HOSTILE_EVENT = "<img src=x onerror=alert(1)> & \"Cup\""
HOSTILE_TEAM = "<script>alert('team')</script>"
HOSTILE_PLAYER = "<b onmouseover=alert(2)>P</b>"


def test_hostile_names_are_escaped_on_every_page(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        team_list = teams(4)
        team_list[0] = (HOSTILE_TEAM, [HOSTILE_PLAYER, "x2", "x3", "x4"])
        rnd = setup_round(engine, HOSTILE_EVENT, team_list)
        with app_client(migrated_url) as client:
            finish_board(client, rnd, rnd.boards[0])
            table = next(c.table for c in rnd.cards if HOSTILE_TEAM in (c.team_ns, c.team_ew))
            paths = [*pages_of(rnd), f"/e/{ev(HOSTILE_EVENT)}/round/1/table/{table}"]
            paths += [f"/t/{rnd.west(table, room)}" for room in ("open", "closed")]
            paths += [f"/t/{rnd.north(table, room)}" for room in ("open", "closed")]
            seen = {HOSTILE_EVENT: 0, HOSTILE_TEAM: 0, HOSTILE_PLAYER: 0}
            for path in paths:
                for lang in ("en", "zh"):
                    r = client.get(path, params={"lang": lang})
                    assert r.status_code == 200, (path, r.text)
                    for name in seen:
                        assert name not in r.text, (path, name)
                        seen[name] += str(escape(name)) in r.text
                    for tag in ("<script>alert", "<img src=x", "<b onmouseover"):
                        assert tag not in r.text, (path, tag)
            assert all(seen.values()), seen  # each name was shown (escaped) somewhere
            # the event's link is one path segment (quoted), never markup
            home = client.get("/").text
            assert f'href="/e/{quote(HOSTILE_EVENT, safe="")}"' in home
    finally:
        engine.dispose()


# --- the table's forms -------------------------------------------------------------------


def test_west_reports_north_confirms_post_redirect_get(
    pages_round: tuple[TestClient, Round],
) -> None:
    client, rnd = pages_round
    west, north, board = rnd.west(1, "open"), rnd.north(1, "open"), rnd.boards[0]
    r = post_report(client, west, board, "N S E")
    assert r.status_code == 303
    assert r.headers["location"] == f"/t/{west}?done=stored&sent={board}"
    page = client.get(r.headers["location"]).text
    assert f"Board {board} received" in page
    # a double submit: stored once, "already received"
    r = post_report(client, west, board, "N S E")
    assert r.status_code == 303 and "done=same" in r.headers["location"]
    assert "already received" in client.get(r.headers["location"]).text
    view = hall.table_view(rnd.engine, hall.grant_for(rnd.engine, west))
    assert [b.state for b in view.boards if b.board == board] == ["reported"]
    # North sees West's report, with what it implies, and confirms it
    page = client.get(f"/t/{north}").text
    report = live_report(rnd, 1, "open", board)
    assert f"/confirm/{report.id}" in page and "N–S up" in unwrap_sides(page)
    r = client.post(f"/t/{north}/confirm/{report.id}")
    assert r.status_code == 303 and "done=confirmed" in r.headers["location"]
    assert live_report(rnd, 1, "open", board).state == "confirmed"
    r = client.post(f"/t/{north}/confirm/{report.id}")  # a second tap changes nothing
    assert "done=already" in r.headers["location"]
    assert "already confirmed" in client.get(r.headers["location"]).text


def test_a_different_report_is_refused_and_changes_nothing(
    pages_round: tuple[TestClient, Round],
) -> None:
    client, rnd = pages_round
    west, board = rnd.west(2, "closed"), rnd.boards[1]
    assert post_report(client, west, board, "E W N").status_code == 303
    before = state(rnd)
    r = post_report(client, west, board, "N E S")
    assert r.status_code == 409
    assert "Not stored:" in r.text and 'id="report-form"' in r.text  # the form again
    assert state(rnd) == before
    # with a correction reason (the window is open) it replaces the report
    r = post_report(client, west, board, "N E S", correction="wrong seat tapped")
    assert r.status_code == 303, r.text
    assert live_report(rnd, 2, "closed", board).finish == "N E S"


def test_unfinished_board_and_dispute_through_the_forms(
    pages_round: tuple[TestClient, Round],
) -> None:
    client, rnd = pages_round
    west, north, board = rnd.west(1, "closed"), rnd.north(1, "closed"), rnd.boards[0]
    r = client.post(f"/t/{west}/report",
                    data={"board": str(board), "unfinished": "yes", "reason": "time"})
    assert r.status_code == 303, r.text
    report = live_report(rnd, 1, "closed", board)
    assert report.unfinished == "time" and report.finish is None
    assert "unfinished (time)" in client.get(f"/t/{north}").text
    r = client.post(f"/t/{north}/dispute/{report.id}", data={"note": ""})
    assert r.status_code == 422 and live_report(rnd, 1, "closed", board).state == "reported"
    r = client.post(f"/t/{north}/dispute/{report.id}", data={"note": "we finished: N S"})
    assert r.status_code == 303 and "done=disputed" in r.headers["location"]
    disputed = hall.disputes(rnd.engine, rnd.event, 1)
    assert [(d.id, d.dispute_note) for d in disputed] == [(report.id, "we finished: N S")]
    assert "the director decides" in client.get(f"/t/{west}").text


def test_the_check_button_shows_the_implied_result_without_js(
    pages_round: tuple[TestClient, Round],
) -> None:
    client, rnd = pages_round
    west = rnd.west(1, "open")
    page = client.get(f"/t/{west}", params={"board": rnd.boards[1], "first": "E",
                                            "second": "W"}).text
    expected = hall.preview_finish(rnd.engine, rnd.event, "E W")
    assert expected.side == "EW" and expected.double_down
    assert "That is: E–W up 3" in unwrap_sides(page)
    assert f'value="{rnd.boards[1]}" checked' in page  # the board picked stays picked
    bad = client.get(f"/t/{west}", params={"first": "E", "second": "E", "third": "N"}).text
    assert 'class="preview bad"' in bad


def test_a_record_over_the_limit_is_refused(pages_round: tuple[TestClient, Round]) -> None:
    from duplicate.web.settings import MAX_RECORD

    client, rnd = pages_round
    before = state(rnd)
    big = b"; a comment\n" * (MAX_RECORD // 12 + 10)
    r = client.post(f"/t/{rnd.west(1, 'open')}/report", data=report_form(rnd.boards[0]),
                    files={"record": ("big.gdn", big, "text/plain")})
    assert r.status_code == 413
    assert state(rnd) == before


def test_tokens_do_their_one_thing_only(pages_round: tuple[TestClient, Round]) -> None:
    client, rnd = pages_round
    board = rnd.boards[0]
    assert post_report(client, rnd.west(2, "open"), board).status_code == 303
    other = live_report(rnd, 2, "open", board)
    before = state(rnd)
    refused = [
        # North's token cannot report, West's cannot confirm or dispute
        client.post(f"/t/{rnd.north(2, 'open')}/report", data=report_form(board, "E W N")),
        client.post(f"/t/{rnd.west(2, 'open')}/confirm/{other.id}"),
        client.post(f"/t/{rnd.west(2, 'open')}/dispute/{other.id}", data={"note": "x"}),
        # another table's, or the other room's, North cannot touch table 2's open report
        client.post(f"/t/{rnd.north(1, 'open')}/confirm/{other.id}"),
        client.post(f"/t/{rnd.north(2, 'closed')}/confirm/{other.id}"),
        client.post(f"/t/{rnd.north(1, 'open')}/dispute/{other.id}", data={"note": "x"}),
        # unknown and mangled tokens
        client.post(f"/t/{'x' * 32}/confirm/{other.id}"),
        client.post(f"/t/{rnd.north(2, 'open')[:-1]}/confirm/{other.id}"),
        client.post(f"/t/{'y' * 500}/report", data=report_form(board)),
    ]
    assert [r.status_code for r in refused] == [403, 403, 403, 404, 404, 404, 403, 403, 403]
    for r in refused:
        assert r.headers["content-type"].startswith("text/html")
    assert client.get(f"/t/{'x' * 32}").status_code == 403
    assert state(rnd) == before
    assert live_report(rnd, 2, "open", board).state == "reported"


# --- public pages ------------------------------------------------------------------------


def test_board_is_refused_until_every_table_has_it(pages_round: tuple[TestClient, Round]) -> None:
    client, rnd = pages_round
    board = rnd.boards[0]
    path = f"/e/{ev()}/round/1/board/{board}"
    r = client.get(path)
    assert r.status_code == 403 and "still being played" in r.text
    assert "Hands" not in r.text and 'id="deal"' not in r.text
    assert "尚在进行中" in client.get(path, params={"lang": "zh"}).text
    client.cookies.clear()  # back to English
    # the director sees it (Bearer here; the desk's cookie alike), marked as such
    r = client.get(path, headers=BEARER)
    assert r.status_code == 200 and 'id="director-only"' in r.text and 'id="deal"' in r.text
    # every table but one room in: still refused; the round page does not link it
    for table in rnd.tables:
        for room in ("open", "closed"):
            if (table, room) == (rnd.tables[-1], "closed"):
                continue
            post_report(client, rnd.west(table, room), board)
            rid = live_report(rnd, table, room, board).id
            client.post(f"/t/{rnd.north(table, room)}/confirm/{rid}")
    assert client.get(path).status_code == 403
    assert f'/board/{board}"' not in client.get(f"/e/{ev()}/round/1").text
    table, room = rnd.tables[-1], "closed"
    post_report(client, rnd.west(table, room), board, "N S")
    client.post(f"/t/{rnd.north(table, room)}/confirm/"
                f"{live_report(rnd, table, room, board).id}")
    r = client.get(path)
    assert r.status_code == 200 and 'id="director-only"' not in r.text
    for t in rnd.tables:
        assert f'id="table-{t}"' in r.text
    assert r.text.count('class="room room-open"') == len(rnd.tables)
    assert "1st out North, 2nd out South" in r.text and "N–S up 3" in unwrap_sides(r.text)
    assert f'/board/{board}"' in client.get(f"/e/{ev()}/round/1").text
    assert client.get(f"/e/{ev()}/round/1/board/999").status_code == 404


def test_provisional_until_published(pages_round: tuple[TestClient, Round]) -> None:
    client, rnd = pages_round
    standings = client.get(f"/e/{ev()}").text
    assert "no round counted yet" in standings and 'data-provisional="1"' not in standings
    for board in rnd.boards:
        finish_board(client, rnd, board, "N S E")
    hall.close_round(rnd.engine, rnd.event, 1, by="director")
    standings = client.get(f"/e/{ev()}")
    assert 'data-provisional="1"' in standings.text and "after round 1" in standings.text
    assert "暂定" in client.get(f"/e/{ev()}", params={"lang": "zh"}).text
    match = client.get(f"/e/{ev()}/round/1/table/1").text
    assert 'data-provisional="1"' in match
    rows, through = events.event_standings(rnd.engine, rnd.event)
    assert through == 1
    shown = re.findall(r'<tr data-team="([^"]+)"><td class="num">(\d+)</td>', standings.text)
    assert [(html.unescape(t), int(k)) for t, k in shown] == [(str(r.team), r.rank) for r in rows]
    hall.publish_round(rnd.engine, rnd.event, 1, by="director")
    assert 'data-provisional="1"' not in client.get(f"/e/{ev()}").text
    assert "已公示" in client.get(f"/e/{ev()}", params={"lang": "zh"}).text
    assert 'data-provisional="1"' not in client.get(f"/e/{ev()}/round/1/table/1").text


def test_draw_and_match_pages_show_the_library_data(
    pages_round: tuple[TestClient, Round],
) -> None:
    client, rnd = pages_round
    draw = client.get(f"/e/{ev()}/round/1").text
    for row in hall.draw(rnd.engine, rnd.event, 1):
        assert f'data-table="{row.table}"' in draw
        assert row.team_x in draw and row.team_y in draw and row.open.west in draw
    assert 'id="hall-clock"' in draw and 'data-phase="running"' in draw
    finish_board(client, rnd, rnd.boards[0], "E W")
    match = hall.public_match(rnd.engine, rnd.event, 1, 1)
    page = client.get(f"/e/{ev()}/round/1/table/1").text
    first = match.boards[0]
    assert first.open_ns is not None and first.closed_ns is not None
    assert f'<tr data-board="{first.board}">' in page
    assert f"{first.open_ns:+d}" in page
    assert "not in yet" in page  # the second board
    assert client.get(f"/e/{ev()}/round/1/table/99").status_code == 404
    assert client.get(f"/e/{ev('No Such Cup')}").status_code == 404


# --- play records, the play-by-play, the clock, a closed window ------------------------


def test_a_play_record_upload_and_the_play_by_play(
    pages_round: tuple[TestClient, Round],
) -> None:
    from duplicate.gdn import loads, split_deals

    client, rnd = pages_round
    board = rnd.boards[0]
    texts = events.bot_records(rnd.engine, rnd.event, 1, "heuristic", "heuristic")
    tables = [m.table for m in events.list_matches(rnd.engine, rnd.event, 1)]
    mine = {}
    for _, text in split_deals(texts[tables.index(1)]):  # one text a match, in match order
        rec = loads(text)[0]
        if rec.tags.get("Board") == str(board):
            mine[rec.tags.get("Room", "").lower()] = (rec, text)
    assert set(mine) == {"open", "closed"}
    path = f"/e/{ev()}/round/1/board/{board}/table/1"
    for room, (rec, text) in mine.items():
        assert rec.finish is not None
        seats = [s.name for s in rec.finish]
        try:  # two seats when they make a double down (the library says), else three
            finish = " ".join(seats[:2])
            hall.preview_finish(rnd.engine, rnd.event, finish)
        except hall.HallError:
            finish = " ".join(seats[:3])
        r = client.post(f"/t/{rnd.west(1, room)}/report", data=report_form(board, finish),
                        files={"record": ("board.gdn", text.encode(), "text/plain")})
        assert r.status_code == 303, r.text
        report = live_report(rnd, 1, room, board)
        assert report.has_record
        assert "with the play record" in client.get(f"/t/{rnd.north(1, room)}").text
        client.post(f"/t/{rnd.north(1, room)}/confirm/{report.id}")
    assert client.get(path).status_code == 403  # table 2 has not played it yet
    for room in ("open", "closed"):
        post_report(client, rnd.west(2, room), board)
        client.post(f"/t/{rnd.north(2, room)}/confirm/{live_report(rnd, 2, room, board).id}")
    page = client.get(f"/e/{ev()}/round/1/board/{board}").text
    assert f'href="{path}"' in page  # both rooms of table 1 have their records
    assert f'href="/e/{ev()}/round/1/board/{board}/table/2"' not in page
    r = client.get(path)
    assert r.status_code == 200 and 'id="movie"' in r.text
    assert client.get(f"/e/{ev()}/round/1/board/{board}/table/2").status_code == 404


def test_the_clock_warns_five_minutes_before_the_end(migrated_url: str) -> None:
    from datetime import UTC, datetime, timedelta

    engine = make_engine(migrated_url)
    try:
        rnd = setup_round(engine, now=datetime.now(UTC) - timedelta(minutes=46))
        with app_client(migrated_url) as client:
            for path in (f"/t/{rnd.west(1, 'open')}", f"/e/{ev()}/round/1"):
                page = client.get(path).text
                assert 'data-phase="warning"' in page
                assert "last 5 minutes, start no new board" in page
                assert "不再开新牌" in client.get(path, params={"lang": "zh"}).text
                client.cookies.clear()
    finally:
        engine.dispose()


def test_a_closed_window_refuses_the_tokens(migrated_url: str) -> None:
    from datetime import UTC, datetime, timedelta

    engine = make_engine(migrated_url)
    try:
        start = datetime.now(UTC) - timedelta(hours=2)
        rnd = setup_round(engine, team_list=teams(2), boards=1, now=start)
        with app_client(migrated_url) as client:
            finish_board(client, rnd, rnd.boards[0])
            hall.close_round(engine, rnd.event, 1, by="director",
                             now=start + timedelta(minutes=40))
            r = client.get(f"/t/{rnd.west(1, 'open')}")
            assert r.status_code == 410 and "correction window is over" in r.text
            assert "Error 410" not in r.text and "This link has expired" in r.text
            assert "ask the director" in r.text
            zh = client.get(f"/t/{rnd.west(1, 'open')}", params={"lang": "zh"}).text
            assert "此链接已失效" in zh and "请找裁判" in zh and "错误 410" not in zh
            r = client.post(f"/t/{rnd.west(1, 'open')}/report",
                            data=report_form(rnd.boards[0], "E W"))
            assert r.status_code == 410
    finally:
        engine.dispose()


@pytest.mark.parametrize(("lang", "said"), [("en", "Bye: {team} (scores {points})"),
                                            ("zh", "轮空：{team}（计{points}分）")])
def test_the_round_page_says_what_a_bye_scores(migrated_url: str, lang: str, said: str) -> None:
    """An odd field: the public round page names the team with the bye and the points the
    standings count for it (the report's cross-table and team page show the same)."""
    from duplicate.i18n.game import points_text

    engine = make_engine(migrated_url)
    try:
        events.create_event(engine, "Bye Cup", seed="5eed", rounds=2, boards_per_round=2,
                            scale="vp20", bye_points=12.5,
                            teams=[("Ants", ["A1", "A2", "A3", "A4"]),
                                   ("Bees", ["B1", "B2", "B3", "B4"]),
                                   ("Cats", ["C1", "C2", "C3", "C4"])])
        events.pair_round(engine, "Bye Cup")
        bye = events.get_round(engine, "Bye Cup", 1).bye
        assert bye is not None
        (scored,) = events.round_byes(engine, "Bye Cup", 1)
        assert scored.team == bye and scored.points == 12.5
        with app_client(migrated_url) as client:
            page = client.get(f"/e/{quote('Bye Cup')}/round/1?lang={lang}").text
        assert said.format(team=bye, points=points_text(12.5, vp=True)) in html.unescape(page)
    finally:
        engine.dispose()
