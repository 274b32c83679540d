"""The arena over real sockets on 127.0.0.1: duplicate matches with a protocol client written
from PROTOCOL.md (tests/protocol_client.py), records replayed, swings recomputed from the
records; and ``guandan agent`` (four of our bots) against the arena."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from protocol_client import play_four

from duplicate.arena.duplicate_match import MatchResult, play_duplicate_match
from duplicate.arena.server import ArenaServer, Limits
from duplicate.dealing import LevelSchedule, generate_boards
from duplicate.gdn import load
from duplicate.replay import replay
from duplicate.scoring import JIANGSU_WDL
from duplicate.simulate import simulation_key
from engine.cards import parse_cards
from engine.seat import Seat, Side

TIMEOUT = 120


def boards(n: int, seed: bytes = b"\x07", schedule: str = "cycle") -> list[Any]:
    return list(generate_boards(simulation_key(seed), n, LevelSchedule.parse(schedule)))


async def match_with_clients(
    n_boards: int, tmp: Path, modes: list[str] | None = None, limits: Limits | None = None,
    after: int = 0,
) -> tuple[MatchResult, list[Any], list[Any]]:
    bs = boards(n_boards)
    async with ArenaServer(port=0, limits=limits) as srv:
        clients = asyncio.create_task(play_four(srv.url, modes, after=after))
        table = await srv.next_table(30)
        try:
            result = await play_duplicate_match(table, bs, ("alpha", "beta"), out_dir=tmp)
        finally:
            await table.close()
        seen = await clients
    return result, seen, bs


def ns_from_record_file(path: Path) -> dict[tuple[str, str], int]:
    """Each room's N-S result, computed here from the replayed records (±levels)."""
    out = {}
    for rec in load(path.open(encoding="utf-8"), file=str(path)):
        checked = replay(rec)
        assert checked.ok, checked.error
        assert checked.result is not None
        sign = 1 if checked.result.winner == Side.NS else -1
        out[(rec.board or "", rec.room or "")] = sign * checked.result.levels
    return out


def test_duplicate_match_with_protocol_clients(tmp_path: Path) -> None:
    result, seen, bs = asyncio.run(asyncio.wait_for(match_with_clients(3, tmp_path), TIMEOUT))
    assert not result.faults and not result.abandoned
    for s in seen:
        assert s.problems == []
        assert s.game_over and s.game_result is not None
        assert len(s.episodes) == 6  # 3 boards, 2 rooms
    assert result.file is not None and result.file.exists()
    ns = ns_from_record_file(result.file)
    assert len(ns) == 6
    swings = []
    for bp in result.boards:
        b = str(bp.board.number)
        assert bp.open_ns == ns[(b, "Open")] and bp.closed_ns == ns[(b, "Closed")]
        swings.append(ns[(b, "Open")] - ns[(b, "Closed")])
        assert bp.swing == swings[-1]
    assert result.score.margin == sum(swings)
    want = JIANGSU_WDL.points(sum(swings), 3)
    assert (result.score.points_x, result.score.points_y) == want
    assert seen[0].game_result is not None
    vict = seen[0].game_result["victoryNum"]
    assert vict[0] == vict[2] and vict[1] == vict[3]
    assert vict[0] == (1 if want[0] > want[1] else 0)


def test_rooms_seat_the_agents_and_the_hands_as_duplicate_says(tmp_path: Path) -> None:
    result, seen, bs = asyncio.run(asyncio.wait_for(match_with_clients(2, tmp_path), TIMEOUT))
    recs = list(load(result.file.open(encoding="utf-8")))  # type: ignore[union-attr]
    for rec in recs:
        a_seats = ("North", "South") if rec.room == "Open" else ("East", "West")
        b_seats = ("East", "West") if rec.room == "Open" else ("North", "South")
        assert all(rec.tags[t] == "alpha" for t in a_seats)
        assert all(rec.tags[t] == "beta" for t in b_seats)
    # position 0 holds N's hand in the open room and E's in the closed room (board turned)
    for k, board in enumerate(bs):
        for room, rot in ((0, 0), (1, 1)):
            for pos in range(4):
                ep = seen[pos].episodes[2 * k + room]
                assert ep.pos == pos
                assert ep.cur_rank == board.level + 2
                assert parse_cards(ep.hand) == board.hands[Seat((pos + rot) % 4)]
    # what the clients were told is what the records hold
    for k, rec in enumerate(recs):
        rot = 0 if rec.room == "Open" else 1
        told = seen[1].episodes[k].plays
        assert rec.plays is not None and len(told) == len(rec.plays)
        for (pos, action), play in zip(told, rec.plays, strict=True):
            assert Seat((pos + rot) % 4) == play.seat
            if play.is_pass:
                assert action[0] == "PASS"
            else:
                assert parse_cards(action[2]) == play.cards


def test_guandan_agent_plays_a_match(tmp_path: Path) -> None:
    """Four `guandan agent` processes (our heuristic and random bots) against the arena."""
    bs = boards(2, b"\x09")

    async def run() -> tuple[MatchResult, list[int]]:
        async with ArenaServer(port=0) as srv:
            procs = []
            for i in range(4):
                procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, "-c", "from cli import main; main()", "agent",
                    "--url", f"{srv.url}client{i + 1}",
                    "--policy", "heuristic" if i % 2 == 0 else "random", "--seed", str(i),
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                    cwd=os.getcwd(),
                ))
                if i < 3:
                    await srv.wait_for_clients(i + 1, 60)  # positions in launch order
            table = await srv.next_table(60)
            try:
                result = await play_duplicate_match(table, bs, ("heuristic", "random"),
                                                    out_dir=tmp_path)
            finally:
                await table.close()
            codes = [await p.wait() for p in procs]
        return result, codes

    result, codes = asyncio.run(asyncio.wait_for(run(), TIMEOUT))
    assert codes == [0, 0, 0, 0]
    assert result.records[0].tags["North"] == "heuristic"  # positions 0 and 2
    assert not result.faults
    assert result.deals == 4
    ns = ns_from_record_file(result.file)  # type: ignore[arg-type]
    assert result.score.margin == sum(
        ns[(str(b.number), "Open")] - ns[(str(b.number), "Closed")] for b in bs
    )


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_agent_answers_with_the_bots_play(policy: str) -> None:
    """The agent maps its bot's choice onto any server's actionList (order, FourKings)."""
    from duplicate.arena.agent import AgentStats, choose
    from duplicate.policies import make_player

    msg = {
        "type": "act", "stage": "play", "curRank": "5",
        "handCards": ["S3", "S3", "H4", "SB", "SB", "HR", "HR"],
        "publicInfo": [{"rest": 7}, {"rest": 3}, {"rest": 10}, {"rest": 9}],
        "greaterPos": 1, "greaterAction": ["Pair", "K", ["SK", "CK"]],
        "actionList": [["PASS", "PASS", "PASS"], ["Pair", "B", ["SB", "SB"]],
                       ["Pair", "R", ["HR", "HR"]],
                       ["Bomb", "JOKER", ["HR", "SB", "HR", "SB"]]],
    }
    stats = AgentStats()
    i = choose(make_player(policy, "1"), msg, 0, stats)
    assert 0 <= i < 4 and stats.fallbacks == 0


def test_two_tables_play_the_rooms_at_once(tmp_path: Path) -> None:
    """Eight clients: the open room at the first table, the closed room at the second."""
    bs = boards(2, b"\x0c")

    async def main() -> tuple[MatchResult, list[Any], list[Any]]:
        async with ArenaServer(port=0) as srv:
            first = asyncio.create_task(play_four(srv.url, seeds=[1, 2, 3, 4]))
            open_table = await srv.next_table(20)
            second = asyncio.create_task(play_four(srv.url, seeds=[5, 6, 7, 8], prefix="other"))
            closed_table = await srv.next_table(20)
            try:
                result = await play_duplicate_match(open_table, bs, ("alpha", "beta"),
                                                    closed_table=closed_table, out_dir=tmp_path)
            finally:
                await open_table.close()
                await closed_table.close()
            return result, await first, await second

    result, seen_open, seen_closed = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert result.deals == 4 and not result.faults
    for k, board in enumerate(bs):
        for pos in range(4):
            assert parse_cards(seen_open[pos].episodes[k].hand) == board.hands[Seat(pos)]
            assert parse_cards(seen_closed[pos].episodes[k].hand) == board.hands[
                Seat((pos + 1) % 4)]
    ns = ns_from_record_file(result.file)  # type: ignore[arg-type]
    assert result.score.margin == sum(
        ns[(str(b.number), "Open")] - ns[(str(b.number), "Closed")] for b in bs)
