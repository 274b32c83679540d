"""The arena's WebSocket server: clients connect, are seated at tables of four, are asked.

``ws://HOST:PORT/game/<id>`` (default port 23456, PROTOCOL.md §1), text frames of one JSON
object each, built on the ``websockets`` package and asyncio: messages are handed over as
they are parsed (:class:`duplicate.arena.connection.ArenaConnection`), no reader task, no thread. The
server only seats and talks; what a table plays is the caller's (``duplicate.arena.duplicate_match``,
``duplicate.arena.ordinary``), through :class:`duplicate.arena.table.Table`, whose docstring states the rules
for faults.

Seating (:mod:`duplicate.arena.seating`): by a seating file, by the agent each id names, or by
connection order (only when no agents are named, or when asked for). Refused, with close
code 1008 and the reason: a path other than ``/game/<id>``, an id the seating does not
know, an id whose client is still connected, a client once every table is full. A client
whose id is seated and whose connection is gone takes its seat back (reconnection).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve

from duplicate.arena.client import Client
from duplicate.arena.connection import ArenaConnection, ArenaError, Fault, Limits
from duplicate.arena.messages import said
from duplicate.arena.seating import (
    COMPETITION_IDS,
    PATH_PREFIX,
    ClientPath,
    agent_of,
    check_seating_file,
    competition_agent,
    parse_path,
    read_seating,
    seating_help,
)
from duplicate.arena.table import Table
from duplicate.i18n import Phrase, phrase

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
#: Seconds between a table's seating and its first message. The last client seated may
#: have just connected: a threaded ws4py client (the competition's sample clients) that
#: reads its first message in the same read as the handshake's answer handles it on two
#: threads at once and dies ('NoneType' object has no attribute 'parser'); over a real
#: network the two never come together, on loopback they did once the game work was fast.
SETTLE = 0.05


def log_writer(path: str | Path) -> tuple[Callable[[int, str], None], Callable[[], None]]:
    """A table log to ``path``: one JSON line ``{"pos": p, "message": {...}}`` a frame, as
    :mod:`duplicate.arena.openguandan` reads back; a line for position -1 is the arena's
    own (``{"arena": ...}``: a room's tags) and is written as it is. Returns the writer
    and its closer."""
    f = Path(path).open("w", encoding="utf-8")

    def write(pos: int, text: str) -> None:
        f.write(f'{{"pos":{pos},"message":{text}}}\n' if pos >= 0 else f"{text}\n")

    return write, f.close


class ArenaServer:
    """The WebSocket server and its lobby; :meth:`next_table` hands out full tables.

    ``seating``: a seating file's tables (ids by position). ``agents``: the two agents'
    names (A at positions 0 and 2); without a seating file, each client's id must then
    name its agent (``mine-1``), unless ``by_order``. ``tables``: how many tables to seat
    (more clients are refused; ``None``: any number, seated by connection order).
    ``sock``: a socket already listening, served instead of ``host`` and ``port``."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        limits: Limits | None = None,
        seating: Sequence[Sequence[str]] | None = None,
        *,
        agents: tuple[str, str] | None = None,
        by_order: bool = False,
        tables: int | None = None,
        sock: socket.socket | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.seating = [list(t) for t in seating] if seating else None
        self.agents = agents
        self.by_agent = agents is not None and self.seating is None and not by_order
        self.tables = len(self.seating) if self.seating else tables
        if self.by_agent and self.tables is None:
            self.tables = 1
        if self.seating is not None and agents is not None:
            check_seating_file(self.seating, agents)
        self._waiting: list[Client] = []  # the lobby, in connection order
        self._by_id: dict[str, Client] = {}  # every client seated at a table
        self._made = 0
        self._tables: asyncio.Queue[Table] = asyncio.Queue()
        self._server: Server | None = None
        self.started = 0.0
        #: (id, reason) of every client refused
        self.refused: list[tuple[str, str]] = []
        #: called with each table as it is seated (to print the seating)
        self.on_table: Callable[[Table], None] | None = None
        #: the socket already listening on the port (:func:`duplicate.arena.port.take_port`)
        self.sock = sock

    async def start(self) -> None:
        """Listen; with port 0 the system picks a free port (``self.port`` then tells it)."""
        where: dict[str, Any] = (
            {"sock": self.sock} if self.sock is not None else {"host": self.host, "port": self.port})
        self._server = await serve(
            self._handle,
            **where,
            max_size=self.limits.max_message,
            max_queue=4,
            compression=None,
            ping_interval=None,
            create_connection=ArenaConnection,
        )
        sock = next(iter(self._server.sockets))
        self.port = int(sock.getsockname()[1])
        self.started = time.monotonic()
        log.info("%s", said("log.listening", url=f"ws://{self.host}:{self.port}{PATH_PREFIX}"))

    @property
    def url(self) -> str:
        """The base URL clients append their id to."""
        return f"ws://{self.host}:{self.port}{PATH_PREFIX}"

    @property
    def competition_ids(self) -> bool:
        """True when the competition's own ids (``client1`` .. ``client4``) are seated in
        their order by default: seating by the agents' ids at a single table."""
        return self.by_agent and self.tables == 1

    @property
    def waiting(self) -> int:
        """Clients connected and not yet at a table."""
        return sum(not c.gone for c in self._waiting)

    async def wait_for_clients(self, n: int, timeout: float = 30.0) -> None:
        """Wait until ``n`` clients are in the lobby (to launch clients in position order)."""
        deadline = time.monotonic() + timeout
        while self.waiting < n:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.waiting} of {n} clients connected")
            await asyncio.sleep(0.02)

    async def next_table(self, timeout: float | None = None) -> Table:
        """Wait for four clients to make a table (``TimeoutError`` after ``timeout`` s),
        then :data:`SETTLE` seconds before its first message."""
        table = await asyncio.wait_for(self._tables.get(), timeout)
        await asyncio.sleep(SETTLE)
        return table

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
        assert isinstance(ws, ArenaConnection)
        path = ws.request.path if ws.request is not None else ""
        parsed = parse_path(path)
        if isinstance(parsed, Phrase):
            await self._refuse(ws, path[:70], parsed)
            return
        client = self._seat(ws, parsed)
        if isinstance(client, Phrase):
            await self._refuse(ws, parsed.id, client)
            return
        await client.run(ws)

    async def _refuse(self, ws: ServerConnection, who: str, why: Phrase) -> None:
        self.refused.append((who, str(why)))
        log.warning("%s", said("refused", id=who, why=why))
        if self.by_agent and why.key == "arena.refuse.no_agent":
            self._hint()
        # a threaded ws4py client that reads the close frame in the same read as the
        # handshake's answer dies without its reason (as with a table's first message)
        await asyncio.sleep(SETTLE)
        await ws.close(1008, str(why)[:120])

    def _seat(self, ws: ArenaConnection, who: ClientPath) -> Client | Phrase:
        """The client of a new connection (a new one in the lobby, or a seated one back),
        or the reason it is refused (English as ``str()``, the close frame's reason)."""
        old = self._by_id.get(who.id)
        if old is not None:
            if not old.gone:
                return phrase("arena.refuse.connected")
            if old.table is not None and old.table.over:
                return phrase("arena.refuse.over")
            old.attach(ws, who.notices)
            if old.table is not None:
                old.table.rejoined(old)
            return old
        self._waiting = [c for c in self._waiting if not c.gone]
        if any(c.id == who.id for c in self._waiting):
            return phrase("arena.refuse.connected")
        if self.tables is not None and self._made >= self.tables:
            return phrase("arena.refuse.full" if self.seating is None else "arena.refuse.unseated")
        agent = ""
        if self.by_agent:
            assert self.agents is not None
            found = agent_of(who.id, self.agents)
            competition = (found is None and self.competition_ids
                           and competition_agent(who.id, self.agents) is not None)
            if found is None and not competition:
                return phrase("arena.refuse.no_agent", a=self.agents[0], b=self.agents[1])
            room = 2 * ((self.tables or 1) - self._made)  # its clients still to seat
            if found is not None and sum(c.agent == found for c in self._waiting) >= room:
                return phrase("arena.refuse.agent_full", agent=found)
            agent = found or ""  # a competition id: its agent once all four have come
        elif self.seating is not None and not any(who.id in t for t in self.seating):
            return phrase("arena.refuse.unseated")
        client = Client(ws, who.id, self.limits, agent, who.notices)
        self._waiting.append(client)
        self._try_tables()
        if self.by_agent and client.table is None and self._mixed():
            self._hint()
        return client

    def _competition_waiting(self) -> list[Client]:
        """The clients in the lobby with a competition id and no agent yet."""
        return [c for c in self._waiting if not c.agent and not c.gone]

    def _mixed(self) -> bool:
        """Clients named by their agents and competition ids wait together: neither set
        may make the table, the seating hint says how to seat them."""
        return bool(self._competition_waiting()) and any(c.agent for c in self._waiting)

    def _hint(self) -> None:
        """Log how to seat the clients that came: the ids naming an agent at its positions,
        the others (refused, or competition ids waiting) where they can only be."""
        assert self.agents is not None
        accepted = {c.id: c.agent for c in [*self._by_id.values(), *self._waiting]
                    if c.agent and not c.gone}
        unknown = [i for i, w in self.refused if w == self._no_agent]
        unknown += [c.id for c in self._competition_waiting()]
        log.warning("%s", seating_help(self.agents, accepted, unknown))

    @property
    def _no_agent(self) -> str:
        assert self.agents is not None
        return str(phrase("arena.refuse.no_agent", a=self.agents[0], b=self.agents[1]))

    def _try_tables(self) -> None:
        """Seat every table whose four clients are in the lobby."""
        lobby = self._waiting
        if self.seating is not None:
            here = {c.id: c for c in lobby}
            for ids in self.seating:
                if all(i in here for i in ids):
                    self._make_table([here[i] for i in ids])
        elif self.by_agent:
            assert self.agents is not None
            a = sorted((c for c in lobby if c.agent == self.agents[0]), key=lambda c: c.id)
            b = sorted((c for c in lobby if c.agent == self.agents[1]), key=lambda c: c.id)
            if len(a) >= 2 and len(b) >= 2:
                self._make_table([a[0], b[0], a[1], b[1]])
                return
            here = {c.id: c for c in self._competition_waiting()}
            if all(i in here for i in COMPETITION_IDS):  # seated in their order
                self._make_table([here[i] for i in COMPETITION_IDS])
        elif len(lobby) >= 4:
            self._make_table(lobby[:4])

    def _make_table(self, clients: list[Client]) -> None:
        self._made += 1
        table = Table(list(clients), self.limits, number=self._made)
        for pos, c in enumerate(clients):
            c.pos = pos
            c.table = table
            if not c.agent and self.agents is not None:
                c.agent = self.agents[pos & 1]
            self._by_id[c.id] = c
        self._waiting = [c for c in self._waiting if c not in clients]
        log.info("%s", said("log.seated", table=table.number, ids=" ".join(table.ids)))
        if self.on_table is not None:
            self.on_table(table)
        self._tables.put_nowait(table)
        if self.tables is not None and self._made >= self.tables:
            for c in self._waiting:  # competition ids left waiting: no table for them now
                why = phrase("arena.refuse.full")
                self.refused.append((c.id, str(why)))
                log.warning("%s", said("refused", id=c.id, why=why))
                c.drop(1008, why)
            self._waiting = []
