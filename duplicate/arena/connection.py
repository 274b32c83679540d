"""One client connection of the arena: its messages handed over as they are parsed.

:class:`ArenaConnection` is ``websockets``' server connection with its data messages handed
to a callback as they are parsed, in ``data_received``: no message queue and no reader
task, so a reply wakes the table's task at once (one event loop iteration an action
instead of three: docs/ARENA.md "Speed"). :class:`Limits` are a table's time, size and
fallback limits (seeds/004 rule 4), :class:`Fault` a client's fault;
:class:`duplicate.arena.client.Client` is one seat's client over its successive connections.
"""

from __future__ import annotations

import gc
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import Event, State

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover (websockets built without its C extension)
    from websockets.utils import apply_mask

from duplicate.arena.messages import text
from duplicate.arena.wsclient import frame_header
from duplicate.errors import DuplicateError
from duplicate.i18n import Phrase, phrase
from duplicate.policies import POLICIES

__all__ = ["ArenaConnection", "ArenaError", "Fault", "Limits", "text_frame", "tune_gc"]

log = logging.getLogger("arena")

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
    #: consecutive timeouts after which the seat goes to the fallback for the rest of the
    #: deal and the client is dropped (docs/ARENA.md "Escalation")
    escalate_after: int = 3
    #: seconds a deal waits at its start for a seat whose client is gone to come back
    reconnect: float = 30.0
    #: the bot policy (``duplicate.bots``) that plays a seat whose client is gone
    fallback: str = "heuristic"
    #: send the ``notify``/``fault`` notice to every client (else only to those that ask)
    notices: bool = False

    def __post_init__(self) -> None:
        if self.action <= 0 or self.first_lead <= 0 or self.reconnect < 0:
            raise ArenaError(phrase("rest.arena.err.limits_time"))
        if self.max_message < 64:
            raise ArenaError(phrase("rest.arena.err.message_size"))
        if self.escalate_after < 1:
            raise ArenaError(phrase("rest.arena.err.fallback_after"))

        if self.fallback not in POLICIES:
            raise ArenaError(phrase("rest.arena.err.fallback", policy=repr(self.fallback),
                                    choices=", ".join(POLICIES)))


@dataclass(frozen=True, slots=True)
class Fault:
    """A client's fault: ``kind`` is ``timeout``, ``malformed``, ``range``, ``stale``,
    ``unsolicited``, ``escalated``, ``disconnected`` or ``forfeit``; ``where`` says board
    and room when known."""

    pos: int
    client: str
    kind: str
    detail: str
    where: str = ""
    #: the detail and the place as the catalogue words them (None: as ``detail``, ``where``)
    said: Phrase | None = None
    where_said: Phrase | None = None

    def text(self) -> str:
        """One line for records, notices and ``--json`` (English, as the protocol's)."""
        at = f" ({self.where})" if self.where else ""
        return f"position {self.pos} ({self.client}): {self.kind}{at}: {self.detail}"

    def line(self, lang: str) -> str:
        """The arena's log line of the fault in ``lang`` (``fault: position 1 (c1): ...``)."""
        values: dict[str, object] = {
            "pos": self.pos, "client": self.client,
            "kind": text(f"fault.kind.{self.kind}", lang),
            "detail": self.said.text(lang) if self.said is not None else self.detail}
        where = self.where_said.text(lang) if self.where_said is not None else self.where
        if not where:
            return text("fault.line", lang, **values)
        return text("fault.line_at", lang, where=where, **values)


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


