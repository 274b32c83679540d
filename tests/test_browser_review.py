"""The review pages in a real browser (Debian's Chromium through Playwright).

The board movie is stepped forward and back and compared at every step with the engine's
positions (hands, current trick, counts, whose turn); nothing of a later step is in the
DOM; the divergence jump and deep links land where they say; the board, match and
standings pages fit a 390-px phone without horizontal scrolling; printed hand records of
32 boards (the longest suits included) have no element outside its box. Screenshots go
to tests/artifacts/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest_browser import screenshot

from duplicate.boards import BoardSet, SetInfo, generate_set
from duplicate.compare import RoomTrace, split_tricks, trace_room
from duplicate.db import make_engine
from duplicate.dealing import board_from_hands, parse_seed_file, seed_file_bytes
from duplicate.demo import run_demo
from duplicate.events.export import export_event
from duplicate.gdn import loads
from duplicate.handrecords import render_html
from engine.cards import KIND_HR, KIND_SB, KIND_TOKENS, from_kinds, iter_kinds, make_kind

STATE_JS = """() => {
  const out = {step: +document.getElementById('movie').dataset.step, rooms: {},
               data: !!document.getElementById('movie-data'),
               cards: document.querySelectorAll('.card').length,
               panel: document.querySelectorAll('#divergence .card, #summary .card').length,
               diverge: !document.getElementById('divergence').hidden,
               summary: !document.getElementById('summary').hidden};
  for (const room of document.querySelectorAll('section.room')) {
    const hands = [0, 1, 2, 3].map(s => Array.from(room.querySelectorAll(
        `.hand[data-seat="${s}"] .card`)).map(c => c.dataset.k));
    const counts = [0, 1, 2, 3].map(s => +room.querySelector(`.hand[data-seat="${s}"] .count`).textContent);
    const turn = room.querySelector('.hand.turn');
    const trick = Array.from(room.querySelectorAll('ol.trick li')).map(li => [+li.dataset.seat,
        Array.from(li.querySelectorAll('.card')).map(c => c.dataset.k)]);
    out.rooms[room.dataset.room] = {hands, counts, trick, turn: turn ? +turn.dataset.seat : -1};
  }
  return out;
}"""


def expected(trace: RoomTrace, k: int) -> dict[str, Any]:
    """What the movie must show of a room after ``k`` actions, from the engine's replay."""
    k = min(k, len(trace.moves))
    hands = trace.positions[k].hands if k < len(trace.moves) else trace.final_hands
    tricks = split_tricks(trace)
    trick: list[list[Any]] = []
    for t in tricks:
        if t.steps[0].index < k:
            trick = [[int(m.seat), sorted(_tokens(m.combo.cards)) if m.combo else []]
                     for m in t.steps if m.index < k]
    return {
        "hands": [sorted(_tokens(h)) for h in hands],
        "counts": [len(_tokens(h)) for h in hands],
        "trick": trick,
        "turn": int(trace.positions[k].turn) if k < len(trace.moves) else -1,
    }


def _tokens(cards: int) -> list[str]:
    return [KIND_TOKENS[k] for k in iter_kinds(cards)]


def shown(state: dict[str, Any], room: str) -> dict[str, Any]:
    r = state["rooms"][room]
    return {"hands": [sorted(h) for h in r["hands"]], "counts": r["counts"],
            "trick": [[s, sorted(c)] for s, c in r["trick"]], "turn": r["turn"]}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, RoomTrace]]]:
    """The demo event's report (4 boards) and every board's room traces."""
    tmp = tmp_path_factory.mktemp("browser")
    url = f"sqlite:///{tmp}/demo.sqlite"
    result = run_demo(url, tmp / "site", seed="1f2e", boards=4)
    engine = make_engine(url)
    try:
        records = loads(export_event(engine, result.event))
    finally:
        engine.dispose()
    traces: dict[str, dict[str, RoomTrace]] = {}
    for rec in records:
        traces.setdefault(rec.board or "", {})[(rec.room or "").lower()] = trace_room(rec)
    return tmp / "site", traces


def test_movie_steps_against_the_engine(browser: Any, served: Callable[[Path], str],
                                        site: tuple[Path, dict[str, dict[str, RoomTrace]]]) -> None:
    folder, traces = site
    base = served(folder)
    board = max(traces, key=lambda b: len(traces[b]["open"].moves))
    rooms = traces[board]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}board-r1-t1-{board}.html")
    page.focus("#movie")  # the movie takes the keys while it has the focus
    longest = max(len(t.moves) for t in rooms.values())
    seen = []
    for k in range(longest + 1):
        state = page.evaluate(STATE_JS)
        assert state["step"] == k and not state["data"]  # the JSON is out of the DOM
        divergence = _divergence(rooms)
        in_view = 0
        for name, trace in rooms.items():
            want = expected(trace, k)
            assert shown(state, name) == want, f"board {board}, {name} room, step {k}"
            in_view += sum(want["counts"]) + sum(len(c) for _, c in want["trick"])
        # every card in the page is in a hand, the current trick, or the panels that
        # appear only once their moment is reached: no future play anywhere
        assert state["cards"] - state["panel"] == in_view, f"step {k}: cards beyond the position"
        assert state["diverge"] == (divergence is not None and k > divergence)
        assert state["summary"] == (k == longest)
        if not state["diverge"] and not state["summary"]:
            assert state["panel"] == 0
        seen.append(state)
        if k < longest:
            page.keyboard.press("ArrowRight")
    screenshot(page, "board-end-1280")
    for k in range(longest - 1, longest - 6, -1):  # and back
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(STATE_JS) == seen[k]
    page.click("#m-start")
    assert page.evaluate(STATE_JS) == seen[0]
    # by trick: ↓ goes to the next first action of a trick in either room
    leads = sorted({t.steps[0].index for r in rooms.values() for t in split_tricks(r)})
    page.keyboard.press("ArrowDown")
    assert page.evaluate(STATE_JS)["step"] == leads[1]
    page.keyboard.press("ArrowDown")
    assert page.evaluate(STATE_JS)["step"] == leads[2]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(STATE_JS)["step"] == leads[1]
    page.keyboard.press("End")
    assert page.evaluate(STATE_JS) == seen[-1]
    assert errors == []


def _divergence(rooms: dict[str, RoomTrace]) -> int | None:
    a, b = rooms["open"].moves, rooms["closed"].moves
    for i in range(max(len(a), len(b))):
        if i >= len(a) or i >= len(b) or not a[i].same_action(b[i]):
            return i
    return None


def test_divergence_jump_and_deep_link(browser: Any, served: Callable[[Path], str],
                                       site: tuple[Path, dict[str, dict[str, RoomTrace]]]) -> None:
    folder, traces = site
    base = served(folder)
    board = next(b for b in sorted(traces) if _divergence(traces[b]) is not None)
    d = _divergence(traces[board])
    assert d is not None
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}board-r1-t1-{board}.html")
    assert page.is_hidden("#divergence")
    page.click("#m-diverge")
    state = page.evaluate(STATE_JS)
    # just after the diverging action: each room's choice is its current trick's last play
    assert state["step"] == d + 1 and page.is_visible("#divergence")
    for name, trace in traces[board].items():
        assert shown(state, name) == expected(trace, d + 1)
    assert page.locator("#divergence .alternatives li").count() >= 1
    screenshot(page, "board-divergence-1280")
    k = min(37, len(traces[board]["open"].moves))
    page.goto(f"{base}board-r1-t1-{board}.html#open={k}")
    state = page.evaluate(STATE_JS)
    assert state["step"] == k
    assert shown(state, "open") == expected(traces[board]["open"], k)


@pytest.mark.parametrize("name", ["board-r1-t1-1.html", "match-r1-t1.html", "index.html",
                                  "crosstable.html", "players.html", "team-1.html"])
def test_phone_layout_has_no_horizontal_scrolling(
    browser: Any, served: Callable[[Path], str],
    site: tuple[Path, dict[str, dict[str, RoomTrace]]], name: str,
) -> None:
    base = served(site[0])
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True, device_scale_factor=2)
    page.goto(base + name)
    if name.startswith("board-"):
        swipe = """(dx) => { const el = document.querySelector('.rooms');
          const at = (x) => [new Touch({identifier: 1, target: el, clientX: x, clientY: 300})];
          el.dispatchEvent(new TouchEvent('touchstart', {changedTouches: at(300), bubbles: true}));
          el.dispatchEvent(new TouchEvent('touchend', {changedTouches: at(300 + dx), bubbles: true}));
          return +document.getElementById('movie').dataset.step; }"""
        assert page.evaluate(swipe, -200) == 1 and page.evaluate(swipe, -200) == 2
        assert page.evaluate(swipe, 200) == 1  # swipe right: back
        page.focus("#movie")
        page.keyboard.press("End")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{name} is {width}px wide on a 390-px phone"
    screenshot(page, f"phone-{name.removesuffix('.html')}")


def _long_suit_boards() -> list[Any]:
    """Boards holding the longest suits there are: 26 cards of one suit in a hand."""
    boards = []
    for number, level in ((1, 0), (2, 8), (3, 12)):
        hands = []
        for suit in range(4):
            kinds = [make_kind(r, suit) for r in range(13)] * 2
            kinds.append(KIND_SB if suit < 2 else KIND_HR)
            hands.append(from_kinds(kinds))
        boards.append(board_from_hands(hands, number, level))
    return boards


def test_printed_hand_records_overflow_nowhere(browser: Any, tmp_path: Path) -> None:
    seed = parse_seed_file(seed_file_bytes(bytes(range(32))))
    generated = generate_set(seed, 29, "cup")
    longest = _long_suit_boards()
    boards = tuple(longest) + tuple(
        board_from_hands(b.hands, i + len(longest) + 1, b.level) for i, b in enumerate(generated.boards)
    )
    info = SetInfo("cup <print>", generated.info.generator, generated.info.commitment,
                   generated.info.level_schedule, None, len(boards))
    path = tmp_path / "hands.html"
    path.write_text(render_html(BoardSet(info, boards), lang="zh"), encoding="utf-8")
    page = browser.new_page(viewport={"width": 794, "height": 1123})  # A4 at 96 dpi
    page.emulate_media(media="print")
    page.goto(path.as_uri())
    problems = page.evaluate("""() => {
      const bad = [];
      const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 &&
                               a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
      const boxes = Array.from(document.querySelectorAll('.hr-board, .slip'));
      for (const box of boxes) {
        const r = box.getBoundingClientRect();
        for (const el of box.querySelectorAll('*')) {
          if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
          const e = el.getBoundingClientRect();
          if (e.width === 0 && e.height === 0) continue;
          if (!inside(e, r)) bad.push(box.id + ' ' + el.className + ' ' + el.textContent.slice(0, 30));
          if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
            bad.push('scrolls: ' + box.id + ' ' + el.className);
        }
      }
      const rs = boxes.map(b => b.getBoundingClientRect());
      for (let i = 0; i < rs.length; i++) for (let j = i + 1; j < rs.length; j++) {
        const a = rs[i], b = rs[j];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
          bad.push('overlap ' + i + ' ' + j);
      }
      if (document.documentElement.scrollWidth > window.innerWidth) bad.push('page too wide');
      return {bad, boards: document.querySelectorAll('.hr-board').length};
    }""")
    assert problems["boards"] == 32
    assert problems["bad"] == []
    screenshot(page, "handrecords-print")
    assert "10" in page.inner_text("#board-1") and "T " not in page.inner_text("#board-1")


def test_hostile_names_are_text_in_the_browser(browser: Any, tmp_path: Path) -> None:
    from test_compare import CLOSED, OPEN, record

    from duplicate.compare import compare_board
    from duplicate.report import match_report, write_report

    evil = "<img src=x onerror=alert(1)><script>alert(2)</script> & \"Q\""
    comp = compare_board([record("Open", OPEN, names=(evil, "e", "s", "w")),
                          record("Closed", CLOSED, names=("a", "b", "c", evil))])
    event = match_report([comp], title=f"Cup {evil}")
    write_report(tmp_path / "site", event)
    page = browser.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for html in sorted((tmp_path / "site").glob("*.html")):
        page.goto(html.as_uri())
        if page.locator("#movie").count():
            page.focus("#movie")
        page.keyboard.press("End")
        assert page.locator("img").count() == 0, html.name
    board = next((tmp_path / "site").glob("board-*.html"))
    page.goto(board.as_uri())
    assert evil in page.inner_text("#movie")  # drawn as text by the script
    assert dialogs == []
