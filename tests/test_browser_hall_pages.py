"""The hall's public pages on a phone, served by the hall (uvicorn in a thread) and read in
a real browser (Debian's Chromium through Playwright), 360 and 390 px, English and Chinese:

* no page needs a sideways scroll for the figures that matter: the page is no wider than
  the screen, no box scrolls sideways, and the standings' points and swing, the match's
  swings and total, the round's results lie inside the screen;
* the movie of a board (the review's board page) has the language switch, and the switch
  opens the other language at the same step; it links the table's previous and next board.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine
from test_browser_desk_words import EV, EVQ, _event, service  # noqa: F401

#: Every scroll box of the page wider inside than it is: [scrollWidth, clientWidth].
SCROLLS_JS = """() => Array.from(document.querySelectorAll('.scroll'))
  .map(s => [s.scrollWidth, s.clientWidth]).filter(([sw, cw]) => sw > cw)"""

#: The figures that matter, shown, right of the screen: [text, right edge].
FIGURES_OFF_JS = """(width) => Array.from(document.querySelectorAll(
    '#standings td.num, #match td.num, #swing-total, #results .margin, #results .vp'))
  .filter(e => e.offsetParent !== null)
  .map(e => [e.textContent.trim(), e.getBoundingClientRect().right])
  .filter(([_, right]) => right > width + 0.5)"""

PUBLIC = ("/", f"/e/{EVQ}", f"/e/{EVQ}/round/1", f"/e/{EVQ}/round/1/table/1",
          f"/e/{EVQ}/round/1/board/1", f"/e/{EVQ}/round/1/board/1/table/1")


@pytest.mark.parametrize("width", [360, 390])
def test_the_public_pages_need_no_sideways_scroll(
    browser: Any, service: tuple[str, Engine], width: int  # noqa: F811
) -> None:
    base, engine = service
    _event(engine)
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    try:
        for lang in ("en", "zh"):
            context.add_cookies([{"name": "lang", "value": lang, "url": base}])
            for path in PUBLIC:
                answer = page.goto(base + path)
                assert answer is not None and answer.status == 200, path
                where = f"{lang} {width}px {path}"
                wide = page.evaluate("document.documentElement.scrollWidth")
                if wide > width:
                    problems.append(f"{where}: the page is {wide} px wide")
                problems += [f"{where}: a box scrolls {s}" for s in page.evaluate(SCROLLS_JS)]
                problems += [f"{where}: {f} off the screen"
                             for f in page.evaluate(FIGURES_OFF_JS, width)]
            page.goto(f"{base}/e/{EVQ}/round/1")
            assert page.locator("#results li").count() > 0  # round 1 is published
    finally:
        context.close()
    assert problems == [], "\n".join(problems)


def test_the_movie_switches_language_at_the_same_step(
    browser: Any, service: tuple[str, Engine]  # noqa: F811
) -> None:
    base, engine = service
    _event(engine)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        context.add_cookies([{"name": "lang", "value": "zh", "url": base}])
        page.goto(f"{base}/e/{EVQ}/round/1/board/1/table/1")
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        page.focus("#movie")
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        assert (page.get_attribute("a.lang-switch", "href") or "").endswith("#open=5")
        page.click("a.lang-switch")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert page.evaluate("+document.getElementById('movie').dataset.step") == 5
        assert EV  # the event's movie, in English now
        # the table's next board with both rooms' plays, and none before the first
        assert page.locator("a.prevboard").count() == 0
        page.click("a.nextboard")
        assert page.url.split("?")[0].endswith(f"/e/{EVQ}/round/1/board/2/table/1")
        assert page.locator("a.prevboard").get_attribute("href") == f"/e/{EVQ}/round/1/board/1/table/1"
    finally:
        context.close()
