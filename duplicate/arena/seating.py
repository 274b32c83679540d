"""Who sits where: client ids from URLs, seating files, agents named by their ids.

A client connects to ``ws://HOST:PORT/game/<id>`` (or the online platform's
``/game/gd/<id>``); ``?notices=fault`` after it asks for the arena's ``fault`` notices
(docs/ARENA.md "Faults"). Three ways to seat (docs/ARENA.md "Seating"):

* a **seating file**: each line the four client ids of one table, positions 0..3;
* **by agent id**: the id names the agent, ``<agent>`` or ``<agent>-<anything>``
  (``mine-1``, ``theirs-2``); A's two clients take positions 0 and 2 in the order of
  their ids, B's 1 and 3; at a single table the competition's own ids ``client1`` ..
  ``client4`` are seated in that order once all four have come (1 and 3 for A, 2 and 4
  for B, :func:`competition_agent`); any other id naming no agent is refused;
* **by connection order**, only when asked for (``--seating order``): the launch scripts'
  order is no guide to who is who when agents start at different speeds.

A client id is 1 to 64 characters after the URL's percent-decoding (``/game/%E6%88%91AI``
is ``我AI``, ``/game/my%20AI`` is ``my AI``), none a control character or ``/``; in a
seating file an id with spaces is written in quotes. A seating file that puts an id
naming one agent at the other agent's position is refused (:func:`check_seating_file`).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote

from duplicate.arena.connection import ArenaError
from duplicate.arena.messages import said
from duplicate.i18n import Phrase, os_reason, phrase

__all__ = ["COMPETITION_IDS", "ClientPath", "agent_of", "check_seating_file",
           "competition_agent", "parse_path", "read_seating", "seating_help", "valid_id"]

PATH_PREFIX = "/game/"
#: the ids the competition's own clients connect with, seated in this order (PROTOCOL.md §1)
COMPETITION_IDS = ("client1", "client2", "client3", "client4")
MAX_ID = 64


def valid_id(client_id: str) -> bool:
    """A client id: 1 to 64 characters, none a control character (``isprintable``) or ``/``."""
    return 0 < len(client_id) <= MAX_ID and client_id.isprintable() and "/" not in client_id


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
    try:
        rest = unquote(rest, errors="strict")
    except UnicodeDecodeError:
        return phrase("arena.refuse.id")
    if not valid_id(rest):
        return phrase("arena.refuse.id")
    notices = "fault" in ",".join(parse_qs(query).get("notices", []))
    return ClientPath(rest, notices)


def agent_of(client_id: str, agents: Sequence[str]) -> str | None:
    """The agent a client id names: the id itself, or the id up to a ``-`` (the longest
    name that fits when one agent's name starts another's); ``None`` when none does."""
    fits = [a for a in agents if client_id == a or client_id.startswith(a + "-")]
    return max(fits, key=len) if fits else None


def competition_agent(client_id: str, agents: Sequence[str]) -> str | None:
    """The agent of a competition id at a single table: ``client1`` and ``client3`` play
    for A, ``client2`` and ``client4`` for B (the competition's server seats them in that
    order); ``None`` for any other id."""
    if client_id not in COMPETITION_IDS:
        return None
    return agents[COMPETITION_IDS.index(client_id) & 1]


def _quoted(client_id: str) -> str:
    """An id as a seating file's line takes it (quoted when it holds spaces or quotes)."""
    plain = not any(ch.isspace() or ch in "'\"#\\" for ch in client_id)
    return client_id if plain else shlex.quote(client_id)


def seating_help(agents: Sequence[str], accepted: Mapping[str, str],
                 refused: Sequence[str]) -> str:
    """How to seat clients whose ids name no agent (in the language the command line
    chose): a seating file's line with each agent's ids at its own positions (A at 0 and
    2, B at 1 and 3). ``accepted`` maps the ids the arena seated by name to their agent;
    ``refused`` are the ids that named no agent, in connection order. A refused id is put
    at an agent's position only when it can be no one else's: when the other agent's two
    ids are known. The positions still unknown say whose id goes there (``<theirs id>``),
    and the refused ids are listed apart."""
    a, b = agents[0], agents[1]
    line: list[str | None] = [None] * 4
    for side, name in ((0, a), (1, b)):
        mine = sorted(i for i, g in accepted.items() if g == name)[:2]
        for k, client in enumerate(mine):
            line[side + 2 * k] = _quoted(client)
    unknown = [i for i in dict.fromkeys(refused) if i not in accepted]
    for side in (0, 1):
        other = 1 - side
        free = [p for p in (side, side + 2) if line[p] is None]
        if line[other] is not None and line[other + 2] is not None and len(unknown) == len(free):
            for p, client in zip(free, unknown, strict=True):
                line[p] = _quoted(client)
            unknown = []
    shown = [f"<{agents[p & 1]} id>" if v is None else v for p, v in enumerate(line)]
    return said("seating_help", a=a, b=b, line=" ".join(shown),
                came=" ".join(_quoted(i) for i in dict.fromkeys(refused)) or "-")


def check_seating_file(tables: Sequence[Sequence[str]], agents: Sequence[str]) -> None:
    """Refuse a seating file that seats a client whose id names one agent (``mine-1``) at
    a position of the other (results would be credited to the wrong agent)."""
    for number, ids in enumerate(tables, 1):
        for pos, client in enumerate(ids):
            named = agent_of(client, agents)
            if named is not None and named != agents[pos & 1]:
                raise ArenaError(phrase("arena.seating.other_side", table=number, pos=pos,
                                        id=repr(client), named=named, agent=agents[pos & 1]))


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
        try:
            ids = shlex.split(line, comments=True)
        except ValueError:
            raise ArenaError(phrase("arena.seating.quotes", where=f"{path}:{n}")) from None
        if not ids:
            continue
        if len(ids) != 4:
            raise ArenaError(phrase("rest.arena.seating.four", where=f"{path}:{n}", n=len(ids)))
        for i in ids:
            if i in seen:
                raise ArenaError(phrase("rest.arena.seating.twice", where=f"{path}:{n}", id=repr(i)))
            if not valid_id(i):
                raise ArenaError(phrase("rest.arena.seating.bad_id", where=f"{path}:{n}",
                                        id=repr(i)))
            seen.add(i)
        tables.append(ids)
    if not tables:
        raise ArenaError(phrase("rest.arena.seating.empty", path=str(path)))
    return tables
