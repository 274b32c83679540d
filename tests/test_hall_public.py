"""Public views of the hall library: the draw, live standings (the library's, provisional
until published), a match with unreleased boards withheld, and results_version, which
changes after each kind of change and not otherwise."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import Engine, event
from test_hall_support import EVENT, Cards, make_event, minutes, order_for, report_all

from duplicate import events, hall, store


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


def test_draw_is_the_library_seating(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    rows = hall.draw(e, EVENT, 1)
    for row, m in zip(rows, events.list_matches(e, EVENT, 1), strict=True):
        d = row.to_dict()
        assert d == {k: v for k, v in m.to_dict().items() if k != "round"}


def test_public_match_withholds_unreleased_boards(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    # table 1 reports everything, table 2 only board 1
    report_all(e, cards, skip={(2, room, b) for room in ("open", "closed") for b in (2, 3, 4)})
    pm = hall.public_match(e, EVENT, 1, 1)
    assert pm.provisional and pm.team_x == events.list_matches(e, EVENT, 1)[0].team_x
    first, second = pm.boards[0], pm.boards[1]
    assert first.open_ns == store.result_of_finish(order_for(1, "open", 1))
    assert (second.open_ns, second.closed_ns, second.swing, second.status) == (
        None, None, None, "hidden",
    )  # fmt: skip
    assert pm.swing_total == first.swing
    assert [hall.board_released(e, EVENT, 1, b) for b in (1, 2, 3, 4)] == [True] + [False] * 3
    other = hall.public_match(e, EVENT, 1, 2)
    assert [b.status for b in other.boards] == ["played"] + ["not in yet"] * 3
    assert pm.to_dict()["boards"][1]["open_ns"] is None


def test_live_standings_equal_the_library(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    empty = hall.live_standings(e, EVENT)
    assert empty.through == 0 and [r.points for r in empty.rows] == [0.0] * 4
    report_all(e, cards)
    live = hall.live_standings(e, EVENT)
    rows, through = events.event_standings(e, EVENT)
    assert (live.rows, live.through, live.provisional) == (rows, through, True)
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    assert hall.live_standings(e, EVENT).provisional
    hall.publish_round(e, EVENT, 1, "director", now=minutes(51))
    published = hall.live_standings(e, EVENT)
    assert not published.provisional and published.rows == rows
    assert published.version == hall.standings_version(e, EVENT)
    d = published.to_dict()
    assert [r["team"] for r in d["rows"]] == [r.team for r in rows]
    assert not hall.public_match(e, EVENT, 1, 1).provisional


def test_results_version_changes_with_every_change_and_only_then(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    west = hall.grant_for(e, cards[(1, "open")].report_token)
    north = hall.grant_for(e, cards[(1, "open")].confirm_token)
    seen = [hall.results_version(e, EVENT)]

    def changes(what: Callable[[], object]) -> None:
        what()
        now = hall.results_version(e, EVENT)
        assert now not in seen, what
        seen.append(now)

    def same(what: Callable[[], object]) -> None:
        what()
        assert hall.results_version(e, EVENT) == seen[-1], what

    same(lambda: hall.check_in(e, EVENT, 1, "Dragons", "director"))
    fresh: list[hall.TableCard] = []
    same(lambda: fresh.extend(hall.issue_tokens(e, EVENT, 1, "director")))
    cards = {(c.table, c.room): c for c in fresh}
    west = hall.grant_for(e, cards[(1, "open")].report_token)
    north = hall.grant_for(e, cards[(1, "open")].confirm_token)
    same(lambda: hall.live_standings(e, EVENT))
    same(lambda: hall.round_status(e, EVENT, 1))
    rep, _ = hall.west_report(e, west, 1, finish="N S")
    seen.append(hall.results_version(e, EVENT))
    assert seen[-1] != seen[-2]
    same(lambda: hall.west_report(e, west, 1, finish="N S"))  # the same again
    changes(lambda: hall.north_dispute(e, north, 1, rep.id, "not so"))
    changes(lambda: hall.settle_dispute(e, EVENT, rep.id, "director", "checked", ns_result=2))
    rep2, _ = hall.west_report(e, west, 2, finish="E W")
    changes(lambda: hall.north_confirm(e, north, 2, rep2.id))
    same(lambda: hall.north_confirm(e, north, 2, rep2.id))
    changes(lambda: hall.west_report(e, west, 2, finish="E S N", correction="typo"))
    changes(lambda: hall.record_ruling(e, EVENT, 1, 1, "warning", "none", "director", "noise"))
    changes(lambda: hall.director_correct(e, EVENT, 1, 2, 1, "open", 1, "director", "sheet"))
    changes(
        lambda: events.correct_result(e, EVENT, 1, 2, 1, "open", 2, events.Correction("cli", "me"))
    )
    stored = events.match_boards(e, EVENT, 1, 2)[0].open_ns
    with pytest.raises(hall.HallError) as exc:  # the director's result is not overwritten
        report_all(e, {(2, "open"): cards[(2, "open")]})
    assert exc.value.kind == "conflict" and "correction" in str(exc.value)
    assert events.match_boards(e, EVENT, 1, 2)[0].open_ns == stored == 2
    seen.append(hall.results_version(e, EVENT))
    report_all(e, {k: c for k, c in cards.items() if k != (1, "open")}, skip={(2, "open", 1)})
    seen.append(hall.results_version(e, EVENT))
    for b in (2, 3, 4):
        if b == 2:
            current = [r for r in hall.table_view(e, west).boards if r.board == 2][0].report
            assert current is not None
            hall.north_confirm(e, north, 2, current.id)
        else:
            r, _ = hall.west_report(e, west, b, finish="W N E")
            hall.north_confirm(e, north, b, r.id)
    seen.append(hall.results_version(e, EVENT))
    changes(lambda: hall.close_round(e, EVENT, 1, "director", now=minutes(50)))
    changes(lambda: hall.publish_round(e, EVENT, 1, "director", now=minutes(51)))
    same(lambda: hall.publish_round(e, EVENT, 1, "director", now=minutes(52)))
    changes(lambda: events.pair_round(e, EVENT))
    changes(lambda: events.rename_team(e, EVENT, "Tigers", "Lions", by="director", reason="typo"))


def test_results_version_is_one_cheap_query(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    report_all(e, cards)
    statements: list[str] = []

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    event.listen(e, "before_cursor_execute", count)
    try:
        hall.results_version(e, EVENT)
    finally:
        event.remove(e, "before_cursor_execute", count)
    selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    # the schema check (alembic version) and the event, then one statement of aggregates
    assert len(selects) <= 4, selects
    assert not any("event_players" in s or "play_records" in s for s in selects)
