"""Every kind of page read by assistive technology, checked in a real browser (Debian's
Chromium through Playwright) in English and Chinese:

* axe-core (the accessibility engine, bundled by the ``axe-playwright-python`` package)
  finds no serious or critical violation on the report's pages (board, at its start, in
  the middle, with the hands shown and at the end; match; standings; cross-table; team;
  players) and the hall's (public index, standings, round, match, board, the board's
  movie; the desk's pages; West's and North's table pages);
* the movie's keys (←/→, ↑/↓, Home/End) act only while the movie has the focus;
* each seat's hand is a group named by its seat and card count ("东家手牌 25张"), a wild
  heart's text says what it stands for, the live region says each room's play and mark.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from sqlalchemy import Engine
from test_browser_board_phone import folder, report  # noqa: F401
from test_browser_desk_words import EV, EVQ, PAGES, PASSWORD, _event, service  # noqa: F401

from duplicate import hall

AXE = Axe()

REPORT_PAGES = ("index.html", "crosstable.html", "players.html", "team-1.html",
                "match-r1-t1.html")


def serious(page: Any) -> list[str]:
    """The serious and critical violations axe-core finds on the page, one line each."""
    found = AXE.run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(str(n["target"]) for n in v["nodes"][:4])
            for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_report_pages_have_no_serious_violation(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str  # noqa: F811
) -> None:
    base = served(folder(report, lang))
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True)
    problems: list[str] = []
    try:
        for name in REPORT_PAGES:
            page.goto(base + name)
            problems += [f"{name}: {p}" for p in serious(page)]
        board = base + "board-r1-t1-1.html"
        for at in ("", "#open=20", "#end"):
            page.goto(board + at)
            page.reload()
            problems += [f"board {at or 'start'}: {p}" for p in serious(page)]
        page.goto(board + "#diverge")
        page.reload()
        page.click("#m-hands")  # the hands shown, the divergence panel open
        problems += [f"board hands shown: {p}" for p in serious(page)]
    finally:
        page.close()
    assert problems == [], "\n".join(problems)


def test_the_hall_pages_have_no_serious_violation(
    browser: Any, service: tuple[str, Engine]  # noqa: F811
) -> None:
    base, engine = service
    _event(engine)
    cards = hall.issue_tokens(engine, EV, 2, "director", table=2)
    tables = [f"/t/{c.report_token}" for c in cards] + [f"/t/{cards[0].confirm_token}"]
    public = ["/", f"/e/{EVQ}/round/1/board/1/table/1"]
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    problems: list[str] = []
    try:
        for lang in ("en", "zh"):
            context.add_cookies([{"name": "lang", "value": lang, "url": base}])
            for path in [*public, *tables]:
                answer = page.goto(base + path)
                assert answer is not None and answer.status == 200, path
                problems += [f"{lang} {path}: {p}" for p in serious(page)]
        page.goto(f"{base}/desk/login")
        problems += [f"login: {p}" for p in serious(page)]
        page.fill("input[name=password]", PASSWORD)
        with page.expect_navigation():
            page.click("#login button[type=submit]")
        for lang in ("en", "zh"):
            context.add_cookies([{"name": "lang", "value": lang, "url": base}])
            for path in PAGES:  # the desk's and the public pages
                answer = page.goto(base + path)
                assert answer is not None and answer.status == 200, path
                problems += [f"{lang} {path}: {p}" for p in serious(page)]
    finally:
        context.close()
    assert problems == [], "\n".join(problems)


def test_the_check_sees_a_violation(browser: Any) -> None:
    """The check itself: a page with an image without text and an unnamed button fails."""
    page = browser.new_page()
    try:
        page.set_content('<html lang="en"><title>x</title><main><img src="x.png">'
                         '<button></button></main></html>')
        assert serious(page)
    finally:
        page.close()


STEP = "+document.getElementById('movie').dataset.step"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_keys_belong_to_the_movie_only_while_it_has_the_focus(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str  # noqa: F811
) -> None:
    base = served(folder(report, lang))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(base + "board-r1-t1-1.html")
        for key in ("ArrowRight", "ArrowDown", "End"):  # the page's: scrolling, not steps
            page.keyboard.press(key)
            assert page.evaluate(STEP) == 0, key
        page.focus("#movie")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.evaluate(STEP) == 2
        page.keyboard.press("End")
        end = page.evaluate(STEP)
        assert end > 2
        page.keyboard.press("Home")
        assert page.evaluate(STEP) == 0
        page.click("#m-next")  # a button of the movie keeps the keys in the movie
        page.keyboard.press("ArrowRight")
        assert page.evaluate(STEP) == 2
        page.focus("a.lang-switch")  # focus elsewhere: the keys are the page's again
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(STEP) == 2
        assert page.get_attribute("#movie", "role") == "region"
        assert page.get_attribute("#movie", "aria-label")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hands_counts_wild_hearts_and_marks_are_said(
    browser: Any, served: Callable[[Path], str], report: Path, lang: str  # noqa: F811
) -> None:
    base = served(folder(report, lang))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(base + "board-r1-t1-1.html#open=9")
        groups = page.evaluate("""() => Array.from(document.querySelectorAll(
          'section.room .hand')).map(h => [h.getAttribute('role'), h.getAttribute('aria-label'),
          h.querySelectorAll('.card').length])""")
        assert len(groups) == 8
        pattern = r"^[东南西北]家手牌 (\d+)张$" if lang == "zh" else \
            r"^(?:North|East|South|West)'s hand, (\d+) cards$"
        for role, name, cards in groups:
            assert role == "group"
            m = re.match(pattern, name or "")
            assert m is not None, name
            assert int(m.group(1)) == cards  # the count said is the hand's
        # a wild heart says what it is (and in a play what it stands for) in its text
        wilds = page.evaluate("""() => Array.from(document.querySelectorAll('.card.wild'))
          .map(c => [c.querySelector('.vh') ? c.querySelector('.vh').textContent : '',
                     c.getAttribute('title')])""")
        if not wilds:  # a board whose level's heart nobody holds at this step: go on
            page.goto(base + "board-r1-t1-1.html#open=0")
            page.reload()
            wilds = page.evaluate("""() => Array.from(document.querySelectorAll('.card.wild'))
              .map(c => [c.querySelector('.vh') ? c.querySelector('.vh').textContent : '',
                         c.getAttribute('title')])""")
        assert wilds, "the demo's boards hold the level's hearts"
        for said, title in wilds:
            assert said and said == title
            assert ("逢人配" if lang == "zh" else "wild") in said
        # the live region says every room's play at the step, and the mark of a marked one
        assert page.get_attribute("#movie-live", "aria-live") == "polite"
        page.focus("#movie")
        page.keyboard.press("Home")
        marked = 0
        for _ in range(page.evaluate("+document.getElementById('stepno').textContent"
                                     ".match(/\\d+/g).pop()")):
            page.keyboard.press("ArrowRight")
            # the mark's sentence (who played, what it cost, what was better) is said
            marks = page.evaluate("""() => Array.from(document.querySelectorAll('section.room'))
              .map(r => [r.querySelector('h3').textContent,
                         r.querySelector('p.anlmark') ? r.querySelector('p.anlmark').textContent : ''])
              .filter(([_, m]) => m)""")
            live = page.inner_text("#movie-live")
            for room, sentence in marks:
                assert sentence in live, (live, room, sentence)
                marked += 1
        assert marked > 0
    finally:
        page.close()
