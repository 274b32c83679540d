"""What the arena tells its users: a match's margin with its uncertainty (text, --json,
report), the report named when written, the level a number in --json, the websockets
library's own lines kept out of -v, the report's columns and board counts fit for agents,
and ratings that say their scale and which agents the boards do not yet separate."""

from __future__ import annotations

import asyncio
import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from protocol_client import play_client, play_four

from duplicate.arena.rating import Rating, overlaps
from duplicate.arena.report import (
    arena_report,
    match_notes,
    overlap_note,
    rating_notes,
    tournament_title,
    write_arena_report,
)
from duplicate.arena.tournament import AgentSpec, run_tournament
from duplicate.arena.uncertainty import margin_estimate, t95
from duplicate.dealing import generate_boards
from duplicate.simulate import simulation_key

GUANDAN = [sys.executable, "-c", "from cli import main; main()"]


def _text(path: Path) -> str:
    page = path.read_text(encoding="utf-8")
    page = re.sub(r"<(style|script)\b.*?</\1>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_margin_a_board_with_its_interval() -> None:
    est = margin_estimate([1, -1, 2, 0, -2, 1, 0, 0])
    assert est is not None
    assert est.boards == 8 and est.per_board == pytest.approx(0.125)
    assert est.stderr == pytest.approx(0.44068, abs=1e-5)
    assert (est.low, est.high) == pytest.approx((0.125 - 2.365 * 0.44068,
                                                 0.125 + 2.365 * 0.44068), abs=1e-4)
    assert not est.separated
    assert margin_estimate([3, 3, 2, 3]) is not None and margin_estimate([3, 3, 2, 3]).separated  # type: ignore[union-attr]
    assert margin_estimate([2]) is None
    assert t95(1) == 12.706 and t95(60) == pytest.approx(2.000, abs=1e-3)


def _run(tmp: Path, *extra: str) -> tuple[str, str]:
    """``arena duplicate`` in a process of its own, the four clients written from the
    protocol connecting as the competition's client1..client4."""
    server = subprocess.Popen(
        [*GUANDAN, "arena", "duplicate", "--a", "heur", "--b", "rand", "--seed", "5c",
         "--boards", "4", "--port", "0", "--wait", "60", "--out", str(tmp), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        assert "ws://127.0.0.1:" in line, line
        url = line.split(" on ", 1)[1].split("<id>", 1)[0]
        asyncio.run(asyncio.wait_for(play_four(url), 120))
        out, err = server.communicate(timeout=120)
    finally:
        server.kill()
    assert server.returncode == 0, err
    return out, line + err


def test_the_match_says_its_uncertainty_and_names_its_report(tmp_path: Path) -> None:
    site = tmp_path / "site"
    out, err = _run(tmp_path, "--report", str(site), "-v")
    said = re.search(r"heur's swing a board: ([+-]\d\.\d\d) \(standard error (\d\.\d\d); 95% "
                     r"interval ([+-]\d+\.\d\d) to ([+-]\d+\.\d\d), over 4 boards played in "
                     r"both rooms\): (the interval holds 0|(heur|rand) is ahead)", out)
    assert said, out
    assert f"report written to {site / 'index.html'}" in out
    index = _text(site / "index.html")
    assert said.group(0) in index  # the same words in the report
    # websockets' own INFO lines ("server listening", "connection open") stay out of -v
    assert "websockets" not in err and "connection open" not in err, err
    assert "arena INFO" in err  # the arena's own -v lines
    # the players page counts an agent's boards, not its seats in both rooms (4, not 16)
    players = _text(site / "players.html")
    assert re.search(r"\bheur 4 \d+", players) and re.search(r"\brand 4 \d+", players), players


def test_the_json_gives_the_margin_a_board_and_the_level_as_a_number(tmp_path: Path) -> None:
    out, _ = _run(tmp_path, "--json", "--level-schedule", "cycle")
    doc = json.loads(out)
    per = doc["margin_per_board"]
    swings = [b["swing_heur"] for b in doc["boards_detail"]]
    assert per["boards"] == 4 and per["mean"] == pytest.approx(sum(swings) / 4, abs=1e-3)
    assert per["low"] < per["mean"] < per["high"] and per["confidence"] == 0.95
    assert [b["level"] for b in doc["boards_detail"]] == [2, 3, 4, 5]
    assert doc["report"] is None


def test_the_report_of_a_tournament_has_the_arenas_columns(tmp_path: Path) -> None:
    agents = [AgentSpec("one", "1"), AgentSpec("two", "2"), AgentSpec("three", "3")]

    async def launch(agent: AgentSpec, url: str) -> Any:
        return await play_client(url, int(agent.command) * 10 + len(url), "random")

    boards = list(generate_boards(simulation_key(b"\x21"), 2))
    result = asyncio.run(asyncio.wait_for(
        run_tournament(agents, boards, launch=launch, out_dir=tmp_path), 120))
    write_arena_report(tmp_path / "site", arena_report(
        tournament_title(3, 2), result.matches, result.standings,
        [*rating_notes(result.ratings), *match_notes(result.matches)]))
    index = _text(tmp_path / "site" / "index.html")
    assert "Match points" in index and "Swing" in index
    for event_only in ("Progressive", "Rounds won", "Placed by", "Levels"):
        assert event_only not in index
    assert "Elo" in index and "1e-10" not in index
    assert index.count("'s swing a board:") == 3 and "one – two: one's swing a board" in index
    assert "not yet separated" in index or "every two agents are separated" in index
    players = _text(tmp_path / "site" / "players.html")
    assert re.search(r"\bone 4 \d+", players), players  # 2 boards in each of 2 matches


def test_ratings_say_which_agents_are_not_yet_separated() -> None:
    ratings = [Rating("a", 200, 100, 300, 10), Rating("b", 80, -20, 180, 10),
               Rating("c", -280, -400, -150, 10)]
    assert overlaps(ratings) == [("a", "b")]
    assert overlap_note(ratings) == ("not yet separated (their 95% intervals overlap, more "
                                     "boards would tell them apart): a – b")
    assert overlap_note(ratings, "zh") == "尚未分出高下（95% 区间重叠，需要更多牌才能区分）：a – b"
    assert overlap_note(ratings[::2]).startswith("every two agents are separated")


def test_the_margin_line_in_chinese() -> None:
    from duplicate.arena.duplicate_match import BoardPlay, MatchResult
    from duplicate.arena.report import margin_note
    from duplicate.scoring import score_match

    boards = list(generate_boards(simulation_key(b"\x21"), 4))
    plays = [BoardPlay(b, open_ns=o, closed_ns=c)
             for b, o, c in zip(boards, (1, 2, -1, 3), (0, 2, 1, 1), strict=True)]
    result = MatchResult(("heur", "rand"), plays, score_match([]))
    assert margin_note(result, "zh") == (
        "heur 每副牌级差 +0.25（标准误 0.85；95% 区间 -2.47 至 +2.97，按两室都打完的4副计）："
        "区间含 0，这些牌还分不出两个智能体的高下")
    assert margin_note(result) == (
        "heur's swing a board: +0.25 (standard error 0.85; 95% interval -2.47 to +2.97, over 4 "
        "boards played in both rooms): the interval holds 0, the boards do not yet separate "
        "the agents")
