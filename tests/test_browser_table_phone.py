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
    finally:
        phone.close()
        engine.dispose()

