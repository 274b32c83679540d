"""The arena's own WebSocket paths, written for speed: the agent's blocking Sans-I/O
client (arena.wsclient) against the real arena and against hand-made servers, the
server's messages handed over from data_received (ArenaConnection), the frames it builds
itself and the cached action texts."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from protocol_client import play_client
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import Frame, Opcode

from duplicate.arena.agent import play_agent, run_agent
from duplicate.arena.connection import text_frame
from duplicate.arena.duplicate_match import play_duplicate_match
from duplicate.arena.protocol import action_json, action_of
from duplicate.arena.server import ArenaServer, Limits
from duplicate.dealing import generate_boards
from duplicate.simulate import simulation_key
from engine.cards import parse_cards
from engine.moves import legal_plays

TIMEOUT = 60


def test_four_agents_in_threads_play_a_match() -> None:
    """Four agents (run_agent: the blocking client in worker threads) play a whole match
    against the arena in the same process: every episode, the game's end, a clean close."""
    boards = list(generate_boards(simulation_key(b"\x21"), 2))

    async def main() -> tuple[Any, list[Any]]:
        async with ArenaServer(port=0) as srv:
            agents = []
            for i in range(4):
                agents.append(asyncio.create_task(
                    run_agent(f"{srv.url}a{i}", "heuristic" if i % 2 else "random", str(i))))
                if i < 3:
                    await srv.wait_for_clients(i + 1, 20)
            table = await srv.next_table(20)
            try:
                result = await play_duplicate_match(table, boards, ("x", "y"))
            finally:
                await table.close()
            return result, list(await asyncio.gather(*agents))

    result, stats = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert result.deals == 4 and not result.faults
    for s in stats:
        assert s.episodes == 4 and s.games == 1 and s.acts > 0 and s.fallbacks == 0


async def _one_off_server(handler: Any) -> tuple[Any, str]:
    server = await serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None)
    port = next(iter(server.sockets)).getsockname()[1]
    return server, f"ws://127.0.0.1:{port}/game/x"


def test_pings_fragments_and_binary_frames() -> None:
    """The client answers a ping, joins a fragmented message, reads a binary one, and ends
    cleanly on the server's close."""
    replies: list[Any] = []

    async def handler(ws: ServerConnection) -> None:
        await ws.ping(b"hi")
        begin = json.dumps({"type": "notify", "stage": "beginning", "myPos": 2})
        await ws.send([begin[:10], begin[10:20], begin[20:]])  # three fragments
        act = {"type": "act", "stage": "tribute", "actionList": [["tribute", "tribute",
               ["SA"]]], "indexRange": 0}
        await ws.send(json.dumps(act).encode())  # binary
        replies.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        await ws.send(json.dumps({"type": "notify", "stage": "episodeOver"}))
        await ws.send(json.dumps({"type": "notify", "stage": "gameResult"}))
        await ws.close(1000, "game over")

    async def main() -> Any:
        server, url = await _one_off_server(handler)
        async with server:
            return await run_agent(url, connect_timeout=5)

    stats = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    assert replies == [{"actIndex": 0}]
    assert (stats.messages, stats.acts, stats.episodes, stats.games) == (4, 1, 1, 1)


def test_a_lost_connection_is_an_error() -> None:
    """The server drops the TCP connection without a closing handshake: 1006."""

    async def handler(ws: ServerConnection) -> None:
        await ws.send(json.dumps({"type": "notify", "stage": "beginning", "myPos": 0}))
        ws.transport.abort()

    async def main() -> None:
        server, url = await _one_off_server(handler)
        async with server:
            await run_agent(url, connect_timeout=5)

    with pytest.raises(ConnectionError, match="1006"):
        asyncio.run(asyncio.wait_for(main(), TIMEOUT))


def test_the_opening_handshake_has_a_time_limit() -> None:
    """A listener that never answers the handshake: ConnectionError after the limit."""

    async def main() -> float:
        async def mute(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await asyncio.sleep(30)

        server = await asyncio.start_server(mute, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            t0 = time.monotonic()
            with pytest.raises(ConnectionError, match="cannot connect"):
                await run_agent(f"ws://127.0.0.1:{port}/game/x", connect_timeout=0.5)
            return time.monotonic() - t0

    assert asyncio.run(asyncio.wait_for(main(), TIMEOUT)) < 5


def test_urls_that_are_not_websocket_urls() -> None:
    with pytest.raises(ConnectionError, match="cannot connect"):
        play_agent("http://127.0.0.1:1/game/x", connect_timeout=1)


def test_server_takes_fragmented_and_odd_replies() -> None:
    """ArenaConnection joins a fragmented reply, counts a message sent before the client is
    seated, and takes a reply that is not UTF-8 as malformed."""
    boards = list(generate_boards(simulation_key(b"\x22"), 1))
    modes: list[str] = []

    async def odd_client(url: str) -> None:
        async with connect(url, compression=None, ping_interval=None, max_size=2**24) as ws:
            await ws.send('{"early": 1}')  # before the table exists: not asked
            async for text in ws:
                msg = json.loads(text)
                if msg.get("type") != "act":
                    continue
                modes.append("act")
                if len(modes) == 1:
                    await ws.send(b'{"actIndex": \xff}', text=True)  # not UTF-8
                elif len(modes) == 2:
                    await ws.send(['{"actIn', 'dex": 0}'])  # two fragments
                else:
                    await ws.send('{"actIndex": 0}')

    async def main() -> Any:
        async with ArenaServer(port=0, limits=Limits(action=2, first_lead=2)) as srv:
            clients: list[asyncio.Task[Any]] = [asyncio.create_task(odd_client(f"{srv.url}odd"))]
            for i in range(3):
                await srv.wait_for_clients(i + 1, 20)
                clients.append(asyncio.create_task(play_client(f"{srv.url}c{i}", i)))
            table = await srv.next_table(20)
            try:
                result = await play_duplicate_match(table, boards, ("a", "b"))
            finally:
                await table.close()
            await asyncio.gather(*clients)
            return result, table

    result, table = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    kinds = [f.kind for f in result.faults]
    assert kinds == ["malformed"]  # the fragmented reply was read: no timeout
    odd = table.clients[0]
    assert odd.unsolicited == 1  # the early message, counted (no table to tell yet)
    assert result.deals == 2 and odd.received == len(modes) + 1


def test_text_frame_is_what_websockets_writes() -> None:
    for text in ("", "x", "é" * 40, "y" * 125, "z" * 126, "w" * 65535, "v" * 65536):
        assert text_frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(
            mask=False, extensions=[])


def test_cached_action_texts_are_the_json_of_the_actions() -> None:
    hands = ["SB SB HR HR S5 H5 C5 D5 H9", "HR HR S3 S4 S5 S6 S7 H7 SA DA CA",
             "S2 S2 H2 C2 D2 D2 ST SJ SQ SK SA"]
    for hand in hands:
        for level in (0, 3, 12):
            for play in [None, *legal_plays(parse_cards(hand), level, None)]:
                text = action_json(play)
                assert text == json.dumps(action_of(play), separators=(",", ":"))
                assert action_json(play) is text


def test_agent_reads_the_arenas_act_without_parsing_actionlist() -> None:
    """split_act + choose on the actionList's text answer what the parsed message does,
    when following (PASS first) and leading; other writings are parsed whole."""
    from duplicate.arena.agent import AgentStats, choose, split_act
    from duplicate.arena.protocol import act_text, legal_options
    from duplicate.policies import make_player
    from engine.combo import ComboType
    from engine.reading import read_declared

    tokens = "S3 H3 S4 S5 C5 D6 S7 S8 S9 ST HJ HQ SK SA SB HR"
    hand = parse_cards(tokens)
    for to_beat in (None, read_declared(parse_cards("D4"), 0, ComboType.SINGLE, 2),
                    read_declared(parse_cards("D9 C9"), 0, ComboType.PAIR, 7)):
        plays = legal_options(hand, 0, to_beat)
        leading = to_beat is None
        message = {"type": "act", "stage": "play", "handCards": tokens.split(), "publicInfo": [
            {"rest": 27, "playArea": None}] * 4, "selfRank": "2", "oppoRank": "2",
            "curRank": "2", "curPos": -1 if leading else 1,
            "curAction": [None] * 3 if leading else action_of(to_beat),
            "greaterPos": -1 if leading else 1,
            "greaterAction": [None] * 3 if leading else action_of(to_beat)}
        data = act_text(message, plays).encode()
        split = split_act(data)
        assert split is not None and "actionList" not in split[0]
        for policy in ("heuristic", "random"):
            for seed in "123":
                whole = choose(make_player(policy, seed), json.loads(data), 0, AgentStats())
                part = choose(make_player(policy, seed), split[0], 0, AgentStats(), split[1])
                assert whole == part
    assert split_act(b'{"type": "act", "stage": "play", "actionList": []}') is None


# --- the client's own frame reading: a server written byte by byte ---------------------

def _frame(payload: bytes, first: int = 0x81, mask: bool = False) -> bytes:
    n = len(payload)
    size = bytes([n]) if n < 126 else (bytes([126]) + n.to_bytes(2, "big") if n < 65536
                                      else bytes([127]) + n.to_bytes(8, "big"))
    if mask:
        return bytes([first, size[0] | 0x80]) + size[1:] + b"\0\0\0\0" + payload
    return bytes([first]) + size + payload


def _raw_server(script: Any, with_response: bytes = b"") -> tuple[str, Any]:
    """A one-connection WebSocket server on a plain socket: it answers the handshake (and
    writes ``with_response`` in the same write), then ``script(conn)`` writes what it
    likes; the thread ends when the script returns."""
    import base64
    import hashlib
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def run() -> None:
        conn, _ = listener.accept()
        with conn:
            request = b""
            while b"\r\n\r\n" not in request:
                request += conn.recv(4096)
            key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                       if line.lower().startswith(b"sec-websocket-key:"))
            accept = base64.b64encode(hashlib.sha1(
                key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
                         + with_response)
            script(conn)
        listener.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return f"ws://127.0.0.1:{listener.getsockname()[1]}/game/x", thread


def _read_frame(conn: Any) -> tuple[int, bytes]:
    """One frame from the client (masked, short): its first byte and unmasked payload."""
    head = conn.recv(2)
    n = head[1] & 0x7F
    key = conn.recv(4)
    data = b""
    while len(data) < n:
        data += conn.recv(n - len(data))
    return head[0], bytes(b ^ key[i % 4] for i, b in enumerate(data))


def test_frames_cut_anywhere_between_reads_and_control_frames_in_between() -> None:
    """Frames that come with the handshake response, frames split across reads at every
    kind of place (inside a header, a 16-bit length, a payload), a ping and a fragmented
    message between whole ones: all in order."""
    from duplicate.arena.wsclient import WSClient

    big = b"y" * 70000
    got: list[tuple[int, bytes]] = []

    def script(conn: Any) -> None:
        stream = (_frame(b"one")[1:] + _frame(b"two" * 100) + _frame(b"hi", 0x89)  # a ping
                  + _frame(b"thr", 0x01) + _frame(b"ee", 0x80)  # text in two fragments
                  + _frame(big) + _frame(b"four", 0x82))
        for cut in (1, 3, 5, 30, 340, 360, 380, 70000):
            conn.sendall(stream[:cut])
            stream = stream[cut:]
            time.sleep(0.01)
        conn.sendall(stream + _frame(b"\x03\xe8bye", 0x88))  # close 1000
        got.append(_read_frame(conn))  # the pong
        got.append(_read_frame(conn))  # the close echoed; then the server closes TCP

    url, thread = _raw_server(script, with_response=_frame(b"zero") + b"\x81")
    client = WSClient(url, max_size=1 << 20)
    client.open(5)
    assert list(client.messages()) == [b"zero", b"one", b"two" * 100, b"three", big, b"four"]
    thread.join(5)
    assert got == [(0x8A, b"hi"), (0x88, b"\x03\xe8bye")]
    assert (client.close_code, client.close_reason) == (1000, "bye")


@pytest.mark.parametrize("bad", [
    _frame(b"x", mask=True),  # a server must not mask
    b"\x81\x7f" + (1 << 40).to_bytes(8, "big"),  # over the size limit: refused at once
    _frame(b"x", 0xC1),  # a reserved bit without an extension
    _frame(b"a", 0x01) + _frame(b"b"),  # a new message inside a fragmented one
])
def test_frames_the_protocol_refuses_end_the_connection(bad: bytes) -> None:
    from duplicate.arena.wsclient import WSClient

    closes: list[int] = []

    def script(conn: Any) -> None:
        conn.sendall(_frame(b"ok") + bad)
        first, payload = _read_frame(conn)  # the client fails the connection: a close frame
        closes.append(int.from_bytes(payload[:2], "big") if first == 0x88 else -1)

    url, thread = _raw_server(script)
    client = WSClient(url, max_size=1 << 20)
    client.open(5)
    assert list(client.messages()) == [b"ok"]
    thread.join(5)
    assert closes and closes[0] in (1002, 1009)
    assert client.close_code == 1006  # no close frame came back


# --- the server's own frame reading: a client written byte by byte -----------------------

async def _raw_client(url: str, with_request: bytes = b"") -> tuple[Any, Any]:
    """A WebSocket client on a plain asyncio stream: the handshake (and ``with_request`` in
    the same write), then the caller writes frames."""
    import base64
    import os

    host, port = url.split("//")[1].split("/")[0].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    key = base64.b64encode(os.urandom(16))
    writer.write(b"GET /game/raw HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key + b"\r\n"
                 b"Sec-WebSocket-Version: 13\r\n\r\n" + with_request)
    await reader.readuntil(b"\r\n\r\n")
    return reader, writer


class _Seen:
    """A stand-in table: what the server's Client hands over as unsolicited."""

    def __init__(self) -> None:
        self.messages: list[str | bytes] = []

    def note_dropped(self, client: Any, kind: str, msg: str | bytes) -> None:
        assert kind == "unsolicited"
        self.messages.append(msg)


@pytest.mark.parametrize("early", [False, True])
def test_server_reads_frames_cut_anywhere_and_control_frames(early: bool) -> None:
    """Masked frames cut across writes, a ping, a fragmented message, a binary one, a text
    that is not UTF-8; with ``early`` a frame comes in the same write as the handshake
    request (then the protocol reads everything)."""

    async def main() -> tuple[list[str | bytes], bytes, int]:
        async with ArenaServer(port=0) as srv:
            first = _frame(b"zero", mask=True) if early else b""
            reader, writer = await _raw_client(srv.url, first)
            await srv.wait_for_clients(1, 10)
            seen = _Seen()
            client = srv._waiting[0]
            client.table = seen  # type: ignore[assignment]
            stream = (_frame(b"one", mask=True) + _frame(b"t" * 300, mask=True)
                      + _frame(b"hi", 0x89, mask=True) + _frame(b"thr", 0x01, mask=True)
                      + _frame(b"ee", 0x80, mask=True) + _frame(b"\x00\x01", 0x82, mask=True)
                      + _frame(b"\xff", mask=True))
            for cut in (1, 2, 5, 40, 300, 1000):
                writer.write(stream[:cut])
                stream = stream[cut:]
                await writer.drain()
                await asyncio.sleep(0.01)
            pong = await asyncio.wait_for(reader.readexactly(4), 10)
            for _ in range(100):
                if client.received >= 5 + early:
                    break
                await asyncio.sleep(0.01)
            writer.close()
            return seen.messages, pong, client.received

    messages, pong, received = asyncio.run(asyncio.wait_for(main(), TIMEOUT))
    # "zero" came before the stand-in table: counted, not shown to it
    assert messages == ["one", "t" * 300, "three", b"\x00\x01", b"\xff"]
    assert received == 5 + early and pong == b"\x8a\x02hi"


def test_server_fails_an_unmasked_frame() -> None:
    async def main() -> bytes:
        async with ArenaServer(port=0) as srv:
            reader, writer = await _raw_client(srv.url)
            await srv.wait_for_clients(1, 10)
            writer.write(_frame(b"not masked"))
            close = await asyncio.wait_for(reader.readexactly(4), 10)
            writer.close()
            return bytes(close)

    assert asyncio.run(asyncio.wait_for(main(), TIMEOUT))[2:] == (1002).to_bytes(2, "big")
