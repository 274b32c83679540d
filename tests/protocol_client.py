"""A Guandan AI protocol client written from docs/spec/PROTOCOL.md alone, for the arena tests.

It shares no code with ``arena/``: it speaks dialect C over the ``websockets`` client,
checks that every server message has the fields PROTOCOL.md §4 gives it, answers each
``act`` with an index (a seeded random one by default, or per a ``mode`` that misbehaves
on purpose) and keeps what it saw: its position, its hands, every ``notify play`` and
``episodeOver``, and any ``fault`` notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

CARD_RANKS = "23456789TJQKA"
TYPES = {"Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight",
         "StraightFlush", "Bomb", "PASS", "tribute", "back"}


def is_card(tok: Any) -> bool:
    """A card token per PROTOCOL.md §2."""
    if tok in ("SB", "HR"):
        return True
    return isinstance(tok, str) and len(tok) == 2 and tok[0] in "SHCD" and tok[1] in CARD_RANKS


@dataclass
class Episode:
    """One episode as a client saw it."""

    pos: int
    hand: list[str]
    cur_rank: int
    plays: list[tuple[int, list[Any]]] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    rest: list[Any] = field(default_factory=list)


@dataclass
class Seen:
    """Everything one client saw."""

    episodes: list[Episode] = field(default_factory=list)
    acts: int = 0
    faults: list[dict[str, Any]] = field(default_factory=list)
    game_over: bool = False
    game_result: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    closed_code: int | None = None


def check_act(msg: dict[str, Any], seen: Seen) -> None:
    """The fields of an ``act`` message (PROTOCOL.md §4)."""
    actions = msg.get("actionList")
    if not isinstance(actions, list) or not actions:
        seen.problems.append(f"act without actionList: {msg}")
        return
    if msg.get("indexRange") != len(actions) - 1:
        seen.problems.append("indexRange is not len(actionList) - 1")
    for a in actions:
        if not (isinstance(a, list) and len(a) == 3 and a[0] in TYPES):
            seen.problems.append(f"bad action {a}")
        elif a[0] != "PASS" and not all(is_card(c) for c in a[2]):
            seen.problems.append(f"bad cards in {a}")
    if msg.get("stage") == "play":
        leading = msg.get("greaterPos") == -1
        if leading == (actions[0][0] == "PASS"):
            seen.problems.append("PASS must come first exactly when following")
        if any(a[0] == "PASS" for a in actions[1:]):
            seen.problems.append("PASS after the first entry")
        for key in ("handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos",
                    "curAction", "greaterPos", "greaterAction"):
            if key not in msg:
                seen.problems.append(f"act play without {key}")
        if len(msg.get("publicInfo", [])) != 4:
            seen.problems.append("publicInfo is not 4 entries")
        keys = [json.dumps([a[0], a[1], sorted(a[2])]) for a in actions]
        if len(set(keys)) != len(keys):
            seen.problems.append("an actionList entry appears twice")


async def play_client(
    url: str,
    seed: int = 0,
    mode: str = "random",
    after: int = 0,
    connected: asyncio.Event | None = None,
) -> Seen:
    """Connect and play until the server closes. ``mode``: ``random`` (a random index),
    ``first`` (always 0), ``range`` (an index past indexRange from the ``after``-th act on),
    ``garbage`` (not JSON), ``silent`` (never answers), ``chatty`` (answers, and also
    sends a reply after every notify), ``drop`` (closes the socket at the first act after
    the ``after``-th that follows a play: mid-trick)."""
    rng = random.Random(seed)
    seen = Seen()
    episode: Episode | None = None
    async with connect(url, compression=None, ping_interval=None, max_size=2**24) as ws:
        if connected is not None:
            connected.set()
        try:
            async for text in ws:
                msg = json.loads(text)
                kind, stage = msg.get("type"), msg.get("stage")
                if kind == "act":
                    seen.acts += 1
                    check_act(msg, seen)
                    n = msg["indexRange"]
                    misbehave = seen.acts > after
                    if mode == "drop" and misbehave and msg.get("greaterPos", -1) != -1:
                        await ws.close()  # mid-trick: there is a play to beat
                        break
                    if mode == "silent" and misbehave:
                        continue
                    if mode == "garbage" and misbehave:
                        await ws.send("this is not JSON {")
                        continue
                    if mode == "range" and misbehave:
                        await ws.send(json.dumps({"actIndex": n + 5}))
                        continue
                    index = 0 if mode == "first" else rng.randint(0, n)
                    await ws.send(json.dumps({"actIndex": index}))
                elif stage == "beginning":
                    hand = msg["handCards"]
                    if len(hand) != 27 or not all(is_card(c) for c in hand):
                        seen.problems.append("beginning hand is not 27 cards")
                    if not isinstance(msg["curRank"], int):
                        seen.problems.append("beginning curRank is not an int")
                    episode = Episode(msg["myPos"], hand, msg["curRank"])
                    seen.episodes.append(episode)
                elif stage == "play" and kind == "notify":
                    if episode is None:
                        seen.problems.append("notify play before beginning")
                        continue
                    episode.plays.append((msg["curPos"], msg["curAction"]))
                    if mode == "chatty":
                        await ws.send(json.dumps({"actIndex": 0}))
                elif stage == "episodeOver":
                    if episode is None:
                        seen.problems.append("episodeOver before beginning")
                        continue
                    episode.order = msg["order"]
                    episode.rest = msg["restCards"]
                    if sorted(msg["order"]) != [0, 1, 2, 3]:
                        seen.problems.append(f"bad order {msg['order']}")
                elif stage == "fault":
                    seen.faults.append(msg)
                elif stage == "gameOver":
                    seen.game_over = True
                elif stage == "gameResult":
                    seen.game_result = msg
        except ConnectionClosed:
            pass
        seen.closed_code = ws.close_code
    return seen


async def play_four(url: str, modes: list[str] | None = None, seeds: list[int] | None = None,
                    after: int = 0, stagger: float = 0.05, prefix: str = "client") -> list[Seen]:
    """Four clients connecting in position order: each waits for the one before it to be
    connected (and a small pause, as the agents' launch scripts do)."""
    modes = modes or ["random"] * 4
    seeds = seeds or [1, 2, 3, 4]
    tasks = []
    for i in range(4):
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(
            play_client(f"{url}{prefix}{i + 1}", seeds[i], modes[i], after, ready)))
        await asyncio.wait_for(ready.wait(), 20)
        await asyncio.sleep(stagger)
    return list(await asyncio.gather(*tasks))


# --- the clients in the field (PROTOCOL.md §8b) -------------------------------------
#
# Three styles, each around one strict state parser as the competition's sample clients
# have: a ws4py threaded client (``received_message``), a websocket-client loop, an
# asyncio ``websockets`` client. The parser dispatches on (stage, type) and raises on any
# pair the competition's server never sends: in a real client that kills its thread.

#: the (stage, type) pairs the competition's server sends (PROTOCOL.md §3-4)
COMPETITION_PAIRS = {
    ("beginning", "notify"), ("play", "act"), ("tribute", "act"), ("back", "act"),
    ("play", "notify"), ("tribute", "notify"), ("back", "notify"),
    ("anti-tribute", "notify"), ("episodeOver", "notify"), ("gameOver", "notify"),
    ("gameResult", "notify"),
}
#: sent to a client only when it asked (``?notices=fault``)
NOTICE_PAIRS = {("fault", "notify")}


class UnexpectedMessage(Exception):
    """A message the client's state parser does not know (its thread dies)."""


@dataclass
class Behaviour:
    """How a field client answers. ``mode``: ``random``; ``slow`` (every answer ``delay``
    s after its act, within the limit); ``late`` (every ``every``-th act
    answered ``delay`` s after it came, the rest at once); ``silent`` (from the ``after``-th
    act on, never answers; reconnects when dropped); ``garbage`` / ``range`` (every
    ``every``-th act a reply that is not JSON / an index past ``indexRange``); ``drop``
    (at the ``after``-th act, closes the socket and connects again ``delay`` s later)."""

    mode: str = "random"
    every: int = 3
    after: int = 0
    delay: float = 0.0
    reconnects: int = 1


@dataclass
class FieldSeen:
    """What a field client saw and did, over all its connections."""

    errors: list[str] = field(default_factory=list)  # exceptions that would kill it
    acts: int = 0
    episodes: int = 0
    game_over: bool = False
    game_result: dict[str, Any] | None = None
    notices: list[dict[str, Any]] = field(default_factory=list)
    close_codes: list[int | None] = field(default_factory=list)
    close_reasons: list[str] = field(default_factory=list)
    connections: int = 0
    #: every play act answered in time or late: (actionList, index chosen, late?)
    answered: list[tuple[list[Any], int | None, bool]] = field(default_factory=list)
    #: plays the server announced for this client's seat, with the act they answer
    applied: list[tuple[list[Any], tuple[list[Any], int | None, bool] | None]] = field(
        default_factory=list)
    late_sent: int = 0
    beginnings: int = 0


class FieldCore:
    """The state parser and the answers of one field client (shared by the styles)."""

    DROP = "\x00drop"

    def __init__(self, seed: int, behaviour: Behaviour, notices: bool = False) -> None:
        self.rng = random.Random(seed)
        self.behaviour = behaviour
        self.notices = notices
        self.seen = FieldSeen()
        self.pos = -1
        self.pending: tuple[list[Any], int | None, bool] | None = None
        self.dropped = False

    def handle(self, text: str) -> list[tuple[float, str]]:
        """The replies to one message, each after a delay (s); raises as a strict parser
        does, after noting the error."""
        try:
            return self._handle(text)
        except Exception as exc:
            self.seen.errors.append(f"{type(exc).__name__}: {exc} in {text[:120]}")
            raise

    def _handle(self, text: str) -> list[tuple[float, str]]:
        msg = json.loads(text)
        key = (msg["stage"], msg["type"])
        if key in NOTICE_PAIRS and self.notices:
            self.seen.notices.append(msg)
            return []
        if key not in COMPETITION_PAIRS:
            raise UnexpectedMessage(f"unknown (stage, type) {key}")
        stage, kind = key
        if kind == "act":
            return self._act(msg)
        if stage == "beginning":
            self.pos = msg["myPos"]
            assert len(msg["handCards"]) == 27 and isinstance(msg["curRank"], int)
            self.seen.beginnings += 1
        elif stage == "play":
            if msg["curPos"] == self.pos:
                self.seen.applied.append((msg["curAction"], self.pending))
                self.pending = None
        elif stage in ("tribute", "back"):
            assert all(len(r) == 3 for r in msg["result"])
        elif stage == "anti-tribute":
            assert isinstance(msg["antiNums"], int) and isinstance(msg["antiPos"], list)
        elif stage == "episodeOver":
            assert sorted(msg["order"]) == [0, 1, 2, 3] or len(msg["order"]) == 4
            self.seen.episodes += 1
        elif stage == "gameOver":
            self.seen.game_over = True
        elif stage == "gameResult":
            assert len(msg["victoryNum"]) == 4
            self.seen.game_result = msg
        return []

    def _act(self, msg: dict[str, Any]) -> list[tuple[float, str]]:
        problems = Seen()
        check_act(msg, problems)
        if problems.problems:
            raise UnexpectedMessage("; ".join(problems.problems))
        self.seen.acts += 1
        b, n, actions = self.behaviour, self.seen.acts, msg["actionList"]
        index = self.rng.randint(0, msg["indexRange"])
        reply = json.dumps({"actIndex": index})
        play = msg["stage"] == "play"
        if b.mode == "drop" and n == b.after and not self.dropped:
            self.dropped = True
            return [(0.0, self.DROP)]
        if b.mode == "silent" and n >= b.after:
            return []
        if b.mode in ("garbage", "range") and n % b.every == 0:
            if play:
                self.pending = (actions, None, False)
            bad = "this is not JSON {" if b.mode == "garbage" else json.dumps(
                {"actIndex": msg["indexRange"] + 5})
            return [(0.0, bad)]
        late = b.mode == "late" and n % b.every == 0
        if play:
            self.pending = (actions, index, late)
            self.seen.answered.append(self.pending)
        if late:
            self.seen.late_sent += 1
        return [(b.delay if late or b.mode == "slow" else 0.0, reply)]


def ws4py_client(url: str, core: FieldCore) -> None:
    """A ws4py threaded client as the sample clients are written: everything happens in
    ``received_message`` on the client's own thread, slow answers block it."""
    from ws4py.client.threadedclient import WebSocketClient  # type: ignore[import-untyped]

    class Client(WebSocketClient):  # type: ignore[misc]
        def received_message(self, message: Any) -> None:
            data = message.data
            text = data.decode() if isinstance(data, bytes) else data
            for delay, reply in core.handle(text):
                if reply == FieldCore.DROP:
                    self.sock.shutdown(2)
                    self.sock.close()
                    return
                if delay:
                    time.sleep(delay)
                self.send(reply)

        def closed(self, code: int, reason: Any = None) -> None:
            core.seen.close_codes.append(code)
            core.seen.close_reasons.append(reason.decode() if isinstance(reason, bytes)
                                           else str(reason or ""))

    for _ in range(core.behaviour.reconnects + 1):
        ws = Client(url)
        ws.connect()
        core.seen.connections += 1
        try:
            ws.run_forever()
        except Exception:  # noqa: BLE001 (the thread would die: noted by the core)
            return
        if not _again(core):
            return
        time.sleep(core.behaviour.delay)


def websocket_client_loop(url: str, core: FieldCore) -> None:
    """A websocket-client (``websocket`` package) receive loop."""
    import websocket

    for _ in range(core.behaviour.reconnects + 1):
        ws = websocket.create_connection(url, timeout=30)
        core.seen.connections += 1
        try:
            while True:
                opcode, frame = ws.recv_data_frame(True)
                if opcode == websocket.ABNF.OPCODE_CLOSE:
                    data = frame.data or b""
                    core.seen.close_codes.append(
                        int.from_bytes(data[:2], "big") if len(data) >= 2 else None)
                    core.seen.close_reasons.append(data[2:].decode(errors="replace"))
                    break
                if opcode != websocket.ABNF.OPCODE_TEXT:
                    continue
                for delay, reply in core.handle(frame.data.decode()):
                    if reply == FieldCore.DROP:
                        raise ConnectionAbortedError
                    if delay:
                        time.sleep(delay)
                    ws.send(reply)
        except ConnectionAbortedError:
            pass
        except websocket.WebSocketConnectionClosedException:
            core.seen.close_codes.append(None)
        except Exception:  # noqa: BLE001 (a strict parser raised: the client dies)
            ws.close()
            return
        finally:
            if ws.sock is not None:
                with contextlib.suppress(Exception):
                    ws.sock.close()
        if not _again(core):
            return
        time.sleep(core.behaviour.delay)


async def asyncio_client(url: str, core: FieldCore) -> None:
    """An asyncio ``websockets`` client."""
    for _ in range(core.behaviour.reconnects + 1):
        async with connect(url, compression=None, ping_interval=None) as ws:
            core.seen.connections += 1
            try:
                async for text in ws:
                    assert isinstance(text, str)
                    replies = core.handle(text)
                    stop = False
                    for delay, reply in replies:
                        if reply == FieldCore.DROP:
                            stop = True
                            break
                        if delay:
                            await asyncio.sleep(delay)
                        await ws.send(reply)
                    if stop:
                        break
            except ConnectionClosed:
                pass
            except Exception:  # noqa: BLE001 (a strict parser raised: the client dies)
                return
            if ws.close_code is not None:
                core.seen.close_codes.append(ws.close_code)
                core.seen.close_reasons.append(ws.close_reason or "")
        if not _again(core):
            return
        await asyncio.sleep(core.behaviour.delay)


def _again(core: FieldCore) -> bool:
    """Connect again after this connection ended? (a drop, or a drop by the server of a
    client that restarts: the ``silent`` and ``drop`` behaviours), never after the game."""
    return not core.seen.game_over and core.behaviour.mode in ("silent", "drop")


STYLES = ("ws4py", "websocket-client", "asyncio")


async def run_field_client(style: str, url: str, core: FieldCore) -> FieldSeen:
    """Run one field client of ``style`` until its game ends (threads for the blocking
    styles, as those clients run)."""
    if style == "asyncio":
        await asyncio_client(url, core)
    elif style == "ws4py":
        await asyncio.to_thread(ws4py_client, url, core)
    else:
        await asyncio.to_thread(websocket_client_loop, url, core)
    return core.seen
