"""A blocking WebSocket client on ``websockets``' Sans-I/O layer, for :mod:`arena.agent`.

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
from websockets.http11 import Response
from websockets.protocol import Event, State
from websockets.uri import parse_uri

__all__ = ["WSClient"]

#: how long the client waits for the server to close TCP after the closing handshake
CLOSE_TIMEOUT = 10.0
_RECV = 65536


class WSClient:
    """A client connection: :meth:`open` it, read :meth:`messages`, :meth:`send_text`.

    ``close_code``/``close_reason`` say how it ended (1006 when the connection was lost
    without a closing handshake). Errors of the opening: ``OSError`` (``TimeoutError``
    included), :class:`websockets.exceptions.InvalidURI`, ``InvalidHandshake``.
    """

    def __init__(self, url: str, max_size: int | None = 2**20) -> None:
        self.uri = parse_uri(url)
        self.protocol = ClientProtocol(self.uri, max_size=max_size)
        self.sock: socket.socket | None = None
        self._pending: list[Event] = []

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
            while self.protocol.state is State.CONNECTING:
                sock.settimeout(max(deadline - time.monotonic(), 0.001))
                data = sock.recv(_RECV)
                if data:
                    self.protocol.receive_data(data)
                else:
                    self.protocol.receive_eof()
                self._write()
                self._pending += self.protocol.events_received()
                if self.protocol.handshake_exc is not None:
                    raise self.protocol.handshake_exc
                if not data and self.protocol.state is State.CONNECTING:
                    raise InvalidHandshake("the server closed the connection")
            sock.settimeout(None)
        except BaseException:
            sock.close()
            self.sock = None
            raise
        # frames that came with the handshake response wait for messages()
        self._pending = [e for e in self._pending if not isinstance(e, Response)]

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
        socket is closed at the end (also when the caller stops early)."""
        protocol = self.protocol
        sock = self.sock
        assert sock is not None, "open() first"
        parts: list[bytes] = []
        try:
            events, self._pending = self._pending, []
            while True:
                events += protocol.events_received()
                for event in events:
                    if not isinstance(event, Frame):
                        continue
                    opcode = event.opcode
                    if opcode is Opcode.TEXT or opcode is Opcode.BINARY or opcode is Opcode.CONT:
                        data = bytes(event.data)  # bytes already: the same object
                        if event.fin and not parts:
                            yield data
                        elif event.fin:
                            parts.append(data)
                            data, parts = b"".join(parts), []
                            yield data
                        else:
                            parts.append(data)
                events = []
                if protocol.state is State.CLOSED:
                    return
                if protocol.close_expected():
                    sock.settimeout(CLOSE_TIMEOUT)
                try:
                    data = sock.recv(_RECV)
                except OSError:  # reset by the peer, or no TCP close after the handshake
                    data = b""
                if data:
                    protocol.receive_data(data)
                else:
                    protocol.receive_eof()
                self._write()
        finally:
            self.close()

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
