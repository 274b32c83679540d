"""The arena's WebSocket server: clients connect, are seated at tables of four, are asked.

``ws://HOST:PORT/game/<id>`` (default port 23456, PROTOCOL.md §1), text frames of one JSON
object each, built on the ``websockets`` package and asyncio: messages are handed over as
they are parsed (:class:`arena.connection.ArenaConnection`), no reader task, no thread. The
server only seats and talks; what a table plays is the caller's (``arena.duplicate_match``,
``arena.ordinary``), through :meth:`Table.ask` and :meth:`Table.tell_all`.

Seating: by connection order (the 1st client of a table is position 0, and so on), or by a
seating file whose every line names the four client ids of one table in position order;
a client the file does not name, or an id already connected, is refused (close 1008).

The stated rules (docs/ARENA.md "Faults"):

* **timeout** (no reply within the limit: 15 s, 40 s for the first lead of a deal),
  **malformed** reply (not JSON, not ``{"actIndex": i}``, not an integer) and
  **out-of-range** index: the server plays ``actionList[0]`` for the seat (PASS when
  following, the lowest single when leading; the first tribute card, the lowest return),
  logs the fault and tells all four seats with a ``notify``/``fault`` message. Play goes on.
* **dropped connection**: from then on every action of that seat is ``actionList[0]``; the
  deal is finished so, the others are told, and the match ends after that deal
  (the remaining boards are unfinished).
* **a message when not asked**: ignored and logged; more than ``max_unsolicited`` of them
  and the connection is closed (then as a dropped connection). Messages longer than
  ``max_message`` bytes close the connection (websockets' ``max_size``, close 1009). A
  client that stops reading its messages is dropped once a send has waited the action
  time limit.

A client only ever blocks its own table: every connection reads on its own and every
wait is bounded by a time limit.

Notices (``notify``) to a client are queued and written together with the next message it
must act on, or at the end of the deal: one write, hence one system call and one wake-up,
for several frames. The order of a client's messages is unchanged, and every notice
reaches it before its next ``act``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve

from arena.connection import ArenaConnection, ArenaError, Client, Fault, Limits, text_frame
from arena.protocol import dumps

__all__ = [
    "DEFAULT_PORT",
    "ArenaError",
    "ArenaServer",
    "Client",
    "Fault",
    "Limits",
    "Table",
    "log_writer",
    "read_seating",
]

log = logging.getLogger("arena")

#: the port the agents' launch scripts expect (PROTOCOL.md §1)
DEFAULT_PORT = 23456
PATH_PREFIX = "/game/"


@dataclass(slots=True)
class Table:
    """Four seated clients (index = protocol position ``myPos``) and what they did wrong."""

    clients: list[Client]
    limits: Limits
    faults: list[Fault] = field(default_factory=list)
    where: str = ""
    messages: int = 0
    #: called with (position, frame) for every frame sent: a table log (``--log``)
    log: Callable[[int, str], None] | None = None
    _dropped: set[int] = field(default_factory=set)

    @property
    def ids(self) -> list[str]:
        """The client ids by position."""
        return [c.id for c in self.clients]

    @property
    def broken(self) -> bool:
        """True once a client has dropped: the match ends after the current deal."""
        return bool(self._dropped) or any(c.gone for c in self.clients)

    def fault(self, pos: int, kind: str, detail: str) -> Fault:
        """Record and log a fault."""
        f = Fault(pos, self.clients[pos].id, kind, detail, self.where)
        self.faults.append(f)
        log.warning("fault: %s", f.text())
        return f

    def note_unsolicited(self, client: Client, msg: str | bytes) -> None:
        """A message sent when not asked: logged, ignored."""
        shown = msg[:40] if isinstance(msg, str) else repr(msg[:40])
        if client.unsolicited <= 3 or client.unsolicited == client.limits.max_unsolicited:
            self.fault(client.pos, "unsolicited", f"message when not asked, ignored: {shown!r}")

    async def tell(self, pos: int, message: dict[str, Any]) -> None:
        """Queue a message to one position (sent with its next ``act`` or :meth:`flush`)."""
        self.messages += 1
        text = dumps(message)
        if self.log is not None:
            self.log(pos, text)
        self.clients[pos].queue(text)

    async def tell_all(self, message: dict[str, Any] | str) -> None:
        """Queue the same message (or its JSON text) to all four positions (encoded once)."""
        text = message if isinstance(message, str) else dumps(message)
        frame = text_frame(text)
        self.messages += 4
        for c in self.clients:
            if self.log is not None:
                self.log(c.pos, text)
            c.queue_frame(frame)

    async def flush(self) -> None:
        """Send everything queued, to every position (at the end of a deal or a match)."""
        for c in self.clients:
            await c.flush()

    async def ask(self, pos: int, message: dict[str, Any] | str, limit: float,
                  index_range: int | None = None) -> int:
        """Ask ``pos`` to act (``message``, or its JSON text with ``index_range``); the
        index to play (0 after a fault, see the module doc)."""
        client = self.clients[pos]
        self.messages += 2
        if isinstance(message, str):
            text = message
            assert index_range is not None
        else:
            index_range = int(message["indexRange"])
            text = dumps(message)
        if self.log is not None:
            self.log(pos, text)
        answer = await client.ask(text, index_range, limit)
        if isinstance(answer, int):
            return answer
        kind, detail = answer
        if kind == "disconnected":
            if pos in self._dropped:
                return 0
            self._dropped.add(pos)
        self.fault(pos, kind, detail)
        await self.tell_all(
            {"type": "notify", "stage": "fault", "pos": pos, "fault": kind, "detail": detail,
             "actIndex": 0}
        )
        return 0

    async def close(self, reason: str = "game over") -> None:
        """Send what is queued, then close every connection."""
        await self.flush()
        await asyncio.gather(*(c.close(reason) for c in self.clients))


def log_writer(path: str | Path) -> tuple[Callable[[int, str], None], Callable[[], None]]:
    """A table log to ``path``: one JSON line ``{"pos": p, "message": {...}}`` a frame, as
    :mod:`arena.openguandan` reads back; returns the writer and its closer."""
    f = Path(path).open("w", encoding="utf-8")

    def write(pos: int, text: str) -> None:
        f.write(f'{{"pos":{pos},"message":{text}}}\n')

    return write, f.close


def read_seating(path: str | Path) -> list[list[str]]:
    """A seating file: each line four client ids (positions 0..3) of one table; ``#``
    starts a comment. An id may appear once."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ArenaError(f"cannot read seating file {str(path)!r}: {exc.strerror}") from None
    tables: list[list[str]] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        ids = line.split("#", 1)[0].split()
        if not ids:
            continue
        if len(ids) != 4:
            raise ArenaError(f"{path}:{n}: a table is four client ids, found {len(ids)}")
        for i in ids:
            if i in seen:
                raise ArenaError(f"{path}:{n}: client id {i!r} is seated twice")
            seen.add(i)
        tables.append(ids)
    if not tables:
        raise ArenaError(f"{path}: the seating file names no table")
    return tables


class ArenaServer:
    """The WebSocket server and its lobby; :meth:`next_table` hands out full tables."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        limits: Limits | None = None,
        seating: Sequence[Sequence[str]] | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.seating = [list(t) for t in seating] if seating else None
        self._waiting: list[Client] = []  # connection order (no seating file)
        self._seated: dict[str, Client] = {}  # by id (seating file)
        self._tables: asyncio.Queue[Table] = asyncio.Queue()
        self._server: Server | None = None
        self.started = 0.0

    async def start(self) -> None:
        """Listen; with port 0 the system picks a free port (``self.port`` then tells it)."""
        self._server = await serve(
            self._handle,
            self.host,
            self.port,
            max_size=self.limits.max_message,
            max_queue=4,
            compression=None,
            ping_interval=None,
            create_connection=ArenaConnection,
        )
        sock = next(iter(self._server.sockets))
        self.port = int(sock.getsockname()[1])
        self.started = time.monotonic()
        log.info("arena listening on ws://%s:%d%s<id>", self.host, self.port, PATH_PREFIX)

    @property
    def url(self) -> str:
        """The base URL clients append their id to."""
        return f"ws://{self.host}:{self.port}{PATH_PREFIX}"

    @property
    def waiting(self) -> int:
        """Clients connected and not yet at a table."""
        if self.seating is None:
            return sum(not c.gone for c in self._waiting)
        return sum(not c.gone for c in self._seated.values())

    async def wait_for_clients(self, n: int, timeout: float = 30.0) -> None:
        """Wait until ``n`` clients are in the lobby (to launch clients in position order)."""
        deadline = time.monotonic() + timeout
        while self.waiting < n:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.waiting} of {n} clients connected")
            await asyncio.sleep(0.02)

    async def next_table(self, timeout: float | None = None) -> Table:
        """Wait for four clients to make a table (``TimeoutError`` after ``timeout`` s)."""
        return await asyncio.wait_for(self._tables.get(), timeout)

    async def close(self) -> None:
        """Stop listening and close every connection."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> ArenaServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _handle(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request is not None else ""
        if not path.startswith(PATH_PREFIX) or len(path) == len(PATH_PREFIX):
            await ws.close(1008, "connect to /game/<id>")
            return
        client_id = path[len(PATH_PREFIX):][:64]
        assert isinstance(ws, ArenaConnection)
        client = Client(ws, client_id, self.limits)
        refused = self._seat(client)
        if refused:
            log.warning("refused client %s: %s", client.id, refused)
            await ws.close(1008, refused)
            return
        await client.run()

    def _seat(self, client: Client) -> str:
        """Put a new client in the lobby and start a table when four are there; the reason
        when the client is refused ("" when seated)."""
        if self.seating is None:
            self._waiting = [c for c in self._waiting if not c.gone]
            self._waiting.append(client)
            if len(self._waiting) == 4:
                self._make_table(self._waiting)
                self._waiting = []
            return ""
        table = next((t for t in self.seating if client.id in t), None)
        old = self._seated.get(client.id)
        if table is None:
            return "not in the seating file"
        if old is not None and not old.gone:
            return "id already connected"
        self._seated[client.id] = client
        if all(i in self._seated and not self._seated[i].gone for i in table):
            self._make_table([self._seated.pop(i) for i in table])
        return ""

    def _make_table(self, clients: list[Client]) -> None:
        table = Table(list(clients), self.limits)
        for pos, c in enumerate(clients):
            c.pos = pos
            c.table = table
        log.info("table seated: %s", " ".join(table.ids))
        self._tables.put_nowait(table)
