"""Tests for duplicate.standings: totals, (去首)累进分 and the tie-break order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.pairing import draw_key
from duplicate.scoring import GUANDAN_VP, BoardResult, score_match
from duplicate.standings import (
    BYE_VP,
    FRIENDLY_TIEBREAKS,
    StandingsError,
    TeamRound,
    bye_round,
    match_rounds,
    progressive_score,
    standings,
)


def tr(
    rnd: int,
    team: str,
    points: float,
    margin: int = 0,
    levels: int = 0,
    won: bool | None = None,
    opp: str | None = "Z",
) -> TeamRound:
    """A crafted round row (opponent "Z" is a team that is in every event below)."""
    return TeamRound(rnd, team, opp, points, margin, levels, margin > 0 if won is None else won)


def order(rows: list[TeamRound], teams: list[str]) -> list[str]:
    return [str(r.team) for r in standings(teams, rows, "seed")]


def test_progressive_score_cuts_round_one() -> None:
    assert progressive_score([2, 0, 2, 2]) == 12.0  # running 2, 2, 4, 6 -> 2 + 4 + 6
    assert progressive_score([2]) == 0.0
    assert progressive_score([0, 2, 2, 2]) == 2 + 4 + 6
    assert progressive_score([12.44, 7.56]) == 20.0


def test_points_first() -> None:
    rows = [tr(1, "A", 0), tr(1, "B", 2), tr(1, "Z", 1, opp="A")]
    assert order(rows, ["A", "B", "Z"]) == ["B", "Z", "A"]


def test_progressive_breaks_equal_points() -> None:
    # Both 4 points over 3 rounds; A won rounds 2 and 3 (running 0, 2, 4: 6),
    # B won rounds 1 and 2 (running 2, 4, 4: 8). B first, decided by progressive.
    rows = [
        tr(1, "A", 0),
        tr(2, "A", 2),
        tr(3, "A", 2),
        tr(1, "B", 2),
        tr(2, "B", 2),
        tr(3, "B", 0),
    ]
    table = standings(["A", "B", "Z"], rows, "seed")
    assert [r.team for r in table][:2] == ["B", "A"]
    assert table[1].decided_by == "progressive"
    assert (table[0].progressive, table[1].progressive) == (8.0, 6.0)


def test_rounds_won_after_progressive() -> None:
    # A: 1, 1 (two draws), B: 2, 0: both 2 points, running total 2 after round 2,
    # so progressive 2 each; B won a round, A none.
    rows = [tr(1, "A", 1), tr(2, "A", 1), tr(1, "B", 2, won=True), tr(2, "B", 0, won=False)]
    table = standings(["A", "B", "Z"], rows, "seed")
    assert table[0].progressive == table[1].progressive == 2.0
    assert [r.team for r in table][:2] == ["B", "A"]
    assert table[1].decided_by == "rounds_won"


def test_swing_then_levels_then_draw() -> None:
    rows = [
        tr(1, "A", 2, margin=5, levels=10),
        tr(1, "B", 2, margin=7, levels=3),
        tr(1, "C", 2, margin=5, levels=12),
        tr(1, "D", 2, margin=5, levels=12),
    ]
    table = standings(["A", "B", "C", "D", "Z"], rows, "seed")
    names = [r.team for r in table]
    assert names[0] == "B"
    assert names[3] == "A" and table[3].decided_by == "levels"
    assert table[1].decided_by == "swing"
    # C and D tie on everything: the lower SHA-256 lot ranks first, and says so.
    cd = sorted(["C", "D"], key=lambda t: draw_key("seed", t, "standings"))
    assert names[1:3] == cd and table[2].decided_by == "draw"
    assert table[1].lot == draw_key("seed", cd[0], "standings").hex()[:16]


def test_the_draw_depends_on_the_seed_only() -> None:
    teams = [f"T{i}" for i in range(10)]
    rows = [tr(1, t, 1) for t in teams]
    a = [r.team for r in standings(teams + ["Z"], rows, "s1")]
    assert a == [r.team for r in standings(list(reversed(teams)) + ["Z"], rows[::-1], "s1")]
    assert a != [r.team for r in standings(teams + ["Z"], rows, "s2")]


def test_friendly_order_uses_opponents_points() -> None:
    # A and B: 2 points each. A beat C (who drew round 2: 1 point), B beat D (0 points).
    rows = [
        tr(1, "A", 2, opp="C"),
        tr(1, "C", 0, opp="A"),
        tr(1, "B", 2, opp="D"),
        tr(1, "D", 0, opp="B"),
        tr(2, "C", 1, opp="Z"),
    ]
    teams = ["A", "B", "C", "D", "Z"]
    friendly = standings(teams, rows, "seed", FRIENDLY_TIEBREAKS)
    assert [r.team for r in friendly][:2] == ["A", "B"]
    assert friendly[1].decided_by == "opponents_points"
    assert friendly[0].opponents_points == 1.0 and friendly[1].opponents_points == 0.0
    # Under the Jiangsu order A and B tie on everything else: only the lot separates them.
    jiangsu = standings(teams, rows, "seed")
    assert jiangsu[1].decided_by == "draw" and {jiangsu[0].team, jiangsu[1].team} == {"A", "B"}


def test_missing_round_counts_zero() -> None:
    # A withdrew after round 1: its progressive sees 2 after rounds 2 and 3.
    rows = [tr(1, "A", 2), tr(1, "B", 0), tr(2, "B", 1), tr(3, "B", 1)]
    table = {r.team: r for r in standings(["A", "B", "Z"], rows, "seed")}
    assert table["A"].progressive == 4.0 and table["A"].played == 1
    assert table["B"].progressive == 1 + 2


def test_rows_from_a_scored_match_and_a_bye() -> None:
    score = score_match([BoardResult(1, 3, -1), BoardResult(2, -2, -2)], GUANDAN_VP)
    x, y = match_rounds(1, "X", "Y", score)
    assert (x.margin, y.margin, x.won, y.won) == (4, -4, True, False)
    assert x.points + y.points == pytest.approx(20.0)
    assert (x.levels, y.levels) == (score.levels_x, score.levels_y)
    b = bye_round(1, "W", BYE_VP)
    table = standings(["X", "Y", "W"], [x, y, b], "seed")
    assert x.points == GUANDAN_VP.vp(4, 2) > 12.0
    assert [r.team for r in table] == ["X", "W", "Y"]
    assert {r.team: r.played for r in table} == {"X": 1, "Y": 1, "W": 0}


def test_bad_results_are_refused() -> None:
    with pytest.raises(StandingsError, match="round 1, team 'Q': not a team"):
        standings(["A"], [tr(1, "Q", 1)], "s")
    with pytest.raises(StandingsError, match="two results for one round"):
        standings(["A", "Z"], [tr(1, "A", 1), tr(1, "A", 2)], "s")
    with pytest.raises(StandingsError, match="two decimals"):
        standings(["A", "Z"], [tr(1, "A", 1.005)], "s")
    with pytest.raises(StandingsError, match="positive integer"):
        standings(["A", "Z"], [tr(0, "A", 1)], "s")


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from([0, 1, 2]), min_size=3, max_size=3), min_size=2, max_size=8)
)
def test_standings_are_sorted_by_the_criteria(points: list[list[int]]) -> None:
    teams = [f"T{i}" for i in range(len(points))]
    rows = [
        tr(r + 1, t, p, margin=p - 1)
        for t, ps in zip(teams, points, strict=True)
        for r, p in enumerate(ps)
    ]
    table = standings(teams + ["Z"], rows, "seed")
    keys = [(r.points, r.progressive, r.rounds_won, r.swing, r.levels) for r in table]
    assert keys == sorted(keys, reverse=True)
    assert [r.rank for r in table] == list(range(1, len(table) + 1))
