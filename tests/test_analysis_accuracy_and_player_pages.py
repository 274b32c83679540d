"""Each player's marked decisions and accuracy: a decision with a choice scores 100, 50
when marked ? and 0 when marked ??, a forced pass does not count, the accuracy is the mean
(docs/ANALYSIS.md "Accuracy"); the board page lists each player's marked decisions linking
to their steps; the report has a page for each player (accuracy, decisions by kind, the
costliest decisions linked), reached from the players and team pages."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from duplicate import events
from duplicate.analysis.estimate import Budget
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events.site import write_event_site
from duplicate.review.mistakes import accuracy, kind, score
from duplicate.review.player_page import player_page

NAME = "Coach Cup"
TEAMS = (("龙队", ["张伟", "李娜", "王芳", "陈静"]), ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]))
BUDGET = Budget(playouts=2, seed=7, cards=16)


def _d(mark: str = "", action: dict[str, object] | None = None, **more: object) -> dict[str, object]:
    return {"seat": "N", "mark": mark, "action": action or {"pass": True}, **more}


def test_a_decision_scores_by_its_mark_and_a_forced_pass_does_not_count() -> None:
    pair = {"type": "Pair", "rank": "5", "cards": ["S5", "C5"]}
    bomb = {"type": "Bomb", "rank": "2", "cards": ["S2", "C2", "D2", "S2"]}
    assert [score(_d()), score(_d("?")), score(_d("??")), score(_d(forced=True))] == [
        100, 50, 0, None]
    assert [kind(_d()), kind(_d(action=pair, lead=True)), kind(_d(action=pair)),
            kind(_d(action=bomb, lead=True))] == ["pass", "lead", "follow", "bomb"]
    fig = {"choices": 4, "score": 100 + 100 + 50 + 0}
    assert accuracy(fig) == 62.5 and accuracy({"choices": 0, "score": 0}) is None


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> Path:
    base = tmp_path_factory.mktemp("coach")
    path = base / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        events.create_event(engine, NAME, seed="d44", fmt="rr", rounds=1, boards_per_round=3)
        for team, players in TEAMS:
            events.add_team(engine, NAME, team, players)
        events.pair_round(engine, NAME)
        events.assign_boards(engine, NAME, 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
        events.import_texts(engine, NAME, events.bot_records(engine, NAME, 1), round_no=1)
        write_event_site(engine, NAME, str(base / "rep"), "zh", BUDGET)
    finally:
        engine.dispose()
    return base / "rep"


def _movie(page: str) -> dict[str, object]:
    m = re.search(r'<script id="movie-data" type="application/json">(.*?)</script>', page, re.S)
    assert m
    data: dict[str, object] = json.loads(m.group(1))
    return data


def _decisions(out: Path, player: str) -> list[dict[str, object]]:
    """The player's decisions in the stored analyses, read as the docs define them."""
    found = []
    for page in sorted(out.glob("board-*.html")):
        movie = _movie(page.read_text(encoding="utf-8"))
        for room in movie["rooms"]:  # type: ignore[attr-defined]
            seats = [i for i, p in enumerate(room["players"]) if p == player]
            for f in (out / "analysis").glob("*.json"):
                ann = json.loads(f.read_text(encoding="utf-8")).get("annotation")
                if not ann or ann["room"] != room["name"] or ann["board"] != page.stem[-1]:
                    continue
                found += [d for d in ann["decisions"] if "NESW".index(d["seat"]) in seats]
    return found


def test_the_player_page_gives_the_accuracy_the_docs_define(report: Path) -> None:
    players = (report / "players.html").read_text(encoding="utf-8")
    for _, names in TEAMS:
        for name in names:
            page_name = player_page(name)
            assert f'href="{page_name}">{name}</a>' in players
            page = (report / page_name).read_text(encoding="utf-8")
            decisions = _decisions(report, name)
            scored = [100 if not d["mark"] else 50 if d["mark"] == "?" else 0
                      for d in decisions if not d["forced"]]
            assert scored
            want = f"准确率{sum(scored) / len(scored):.0f}%（{len(scored)}次有选择的决策）"
            assert want in page, (name, want)
            assert want in players
            marked = [d for d in decisions if d["mark"]]
            links = re.findall(r'<li><a href="(board-[^"#]+)#(open|closed)=(\d+)">(.*?)</a></li>',
                               page)
            assert len(links) == min(10, len(marked))
            for board, room, step, text in links:
                movie = _movie((report / board).read_text(encoding="utf-8"))
                rooms = {r["key"]: r for r in movie["rooms"]}  # type: ignore[attr-defined]
                mark = rooms[room]["anl"][int(step) - 1]
                assert mark["m"] and text == f"第{step}步 {mark['t']}"  # the step it links
            for word in ("首出", "跟牌", "炸弹", "过", "进贡"):
                assert f"<td>{word}" in page


def test_the_board_page_lists_each_players_marked_decisions(report: Path) -> None:
    total = 0
    for path in sorted(report.glob("board-*.html")):
        page = path.read_text(encoding="utf-8")
        assert "各牌手被标记的决策" in page
        movie = _movie(page)
        rooms = {r["key"]: r for r in movie["rooms"]}  # type: ignore[attr-defined]
        marks = sum(1 for r in rooms.values() for a in r["anl"] if a and "m" in a)
        links = re.findall(r'<li><a href="#(open|closed)=(\d+)">', page)
        assert len(links) == marks
        for room, step in links:
            assert "m" in rooms[room]["anl"][int(step) - 1]
        total += marks
    assert total > 0
