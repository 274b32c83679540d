"""Tests for duplicate.scoring: boards, swings, VP scales, matches and pairs scoring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.scoring import (
    GUANDAN_VP,
    JIANGSU_WDL,
    WBF_BRIDGE_VP,
    BoardResult,
    BoardStatus,
    PairsMethod,
    ScoringError,
    UnfinishedRule,
    VictoryPoints,
    WinDrawLoss,
    butler,
    butler_datum,
    calibrate_k,
    cross_swings,
    deal_result_ns,
    matchpoints,
    neuberg,
    room_result,
    scale_from_dict,
    score_board,
    score_match,
    score_pairs_board,
    swing,
    vp_raw,
)
from engine.deal import DealResult
from engine.errors import GuandanError
from engine.ruleset import Ruleset
from engine.seat import Seat, Side

RESULTS = [-3, -2, -1, 1, 2, 3]
results_st = st.sampled_from(RESULTS)


# --- boards ---------------------------------------------------------------------------


def test_room_result_is_seen_from_ns() -> None:
    assert room_result(Side.NS, 3) == 3
    assert room_result(Side.EW, 2) == -2
    assert room_result(Side.EW, 1) == -1


def test_deal_result_ns_from_the_engine() -> None:
    # E 1st, W (partner) 3rd: E-W gain 2 levels, which N-S sees as -2 (RULES.md §7).
    res = DealResult((Seat.E, Seat.N, Seat.W, Seat.S), Side.EW, 2, False)
    assert deal_result_ns(res) == -2
    res = DealResult((Seat.S, Seat.N, Seat.E, Seat.W), Side.NS, 3, True)
    assert deal_result_ns(res) == 3


def test_room_result_rejects_impossible_levels() -> None:
    with pytest.raises(ScoringError, match="1..3"):
        room_result(Side.NS, 4)
    with pytest.raises(ScoringError):
        room_result(Side.NS, 0)
    assert room_result(Side.NS, 4, Ruleset(double_down_plus4=True)) == 4


def test_scoring_error_is_a_guandan_error() -> None:
    assert issubclass(ScoringError, GuandanError)


@given(results_st, results_st)
def test_swing_is_antisymmetric_and_bounded(open_ns: int, closed_ns: int) -> None:
    s = swing(open_ns, closed_ns)
    assert -6 <= s <= 6
    # Y's swing is X's seen with the rooms exchanged.
    assert swing(closed_ns, open_ns) == -s
    assert (s == 0) == (open_ns == closed_ns)


def test_swing_examples() -> None:
    assert swing(3, -3) == 6  # X double-downs E-W in the open room, and again in the closed
    assert swing(1, 2) == -1
    with pytest.raises(ScoringError, match="closed room"):
        swing(1, 0)


def test_score_board_levels_gained_each_team() -> None:
    b = score_board(BoardResult(5, 2, -1))
    assert (b.swing, b.levels_x, b.levels_y, b.status) == (3, 3, 0, BoardStatus.PLAYED)
    b = score_board(BoardResult(6, -3, 1))
    assert (b.swing, b.levels_x, b.levels_y) == (-4, 0, 4)


def test_unfinished_board_average_and_not_scored() -> None:
    r = BoardResult(7, 2, None)
    avg = score_board(r, UnfinishedRule.AVERAGE)
    assert avg.status is BoardStatus.UNFINISHED and avg.swing == 0
    assert avg.levels_x == 2  # the open room finished: its levels still count
    ns = score_board(r, UnfinishedRule.NOT_SCORED)
    assert ns.status is BoardStatus.UNFINISHED and ns.swing is None


def test_bad_board_result_names_board_and_room() -> None:
    with pytest.raises(ScoringError, match="board 9, closed room"):
        score_board(BoardResult(9, 1, 7))


# --- VP scales ------------------------------------------------------------------------

# Published values: the WBF 14-board continuous scale as quoted by Ron Klinger (IBPA
# Bulletin, May 2013): IMPs 1-2 worth 0.33 VP each, 3-4 0.31, 5 0.30, 6-7 0.29;
# 10 IMPs = 12.97, 20 IMPs = 15.26. The 20-board scale as quoted by the Dutch bridge
# federation's clubs: 1 IMP = 10.28, 2 IMPs = 10.55.
PUBLISHED_14 = {0: 10.00, 1: 10.33, 2: 10.66, 3: 10.97, 4: 11.28, 5: 11.58, 6: 11.87,
                7: 12.16, 10: 12.97, 20: 15.26}  # fmt: skip
PUBLISHED_20 = {0: 10.00, 1: 10.28, 2: 10.55}


@pytest.mark.parametrize("margin,vp", sorted(PUBLISHED_14.items()))
def test_wbf_14_boards_published_values(margin: int, vp: float) -> None:
    assert WBF_BRIDGE_VP.vp(margin, 14) == vp
    assert WBF_BRIDGE_VP.vp(-margin, 14) == round(20 - vp, 2)


@pytest.mark.parametrize("margin,vp", sorted(PUBLISHED_20.items()))
def test_wbf_20_boards_published_values(margin: int, vp: float) -> None:
    assert WBF_BRIDGE_VP.vp(margin, 20) == vp


def test_wbf_16_boards_formula_values() -> None:
    # Formula-derived (B = 60): 10.00, 10.31, ..., 12.80 at 10 IMPs, 15.00 at 20 IMPs,
    # 20.00 from 60 IMPs on (r^(M/B) = r at M = B).
    assert WBF_BRIDGE_VP.blitz(16) == 60.0
    assert WBF_BRIDGE_VP.table(16)[:4] == (10.0, 10.31, 10.61, 10.91)
    assert WBF_BRIDGE_VP.vp(10, 16) == 12.80
    assert WBF_BRIDGE_VP.vp(20, 16) == 15.00
    assert WBF_BRIDGE_VP.vp(59, 16) < 20.0
    assert WBF_BRIDGE_VP.vp(60, 16) == 20.0
    assert WBF_BRIDGE_VP.vp(200, 16) == 20.0
    assert WBF_BRIDGE_VP.vp(-200, 16) == 0.0


def test_convexity_correction_raises_the_earlier_entry() -> None:
    # 14 boards: rounding gives 12.16, 12.43, 12.71 (increments 0.27 then 0.28); the
    # correction raises 8 IMPs to 12.44 so that increments never grow.
    assert round(vp_raw(8, WBF_BRIDGE_VP.blitz(14)), 2) == 12.43
    assert WBF_BRIDGE_VP.vp(8, 14) == 12.44


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 64), st.sampled_from([3.0, 4.5, 6.0, 8.0, 15.0]))
def test_vp_table_monotone_convex_and_capped(boards: int, k: float) -> None:
    table = VictoryPoints(k=k).table(boards)
    cents = [round(v * 100) for v in table]
    assert cents[0] == 1000 and cents[-1] == 2000
    incs = [b - a for a, b in zip(cents, cents[1:], strict=False)]
    assert all(i >= 0 for i in incs)
    assert all(b <= a for a, b in zip(incs, incs[1:], strict=False))
    # never more than a rounding step away from the formula
    blitz = VictoryPoints(k=k).blitz(boards)
    assert all(abs(c - vp_raw(m, blitz) * 100) <= 3 for m, c in enumerate(cents))


@settings(max_examples=80, deadline=None)
@given(st.integers(-80, 80), st.integers(1, 40))
def test_vp_symmetric_sum_is_20(margin: int, boards: int) -> None:
    x, y = GUANDAN_VP.points(margin, boards)
    assert round(x + y, 2) == 20.0
    assert GUANDAN_VP.points(-margin, boards) == (y, x)
    assert (x > 10) == (margin > 0) and (x == 10) == (margin == 0)


def test_guandan_scale_is_steeper_than_bridge() -> None:
    # One level is worth more than one IMP, and 8 boards blitz at 17 levels (B = 6·√8).
    assert GUANDAN_VP.vp(1, 8) > WBF_BRIDGE_VP.vp(1, 8)
    assert GUANDAN_VP.vp(16, 8) < 20.0 and GUANDAN_VP.vp(17, 8) == 20.0


def test_wdl_scale() -> None:
    assert JIANGSU_WDL.points(3, 8) == (2.0, 0.0)
    assert JIANGSU_WDL.points(0, 8) == (1.0, 1.0)
    assert JIANGSU_WDL.points(-1, 8) == (0.0, 2.0)
    with pytest.raises(ScoringError):
        WinDrawLoss(win=0, draw=1, loss=0)


def test_scale_round_trip_and_errors() -> None:
    for scale in (JIANGSU_WDL, GUANDAN_VP, VictoryPoints(k=4.5)):
        assert scale_from_dict(scale.to_dict()) == scale
    with pytest.raises(ScoringError, match="unknown scale"):
        scale_from_dict({"name": "imps"})
    with pytest.raises(ScoringError, match="bad parameters"):
        scale_from_dict({"name": "vp20", "q": 1})
    with pytest.raises(ScoringError):
        VictoryPoints(k=0)
    with pytest.raises(ScoringError, match="boards"):
        GUANDAN_VP.vp(1, 0)


def test_calibrate_k() -> None:
    assert calibrate_k([-2, 2, -2, 2], sigmas=1.0) == pytest.approx(2.3094, abs=1e-4)
    with pytest.raises(ScoringError):
        calibrate_k([1, 1, 1])


# --- matches --------------------------------------------------------------------------


def test_score_match_wdl_and_levels() -> None:
    boards = [BoardResult(1, 2, -1), BoardResult(2, -3, -3), BoardResult(3, 1, 3)]
    m = score_match(boards, JIANGSU_WDL)
    assert m.margin == 3 + 0 - 2
    assert (m.points_x, m.points_y) == (2.0, 0.0)
    # X gains +2 open, +1 closed; +3 closed; +1 open. Y gains +3 open; +3 closed.
    assert m.levels_x == 3 + 3 + 1 and m.levels_y == 0 + 3 + 3
    assert m.boards_scored == 3 and m.unfinished == ()


def test_score_match_unfinished_rules_change_board_count() -> None:
    boards = [BoardResult(1, 3, -3), BoardResult(2, None, None), BoardResult(3, 1, 1)]
    avg = score_match(boards, GUANDAN_VP, UnfinishedRule.AVERAGE)
    nsc = score_match(boards, GUANDAN_VP, UnfinishedRule.NOT_SCORED)
    assert avg.margin == nsc.margin == 6
    assert avg.boards_scored == 3 and nsc.boards_scored == 2
    assert avg.unfinished == nsc.unfinished == (2,)
    assert len(nsc.boards) == 3  # listed, never dropped
    assert avg.points_x == GUANDAN_VP.vp(6, 3)
    assert nsc.points_x == GUANDAN_VP.vp(6, 2)
    assert nsc.points_x > avg.points_x  # fewer boards: the same margin is worth more


def test_score_match_nothing_scored_is_a_draw() -> None:
    m = score_match([BoardResult(1, None, 2)], GUANDAN_VP, UnfinishedRule.NOT_SCORED)
    assert (m.margin, m.boards_scored, m.points_x, m.points_y) == (0, 0, 10.0, 10.0)


def test_score_match_duplicate_board() -> None:
    with pytest.raises(ScoringError, match="board 1 appears twice"):
        score_match([BoardResult(1, 1, 1), BoardResult(1, 2, 2)])


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(results_st, results_st), min_size=1, max_size=12))
def test_match_is_antisymmetric(rooms: list[tuple[int, int]]) -> None:
    xs = [BoardResult(i, o, c) for i, (o, c) in enumerate(rooms, 1)]
    ys = [BoardResult(i, c, o) for i, (o, c) in enumerate(rooms, 1)]  # Y as "X"
    mx, my = score_match(xs, GUANDAN_VP), score_match(ys, GUANDAN_VP)
    assert my.margin == -mx.margin
    assert (my.points_x, my.points_y) == (mx.points_y, mx.points_x)
    assert (my.levels_x, my.levels_y) == (mx.levels_y, mx.levels_x)


# --- pairs ----------------------------------------------------------------------------


def test_matchpoints_by_hand() -> None:
    # N-S results +3, +1, +1, -2: +3 beats three (6); each +1 beats one and ties one (3);
    # -2 beats none (0). Top is 2·(4 - 1) = 6.
    assert matchpoints([3, 1, 1, -2]) == [6.0, 3.0, 3.0, 0.0]
    ew = matchpoints([-3, -1, -1, 2])
    assert ew == [0.0, 3.0, 3.0, 6.0]
    assert matchpoints([2]) == [0.0]


@settings(max_examples=50, deadline=None)
@given(st.lists(results_st, min_size=1, max_size=15))
def test_matchpoints_sum_to_n_times_top_over_2(scores: list[int]) -> None:
    n = len(scores)
    assert sum(matchpoints(scores)) == n * (n - 1)


def test_neuberg() -> None:
    # played 3 times out of 4: M = 4 (top of 3 results) -> (4 + 1)·4/3 - 1 = 17/3
    assert neuberg(4, 3, 4) == pytest.approx(17 / 3)
    assert neuberg(0, 3, 4) == pytest.approx(1 / 3)
    assert neuberg(2.0, 5, 5) == 2.0
    with pytest.raises(ScoringError):
        neuberg(1, 0, 4)


def test_cross_swings_by_hand() -> None:
    # +3 against +1, +1, -2: swings 2, 2, 5 -> average 3
    assert cross_swings([3, 1, 1, -2]) == pytest.approx([3.0, 1 / 3, 1 / 3, -11 / 3])
    assert cross_swings([2]) == [0.0]
    assert sum(cross_swings([3, 1, -2, -1, 2])) == pytest.approx(0.0)


def test_butler_drops_top_and_bottom() -> None:
    # 3, 2, 1, 1, -3: drop 3 and -3 -> datum (2 + 1 + 1)/3 = 4/3
    assert butler_datum([3, 2, 1, 1, -3]) == pytest.approx(4 / 3)
    assert butler([3, 2, 1, 1, -3])[0] == pytest.approx(3 - 4 / 3)
    # ties at the top: only one copy dropped
    assert butler_datum([3, 3, 1, -1]) == pytest.approx(2.0)
    # three results: the middle one; two or one: the plain mean
    assert butler_datum([3, -1, 2]) == 2.0
    assert butler_datum([3, -1]) == 1.0
    assert butler([2]) == [0.0]
    with pytest.raises(ScoringError):
        butler_datum([])


def test_pairs_board_with_unfinished_table_uses_neuberg() -> None:
    res = {"t1": 3, "t2": 1, "t3": -2, "t4": None}
    out = score_pairs_board(res, PairsMethod.MATCHPOINTS)
    assert out["t1"] == pytest.approx((17 / 3, 6 - 17 / 3))
    assert out["t4"] == (3.0, 3.0)  # average: half the top of 4 tables
    out2 = score_pairs_board(res, PairsMethod.MATCHPOINTS, UnfinishedRule.NOT_SCORED)
    assert out2["t4"] is None and list(out2) == ["t1", "t2", "t3", "t4"]


def test_pairs_board_swings() -> None:
    res = {1: 3, 2: 2, 3: 1, 4: 1, 5: -3}
    b = score_pairs_board(res, PairsMethod.BUTLER)
    assert b[1] == pytest.approx((3 - 4 / 3, 4 / 3 - 3))
    c = score_pairs_board(res, PairsMethod.CROSS_SWINGS)
    assert c[5] == pytest.approx((-4.75, 4.75))  # -6, -5, -4, -4 averaged
    with pytest.raises(ScoringError, match="table 2"):
        score_pairs_board({1: 3, 2: 0})
