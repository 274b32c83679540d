"""Seating the clients: the hint for ids the arena does not know puts each agent's ids at
its own positions; a seating that gives an agent's id to the other side is refused; the
competition's own ids (``client1`` .. ``client4``) are seated in their order at a single
table; any printable id (``我的AI``, ``my AI``) is taken when seats go by order or file."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from click.testing import CliRunner
from protocol_client import play_client, play_four
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cli import main
from duplicate.arena.duplicate_match import play_duplicate_match
from duplicate.arena.messages import use_language
from duplicate.arena.seating import parse_path, read_seating, seating_help
from duplicate.arena.server import ArenaError, ArenaServer
from duplicate.dealing import generate_boards
from duplicate.i18n import Phrase
from duplicate.simulate import simulation_key

BOARDS = list(generate_boards(simulation_key(b"\x21"), 1))


async def _held(url: str, opened: list[object]) -> None:
    """A client that connects and stays (its id accepted), until cancelled."""
    async with connect(url) as ws:
        opened.append(ws)
        await asyncio.sleep(60)


async def _refused(url: str) -> tuple[int | None, str | None]:
    async with connect(url) as ws:
        try:
            await ws.recv()
        except ConnectionClosed:
            pass
        return ws.close_code, ws.close_reason


def test_the_hint_puts_each_agents_ids_at_its_own_positions(
        caplog: pytest.LogCaptureFixture) -> None:
    """heur-1 and heur-2 name heur (A: positions 0 and 2); client0 (refused) and client1 (a
    competition id, waiting) name nothing, so they can only be ai4's: 1 and 3. The old
    hint gave 'client0 client1 <id> <id>', which seats client0 for heur."""

    use_language("en")  # the log's language (a command line run before may have set zh)

    async def main() -> None:
        async with ArenaServer(port=0, agents=("heur", "ai4")) as srv:
            opened: list[object] = []
            held = [asyncio.create_task(_held(srv.url + i, opened)) for i in ("heur-1", "heur-2")]
            while len(opened) < 2:
                await asyncio.sleep(0.02)
            code, _ = await _refused(srv.url + "client0")
            assert code == 1008
            # client1 is a competition id: it waits for client2..client4, named by no agent
            held.append(asyncio.create_task(_held(srv.url + "client1", opened)))
            while len(opened) < 3:
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)
            for t in held:
                t.cancel()

    with caplog.at_level(logging.WARNING, logger="arena"):
        asyncio.run(asyncio.wait_for(main(), 30))
    hints = [r.getMessage() for r in caplog.records if "seating file" in r.getMessage()]
    assert hints, caplog.text
    assert ": heur-1 client0 heur-2 client1 (ids that named no agent: client0 client1)" in hints[-1]


def test_the_hint_does_not_guess_whose_an_unknown_id_is() -> None:
    """With one id of each agent known, the two refused ids could be either's: their
    positions say whose id goes there, and the refused ids are listed apart."""
    hint = seating_help(("mine", "theirs"), {"mine-1": "mine", "theirs-1": "theirs"},
                        ["x", "y"])
    assert ": mine-1 theirs-1 <mine id> <theirs id> (ids that named no agent: x y)" in hint
    assert "'my AI'" in seating_help(("a", "b"), {"a-1": "a", "a-2": "a"}, ["my AI", "z"])


def test_a_seating_file_giving_an_agents_id_to_the_other_side_is_refused(
        tmp_path: Path) -> None:
    seats = tmp_path / "seats.txt"
    seats.write_text("client0 heur-1 client1 heur-2\n", encoding="utf-8")
    with pytest.raises(ArenaError, match="its client 'heur-1' names the agent heur"):
        ArenaServer(port=0, seating=read_seating(seats), agents=("heur", "ai4"))
    r = CliRunner().invoke(main, ["arena", "duplicate", "--a", "heur", "--b", "ai4", "--seed",
                                  "1f", "--boards", "1", "--port", "0", "--wait", "1",
                                  "--seating", str(seats), "--out", str(tmp_path)])
    assert r.exit_code == 1, r.output
    assert "table 1, position 1 to ai4" in r.output and "listening" not in r.output
    r = CliRunner().invoke(main, ["--lang", "zh", "arena", "duplicate", "--a", "heur", "--b",
                                  "ai4", "--seed", "1f", "--boards", "1", "--port", "0",
                                  "--wait", "1", "--seating", str(seats), "--out",
                                  str(tmp_path)])
    assert r.exit_code == 1 and "第1桌1号位给了 ai4" in r.output, r.output


def test_seated_by_order_an_agents_id_on_the_other_side_is_refused_before_play() -> None:
    async def main() -> None:
        async with ArenaServer(port=0, agents=("heur", "ai4"), by_order=True) as srv:
            tasks = []
            for who in ("client0", "heur-1", "client1", "heur-2"):
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(play_client(srv.url + who, connected=ready)))
                await ready.wait()
                await asyncio.sleep(0.05)
            table = await srv.next_table(10)
            try:
                with pytest.raises(ArenaError, match=r"1: heur-1 \(ai4\)"):
                    await play_duplicate_match(table, BOARDS, ("heur", "ai4"))
            finally:
                await table.close()
            await asyncio.gather(*tasks)

    asyncio.run(asyncio.wait_for(main(), 30))


def test_competition_ids_beside_named_clients_wait_and_the_hint_says_where(
        caplog: pytest.LogCaptureFixture) -> None:
    """An agent with hard-coded ids client1 and client2 beside one whose clients name it:
    neither id is given to heur (client1 would be A's by the competition's order); they
    wait, and the hint puts them at ai4's positions."""

    use_language("en")  # the log's language (a command line run before may have set zh)

    async def main() -> None:
        async with ArenaServer(port=0, agents=("heur", "ai4")) as srv:
            opened: list[object] = []
            held = [asyncio.create_task(_held(srv.url + i, opened))
                    for i in ("client1", "client2", "heur-1", "heur-2")]
            while len(opened) < 4:
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.1)
            assert srv._made == 0 and srv.waiting == 4  # no table: nobody credited wrongly
            for t in held:
                t.cancel()

    with caplog.at_level(logging.WARNING, logger="arena"):
        asyncio.run(asyncio.wait_for(main(), 30))
    hints = [r.getMessage() for r in caplog.records if "seating file" in r.getMessage()]
    assert hints and ": heur-1 client1 heur-2 client2 (ids that named no agent: client1 " \
        "client2)" in hints[-1], caplog.text


def test_a_competition_id_left_waiting_is_told_when_the_table_is_full() -> None:
    async def main() -> tuple[int | None, str | None]:
        async with ArenaServer(port=0, agents=("heur", "ai4")) as srv:
            stray = asyncio.create_task(_refused(srv.url + "client3"))
            while srv.waiting < 1:
                await asyncio.sleep(0.02)
            tasks = []
            for who in ("heur-1", "ai4-1", "heur-2", "ai4-2"):
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(play_client(srv.url + who, connected=ready)))
                await ready.wait()
            table = await srv.next_table(10)
            assert table.ids == ["heur-1", "ai4-1", "heur-2", "ai4-2"]
            told = await asyncio.wait_for(stray, 10)
            await table.close()
            await asyncio.gather(*tasks)
            return told

    code, reason = asyncio.run(asyncio.wait_for(main(), 30))
    assert code == 1008 and reason == "the tables are full"


def test_the_competitions_own_ids_are_seated_in_their_order_by_default() -> None:
    """client1..client4 (the sample clients' ids) connect in any order: 1 and 3 play for
    A, 2 and 4 for B, without a seating file."""

    async def main() -> None:
        async with ArenaServer(port=0, agents=("mine", "theirs")) as srv:
            assert srv.competition_ids
            tasks = []
            for who in ("client4", "client2", "client3", "client1"):
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(play_client(srv.url + who, connected=ready)))
                await ready.wait()
            table = await srv.next_table(10)
            assert [(c.id, c.agent) for c in table.clients] == [
                ("client1", "mine"), ("client2", "theirs"), ("client3", "mine"),
                ("client4", "theirs")]
            try:
                result = await play_duplicate_match(table, BOARDS, ("mine", "theirs"))
            finally:
                await table.close()
            await asyncio.gather(*tasks)
            assert result.deals == 2
        async with ArenaServer(port=0, agents=("mine", "theirs"), tables=2) as srv:
            assert not srv.competition_ids  # two tables: which four make the first?

    asyncio.run(asyncio.wait_for(main(), 60))


def test_the_start_says_the_competitions_ids_are_taken(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["arena", "duplicate", "--a", "mine", "--b", "theirs",
                                  "--seed", "1f", "--boards", "1", "--port", "0", "--wait",
                                  "0.2", "--out", str(tmp_path)])
    assert ("/game/client1 .. /game/client4: they are seated in that order, client1 and "
            "client3 for mine, client2 and client4 for theirs") in r.output, r.output


@pytest.mark.parametrize(("path", "client"), [
    ("/game/%E6%88%91%E7%9A%84AI", "我的AI"), ("/game/my%20AI", "my AI"),
    ("/game/gd/%E6%88%91", "我")])
def test_any_printable_id_is_a_client_id(path: str, client: str) -> None:
    parsed = parse_path(path)
    assert not isinstance(parsed, Phrase) and parsed.id == client


@pytest.mark.parametrize("path", ["/game/a%0Ab", "/game/a%2Fb", "/game/%FF", "/game/" + "x" * 65])
def test_what_the_refusal_says_is_the_rule(path: str) -> None:
    why = parse_path(path)
    assert isinstance(why, Phrase)
    assert "1-64 characters" in str(why) and "control character or /" in str(why)
    assert "letters" not in str(why)


def test_unicode_and_spaced_ids_play_by_a_seating_file(tmp_path: Path) -> None:
    seats = tmp_path / "seats.txt"
    seats.write_text('我的AI "their AI" 我的AI-2 "their AI 2"  # quoted: spaces\n',
                     encoding="utf-8")
    tables = read_seating(seats)
    assert tables == [["我的AI", "their AI", "我的AI-2", "their AI 2"]]

    async def main() -> None:
        async with ArenaServer(port=0, seating=tables, agents=("mine", "theirs")) as srv:
            tasks = []
            for who in ("their%20AI%202", "%E6%88%91%E7%9A%84AI-2", "their%20AI",
                        "%E6%88%91%E7%9A%84AI"):
                ready = asyncio.Event()
                tasks.append(asyncio.create_task(play_client(srv.url + who, connected=ready)))
                await ready.wait()
            table = await srv.next_table(10)
            assert table.ids == tables[0]
            try:
                result = await play_duplicate_match(table, BOARDS, ("mine", "theirs"))
            finally:
                await table.close()
            await asyncio.gather(*tasks)
            assert result.records[0].tags["NorthClient"] == "我的AI (mine)"
            assert result.records[0].tags["EastClient"] == "their AI (theirs)"

    asyncio.run(asyncio.wait_for(main(), 60))


def test_the_sample_clients_connect_in_order_with_the_default_seating() -> None:
    async def main() -> None:
        async with ArenaServer(port=0, agents=("a", "b")) as srv:
            clients = asyncio.create_task(play_four(srv.url))
            table = await srv.next_table(10)
            assert table.agents == ["a", "b", "a", "b"]
            await table.close()
            await clients

    asyncio.run(asyncio.wait_for(main(), 30))


def _ws4py_refused(url: str) -> tuple[list[int], list[str], list[str]]:
    """A threaded ws4py client (the sample clients' library), refused at once: the close
    code and reason it was told, and any exception that killed it."""
    from ws4py.client.threadedclient import WebSocketClient  # type: ignore[import-untyped]

    codes: list[int] = []
    reasons: list[str] = []
    errors: list[str] = []

    class Client(WebSocketClient):  # type: ignore[misc]
        def closed(self, code: int, reason: object = None) -> None:
            codes.append(code)
            reasons.append(reason.decode() if isinstance(reason, bytes) else str(reason or ""))

    ws = Client(url)
    try:
        ws.connect()
        ws.run_forever()
    except Exception as exc:  # noqa: BLE001 (what kills a sample client's thread)
        errors.append(repr(exc))
    return codes, reasons, errors


def test_a_refused_ws4py_client_reads_its_reason() -> None:
    """Refused at once, the close frame used to come in the same read as the handshake's
    answer now and then (1 or 2 of 40 on loopback): the client then saw 1006, no reason."""

    async def main() -> list[tuple[list[int], list[str], list[str]]]:
        async with ArenaServer(port=0, agents=("mine", "theirs")) as srv:
            return [await asyncio.to_thread(_ws4py_refused, srv.url + who)
                    for who in ["a%0Ab"] * 40 + ["nobody"] * 5]

    for codes, reasons, errors in asyncio.run(asyncio.wait_for(main(), 120)):
        assert not errors
        assert codes == [1008], (codes, reasons)
        assert reasons[0].startswith(("connect to /game/<id>", "the id names no agent"))
