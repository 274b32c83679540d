"""A blocking WebSocket client on ``websockets``' Sans-I/O layer, for :mod:`duplicate.arena.agent`.

One socket, no event loop: :meth:`WSClient.messages` reads (``recv``), feeds
:class:`websockets.client.ClientProtocol` and yields each whole message's bytes;
:meth:`WSClient.send_text` writes a frame with one ``sendall``. An agent only answers what
it is asked, so nothing has to happen while it waits: a blocking ``recv`` costs one system
call and one wake-up a message batch, where an asyncio connection ran its event loop, a
reader task and futures (docs/ARENA.md "Speed"). Pings are answered, fragmented messages
joined, the closing handshake completed as RFC 6455 asks of a client.
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Iterator

from websockets.client import ClientProtocol
from websockets.exceptions import InvalidHandshake
from websockets.frames import Frame, Opcode
from websockets.protocol import Event, State
from websockets.uri import parse_uri

__all__ = ["ClosedInHandshake", "WSClient", "frame_header"]


class ClosedInHandshake(InvalidHandshake):
    """The server closed the connection before answering the opening handshake."""

    def __init__(self) -> None:
        super().__init__("the server closed the connection")

#: how long the client waits for the server to close TCP after the closing handshake
CLOSE_TIMEOUT = 10.0
_RECV = 65536


def frame_header(buf: bytes, at: int) -> tuple[int, int] | None:
    """The header length and payload length of the frame starting at ``at`` (RFC 6455
    §5.2); ``None`` when ``buf`` does not hold all of its header yet."""
    if len(buf) - at < 2:
        return None
    second = buf[at + 1]
    size, head = second & 0x7F, 2
    if size == 126:
        if len(buf) - at < 4:
            return None
        size, head = int.from_bytes(buf[at + 2:at + 4], "big"), 4
    elif size == 127:
        if len(buf) - at < 10:
            return None
        size, head = int.from_bytes(buf[at + 2:at + 10], "big"), 10
    if second & 0x80:
        head += 4  # a masking key (a server must not mask: the protocol refuses it)
    return head, size


class WSClient:
    """A client connection: :meth:`open` it, read :meth:`messages`, :meth:`send_text`.

    ``close_code``/``close_reason`` say how it ended (1006 when the connection was lost
    without a closing handshake). Errors of the opening: ``OSError`` (``TimeoutError``
    included), :class:`websockets.exceptions.InvalidURI`, ``InvalidHandshake``.
    """

    def __init__(self, url: str, max_size: int | None = 2**20) -> None:
        self.uri = parse_uri(url)
        self.protocol = ClientProtocol(self.uri, max_size=max_size)
        self.max_size = max_size if max_size is not None else 1 << 63
        self.sock: socket.socket | None = None
        self._rest = b""  # bytes that came after the handshake response
        self._parts: list[bytes] = []

    def open(self, timeout: float) -> None:
        """Connect and complete the opening handshake within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        sock = socket.create_connection((self.uri.host, self.uri.port), timeout=timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.uri.secure:
                sock = ssl.create_default_context().wrap_socket(
                    sock, server_hostname=self.uri.host)
            self.sock = sock
            self.protocol.send_request(self.protocol.connect())
            self._write()
            head: bytes | None = b""  # the response's head: no byte past it to the protocol
            while self.protocol.state is State.CONNECTING:
                sock.settimeout(max(deadline - time.monotonic(), 0.001))
                data = sock.recv(_RECV)
                if not data:
                    self.protocol.receive_eof()
                elif head is None:  # past the head: the body of a refusal
                    self.protocol.receive_data(data)
                else:
                    head += data
                    cut = head.find(b"\r\n\r\n") + 4
                    if cut < 4 and len(head) <= _RECV:
                        continue
                    if cut < 4:  # no end of the head in sight: the protocol refuses it
                        cut = len(head)
                    self.protocol.receive_data(head[:cut])
                    if self.protocol.state is State.CONNECTING:
                        self.protocol.receive_data(head[cut:])
                    else:  # open: the frames that came with the response are messages()'s
                        self._rest = head[cut:]
                    head = None
                self._write()
                if self.protocol.handshake_exc is not None:
                    raise self.protocol.handshake_exc
                if not data and self.protocol.state is State.CONNECTING:
                    raise ClosedInHandshake()
            sock.settimeout(None)
        except BaseException:
            sock.close()
            self.sock = None
            raise
        self.protocol.events_received()  # the handshake response

    @property
    def close_code(self) -> int | None:
        """The close code received (1006: lost); ``None`` while open."""
        return self.protocol.close_code

    @property
    def close_reason(self) -> str | None:
        """The close reason received."""
        return self.protocol.close_reason

    def messages(self) -> Iterator[bytes]:
        """Every data message, text or binary, as bytes, until the connection closes; the
        socket is closed at the end (also when the caller stops early).

        Whole unfragmented data frames, nearly every frame a game server sends, are cut
        out of the bytes received here (RFC 6455 §5.2: a header, then the payload); every
        other frame (control frames, fragments, a masked frame, one over the size limit)
        goes to the protocol, whole and in order, and so does everything once it is no
        longer open. The protocol's frame parser was a quarter of the agent's CPU time."""
        protocol = self.protocol
        sock = self.sock
        assert sock is not None, "open() first"
        limit = self.max_size
        buf, self._rest = self._rest, b""  # not yet handed on: at most the start of a frame
        fragmented = False  # a fragmented message is going through the protocol
        raw = False  # everything goes to the protocol from here on
        try:
            while True:
                at = 0
                while at < len(buf):
                    if raw or protocol.state is not State.OPEN:
                        raw = True
                        protocol.receive_data(buf[at:])
                        self._write()
                        yield from self._data(protocol.events_received())
                        at = len(buf)
                        break
                    header = frame_header(buf, at)
                    if header is None:
                        break  # the rest of a header to come
                    head, size = header
                    if size > limit:
                        raw = True  # the protocol refuses it (1009) without waiting for it
                        continue
                    end = at + head + size
                    if end > len(buf):
                        break  # the rest of the payload to come
                    first = buf[at]
                    if (first == 0x81 or first == 0x82) and not fragmented \
                            and not buf[at + 1] & 0x80:
                        yield buf[at + head:end]  # FIN, text or binary, not masked
                    else:
                        if first & 0x0F <= 2:  # a data frame: continuation, text, binary
                            fragmented = not first & 0x80
                        protocol.receive_data(buf[at:end])
                        self._write()
                        yield from self._data(protocol.events_received())
                    at = end
                buf = buf[at:]
                if protocol.state is State.CLOSED:
                    return
                if protocol.close_expected():
                    sock.settimeout(CLOSE_TIMEOUT)
                try:
                    data = sock.recv(_RECV)
                except OSError:  # reset by the peer, or no TCP close after the handshake
                    data = b""
                if not data:
                    protocol.receive_eof()  # a frame cut short here ends as it would there
                    self._write()
                    yield from self._data(protocol.events_received())
                    buf = b""
                    continue
                buf = buf + data if buf else data
        finally:
            self.close()

    def _data(self, events: list[Event]) -> Iterator[bytes]:
        """The data messages among the protocol's events (fragments joined)."""
        parts = self._parts
        for event in events:
            if not isinstance(event, Frame):
                continue
            opcode = event.opcode
            if opcode is Opcode.TEXT or opcode is Opcode.BINARY or opcode is Opcode.CONT:
                parts.append(bytes(event.data))
                if event.fin:
                    data = b"".join(parts)
                    parts.clear()
                    yield data

    def send_text(self, text: str) -> None:
        """Send one text frame (a lost connection shows as the end of :meth:`messages`)."""
        self.protocol.send_text(text.encode())
        self._write()

    def close(self) -> None:
        """Close the socket (no closing handshake)."""
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def _write(self) -> None:
        sock = self.sock
        for chunk in self.protocol.data_to_send():
            if sock is None:
                return
            try:
                if chunk:
                    sock.sendall(chunk)
                else:  # SEND_EOF: half-close
                    sock.shutdown(socket.SHUT_WR)
            except OSError:
                return  # the reader sees the end of the connection
