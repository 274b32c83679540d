"""A side's label, "N–S" or "E–W", never breaks at its dash on a phone: on the table's
pages (West's form, North's confirmation), the public round and board pages, the desk's
round page and the event's report, at 360 and 390 px in Chromium, in both languages, every
"N–S"/"E–W" of the page's text sits inside a ``span.side`` that takes one line (one box);
the text itself is unchanged. Chinese pages say 南北 and 东西, which need nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest_browser import ARTIFACTS
from helpers.hall import EV, EVENT, PASSWORD, Hall, open_hall

from duplicate.events.site import write_event_site

ROOT = Path(__file__).resolve().parent.parent
CSS = [ROOT / "duplicate/static/guandan.css", ROOT / "duplicate/web/static/hall.css"]
WIDTHS = (360, 390)

#: Every text node holding a side's label: whether its parent is a span.side, and each
#: span.side's boxes (a label broken over two lines has two).
PROBE = """() => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const loose = [];
  let node;
  while ((node = walker.nextNode())) {
    const parent = node.parentElement;
    if (!/N–S|E–W/.test(node.data) || parent.closest("script, style, option, textarea, svg")) {
      continue;
    }
    if (!(parent.matches("span.side") && /^(N–S|E–W)$/.test(node.data))) {
      loose.push(node.data.trim().slice(0, 80));
    }
  }
  const spans = Array.from(document.querySelectorAll("span.side")).filter(
    s => s.getClientRects().length > 0);
  return {loose, labels: spans.length,
          broken: spans.filter(s => s.getClientRects().length !== 1).map(s => s.textContent)};
}"""


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def _pages(h: Hall, tmp: Path) -> dict[tuple[str, str], str]:
    """The pages that show sides, in both languages: (language, name) -> HTML. West's
    form, North's page with West's report to confirm (E–W up 3), then every room in
    (board 1 released), the public round and board pages, the desk's round, the report."""
    c = h.client
    out: dict[tuple[str, str], str] = {}
    west = h.token(1, "open", "report")
    for lang in ("en", "zh"):
        out[lang, "west"] = c.get(f"/t/{west}", params={"lang": lang}).text
    r = h.report(1, "open", 1, finish="E W")
    assert r.status_code == 201, r.text
    for lang in ("en", "zh"):
        out[lang, "north"] = c.get(f"/t/{h.token(1, 'open', 'confirm')}",
                                   params={"lang": lang}).text
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    for table in (1, 2):
        for room in ("open", "closed"):
            for board in (1, 2):
                if (table, room, board) == (1, "open", 1):
                    continue
                r = h.report(table, room, board, finish="N E W")
                assert r.status_code == 201, r.text
                assert h.confirm(table, room, r.json()["id"]).status_code == 200
    r = c.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    for lang in ("en", "zh"):
        q = {"lang": lang}
        out[lang, "public round"] = c.get(f"/e/{EV}/round/1", params=q).text
        board = c.get(f"/e/{EV}/round/1/board/1", params=q)
        assert board.status_code == 200, board.text
        out[lang, "public board"] = board.text
        out[lang, "desk round"] = c.get(f"/desk/e/{EV}/round/1", params=q).text
        site = tmp / lang
        write_event_site(h.engine, EVENT, str(site), lang)
        for name in ("index.html", "match-r1-t1.html"):
            out[lang, f"report {name}"] = (site / name).read_text(encoding="utf-8")
    return out


def test_side_labels_stay_on_one_line_on_a_phone(browser: Any, h: Hall, tmp_path: Path) -> None:
    shown: dict[str, int] = {}
    for (lang, name), html in _pages(h, tmp_path).items():
        for width in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": 800}, is_mobile=True)
            try:
                page.set_content(html)
                for css in CSS:
                    page.add_style_tag(content=css.read_text(encoding="utf-8"))
                found = page.evaluate(PROBE)
                assert found["loose"] == [], (lang, name, width, found["loose"])
                assert found["broken"] == [], (lang, name, width, found["broken"])
                if lang == "en":
                    shown[name] = found["labels"]
                if name == "west" and width == 360:
                    (ARTIFACTS / "hall").mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / "hall" / f"sides-west-360-{lang}.png"))
            finally:
                page.close()
    # the English pages that show sides do: West's, North's, the public board, the desk
    assert all(shown[n] > 0 for n in ("west", "north", "public board", "desk round")), shown
