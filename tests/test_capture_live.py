"""The live view of captured boards (duplicate.capture.live), on both databases: a board
being played is held from anyone until released; no table's token (report, confirm,
recorder) opens the live view; the spectator link of an event the director set to
``delayed`` shows each board as it stood D minutes ago (an action younger than D is not
shown, one taken back since is); when both rooms end, the first divergence and the
analysis are stored by the background thread and appear on the live board."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import Engine, text
from test_hall_support import EVENT, Cards, make_event, minutes

from duplicate import capture, events
from duplicate.capture.sim import SimAction, actions_for_state
from duplicate.hall import HallError

Recorders = dict[tuple[int, str], str]


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


@pytest.fixture
def rec(migrated_engine: Engine, cards: Cards) -> Recorders:
    issued = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")
    return {(c.table, c.room): c.token for c in issued}


def _plan(engine: Engine, token: str, board: int, at: float = 1) -> list[SimAction]:
    state = capture.start_board(engine, token, board, now=minutes(at))
    return actions_for_state(state.hands, state.level, state.leader, seed=f"t{board}")


def _enter(engine: Engine, token: str, board: int, plan: list[SimAction], first: int,
           last: int, at: float) -> None:
    for seq in range(first, last + 1):
        a = plan[seq - 1]
        capture.enter_action(engine, token, board, seq, a.seat, a.cards, a.type, a.rank,
                             now=minutes(at))


def test_a_board_being_played_is_held_from_anyone_until_released(
        migrated_engine: Engine, rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(1, "open")]
    plan = _plan(e, token, 1)
    _enter(e, token, 1, plan, 1, 5, at=2)
    seen = capture.live_board(e, EVENT, 1, 1, 1, now=minutes(3))
    assert [r.state for r in seen.rooms] == ["held", "not_started"]
    assert all(r.record is None for r in seen.rooms)
    assert "S" not in json.dumps([r["plays"] for r in seen.to_dict()["rooms"]])
    line = capture.live_tables(e, EVENT, now=minutes(3)).lines[0]
    assert (line.table, line.board, line.open) == (1, 1, False)
    assert line.states == {"open": "held", "closed": "not_started"}
    # the director sees it as it is
    full = capture.live_board(e, EVENT, 1, 1, 1, capture.DIRECTOR, now=minutes(3))
    assert full.rooms[0].state == "playing" and full.rooms[0].shown == 5
    assert full.rooms[0].record is not None and len(full.rooms[0].record.plays) == 5
    # released by the director: anyone sees it, all of it
    events.release_board(e, EVENT, 1, 1, "director", "a table withdrew")
    now = capture.live_board(e, EVENT, 1, 1, 1, now=minutes(3))
    assert now.rooms[0].state == "playing" and now.rooms[0].shown == 5 and not now.delayed
    assert capture.live_tables(e, EVENT, now=minutes(3)).lines[0].open


def test_no_table_token_opens_the_live_view(migrated_engine: Engine, cards: Cards,
                                            rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(2, "open")]
    plan = _plan(e, token, 1)
    _enter(e, token, 1, plan, 1, 3, at=2)
    capture.set_live(e, EVENT, "delayed", 0, "director")
    link = capture.issue_watch_link(e, EVENT, "director")
    tokens = [c.report_token for c in cards.values()] + [
        c.confirm_token for c in cards.values()] + list(rec.values())
    for t in tokens:  # every table's token, of every table: none is a spectator link
        with pytest.raises(HallError) as exc:
            capture.live_board(e, EVENT, 1, 2, 1, capture.Viewer(watch=t), now=minutes(3))
        assert exc.value.kind == "forbidden"
        with pytest.raises(HallError):
            capture.live_tables(e, EVENT, capture.Viewer(watch=t), now=minutes(3))
        with pytest.raises(HallError):
            capture.watch_event(e, t)
    # the link itself does, delay 0: as it is
    seen = capture.live_board(e, EVENT, 1, 2, 1, capture.Viewer(watch=link), now=minutes(3))
    assert seen.rooms[0].shown == 3 and seen.delayed
    assert capture.watch_event(e, link) == EVENT
    # a new link voids the old; back to "released", no link opens anything
    again = capture.issue_watch_link(e, EVENT, "director")
    with pytest.raises(HallError):
        capture.live_board(e, EVENT, 1, 2, 1, capture.Viewer(watch=link), now=minutes(3))
    capture.set_live(e, EVENT, "released", None, "director")
    with pytest.raises(HallError) as exc:
        capture.live_board(e, EVENT, 1, 2, 1, capture.Viewer(watch=again), now=minutes(3))
    assert exc.value.kind == "forbidden"
    assert capture.live_settings(e, EVENT).to_dict() == {
        "event": EVENT, "mode": "released", "delay": 0, "has_link": True}
    with pytest.raises(HallError):
        capture.set_live(e, EVENT, "delayed", 1441, "director")
    with pytest.raises(HallError):
        capture.set_live(e, EVENT, "now", 5, "director")


def test_the_spectator_link_shows_a_board_as_it_stood_d_minutes_ago(
        migrated_engine: Engine, rec: Recorders) -> None:
    e = migrated_engine
    capture.set_live(e, EVENT, "delayed", 10, "director")
    link = capture.Viewer(watch=capture.issue_watch_link(e, EVENT, "director"))
    token = rec[(1, "closed")]
    plan = _plan(e, token, 2, at=2)
    _enter(e, token, 2, plan, 1, 3, at=3)
    _enter(e, token, 2, plan, 4, 6, at=8)
    capture.undo_action(e, token, 2, 6, now=minutes(9))

    def shown(at: float) -> tuple[str, int]:
        room = capture.live_board(e, EVENT, 1, 1, 2, link, now=minutes(at)).rooms[1]
        return room.state, room.shown

    assert shown(11.9) == ("held", 0)  # started 10 minutes ago less a little: not shown
    assert shown(12.5) == ("playing", 0)
    assert shown(13.5) == ("playing", 3)  # the actions of minute 8 are younger than 10
    assert shown(18.5) == ("playing", 6)  # action 6 stood then
    assert shown(19.5) == ("playing", 5)  # taken back at minute 9
    line = capture.live_tables(e, EVENT, link, now=minutes(11.9)).lines[0]
    assert (line.open, line.states["closed"]) == (False, "held")
    assert capture.live_tables(e, EVENT, link, now=minutes(12.5)).lines[0].open
    # the record shown holds exactly the actions of then
    room = capture.live_board(e, EVENT, 1, 1, 2, link, now=minutes(13.5)).rooms[1]
    assert room.record is not None
    assert [p.seat.name for p in room.record.plays] == [a.seat for a in plan[:3]]


def test_both_rooms_ended_bring_the_analysis_from_the_background(
        migrated_engine: Engine, rec: Recorders) -> None:
    e = migrated_engine
    for room in ("open", "closed"):
        token = rec[(1, room)]
        plan = _plan(e, token, 3)
        _enter(e, token, 3, plan, 1, len(plan), at=4)
    capture.wait_idle()
    seen = capture.live_board(e, EVENT, 1, 1, 3, capture.DIRECTOR, now=minutes(5))
    assert [r.state for r in seen.rooms] == ["ended", "ended"]
    assert all(r.result for r in seen.rooms)
    assert seen.analysis is not None and not seen.analysing
    body = json.loads(seen.analysis["body"])
    assert len(body["annotations"]) == 2 and all(body["annotations"])
    assert "divergence" in body
    # stored once: analysing again finds it
    assert not capture.analyse_captured(e, *_ids(e, 1, 3))


def _ids(engine: Engine, table: int, board: int) -> tuple[int, int, int]:
    with engine.connect() as conn:
        rid = conn.execute(text("SELECT round_id FROM capture_boards LIMIT 1")).scalar_one()
    return int(rid), table, board
