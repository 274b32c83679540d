"""The live page of a captured board in Chromium at 390 px (a phone), in Chinese and in
English: the spectator link's page draws both rooms side by side in the review's movie at
its last step, fits the phone's width, and follows the play (live.js sees the board
change and the page is drawn again with the new actions, at its new last step for a
reader who was at the last step); the public live page of the
same board, not released, shows no hand and no play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from helpers.servers import serve_in_thread
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event

from duplicate import capture
from duplicate.capture.sim import SimAction, actions_for_state
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def service(migrated_url: str) -> Iterator[str]:
    app = create_app(Settings(db_url=migrated_url, director_password="p" * 20,
                              secret_key="s" * 40))
    try:
        with serve_in_thread(app) as base:
            yield base
    finally:
        app.state.engine.dispose()


def _enter(engine: Engine, token: str, plan: list[SimAction], first: int, last: int) -> None:
    for seq in range(first, last + 1):
        a = plan[seq - 1]
        capture.enter_action(engine, token, 1, seq, a.seat, a.cards, a.type, a.rank)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_live_page_follows_both_rooms_on_a_phone(
        browser: Any, service: str, migrated_engine: Engine, lang: str) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    rec = {(c.table, c.room): c.token
           for c in capture.issue_recorder_tokens(e, EVENT, 1, "director")}
    capture.set_live(e, EVENT, "delayed", 0, "director")
    link = capture.issue_watch_link(e, EVENT, "director")
    plans = {}
    for room in ("open", "closed"):
        state = capture.start_board(e, rec[(1, room)], 1)
        plans[room] = actions_for_state(state.hands, state.level, state.leader,
                                        seed=f"{room}-live", policy="mixed")
        _enter(e, rec[(1, room)], plans[room], 1, 4)
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                              locale="zh-CN" if lang == "zh" else "en-GB")
    try:
        page = ctx.new_page()
        page.goto(f"{service}/w/{link}/round/1/table/1/board/1")
        page.wait_for_selector("#movie section.room")
        assert page.locator("#movie section.room").count() == 2  # both rooms side by side
        assert page.get_attribute("#movie", "data-step") == "4"  # the last step: as it is
        assert page.get_attribute("#room-open", "data-shown") == "4"
        words = page.locator("h1").inner_text()
        assert ("第1桌" in words) if lang == "zh" else ("Table 1" in words)
        # the page fits the phone's width (the seats' summary the movie adds at its last
        # step is the review's own: measured one step back)
        page.click("#m-prev")
        assert page.get_attribute("#movie", "data-step") == "3"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        page.click("#m-next")
        # the play goes on: the page follows it (live.js polls, the page is drawn again)
        _enter(e, rec[(1, "open")], plans["open"], 5, 7)
        page.wait_for_function(
            "() => document.querySelector('#room-open')?.getAttribute('data-shown') === '7'",
            timeout=30000)
        page.wait_for_selector("#movie section.room")
        assert page.get_attribute("#movie", "data-step") == "7"
        # the public page of the same board, not released: nothing of it
        public = ctx.new_page()
        public.goto(f"{service}/e/{quote(EVENT, safe='')}/live/round/1/table/1/board/1")
        assert public.locator("#held").is_visible()
        assert public.locator("#movie").count() == 0
        assert public.locator(".card").count() == 0
    finally:
        ctx.close()
