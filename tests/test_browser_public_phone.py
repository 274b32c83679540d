"""The hall's public pages on a phone (Debian's Chromium through Playwright), 360 and
390 px, English and Chinese: on a match page (finishing orders said in words under each
room's result, double downs among them) every room's result lies within the screen and
the table needs no sideways scrolling inside its box; on every page that shows a room's
result with its finishing order (public_macros.room_state: the board page's rooms, the
corrections on the event, round and match pages) no word of an order breaks across lines
and the page is no wider than the screen. The pages come from the application itself
(FastAPI's test client), laid out with the hall's stylesheets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_browser_phone import broken_words_js
from test_web_pages import Round, app_client, ev, finish_board, setup_round

from duplicate import hall
from duplicate.db import make_engine

ROOT = Path(__file__).resolve().parent.parent
CSS = [ROOT / "duplicate/static/guandan.css", ROOT / "duplicate/web/static/hall.css"]
#: The boards' finishing orders (every table reports the same): three out, the two
#: double downs (the order then names the side down too), another three out.
ORDERS = ["W S E", "N S", "E W", "N E S"]

#: Each room's result on the match page: its cell, the cell's first text (the result, the
#: finishing order below it) and the right edge of that text's box.
RESULTS_JS = """() => Array.from(document.querySelectorAll('#match tbody td[data-finish]'))
  .map(td => {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode()) && !node.data.trim()) {}
    const range = document.createRange();
    range.selectNodeContents(node);
    return [td.closest('tr').dataset.board, node.data.trim(),
            range.getBoundingClientRect().right];
  })"""
#: Every scroll box of the page wider inside than it is: [scrollWidth, clientWidth].
SCROLLS_JS = """() => Array.from(document.querySelectorAll('.scroll'))
  .map(s => [s.scrollWidth, s.clientWidth]).filter(([sw, cw]) => sw > cw)"""
#: Every word of a finishing order broken across lines (a Chinese order's words lie
#: between its 、 and ，).
BROKEN_JS = broken_words_js(".finish", word="[^\\s\u3001\uff0c,]+")


@pytest.fixture
def published(migrated_url: str) -> Iterator[tuple[TestClient, Round]]:
    """Round 1 of four tables and four boards played, closed and published, then table
    1's first board corrected in the open room (so the pages list a correction)."""
    engine = make_engine(migrated_url)
    try:
        rnd = setup_round(engine, boards=len(ORDERS))
        with app_client(migrated_url) as client:
            for board, order in zip(rnd.boards, ORDERS, strict=True):
                finish_board(client, rnd, board, order)
            hall.close_round(engine, rnd.event, 1, by="director")
            hall.publish_round(engine, rnd.event, 1, by="director")
            hall.director_correct(engine, rnd.event, 1, 1, rnd.boards[0], "open", None,
                                  "TD Wu", "scorer's slip", finish="S W N")
            yield client, rnd
    finally:
        engine.dispose()


def show(page: Any, client: TestClient, path: str, lang: str) -> None:
    """Lay ``path`` of the application out in ``page``, in ``lang``, with the stylesheets."""
    response = client.get(path, params={"lang": lang})
    assert response.status_code == 200, path
    page.set_content(response.text)
    for css in CSS:
        page.add_style_tag(content=css.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_results_and_finishing_orders_fit_the_phone(
    browser: Any, published: tuple[TestClient, Round], lang: str
) -> None:
    client, rnd = published
    e = ev(rnd.event)
    for width in (360, 390):
        page = browser.new_page(viewport={"width": width, "height": 844}, is_mobile=True,
                                has_touch=True)
        try:
            for table in rnd.tables:
                where = f"{lang} {width}px table {table}"
                show(page, client, f"/e/{e}/round/1/table/{table}", lang)
                results = page.evaluate(RESULTS_JS)
                assert len(results) == 2 * len(rnd.boards), where
                assert all(text not in ("", "—") for _, text, _ in results), where
                off = [(b, text, round(right)) for b, text, right in results if right > width]
                assert off == [], f"{where}: results off the screen"
                assert page.evaluate(SCROLLS_JS) == [], f"{where}: the table scrolls sideways"
                assert page.evaluate(BROKEN_JS) == [], where
                assert page.evaluate("document.documentElement.scrollWidth") <= width, where
            for path in (f"/e/{e}/round/1/board/{rnd.boards[0]}", f"/e/{e}/round/1", f"/e/{e}"):
                where = f"{lang} {width}px {path}"
                show(page, client, path, lang)
                assert page.evaluate("document.querySelectorAll('.finish').length") > 0, where
                assert page.evaluate(BROKEN_JS) == [], where
                assert page.evaluate("document.documentElement.scrollWidth") <= width, where
                rooms = page.evaluate("""() => Array.from(document.querySelectorAll('.result b'))
                  .map(b => b.getBoundingClientRect().right)""")
                assert all(right <= width for right in rooms), where
        finally:
            page.close()
