"""West's and North's phone pages at 390 px in a real browser (Debian's Chromium through
Playwright), against the service itself (uvicorn on a free port, in a thread):

* after a send West's form moves on to the next board not in (as a fresh load does): the
  next taps go to that board, never again to the board just sent;
* a phone that loses the network mid-report keeps the report on the phone, says in the
  page's language that it was not sent, and sends it once when the network is back (the
  library takes a report sent again as the same report: stored once).
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from test_browser_hall import PHONE, server  # noqa: F401  (the service: a fixture)
from test_web_pages import Round, live_report, setup_round, teams

from duplicate import models
from duplicate.db import make_engine, session_scope

EVENT = "Phone Net Cup"


def tap_order(page: Any, order: str) -> None:
    """West taps the seats in the order they went out and waits for the result it implies."""
    for seat in order.split():
        page.tap(f"#picker button[data-seat={seat}]")
    page.wait_for_function("() => document.getElementById('preview').textContent.length > 0")


def reports_of(rnd: Round, table: int, room: str) -> list[tuple[int, str | None]]:
    """Every report the table's room ever stored: (board, finishing order), oldest first."""
    h = models.HallReport
    with session_scope(rnd.engine) as session:
        rows = session.execute(select(h.board, h.finish).where(
            h.table_no == table, h.room == room).order_by(h.id))
        return [(b, f) for b, f in rows]


def test_after_a_send_west_moves_on_to_the_next_board(
    browser: Any, server: str, migrated_url: str  # noqa: F811
) -> None:
    engine = make_engine(migrated_url)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                locale="en-GB")
    try:
        rnd = setup_round(engine, EVENT, teams(4), boards=3)
        first, second, third = rnd.boards
        p = phone.new_page()
        p.goto(f"{server}/t/{rnd.west(1, 'open')}")
        assert p.locator(f".boardpick input[value='{first}']").is_checked()
        assert p.inner_text("#send") == f"Send board {first}"
        tap_order(p, "E N W")
        p.click("#send")
        p.wait_for_selector("#flash")
        assert p.inner_text("#flash") == f"Board {first} received: North now checks it."
        # the page moved on: board 2 picked, the button says so
        assert p.locator(f".boardpick input[value='{second}']").is_checked()
        assert not p.locator(f".boardpick input[value='{first}']").is_checked()
        assert p.inner_text("#send") == f"Send board {second}"
        tap_order(p, "E W")  # the next board's taps, without picking it
        p.click("#send")
        p.wait_for_selector("#flash")
        assert p.inner_text("#flash") == f"Board {second} received: North now checks it."
        assert p.inner_text("#send") == f"Send board {third}"
        assert reports_of(rnd, 1, "open") == [(first, "E N W"), (second, "E W")]
        assert live_report(rnd, 1, "open", second).finish == "E W"
        # a different order for board 1 without a correction's reason: refused, said on
        # the page (the refusal's page drawn in place of the form), nothing stored
        p.click(f".boardpick label:has(input[value='{first}'])")
        tap_order(p, "W S E")
        p.click("#send")
        p.wait_for_selector("#flash.bad")
        assert p.inner_text("#flash").startswith("Not stored:")
        assert reports_of(rnd, 1, "open") == [(first, "E N W"), (second, "E W")]
    finally:
        phone.close()
        engine.dispose()



#: What the pages say, by language: kept (not sent), then received, already received,
#: confirmed (board 1).
SAID = {
    "en": ("Not sent: no network. Board 1 is kept on this phone and is sent when the "
           "network is back.", "Board 1 received: North now checks it.",
           "Board 1: already received (stored once).", "Board 1 confirmed: the result counts."),
    "zh": ("未发送：没有网络。第1副已保存在本机，网络恢复后自动发送。", "第1副已收到，请北家核对确认。",
           "第1副：已经收到过（只保存一次）。", "第1副已确认，成绩生效。"),
}
LOCALES = {"en": "en-GB", "zh": "zh-CN"}
KEPT_JS = "() => Object.keys(localStorage).filter(k => k.startsWith('guandan-kept:')).length"


def flash_is(page: Any, text: str) -> None:
    page.wait_for_function("(t) => { const f = document.getElementById('flash');"
                           " return f && f.textContent.trim() === t; }", arg=text, timeout=15000)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_report_made_offline_is_kept_and_sent_once_when_back(
    browser: Any, server: str, migrated_url: str, lang: str  # noqa: F811
) -> None:
    kept, received, _, confirmed = SAID[lang]
    engine = make_engine(migrated_url)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                locale=LOCALES[lang])
    try:
        rnd = setup_round(engine, EVENT, teams(4), boards=2)
        p = phone.new_page()
        p.goto(f"{server}/t/{rnd.west(1, 'open')}")
        tap_order(p, "E N W")
        phone.set_offline(True)  # the network drops as West sends
        p.click("#send")
        p.wait_for_selector("#kept:not([hidden])")
        assert p.inner_text("#kept") == kept
        assert p.locator("#report-form").count() == 1  # the page, not the browser's error
        assert reports_of(rnd, 1, "open") == []
        assert p.evaluate(KEPT_JS) == 1
        phone.set_offline(False)  # back: sent by itself, once
        flash_is(p, received)
        assert reports_of(rnd, 1, "open") == [(1, "E N W")]
        assert p.evaluate(KEPT_JS) == 0
        assert p.is_hidden("#kept")
        p.wait_for_timeout(6000)  # a retry's time: nothing more is sent
        assert reports_of(rnd, 1, "open") == [(1, "E N W")]

        # North confirms as the network drops: kept, then confirmed once it is back
        n = phone.new_page()
        n.goto(f"{server}/t/{rnd.north(1, 'open')}")
        phone.set_offline(True)
        n.click(".report-card button.confirm")
        n.wait_for_selector("#kept:not([hidden])")
        assert n.inner_text("#kept") == kept
        assert live_report(rnd, 1, "open", 1).state == "reported"
        phone.set_offline(False)
        flash_is(n, confirmed)
        assert live_report(rnd, 1, "open", 1).state == "confirmed"
    finally:
        phone.close()
        engine.dispose()


def test_a_report_whose_answer_was_lost_is_not_doubled(
    browser: Any, server: str, migrated_url: str  # noqa: F811
) -> None:
    """The server stored the report but the answer never reached the phone: the phone
    keeps it and sends it again; the server says "already received" and stores it once."""
    _, _, already, _ = SAID["en"]
    engine = make_engine(migrated_url)
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                locale="en-GB")
    try:
        rnd = setup_round(engine, EVENT, teams(4), boards=2)
        p = phone.new_page()
        p.goto(f"{server}/t/{rnd.west(2, 'closed')}")
        tap_order(p, "E N W")
        lost: list[int] = []

        def lose_the_answer(route: Any) -> None:
            route.fetch()  # the server has it ...
            lost.append(1)
            route.abort("internetdisconnected")  # ... the phone never hears back

        p.route("**/report", lose_the_answer)
        p.click("#send")
        p.wait_for_selector("#kept:not([hidden])")
        assert lost == [1] and reports_of(rnd, 2, "closed") == [(1, "E N W")]
        p.unroute("**/report")
        flash_is(p, already)  # the retry, within 5 s
        assert reports_of(rnd, 2, "closed") == [(1, "E N W")]
        assert p.evaluate(KEPT_JS) == 0
    finally:
        phone.close()
        engine.dispose()
