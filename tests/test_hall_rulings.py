"""The director's rulings (duplicate.hall.record_ruling) and how scoring honours them:
a forfeit gives the opponents the scale's maximum and the offender 0, a conceded board
gives the opponents a +3 swing; assigned results are rulings in the store."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine
from test_hall_support import EVENT, Cards, make_event, minutes, report_all

from duplicate import events, hall
from duplicate.hall import HallError
from duplicate.scoring import (
    CONCEDED_SWING,
    JIANGSU_WDL,
    BoardResult,
    BoardStatus,
    VictoryPoints,
    WinDrawLoss,
    forfeit_match,
    score_board,
    score_match,
)


def _match(engine: Engine, table: int) -> events.ScoredMatch:
    return next(s for s in events.score_event(engine, EVENT, 1) if s.info.table == table)


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


def test_warning_is_recorded_only(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    before = hall.results_version(e, EVENT)
    r = hall.record_ruling(
        e, EVENT, 1, 2, "warning", "none", "director", "slow play", team="Tigers"
    )
    assert (r.category, r.effect, r.team, r.table, r.by, r.reason) == (
        "warning", "none", "Tigers", 2, "director", "slow play",
    )  # fmt: skip
    assert hall.rulings(e, EVENT) == [r] == hall.rulings(e, EVENT, 1)
    assert r.to_dict()["made_at"] is not None
    assert hall.results_version(e, EVENT) != before
    assert all(b.state == "not_in" for rs in hall.round_status(e, EVENT, 1) for b in rs.boards)


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (dict(category="penalty", effect="none"), "invalid"),
        (dict(category="foul", effect="death"), "invalid"),
        (dict(category="late", effect="conceded"), "invalid"),  # no team
        (dict(category="late", effect="conceded", team="Nobody"), "not_found"),
        (dict(category="late", effect="conceded", team="Tigers", table=1), "invalid"),
        (dict(category="foul", effect="assigned", board=1, room="open"), "invalid"),
        (dict(category="foul", effect="assigned", board=1, room="open", ns_result=5), "invalid"),
        (dict(category="foul", effect="assigned", board=9, room="open", ns_result=3), "not_found"),
        (dict(category="foul", effect="assigned", board=1, room="hall", ns_result=3), "invalid"),
        (dict(category="warning", effect="none", table=5), "not_found"),
        (dict(category="warning", effect="none", reason=""), "invalid"),
    ],
)
def test_bad_rulings_are_refused_and_change_nothing(
    migrated_engine: Engine, cards: Cards, args: dict[str, object], kind: str
) -> None:
    e = migrated_engine
    call: dict[str, object] = {"table": 2, "reason": "because", **args}
    table, reason = call.pop("table"), call.pop("reason")
    category, effect = call.pop("category"), call.pop("effect")
    before = hall.results_version(e, EVENT)
    with pytest.raises(HallError) as exc:
        hall.record_ruling(
            e,
            EVENT,
            1,
            table,
            category,
            effect,
            "director",
            reason,
            **call,  # type: ignore[arg-type]
        )
    assert exc.value.kind == kind
    assert hall.rulings(e, EVENT) == [] and hall.results_version(e, EVENT) == before


def test_assigned_result_is_a_ruling_in_the_store(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    report_all(e, cards)
    r = hall.record_ruling(
        e, EVENT, 1, 1, "foul", "assigned", "director", "revoke", board=2, room="closed",
        team="Dragons", ns_result=3,
    )  # fmt: skip
    assert r.ns_result == 3
    assert events.match_boards(e, EVENT, 1, 1)[1].closed_ns == 3
    [b] = [b for b in hall.round_status(e, EVENT, 1)[1].boards if b.board == 2]
    assert (b.state, b.ns_result) == ("ruled", 3)
    last = events.room_history(e, EVENT, 1, 1, 2, "closed")[-1]
    assert (last.action, last.by, last.reason) == ("ruling", "director", "foul: revoke")


@pytest.mark.parametrize(("scale", "top"), [("wdl", 2.0), ("vp20", 20.0)])
def test_forfeit_scores_the_scale_maximum(migrated_engine: Engine, scale: str, top: float) -> None:
    e = migrated_engine
    cards = make_event(e, scale=scale)
    info = events.list_matches(e, EVENT, 1)[0]
    hall.check_in(e, EVENT, 1, info.team_x, "director", now=minutes(0))
    assert hall.arrivals(e, EVENT, 1, now=minutes(11))[1].status == "forfeits"
    # table 1 plays nothing (team Y never came); table 2 plays every board
    report_all(e, {k: c for k, c in cards.items() if k[0] == 2})
    with pytest.raises(HallError):
        hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    hall.record_ruling(
        e, EVENT, 1, 1, "forfeit", "forfeit", "director", "11 minutes late", team=info.team_y
    )
    with pytest.raises(HallError) as exc:
        hall.record_ruling(e, EVENT, 1, 1, "forfeit", "forfeit", "director", "x", team=info.team_y)
    assert exc.value.kind == "conflict"
    assert {b.state for b in hall.round_status(e, EVENT, 1)[0].boards} == {"ruled"}
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    m = _match(e, 1)
    assert (m.score.points_x, m.score.points_y) == (top, 0.0)
    assert m.score.margin == CONCEDED_SWING * 4
    rows, through = events.event_standings(e, EVENT)
    assert through == 1
    points = {r.team: r.points for r in rows}
    assert (points[info.team_x], points[info.team_y]) == (top, 0.0)
    pm = hall.public_match(e, EVENT, 1, 1)
    assert pm.forfeit == info.team_y
    assert all(hall.board_released(e, EVENT, 1, b) for b in range(1, 5))


def test_conceded_board_gives_the_opponents_three(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    info = events.list_matches(e, EVENT, 1)[1]  # table 2
    hall.check_in(e, EVENT, 1, info.team_y, "director", now=minutes(7))
    [late] = [a for a in hall.arrivals(e, EVENT, 1, now=minutes(8)) if a.team == info.team_y]
    assert late.status == "concedes" and late.minutes_late == 7.0
    # board 1 is not played at table 2; every other board is
    report_all(e, cards, skip={(2, "open", 1), (2, "closed", 1)})
    assert not hall.board_released(e, EVENT, 1, 1)
    r = hall.record_ruling(
        e, EVENT, 1, 2, "late", "conceded", "director", "7 min late", team=info.team_y
    )
    assert r.board == 1  # the round's first board by default
    assert hall.board_released(e, EVENT, 1, 1)
    clock = hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    assert clock.phase == "closed"
    m = _match(e, 2)
    first = m.score.boards[0]
    assert (first.status, first.swing) == (BoardStatus.CONCEDED, CONCEDED_SWING)  # X gains
    rest = sum(b.swing or 0 for b in m.score.boards[1:])
    assert m.score.margin == CONCEDED_SWING + rest
    row = hall.public_match(e, EVENT, 1, 2).boards[0]
    assert (row.status, row.swing, row.open_ns) == ("conceded", 3, None)
    assert events.match_boards(e, EVENT, 1, 2)[0].status == "conceded"


def test_one_release_rule_for_the_hall_the_export_and_the_review(
    migrated_engine: Engine, cards: Cards
) -> None:
    """A board conceded at a table, or a forfeited match, needs no result there: the
    library's rule (export, report, review) releases the board when the other tables have
    it in, exactly as the hall's pages do, and not before."""
    from duplicate.events.site import released

    e = migrated_engine
    t1, t2 = events.list_matches(e, EVENT, 1)[:2]
    # table 2 does not play board 1 (conceded); table 1 forfeits; the rest play all
    report_all(e, {k: c for k, c in cards.items() if k[0] != 1},
               skip={(2, "open", 1), (2, "closed", 1)})
    both = {b for b in range(1, 5) if hall.board_released(e, EVENT, 1, b)}
    assert both == set() == set(events.released_boards(e, EVENT, 1))
    hall.record_ruling(e, EVENT, 1, 1, "forfeit", "forfeit", "director", "absent",
                       team=t1.team_y)
    shown = {b for b in range(1, 5) if hall.board_released(e, EVENT, 1, b)}
    assert shown == {2, 3, 4} == set(events.released_boards(e, EVENT, 1))
    hall.record_ruling(e, EVENT, 1, 2, "late", "conceded", "director", "7 min late",
                       team=t2.team_y, board=1)
    assert all(hall.board_released(e, EVENT, 1, b) for b in range(1, 5))
    assert set(events.released_boards(e, EVENT, 1)) == {1, 2, 3, 4}
    assert events.unreleased_boards(e, EVENT) == {}
    assert {b for r, b in released(e, EVENT) if r == "1"} == {"1", "2", "3", "4"}


def test_conceded_board_overrides_played_rooms(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    report_all(e, cards)
    info = events.list_matches(e, EVENT, 1)[0]
    before = _match(e, 1).score.boards[2]
    hall.record_ruling(
        e, EVENT, 1, 1, "late", "conceded", "director", "late", team=info.team_x, board=3
    )
    after = _match(e, 1).score.boards[2]
    assert before.status is BoardStatus.PLAYED
    assert (after.status, after.swing, after.levels_y) == (BoardStatus.CONCEDED, -3, 3)


@given(
    open_ns=st.one_of(st.none(), st.sampled_from([-3, -2, -1, 1, 2, 3])),
    closed_ns=st.one_of(st.none(), st.sampled_from([-3, -2, -1, 1, 2, 3])),
    side=st.sampled_from(["x", "y", "both"]),
)
def test_a_conceded_board_scores_the_same_whatever_the_rooms(
    open_ns: int | None, closed_ns: int | None, side: str
) -> None:
    s = score_board(BoardResult(5, open_ns, closed_ns, side))
    expected = {"x": -3, "y": 3, "both": 0}[side]
    assert (s.status, s.swing, s.levels_x - s.levels_y) == (
        BoardStatus.CONCEDED,
        expected,
        expected,
    )


@given(
    swings=st.lists(st.sampled_from([-3, -2, -1, 1, 2, 3]), min_size=1, max_size=8),
    side=st.sampled_from(["x", "y", "both"]),
    scale=st.sampled_from([JIANGSU_WDL, WinDrawLoss(3, 1, 0), VictoryPoints()]),
)
def test_forfeit_ignores_the_boards_played(
    swings: list[int], side: str, scale: WinDrawLoss | VictoryPoints
) -> None:
    results = [BoardResult(i + 1, s, 1) for i, s in enumerate(swings)]
    played = score_match(results, scale)
    out = forfeit_match(played, side, scale, len(swings))
    top = scale.win if isinstance(scale, WinDrawLoss) else 20.0
    bottom = scale.loss if isinstance(scale, WinDrawLoss) else 0.0
    want = {"x": (bottom, top), "y": (top, bottom), "both": (bottom, bottom)}[side]
    assert (out.points_x, out.points_y) == want
    assert out.boards == played.boards
    assert (out.margin > 0, out.margin < 0) == (side == "y", side == "x")
