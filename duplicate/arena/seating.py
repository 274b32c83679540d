"""Who sits where: client ids from URLs, seating files, agents named by their ids.

A client connects to ``ws://HOST:PORT/game/<id>`` (or the online platform's
``/game/gd/<id>``); ``?notices=fault`` after it asks for the arena's ``fault`` notices
(docs/ARENA.md "Faults"). Three ways to seat (docs/ARENA.md "Seating"):

* a **seating file**: each line the four client ids of one table, positions 0..3;
* **by agent id**: the id names the agent, ``<agent>`` or ``<agent>-<anything>``
  (``mine-1``, ``theirs-2``); A's two clients take positions 0 and 2 in the order of
  their ids, B's 1 and 3; an id naming no agent is refused;
* **by connection order**, only when asked for (``--seating order``): the launch scripts'
  order is no guide to who is who when agents start at different speeds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from duplicate.arena.connection import ArenaError
from duplicate.arena.messages import said
from duplicate.i18n import Phrase, os_reason, phrase

__all__ = ["ClientPath", "agent_of", "parse_path", "read_seating", "seating_help"]

PATH_PREFIX = "/game/"
_ID = re.compile(r"[A-Za-z0-9._~@+:=-]{1,64}")


@dataclass(frozen=True, slots=True)
class ClientPath:
    """What a client's URL says: its id and whether it asked for ``fault`` notices."""

    id: str
    notices: bool


def parse_path(path: str) -> ClientPath | Phrase:
    """The client's id from its URL path, or the reason it is refused (English as
    ``str()``, the close frame's reason)."""
    base, _, query = path.partition("?")
    if not base.startswith(PATH_PREFIX):
        return phrase("arena.refuse.path")
    rest = base[len(PATH_PREFIX):]
    if rest.startswith("gd/"):
        rest = rest[3:]  # the online platform's /game/gd/<id>
    if not _ID.fullmatch(rest):
        return phrase("arena.refuse.id")
    notices = "fault" in ",".join(parse_qs(query).get("notices", []))
    return ClientPath(rest, notices)


def agent_of(client_id: str, agents: Sequence[str]) -> str | None:
    """The agent a client id names: the id itself, or the id up to a ``-`` (the longest
    name that fits when one agent's name starts another's); ``None`` when none does."""
    fits = [a for a in agents if client_id == a or client_id.startswith(a + "-")]
    return max(fits, key=len) if fits else None


def seating_help(agents: Sequence[str], ids: Sequence[str]) -> str:
    """How to seat clients whose ids name no agent: a seating file's line, or ids that
    name their agents (in the language the command line chose)."""
    a, b = agents[0], agents[1]
    seen = list(dict.fromkeys(ids))[:4]
    shown = seen + ["<id>"] * (4 - len(seen))
    return said("seating_help", a=a, b=b, line=" ".join(shown), p0=shown[0], p1=shown[1],
                p2=shown[2], p3=shown[3])


def read_seating(path: str | Path) -> list[list[str]]:
    """A seating file: each line four client ids (positions 0..3) of one table; ``#``
    starts a comment. An id may appear once."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ArenaError(phrase("rest.arena.seating.unreadable", path=repr(str(path)),
                                reason=os_reason(exc))) from None
    tables: list[list[str]] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        ids = line.split("#", 1)[0].split()
        if not ids:
            continue
        if len(ids) != 4:
            raise ArenaError(phrase("rest.arena.seating.four", where=f"{path}:{n}", n=len(ids)))
        for i in ids:
            if i in seen:
                raise ArenaError(phrase("rest.arena.seating.twice", where=f"{path}:{n}", id=repr(i)))
            if not _ID.fullmatch(i):
                raise ArenaError(phrase("rest.arena.seating.bad_id", where=f"{path}:{n}",
                                        id=repr(i)))
            seen.add(i)
        tables.append(ids)
    if not tables:
        raise ArenaError(phrase("rest.arena.seating.empty", path=str(path)))
    return tables
