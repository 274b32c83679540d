"""The director's desk in a real browser (Debian's Chromium through Playwright), against
the service run by uvicorn in a thread on a free port.

The director logs in, creates an event, pairs and gives boards to a round, issues and
prints the table cards (two QR codes per card, two cards per A4 page), checks the teams
in, starts the clock, rules on a late team, watches a dispute arrive in the live grid
without reloading, settles it, closes and publishes the round: all by clicking, with the
library's state checked after each step. Every desk page type is screenshot under
tests/artifacts/hall/ at desktop width and at 390 px, where no page scrolls sideways.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from conftest_browser import ARTIFACTS
from helpers.servers import serve_in_thread
from sqlalchemy import Engine, select, update

from duplicate import events, hall, models
from duplicate.db import session_scope
from duplicate.dealing import seed_file_bytes
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

PASSWORD = "desk-browser-pw"
SEED = seed_file_bytes(bytes(range(1, 33))).decode("ascii")
TEAMS = {
    "Tigers": "Li Wei, Wang Fang, Zhang Min, Chen Jie",
    "Dragons": "Zhao Lei, Sun Li, Zhou Yan, Wu Hao",
    "Pandas": "Xu Jing, Ma Lin, Hu Bo, Guo Qiang",
    "Cranes": "He Ping, Lin Tao, Luo Na, Song Yu",
}
EV = "Autumn Cup"
SHOTS = ARTIFACTS / "hall"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def service(migrated_url: str) -> Iterator[tuple[str, Engine]]:
    """The hall service on a free port (uvicorn in a thread): its URL and engine."""
    app = create_app(Settings(db_url=migrated_url, director_password=PASSWORD,
                              secret_key="b" * 40))
    try:
        with serve_in_thread(app) as base:
            yield base, app.state.engine
    finally:
        app.state.engine.dispose()


def shoot(page: Any, name: str) -> None:
    """A full-page screenshot under tests/artifacts/hall/ (not committed)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


OUTSIDE_JS = """() => {
  const out = [];
  const w = window.innerWidth;
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.scroll') || el.closest('svg')) continue;  // wide tables scroll in their box
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > w + 1 || r.left < -1))
      out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  if (document.documentElement.scrollWidth > w + 1) out.push('document ' + document.documentElement.scrollWidth);
  return out;
}"""


def no_sideways_scroll(page: Any) -> bool:
    """Nothing of the page reaches past the screen's right edge (hidden overflow too)."""
    outside = page.evaluate(OUTSIDE_JS)
    assert outside == [], outside
    return True


def submit(page: Any, target: Any) -> Any:
    """Click a form's button (a selector or a locator), wait for the page it leads to and
    return its answer."""
    with page.expect_navigation() as nav:
        if isinstance(target, str):
            page.click(target)
        else:
            target.click()
    return nav.value


def flash(page: Any) -> str:
    text: str = page.locator("p.flash").inner_text()
    return text


def test_the_director_runs_a_round_by_clicking(
    browser: Any, service: tuple[str, Engine]
) -> None:
    base, engine = service
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        _run_round(page, base, engine)
    finally:
        context.close()


def _run_round(page: Any, base: str, engine: Engine) -> None:
    # login: the desk sends to the login page, a wrong password is refused
    page.goto(f"{base}/desk")
    assert "/desk/login" in page.url
    shoot(page, "desk_login")
    page.fill("input[name=password]", "not-the-password")
    answer = submit(page, "#login button[type=submit]")
    assert answer.status == 401 and "wrong director password" in page.content()
    assert not [c for c in page.context.cookies() if c["name"] == "guandan_desk"]
    page.goto(f"{base}/desk/login?next=/desk")
    page.fill("input[name=password]", PASSWORD)
    submit(page, "#login button[type=submit]")
    page.wait_for_url(f"{base}/desk")

    # create the event with its teams
    page.fill("#create-event input[name=name]", EV)
    page.select_option("#create-event select[name=format]", "rr")
    page.fill("#create-event input[name=rounds]", "3")
    page.fill("#create-event input[name=boards_per_round]", "2")
    page.fill("#create-event textarea[name=teams]",
              "\n".join(f"{t}: {p}" for t, p in TEAMS.items()))
    submit(page, "#create-event button[type=submit]")
    page.wait_for_url(re.compile(r"/desk/e/Autumn%20Cup$"))
    assert flash(page) == f"Event {EV} created."
    assert [t.name for t in events.list_teams(engine, EV)] == list(TEAMS)

    # pair round 1, give it the event's boards from its seed file
    submit(page, "#pair-form button[type=submit]")
    assert flash(page) == "Round 1 paired."
    rnd = events.get_round(engine, EV, 1)
    assert len(rnd.matches) == 2
    page.fill("#assign-form textarea[name=seed_text]", SEED)
    submit(page, "#assign-form button[type=submit]")
    assert flash(page) == f"Round 1: boards 1 to 2 of set {EV}."
    assert events.get_round(engine, EV, 1).boards == (1, 2)
    shoot(page, "desk_event")

    # the round's desk; the table cards: asked, issued, printed
    page.click("#rounds a:has-text('Open')")
    page.wait_for_url(re.compile(r"/round/1$"))
    round_url = page.url
    page.click("a:has-text('Table cards')")
    page.wait_for_url(re.compile(r"/round/1/cards$"))
    shoot(page, "desk_cards_issue")
    submit(page, "#issue-cards button[type=submit]")
    cards = page.locator("section.tcard")
    assert cards.count() == 4
    assert page.locator("section.tcard figure svg").count() == 8
    assert page.locator("figcaption:has-text('West reports')").count() == 4
    assert page.locator("figcaption:has-text('North confirms')").count() == 4
    tokens = {}
    for i in range(4):
        card = cards.nth(i)
        urls = card.locator("p.url").all_inner_texts()
        key = (int(card.get_attribute("data-table")), card.get_attribute("data-room"))
        tokens[key] = tuple(u.rsplit("/t/", 1)[1] for u in urls)
    assert hall.grant_for(engine, tokens[1, "open"][0]).role == "report"
    shoot(page, "desk_cards")
    page.emulate_media(media="print")
    assert page.locator("nav.desknav, .noprint").first.is_hidden()
    heights = page.evaluate("() => Array.from(document.querySelectorAll('section.tcard'))"
                            ".map(c => c.getBoundingClientRect().height)")
    assert all(500 < h < 530 for h in heights), heights  # 136 mm: half an A4 page
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2  # two cards a page
    page.emulate_media(media="screen")

    # check-in before the start, but for the late team
    late = rnd.matches[0].team_y
    page.goto(round_url)
    for m in rnd.matches:
        for team in (m.team_x, m.team_y):
            if team != late:
                submit(page, f"#arrivals tr[data-team='{team}'] button.checkin")
                assert flash(page) == f"{team} checked in."
    submit(page, "#start-form button[type=submit]")
    assert flash(page) == "Round 1: the clock is running."
    clock = hall.round_clock(engine, EV, 1)
    assert clock.phase == "running"
    assert page.locator("#live .countdown").count() == 1

    # seven minutes later (the stored start and check-ins move back) the late team comes: it concedes
    with session_scope(engine) as session:
        session.execute(update(models.HallRound).values(
            started_at=clock.started_at - timedelta(minutes=7)))
        for row in session.scalars(select(models.HallCheckin)):
            row.checked_in_at -= timedelta(minutes=7)
    page.reload()
    submit(page, f"#arrivals tr[data-team='{late}'] button.checkin")
    row = page.locator(f"#arrivals tr[data-team='{late}']")
    assert row.get_attribute("data-status") == "concedes"
    assert page.locator("#arrivals tr[data-status='on_time']").count() == 3
    assert page.locator("#arrivals button.rule-late").count() == 1
    submit(page, row.locator("button.rule-late"))
    assert flash(page) == f"{late} concedes the first board (late)."
    (ruling,) = hall.rulings(engine, EV, 1)
    assert (ruling.category, ruling.effect, ruling.team) == ("late", "conceded", late)
    assert page.locator("#arrivals button.rule-late").count() == 0  # ruled once only

    # the tables report; the live grid follows them without a reload
    disputed = None
    for (table, room), (west, north) in sorted(tokens.items()):
        for board in (1, 2):
            if table == 1 and board == 1:
                continue  # conceded: ruled in both rooms
            report, _ = hall.west_report(engine, hall.grant_for(engine, west), board,
                                         finish="N S E")
            if (table, room, board) == (2, "open", 2):
                hall.north_dispute(engine, hall.grant_for(engine, north), board, report.id,
                                   "E went out first")
                disputed = report
            else:
                hall.north_confirm(engine, hall.grant_for(engine, north), board, report.id)
    assert disputed is not None
    cell = "#live tr[data-table='2'][data-room='open'] td[data-board='2']"
    assert page.locator(cell).get_attribute("data-state") == "not_in"
    page.evaluate("() => window.deskPoll()")
    page.wait_for_function(
        f"() => document.querySelector(\"{cell}\").dataset.state === 'disputed'")
    shoot(page, "desk_round")

    # the dispute is settled from its form; the round is closed and published
    page.reload()
    form = page.locator(f"#disputes li[data-report='{disputed.id}'] form")
    form.locator("input[name=finish]").fill("")
    form.locator("input[name=result]").fill("EW +2")
    form.locator("input[name=reason]").fill("East showed his last card first")
    submit(page, form.locator("button[type=submit]"))
    assert flash(page) == "Dispute settled: table 2, board 2."
    assert hall.disputes(engine, EV, 1) == []
    submit(page, "#close-form button[type=submit]")
    assert flash(page) == "Round 1 closed and scored."
    assert hall.round_clock(engine, EV, 1).phase == "closed"
    submit(page, "#publish-form button[type=submit]")
    assert flash(page) == "Round 1 published."
    assert hall.round_clock(engine, EV, 1).phase == "published"
    shoot(page, "desk_round_published")

    # every page type at desktop width and on a 390-px phone: nothing scrolls sideways
    pages = {"desk_home": "/desk", "desk_event": "/desk/e/Autumn%20Cup",
             "desk_round": "/desk/e/Autumn%20Cup/round/1",
             "desk_cards_issue": "/desk/e/Autumn%20Cup/round/1/cards"}
    for size, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        for name, path in pages.items():
            page.goto(base + path)
            assert no_sideways_scroll(page), (name, suffix)
            shoot(page, f"{name}_{suffix}")
        page.goto(base + "/desk/login")
        assert no_sideways_scroll(page)
        shoot(page, f"desk_login_{suffix}")
    # in Chinese on the phone: Guandan's words, nothing past the edge
    page.goto(base + pages["desk_round"] + "?lang=zh")
    for word in ("签到", "争议", "判罚", "结束本轮", "公示", "更正", "导出", "已公示"):
        assert page.locator(f"text={word}").count() >= 1, word
    assert no_sideways_scroll(page)
    shoot(page, "desk_round_zh_phone")
    page.goto(base + pages["desk_round"] + "?lang=en")
    # the printable cards on a phone too (issued again: the old ones are void)
    page.goto(base + "/desk/e/Autumn%20Cup/round/2/cards")
    page.goto(base + pages["desk_cards_issue"])
    submit(page, "#issue-cards button[type=submit]")
    assert page.locator("section.tcard").count() == 4
    assert no_sideways_scroll(page)
    shoot(page, "desk_cards_phone")
    try:
        hall.grant_for(engine, tokens[1, "open"][0])
        raise AssertionError("an old card still works after new ones were issued")
    except hall.HallError as exc:
        assert exc.kind in ("forbidden", "closed")
