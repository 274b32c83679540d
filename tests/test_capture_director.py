"""The director's side of a captured board (duplicate.capture.director), on both
databases: a play corrected (who, why, before, after, logged on the board and in the
admin log, shown on the live board), refused when the engine refuses it or when a later
action would no longer be legal, nothing stored then; a deal marked unfinished (the
room's result unfinished, nothing more entered); an ended deal's record taken back (the
room no longer counts it)."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event, minutes

from duplicate import capture, events, hall
from duplicate.capture import CaptureError
from duplicate.capture.sim import SimAction, actions_for_state
from duplicate.events.site import stored_rooms
from duplicate.hall import HallError
from engine.cards import parse_cards, to_tokens

Recorders = dict[tuple[int, str], str]


@pytest.fixture
def rec(migrated_engine: Engine) -> Recorders:
    make_event(migrated_engine)
    issued = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")
    return {(c.table, c.room): c.token for c in issued}


def _start(engine: Engine, token: str, board: int) -> tuple[capture.BoardState,
                                                             list[SimAction]]:
    state = capture.start_board(engine, token, board, now=minutes(1))
    return state, actions_for_state(state.hands, state.level, state.leader, seed=f"d{board}")


def _enter(engine: Engine, token: str, board: int, plan: list[SimAction], upto: int) -> None:
    for seq in range(1, upto + 1):
        a = plan[seq - 1]
        capture.enter_action(engine, token, board, seq, a.seat, a.cards, a.type, a.rank,
                             now=minutes(2))


def test_a_play_is_corrected_logged_and_shown(migrated_engine: Engine,
                                               rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(1, "open")]
    state, plan = _start(e, token, 1)
    _enter(e, token, 1, plan, 1)
    leader = state.leader
    first = plan[0]
    other = next(c for c in state.hands[leader] if c not in first.cards)
    done = capture.correct_play(e, EVENT, 1, 1, "open", 1, 1, leader, [other], "TD",
                                "the recorder tapped the wrong card", now=minutes(3))
    assert (done.kind, done.seq, done.state) == ("play", 1, "playing")
    assert done.before == " ".join([leader, *first.cards]) and done.after == f"{leader} {other}"
    now = capture.board_state(e, token, 1)
    assert [a.cards for a in now.actions] == [(to_tokens(parse_cards([other]))[0],)]
    assert other not in now.hands[leader]
    live = capture.live_board(e, EVENT, 1, 1, 1, capture.DIRECTOR, now=minutes(4))
    (c,) = live.rooms[0].corrections
    assert (c.by, c.reason, c.before, c.after, c.seq) == (
        "TD", "the recorder tapped the wrong card", done.before, done.after, 1)
    log = events.admin_log(e, EVENT)
    assert any(x["action"] == "capture" and x["by"] == "TD" for x in log)
    # the next action enters after the corrected one
    nxt = capture.enter_action(e, token, 1, 2, now.turn or "", [], now=minutes(4))
    assert nxt.stored and nxt.last == 2


def test_a_correction_the_engine_refuses_stores_nothing(migrated_engine: Engine,
                                                         rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(2, "closed")]
    state, plan = _start(e, token, 2)
    _enter(e, token, 2, plan, 4)
    before = capture.board_state(e, token, 2)
    held_by_other = next(c for s, h in state.hands.items() if s != state.leader for c in h
                         if c not in state.hands[state.leader])
    with pytest.raises(CaptureError) as exc:  # a card the seat does not hold
        capture.correct_play(e, EVENT, 1, 2, "closed", 2, 1, state.leader, [held_by_other],
                             "TD", "typo")
    assert exc.value.code == "illegal"
    with pytest.raises(CaptureError):  # no action 9
        capture.correct_play(e, EVENT, 1, 2, "closed", 2, 9, state.leader, [], "TD", "typo")
    with pytest.raises(HallError):  # who and why are required
        capture.correct_play(e, EVENT, 1, 2, "closed", 2, 1, state.leader, [], "TD", "")
    # action 2 becomes the leader's: action 3 (the next seat's) would be out of turn
    if plan[1].seat != state.leader:
        with pytest.raises(HallError):
            capture.correct_play(e, EVENT, 1, 2, "closed", 2, 2, state.leader, [], "TD", "x")
    assert capture.board_state(e, token, 2) == before
    with pytest.raises(HallError) as nf:  # a board not captured
        capture.correct_play(e, EVENT, 1, 2, "open", 2, 1, "N", [], "TD", "x")
    assert nf.value.kind == "not_found"


def test_a_deal_marked_unfinished_takes_no_more_entries(migrated_engine: Engine,
                                                         rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(1, "closed")]
    _, plan = _start(e, token, 3)
    _enter(e, token, 3, plan, 6)
    done = capture.mark_unfinished(e, EVENT, 1, 1, "closed", 3, "TD", "time", now=minutes(5))
    assert done.state == "unfinished" and done.before == "playing"
    room = stored_rooms(e, EVENT, 1)[(1, 1, 3, "closed")]
    assert room.status == "unfinished" and room.reason == "time"
    a = plan[6]
    with pytest.raises(CaptureError) as exc:
        capture.enter_action(e, token, 3, 7, a.seat, a.cards, a.type, a.rank)
    assert exc.value.code == "over"
    with pytest.raises(CaptureError):
        capture.undo_action(e, token, 3, 6)
    with pytest.raises(HallError):  # twice: it is not being played any more
        capture.mark_unfinished(e, EVENT, 1, 1, "closed", 3, "TD", "time")
    live = capture.live_board(e, EVENT, 1, 1, 3, capture.DIRECTOR)
    assert live.rooms[1].state == "unfinished"


def test_an_ended_deals_record_is_taken_back(migrated_engine: Engine,
                                              rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(2, "open")]
    _, plan = _start(e, token, 4)
    with pytest.raises(HallError):  # not ended yet
        capture.take_back(e, EVENT, 1, 2, "open", 4, "TD", "wrong board")
    _enter(e, token, 4, plan, len(plan))
    counted = stored_rooms(e, EVENT, 1)[(1, 2, 4, "open")]
    assert counted.status == "played" and counted.record
    # an ended deal's play corrected: the deal must still end; its record counts again
    first = plan[0]
    again = capture.correct_play(e, EVENT, 1, 2, "open", 4, 1, first.seat, list(first.cards),
                                 "TD", "checked against the table's memory")
    assert again.state == "ended" and again.before == again.after
    assert stored_rooms(e, EVENT, 1)[(1, 2, 4, "open")] == counted
    if plan[1].cards:  # a play that no longer fits makes a later action illegal: refused
        with pytest.raises((HallError, CaptureError)):
            capture.correct_play(e, EVENT, 1, 2, "open", 4, 2, plan[1].seat, [], "TD", "x")
    done = capture.take_back(e, EVENT, 1, 2, "open", 4, "TD", "the wrong board was entered")
    assert done.state == "withdrawn" and done.before == "ended"
    room = stored_rooms(e, EVENT, 1)[(1, 2, 4, "open")]
    assert room.status == "unfinished"
    live = capture.live_board(e, EVENT, 1, 2, 4, capture.DIRECTOR)
    assert live.rooms[0].state == "withdrawn"
    assert [c.kind for c in live.rooms[0].corrections] == ["play", "withdrawn"]
    # the director then rules the room's result as for any other board
    assert hall.director_correct(e, EVENT, 1, 2, 4, "open", 2, "TD", "ruled")
    assert stored_rooms(e, EVENT, 1)[(1, 2, 4, "open")].ns_result == 2
