"""A whole round through the hall library (duplicate.hall), and every refusal of the
table's calls: wrong role, another table's report, closed window, conflicts, double
reports and confirmations stored once, disputes settled by the director."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, func, select
from test_hall_support import EVENT, Cards, make_event, minutes, order_for, report_all

from duplicate import events, hall, models, store
from duplicate.hall import HallError


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


def _grants(engine: Engine, card: hall.TableCard) -> tuple[hall.Grant, hall.Grant]:
    return hall.grant_for(engine, card.report_token), hall.grant_for(engine, card.confirm_token)


def _count(engine: Engine, model: type[models.Base]) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model)).scalar_one())


def test_a_whole_round_counts_what_north_confirmed(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    assert len(cards) == 4  # 2 tables x 2 rooms
    for (table, room), c in cards.items():
        m = events.list_matches(e, EVENT, 1)[table - 1]
        players = m.open_players if room == "open" else m.closed_players
        assert (c.seats.north, c.seats.east, c.seats.south, c.seats.west) == players
        assert c.team_ns == (m.team_x if room == "open" else m.team_y)
        assert c.report_token != c.confirm_token and len(c.report_token) >= 32
    reports = report_all(e, cards, confirm=False)
    assert all(r.state == "reported" for r in reports)
    # nothing counts before North confirms
    assert store.current_results(e, event=EVENT) == []
    status = hall.round_status(e, EVENT, 1)
    assert {b.state for rs in status for b in rs.boards} == {"reported"}
    for rep in reports:
        north = hall.grant_for(e, cards[(rep.table, rep.room)].confirm_token)
        done = hall.north_confirm(e, north, rep.board, rep.id)
        assert done.state == "confirmed" and done.confirmed_at is not None
    for rs in hall.round_status(e, EVENT, 1):
        for b in rs.boards:
            expected = store.result_of_finish(order_for(rs.table, rs.room, b.board))
            assert (b.state, b.ns_result) == ("confirmed", expected)
    # the store has every room, by the table (West reported, North confirmed)
    current = store.current_results(e, event=EVENT)
    assert len(current) == 16
    history = events.room_history(e, EVENT, 1, 1, 1, "open")
    assert [(c.action, c.by, c.reason) for c in history] == [
        ("report", "table 1 open West", "West's report, confirmed by North")
    ]
    clock = hall.close_round(e, EVENT, 1, "director", now=minutes(55))
    assert clock.phase == "closed" and clock.correction_until == minutes(65)
    scored = events.score_event(e, EVENT, 1)
    board_swings = [(s.info.table, [b.swing for b in s.score.boards]) for s in scored]
    for table, swings in board_swings:
        for n, sw in zip(range(1, 5), swings, strict=True):
            o_ns = store.result_of_finish(order_for(table, "open", n))
            c_ns = store.result_of_finish(order_for(table, "closed", n))
            assert sw == o_ns - c_ns
    assert hall.publish_round(e, EVENT, 1, "director", now=minutes(56)).phase == "published"
    live = hall.live_standings(e, EVENT)
    rows, through = events.event_standings(e, EVENT)
    assert (live.rows, live.through, live.provisional) == (rows, through, False)


def test_roles_tables_and_boards_are_refused(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    west1, north1 = _grants(e, cards[(1, "open")])
    west2, north2 = _grants(e, cards[(2, "open")])
    westc, northc = _grants(e, cards[(1, "closed")])
    with pytest.raises(HallError) as exc:
        hall.west_report(e, north1, 1, finish="N S")
    assert exc.value.kind == "forbidden"
    rep, created = hall.west_report(e, west1, 1, finish="N E S")
    assert created and rep.ns_result == 2
    for grant, kind in ((west1, "forbidden"), (north2, "forbidden"), (northc, "forbidden")):
        with pytest.raises(HallError) as exc:
            hall.north_confirm(e, grant, 1, rep.id)
        assert exc.value.kind == kind, grant
        with pytest.raises(HallError) as exc:
            hall.north_dispute(e, grant, 1, rep.id, "no")
        assert exc.value.kind == kind
    with pytest.raises(HallError) as exc:
        hall.north_confirm(e, north1, 2, rep.id)  # the report is of board 1
    assert exc.value.kind == "invalid"
    with pytest.raises(HallError) as exc:
        hall.north_confirm(e, north1, 1, rep.id + 999)
    assert exc.value.kind == "not_found"
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west1, 99, finish="N S")
    assert exc.value.kind == "not_found"
    for bad in ({"finish": "N N S"}, {"finish": "N E"}, {"finish": "X Y Z"}, {},
                {"finish": "N S", "unfinished": "time"}, {"unfinished": "  "}):  # fmt: skip
        with pytest.raises(HallError) as exc:
            hall.west_report(e, west2, 1, **bad)  # type: ignore[arg-type]
        assert exc.value.kind == "invalid", bad
    assert _count(e, models.HallReport) == 1
    assert store.current_results(e, event=EVENT) == []
    for token in ("", "x" * 32, cards[(1, "open")].report_token + "x", "y" * 5000):
        with pytest.raises(HallError) as exc:
            hall.grant_for(e, token)
        assert exc.value.kind == "forbidden"


def test_same_report_twice_is_stored_once_a_different_one_conflicts(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    west, north = _grants(e, cards[(2, "closed")])
    first, created = hall.west_report(e, west, 3, finish="w n e")
    again, created2 = hall.west_report(e, west, 3, finish="W,N,E")
    assert created and not created2 and again == first and first.finish == "W N E"
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west, 3, finish="N S")
    assert exc.value.kind == "conflict" and "correction" in str(exc.value)
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west, 3, unfinished="time")
    assert exc.value.kind == "conflict"
    confirmed = hall.north_confirm(e, north, 3, first.id)
    assert hall.north_confirm(e, north, 3, first.id) == confirmed  # idempotent
    assert len(events.room_history(e, EVENT, 1, 2, 3, "closed")) == 1
    # the same report after the confirmation is still the same
    assert hall.west_report(e, west, 3, finish="W N E") == (confirmed, False)
    with pytest.raises(HallError) as exc:
        hall.north_dispute(e, north, 3, first.id, "we went out first")
    assert exc.value.kind == "conflict"
    assert _count(e, models.HallReport) == 1


def test_a_correction_replaces_and_waits_for_north(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    west, north = _grants(e, cards[(1, "open")])
    first, _ = hall.west_report(e, west, 2, finish="N S")
    hall.north_confirm(e, north, 2, first.id)
    fixed, created = hall.west_report(e, west, 2, finish="E S N", correction="typed N S")
    assert created and fixed.state == "reported" and fixed.ns_result == -1
    [b2] = [b for b in hall.table_view(e, north).boards if b.board == 2]
    assert (b2.state, b2.ns_result, b2.report) == ("reported", 3, fixed)  # the old one counts
    with pytest.raises(HallError) as exc:
        hall.north_confirm(e, north, 2, first.id)  # replaced
    assert exc.value.kind == "conflict"
    hall.north_confirm(e, north, 2, fixed.id)
    history = events.room_history(e, EVENT, 1, 1, 2, "open")
    assert [(c.action, c.new.ns_result) for c in history] == [("report", 3), ("correction", -1)]
    states = {r.id: r.state for r in _reports(e)}
    assert states == {first.id: "replaced", fixed.id: "confirmed"}


def _reports(e: Engine) -> list[models.HallReport]:
    from sqlalchemy.orm import Session

    with Session(e) as s:
        return list(s.scalars(select(models.HallReport).order_by(models.HallReport.id)))


def test_closed_round_and_window(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    report_all(e, cards)
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    west, north = _grants(e, cards[(2, "open")])
    old = order_for(2, "open", 1)
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west, 1, finish="N W S" if old != "N W S" else "N S")
    assert exc.value.kind == "closed"
    # the same report is still the same (a retry after the close)
    assert hall.west_report(e, west, 1, finish=old)[1] is False
    # within the window a correction is accepted and North confirms it
    fixed, _ = hall.west_report(e, west, 1, finish="E W", correction="wrong order", now=minutes(55))
    hall.north_confirm(e, north, 1, fixed.id, now=minutes(55))
    assert events.match_boards(e, EVENT, 1, 2)[0].open_ns == -3
    # after the window every token is closed
    for token in (cards[(2, "open")].report_token, cards[(1, "closed")].confirm_token):
        with pytest.raises(HallError) as exc:
            hall.grant_for(e, token, now=minutes(60.5))
        assert exc.value.kind == "closed"
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west, 1, finish="N S", correction="late", now=minutes(61))
    assert exc.value.kind == "closed"
    # reissuing cards voids the old ones (before the window is over)
    assert hall.grant_for(e, cards[(1, "open")].report_token, now=minutes(59)).role == "report"
    new = hall.issue_tokens(e, EVENT, 1, "director")
    with pytest.raises(HallError) as exc:
        hall.grant_for(e, cards[(1, "open")].report_token, now=minutes(59))
    assert exc.value.kind == "forbidden"
    assert hall.grant_for(e, new[0].confirm_token, now=minutes(59)).role == "confirm"


def test_dispute_settled_by_the_director(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    west, north = _grants(e, cards[(1, "closed")])
    rep, _ = hall.west_report(e, west, 4, finish="N S")
    for empty in ("", "   "):
        with pytest.raises(HallError):
            hall.north_dispute(e, north, 4, rep.id, empty)
    disputed = hall.north_dispute(e, north, 4, rep.id, "E went out first")
    assert disputed.state == "disputed" and disputed.dispute_note == "E went out first"
    assert hall.north_dispute(e, north, 4, rep.id, "E went out first") == disputed
    assert hall.disputes(e, EVENT) == [disputed] == hall.disputes(e, EVENT, 1)
    with pytest.raises(HallError) as exc:
        hall.north_confirm(e, north, 4, rep.id)
    assert exc.value.kind == "conflict"
    with pytest.raises(HallError):
        hall.settle_dispute(e, EVENT, rep.id, "director", "heard both", finish="E S", ns_result=2)
    with pytest.raises(HallError) as exc:
        hall.settle_dispute(e, EVENT, rep.id, "director", "", finish="E S")
    assert exc.value.kind == "invalid"
    assert store.current_results(e, event=EVENT) == []
    settled = hall.settle_dispute(e, EVENT, rep.id, "director", "heard both", finish="E N W")
    assert (settled.state, settled.settled_by, settled.settled_reason) == (
        "settled", "director", "heard both",
    )  # fmt: skip
    assert hall.disputes(e, EVENT) == []
    [b4] = [b for b in hall.table_view(e, north).boards if b.board == 4]
    assert (b4.state, b4.ns_result) == ("ruled", -2)
    [change] = events.room_history(e, EVENT, 1, 1, 4, "closed")
    assert (change.action, change.by, change.reason) == ("ruling", "director", "heard both")
    with pytest.raises(HallError) as exc:
        hall.settle_dispute(e, EVENT, rep.id, "director", "again", ns_result=1)
    assert exc.value.kind == "conflict"
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west, 4, finish="W E", correction="West insists")
    assert exc.value.kind == "conflict" and "settled" in str(exc.value)
    assert any(x["action"] == "hall settle" for x in events.admin_log(e, EVENT))


def test_unfinished_and_record_reports(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    west, north = _grants(e, cards[(2, "closed")])
    rep, _ = hall.west_report(e, west, 2, unfinished=" time ")
    assert (rep.unfinished, rep.ns_result, rep.finish) == ("time", None, None)
    hall.north_confirm(e, north, 2, rep.id)
    [now] = [c for c in store.current_results(e, event=EVENT)]
    assert (now.state.status, now.state.note) == ("unfinished", "time")
    # a record of the board, played by the bots, checked and imported on confirmation
    rules = events.event_rules(e, EVENT)
    north_name = cards[(2, "closed")].seats.north
    prepared = next(
        p
        for t in events.bot_records(e, EVENT, 1)
        for p in events.prepare_text(t, rules=rules)
        if (p.tags.get("Room"), p.tags.get("Board"), p.tags.get("North"))
        == ("Closed", "3", north_name)
    )
    text = prepared.text
    wrong = "N S" if prepared.ns_result != 3 else "E W"
    with pytest.raises(HallError) as exc:
        hall.west_report(e, west, 3, finish=wrong, record=text)
    assert exc.value.kind == "invalid" and "record says" in str(exc.value)
    with pytest.raises(HallError):
        hall.west_report(e, west, 4, finish=prepared.finish or "N S", record=text)  # board 3's
    west_open, _ = _grants(e, cards[(2, "open")])
    with pytest.raises(HallError):
        hall.west_report(e, west_open, 3, finish=prepared.finish or "N S", record=text)
    with pytest.raises(HallError):
        hall.west_report(e, west, 3, finish=prepared.finish or "N S", record="not a record")
    assert prepared.finish is not None
    rep3, created = hall.west_report(e, west, 3, finish=prepared.finish, record=text)
    assert created and rep3.has_record and rep3.ns_result == prepared.ns_result
    hall.north_confirm(e, north, 3, rep3.id)
    [room] = [c for c in store.current_results(e, event=EVENT) if c.board == "3"]
    assert room.state.ns_result == prepared.ns_result and room.record_text is not None
    history = events.room_history(e, EVENT, 1, 2, 3, "closed")
    assert [(c.action, c.by) for c in history] == [("import", "table 2 closed West")]


def test_close_refuses_a_missing_board_and_pending_reports(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    report_all(e, cards, skip={(2, "closed", 3)})
    with pytest.raises(HallError) as exc:
        hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    assert exc.value.kind == "invalid" and "table 2" in str(exc.value)
    assert "board 3, closed room" in str(exc.value)
    with pytest.raises(HallError) as exc:
        hall.publish_round(e, EVENT, 1, "director")
    assert exc.value.kind == "invalid"
    west, north = _grants(e, cards[(2, "closed")])
    rep, _ = hall.west_report(e, west, 3, finish="S E N")
    with pytest.raises(HallError) as exc:
        hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    assert "waits for North" in str(exc.value)
    hall.north_confirm(e, north, 3, rep.id)
    assert hall.round_clock(e, EVENT, 1, now=minutes(50)).phase == "over"
    closed = hall.close_round(e, EVENT, 1, "director", now=minutes(51))
    assert hall.close_round(e, EVENT, 1, "director", now=minutes(52)) == closed
    assert closed.closed_at == minutes(51)
    assert events.get_round(e, EVENT, 1) is not None


def test_director_correction_any_time(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    report_all(e, cards)
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    hall.publish_round(e, EVENT, 1, "director", now=minutes(51))
    hall.director_correct(e, EVENT, 1, 1, 2, "closed", -3, "director", "score sheet")
    [b] = [b for rs in hall.round_status(e, EVENT, 1) if (rs.table, rs.room) == (1, "closed")
           for b in rs.boards if b.board == 2]  # fmt: skip
    assert (b.state, b.ns_result) == ("ruled", -3)
    for args, kind in (
        ((9, 2, "open", 1), "not_found"),
        ((1, 99, "open", 1), "not_found"),
        ((1, 2, "hall", 1), "invalid"),
        ((1, 2, "open", 7), "invalid"),
    ):
        with pytest.raises(HallError) as exc:
            hall.director_correct(e, EVENT, 1, *args, "director", "x")
        assert exc.value.kind == kind, args
    with pytest.raises(HallError) as exc:
        hall.director_correct(e, EVENT, 1, 1, 2, "open", 1, "director", "")
    assert exc.value.kind == "invalid"
    [row] = [c for c in events.list_corrections(e, EVENT) if c["board"] == 2]
    assert (row["by"], row["reason"], row["table"]) == ("director", "score sheet", 1)


def test_unknown_event_round_table(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    for call in (
        lambda: hall.round_clock(e, "nope", 1),
        lambda: hall.round_clock(e, EVENT, 5),
        lambda: hall.draw(e, EVENT, 9),
        lambda: hall.public_match(e, EVENT, 1, 7),
        lambda: hall.board_released(e, EVENT, 1, 99),
        lambda: hall.issue_tokens(e, "nope", 1, "director"),
        lambda: hall.results_version(e, "nope"),
        lambda: hall.live_standings(e, "nope"),
        lambda: hall.round_status(e, EVENT, 3),
        lambda: hall.check_in(e, EVENT, 1, "Nobody", "director"),
    ):
        with pytest.raises(HallError) as exc:
            call()
        assert exc.value.kind == "not_found"
