"""What a person sees on a 390-px phone (Debian's Chromium through Playwright): no column
heading breaks inside a word (measured: the line boxes of every word of every header
cell and heading), every link, button and field is at least 44 px tall (measured), on the
desk's pages and the public pages, in English and in Chinese.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from helpers.servers import serve_in_thread
from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

PASSWORD = "desk-words-pw"
EV = "Words Cup"
EVQ = quote(EV, safe="")
PHONE = {"width": 390, "height": 844}
TEAMS = (
    ("Tigers", ["Li Wei", "Wang Fang", "Zhang Min", "Chen Jie"]),
    ("Dragons", ["Zhao Lei", "Sun Li", "Zhou Yan", "Wu Hao"]),
    ("Pandas", ["Xu Jing", "Ma Lin", "Hu Bo", "Guo Qiang"]),
    ("Cranes", ["He Ping", "Lin Tao", "Luo Na", "Song Yu"]),
)

#: Every word (a run of characters other than spaces and the Chinese list marks 、，) of header cells and headings whose
#: characters lie on more than one line: a heading broken inside a word.
BROKEN_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('th, h1, h2, h3, summary, td.num')) {
    if (!el.getClientRects().length) continue;  // not shown (e.g. hidden columns)
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      for (const m of node.data.matchAll(/[^\\s、，]+/g)) {  // a Chinese list breaks after 、 ，
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
                              .map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(el.tagName + ' "' + m[0] + '" on ' + tops.size + ' lines');
      }
    }
  }
  return out;
}"""

#: Every visible control a thumb must hit, smaller than 44 px in height.
SMALL_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll(
      'a[href], button, select, input:not([type=hidden]), textarea, summary')) {
    if (el.closest('.legend')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // not shown
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    if (r.height < 44 - 0.5)
      out.push(el.tagName + ' "' + (el.textContent || el.name || '').trim().slice(0, 30) + '" '
               + Math.round(r.height) + ' px');
  }
  return out;
}"""


@pytest.fixture
def service(_sqlite_template: Path, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    """The hall service on a free port (uvicorn in a thread): its URL and engine. On
    SQLite only: what a page looks like does not depend on the database."""
    path = tmp_path / "words.sqlite"
    shutil.copyfile(_sqlite_template, path)
    app = create_app(Settings(db_url=f"sqlite:///{path}", director_password=PASSWORD,
                              secret_key="w" * 40))
    try:
        with serve_in_thread(app) as base:
            yield base, app.state.engine
    finally:
        app.state.engine.dispose()


def _event(engine: Engine) -> None:
    """Round 1 played by the bots (every board released), published, with a table's
    request waiting on the desk; round 2 paired and running with a late ruling and a
    report waiting for North: tables and forms on every page."""
    events.create_event(engine, EV, seed="5eed", fmt="rr", rounds=3, boards_per_round=2)
    for team, players in TEAMS:
        events.add_team(engine, EV, team, players)
    seed = parse_seed_file(seed_file_bytes(bytes(range(32))))
    events.pair_round(engine, EV)
    events.assign_boards(engine, EV, 1, seed=seed)
    events.play_bots(engine, EV, 1)
    first = hall.issue_tokens(engine, EV, 1, "director")
    hall.start_round(engine, EV, 1, "director")
    hall.close_round(engine, EV, 1, "director")
    hall.publish_round(engine, EV, 1, "director")  # the chief director's box on its forms
    hall.west_report(engine, first[0].report_token, 1, finish="E W",
                     correction="we swapped two seats")  # a request: accept and dismiss
    assert [r.state for r in hall.table_requests(engine, EV, 1)] == ["requested"]
    events.pair_round(engine, EV)
    events.assign_boards(engine, EV, 2, set_name=EV)
    cards = hall.issue_tokens(engine, EV, 2, "director")
    hall.start_round(engine, EV, 2, "director")
    hall.west_report(engine, cards[0].report_token, 3, finish="N S")
    rnd = events.get_round(engine, EV, 2)
    hall.record_ruling(engine, EV, 2, rnd.matches[0].table, "warning", "none", "director",
                       "slow play")


PAGES = (
    "/desk", f"/desk/e/{EVQ}", f"/desk/e/{EVQ}/round/2", f"/desk/e/{EVQ}/round/1",
    f"/desk/e/{EVQ}/round/2/cards", "/desk/sets", f"/desk/e/{EVQ}/delete",
    f"/e/{EVQ}", f"/e/{EVQ}/round/1", f"/e/{EVQ}/round/1/table/1", f"/e/{EVQ}/round/1/board/1",
)


def test_headings_whole_and_touch_targets_at_390_px(
    browser: Any, service: tuple[str, Engine]
) -> None:
    base, engine = service
    _event(engine)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{base}/desk/login")
        page.fill("input[name=password]", PASSWORD)
        with page.expect_navigation():
            page.click("#login button[type=submit]")
        problems: list[str] = []
        for lang in ("en", "zh"):
            context.add_cookies([{"name": "lang", "value": lang, "url": base}])
            for path in PAGES:
                answer = page.goto(base + path)
                assert answer is not None and answer.status == 200, path
                assert page.evaluate("document.documentElement.lang").startswith(lang[:2])
                problems += [f"{lang} {path}: {p}" for p in page.evaluate(BROKEN_JS)]
                problems += [f"{lang} {path}: {p}" for p in page.evaluate(SMALL_JS)]
        assert problems == [], "\n".join(problems)
        # the check itself sees a broken heading and a small target when there is one
        page.set_content('<table style="width:60px"><tr><th style="overflow-wrap:anywhere;'
                         'width:20px">Boarding</th></tr></table><a href="#">tiny</a>')
        assert page.evaluate(BROKEN_JS) and page.evaluate(SMALL_JS)
    finally:
        context.close()
