"""One seat's client over its successive connections: its questions, its replies, its frames.

A :class:`Client` is made when an id first connects and stays the seat's for the match; a
connection that closes leaves it ``gone`` and a new connection with the same id takes it
back (:meth:`Client.attach`). Frames are queued and written together (:meth:`Client.flush`).

**One answer, one question** (docs/ARENA.md "One answer, one question"). The protocol carries no
question number, but it says a client answers each ``act`` once, in order, and nothing
else; so the arena counts: on one connection, the *k*-th reply answers the *k*-th
question. A reply counted to a question that is no longer open (it timed out) is
**stale**: dropped and counted, never applied to a later question. A reply when every
question of the connection has had its reply is **unsolicited**: dropped and counted (it
does not move the count); more than ``max_unsolicited`` and the connection is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from websockets.protocol import State

from duplicate.arena.connection import ArenaConnection, Limits, text_frame
from duplicate.arena.messages import said
from duplicate.arena.protocol import ProtocolError, parse_reply
from duplicate.i18n import Phrase, engine_phrase, phrase


class Table(Protocol):
    """The table a client sits at, as the client and the lobby see it
    (:class:`duplicate.arena.table.Table`): whether its match is over, a client back, a
    reply dropped."""

    over: bool

    def rejoined(self, client: Client) -> None: ...

    def note_dropped(self, client: Client, kind: str, msg: str | bytes) -> None: ...

__all__ = ["Client", "DROP_TIMEOUTS"]

log = logging.getLogger("arena")

#: bytes waiting in a connection's send buffer above which a send is given a time limit
_BACKLOG = 16 * 1024
#: the close code of a client dropped after timeouts (RFC 6455 §7.4.2: 4000-4999 private)
DROP_TIMEOUTS = 4000


class _Expired(Exception):
    """The time limit of a question passed (set on its future by the timer)."""


def _expire(fut: asyncio.Future[str | bytes]) -> None:
    if not fut.done():
        fut.set_exception(_Expired())


class Client:
    """A seat's client: ``id`` (from its URL), ``agent`` (when the seating knows it),
    ``pos`` once seated; its current connection ``ws`` (``None`` between connections)."""

    def __init__(self, ws: ArenaConnection | None, client_id: str, limits: Limits,
                 agent: str = "", notices: bool = False) -> None:
        self.ws = ws
        self.id = client_id
        self.agent = agent
        self.limits = limits
        #: this client asked for the ``fault`` notices (``?notices=fault`` in its URL)
        self.notices = notices
        self.pos = -1
        self.table: Table | None = None
        self.closed = asyncio.Event()
        if ws is None:
            self.closed.set()
        self.connections = 1 if ws is not None else 0
        self.unsolicited = 0
        self.stale = 0
        self.received = 0
        self.sent = 0
        self.timeouts_in_row = 0
        #: why the arena dropped the current connection ("" when it did not; English as
        #: ``str()``, the close frame's reason)
        self.dropped_for: str | Phrase = ""
        self._asked = 0  # questions sent on the current connection
        self._answered = 0  # replies counted to them
        self._waiting: asyncio.Future[str | bytes] | None = None
        self._out: list[bytes] = []
        self._closing: asyncio.Task[None] | None = None

    def attach(self, ws: ArenaConnection, notices: bool) -> None:
        """A new connection of this id takes the seat back (the old one is closed)."""
        self.ws = ws
        self.notices = notices
        self.closed = asyncio.Event()
        self.connections += 1
        self.dropped_for = ""
        self._asked = self._answered = 0
        self._out = []
        self._closing = None

    async def run(self, ws: ArenaConnection) -> None:
        """Take the connection's messages until it closes (the connection handler's body)."""
        closed = self.closed
        try:
            ws.listen(lambda msg: self._received(ws, msg))
            await ws.wait_closed()
        finally:
            closed.set()
            waiting = self._waiting
            if self.ws is ws and waiting is not None and not waiting.done():
                waiting.cancel()

    def _received(self, ws: ArenaConnection, msg: str | bytes) -> None:
        """A message (called from the connection's ``data_received``)."""
        if ws is not self.ws:
            return  # a connection this seat no longer uses
        self.received += 1
        if self._answered < self._asked:
            self._answered += 1
            waiting = self._waiting
            if self._answered == self._asked and waiting is not None and not waiting.done():
                waiting.set_result(msg)
                return
            self.stale += 1  # the reply to a question whose time ran out
            if self.table is not None:
                self.table.note_dropped(self, "stale", msg)
            return
        if self._closing is not None:
            return
        self.unsolicited += 1
        if self.table is not None:
            self.table.note_dropped(self, "unsolicited", msg)
        if self.unsolicited > self.limits.max_unsolicited:
            log.warning("%s", said("log.flooding", id=self.id, n=self.limits.max_unsolicited))
            self._closing = asyncio.get_running_loop().create_task(
                ws.close(1008, "too many messages when not asked"))

    @property
    def gone(self) -> bool:
        """True while the seat has no open connection."""
        return self.closed.is_set()

    def queue(self, text: str) -> None:
        """Queue a frame; it goes out with the next :meth:`flush` (the client's next ``act``,
        or the end of the deal), all queued frames in one write."""
        if not self.closed.is_set():
            self._out.append(text_frame(text))

    def queue_frame(self, frame: bytes) -> None:
        """Queue a frame built by :func:`text_frame` (the same bytes for several clients)."""
        if not self.closed.is_set():
            self._out.append(frame)

    async def flush(self) -> None:
        """Write every queued frame at once; a closed connection is ignored (:meth:`run`
        notices it); a client that does not read its messages is dropped once the wait for
        its buffer has lasted the action time limit."""
        out, self._out = self._out, []
        ws = self.ws
        if not out or self.closed.is_set() or ws is None:
            return
        if ws.protocol.state is not State.OPEN:
            self.closed.set()
            return
        # the frames go to the transport directly: the protocol's state is OPEN, and it
        # sends only control frames of its own (a pong, a close), never in a data message
        ws.transport.write(b"".join(out))
        self.sent += len(out)
        if ws.transport.get_write_buffer_size() >= _BACKLOG:
            try:
                await asyncio.wait_for(ws.drain(), self.limits.action)
            except TimeoutError:
                why = phrase("arena.fault.unread", s=f"{self.limits.action:g}")
                log.warning("%s", said("log.dropping", id=self.id, why=why))
                self.dropped_for = why
                ws.transport.abort()
                self.closed.set()

    async def send(self, text: str) -> None:
        """Send one frame now (with anything queued before it)."""
        self.queue(text)
        await self.flush()

    async def ask(self, text: str, index_range: int,
                  limit: float) -> int | tuple[str, str | Phrase]:
        """Send an ``act`` and wait for its reply: its index, or ``(kind, detail)`` of a
        fault (``timeout``, ``malformed``, ``range``, ``disconnected``), the detail a
        catalogue phrase (English as ``str()``)."""
        if self.closed.is_set():
            return ("disconnected", self.dropped_for or phrase("arena.fault.closed"))
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[str | bytes] = loop.create_future()
        self._waiting = fut
        self._asked += 1
        # a timer on the future itself rather than asyncio.wait_for: one wake-up of the
        # table's task a reply instead of two (wait_for waits on a second future, set by a
        # callback of the first)
        timer: asyncio.TimerHandle | None = None
        try:
            await self.send(text)
            if self.closed.is_set():
                return ("disconnected", self.dropped_for or phrase("arena.fault.closed"))
            timer = loop.call_later(limit, _expire, fut)
            try:
                msg = await fut
            except _Expired:
                return ("timeout", phrase("arena.fault.no_reply", s=f"{limit:g}"))
            except asyncio.CancelledError:
                if self.closed.is_set():
                    return ("disconnected", phrase("arena.fault.closed_asked"))
                raise
        finally:
            if timer is not None:
                timer.cancel()
            self._waiting = None
        try:
            return parse_reply(msg, index_range)
        except ProtocolError as exc:
            kind = "range" if exc.key == "arena.proto.index_range" else "malformed"
            said = engine_phrase(exc)
            return (kind, said if isinstance(said, Phrase) else str(exc))

    def drop(self, code: int, reason: str | Phrase) -> None:
        """Close the connection, telling the client why (``code``, ``reason``); the seat
        is gone at once, the closing handshake runs on its own (a client that does not
        answer it is cut off after a second)."""
        ws = self.ws
        self.dropped_for = reason
        if ws is None or self.closed.is_set():
            return
        self.closed.set()
        waiting = self._waiting
        if waiting is not None and not waiting.done():
            waiting.cancel()

        async def close() -> None:
            try:
                await asyncio.wait_for(ws.close(code, str(reason)[:120]), 1.0)
            except Exception:  # noqa: BLE001 (no closing handshake: cut it off)
                if ws.transport is not None:
                    ws.transport.abort()

        self._closing = asyncio.get_running_loop().create_task(close())

    async def close(self, reason: str = "game over") -> None:
        """Close the connection (normal closure)."""
        if self.ws is None:
            return
        with contextlib.suppress(Exception):
            await self.ws.close(1000, reason)


class SilentClient:
    """A stand-in for a seat's client whose messages go nowhere: a :class:`Table` of four
    plays without sockets (the socket-free measure of ``bench/bench_arena.py``, tests)."""

    def __init__(self, pos: int) -> None:
        self.pos, self.id, self.gone, self.agent = pos, f"c{pos}", False, ""
        self.timeouts_in_row = self.stale = self.unsolicited = 0

    def queue(self, text: str) -> None:
        """Drop a message."""

    def queue_frame(self, frame: bytes) -> None:
        """Drop a frame."""

    async def flush(self) -> None:
        """Nothing to send."""
