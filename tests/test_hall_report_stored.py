"""West's first report of a room whose result is already in the store (entered at the desk,
imported, an unfinished board): it must say the same, or be a correction. Run with the
token itself (the API's way: token, live report and stored result in one statement) and
with a grant looked up first, on every backend."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, func, select
from test_hall_support import EVENT, Cards, make_event, minutes

from duplicate import events, hall, models
from duplicate.db import make_engine
from duplicate.hall import HallError
from duplicate.store import Author

AT = minutes(20)


def _west(engine: Engine, token: str, by_token: bool) -> hall.Grant | str:
    return token if by_token else hall.grant_for(engine, token, now=AT)


#: Who enters a result at the desk in these tests.
DESK = Author("director", "entered at the desk")


def _open_room(e: Engine) -> tuple[Cards, hall.TableCard, list[int]]:
    """The event of four boards (round 1 paired, cards issued): every card, table 1's open
    room card, and the round's boards."""
    cards = make_event(e, boards=4)
    return cards, cards[(1, "open")], list(events.get_round(e, EVENT, 1).boards)


def _reports(engine: Engine) -> int:
    with engine.connect() as c:
        return int(c.scalar(select(func.count()).select_from(models.HallReport)) or 0)


@pytest.mark.parametrize("by_token", [False, True], ids=["grant", "token"])
def test_a_first_report_must_match_the_stored_result(migrated_url: str, by_token: bool) -> None:
    e = make_engine(migrated_url)
    try:
        cards, card, (b1, b2, b3, _b4) = _open_room(e)
        events.report_result(e, EVENT, 1, 1, b1, "open", DESK, finish="N S")
        events.record_unfinished(e, EVENT, 1, 1, b2, "time", rooms=("open",))
        west = _west(e, card.report_token, by_token)

        # a different result than the stored one: refused (409), nothing stored
        with pytest.raises(HallError) as err:
            hall.west_report(e, west, b1, finish="E W", now=AT)
        assert err.value.kind == "conflict"
        assert "N S" in str(err.value) or "stored" in str(err.value)
        with pytest.raises(HallError) as err:
            hall.west_report(e, west, b2, unfinished="withdrawal", now=AT)
        assert err.value.kind == "conflict"
        with pytest.raises(HallError) as err:
            hall.west_report(e, west, b2, finish="N E S", now=AT)
        assert err.value.kind == "conflict"
        assert _reports(e) == 0

        # the same result: stored as a report; a correction: stored although it differs
        same, created = hall.west_report(e, west, b1, finish="N S", now=AT)
        assert created and same.state == "reported" and same.finish == "N S"
        same2, created = hall.west_report(e, west, b2, unfinished="time", now=AT)
        assert created and same2.unfinished == "time"
        fixed, created = hall.west_report(
            e, west, b3, finish="E W", now=AT
        )  # nothing stored for b3: any result
        assert created and fixed.finish == "E W"
        assert _reports(e) == 3

        # the closed room of table 1 has nothing stored for b1: its report is free
        other = _west(e, cards[(1, "closed")].report_token, by_token)
        rep, created = hall.west_report(e, other, b1, finish="W N E", now=AT)
        assert created and rep.room == "closed"

        # a later report of b1 in the open room: the live one decides (same: not created)
        again, created = hall.west_report(e, west, b1, finish="N S", now=AT)
        assert not created and again.id == same.id
        corrected, created = hall.west_report(
            e, west, b1, finish="E W", correction="wrong seat tapped", now=AT
        )
        assert created and corrected.id != same.id and corrected.correction == "wrong seat tapped"
        with e.connect() as c:
            h = models.HallReport
            live = c.execute(
                select(h.id, h.state).where(h.board == b1, h.room == "open", h.live.is_(True))
            ).all()
        assert [tuple(r) for r in live] == [(corrected.id, "reported")]
    finally:
        e.dispose()


@pytest.mark.parametrize("by_token", [False, True], ids=["grant", "token"])
def test_a_report_refused_before_the_store_is_read(migrated_url: str, by_token: bool) -> None:
    """A confirm card, a void card, a board the round does not play: refused, nothing
    stored (the one statement that reads the token reads nothing else for them)."""
    e = make_engine(migrated_url)
    try:
        cards = make_event(e, boards=4)
        card = cards[(2, "closed")]
        boards = events.get_round(e, EVENT, 1).boards
        with pytest.raises(HallError) as err:
            hall.west_report(e, _west(e, card.confirm_token, by_token), boards[0], finish="N S",
                             now=AT)
        assert err.value.kind == "forbidden"
        with pytest.raises(HallError) as err:
            hall.west_report(e, _west(e, card.report_token, by_token), max(boards) + 1,
                             finish="N S", now=AT)
        assert err.value.kind == "not_found"
        if by_token:  # a grant is what a token allowed when it was looked up
            hall.issue_tokens(e, EVENT, 1, "director", table=2)  # the card is reprinted
            with pytest.raises(HallError) as err:
                hall.west_report(e, card.report_token, boards[0], finish="N S", now=AT)
            assert err.value.kind == "forbidden"
        assert _reports(e) == 0
    finally:
        e.dispose()


@pytest.mark.parametrize("by_token", [False, True], ids=["grant", "token"])
def test_a_report_with_another_finishing_order_is_a_correction(
    migrated_url: str, by_token: bool
) -> None:
    """The same N–S result counted from another finishing order (another player went out
    first: 头游 changed) is not the same report: refused when West sends it, and refused
    when North confirms it after the director stored the room's result meanwhile; as a
    correction it is stored. A stored result with no order takes any order."""
    e = make_engine(migrated_url)
    try:
        _, card, (b1, b2, b3, _b4) = _open_room(e)
        events.report_result(e, EVENT, 1, 1, b1, "open", DESK, finish="N S")
        west = _west(e, card.report_token, by_token)

        with pytest.raises(HallError) as err:  # N-S +3 still, but South out first
            hall.west_report(e, west, b1, finish="S N", now=AT)
        assert err.value.kind == "conflict"
        assert "N S" in str(err.value) and "S N" in str(err.value)
        zh = err.value.text("zh")
        assert "出完顺序为头游北、二游南" in zh and "这次的出完顺序是头游南、二游北" in zh
        assert zh.count("东西双下") == 1  # the result names it; each order says who went out
        assert _reports(e) == 0
        fixed, created = hall.west_report(e, west, b1, finish="S N",
                                          correction="South went out first", now=AT)
        assert created and fixed.finish == "S N"

        # West reports b2 (nothing stored); the director stores another order meanwhile
        rep, created = hall.west_report(e, west, b2, finish="N S", now=AT)
        assert created
        events.report_result(e, EVENT, 1, 1, b2, "open", DESK, finish="S N")
        with pytest.raises(HallError) as err:
            hall.north_confirm(e, card.confirm_token, b2, rep.id, now=AT)
        assert err.value.kind == "conflict" and "S N" in str(err.value)
        log = events.room_history(e, EVENT, 1, 1, b2, "open")
        assert [c.new.finish for c in log] == ["S N"]  # the director's order stands, alone

        # a result stored with no order (a ruling of N-S +3): any order of it is the same
        events.report_result(e, EVENT, 1, 1, b3, "open", DESK, ns_result=3)
        same, created = hall.west_report(e, west, b3, finish="S N", now=AT)
        assert created and same.finish == "S N"
    finally:
        e.dispose()
