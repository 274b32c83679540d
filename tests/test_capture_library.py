"""Plays captured at the table (duplicate.capture), on both databases: a board started,
each action checked by the engine and numbered, resends stored once, refusals that store
nothing (out of order, out of turn, not held, not legal), undo logged, and the record as
the room's result: a round entered by bots scores with no report typed."""

from __future__ import annotations

import itertools
import threading

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session
from test_hall_support import EVENT, Cards, make_event, minutes

from duplicate import capture, events, hall, models, store
from duplicate.capture import CaptureError, tokens
from duplicate.capture.sim import SimAction, actions_for_state
from duplicate.gdn import loads
from duplicate.replay import replay
from engine.cards import parse_cards, parse_level, rank_name, to_tokens
from engine.deal import Deal
from engine.moves import legal_readings
from engine.seat import Seat

Recorders = dict[tuple[int, str], str]


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


@pytest.fixture
def rec(migrated_engine: Engine, cards: Cards) -> Recorders:
    issued = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")
    return {(c.table, c.room): c.token for c in issued}


def _count(engine: Engine, model: type[models.Base]) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model)).scalar_one())


def _plan(engine: Engine, token: str, board: int) -> list[SimAction]:
    state = capture.start_board(engine, token, board)
    return actions_for_state(state.hands, state.level, state.leader, seed=f"t{board}")


def _enter(engine: Engine, token: str, board: int, seq: int, a: SimAction) -> capture.Ack:
    return capture.enter_action(engine, token, board, seq, a.seat, a.cards, a.type, a.rank)


def test_a_board_is_hidden_until_its_table_starts_it(migrated_engine: Engine,
                                                     rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(1, "open")]
    table = capture.table_capture(e, token)
    assert [b.state for b in table.boards] == ["not_started"] * 4
    assert "hands" not in str(table.to_dict())
    with pytest.raises(CaptureError) as exc:
        capture.board_state(e, token, 1)
    assert exc.value.code == "not_started" and exc.value.kind == "conflict"
    state = capture.start_board(e, token, 1)
    assert sum(len(h) for h in state.hands.values()) == 108 and state.last == 0
    assert state.turn == state.leader and state.state == "playing"
    # another table's recorder does not see it; starting again answers the same
    with pytest.raises(CaptureError):
        capture.board_state(e, rec[(2, "open")], 1)
    assert capture.start_board(e, token, 1) == state
    assert _count(e, models.CaptureBoard) == 1


def test_cards_are_scoped_and_roles_kept_apart(migrated_engine: Engine, cards: Cards,
                                               rec: Recorders) -> None:
    e = migrated_engine
    with pytest.raises(CaptureError) as exc:
        capture.start_board(e, cards[(1, "open")].report_token, 1)
    assert exc.value.code == "not_recorder" and exc.value.kind == "forbidden"
    grant = hall.grant_for(e, rec[(1, "open")])
    assert (grant.table, grant.room, grant.role) == (1, "open", "record")
    with pytest.raises(hall.HallError) as err:
        hall.west_report(e, grant, 1, finish="N S")
    assert err.value.kind == "forbidden"
    assert "recorder" in str(err.value)
    # reprinting the table cards leaves the recorders' cards valid, and the other way round
    hall.issue_tokens(e, EVENT, 1, "director")
    assert hall.grant_for(e, rec[(1, "open")]).role == "record"
    again = capture.issue_recorder_tokens(e, EVENT, 1, "director", table=1)
    assert {(c.table, c.room) for c in again} == {(1, "open"), (1, "closed")}
    with pytest.raises(hall.HallError):
        capture.table_capture(e, rec[(1, "open")])
    capture.table_capture(e, rec[(2, "open")])


def test_round_not_started_refuses_a_board(migrated_engine: Engine) -> None:
    make_event(migrated_engine, start=False)
    token = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")[0].token
    with pytest.raises(CaptureError) as exc:
        capture.start_board(migrated_engine, token, 1)
    assert exc.value.code == "cannot_start"
    assert _count(migrated_engine, models.CaptureBoard) == 0


def test_refusals_store_nothing_and_resends_are_stored_once(migrated_engine: Engine,
                                                            rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(1, "open")]
    plan = _plan(e, token, 2)
    first = plan[0]
    ack = _enter(e, token, 2, 1, first)
    assert (ack.seq, ack.stored, ack.last) == (1, True, 1)
    again = _enter(e, token, 2, 1, first)  # a resend: acknowledged, not stored again
    assert (again.seq, again.stored, again.last) == (1, False, 1)
    assert _count(e, models.CaptureAction) == 1
    state = capture.board_state(e, token, 2)
    # out of order: number 3 before 2
    with pytest.raises(CaptureError) as exc:
        _enter(e, token, 2, 3, plan[1])
    assert (exc.value.code, exc.value.next_seq) == ("out_of_order", 2)
    # a resend that says something else
    with pytest.raises(CaptureError) as exc:
        capture.enter_action(e, token, 2, 1, first.seat, ())
    assert exc.value.code == "resent_differs"
    # out of turn: the seat after the one to act
    wrong = next(s for s in "NESW" if s != state.turn)
    with pytest.raises(CaptureError) as exc:
        capture.enter_action(e, token, 2, 2, wrong, ())
    assert exc.value.code == "out_of_turn"
    assert "turn" in str(exc.value)
    zh = exc.value.text("zh")
    assert "轮到" in zh and "第1桌" in zh and "第2步" in zh
    # not held: a card the seat to act does not have
    assert state.turn is not None
    mine = set(state.hands[state.turn])
    other = next(c for s, h in state.hands.items() if s != state.turn for c in h
                 if c not in mine)
    with pytest.raises(CaptureError) as exc:
        capture.enter_action(e, token, 2, 2, state.turn, [other])
    assert exc.value.code == "not_held"
    # not legal: a single that does not beat the play to beat, or no combination
    low = sorted(state.hands[state.turn])[:2]
    junk = [state.hands[state.turn][0], state.hands[state.turn][-1]]
    with pytest.raises(CaptureError) as exc:
        capture.enter_action(e, token, 2, 2, state.turn, junk if junk[0][1] != junk[1][1]
                             else low, "Pair", None)
    assert exc.value.code in ("illegal", "bad_action")
    with pytest.raises(CaptureError) as exc:
        capture.enter_action(e, token, 2, 2, state.turn, ["ZZ"])
    assert exc.value.code == "bad_action"
    assert _count(e, models.CaptureAction) == 1
    assert capture.board_state(e, token, 2) == state


def test_undo_takes_back_the_last_action_and_logs_it(migrated_engine: Engine,
                                                     rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(2, "closed")]
    plan = _plan(e, token, 1)
    before = capture.board_state(e, token, 1)
    _enter(e, token, 1, 1, plan[0])
    _enter(e, token, 1, 2, plan[1])
    with pytest.raises(CaptureError) as exc:
        capture.undo_action(e, token, 1, 1)
    assert exc.value.code == "undo"
    assert capture.undo_action(e, token, 1, 2, now=minutes(3)) == 1
    assert capture.undo_action(e, token, 1, 2) == 1  # a resend of the undo
    assert capture.undo_action(e, token, 1, 1) == 0
    assert capture.board_state(e, token, 1) == before
    assert capture.undo_action(e, token, 1, 1) == 0  # resent: the same answer
    with pytest.raises(CaptureError) as exc:
        capture.undo_action(e, token, 1, 5)
    assert exc.value.code == "undo"
    with engine_rows(e) as rows:
        assert [(r.seq, r.live, r.undone_by) for r in rows] == [
            (1, None, "table 2 closed Recorder"), (2, None, "table 2 closed Recorder")]
        assert rows[1].undone_at is not None
    # the number is free again: a new action 1 is stored
    assert _enter(e, token, 1, 1, plan[0]).stored


class engine_rows:  # noqa: N801 - a small context manager for the rows
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def __enter__(self) -> list[models.CaptureAction]:
        self.session = Session(self.engine)
        a = models.CaptureAction
        return list(self.session.scalars(select(a).order_by(a.seq, a.id)))

    def __exit__(self, *exc: object) -> None:
        self.session.close()


def test_the_record_is_the_result_and_the_round_scores(migrated_engine: Engine) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    rec = {(c.table, c.room): c.token
           for c in capture.issue_recorder_tokens(e, EVENT, 1, "director")}
    entered: dict[tuple[int, str, int], list[SimAction]] = {}
    for (table, room), token in sorted(rec.items()):
        for board in events.get_round(e, EVENT, 1).boards:
            plan = _plan(e, token, board)
            for seq, a in enumerate(plan, 1):
                ack = _enter(e, token, board, seq, a)
            assert ack.over and ack.turn is None
            entered[(table, room, board)] = plan
            done = capture.board_state(e, token, board)
            assert done.state == "ended" and done.note == capture.COUNTED
            assert done.finish is not None and done.result is not None
            with pytest.raises(CaptureError) as exc:
                capture.undo_action(e, token, board, len(plan))
            assert exc.value.code == "undo"
            with pytest.raises(CaptureError) as exc:
                _enter(e, token, board, len(plan) + 1, plan[0])
            assert exc.value.code == "over"
    assert _count(e, models.HallReport) == 0
    # every room's result is its captured record, logged as recorded at the table
    history = events.room_history(e, EVENT, 1, 1, 1, "open")
    assert [(c.action, c.by) for c in history] == [("import", "table 1 open Recorder")]
    assert history[0].reason == "recorded at the table"
    for cur in hall_results(e):
        assert cur.record_text is not None and cur.state.status == "played"
        rec_ = loads(cur.record_text)[0]
        key = (int(cur.key.table), cur.key.room, int(cur.board))
        said = [(p.seat.name, tuple(to_tokens(p.cards)) if p.cards else (),
                 p.type.record_name if p.type is not None else None) for p in rec_.plays or []]
        assert said == [(a.seat, a.cards, a.type) for a in entered[key]]
        res = replay(rec_)
        assert res.error is None and res.result is not None
        assert rec_.tags["Room"].lower() == cur.key.room
    clock = hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    assert clock.phase == "closed"
    scored = events.score_event(e, EVENT, 1)
    assert len(scored) == 2 and all(len(s.score.boards) == 2 for s in scored)
    rows, through = events.event_standings(e, EVENT)
    assert through == 1 and len(rows) == 4


def hall_results(e: Engine) -> list[store.CurrentResult]:
    return store.current_results(e, event=EVENT)


def _other_order(result: str) -> str:
    """A finishing order whose result differs from ``result`` (``NS +2``)."""
    return "E W" if result.startswith("NS") else "N S"


def _play_out(e: Engine, token: str, board: int) -> capture.BoardState:
    plan = actions_for_state(**_start_args(capture.start_board(e, token, board)))
    for seq, a in enumerate(plan, 1):
        _enter(e, token, board, seq, a)
    return capture.board_state(e, token, board)


def _start_args(state: capture.BoardState) -> dict[str, object]:
    return {"hands": state.hands, "level": state.level, "leader": state.leader,
            "seed": f"t{state.board}"}


def test_a_report_contradicting_the_capture_goes_to_the_director(
    migrated_engine: Engine, cards: Cards, rec: Recorders
) -> None:
    e = migrated_engine
    done = _play_out(e, rec[(1, "open")], 1)
    assert done.result is not None and done.finish is not None
    west = hall.grant_for(e, cards[(1, "open")].report_token)
    report, stored = hall.west_report(e, west, 1, finish=_other_order(done.result))
    assert stored and report.state == "disputed"
    assert report.dispute_note is not None and "capture.dispute.report" in report.dispute_note
    assert [d.id for d in hall.disputes(e, EVENT, 1)] == [report.id]
    # the captured result still counts until the director settles it
    history = events.room_history(e, EVENT, 1, 1, 1, "open")
    assert [c.action for c in history] == ["import"]
    # a report that agrees with the capture waits for North as ever, and counts nothing new
    done2 = _play_out(e, rec[(1, "open")], 2)
    assert done2.finish is not None
    same, _ = hall.west_report(e, west, 2, finish=" ".join(done2.finish[:3]))
    assert same.state == "reported"
    north = hall.grant_for(e, cards[(1, "open")].confirm_token)
    assert hall.north_confirm(e, north, 2, same.id).state == "confirmed"
    assert [c.action for c in events.room_history(e, EVENT, 1, 1, 2, "open")] == ["import"]


def test_a_capture_ending_against_a_counted_report_disputes_it(
    migrated_engine: Engine, cards: Cards, rec: Recorders
) -> None:
    e = migrated_engine
    token = rec[(2, "closed")]
    state = capture.start_board(e, token, 3)
    plan = actions_for_state(**_start_args(state))
    for seq, a in enumerate(plan[:-1], 1):
        _enter(e, token, 3, seq, a)
    # meanwhile West reports and North confirms another result
    west = hall.grant_for(e, cards[(2, "closed")].report_token)
    north = hall.grant_for(e, cards[(2, "closed")].confirm_token)
    probe = capture.board_state(e, token, 3)
    assert probe.turn is not None
    # the result the last action will give is the bots' own; report the other side's
    from_bots = _final(state, plan)
    rep, _ = hall.west_report(e, west, 3, finish=_other_order(from_bots))
    hall.north_confirm(e, north, 3, rep.id)
    ack = _enter(e, token, 3, len(plan), plan[-1])
    assert ack.over and ack.stored
    done = capture.board_state(e, token, 3)
    assert done.state == "ended" and done.note is not None and done.note != capture.COUNTED
    assert [d.id for d in hall.disputes(e, EVENT, 1)] == [rep.id]
    assert [c.action for c in events.room_history(e, EVENT, 1, 2, 3, "closed")] == ["report"]


def _final(state: capture.BoardState, plan: list[SimAction]) -> str:
    """The result (``NS +2``) the bots' deal ends with."""
    from_cards = {s: parse_cards(h) for s, h in state.hands.items()}
    deal = Deal([from_cards[s.name] for s in Seat], parse_level(state.level),
                Seat[state.leader])
    for a in plan:
        if a.cards:
            deal.play_cards(parse_cards(list(a.cards)), seat=Seat[a.seat])
        else:
            deal.pass_(Seat[a.seat])
    return deal.result().result_tag


def test_devices_racing_with_the_same_number_store_one_action(migrated_engine: Engine,
                                                               rec: Recorders) -> None:
    e = migrated_engine
    token = rec[(1, "closed")]
    plan = _plan(e, token, 2)
    results: list[object] = []
    barrier = threading.Barrier(4)

    def send(i: int) -> None:
        barrier.wait()
        try:
            results.append(_enter(e, token, 2, 1, plan[0]))
        except Exception as exc:  # noqa: BLE001 - the test reports any failure below
            results.append(exc)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    acks = [r for r in results if isinstance(r, capture.Ack)]
    assert len(acks) == 4, results
    assert sorted(a.stored for a in acks) == [False, False, False, True]
    assert _count(e, models.CaptureAction) == 1


def ambiguous_play(state: capture.BoardState) -> tuple[list[str], list[tuple[str, str]]]:
    """Cards of the leader's hand that make a play of more than one reading (wild hearts),
    and those readings, as the engine gives them."""
    level = parse_level(state.level)
    hand = sorted(set(state.hands[state.leader]))
    for k in (5, 2, 3, 4, 6):
        for combo in itertools.combinations(hand, k):
            cards = parse_cards(list(combo))
            found = [(c.type.record_name, rank_name(c.rank))
                     for c in legal_readings(cards, level, None) if c.cards == cards]
            if len(found) > 1:
                return list(combo), found
    raise AssertionError("no play of two readings in the leader's hand")


def test_readings_let_the_recorder_choose_what_wild_hearts_stand_for(
    migrated_engine: Engine, rec: Recorders
) -> None:
    e = migrated_engine
    token = rec[(1, "open")]
    state = capture.start_board(e, token, 1)
    cards, found = ambiguous_play(state)
    assert capture.readings(e, token, 1, state.leader, cards) == found
    other = next(s for s in "NESW" if s != state.leader)
    assert capture.readings(e, token, 1, other, state.hands[other][:1]) == []
    assert capture.readings(e, token, 1, state.leader, state.hands[state.leader][:1]) != []
    chosen = found[-1]
    ack = capture.enter_action(e, token, 1, 1, state.leader, cards, *chosen)
    assert ack.stored
    stored = capture.board_state(e, token, 1).actions[0]
    assert (stored.type, stored.rank) == chosen
    assert _count(e, models.CaptureAction) == 1


def test_a_report_waiting_for_north_that_the_capture_contradicts_is_disputed(
    migrated_engine: Engine, cards: Cards, rec: Recorders
) -> None:
    e = migrated_engine
    token = rec[(1, "closed")]
    state = capture.start_board(e, token, 4)
    plan = actions_for_state(**_start_args(state))
    west = hall.grant_for(e, cards[(1, "closed")].report_token)
    wrong, _ = hall.west_report(e, west, 4, finish=_other_order(_final(state, plan)))
    assert wrong.state == "reported"
    for seq, a in enumerate(plan, 1):
        _enter(e, token, 4, seq, a)
    assert capture.board_state(e, token, 4).note == capture.COUNTED
    assert [d.id for d in hall.disputes(e, EVENT, 1)] == [wrong.id]
    # a report that agrees keeps waiting for North
    token2 = rec[(2, "open")]
    state2 = capture.start_board(e, token2, 4)
    plan2 = actions_for_state(**_start_args(state2))
    west2 = hall.grant_for(e, cards[(2, "open")].report_token)
    for seq, a in enumerate(plan2[:-1], 1):
        _enter(e, token2, 4, seq, a)
    ended = _finish_of(state2, plan2)
    right, _ = hall.west_report(e, west2, 4, finish=ended)
    _enter(e, token2, 4, len(plan2), plan2[-1])
    assert [d.id for d in hall.disputes(e, EVENT, 1)] == [wrong.id]
    north2 = hall.grant_for(e, cards[(2, "open")].confirm_token)
    assert hall.north_confirm(e, north2, 4, right.id).state == "confirmed"


def _finish_of(state: capture.BoardState, plan: list[SimAction]) -> str:
    """The finishing order (``N S E``) the bots' deal ends with, as West reports it."""
    from_cards = {s: parse_cards(h) for s, h in state.hands.items()}
    deal = Deal([from_cards[s.name] for s in Seat], parse_level(state.level),
                Seat[state.leader])
    for a in plan:
        if a.cards:
            deal.play_cards(parse_cards(list(a.cards)), seat=Seat[a.seat])
        else:
            deal.pass_(Seat[a.seat])
    order = deal.result().finish_order
    return " ".join(s.name for s in order[:3])


def test_a_recorders_token_never_starts_like_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter(["-starts-like-an-option", "-again", "fine-token"])
    monkeypatch.setattr(tokens.secrets, "token_urlsafe", lambda n: next(drawn))
    assert tokens.fresh_token() == "fine-token"
