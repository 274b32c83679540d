"""A mark of the analysis is on the seat that played: on the board page each mark names
the seat and the player who made the marked action, what it cost their side and what was
better; a loss is marked only when it is beyond the values' uncertainty, exact or
estimated; an estimate is shown with its ± and never as "-0.0"."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from duplicate import events
from duplicate.analysis.annotate import loss_mark
from duplicate.analysis.estimate import Budget, Evaluation
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events.site import write_event_site
from duplicate.review.analysis import mark_text, value_text

NAME = "Marks Cup"
TEAMS = (
    ("龙队", ["张伟", "李娜", "王芳", "陈静"]),
    ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]),
)
BUDGET = Budget(nodes=4_000, playouts=2, seed=3)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> dict[str, Path]:
    """A 2-team event of 3 boards played by the bots, its report with the analysis in
    both languages."""
    base = tmp_path_factory.mktemp("marks")
    path = base / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        events.create_event(engine, NAME, seed="b22", fmt="rr", rounds=1, boards_per_round=3)
        for team, players in TEAMS:
            events.add_team(engine, NAME, team, players)
        events.pair_round(engine, NAME)
        events.assign_boards(engine, NAME, 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
        events.import_texts(engine, NAME, events.bot_records(engine, NAME, 1), round_no=1)
        out = {}
        for lang in ("zh", "en"):
            out[lang] = base / lang
            write_event_site(engine, NAME, str(out[lang]), lang, BUDGET)
    finally:
        engine.dispose()
    return out


def _movie(page: str) -> dict[str, object]:
    m = re.search(r'<script id="movie-data" type="application/json">(.*?)</script>', page, re.S)
    assert m
    data: dict[str, object] = json.loads(m.group(1))
    return data


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_mark_names_the_seat_and_player_who_played(report: dict[str, Path],
                                                         lang: str) -> None:
    marks = 0
    for page in sorted(report[lang].glob("board-*.html")):
        movie = _movie(page.read_text(encoding="utf-8"))
        seats = movie["seats"]
        for room in movie["rooms"]:  # type: ignore[attr-defined]
            for ply, item in enumerate(room["anl"]):
                if item is None:
                    continue
                played = room["moves"][ply]["s"]
                assert item["s"] == played  # the value is the action's, by its seat
                if "m" not in item:
                    continue
                marks += 1
                seat, player = seats[played], room["players"][played]  # type: ignore[index]
                # the sentence starts with the seat and player who played, then the cost
                assert item["t"].startswith(f"{seat}（{player}） " if lang == "zh"
                                            else f"{seat} ({player}) "), item["t"]
                side = ("南北" if played % 2 == 0 else "东西") if lang == "zh" else (
                    "N–S" if played % 2 == 0 else "E–W")
                assert side in item["t"]
                assert ("应出" in item["t"] or "应该过" in item["t"]
                        or "计算量不够，未算出最优结果" in item["t"]) if lang == "zh" else (
                    "better: " in item["t"] or "not enough computation" in item["t"])
    assert marks > 0  # the bots err: something was marked


def test_a_mark_reads_as_a_coach_says_it() -> None:
    decision = {"seat": "E", "mark": "?",
                "action": {"type": "Pair", "rank": "Q", "cards": ["SQ", "HQ"]},
                "before": {"kind": "exact", "value": -2}, "after": {"kind": "exact", "value": -1},
                "best": [{"action": {"type": "Pair", "rank": "K", "cards": ["SK", "DK"]},
                          "value": {"kind": "exact", "value": -2}}], "line": []}
    assert mark_text(decision, 5, "zh", "赵敏") == "东（赵敏） 对子Q？东西丢1级；应出对子K"
    assert mark_text(decision, 5, "en", "Zhao Min") == (
        "East (Zhao Min) pair Q? E–W lost 1 level; better: pair K")
    estimated = decision | {"before": {"kind": "estimate", "value": -1.5, "stderr": 0.2,
                                       "samples": 24},
                            "after": {"kind": "estimate", "value": 0.1, "stderr": 0.3,
                                      "samples": 24}, "best": []}
    assert mark_text(estimated, 5, "zh") == "东 对子Q？东西约丢1.6±0.4级（估计）；计算量不够，未算出最优结果"


def test_a_loss_is_marked_only_beyond_its_uncertainty() -> None:
    exact = Evaluation(1, True), Evaluation(-1, True)
    assert loss_mark(0, *exact) == "??" and loss_mark(1, *exact) == ""  # E–W gained
    assert loss_mark(0, Evaluation(2, True), Evaluation(1, True)) == "?"
    # estimates: a loss of a level beyond twice its standard error is marked, early or late
    assert loss_mark(2, Evaluation(0.4, False, 24, 0.3), Evaluation(-1.2, False, 24, 0.3)) == "?"
    assert loss_mark(2, Evaluation(1.4, False, 24, 0.2), Evaluation(-1.0, False, 24, 0.2)) == "??"
    # within the noise, or less than a level: no mark
    assert loss_mark(2, Evaluation(0.6, False, 24, 0.5), Evaluation(-0.6, False, 24, 0.5)) == ""
    assert loss_mark(2, Evaluation(0.5, False, 24, 0.1), Evaluation(-0.3, False, 24, 0.1)) == ""
    # an estimate before, an exact value after: they measure different play, no mark
    assert loss_mark(3, Evaluation(-1.8, False, 24, 0.3), Evaluation(1, True)) == ""


def test_an_estimate_carries_its_error_and_never_minus_zero() -> None:
    est = {"kind": "estimate", "value": -0.04, "stderr": 0.33, "samples": 24}
    assert value_text(est, "zh") == "南北≈0.0±0.3"
    assert value_text(est | {"value": 0.44}, "en") == "N–S ≈+0.4±0.3"
    assert value_text({"kind": "exact", "value": -1}, "zh") == "南北-1"


def test_the_legend_and_the_exact_value_from_a_step_say_what_they_are(
        report: dict[str, Path]) -> None:
    page = next(iter(sorted(report["zh"].glob("board-*.html")))).read_text(encoding="utf-8")
    assert "只有丢级超出误差的决策才标记" in page
    assert re.search(r"第\d+步起四家明牌最优：南北[+-]\d", page) or "计算量不够，未算出最优结果" in page
    assert "标准结果" not in page and "-0.0" not in page
    for word in ("求解器", "节点", "种子", "预算", "得失"):
        assert word not in page, word
    movie = _movie(page)
    assert movie["words"]["step_of"] == "第{k}步／共{n}步"  # type: ignore[index]
    # the graph numbers the steps and each dot carries the step the movie shows it at
    steps = [int(k) for k in re.findall(r'<circle class="(?:exact|estimate)" data-step="(\d+)"', page)]
    plies = len(movie["rooms"][0]["moves"])  # type: ignore[index]
    assert steps[:plies + 1] == list(range(plies + 1))
    assert '>20</text>' in page and '>步</text>' in page
