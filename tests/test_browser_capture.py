"""The recorder's page in Chromium at 390 px (a phone), in Chinese and in English: a whole
deal entered by tapping cards and Play, or Pass, with an illegal entry refused in the
page's language, a wild heart's reading chosen, an undo, and two entries made offline
that are kept, said to wait and sent when the network is back; the stored record replays and equals the entered
actions, and counts as the room's result."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers.servers import serve_in_thread
from sqlalchemy import Engine
from test_capture_library import ambiguous_play
from test_hall_support import EVENT, make_event

from duplicate import capture, events, store
from duplicate.capture.sim import SimAction, actions_for_state
from duplicate.gdn import loads
from duplicate.replay import replay
from duplicate.web.app import create_app
from duplicate.web.settings import Settings
from engine.cards import to_tokens

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def service(migrated_url: str) -> Iterator[str]:
    app = create_app(Settings(db_url=migrated_url, director_password="p" * 20,
                              secret_key="s" * 40))
    try:
        with serve_in_thread(app) as base:
            yield base
    finally:
        app.state.engine.dispose()


def _acked(page: Any, seq: int) -> None:
    """Wait until entry ``seq`` is in the history, acknowledged."""
    try:
        _wait_acked(page, seq)
    except Exception:
        print("NOT ACKED", seq, page.locator("#net").inner_text(),
              page.locator("#said").inner_text(), page.locator("#history").inner_text())
        raise


def _wait_acked(page: Any, seq: int) -> None:
    page.wait_for_function(
        "(n) => { const li = document.querySelector(`#history li[value='${n}']`);"
        " return li && !li.classList.contains('waiting')"
        " && !document.querySelector('#history li.waiting'); }", arg=seq, timeout=30000)


def _enter(page: Any, a: SimAction) -> int:
    """Tap the entry ``a`` in; the number of taps."""
    seat = page.locator(f".seat[data-seat='{a.seat}']")
    if not a.cards:
        seat.locator(".pass").click()
        return 1
    for c in a.cards:
        seat.locator(f".card[data-card='{c}'][aria-pressed='false']").first.click()
    seat.locator(".play").click()
    return len(a.cards) + 1


@pytest.mark.parametrize("lang,table,room", [("zh", 1, "open"), ("en", 2, "closed")])
def test_a_recorder_enters_a_whole_deal_on_a_phone(
    browser: Any, service: str, migrated_engine: Engine, lang: str, table: int, room: str
) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    token = next(c.token for c in capture.issue_recorder_tokens(e, EVENT, 1, "director")
                 if (c.table, c.room) == (table, room))
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                              locale="zh-CN" if lang == "zh" else "en-GB")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{service}/r/{token}?lang={lang}")
        page.locator(".board-pick[data-board='1']").click()
        page.locator("#deal").wait_for(state="visible")
        state = capture.board_state(e, token, 1)
        assert page.locator(f".seat[data-seat='{state.leader}']").get_attribute(
            "class") == "seat acting"
        # an illegal entry: the leader passes; refused in the page's language, nothing kept
        page.locator(f".seat[data-seat='{state.leader}'] .pass").click()
        page.locator("#said").wait_for(state="visible")
        said = page.locator("#said").inner_text()
        assert ("不能过" in said) if lang == "zh" else ("may not pass" in said)
        page.wait_for_function("() => !document.querySelector('#history li')")
        assert capture.board_state(e, token, 1).last == 0
        # a play of two readings (a wild heart): the page asks which, the recorder chooses
        cards, found = ambiguous_play(state)
        taps: list[int] = [len(cards) + 2]
        leader = page.locator(f".seat[data-seat='{state.leader}']")
        for c in cards:
            leader.locator(f".card[data-card='{c}'][aria-pressed='false']").first.click()
        leader.locator(".play").click()
        page.locator("#choose").wait_for(state="visible")
        assert page.locator("#choices .reading").count() == len(found)
        chosen = found[-1]
        page.locator(f"#choices .reading[data-type='{chosen[0]}'][data-rank='{chosen[1]}']"
                     ).click()
        _acked(page, 1)
        first = capture.board_state(e, token, 1).actions[0]
        assert (first.type, first.rank) == chosen
        plan = actions_for_state(state.hands, state.level, state.leader, seed=lang, start=[
            SimAction(first.seat, first.cards, first.type, first.rank)])
        for seq, a in enumerate(plan, 1):
            if seq == 1:
                continue
            if seq == 10:
                ctx.set_offline(True)
            taps.append(_enter(page, a))
            if seq in (10, 11):  # kept on the phone, said to wait
                page.locator("#net").wait_for(state="visible")
                page.wait_for_function(
                    "(n) => document.querySelectorAll('#history li.waiting').length === n",
                    arg=seq - 9)
                if seq == 11:
                    assert capture.board_state(e, token, 1).last == 9
                    offline_said = page.locator("#net").inner_text()
                    assert ("离线" in offline_said) if lang == "zh" else (
                        "Offline" in offline_said)
                    ctx.set_offline(False)
                continue
            if seq == 3:  # undo the third entry, then enter it again
                _acked(page, 3)
                page.locator("#undo").click()
                page.wait_for_function(
                    "() => !document.querySelector(\"#history li[value='3']\")")
                assert capture.board_state(e, token, 1).last == 2
                taps.append(_enter(page, a))
            _acked(page, seq)
        assert errors == []
        _acked(page, len(plan))
        page.wait_for_function(
            "(w) => !document.getElementById('net').textContent.includes(w)",
            arg="离线" if lang == "zh" else "Offline")
        over = page.locator("#turn").inner_text()
        assert ("已结束" in over) if lang == "zh" else ("is over" in over)
        done = capture.board_state(e, token, 1)
        assert done.state == "ended" and done.note == capture.COUNTED
        assert [(a.seat, a.cards) for a in done.actions] == [(a.seat, a.cards) for a in plan]
        cur = next(r for r in store.current_results(e, event=EVENT)
                   if (int(r.key.table), r.key.room, r.board) == (table, room, "1"))
        assert cur.record_text is not None
        rec = loads(cur.record_text)[0]
        assert replay(rec).error is None
        assert [(p.seat.name, tuple(to_tokens(p.cards)) if p.cards else ())
                for p in rec.plays or []] == [(a.seat, a.cards) for a in plan]
        assert [c.action for c in events.room_history(e, EVENT, 1, table, 1, room)] == ["import"]
        taps.sort()
        print(f"taps per action ({lang}): median {taps[len(taps) // 2]}, "
              f"passes {sum(1 for a in plan if not a.cards)} of {len(plan)}")
    finally:
        ctx.close()
