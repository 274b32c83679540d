"""A table of four seated clients: asking, telling, and the stated rules for faults.

The rules (docs/ARENA.md "Faults"):

* **timeout** (no reply within the limit: 15 s, 40 s for a deal's first lead),
  **malformed** reply, **out-of-range** index: ``actionList[0]`` is played for the seat,
  the fault is logged and written in the record. Play goes on.
* **escalation**: after ``escalate_after`` consecutive timeouts, or a client that stops
  reading its messages, the seat is played by the fallback policy (``Limits.fallback``,
  one of our bots) for the rest of the deal and the client is dropped: closed with code
  4000 and the reason (a client that does not read is cut off).
* **a connection that is gone** (closed by the client, lost, dropped): the fallback plays
  the seat until a client with the same id connects again; it takes the seat back at the
  next question (after an escalation: at the next deal), and is sent the deal's
  ``beginning`` again when it comes back during a deal.
* at the start of each deal a seat without a client is waited for ``Limits.reconnect``
  seconds; then the match cannot go on (:attr:`Table.failed`), scored by the caller's
  forfeit rule.
* **stale** and **unsolicited** replies are dropped and counted (:mod:`duplicate.arena.client`).

The ``notify``/``fault`` notice is an extension: it goes only to clients that asked for
it (``?notices=fault``) or to all when the arena says so (``Limits.notices``); the
competition's clients raise on a stage they do not know (PROTOCOL.md §8b).

Notices (``notify``) to a client are queued and written together with the next message it
must act on, or at the end of the deal: one write, hence one system call and one wake-up,
for several frames. The order of a client's messages is unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from duplicate.arena.client import DROP_TIMEOUTS, Client
from duplicate.arena.connection import Fault, Limits, text_frame
from duplicate.arena.messages import language, said
from duplicate.arena.protocol import dumps
from duplicate.i18n import Phrase, phrase

__all__ = ["Table"]

log = logging.getLogger("arena")


@dataclass(slots=True)
class Table:
    """Four seated clients (index = protocol position ``myPos``) and what they did wrong."""

    clients: list[Client]
    limits: Limits
    faults: list[Fault] = field(default_factory=list)
    #: where play is (``board 3 open room``, ``deal 4``), as records and notices say it,
    #: and as the catalogue words it for the log (None: ``where`` as it is)
    where: str = ""
    where_said: Phrase | None = None
    messages: int = 0
    number: int = 1
    #: called with (position, frame) for every frame sent: a table log (``--log``)
    log: Callable[[int, str], None] | None = None
    #: positions whose client was absent at a deal's start after the wait
    failed: set[int] = field(default_factory=set)
    #: the match is over (closed): a client coming back is refused
    over: bool = False
    #: positions played by the fallback for the rest of the deal (escalated)
    _escalated: set[int] = field(default_factory=set)
    #: the connection count of each position when its absence was last logged
    _gone_logged: dict[int, int] = field(default_factory=dict)
    #: this deal's ``beginning`` text per position (sent again to a client that comes back)
    _beginning: dict[int, str] = field(default_factory=dict)

    @property
    def ids(self) -> list[str]:
        """The client ids by position."""
        return [c.id for c in self.clients]

    @property
    def agents(self) -> list[str]:
        """The agents by position ("" where the seating does not say)."""
        return [c.agent for c in self.clients]

    @property
    def broken(self) -> bool:
        """True once a seat was empty at a deal's start: the match cannot go on."""
        return bool(self.failed)

    def fault(self, pos: int, kind: str, detail: str | Phrase) -> Fault:
        """Record and log a fault (the log line in the arena's language, ``said``)."""
        f = Fault(pos, self.clients[pos].id, kind, str(detail), self.where,
                  detail if isinstance(detail, Phrase) else None, self.where_said)
        self.faults.append(f)
        log.warning("%s", f.line(language()))
        return f

    def note_dropped(self, client: Client, kind: str, msg: str | bytes) -> None:
        """A stale or unsolicited reply, dropped: logged (the first three and the last
        before the connection is closed), counted by the client."""
        shown = msg[:40] if isinstance(msg, str) else repr(msg[:40])
        n = client.stale if kind == "stale" else client.unsolicited
        if n <= 3 or n == client.limits.max_unsolicited:
            self.fault(client.pos, kind, phrase(f"arena.fault.{kind}_dropped", shown=repr(shown)))

    def new_deal(self) -> None:
        """A deal starts: escalated seats go back to their clients (if connected)."""
        self._escalated.clear()
        self._beginning.clear()
        for c in self.clients:
            c.timeouts_in_row = 0

    def deal_over(self) -> None:
        """The deal ended: a client coming back now waits for the next ``beginning``."""
        self._beginning.clear()

    async def await_seats(self) -> set[int]:
        """Wait up to ``Limits.reconnect`` seconds for every seat to have a client; the
        positions still empty (then in :attr:`failed`)."""
        deadline = time.monotonic() + self.limits.reconnect
        while any(c.gone for c in self.clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        missing = {c.pos for c in self.clients if c.gone}
        for pos in sorted(missing):
            self.fault(pos, "forfeit", phrase("arena.fault.no_client",
                                              s=f"{self.limits.reconnect:g}"))
        self.failed |= missing
        return missing

    def rejoined(self, client: Client) -> None:
        """A client came back: it gets this deal's ``beginning`` again (if a deal is on)."""
        text = self._beginning.get(client.pos)
        if text is not None:
            client.queue(text)
        log.info("%s", said("log.back", id=client.id, pos=client.pos))

    async def tell(self, pos: int, message: dict[str, Any]) -> None:
        """Queue a message to one position (sent with its next ``act`` or :meth:`flush`)."""
        self.messages += 1
        text = dumps(message)
        if message.get("stage") == "beginning":
            self._beginning[pos] = text
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
                  index_range: int | None = None,
                  fallback: Callable[[], int] | None = None) -> int:
        """Ask ``pos`` to act (``message``, or its JSON text with ``index_range``); the
        index to play: the client's, ``actionList[0]`` after a fault, ``fallback()``
        (the fallback policy's choice; 0 when not given) for a seat without its client."""
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
        if pos in self._escalated or client.gone:
            self._log_gone(pos)
            return fallback() if fallback is not None else 0
        answer = await client.ask(text, index_range, limit)
        if isinstance(answer, int):
            client.timeouts_in_row = 0
            return answer
        kind, detail = answer
        if kind == "disconnected":
            if client.dropped_for:
                self._escalate(pos, "escalated", detail)
            else:
                self._log_gone(pos)
            return fallback() if fallback is not None else 0
        self.fault(pos, kind, detail)
        self._notice(pos, kind, detail, 0)
        if kind != "timeout":
            client.timeouts_in_row = 0
            return 0
        client.timeouts_in_row += 1
        if client.timeouts_in_row < self.limits.escalate_after:
            return 0
        why = phrase("arena.fault.timeouts", n=client.timeouts_in_row, bot=self.limits.fallback)
        self._escalate(pos, "escalated", why)
        client.drop(DROP_TIMEOUTS, why)
        return fallback() if fallback is not None else 0

    def _escalate(self, pos: int, kind: str, why: str | Phrase) -> None:
        self._escalated.add(pos)
        self._gone_logged[pos] = self.clients[pos].connections
        self.fault(pos, kind, why)
        self._notice(pos, kind, why, -1)

    def _log_gone(self, pos: int) -> None:
        """A seat without its client: a ``disconnected`` fault once per lost connection."""
        client = self.clients[pos]
        if self._gone_logged.get(pos) == client.connections:
            return
        self._gone_logged[pos] = client.connections
        why = client.dropped_for or phrase("arena.fault.closed")
        detail = phrase("arena.fault.gone", why=why, bot=self.limits.fallback)
        self.fault(pos, "disconnected", detail)
        self._notice(pos, "disconnected", detail, -1)

    def _notice(self, pos: int, kind: str, detail: str | Phrase, index: int) -> None:
        """The ``fault`` notice, to the clients that asked for it (an extension)."""
        to = [c for c in self.clients if (c.notices or self.limits.notices) and not c.gone]
        if not to:
            return
        text = dumps({"type": "notify", "stage": "fault", "pos": pos, "fault": kind,
                      "detail": str(detail), "actIndex": index})
        frame = text_frame(text)
        for c in to:
            self.messages += 1
            if self.log is not None:
                self.log(c.pos, text)
            c.queue_frame(frame)

    async def close(self, reason: str = "game over") -> None:
        """Send what is queued, then close every connection."""
        self.over = True
        await self.flush()
        await asyncio.gather(*(c.close(reason) for c in self.clients))

