"""Tournaments of agents: a round robin over real sockets (clients written from PROTOCOL.md),
standings recomputed from the written records, and the Bradley-Terry rating."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest
from protocol_client import play_client

from duplicate.arena.rating import BoardGame, fit_strengths, rate
from duplicate.arena.server import ArenaError
from duplicate.arena.tournament import AgentSpec, read_agents, run_tournament
from duplicate.dealing import generate_boards
from duplicate.gdn import load
from duplicate.replay import replay
from duplicate.simulate import simulation_key
from engine.seat import Side


def test_round_robin_standings_equal_the_records(tmp_path: Path) -> None:
    agents = [AgentSpec("one", "1"), AgentSpec("two", "2"), AgentSpec("first", "first")]

    async def launch(agent: AgentSpec, url: str) -> Any:
        if agent.command == "first":
            return await play_client(url, 0, "first")
        return await play_client(url, int(agent.command) * 10 + len(url), "random")

    boards = list(generate_boards(simulation_key(b"\x21"), 2))
    result = asyncio.run(asyncio.wait_for(
        run_tournament(agents, boards, launch=launch, out_dir=tmp_path), 120))
    assert len(result.matches) == 3
    # recompute every match from its .gdn file
    totals: dict[str, list[float]] = {a.name: [0, 0] for a in agents}
    for m in result.matches:
        assert m.file is not None
        ns: dict[tuple[str, str], int] = {}
        for rec in load(m.file.open(encoding="utf-8")):
            checked = replay(rec)
            assert checked.ok and checked.result is not None
            sign = 1 if checked.result.winner == Side.NS else -1
            ns[(rec.board or "", rec.room or "")] = sign * checked.result.levels
            assert rec.tags["North"] == (m.names[0] if rec.room == "Open" else m.names[1])
        margin = sum(ns[(str(b.number), "Open")] - ns[(str(b.number), "Closed")] for b in boards)
        assert margin == m.score.margin
        pa = 2 if margin > 0 else 1 if margin == 0 else 0
        totals[m.names[0]][0] += pa
        totals[m.names[1]][0] += 2 - pa
        totals[m.names[0]][1] += margin
        totals[m.names[1]][1] -= margin
    ranked = sorted(totals, key=lambda n: (-totals[n][0], -totals[n][1], n))
    assert [s.name for s in result.standings] == ranked
    for s in result.standings:
        assert [s.points, s.swing] == totals[s.name]
    assert {r.name for r in result.ratings} == {a.name for a in agents}
    assert abs(sum(r.rating for r in result.ratings)) < 1e-6
    assert all(r.low <= r.rating + 1e-9 and r.rating <= r.high + 1e-9 for r in result.ratings)


def test_bradley_terry_recovers_a_known_strength() -> None:
    # a beats b 3 times in 4 (no ties): p_a / p_b close to 3 with many boards
    games = [BoardGame(0, "a", "b", 1 if i % 4 else -1) for i in range(4000)]
    p = fit_strengths(["a", "b"], games)
    assert p["a"] / p["b"] == pytest.approx(3.0, rel=0.01)
    ratings = rate(["a", "b"], games)
    assert ratings[0].name == "a"
    assert ratings[0].rating - ratings[1].rating == pytest.approx(400 * math.log10(3), rel=0.02)
    assert ratings[0].low < ratings[0].rating < ratings[0].high


def test_bradley_terry_stays_finite_for_a_clean_sweep() -> None:
    games = [BoardGame(0, "a", "b", 4) for _ in range(10)]
    ratings = rate(["a", "b"], games)
    assert all(math.isfinite(r.rating) for r in ratings)
    assert ratings[0].name == "a" and ratings[0].rating > 0


def test_tournament_file(tmp_path: Path) -> None:
    f = tmp_path / "agents.txt"
    f.write_text("# agents\nh: guandan agent --url {url}\nr: x {url} --policy random\n")
    assert [a.name for a in read_agents(f)] == ["h", "r"]
    f.write_text("h: guandan agent --policy heuristic\nr: y {url}\n")
    with pytest.raises(ArenaError, match="no {url}"):
        read_agents(f)
    f.write_text("h: a {url}\n")
    with pytest.raises(ArenaError, match="at least two"):
        read_agents(f)


def test_tournament_report_pages(tmp_path: Path) -> None:
    from duplicate.arena.report import arena_report, write_arena_report

    agents = [AgentSpec("north-star", "1"), AgentSpec("east-wind", "2")]

    async def launch(agent: AgentSpec, url: str) -> Any:
        return await play_client(url, int(agent.command), "random")

    boards = list(generate_boards(simulation_key(b"\x22"), 2))
    result = asyncio.run(asyncio.wait_for(
        run_tournament(agents, boards, launch=launch), 60))
    files = write_arena_report(tmp_path, arena_report("Cup", result.matches, result.standings))
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "north-star" in index and "east-wind" in index
    names = {f.name for f in files}
    boards_drawn = [n for n in names if n.startswith("board-")]
    assert "index.html" in names and len(boards_drawn) == 2  # the match's two boards
    match_pages = [f for f in files if f.name.startswith(("match-", "board-"))]
    assert any("Board 1" in f.read_text(encoding="utf-8") for f in match_pages)


def test_a_launched_agent_that_dies_is_said_at_once(tmp_path: Path) -> None:
    """A client process that exits before its match starts: the tournament says so at
    once, with the exit code and the log file, instead of waiting the whole --wait and
    blaming a connection timeout."""
    import sys
    import time

    from click.testing import CliRunner

    from cli import main

    agents = tmp_path / "agents.txt"
    dies = f"{sys.executable} -c \"import sys; print('no model file'); sys.exit(3)\" {{url}}"
    agents.write_text(f"heur: guandan agent -q --url {{url}}\nbroken: {dies}\n",
                      encoding="utf-8")
    started = time.monotonic()
    r = CliRunner().invoke(main, ["arena", "tournament", str(agents), "--seed", "1f",
                                  "--boards", "1", "--port", "0", "--wait", "600", "--out",
                                  str(tmp_path / "out")])
    assert time.monotonic() - started < 60
    assert r.exit_code == 1, r.output
    log = tmp_path / "out" / "agent-logs" / "broken-1.log"
    assert (f"Error: broken's client broken-1 exited with code 3 before its match could "
            f"start (its output: {log})") in r.output
    assert "no model file" in log.read_text(encoding="utf-8")
