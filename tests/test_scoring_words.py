"""The scoring and standings guards on stored data (a result out of range, a conceded or
forfeited board by nobody known, a scale's parameters, points with three decimals, a team
twice) in the reader's language: catalogue phrases, Chinese with no English left, the
English unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_cli_click_words import english_runs
from test_gdn_json_words import chinese_left
from test_standings import tr

from duplicate.errors import PhrasedError
from duplicate.scoring import (
    GUANDAN_VP,
    BoardResult,
    VictoryPoints,
    WinDrawLoss,
    butler_datum,
    calibrate_k,
    forfeit_match,
    neuberg,
    scale_from_dict,
    score_board,
)
from duplicate.standings import standings

CASES: list[tuple[Callable[[], object], str, str]] = [
    (lambda: score_board(BoardResult(9, 1, 7)),
     "board 9, closed room: an N–S result must be ±1..±3", "第9副闭室：南北的结果须为 ±1 到 ±3"),
    (lambda: score_board(BoardResult(4, 9, 1)), "board 4, open room", "第4副开室"),
    (lambda: score_board(BoardResult(3, None, None, conceded_by="z")),
     "board 3: conceded by x, y or both, not 'z'", "第3副：认输的一方须为"),
    (lambda: WinDrawLoss(win=0, draw=1, loss=0),
     "wdl scale needs win >= draw >= loss, not 0/1/0", "胜平负计分须满足 胜 >= 平 >= 负，而不是 0/1/0"),
    (lambda: VictoryPoints(k=0), "vp20 scale factor k must be a positive number, not 0",
     "系数 k 须为正数，而不是 0"),
    (lambda: GUANDAN_VP.vp(1, 0), "a VP scale needs a positive number of boards, not 0",
     "副数须为正整数，而不是 0"),
    (lambda: GUANDAN_VP.vp(1.5, 4), "a match margin must be an integer, not 1.5",  # type: ignore[arg-type]
     "一场比赛的分差须为整数，而不是 1.5"),
    (lambda: forfeit_match(None, "q", GUANDAN_VP, 4),  # type: ignore[arg-type]
     "a match is forfeited by x, y or both, not 'q'",
     "弃权的一方须为 'x'、'y' 或 'both'，而不是“q”"),
    (lambda: calibrate_k([1.0]), "calibrate_k needs at least 2 swings, got 1",
     "校准系数 k 至少需要 2 个分差，只有 1 个"),
    (lambda: calibrate_k([2.0, 2.0]), "calibrate_k: every swing is the same, the spread is 0",
     "所有分差都相同，离散度为 0"),
    (lambda: neuberg(1.0, 0, 3), "Neuberg needs positive counts, not played=0 expected=3",
     "公式的次数须为正数，而不是实打 0、应打 3"),
    (lambda: butler_datum([]), "a Butler datum needs at least one score", "基准至少需要一个分数"),
    (lambda: standings(["A"], [tr(1, "Q", 1)], "s"),
     "round 1, team 'Q': not a team of this event", "第1轮，队伍“Q”：不是本赛事的队伍"),
    (lambda: standings(["A", "Z"], [tr(1, "A", 1), tr(1, "A", 2)], "s"),
     "round 1, team 'A': two results for one round", "第1轮，队伍“A”：同一轮有两个成绩"),
    (lambda: standings(["A", "Z"], [tr(1, "A", 1.005)], "s"),
     "round 1, team 'A': points must have at most two decimals, not 1.005",
     "第1轮，队伍“A”：分数最多两位小数，而不是 1.005"),
    (lambda: standings(["A", "Z"], [tr(0, "A", 1)], "s"),
     "round 0, team 'A': a round number must be a positive integer", "第0轮，队伍“A”：轮次须为正整数"),
    (lambda: standings(["A", "A"], [], "s"), "a team appears twice in the team list",
     "队伍名单中有一支队伍出现了两次"),
    (lambda: scale_from_dict({"name": "vp20", "q": 1}), "bad parameters for scale 'vp20': ",
     "计分方式“vp20”的参数有误："),
]


@pytest.mark.parametrize("n", range(len(CASES)))
def test_a_guard_in_both_languages(n: int) -> None:
    call, english, chinese = CASES[n]
    with pytest.raises(PhrasedError) as info:
        call()
    assert english in str(info.value)
    assert info.value.phrase is not None
    zh = info.value.text("zh")
    assert chinese in zh, zh
    if "参数有误" not in zh:  # Python's own reason for bad keyword arguments stays
        # the glossary's VP, and the methods by their authors' names (docs/GLOSSARY.md)
        assert [w for w in chinese_left(zh) if w not in ("VP", "Neuberg", "Butler")] == [], zh
        assert english_runs(zh) == [], zh
