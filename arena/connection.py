"""One client connection of the arena: its messages, its queue of frames, its questions.

:class:`ArenaConnection` is ``websockets``' server connection with its data messages handed
to a callback as they are parsed, in ``data_received``: no message queue and no reader
task, so a reply wakes the table's task at once (one event loop iteration an action
instead of three: docs/ARENA.md "Speed"). :class:`Client` wraps it: the callback hands the
awaited reply to :meth:`Client.ask` and counts the messages sent when not asked; frames are
queued and written together (:meth:`Client.flush`). :class:`Limits` are a table's time and size
limits (seeds/004 rule 4), :class:`Fault` a client's fault. The rules applied to faults are
in :mod:`arena.server`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import Event, State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (websockets built without its C extension)
    from websockets.utils import apply_mask

from arena.protocol import ProtocolError, parse_reply
from arena.wsclient import frame_header
from duplicate.errors import DuplicateError

if TYPE_CHECKING:
    from arena.server import Table

__all__ = ["ArenaConnection", "ArenaError", "Client", "Fault", "Limits", "text_frame",
           "tune_gc"]

log = logging.getLogger("arena")

#: bytes waiting in a connection's send buffer above which a send is given a time limit
_BACKLOG = 16 * 1024
_LEN16 = struct.Struct("!BBH")
_LEN64 = struct.Struct("!BBQ")


def text_frame(text: str) -> bytes:
    """``text`` as one unmasked, unfragmented WebSocket text frame (RFC 6455 §5.2), as a
    server sends it without extensions (compression is off): built once for the four
    clients of a notice instead of once per client by the connection's protocol."""
    data = text.encode()
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return _LEN16.pack(0x81, 126, n) + data
    return _LEN64.pack(0x81, 127, n) + data


def tune_gc() -> None:
    """Fewer garbage collections in a long-running arena or agent process: what is loaded
    so far (modules, tables) is frozen out of the collector, and a collection runs after
    20,000 allocations instead of 700. Every action allocates thousands of short-lived
    objects (messages, plays) and the default thresholds made collections cost several
    milliseconds a deal (bench/bench_arena.py); cycles are still collected."""
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


class ArenaError(DuplicateError):
    """The arena cannot do what was asked (a bad seating file, no table, a bad board set)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Time and size limits of a table (seeds/004 rule 4: 40 s for a deal's first card,
    15 s for every later play)."""

    action: float = 15.0
    first_lead: float = 40.0
    max_message: int = 4096
    max_unsolicited: int = 100

    def __post_init__(self) -> None:
        if self.action <= 0 or self.first_lead <= 0:
            raise ArenaError("time limits must be positive")
        if self.max_message < 64:
            raise ArenaError("the message size limit must be at least 64 bytes")


@dataclass(frozen=True, slots=True)
class Fault:
    """A client's fault: ``kind`` is ``timeout``, ``malformed``, ``range``,
    ``unsolicited`` or ``disconnected``; ``where`` says board and room when known."""

    pos: int
    client: str
    kind: str
    detail: str
    where: str = ""

    def text(self) -> str:
        """One line for logs and records."""
        at = f" ({self.where})" if self.where else ""
        return f"position {self.pos} ({self.client}): {self.kind}{at}: {self.detail}"


class ArenaConnection(ServerConnection):
    """A server connection whose data messages go to a callback (:meth:`listen`) from
    ``data_received``; text frames as ``str`` (``bytes`` when not UTF-8), binary as
    ``bytes``. Messages that come before :meth:`listen` are kept for it.

    Once open, whole unfragmented masked data frames (every reply of a client) are cut
    out of the bytes received here; every other frame goes to ``websockets``' protocol,
    whole and in order, and so does everything once the connection is not open, or when
    bytes followed the handshake request in the same read (the protocol may then hold part
    of a frame)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._early: list[str | bytes] = []
        self._callback: Callable[[str | bytes], None] = self._early.append
        self._parts: list[bytes] = []
        self._binary = False
        self._buf = b""  # received and not yet handed on: at most the start of a frame
        self._fragmented = False  # a fragmented message is going through the protocol
        self._synced = False  # the last read of the handshake ended with the request
        self._raw = False  # everything goes to the protocol

    def listen(self, callback: Callable[[str | bytes], None]) -> None:
        """Hand every message, from now on and the ones kept so far, to ``callback``."""
        self._callback = callback
        early, self._early = self._early, []
        for msg in early:
            callback(msg)

    def data_received(self, data: bytes) -> None:
        if self._raw:
            super().data_received(data)
            return
        if self.protocol.state is State.CONNECTING:
            self._synced = data.endswith(b"\r\n\r\n")
            super().data_received(data)
            return
        if not self._synced:
            self._raw = True
            super().data_received(data)
            return
        buf = self._buf + data if self._buf else data
        limit = self.protocol.max_message_size
        at = 0
        while at < len(buf):
            if self._raw or self.protocol.state is not State.OPEN:
                self._raw = True
                super().data_received(buf[at:])
                at = len(buf)
                break
            header = frame_header(buf, at)
            if header is None:
                break  # the rest of a header to come
            head, size = header
            if limit is not None and size > limit:
                self._raw = True  # the protocol refuses it (1009) without waiting for it
                continue
            end = at + head + size
            if end > len(buf):
                break  # the rest of the payload to come
            first = buf[at]
            if (first == 0x81 or first == 0x82) and buf[at + 1] & 0x80 and not self._fragmented:
                self._deliver(apply_mask(buf[at + head:end], buf[at + head - 4:at + head]),
                              first == 0x82)  # FIN, text or binary, masked
            else:
                if first & 0x0F <= 2:  # a data frame: continuation, text, binary
                    self._fragmented = not first & 0x80
                super().data_received(buf[at:end])
            at = end
        self._buf = buf[at:]

    def process_event(self, event: Event) -> None:
        if self.request is None or not isinstance(event, Frame):
            super().process_event(event)  # the handshake request
            return
        opcode = event.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            self._binary = opcode is Opcode.BINARY
        elif opcode is not Opcode.CONT:
            super().process_event(event)  # control frames
            return
        data = bytes(event.data)  # the protocol checked sizes and fragment order
        if not event.fin:
            self._parts.append(data)
            return
        if self._parts:
            self._parts.append(data)
            data, self._parts = b"".join(self._parts), []
        self._deliver(data, self._binary)

    def _deliver(self, data: bytes, binary: bool) -> None:
        if binary:
            self._callback(data)
            return
        try:
            self._callback(data.decode())
        except UnicodeDecodeError:
            self._callback(data)  # not UTF-8: a malformed reply


class _Expired(Exception):
    """The time limit of a question passed (set on its future by the timer)."""


def _expire(fut: asyncio.Future[str | bytes]) -> None:
    if not fut.done():
        fut.set_exception(_Expired())


class Client:
    """One connection: its messages go to the awaiting :meth:`ask`, or are counted."""

    def __init__(self, ws: ArenaConnection, client_id: str, limits: Limits) -> None:
        self.ws = ws
        self.id = client_id
        self.limits = limits
        self.pos = -1
        self.table: Table | None = None
        self.closed = asyncio.Event()
        self.unsolicited = 0
        self.received = 0
        self.sent = 0
        self._waiting: asyncio.Future[str | bytes] | None = None
        self._out: list[bytes] = []
        self._closing: asyncio.Task[None] | None = None

    async def run(self) -> None:
        """Take the connection's messages until it closes (the connection handler's body)."""
        try:
            self.ws.listen(self._received)
            await self.ws.wait_closed()
        finally:
            self.closed.set()
            waiting = self._waiting
            if waiting is not None and not waiting.done():
                waiting.cancel()

    def _received(self, msg: str | bytes) -> None:
        """A message (called from the connection's ``data_received``)."""
        self.received += 1
        waiting = self._waiting
        if waiting is not None and not waiting.done():
            waiting.set_result(msg)
            return
        if self._closing is not None:
            return
        self.unsolicited += 1
        if self.table is not None:
            self.table.note_unsolicited(self, msg)
        if self.unsolicited > self.limits.max_unsolicited:
            log.warning("closing %s: more than %d messages when not asked",
                        self.id, self.limits.max_unsolicited)
            self._closing = asyncio.get_running_loop().create_task(
                self.ws.close(1008, "too many messages when not asked"))

    @property
    def gone(self) -> bool:
        """True once the connection has closed."""
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
        if not out or self.closed.is_set():
            return
        ws = self.ws
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
                log.warning("dropping %s: it has not read its messages for %g s",
                            self.id, self.limits.action)
                ws.transport.abort()
                self.closed.set()

    async def send(self, text: str) -> None:
        """Send one frame now (with anything queued before it)."""
        self.queue(text)
        await self.flush()

    async def ask(self, text: str, index_range: int, limit: float) -> int | tuple[str, str]:
        """Send an ``act`` and wait for the reply: its index, or ``(kind, detail)`` of a fault."""
        if self.closed.is_set():
            return ("disconnected", "the connection is closed")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[str | bytes] = loop.create_future()
        self._waiting = fut
        # a timer on the future itself rather than asyncio.wait_for: one wake-up of the
        # table's task a reply instead of two (wait_for waits on a second future, set by a
        # callback of the first)
        timer: asyncio.TimerHandle | None = None
        try:
            await self.send(text)
            timer = loop.call_later(limit, _expire, fut)
            try:
                msg = await fut
            except _Expired:
                return ("timeout", f"no reply within {limit:g} s")
            except asyncio.CancelledError:
                if self.closed.is_set():
                    return ("disconnected", "the connection closed while asked to act")
                raise
        finally:
            if timer is not None:
                timer.cancel()
            self._waiting = None
        try:
            return parse_reply(msg, index_range)
        except ProtocolError as exc:
            kind = "range" if "out of range" in str(exc) else "malformed"
            return (kind, str(exc))

    async def close(self, reason: str = "game over") -> None:
        """Close the connection (normal closure)."""
        with contextlib.suppress(Exception):
            await self.ws.close(1000, reason)
