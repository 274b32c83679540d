"""Players' names on a 390-px phone (Debian's Chromium through Playwright): on West's and
North's pages (the seat card, West's seat picker), in English and Chinese, a name wraps
between its words ("Wang⏎Fang") and never breaks inside one (measured from the rendered
text's line boxes). A word wider than half the phone (some 17 letters) still breaks: the
page does not grow wider than the screen for it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.hall import EVENT, Hall, open_hall
from test_browser_phone import broken_words_js

from duplicate import events

ROOT = Path(__file__).resolve().parent.parent
CSS = [ROOT / "duplicate/static/guandan.css", ROOT / "duplicate/web/static/hall.css"]
#: long names, each word as long as a name's word gets
NAMES = {"A1 Player": "Wang Fang", "D2 Player": "Aleksandra Wojciechowska",
         "D1 Player": "Papadopoulos Eleni", "A2 Player": "Oyelaran-Adeyemi Bo"}

#: Every word of every player's name whose line boxes lie on more than one line.
BROKEN_JS = broken_words_js(".player, .seatcard > div, .picker button", shown_only=True)


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def test_names_on_the_phone_break_between_words_only(browser: Any, h: Hall) -> None:
    for old, new in NAMES.items():
        events.rename_player(h.engine, EVENT, old, new, by="裁判", reason="全名")
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        for role in ("report", "confirm"):
            for lang in ("zh", "en"):
                html = h.client.get(f"/t/{h.token(1, 'open', role)}?lang={lang}").text
                page.set_content(html)
                for css in CSS:
                    page.add_style_tag(content=css.read_text(encoding="utf-8"))
                # the seat picker table.js shows (its four buttons name the players)
                page.evaluate("() => { const p = document.getElementById('picker');"
                              " if (p) p.hidden = false; }")
                shown = page.inner_text("main")
                assert "Aleksandra Wojciechowska" in shown, shown
                assert page.evaluate(BROKEN_JS) == [], f"{role} {lang}"
                assert page.evaluate(
                    "document.documentElement.scrollWidth") <= 390, f"{role} {lang}"
    finally:
        page.close()
