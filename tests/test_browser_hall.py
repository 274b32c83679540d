"""A whole round of the hall in a real browser (Debian's Chromium through Playwright),
against the service itself (uvicorn on 127.0.0.1, a free port, in a thread).

Round 1 of an eight-team event: four tables, eight boards. The director logs in at the
desk, checks a late team in and rules its first board conceded; every West reports eight
boards from a 390-px phone page and every North confirms them (table 1's open room fully
by tapping and clicking; the other rooms through the same form posts); one North disputes
a board and the director settles it at the desk; the director closes the round (the
standings page marks it provisional) and publishes it (the page, polling, drops the mark
without a reload); the standings page then equals ``duplicate.events.event_standings``.
What a person sees is checked on the way: texts, no horizontal overflow at 390 px, touch
targets of at least 44 px. A screenshot of every page type goes to tests/artifacts/hall/.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import pytest
import uvicorn
from conftest_browser import ARTIFACTS
from test_web_pages import PASSWORD, SECRET, Round, live_report, setup_round, teams

from duplicate import events, hall
from duplicate.db import make_engine
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

EVENT = "Hall Browser Cup"
EV = quote(EVENT, safe="")
SHOTS = ARTIFACTS / "hall"
PHONE = {"width": 390, "height": 844}
#: Finishing orders the tables report (open and closed rooms differ: swings).
ORDERS = ["N S E", "E W", "N E S", "W E N", "S W N", "E N W", "N S", "W S E"]

OVERFLOW_JS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
SMALL_TARGETS_JS = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(e => e.offsetParent !== null)
  .map(e => [e.tagName + (e.className ? '.' + e.className : '') + ' ' + e.textContent.trim().slice(0, 20),
             e.getBoundingClientRect()])
  .filter(([_, r]) => r.width < 44 || r.height < 44)
  .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
TARGETS = ("button, select, summary, .hall-header a, .boardpick label, label.check, "
           "input[type=text], .rounds a, .boardlinks a, .boardlinks span, td a, a.crumb, "
           ".drawlist a")


def order_of(table: int, room: str, board: int) -> str:
    """The order West reports: the open rooms go through every order, the closed rooms
    follow another pattern (so that matches are won and lost, not all drawn)."""
    if room == "open":
        return ORDERS[(board + table) % len(ORDERS)]
    return ORDERS[(board * board * table + 3 * board + table) % len(ORDERS)]


@pytest.fixture
def server(migrated_url: str) -> Iterator[str]:
    """The service on ``migrated_url`` at http://127.0.0.1:<free port> (stopped after)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(Settings(migrated_url, PASSWORD, SECRET))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            access_log=False)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)
        app.state.engine.dispose()


def seen_well(page: Any, name: str) -> None:
    """The page fits 390 px, its controls are big enough; a screenshot of it is kept."""
    assert page.evaluate(OVERFLOW_JS) <= 0, f"{name}: horizontal overflow at 390 px"
    small = page.evaluate(SMALL_TARGETS_JS, TARGETS)
    assert small == [], f"{name}: touch targets under 44 px: {small}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def west_by_hand(page: Any, base: str, rnd: Round, table: int, room: str,
                 boards: list[int]) -> None:
    """West of ``table``/``room`` reports ``boards`` by tapping, on the phone page."""
    page.goto(f"{base}/t/{rnd.west(table, room)}")
    assert page.locator("h1").inner_text() == f"Table {table}, Open room"
    assert "You are West" in page.inner_text("main")
    for board in boards:
        page.click(f".boardpick label:has(input[value='{board}'])")
        assert page.inner_text("#send") == f"Send board {board}"
        seats = order_of(table, room, board).split()
        for i, seat in enumerate(seats):
            page.tap(f"#picker button[data-seat={seat}]")
            if i == 1 and len(seats) == 3 and not double_down(rnd, seats[:2]):
                page.wait_for_function(
                    "() => document.getElementById('preview').textContent.includes('3rd')")
        expected = hall.preview_finish(rnd.engine, rnd.event, " ".join(seats))
        words = "N–S" if expected.ns_result > 0 else "E–W"
        page.wait_for_function(
            "(w) => document.getElementById('preview').textContent.startsWith('That is: ' + w)",
            arg=f"{words} up {expected.levels}")
        if board == boards[0]:
            assert page.locator("#picker button.picked").count() == len(seats)
            seen_well(page, "table-west")
        page.click("#send")
        page.wait_for_selector("#flash")
        assert page.inner_text("#flash") == f"Board {board} received: North now checks it."


def double_down(rnd: Round, seats: list[str]) -> bool:
    """Whether two seats out first already make the order whole (the library says)."""
    try:
        return hall.preview_finish(rnd.engine, rnd.event, " ".join(seats)).double_down
    except hall.HallError:
        return False


def north_by_hand(page: Any, base: str, rnd: Round, table: int, room: str, count: int) -> None:
    """North of ``table``/``room`` confirms the ``count`` reports waiting, by clicking."""
    page.goto(f"{base}/t/{rnd.north(table, room)}")
    assert "You are North" in page.inner_text("main")
    assert page.locator(".report-card").count() == count
    seen_well(page, "table-north")
    for _ in range(count):
        card = page.locator(".report-card").first
        board = int(card.get_attribute("data-board") or 0)
        card.locator("button.confirm").click()
        page.wait_for_selector("#flash")
        assert page.inner_text("#flash") == f"Board {board} confirmed: the result counts."
    assert page.locator("#nothing").is_visible()


def post_form(request: Any, url: str, form: dict[str, str]) -> None:
    """A form post as the page makes it (303, Post/Redirect/Get)."""
    r = request.post(url, form=form, max_redirects=0)
    assert r.status == 303, (url, r.status, r.text()[:300])


def report_by_post(request: Any, base: str, rnd: Round, table: int, room: str,
                   board: int) -> None:
    first, second, *third = order_of(table, room, board).split()
    post_form(request, f"{base}/t/{rnd.west(table, room)}/report",
              {"board": str(board), "first": first, "second": second,
               "third": third[0] if third else ""})


def confirm_by_post(request: Any, base: str, rnd: Round, table: int, room: str,
                    board: int) -> None:
    rid = live_report(rnd, table, room, board).id
    post_form(request, f"{base}/t/{rnd.north(table, room)}/confirm/{rid}", {})


def standings_shown(page: Any) -> list[tuple[int, str, str, str]]:
    rows = page.eval_on_selector_all(
        "#standings-rows tr",
        "rows => rows.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
    return [(int(r[0]), r[1], r[2], r[5]) for r in rows]


def test_a_whole_round_in_the_browser(browser: Any, server: str, migrated_url: str) -> None:
    started = time.monotonic()
    engine = make_engine(migrated_url)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                locale="en-GB")
    desk = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    try:
        start = datetime.now(UTC) - timedelta(minutes=7)
        rnd = setup_round(engine, EVENT, teams(8), boards=8, now=start)
        draw = hall.draw(engine, EVENT, 1)
        assert len(draw) == 4 and len(rnd.boards) == 8
        late_table = 4
        late = next(d.team_x for d in draw if d.table == late_table)
        for d in draw:
            for team in (d.team_x, d.team_y):
                if team != late:
                    hall.check_in(engine, EVENT, 1, team, "director", now=start)
        first = rnd.boards[0]
        p = phone.new_page()

        # before anything is in: the public pages, the board refused
        p.goto(f"{server}/")
        assert EVENT in p.inner_text("main")
        seen_well(p, "public-index")
        p.goto(f"{server}/e/{EV}/round/1")
        assert p.locator("#draw li").count() == 4
        assert "left" in p.inner_text("#hall-clock")
        seen_well(p, "public-draw")
        r = p.goto(f"{server}/e/{EV}/round/1/board/{first}")
        assert r is not None and r.status == 403
        assert "still being played" in p.inner_text("#held")
        assert p.locator("#deal").count() == 0
        seen_well(p, "public-board-held")

        # the director: login, the late team checked in (7 minutes late), its board conceded
        d = desk.new_page()
        d.goto(f"{server}/desk/login?next=/desk/e/{EV}/round/1")
        d.fill("input[name=password]", PASSWORD)
        d.click("#login button[type=submit]")
        d.wait_for_url(f"**/desk/e/{EV}/round/1")
        row = d.locator(f"#arrivals tr[data-team='{late}']")
        row.locator("button.checkin").click()
        d.wait_for_selector(f"#arrivals tr[data-team='{late}'][data-status='concedes']")
        d.locator(f"#arrivals tr[data-team='{late}'] button.rule-late").click()
        d.wait_for_load_state()
        ruled = hall.rulings(engine, EVENT, 1)
        assert [(x.category, x.effect, x.team, x.table) for x in ruled] == [
            ("late", "conceded", late, late_table)]

        # every West reports, every North confirms (table 1 open room by hand)
        dispute_at = (2, "closed", rnd.boards[2])
        west_by_hand(p, server, rnd, 1, "open", list(rnd.boards))
        waiting = phone.new_page()  # a North waiting for West: the page follows by itself
        waiting.goto(f"{server}/t/{rnd.north(*dispute_at[:2])}")
        assert waiting.locator("#nothing").is_visible()
        req = phone.request
        for table in rnd.tables:
            for room in ("open", "closed"):
                if (table, room) == (1, "open"):
                    continue
                for board in rnd.boards:
                    if table == late_table and board == first:
                        continue  # conceded: no play, no report
                    report_by_post(req, server, rnd, table, room, board)
        # a double submit is stored once and said so
        report_by_post(req, server, rnd, 3, "open", rnd.boards[1])
        p.goto(f"{server}/t/{rnd.west(3, 'open')}?done=same&board={rnd.boards[1]}")
        assert "already received" in p.inner_text("#flash")
        waiting.wait_for_selector(".report-card", timeout=15_000)  # reloaded, no tap
        assert waiting.locator(".report-card").count() == len(rnd.boards)
        waiting.close()
        north_by_hand(p, server, rnd, 1, "open", len(rnd.boards))
        for table in rnd.tables:
            for room in ("open", "closed"):
                if (table, room) == (1, "open"):
                    continue
                for board in rnd.boards:
                    if (table == late_table and board == first) or (table, room, board) == (
                            dispute_at):
                        continue
                    confirm_by_post(req, server, rnd, table, room, board)

        # North of table 2's closed room disputes one board; the director settles it
        p.goto(f"{server}/t/{rnd.north(2, 'closed')}")
        card = p.locator(f".report-card[data-board='{dispute_at[2]}']")
        card.locator("summary").click()
        card.locator("textarea").fill("West tapped the wrong seat: East went out 2nd")
        card.locator("button.danger").click()
        p.wait_for_selector("#flash")
        assert "your dispute went to the director" in p.inner_text("#flash")
        disputed = live_report(rnd, *dispute_at)
        assert disputed.state == "disputed"
        d.goto(f"{server}/desk/e/{EV}/round/1")
        item = d.locator(f"#disputes li[data-report='{disputed.id}']")
        item.locator("input[name=finish]").fill("N E S")
        item.locator("input[name=reason]").fill("both pairs agree on N E S")
        item.locator("button[type=submit]").click()
        d.wait_for_load_state()
        assert hall.disputes(engine, EVENT, 1) == []
        statuses = [s for room in hall.round_status(engine, EVENT, 1) for s in room.boards]
        assert len(statuses) == 64 and {s.state for s in statuses} <= {"confirmed", "ruled"}

        # the released board: both rooms of every table side by side, stacked on a phone
        p.goto(f"{server}/e/{EV}/round/1/board/{rnd.boards[1]}")
        assert p.locator("section.tableboard").count() == 4
        assert p.locator("#deal .hand").count() == 4
        opened = p.locator("#table-1 .room-open").bounding_box()
        closed = p.locator("#table-1 .room-closed").bounding_box()
        assert opened and closed and closed["y"] > opened["y"]  # stacked at 390 px
        seen_well(p, "public-board")
        p.goto(f"{server}/e/{EV}/round/1/table/{late_table}")
        assert "conceded" in p.inner_text("#match")
        seen_well(p, "public-match")

        # closed: provisional; published at the desk: the phone's page follows by itself
        d.goto(f"{server}/desk/e/{EV}/round/1")
        d.click("#close-form button")
        d.wait_for_load_state()
        assert hall.round_clock(engine, EVENT, 1).phase == "closed"
        p.goto(f"{server}/e/{EV}")
        assert p.locator("#provisional-mark .provisional").is_visible()
        assert "after round 1" in p.inner_text("#through")
        seen_well(p, "public-standings")
        d.goto(f"{server}/desk/e/{EV}/round/1")
        d.click("#publish-form button")
        d.wait_for_load_state()
        assert hall.round_clock(engine, EVENT, 1).phase == "published"
        p.wait_for_selector("#provisional-mark .published", timeout=15_000)  # no reload
        assert p.locator(".provisional").count() == 0
        d.screenshot(path=str(SHOTS / "desk-round.png"), full_page=True)

        rows, through = events.event_standings(engine, EVENT)
        assert through == 1
        expected = [(r.rank, str(r.team), f"{r.points:g}", "0" if r.swing == 0 else
                     f"{r.swing:+d}") for r in rows]
        assert standings_shown(p) == expected
        assert len({s for _, _, _, s in expected}) > 1  # the results made a difference
        p.reload()
        assert standings_shown(p) == expected  # the server's page says the same

        # the same pages in Chinese, at the same width
        p.click(".hall-lang")
        p.wait_for_selector("html[lang=zh-CN]")
        assert "排名" in p.inner_text("main") and "已公示" in p.inner_text("main")
        seen_well(p, "public-standings-zh")
        p.goto(f"{server}/t/{rnd.west(1, 'open')}")
        assert "你是西家" in p.inner_text("main") and "头游" in p.inner_text("#boards")
        seen_well(p, "table-west-zh")
        r = p.goto(f"{server}/t/{'x' * 32}")
        assert r is not None and r.status == 403
        assert "错误 403" in p.inner_text("h1")
        seen_well(p, "public-error")
    finally:
        phone.close()
        desk.close()
        engine.dispose()
    assert time.monotonic() - started < 110, "the round took too long"


def test_the_table_forms_work_without_javascript(
    browser: Any, server: str, migrated_url: str
) -> None:
    """West's selects and "Show the result" button, North's Confirm: plain HTML forms."""
    engine = make_engine(migrated_url)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                java_script_enabled=False, locale="en-GB")
    try:
        rnd = setup_round(engine, EVENT, teams(4), boards=2)
        board = rnd.boards[1]
        p = phone.new_page()
        p.goto(f"{server}/t/{rnd.west(2, 'closed')}")
        assert not p.locator("#picker").is_visible() and p.locator("#orders").is_visible()
        p.click(f".boardpick label:has(input[value='{board}'])")
        p.select_option("#sel-first", "E")
        p.select_option("#sel-second", "N")
        p.select_option("#sel-third", "W")
        p.click("#check")  # the page itself says what the order implies
        assert p.inner_text("#preview") == "That is: E–W up 2"
        assert p.locator(f".boardpick input[value='{board}']").is_checked()
        seen_well(p, "table-west-nojs")
        p.click("#send")
        p.wait_for_selector("#flash")
        assert p.inner_text("#flash") == f"Board {board} received: North now checks it."
        p.goto(f"{server}/t/{rnd.north(2, 'closed')}")
        p.click(".report-card button.confirm")
        p.wait_for_selector("#flash")
        assert p.inner_text("#flash") == f"Board {board} confirmed: the result counts."
        assert live_report(rnd, 2, "closed", board).finish == "E N W"
    finally:
        phone.close()
        engine.dispose()


def test_the_live_standings_keep_a_withdrawn_teams_mark(browser: Any, server: str,
                                                        migrated_url: str) -> None:
    """standings.js redraws the table from the API's rows and ``withdrawn``: the mark the
    page was served with (退赛) is drawn again by the script, in the page's language."""
    engine = make_engine(migrated_url)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        setup_round(engine, EVENT, teams(4))
        gone = teams(4)[2][0]
        events.withdraw_team(engine, EVENT, gone, by="director", reason="went home")
        page = phone.new_page()
        held: list[Any] = []
        page.route("**/standings", lambda route: held.append(route))  # the first poll waits
        page.goto(f"{server}/e/{EV}?lang=zh")
        deadline = time.monotonic() + 10
        while not held:
            assert time.monotonic() < deadline, "standings.js did not poll"
            page.wait_for_timeout(50)
        # the rows as served, their marks taken away: only the script can draw them again
        page.evaluate("""() => document.querySelectorAll('#standings-rows tr').forEach(tr => {
            tr.dataset.served = '1';
            tr.querySelectorAll('.withdrawn').forEach(s => s.remove()); })""")
        held[0].continue_()
        page.wait_for_function("""() => document.querySelector('#standings-rows tr')
            && !document.querySelector('#standings-rows tr[data-served]')""")
        cells = page.eval_on_selector_all(
            "#standings-rows tr", "rows => rows.map(r => [r.dataset.team, r.cells[1].textContent])")
        marked = {team: text for team, text in cells if "（退赛）" in text}
        assert marked == {gone: f"{gone}（退赛）"}
    finally:
        phone.close()
        engine.dispose()
