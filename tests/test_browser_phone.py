"""The report on a phone, measured in a real browser (Debian's Chromium through Playwright):
at 360, 390 and 1280 px, in English and Chinese, no table cell shows a number or a word
broken over two lines (measured from the rendered text's line boxes); links and buttons
are at least 44 px; a swipe steps the movie and never leaves the page, a vertical move
scrolls and does not step; keys with Alt, Ctrl or Meta are the browser's; stepping by
trick stops at either room's leads; the buttons and the live region speak the page's
language and say the play; a printed board page keeps each room whole."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest_browser import screenshot

from duplicate.compare import RoomTrace, split_tricks, trace_room
from duplicate.db import make_engine
from duplicate.demo import run_demo
from duplicate.events.export import export_event
from duplicate.events.site import write_event_site
from duplicate.gdn import loads

PAGES = ("index.html", "match-r1-t1.html", "crosstable.html", "players.html", "team-1.html",
         "board-r1-t1-1.html")

def broken_words_js(selector: str, shown_only: bool = False, word: str = r"\S+") -> str:
    """A page function: every word or number of the elements ``selector`` matches (with
    ``shown_only``, those laid out) whose line boxes lie on more than one line. A word is
    what the regular expression ``word`` matches (a run of non-spaces unless told: a
    Chinese finishing order is one such run, its words are between its 、 and ，)."""
    skip = "    if (el.offsetParent === null) continue;\n" if shown_only else ""
    return ("() => {\n  const bad = [];\n"
            f"  for (const el of document.querySelectorAll({selector!r})) {{\n{skip}"
            """    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
"""
            f"      const re = new RegExp({json.dumps(word)}, 'g');\n"
            """      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects())
          .filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) bad.push(m[0]);
      }
    }
  }
  return bad;
}""")


#: Every word or number of every table cell whose line boxes lie on more than one line.
BROKEN_JS = broken_words_js("td, th")

#: Links in tables and lists, and the movie's buttons, smaller than 44 x 44 px.
SMALL_JS = """() => Array.from(document.querySelectorAll('td a, li a, .controls button'))
  .map(a => [a.textContent.trim() || a.getAttribute('aria-label'), a.getBoundingClientRect()])
  .filter(([_, r]) => r.width > 0 && (r.width < 43.5 || r.height < 43.5))
  .map(([t, r]) => t + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Path], dict[str, dict[str, RoomTrace]]]:
    """The demo event's report in English and in Chinese, and board 1's room traces."""
    tmp = tmp_path_factory.mktemp("phone")
    url = f"sqlite:///{tmp}/demo.sqlite"
    result = run_demo(url, tmp / "en", seed="9e0d", boards=4)
    engine = make_engine(url)
    try:
        write_event_site(engine, result.event, str(tmp / "zh"), "zh")
        records = loads(export_event(engine, result.event))
    finally:
        engine.dispose()
    traces = {(r.room or "").lower(): trace_room(r) for r in records if r.board == "1"}
    return {"en": tmp / "en", "zh": tmp / "zh"}, traces


@pytest.mark.parametrize("width", [360, 390, 1280])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_cell_breaks_a_number_or_a_word(
    browser: Any, served: Callable[[Path], str], sites: Any, lang: str, width: int
) -> None:
    base = served(sites[0][lang])
    page = browser.new_page(viewport={"width": width, "height": 800}, is_mobile=width < 900,
                            has_touch=width < 900)
    for name in PAGES:
        page.goto(base + name)
        if name.startswith("board-"):
            page.focus("#movie")
            page.keyboard.press("End")  # the summary's tables are drawn at the end
        assert page.evaluate(BROKEN_JS) == [], f"{lang} {width}px {name}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        if width < 900:
            assert page.evaluate(SMALL_JS) == [], f"{lang} {width}px {name}: small targets"
        if width == 390:
            screenshot(page, f"phone-{lang}-{name.removesuffix('.html')}")
    page.close()


SWIPE_JS = """([dx, dy]) => { const el = document.querySelector('.rooms');
  const at = (x, y) => [new Touch({identifier: 1, target: el, clientX: x, clientY: y})];
  el.dispatchEvent(new TouchEvent('touchstart', {changedTouches: at(200, 300), bubbles: true}));
  el.dispatchEvent(new TouchEvent('touchend', {changedTouches: at(200 + dx, 300 + dy), bubbles: true}));
  return +document.getElementById('movie').dataset.step; }"""


def test_the_movie_on_touch_and_keys(browser: Any, served: Callable[[Path], str], sites: Any) -> None:
    folders, traces = sites
    base = served(folders["zh"])
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True)
    page.goto(base + "index.html")
    page.goto(base + "board-r1-t1-1.html")
    history = page.evaluate("history.length")
    # the browser's own horizontal gestures are off the movie: a swipe is the movie's
    assert page.evaluate("getComputedStyle(document.querySelector('.rooms')).touchAction") == "pan-y"
    assert page.evaluate(
        "getComputedStyle(document.documentElement).overscrollBehaviorX") == "none"
    assert page.evaluate(SWIPE_JS, [-150, 10]) == 1
    assert page.evaluate(SWIPE_JS, [-150, -20]) == 2
    assert page.evaluate(SWIPE_JS, [150, 0]) == 1  # right: one step back, on the same page
    assert page.evaluate(SWIPE_JS, [60, 240]) == 1  # mostly vertical: a scroll, not a step
    assert page.url.split("#")[0].endswith("board-r1-t1-1.html")
    assert page.evaluate("history.length") == history
    # keys with a modifier are the browser's: not taken, not prevented
    page.evaluate("""() => { window.__prevented = [];
      window.addEventListener('keydown', e => { if (e.key.startsWith('Arrow')) window.__prevented.push(e.defaultPrevented); }); }""")
    for combo in ("Alt+ArrowLeft", "Control+ArrowRight", "Meta+ArrowRight"):
        page.keyboard.press(combo)
    assert page.evaluate("+document.getElementById('movie').dataset.step") == 1
    assert page.evaluate("window.__prevented") == [False, False, False]
    # the buttons say what they do, in Chinese, back and forward told apart
    labels = {b: page.get_attribute(f"#{b}", "aria-label") for b in
              ("m-prev", "m-next", "m-prev-trick", "m-next-trick", "m-start", "m-end")}
    assert labels["m-prev"] == "后退一步" and labels["m-next"] == "前进一步"
    assert len(set(labels.values())) == 6
    # the live region says the step and each room's play at it
    live = page.inner_text("#movie-live")
    first = traces["open"].moves[0]
    assert live.startswith("第1步") and "开室" in live and "闭室" in live and "北" in live
    assert first.combo is not None
    # by trick: every lead of either room is a stop (the keys are the movie's when it has
    # the focus)
    leads = sorted({t.steps[0].index for r in traces.values() for t in split_tricks(r)} - {0})
    page.focus("#movie")
    page.keyboard.press("Home")
    for want in leads[:4]:
        page.keyboard.press("ArrowDown")
        assert page.evaluate("+document.getElementById('movie').dataset.step") == want
    # printed, a room is never split across pages
    page.emulate_media(media="print")
    avoid = page.evaluate("""() => Array.from(document.querySelectorAll('section.room'))
      .map(s => getComputedStyle(s).breakInside)""")
    assert avoid and set(avoid) == {"avoid"}
