"""The report's board pages on a phone, measured in a real browser (Debian's Chromium
through Playwright), at 360, 390 and 1280 px, in English and Chinese, from one build that
writes both languages with the analysis:

* at a step of the movie, both rooms' current tricks and the seats whose turn it is lie
  inside one screen together (bounding boxes), the hands one tap away (folded on a phone);
* "First divergence" brings both rooms' choices, with their values, into the screen;
* a tap on a room's value graph moves the movie to the step under the tap;
* each board page links the previous and the next board of its match;
* every page links the same page in the other language, and the board page's link keeps
  the movie's step;
* the report's tables of results (match, standings, team, cross-table) need no sideways
  scroll: the page is no wider than the screen and every cell lies inside it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest_browser import screenshot

from duplicate.analysis.budget import Budget
from duplicate.db import make_engine
from duplicate.demo import run_demo
from duplicate.events.site import write_event_site

BOARDS = 4

#: Each room's current trick and the hand whose turn it is (None at the end), as boxes.
BOXES_JS = """() => Array.from(document.querySelectorAll('section.room')).map(room => {
  const box = el => { if (!el) return null; const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  return {trick: box(room.querySelector('.centre')), turn: box(room.querySelector('.hand.turn'))};
})"""

#: Every cell of the report's tables of results that leaves the screen on the right.
CELLS_OFF_JS = """() => Array.from(document.querySelectorAll('table.stack td, table.stack tfoot th'))
  .map(c => [c.textContent.trim(), c.getBoundingClientRect().right])
  .filter(([_, right]) => right > document.documentElement.clientWidth + 0.5)"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo event's report, Chinese in the folder and English in ``en/``, analysed."""
    tmp = tmp_path_factory.mktemp("coach")
    url = f"sqlite:///{tmp}/demo.sqlite"
    result = run_demo(url, tmp / "demo", seed="1f2e", boards=BOARDS)
    engine = make_engine(url)
    try:
        write_event_site(engine, result.event, str(tmp / "site"), "zh",
                         Budget(nodes=2000, playouts=4, seed=1), both=True)
    finally:
        engine.dispose()
    return tmp / "site"


def folder(site: Path, lang: str) -> Path:
    return site if lang == "zh" else site / "en"


def inside(box: list[float] | None, width: int, height: int) -> bool:
    return box is not None and box[0] >= -0.5 and box[1] >= -0.5 and box[2] <= width + 0.5 \
        and box[3] <= height + 0.5


def new_page(browser: Any, width: int, height: int = 800) -> Any:
    return browser.new_page(viewport={"width": width, "height": height}, is_mobile=width < 900,
                            has_touch=width < 900)


def steps_of(page: Any) -> int:
    return int(page.evaluate("+document.getElementById('stepno').textContent.match(/\\d+/g).pop()"))


@pytest.mark.parametrize("width", [360, 390, 1280])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_rooms_current_plays_in_one_screen(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str, width: int
) -> None:
    base = served(folder(report, lang))
    height = 844 if width < 900 else 900
    page = new_page(browser, width, height)
    try:
        for board in range(1, BOARDS + 1):
            page.goto(f"{base}board-r1-t1-{board}.html")
            last = steps_of(page)
            for k in sorted({1, 4, last // 3, last // 2, (2 * last) // 3, last - 1}):
                page.goto(f"{base}board-r1-t1-{board}.html#open={k}")
                page.reload()
                page.evaluate("window.scrollTo(0, document.getElementById('movie').offsetTop)")
                rooms = page.evaluate(BOXES_JS)
                assert len(rooms) == 2
                for i, room in enumerate(rooms):
                    where = f"{lang} {width}px board {board} step {k} room {i}"
                    assert inside(room["trick"], width, height), f"{where}: trick off screen"
                    if room["turn"] is not None:
                        assert inside(room["turn"], width, height), f"{where}: turn off screen"
        # the hands: folded on a phone, one tap away; shown on a wide screen
        folded = page.evaluate("document.querySelector('.hand .cards').offsetParent === null")
        assert folded == (width < 900)
        assert page.get_attribute("#m-hands", "aria-pressed") == ("false" if width < 900 else "true")
        page.click("#m-hands")
        assert page.evaluate("document.querySelector('.hand .cards').offsetParent !== null") \
            == (width < 900)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        if width == 390:
            screenshot(page, f"board-both-rooms-{lang}-390")
    finally:
        page.close()


@pytest.mark.parametrize("width", [360, 390, 1280])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_divergence_brings_both_choices_and_values_into_view(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str, width: int
) -> None:
    base = served(folder(report, lang))
    height = 844 if width < 900 else 900
    page = new_page(browser, width, height)
    try:
        seen = 0
        for board in range(1, BOARDS + 1):
            page.goto(f"{base}board-r1-t1-{board}.html")
            if not page.locator("#m-diverge").count():
                continue
            page.click("#m-diverge")
            page.wait_for_timeout(50)  # the scroll
            chosen = page.evaluate("""() => Array.from(document.querySelectorAll(
                '#divergence .chosenlist li')).map(li => { const r = li.getBoundingClientRect();
                return [[r.left, r.top, r.right, r.bottom], li.querySelector('.anlvalue') !== null,
                        li.textContent]; })""")
            assert len(chosen) == 2, f"board {board}"
            for box, valued, text in chosen:
                assert inside(box, width, height), f"{lang} {width}px board {board}: {text}"
                assert valued, f"board {board}: no value in {text!r}"
            seen += 1
        assert seen > 0
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tap_on_the_value_graph_moves_the_movie(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str
) -> None:
    base = served(folder(report, lang))
    page = new_page(browser, 390, 844)
    try:
        page.goto(f"{base}board-r1-t1-1.html")
        graphs = page.locator("figure.valuegraph svg[data-plies]")
        assert graphs.count() == 2
        # the step numbers are on the graph
        assert page.locator("figure.valuegraph text.steptick").count() >= 2
        for i in range(2):
            svg = graphs.nth(i)
            plies = int(svg.get_attribute("data-plies") or 0)
            for want in (plies // 4, plies // 2, plies - 3):
                svg.scroll_into_view_if_needed()
                at = page.evaluate("""([svg, step]) => {
                  const b = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
                  const x0 = +svg.dataset.x0, x1 = +svg.dataset.x1, plies = +svg.dataset.plies;
                  return [b.left + (x0 + (x1 - x0) * step / plies) * b.width / vb.width,
                          b.top + b.height / 2]; }""", [svg.element_handle(), want])
                page.touchscreen.tap(at[0], at[1])
                assert page.evaluate("+document.getElementById('movie').dataset.step") == want
                assert page.url.endswith(f"#open={want}")
    finally:
        page.close()


def test_previous_and_next_board_links(browser: Any, served: Callable[[Path], str],
                                       report: Path) -> None:
    base = served(report)
    page = new_page(browser, 390, 844)
    try:
        for board in range(1, BOARDS + 1):
            page.goto(f"{base}board-r1-t1-{board}.html")
            prev, nxt = page.locator("a.prevboard"), page.locator("a.nextboard")
            assert prev.count() == (board > 1) and nxt.count() == (board < BOARDS)
            if board < BOARDS:
                assert nxt.get_attribute("href") == f"board-r1-t1-{board + 1}.html"
                assert nxt.get_attribute("rel") == "next"
        page.click("a.prevboard")
        assert page.url.split("#")[0].endswith(f"board-r1-t1-{BOARDS - 1}.html")
    finally:
        page.close()


def test_every_page_links_the_other_language_and_the_movie_keeps_its_step(
    browser: Any, served: Callable[[Path], str], report: Path
) -> None:
    base = served(report)
    page = new_page(browser, 390, 844)
    try:
        pages = sorted(p.name for p in report.glob("*.html"))
        assert pages == sorted(p.name for p in (report / "en").glob("*.html"))
        for lang, prefix in (("zh", ""), ("en", "en/")):
            for name in pages:
                page.goto(f"{base}{prefix}{name}")
                assert page.evaluate("document.documentElement.lang").startswith(lang)
                switch = page.locator("a.lang-switch")
                assert switch.count() == 1, name
                href = (switch.get_attribute("href") or "").split("#")[0]
                assert href == ("../" if lang == "en" else "en/") + name
        page.goto(f"{base}board-r1-t1-2.html#open=12")
        assert (page.get_attribute("a.lang-switch", "href") or "").endswith("#open=12")
        page.focus("#movie")
        page.keyboard.press("ArrowRight")
        assert (page.get_attribute("a.lang-switch", "href") or "").endswith("#open=13")
        page.click("a.lang-switch")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert page.evaluate("+document.getElementById('movie').dataset.step") == 13
        assert page.url.split("#")[0].endswith("/en/board-r1-t1-2.html")
    finally:
        page.close()


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_results_need_no_sideways_scroll(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str, width: int
) -> None:
    base = served(folder(report, lang))
    page = new_page(browser, width, 844)
    try:
        for name in ("index.html", "match-r1-t1.html", "team-1.html", "team-2.html",
                     "crosstable.html"):
            page.goto(base + name)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
            assert page.locator("table.stack td").count() > 0, name
            assert page.evaluate(CELLS_OFF_JS) == [], f"{lang} {width}px {name}"
        # the match page's swings and margin are among the cells inside the screen
        page.goto(base + "match-r1-t1.html")
        margin = page.evaluate("""() => document.querySelector('table.boards tfoot td')
          .getBoundingClientRect().right""")
        assert margin <= width
    finally:
        page.close()
