"""A phone's request is a few statements: West's report two, North's confirmation four
(the token, report, board and the room's result read at once), North's table page five in
one transaction; and what they store and show is what the longer paths stored and showed
(the result in the store with one change of the log, the same table page by token as by
grant)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, event
from test_hall_support import EVENT, Cards, make_event, minutes, order_for

from duplicate import events, hall, store
from duplicate.store.calls import current_results


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    """The statements ``engine`` sends inside the block (BEGIN and COMMIT are not sent
    through a cursor and are not among them)."""
    seen: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def counted(engine: Engine, call: Callable[[], Any]) -> tuple[Any, list[str]]:
    with statements(engine) as seen:
        value = call()
    return value, seen


def test_a_confirmation_is_four_statements_and_counts_once(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    card = cards[(1, "open")]
    board = events.get_round(e, EVENT, 1).boards[0]
    finish = order_for(1, "open", board)
    hall.table_view(e, card.confirm_token)  # the schema checked once for the engine
    (rep, created), seen = counted(
        e, lambda: hall.west_report(e, card.report_token, board, finish=finish)
    )
    assert created and len(seen) == 2, seen
    confirmed, seen = counted(e, lambda: hall.north_confirm(e, card.confirm_token, board, rep.id))
    assert len(seen) <= 4, seen
    assert (confirmed.state, confirmed.id, confirmed.confirmed_at is not None) == (
        "confirmed", rep.id, True,
    )  # fmt: skip
    rooms = [c for c in current_results(e, event=EVENT)
             if (c.key.table, c.key.room, c.board) == ("1", "open", str(board))]
    assert [c.state.ns_result for c in rooms] == [store.result_of_finish(finish)]
    history = store.result_history(e, rooms[0].key)
    assert [h.action for h in history] == ["report"]
    assert history[0].by == "table 1 open West" and history[0].new.finish == finish
    # a double tap: the same confirmed report, nothing written
    again, seen = counted(e, lambda: hall.north_confirm(e, card.confirm_token, board, rep.id))
    assert again == confirmed and len(seen) == 1, seen
    assert len(store.result_history(e, rooms[0].key)) == 1


def test_a_confirmation_where_a_result_is_stored_keeps_it(
    migrated_engine: Engine, cards: Cards
) -> None:
    """The room's result read with the report: the director entered the same result
    before North confirmed, so the confirmation adds nothing to the log."""
    e = migrated_engine
    card = cards[(2, "closed")]
    board = events.get_round(e, EVENT, 1).boards[1]
    finish = order_for(2, "closed", board)
    rep, _ = hall.west_report(e, card.report_token, board, finish=finish)
    slot = events.result_slot(e, EVENT, 1, 2, board, "closed")
    store.report_result(e, slot, store.Author("director", "entered from the score sheet"),
                        finish=finish)
    confirmed, seen = counted(e, lambda: hall.north_confirm(e, card.confirm_token, board, rep.id))
    assert confirmed.state == "confirmed" and len(seen) <= 3, seen
    history = store.result_history(e, slot.key)
    assert [(h.action, h.by) for h in history] == [("report", "director")]


def test_a_table_page_by_token_is_one_transaction_of_five_statements(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    card = cards[(1, "closed")]
    board = events.get_round(e, EVENT, 1).boards[2]
    hall.west_report(e, card.report_token, board, finish=order_for(1, "closed", board))
    grant = hall.grant_for(e, card.confirm_token)
    at = minutes(20)
    view, seen = counted(e, lambda: hall.table_view(e, card.confirm_token, now=at))
    assert len(seen) <= 5, seen
    assert view == hall.table_view(e, grant, now=at)
    assert view.grant == grant and view.seats.north and view.team_ns
    states = {b.board: b.state for b in view.boards}
    assert states[board] == "reported" and list(states.values()).count("not_in") == 3


def test_a_void_token_is_refused_by_the_table_page(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    old = cards[(1, "open")].confirm_token
    hall.issue_tokens(e, EVENT, 1, "director", table=1)
    with pytest.raises(hall.HallError) as refused:
        hall.table_view(e, old)
    assert refused.value.kind == "forbidden"
    with pytest.raises(hall.HallError) as unknown:
        hall.table_view(e, "no-such-token")
    assert unknown.value.kind == "forbidden"
