"""Concurrency of the hall library (on every backend; PostgreSQL is the one that matters:
several workers): two phones reporting one board at once, a confirmation racing a
correction. Nothing lost, nothing duplicated, the log complete."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session
from test_hall_support import EVENT, make_event

from duplicate import events, hall, models
from duplicate.db import make_engine
from duplicate.hall import HallError


def _race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` at once (one thread each, released together); results or errors."""
    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            out[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _live(engine: Engine, table: int, room: str, board: int) -> list[models.HallReport]:
    h = models.HallReport
    with Session(engine) as s:
        return list(
            s.scalars(
                select(h).where(
                    h.table_no == table, h.room == room, h.board == board, h.live.is_(True)
                )
            )
        )


def _rows(engine: Engine, table: int, room: str, board: int) -> int:
    h = models.HallReport
    with Session(engine) as s:
        return int(
            s.scalar(
                select(func.count())
                .select_from(h)
                .where(h.table_no == table, h.room == room, h.board == board)
            )
            or 0
        )


@pytest.mark.parametrize("by_token", [False, True], ids=["grant", "token"])
def test_two_phones_report_one_board_at_once(migrated_url: str, by_token: bool) -> None:
    """Two or four phones report one board at once, with a grant looked up first or with
    the token itself (as the API does: the token, the live report and the stored result
    read in one statement): one report stored, the others get it or a conflict."""
    engines = [make_engine(migrated_url) for _ in range(4)]
    e = engines[0]
    try:
        cards = make_event(e, boards=8)
        for (table, room), card in sorted(cards.items()):
            west: hall.Grant | str = (
                card.report_token if by_token else hall.grant_for(e, card.report_token)
            )
            for board in range(1, 9):
                if board % 2:  # different results: exactly one wins, the other conflicts
                    outs = _race([
                        lambda g=west, b=board, x=x, f=f: hall.west_report(x, g, b, finish=f)
                        for x, f in zip(engines[:2], ("N S", "E W"), strict=True)
                    ])  # fmt: skip
                    wins = [o for o in outs if isinstance(o, tuple)]
                    errors = [o for o in outs if isinstance(o, HallError)]
                    assert len(wins) == 1 and wins[0][1] is True, outs
                    assert len(errors) == 1 and errors[0].kind == "conflict", outs
                else:  # the same result from four phones: one row, one "created"
                    outs = _race([
                        lambda g=west, b=board, x=x: hall.west_report(x, g, b, finish="W N E")
                        for x in engines
                    ])  # fmt: skip
                    assert all(isinstance(o, tuple) for o in outs), outs
                    assert sorted(o[1] for o in outs) == [False, False, False, True]
                    assert len({o[0].id for o in outs}) == 1
                [live] = _live(e, table, room, board)
                assert _rows(e, table, room, board) == 1
    finally:
        for x in engines:
            x.dispose()


def test_confirm_racing_a_correction_loses_nothing(migrated_url: str) -> None:
    engines = [make_engine(migrated_url) for _ in range(2)]
    e = engines[0]
    try:
        cards = make_event(e, boards=8)
        for (table, room), card in sorted(cards.items()):
            west = hall.grant_for(e, card.report_token)
            north = hall.grant_for(e, card.confirm_token)
            for board in range(1, 9):
                first, _ = hall.west_report(e, west, board, finish="N W S")
                confirm, fix = _race([
                    lambda n=north, b=board, r=first.id: hall.north_confirm(engines[0], n, b, r),
                    lambda w=west, b=board: hall.west_report(
                        engines[1], w, b, finish="E N W", correction="typo"
                    ),
                ])  # fmt: skip
                assert isinstance(fix, tuple) and fix[1] is True, fix
                [live] = _live(e, table, room, board)
                assert (live.id, live.state, live.ns_result) == (fix[0].id, "reported", -2)
                history = events.room_history(e, EVENT, 1, table, board, room)
                if isinstance(confirm, hall.Report):  # confirmed first: it counted, then replaced
                    assert [(c.action, c.new.ns_result) for c in history] == [("report", 2)]
                else:  # replaced first: the confirmation was refused, nothing counted
                    assert isinstance(confirm, HallError) and confirm.kind == "conflict", confirm
                    assert history == []
                assert _rows(e, table, room, board) == 2
                hall.north_confirm(e, north, board, live.id)
                history = events.room_history(e, EVENT, 1, table, board, room)
                assert history[-1].new.ns_result == -2 and len(history) in (1, 2)
        hall.close_round(e, EVENT, 1, "director")
    finally:
        for x in engines:
            x.dispose()


def test_north_confirms_twice_at_once_and_counts_once(migrated_url: str) -> None:
    engines = [make_engine(migrated_url) for _ in range(3)]
    e = engines[0]
    try:
        cards = make_event(e, boards=8)
        card = cards[(1, "open")]
        west = hall.grant_for(e, card.report_token)
        north = hall.grant_for(e, card.confirm_token)
        for board in range(1, 9):
            rep, _ = hall.west_report(e, west, board, finish="E W")
            outs = _race([
                lambda x=x, b=board, r=rep.id: hall.north_confirm(x, north, b, r) for x in engines
            ])  # fmt: skip
            assert all(isinstance(o, hall.Report) and o.state == "confirmed" for o in outs), outs
            history = events.room_history(e, EVENT, 1, 1, board, "open")
            assert [(c.action, c.new.ns_result) for c in history] == [("report", -3)]
    finally:
        for x in engines:
            x.dispose()
