"""The public standings on a phone (Debian's Chromium through Playwright), 390 px, English
and Chinese: the standings' box needs no sideways scrolling for the figures that matter
(rank, team, match points, the first tie-breaks and the swing), and the page says the
order of tie-breaks that ranks them."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from test_browser_public_phone import SCROLLS_JS, published, show  # noqa: F401
from test_web_pages import Round, ev


def test_the_standings_fit_a_phone(browser: Any, published: tuple[TestClient, Round]) -> None:  # noqa: F811
    client, rnd = published
    for lang in ("en", "zh"):
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True)
        try:
            show(page, client, f"/e/{ev(rnd.event)}", lang)
            assert page.locator("#ranked-by").is_visible(), lang
            assert page.evaluate(SCROLLS_JS) == [], f"{lang}: the standings scroll sideways"
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, lang
            heads = page.evaluate("""() => Array.from(document.querySelectorAll(
              '#standings thead th')).filter(th => th.offsetParent !== null).length""")
            assert heads >= 5, lang  # #, team, points, a tie-break, swing
        finally:
            page.close()
