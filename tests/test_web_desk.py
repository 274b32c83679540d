"""The director's desk pages (duplicate/web/pages/desk.py, desk_round.py) through the test client.

Every page needs the director's login; every form refuses a missing or forged CSRF token
and changes nothing; a round is run from the desk (boards, cards, start, check-in, a late
team's conceded board, a dispute settled, close, publish, a correction) with the
library's state checked after each step; hostile names come out escaped; the messages
follow the page's language. On SQLite, and on PostgreSQL when it is configured.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from conftest import DESK_PASSWORD
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, update

from duplicate import events, hall, models
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes

#: the director's password of the ``client`` fixture (tests/conftest.py)
PASSWORD = DESK_PASSWORD
SECRET = bytes(range(32))
SEED = seed_file_bytes(SECRET).decode("ascii")
TEAMS = [
    ("Tigers", ["Li Wei", "Wang Fang", "Zhang Min", "Chen Jie"]),
    ("Dragons", ["Zhao Lei", "Sun Li", "Zhou Yan", "Wu Hao"]),
    ("Pandas", ["Xu Jing", "Ma Lin", "Hu Bo", "Guo Qiang"]),
    ("Cranes", ["He Ping", "Lin Tao", "Luo Na", "Song Yu"]),
]
EV = "Spring Cup"
EVQ = "Spring%20Cup"


def engine_of(client: TestClient) -> Engine:
    engine: Engine = client.app.state.engine  # type: ignore[attr-defined]
    return engine


def login(client: TestClient) -> str:
    """Log in as the director; the CSRF token of the session."""
    r = client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/desk"
    return csrf_of(client.get("/desk").text)


def csrf_of(page: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', page)
    assert m, "no CSRF field on the page"
    return m.group(1)


def flash_of(page: str) -> str:
    """The text of the page's message (unescaped; a side's label as its text, not the
    ``<span class="side">`` that keeps it on one line), or ''."""
    m = re.search(r'<p class="flash (ok|bad)"[^>]*>(.*?)</p>', page, re.S)
    return html.unescape(unwrap_sides(m.group(2))) if m else ""


def unwrap_sides(page: str) -> str:
    """``page`` with its side labels (``<span class="side">N–S</span>``, kept on one line
    by the stylesheet) as their text."""
    return re.sub(r'<span class="side">(N–S|E–W)</span>', r"\1", page)


def post(client: TestClient, path: str, **data: Any) -> tuple[int, str, str]:
    """POST a desk form: (status, the page it redirects to or the answer, its message)."""
    r = client.post(path, data=data, follow_redirects=False)
    if r.status_code != 303:
        return r.status_code, r.text, ""
    page = client.get(r.headers["location"])
    assert page.status_code == 200, page.text
    return 303, page.text, flash_of(page.text)


def make_event(client: TestClient, csrf: str, boards: int = 2) -> None:
    """The event, its teams, round 1 paired and given boards, all from the desk."""
    teams = "\n".join(f"{t}: {', '.join(ps)}" for t, ps in TEAMS)
    status, page, msg = post(client, "/desk/events", csrf=csrf, name=EV, format="rr",
                             rounds="3", boards_per_round=str(boards), scale="wdl",
                             unfinished="average", teams=teams)
    assert status == 303 and msg == f"Event {EV} created.", msg
    assert [t.name for t in events.list_teams(engine_of(client), EV)] == [t for t, _ in TEAMS]
    status, page, msg = post(client, f"/desk/e/{EVQ}/pair", csrf=csrf, lineups="")
    assert msg == "Round 1 paired."
    assert len(events.get_round(engine_of(client), EV, 1).matches) == 2
    status, page, msg = post(client, f"/desk/e/{EVQ}/boards", csrf=csrf, round_no="1",
                             set_name="", seed_text=SEED, schedule="fixed")
    assert msg == f"Round 1: boards 1 to {boards} of set {EV}.", msg
    assert events.get_round(engine_of(client), EV, 1).boards == tuple(range(1, boards + 1))


def snapshot(engine: Engine) -> dict[str, Any]:
    """What the desk's forms could change, as the library reports it."""
    out: dict[str, Any] = {"events": [e.name for e in events.list_events(engine)]}
    names = out["events"]
    for name in names:
        numbers = sorted({m.round for m in events.list_matches(engine, name)})
        out[name] = {
            "teams": [t.to_dict() for t in events.list_teams(engine, name)],
            "rounds": [(n, events.get_round(engine, name, n).boards) for n in numbers],
            "clocks": [hall.round_clock(engine, name, n).to_dict() for n in numbers],
            "arrivals": [[a.to_dict() for a in hall.arrivals(engine, name, n)]
                         for n in numbers],
            "rulings": [r.to_dict() for r in hall.rulings(engine, name)],
            "disputes": [r.to_dict() for r in hall.disputes(engine, name)],
            "log": len(events.admin_log(engine, name)),
            "corrections": events.list_corrections(engine, name),
        }
        for k in out[name]["clocks"]:
            k.pop("seconds_left", None)
        for arrivals in out[name]["arrivals"]:
            for a in arrivals:
                a.pop("minutes_late", None)
                a.pop("status", None)
    return out


# --- login ----------------------------------------------------------------------------------


def test_login_wrong_then_right(client: TestClient) -> None:
    page = client.get("/desk/login?next=/desk/e/x")
    assert page.status_code == 200 and 'name="password"' in page.text
    assert 'name="next" value="/desk/e/x"' in page.text
    r = client.post("/desk/login", data={"password": "wrong-password"}, follow_redirects=False)
    assert r.status_code == 401 and "guandan_desk" not in r.headers.get("set-cookie", "")
    assert client.get("/desk", follow_redirects=False).status_code == 303
    r = client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                    follow_redirects=False)
    assert r.status_code == 303 and "guandan_desk=" in r.headers["set-cookie"]
    home = client.get("/desk", follow_redirects=False)
    assert home.status_code == 200 and 'action="/desk/events"' in home.text


def test_login_page_never_sends_elsewhere(client: TestClient) -> None:
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil"):
        page = client.get("/desk/login", params={"next": target})
        assert 'name="next" value="/desk"' in page.text, target


PAGES = ["/desk", f"/desk/e/{EVQ}", f"/desk/e/{EVQ}/round/1", f"/desk/e/{EVQ}/round/1/cards"]
FORMS = [
    ("/desk/events", {"name": "Other", "rounds": "2", "boards_per_round": "2"}),
    (f"/desk/e/{EVQ}/teams", {"name": "Owls", "players": "a, b, c, d"}),
    (f"/desk/e/{EVQ}/pair", {}),
    (f"/desk/e/{EVQ}/boards", {"round_no": "2", "set_name": EV}),
    (f"/desk/e/{EVQ}/round/1/start", {"minutes": "50", "warning_minutes": "5",
                                     "correction_minutes": "10"}),
    (f"/desk/e/{EVQ}/round/1/checkin", {"team": "Tigers"}),
    (f"/desk/e/{EVQ}/round/1/rulings", {"table": "1", "category": "warning", "effect": "none",
                                       "reason": "noise"}),
    (f"/desk/e/{EVQ}/round/1/disputes/1/settle", {"reason": "x", "result": "1"}),
    (f"/desk/e/{EVQ}/round/1/close", {}),
    (f"/desk/e/{EVQ}/round/1/publish", {}),
    (f"/desk/e/{EVQ}/round/1/corrections", {"table": "1", "board": "1", "room": "open",
                                           "result": "NS +1", "reason": "x"}),
    (f"/desk/e/{EVQ}/round/1/cards", {}),
]


def test_every_page_and_form_needs_the_director(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    client.cookies.clear()
    before = snapshot(engine_of(client))
    for path in PAGES:
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 303, path
        assert r.headers["location"].startswith("/desk/login?next=%2Fdesk"), path
    assert client.get(f"/desk/e/{EVQ}/round/1/live").status_code == 401
    for path, data in FORMS:
        r = client.post(path, data={**data, "csrf": csrf}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/desk/login"), path
    assert snapshot(engine_of(client)) == before


def test_after_login_the_page_asked_for(client: TestClient) -> None:
    r = client.get(f"/desk/e/{EVQ}/round/1", follow_redirects=False)
    target = r.headers["location"]
    assert target == "/desk/login?next=%2Fdesk%2Fe%2FSpring%2520Cup%2Fround%2F1"
    page = client.get(target)
    nxt = re.search(r'name="next" value="([^"]+)"', page.text)
    assert nxt and html.unescape(nxt.group(1)) == f"/desk/e/{EVQ}/round/1"


def test_every_form_refuses_a_missing_or_forged_csrf_token(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    other = TestClient(client.app)
    other_csrf = login(other)
    assert other_csrf != csrf
    before = snapshot(engine_of(client))
    for path, data in FORMS:
        for token in (None, "", "forged-" + csrf[7:], other_csrf):
            body = dict(data) if token is None else {**data, "csrf": token}
            r = client.post(path, data=body, follow_redirects=False)
            assert r.status_code == 403, (path, token)
            assert "CSRF" in r.text
    assert snapshot(engine_of(client)) == before


# --- events, teams, pairing, boards ---------------------------------------------------------


def test_event_forms_refuse_bad_input_clearly_and_change_nothing(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    before = snapshot(engine)
    cases = [
        ("/desk/events", {"name": EV, "rounds": "3", "boards_per_round": "2"}, EV),
        ("/desk/events", {"name": "New", "rounds": "three", "boards_per_round": "2"},
         "Rounds: three is not a whole number"),
        ("/desk/events", {"name": "A/B", "rounds": "3", "boards_per_round": "2"}, "slash"),
        ("/desk/events", {"name": "New", "rounds": "3", "boards_per_round": "2",
                          "teams": "Tigers Li, Wang"}, "TEAM: player"),
        (f"/desk/e/{EVQ}/teams", {"name": "Owls", "players": "a, b"}, "Owls"),
        (f"/desk/e/{EVQ}/teams", {"name": "Tigers", "players": "a, b, c, d"}, "Tigers"),
        (f"/desk/e/{EVQ}/pair", {"lineups": "Tigers=one"}, "Tigers=one"),
        (f"/desk/e/{EVQ}/boards", {"round_no": "1", "set_name": EV,
                                   "seed_text": SEED}, "either a stored board set or a seed"),
        (f"/desk/e/{EVQ}/boards", {"round_no": "1"}, "either a stored board set or a seed"),
        (f"/desk/e/{EVQ}/boards", {"round_no": "1", "seed_text": "{}"}, "not a seed file"),
        (f"/desk/e/{EVQ}/boards", {"round_no": "9", "set_name": EV}, "round 9"),
    ]
    for path, data, words in cases:
        status, page, msg = post(client, path, csrf=csrf, **data)
        assert status == 303, (path, data)
        assert '<p class="flash bad"' in page, (path, data, msg)
        assert words in msg, (words, msg)
    assert snapshot(engine) == before


def test_teams_and_the_next_rounds_from_the_desk(client: TestClient) -> None:
    csrf = login(client)
    status, page, msg = post(client, "/desk/events", csrf=csrf, name="Club night",
                             format="swiss", rounds="2", boards_per_round="1", scale="vp20")
    assert msg == "Event Club night created."
    info = events.get_event(engine_of(client), "Club night")
    assert (info.format, info.rounds, info.boards_per_round, info.scale.name) == \
        ("swiss", 2, 1, "vp20")
    for team, players in TEAMS[:2]:
        status, page, msg = post(client, "/desk/e/Club%20night/teams", csrf=csrf, name=team,
                                 players=", ".join(players))
        assert msg == f"Team {team} entered."
    teams = events.list_teams(engine_of(client), "Club night")
    assert [(t.name, list(t.players)) for t in teams] == [(t, p) for t, p in TEAMS[:2]]
    assert "Wang Fang" in page and "Zhou Yan" in page
    status, page, msg = post(client, "/desk/e/Club%20night/pair", csrf=csrf,
                             lineups="Tigers=2,1")
    assert msg == "Round 1 paired."
    match = events.get_round(engine_of(client), "Club night", 1).matches[0]
    assert "Zhang Min" in match.open_players or "Zhang Min" in match.closed_players
    assert 'data-round="1"' in page


# --- a round run from the desk --------------------------------------------------------------


def tokens_of(page: str) -> dict[tuple[int, str], tuple[str, str]]:
    """(table, room) -> (West's token, North's token), from the printed cards."""
    out = {}
    for m in re.finditer(r'<section class="tcard" data-table="(\d+)" data-room="(\w+)">(.*?)'
                         r"</section>", page, re.S):
        found = re.findall(r'<p class="url">[^<]*/t/([A-Za-z0-9_-]+)</p>', m.group(3))
        assert len(found) == 2
        out[int(m.group(1)), m.group(2)] = (found[0], found[1])
    return out


def test_a_round_run_from_the_desk(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    base = f"/desk/e/{EVQ}/round/1"
    rnd = events.get_round(engine, EV, 1)
    late_team = rnd.matches[0].team_y

    # cards: asked first, issued by the POST; a second issue voids the first cards
    ask = client.get(f"{base}/cards")
    assert ask.status_code == 200 and "/t/" not in ask.text and "voids" in ask.text
    first = client.post(f"{base}/cards", data={"csrf": csrf})
    assert first.status_code == 200
    old = tokens_of(first.text)
    assert set(old) == {(1, "open"), (1, "closed"), (2, "open"), (2, "closed")}
    assert first.text.count("<svg") == 8
    cards = client.post(f"{base}/cards", data={"csrf": csrf})
    tokens = tokens_of(cards.text)
    with pytest.raises(hall.HallError):
        hall.grant_for(engine, old[1, "open"][0])
    assert hall.grant_for(engine, tokens[1, "open"][0]).role == "report"

    # every team but the late one checks in before the start
    for m in rnd.matches:
        for team in (m.team_x, m.team_y):
            if team != late_team:
                status, page, msg = post(client, f"{base}/checkin", csrf=csrf, team=team)
                assert msg == f"{team} checked in."
    assert hall.round_clock(engine, EV, 1).phase == "not_started"
    status, page, msg = post(client, f"{base}/start", csrf=csrf, minutes="50",
                             warning_minutes="5", correction_minutes="10")
    assert msg == "Round 1: the clock is running."
    clock = hall.round_clock(engine, EV, 1)
    assert (clock.phase, clock.minutes, clock.correction_minutes) == ("running", 50, 10)
    status, page, msg = post(client, f"{base}/start", csrf=csrf, minutes="50",
                             warning_minutes="5", correction_minutes="10")
    assert "started already" in msg

    # seven minutes pass (the stored start and check-ins move back), the late team checks in
    with session_scope(engine) as session:
        session.execute(update(models.HallRound).values(
            started_at=clock.started_at - timedelta(minutes=7)))
        for row in session.scalars(select(models.HallCheckin)):
            row.checked_in_at -= timedelta(minutes=7)
    status, page, msg = post(client, f"{base}/checkin", csrf=csrf, team=late_team)
    arrival = {a.team: a for a in hall.arrivals(engine, EV, 1)}[late_team]
    assert arrival.status == "concedes" and 7 <= arrival.minutes_late < 8
    assert {a.status for a in hall.arrivals(engine, EV, 1) if a.team != late_team} == \
        {"on_time"}
    row = re.search(rf'<tr data-team="{late_team}" data-status="concedes">(.*?)</tr>', page,
                    re.S)
    assert row and "Rule: concedes the first board" in row.group(1)
    status, page, msg = post(client, f"{base}/rulings", csrf=csrf, table="1",
                             team=late_team, category="late", effect="conceded",
                             reason=f"{late_team} arrived 7.0 minutes late")
    assert msg == "Ruling recorded (table 1)."
    (ruling,) = hall.rulings(engine, EV, 1)
    assert (ruling.category, ruling.effect, ruling.team, ruling.by) == \
        ("late", "conceded", late_team, "director")
    grid = {(r.table, r.room): {b.board: b.state for b in r.boards}
            for r in hall.round_status(engine, EV, 1)}
    assert grid[1, "open"][1] == grid[1, "closed"][1] == "ruled"

    # the tables report (West) and confirm (North); one North disputes
    for (table, room), (west, north) in sorted(tokens.items()):
        for board in rnd.boards:
            if grid[table, room][board] == "ruled":
                continue
            report, _ = hall.west_report(engine, hall.grant_for(engine, west), board,
                                         finish="N S E")
            if (table, room, board) == (2, "closed", 2):
                hall.north_dispute(engine, hall.grant_for(engine, north), board, report.id,
                                   "West and East went out first")
                disputed = report
            else:
                hall.north_confirm(engine, hall.grant_for(engine, north), board, report.id)
    page = client.get(base).text
    live = client.get(f"{base}/live").text
    assert 'data-table="2" data-room="closed"' in live
    assert re.search(r'data-board="2" data-state="disputed"', live)
    assert "West and East went out first" in page

    # closing is refused while the dispute is open; nothing changes
    status, page, msg = post(client, f"{base}/close", csrf=csrf)
    assert msg.startswith("Refused, nothing changed:")
    assert hall.round_clock(engine, EV, 1).phase != "closed"
    status, page, msg = post(client, f"{base}/publish", csrf=csrf)
    assert msg.startswith("Refused, nothing changed:")

    # a settle form with two answers is refused; then settled as E-W +2
    status, page, msg = post(client, f"{base}/disputes/{disputed.id}/settle", csrf=csrf,
                             reason="both", finish="E W N", result="EW +2")
    assert msg.startswith("Refused, nothing changed:")
    assert [d.id for d in hall.disputes(engine, EV, 1)] == [disputed.id]
    status, page, msg = post(client, f"{base}/disputes/{disputed.id}/settle", csrf=csrf,
                             reason="East confirms he went out first", result="EW +2")
    assert msg == "Dispute settled: table 2, board 2."
    assert hall.disputes(engine, EV, 1) == []
    counted = {(r.table, r.room): {b.board: b.ns_result for b in r.boards}
               for r in hall.round_status(engine, EV, 1)}
    assert counted[2, "closed"][2] == -2

    # close (scored), publish (公示)
    status, page, msg = post(client, f"{base}/close", csrf=csrf)
    assert msg == "Round 1 closed and scored.", msg
    assert hall.round_clock(engine, EV, 1).phase == "closed"
    status, page, msg = post(client, f"{base}/publish", csrf=csrf)
    assert msg == "Round 1 published."
    assert hall.round_clock(engine, EV, 1).phase == "published"
    assert f'href="/api/events/{EVQ}/rounds/1/export"' in page
    for link in re.findall(r'href="(/(?:api|e)/[^"]+)"', page):
        assert client.get(html.unescape(link)).status_code == 200, link
    export = client.get(f"/api/events/{EVQ}/rounds/1/export")
    assert export.status_code == 200

    # a director's correction, logged with who and why
    before = len(events.list_corrections(engine, EV))
    status, page, msg = post(client, f"{base}/corrections", csrf=csrf, table="2", board="1",
                             room="open", result="NS +1", reason="score sheet misread")
    assert msg == "Result corrected: table 2, board 1."
    log = events.list_corrections(engine, EV)
    assert len(log) == before + 1 and log[-1]["reason"] == "score sheet misread"
    assert log[-1]["by"] == "director"
    counted = {(r.table, r.room): {b.board: b.ns_result for b in r.boards}
               for r in hall.round_status(engine, EV, 1)}
    assert counted[2, "open"][1] == 1


def test_rulings_form_refuses_what_the_library_refuses(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    base = f"/desk/e/{EVQ}/round/1"
    before = snapshot(engine)
    for data in (
        {"table": "1", "category": "shouting", "effect": "none", "reason": "x"},
        {"table": "9", "category": "warning", "effect": "none", "reason": "x"},
        {"table": "1", "category": "warning", "effect": "none", "reason": ""},
        {"table": "one", "category": "warning", "effect": "none", "reason": "x"},
        {"table": "1", "category": "foul", "effect": "assigned", "board": "1", "room": "open",
         "result": "NS +9", "reason": "x"},
    ):
        status, page, msg = post(client, f"{base}/rulings", csrf=csrf, **data)
        assert status == 303 and msg.startswith(("Refused", "Table")), (data, msg)
    assert snapshot(engine) == before
    status, page, msg = post(client, f"{base}/rulings", csrf=csrf, table="2",
                             category="warning", effect="none", reason="slow play")
    assert msg == "Ruling recorded (table 2)."
    (r,) = hall.rulings(engine, EV, 1)
    assert (r.table, r.category, r.reason) == (2, "warning", "slow play")
    assert "slow play" in page


# --- escaping, language, messages -----------------------------------------------------------

HOSTILE = '<script>alert("x")</script>'


def test_hostile_names_are_escaped_on_every_desk_page(client: TestClient) -> None:
    csrf = login(client)
    engine = engine_of(client)
    name = '<img src=x onerror="alert(1)">'
    teams = [(f"{HOSTILE}{i}", [f"<b>p{i}{k}</b>" for k in range(4)]) for i in range(4)]
    events.create_event(engine, name, fmt="rr", rounds=3, boards_per_round=2, teams=teams)
    events.pair_round(engine, name)
    events.assign_boards(engine, name, 1, seed=parse_seed_file(SEED.encode()))
    path = "/desk/e/%3Cimg%20src%3Dx%20onerror%3D%22alert%281%29%22%3E"
    hall.start_round(engine, name, 1, "director")
    hall.record_ruling(engine, name, 1, 1, "warning", "none", "director", HOSTILE)
    pages = [client.get(p) for p in ("/desk", path, f"{path}/round/1", f"{path}/round/1/cards",
                                     f"{path}/round/1/live")]
    pages.append(client.post(f"{path}/round/1/cards", data={"csrf": csrf}))
    for r in pages:
        assert r.status_code == 200, r.url
        assert "<script>alert" not in r.text and "<img src=x" not in r.text, r.url
        assert "<b>p" not in r.text
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;0" in pages[2].text
    assert "&lt;b&gt;p00&lt;/b&gt;" in pages[1].text
    # a refusal that quotes a hostile name is escaped too
    status, page, msg = post(client, f"{path}/round/1/checkin", csrf=csrf, team=HOSTILE)
    assert HOSTILE in msg and "<script>alert" not in page


def test_messages_and_pages_in_chinese(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    client.cookies.set("lang", "zh")
    status, page, msg = post(client, f"/desk/e/{EVQ}/round/1/checkin", csrf=csrf,
                             team="Tigers", back="event")
    assert msg == "Tigers 已签到。"
    assert "签到" in page and "编排下一轮" in page and "分配牌" in page
    status, page, msg = post(client, f"/desk/e/{EVQ}/round/1/close", csrf=csrf)
    assert msg.startswith("未执行，未作任何更改：")
    # the library's refusal itself is in Chinese too (the round cannot close: why)
    assert msg == "未执行，未作任何更改：“Spring Cup”第1轮还没有开始计时"
    for word in ("开始计时", "争议", "判罚", "结束本轮", "公示", "裁判更正", "导出"):
        assert word in page, word
    status, page, msg = post(client, f"/desk/e/{EVQ}/round/1/rulings", csrf=csrf, table="x",
                             category="warning", effect="none", reason="r")
    assert msg == "桌号：x 不是整数"
    status, page, msg = post(client, f"/desk/e/{EVQ}/teams", csrf=csrf, name="Latecomers",
                             players="A, B, C, D")
    assert "已经编排了轮次，不能再报名" in msg


def test_a_forged_flash_cookie_is_ignored(client: TestClient) -> None:
    login(client)
    for value in ("not-base64!", "eyJrIjogIngifQ==", "e30="):
        client.cookies.set("guandan_desk_flash", value, path="/desk")
        page = client.get("/desk")
        assert page.status_code == 200 and flash_of(page.text) == ""


def test_unknown_events_and_rounds_are_404_and_a_round_without_boards_says_so(
    client: TestClient,
) -> None:
    csrf = login(client)
    make_event(client, csrf)
    for path in ("/desk/e/Nope", "/desk/e/Nope/round/1", f"/desk/e/{EVQ}/round/9",
                 f"/desk/e/{EVQ}/round/9/cards", f"/desk/e/{EVQ}/round/9/live"):
        r = client.get(path)
        assert r.status_code == 404, path
    status, page, msg = post(client, f"/desk/e/{EVQ}/pair", csrf=csrf)
    assert msg == "Round 2 paired."
    page = client.get(f"/desk/e/{EVQ}/round/2").text
    assert "Assign the round&#39;s boards first." in page and 'id="status-grid"' not in page
    before = snapshot(engine_of(client))
    status, page, msg = post(client, f"/desk/e/{EVQ}/round/2/cards", csrf=csrf)
    assert status == 303 and msg.startswith("Refused, nothing changed:") and "/t/" not in page
    status, page, msg = post(client, f"/desk/e/{EVQ}/round/2/start", csrf=csrf, minutes="50",
                             warning_minutes="5", correction_minutes="10")
    assert "no boards" in msg
    assert snapshot(engine_of(client)) == before


def test_the_cards_template_needs_nothing_of_a_request(client: TestClient) -> None:
    """``guandan event table-cards`` renders desk_cards.html for a request of no one."""
    from starlette.requests import Request

    from duplicate.web.cards import card_context
    from duplicate.web.render import page

    csrf = login(client)
    make_event(client, csrf)
    cards = hall.issue_tokens(engine_of(client), EV, 1, "director")
    scope = {"type": "http", "method": "GET", "path": "/x", "root_path": "", "scheme": "http",
             "server": ("localhost", 80), "headers": [], "query_string": b"lang=zh"}
    text = bytes(page(Request(scope), "desk_cards.html",
                      **card_context(cards, "https://hall.example.org")).body).decode()
    assert text.count('<section class="tcard"') == 4 and text.count("<svg") == 8
    assert text.count("西家报分") == 4 and "West reports" not in text and "第1桌" in text
    for card in cards:
        assert f"https://hall.example.org/t/{card.report_token}" in text
        assert f"https://hall.example.org/t/{card.confirm_token}" in text
        assert card.seats.north in text and card.seats.west in text


def test_boards_from_an_uploaded_seed_file_then_from_the_stored_set(client: TestClient) -> None:
    csrf = login(client)
    engine = engine_of(client)
    events.create_event(engine, "Upload Cup", fmt="rr", rounds=3, boards_per_round=2,
                        teams=TEAMS)
    events.pair_round(engine, "Upload Cup")
    r = client.post("/desk/e/Upload%20Cup/boards", data={"csrf": csrf, "round_no": "1"},
                    files={"seed_file": ("cup.seed", SEED.encode(), "application/json")},
                    follow_redirects=True)
    assert flash_of(r.text) == "Round 1: boards 1 to 2 of set Upload Cup."
    assert SECRET.hex() not in r.text  # the secret is never shown back
    events.pair_round(engine, "Upload Cup")
    page = client.get("/desk/e/Upload%20Cup").text
    assert '<option value="Upload Cup" selected>' in page
    assert '<option value="2" selected>' in page  # the round without boards
    status, page, msg = post(client, "/desk/e/Upload%20Cup/boards", csrf=csrf, round_no="2",
                             set_name="Upload Cup")
    assert msg == "Round 2: boards 3 to 4 of set Upload Cup."
    assert events.get_round(engine, "Upload Cup", 2).boards == (3, 4)
    # another seed file for the same event is refused, the round's boards stay
    other = seed_file_bytes(bytes(32)).decode()
    status, page, msg = post(client, "/desk/e/Upload%20Cup/boards", csrf=csrf, round_no="2",
                             seed_text=other)
    assert msg.startswith("Refused, nothing changed:") and "another seed file" in msg
    assert events.get_round(engine, "Upload Cup", 2).boards == (3, 4)


def test_a_long_refusal_still_fits_its_cookie() -> None:
    from duplicate.web.pages.desk_base import FLASH, redirect

    r = redirect("/desk", ("desk.flash.refused", {"message": "队名太长" * 2000}), error=True)
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{FLASH}=") and len(cookie) < 4000


def test_the_live_poll_leaves_the_pages_message(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    r = client.post(f"/desk/e/{EVQ}/round/1/checkin", data={"csrf": csrf, "team": "Tigers"},
                    follow_redirects=False)
    live = client.get(f"/desk/e/{EVQ}/round/1/live")
    assert live.status_code == 200 and 'id="status-grid"' in live.text
    assert live.headers["cache-control"] == "no-store"
    assert flash_of(client.get(r.headers["location"]).text) == "Tigers checked in."
    assert flash_of(client.get(r.headers["location"]).text) == ""  # shown once
