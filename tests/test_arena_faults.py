"""Bad clients at the arena: the stated rule finishes the deal, the others are told, nothing
hangs (every test bounded by asyncio timeouts; short time limits set for the test)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from protocol_client import play_client, play_four
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from duplicate.arena.duplicate_match import MatchResult, play_duplicate_match
from duplicate.arena.server import ArenaServer, Limits
from duplicate.dealing import generate_boards
from duplicate.gdn import load
from duplicate.replay import replay
from duplicate.simulate import simulation_key

TIMEOUT = 60
SHORT = Limits(action=0.2, first_lead=0.3, max_unsolicited=1000, reconnect=0.3)


def boards(n: int) -> list[Any]:
    return list(generate_boards(simulation_key(b"\x0b"), n))


async def run(
    n_boards: int, modes: list[str], tmp: Path, limits: Limits = SHORT, after: int = 0
) -> tuple[MatchResult, list[Any]]:
    async with ArenaServer(port=0, limits=limits) as srv:
        clients = asyncio.create_task(play_four(srv.url, modes, after=after))
        table = await srv.next_table(20)
        try:
            result = await play_duplicate_match(table, boards(n_boards), ("good", "bad"),
                                                out_dir=tmp)
        finally:
            await table.close()
        seen = await asyncio.wait_for(clients, 20)
    return result, seen


def replays_cleanly(result: MatchResult) -> None:
    """Every room played replays; a room a forfeit left unplayed is written as the board
    with an empty play list, marked (``Unfinished "forfeit"``, ``Forfeit``)."""
    assert result.file is not None
    recs = list(load(result.file.open(encoding="utf-8")))
    played = [r for r in recs if r.plays]
    assert len(played) == result.deals
    for rec in played:
        assert replay(rec).ok
    for rec in recs:
        if not rec.plays:
            assert rec.tags["Unfinished"] == "forfeit" and rec.tags["Forfeit"]


def test_out_of_range_index_plays_the_first_action(tmp_path: Path) -> None:
    result, seen = asyncio.run(asyncio.wait_for(
        run(1, ["random", "range", "random", "random"], tmp_path), TIMEOUT))
    assert result.deals == 2 and not result.abandoned
    kinds = {f.kind for f in result.faults}
    assert kinds == {"range"} and all(f.pos == 1 for f in result.faults)
    for s in seen:  # nobody is sent a stage the competition's server never sends
        assert not s.faults
        assert s.game_over
    replays_cleanly(result)
    assert result.file is not None and "ArenaFaults" in result.file.read_text()


def test_non_json_reply_is_malformed(tmp_path: Path) -> None:
    result, seen = asyncio.run(asyncio.wait_for(
        run(1, ["garbage", "random", "random", "random"], tmp_path), TIMEOUT))
    assert {f.kind for f in result.faults} == {"malformed"}
    assert result.deals == 2 and all(s.game_over for s in seen)
    replays_cleanly(result)


def test_replies_when_not_asked_are_ignored(tmp_path: Path) -> None:
    result, seen = asyncio.run(asyncio.wait_for(
        run(1, ["random", "random", "chatty", "random"], tmp_path), TIMEOUT))
    assert result.deals == 2 and not result.abandoned
    assert {f.kind for f in result.faults} == {"unsolicited"}
    assert all(f.pos == 2 for f in result.faults)
    replays_cleanly(result)


def test_silent_client_is_escalated_and_its_side_forfeits(tmp_path: Path) -> None:
    """Three timeouts in a row: the fallback plays the seat for the rest of the deal, the
    client is dropped (close 4000 with the reason); it does not come back, so B forfeits
    the boards not played (conceded: +3 each to A), never silent zeros."""
    limits = Limits(action=0.2, first_lead=0.2, reconnect=0.2)
    result, seen = asyncio.run(asyncio.wait_for(
        run(2, ["random", "random", "random", "silent"], tmp_path, limits), TIMEOUT))
    assert result.deals == 1 and result.forfeited_by == "y"
    assert [f.kind for f in result.faults if f.pos == 3] == ["timeout"] * 3 + [
        "escalated", "forfeit"]
    assert seen[3].closed_code == 4000
    assert [b.swing for b in result.score.boards] == [3, 3]
    assert result.score.margin == 6 and result.score.points_x > result.score.points_y
    assert all(s.game_over for s in seen[:3])
    replays_cleanly(result)


def test_closed_socket_mid_trick_ends_the_match_after_the_deal(tmp_path: Path) -> None:
    result, seen = asyncio.run(asyncio.wait_for(
        run(3, ["random", "drop", "random", "random"], tmp_path, after=5), TIMEOUT))
    assert result.abandoned and result.forfeited_by == "y"
    assert result.deals == 1  # the open room of board 1 finished by the fallback, then the end
    assert [f.kind for f in result.faults] == ["disconnected", "forfeit"]
    assert result.score.margin == 9  # three boards conceded by B: +3 each to A
    for pos in (0, 2, 3):
        s = seen[pos]
        assert not s.faults
        assert len(s.episodes) == 1 and s.episodes[0].order  # episodeOver came
        assert s.game_over and s.game_result is not None
    replays_cleanly(result)


def test_flooding_and_garbage_clients_do_not_stop_another_table(tmp_path: Path) -> None:
    limits = Limits(action=2.0, first_lead=2.0, max_unsolicited=50, max_message=1024)

    async def flood(url: str) -> str:
        try:
            async with connect(url, compression=None, ping_interval=None) as ws:
                for _ in range(2000):
                    await ws.send(json.dumps({"actIndex": 0}))
                await ws.send("x" * 5000)  # over the size limit
                # the flooders' own table forms only once the good match is over, which
                # takes longer on a loaded machine: wait for it within the test's TIMEOUT
                await asyncio.wait_for(ws.recv(), TIMEOUT - 10)
        except ConnectionClosed:
            return "closed"
        return "open"

    async def main() -> tuple[MatchResult, list[str]]:
        async with ArenaServer(port=0, limits=limits) as srv:
            good = asyncio.create_task(play_four(srv.url))
            table = await srv.next_table(10)
            bad = [asyncio.create_task(flood(f"{srv.url}flood{i}")) for i in range(4)]
            play = asyncio.create_task(play_duplicate_match(
                table, boards(2), ("one", "two"), out_dir=tmp_path))
            result = await play
            await table.close()
            await good
            bad_table = await srv.next_table(10)
            outcomes = await asyncio.gather(*bad)
            await bad_table.close()
        return result, outcomes

    result, outcomes = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert result.deals == 4 and not result.faults
    assert outcomes == ["closed"] * 4


def test_seating_file_seats_by_id_and_refuses_strangers(tmp_path: Path) -> None:
    async def main() -> tuple[MatchResult, Any]:
        seating = [["w1", "e1", "w2", "e2"]]
        async with ArenaServer(port=0, seating=seating) as srv:
            stranger = await asyncio.wait_for(
                play_client(f"{srv.url}nobody"), 10)  # refused: closed at once
            order = ["e2", "w2", "e1", "w1"]  # connection order differs from the seats
            tasks = [asyncio.create_task(play_client(f"{srv.url}{i}", n)) for n, i in
                     enumerate(order)]
            table = await srv.next_table(10)
            assert table.ids == seating[0]
            result = await play_duplicate_match(table, boards(1), ("west", "east"),
                                                out_dir=tmp_path)
            await table.close()
            await asyncio.gather(*tasks)
        return result, stranger

    result, stranger = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert stranger.closed_code == 1008 and not stranger.episodes
    assert result.deals == 2



def test_client_that_never_reads_is_dropped() -> None:
    """A send to a client whose buffer is full waits at most the action limit, then the
    client is dropped (its seat played by the rule) instead of blocking the table."""
    from websockets.protocol import State

    from duplicate.arena.server import Client

    class Transport:
        aborted = False

        def write(self, data: bytes) -> None:
            pass

        def get_write_buffer_size(self) -> int:
            return 1 << 20  # full: the peer reads nothing

        def abort(self) -> None:
            Transport.aborted = True

    class Protocol:
        state = State.OPEN

        def send_text(self, data: bytes) -> None:
            pass

        def data_to_send(self) -> list[bytes]:
            return [b"frame"]

    class DeafConnection:
        transport = Transport()
        protocol = Protocol()

        async def drain(self) -> None:
            await asyncio.sleep(3600)  # the peer never reads: the buffer never drains

    async def main() -> Client:
        client = Client(DeafConnection(), "deaf", Limits(action=0.1))  # type: ignore[arg-type]
        await client.send("{}")
        return client

    client = asyncio.run(asyncio.wait_for(main(), 5))
    assert client.gone and Transport.aborted

    async def at_a_table() -> tuple[int, Any]:
        """Asked to act, the deaf client is cut off: escalated, the fallback plays."""
        from duplicate.arena.table import Table

        limits = Limits(action=0.1)
        clients = [Client(DeafConnection(), f"deaf{i}", limits)  # type: ignore[arg-type]
                   for i in range(4)]
        for pos, c in enumerate(clients):
            c.pos = pos
        table = Table(clients, limits)
        act = {"type": "act", "stage": "play", "actionList": [["PASS", "PASS", "PASS"]] * 3,
               "indexRange": 2}
        index = await table.ask(0, act, 0.1, None, lambda: 2)
        again = await table.ask(0, act, 0.1, None, lambda: 1)  # the rest of the deal
        return index * 10 + again, table

    played, table = asyncio.run(asyncio.wait_for(at_a_table(), 5))
    assert played == 21
    assert [f.kind for f in table.faults] == ["escalated"]
    assert "not read its messages" in table.faults[0].detail


def test_wrong_path_and_oversized_frames_are_refused() -> None:
    async def main() -> tuple[int | None, int | None, int]:
        limits = Limits(max_message=256)
        async with ArenaServer(port=0, limits=limits) as srv:
            async with connect(f"ws://127.0.0.1:{srv.port}/lobby", compression=None) as ws:
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                except ConnectionClosed:
                    pass
                wrong_path = ws.close_code
            async with connect(f"{srv.url}big", compression=None) as ws:
                await ws.send("x" * 1000)
                try:
                    await asyncio.wait_for(ws.recv(), 5)
                except ConnectionClosed:
                    pass
                too_big = ws.close_code
            # the lobby forgets the closed client: four new ones still make a table
            clients = asyncio.create_task(play_four(srv.url))
            table = await srv.next_table(10)
            ids = len([i for i in table.ids if i != "big"])
            await table.close()
            clients.cancel()
        return wrong_path, too_big, ids

    wrong_path, too_big, ids = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert wrong_path == 1008 and too_big == 1009 and ids == 4


def test_agent_refused_by_the_server_says_so() -> None:
    """`guandan agent` refused by a seating file: a ConnectionError naming the reason."""
    import pytest

    from duplicate.arena.agent import run_agent

    async def main() -> None:
        async with ArenaServer(port=0, seating=[["a", "b", "c", "d"]]) as srv:
            await run_agent(f"{srv.url}stranger")

    with pytest.raises(ConnectionError, match="1008 not in the seating file"):
        asyncio.run(asyncio.wait_for(main(), 20))


def test_a_forfeited_match_says_so_in_its_records_and_compares(tmp_path: Path) -> None:
    """B's client leaves in board 1's open room and does not come back: every board not
    played in both rooms is B's forfeit. The records say which (a ``Forfeit`` tag, an
    empty record for each room not played), the fault is said where it happened (the
    closed room), and ``guandan compare`` reads the file: every board with its conceded
    swing, the total the match's margin."""
    from click.testing import CliRunner

    from cli import main
    from duplicate.arena.report import arena_report, match_title, write_arena_report

    result, _ = asyncio.run(asyncio.wait_for(
        run(3, ["random", "drop", "random", "random"], tmp_path, after=5), TIMEOUT))
    assert result.forfeited_by == "y" and result.deals == 1
    forfeit = [f for f in result.faults if f.kind == "forfeit"]
    assert [f.where for f in forfeit] == ["board 1 closed room"]
    assert result.file is not None
    recs = list(load(result.file.open(encoding="utf-8")))
    assert [(r.board, r.room, bool(r.plays), r.tags.get("Forfeit")) for r in recs] == [
        ("1", "Open", True, "bad"), ("1", "Closed", False, "bad"),
        ("2", "Open", False, "bad"), ("2", "Closed", False, "bad"),
        ("3", "Open", False, "bad"), ("3", "Closed", False, "bad")]
    assert [b.row(result.names)["swing_good"] for b in result.boards] == [3, 3, 3]
    r = CliRunner().invoke(main, ["compare", str(result.file)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split()[-1] == "forfeited_by"
    # board, level, leader, rooms, the results (the unplayed rooms' blank), swing, ...
    assert [line.split()[:4] for line in lines[2:5]] == [
        [str(n), "2", line.split()[2], "Open/Closed"] for n, line in zip((1, 2, 3), lines[2:5],
                                                                         strict=True)]
    assert all(" 3 " in line and line.split()[-1] == "bad" for line in lines[2:5]), r.output
    assert "3 boards; total swing +9" in r.output
    r = CliRunner().invoke(main, ["compare", str(result.file), "--board", "2"])
    assert r.exit_code == 0 and "forfeited by bad: scored as a conceded board" in r.output
    site = tmp_path / "site"
    write_arena_report(site, arena_report(match_title("good", "bad"), [result]))
    page = (site / "match-good-v-bad.html").read_text(encoding="utf-8")
    assert page.count('<span class="status">forfeited</span> +3') == 3
