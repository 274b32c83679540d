"""A round robin of duplicate matches among registered agents, standings and a rating.

The tournament file registers agents, one a line: ``NAME: COMMAND``, where the command
launches one client of the agent and holds ``{url}`` for the game URL (``#`` starts a
comment)::

    heuristic: guandan agent --url {url} --policy heuristic
    random:    guandan agent --url {url} --policy random --seed 7

For every pair of agents the arena opens a server, launches two clients of each (ids
``<name>-1``/``-2`` of A at positions 0 and 2, B's at 1 and 3, seated by id) and plays a
duplicate match on the same boards (:mod:`duplicate.arena.duplicate_match`). The launched clients'
standard output and error go to a log file per client id (``<id>.log`` in the log folder,
appended match after match), never to the arena's own output. Standings rank by match
points, then total swing (级差分); the rating is Bradley–Terry over board swings with
profile-likelihood intervals (:mod:`duplicate.arena.rating`).
"""

from __future__ import annotations

import asyncio
import itertools
import shlex
import subprocess
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplicate.arena.duplicate_match import MatchResult, match_path, play_duplicate_match
from duplicate.arena.names import AGENT_NAME
from duplicate.arena.rating import BoardGame, Rating, rate
from duplicate.arena.server import SETTLE, ArenaError, ArenaServer, Limits, Table
from duplicate.dealing import Board
from duplicate.i18n import os_reason, phrase
from duplicate.scoring import JIANGSU_WDL, VictoryPoints, WinDrawLoss

__all__ = ["AgentSpec", "Standing", "Tournament", "match_files", "read_agents",
           "run_tournament", "subprocess_launcher"]

#: starts one client of an agent at a URL; the awaitable ends when the client has ended
Launcher = Callable[["AgentSpec", str], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A registered agent: its name and the command that launches one client."""

    name: str
    command: str


@dataclass(slots=True)
class Standing:
    """An agent's line in the standings."""

    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: float = 0.0
    swing: int = 0
    boards: int = 0

    def row(self, rank: int) -> dict[str, Any]:
        """A listing row."""
        return {"rank": rank, "agent": self.name, "played": self.played, "won": self.won,
                "drawn": self.drawn, "lost": self.lost, "points": round(self.points, 2),
                "swing": self.swing, "boards": self.boards}


@dataclass(slots=True)
class Tournament:
    """The matches played, the standings and the ratings."""

    matches: list[MatchResult] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    #: the launched clients' log files (standard output and error)
    logs: list[Path] = field(default_factory=list)


def read_agents(path: str | Path) -> list[AgentSpec]:
    """Parse a tournament file (see the module doc)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ArenaError(phrase("rest.arena.agents.unreadable", path=repr(str(path)),
                                reason=os_reason(exc))) from None
    agents: list[AgentSpec] = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, command = line.partition(":")
        name, command = name.strip(), command.strip()
        where = f"{path}:{n}"
        if not sep or not name or not command:
            raise ArenaError(phrase("rest.arena.agents.line", where=where))
        if not AGENT_NAME.fullmatch(name):
            raise ArenaError(phrase("rest.arena.agents.name", where=where, name=repr(name)))
        if "{url}" not in command:
            raise ArenaError(phrase("rest.arena.agents.no_url", where=where, name=repr(name)))
        if any(a.name == name for a in agents):
            raise ArenaError(phrase("rest.arena.agents.twice", where=where, name=repr(name)))
        agents.append(AgentSpec(name, command))
    if len(agents) < 2:
        raise ArenaError(phrase("rest.arena.agents.few", path=str(path)))
    return agents


def match_files(agents: Sequence[AgentSpec], out_dir: str | Path) -> list[Path]:
    """The records file of every match of the round robin, in the order played (what the
    command line checks before any play). Two matches whose files would be one (agents'
    names that differ only in characters a file name does not keep, ``a+b`` and ``a=b``)
    are refused: the second would replace the first."""
    files: dict[Path, tuple[str, str]] = {}
    for a, b in itertools.combinations(agents, 2):
        path = match_path(out_dir, (a.name, b.name))
        if path in files:
            first = files[path]
            raise ArenaError(phrase("rest.arena.err.same_file", path=str(path),
                                    first=f"{first[0]} - {first[1]}", second=f"{a.name} - {b.name}"))
        files[path] = (a.name, b.name)
    return list(files)


def log_path(log_dir: Path, url: str) -> Path:
    """The log file of the client launched at ``url``: ``<log_dir>/<client id>.log``."""
    return log_dir / f"{url.rstrip('/').rsplit('/', 1)[-1]}.log"


def subprocess_launcher(log_dir: str | Path | None) -> Launcher:
    """A launcher running the agent's command with ``{url}`` filled in, its standard output
    and error appended to :func:`log_path` (discarded when ``log_dir`` is ``None``); the
    launched client's exit code."""
    folder = Path(log_dir) if log_dir is not None else None

    async def launch(agent: AgentSpec, url: str) -> int:
        argv = [a.replace("{url}", url) for a in shlex.split(agent.command)]
        if folder is None:
            sink: Any = subprocess.DEVNULL
        else:
            folder.mkdir(parents=True, exist_ok=True)
            sink = log_path(folder, url).open("ab")
            sink.write(f"--- {agent.name}: {shlex.join(argv)}\n".encode())
            sink.flush()
        try:
            try:
                proc = await asyncio.create_subprocess_exec(
                    *argv, stdin=subprocess.DEVNULL, stdout=sink, stderr=sink)
            except OSError as exc:
                raise ArenaError(phrase("rest.arena.err.launch", name=repr(agent.name),
                                        program=argv[0], reason=os_reason(exc))) from None
            return await proc.wait()
        finally:
            if folder is not None:
                sink.close()

    return launch


async def _seated(srv: ArenaServer, clients: Sequence[asyncio.Future[Any]], ids: Sequence[str],
                  agents: Sequence[AgentSpec], wait: float,
                  log_dir: str | Path | None) -> Table:
    """The match's table, once its four launched clients are seated; a client whose
    process ends first is said at once (its exit code and its log file), not after
    ``wait`` seconds as a connection timeout."""
    seated = asyncio.ensure_future(srv.next_table(wait))
    try:
        await asyncio.wait({seated, *clients}, return_when=asyncio.FIRST_COMPLETED)
        if not seated.done():  # a client ended: unless its table was just seated
            await asyncio.wait({seated}, timeout=SETTLE + 0.5)
        if seated.done():
            return seated.result()
        i = next(i for i, c in enumerate(clients) if c.done())
        raise _exited(clients[i], ids[i], agents[i].name, log_dir)
    except TimeoutError:
        raise ArenaError(phrase("arena.err.no_connect", a=agents[0].name, b=agents[1].name,
                                s=f"{wait:g}")) from None
    except BaseException:
        for f in (seated, *clients):
            f.cancel()
        raise


def _exited(client: asyncio.Future[Any], client_id: str, name: str,
            log_dir: str | Path | None) -> ArenaError:
    """The error of a launched client that ended before its match could start."""
    exc = client.exception()
    if isinstance(exc, ArenaError):
        return exc  # it could not be launched at all
    if exc is not None:
        raise exc
    code = client.result()
    log = "-" if log_dir is None else str(log_path(Path(log_dir), client_id))
    return ArenaError(phrase("arena.err.agent_exited", name=name, id=client_id,
                             code=code if code is not None else "?", log=log))


def standings(matches: Sequence[MatchResult], names: Sequence[str]) -> list[Standing]:
    """Totals per agent, ranked by match points, then total swing, then name."""
    table = {n: Standing(n) for n in names}
    for m in matches:
        a, b = (table[m.names[0]], table[m.names[1]])
        sc = m.score
        for s, mine, theirs, margin in ((a, sc.points_x, sc.points_y, sc.margin),
                                        (b, sc.points_y, sc.points_x, -sc.margin)):
            s.played += 1
            s.points += mine
            s.swing += margin
            s.boards += sc.boards_scored
            if mine > theirs:
                s.won += 1
            elif mine < theirs:
                s.lost += 1
            else:
                s.drawn += 1
    return sorted(table.values(), key=lambda s: (-s.points, -s.swing, s.name))


def board_games(matches: Sequence[MatchResult]) -> list[BoardGame]:
    """Every scored board of every match, as a game between the two agents."""
    return [
        BoardGame(i, m.names[0], m.names[1], bp.swing)
        for i, m in enumerate(matches)
        for bp in m.boards
        if bp.swing is not None
    ]


async def run_tournament(
    agents: Sequence[AgentSpec],
    boards: Sequence[Board],
    *,
    launch: Launcher | None = None,
    log_dir: str | Path | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    limits: Limits | None = None,
    scale: WinDrawLoss | VictoryPoints = JIANGSU_WDL,
    out_dir: str | Path | None = None,
    connect_wait: float = 60.0,
    progress: Callable[[MatchResult], None] | None = None,
    on_table: Callable[[Table], None] | None = None,
) -> Tournament:
    """Play the round robin, one match after another, and rank the agents. ``launch``
    starts a client (default: the agent's command, output to ``log_dir``)."""
    names = [a.name for a in agents]
    if len(set(names)) != len(names):
        raise ArenaError(phrase("rest.arena.err.same_agent"))
    if out_dir is not None:
        match_files(agents, out_dir)  # no match's records replace another's
    result = Tournament()
    if launch is None:
        launch = subprocess_launcher(log_dir)
        if log_dir is not None:
            result.logs = [log_path(Path(log_dir), f"{a.name}-{i}") for a in agents
                           for i in (1, 2)]
    for a, b in itertools.combinations(agents, 2):
        ids = [f"{a.name}-1", f"{b.name}-1", f"{a.name}-2", f"{b.name}-2"]
        async with ArenaServer(host, port, limits, [ids], agents=(a.name, b.name)) as srv:
            srv.on_table = on_table
            clients = [asyncio.ensure_future(launch(who, srv.url + ids[i]))
                       for i, who in enumerate((a, b, a, b))]
            table = await _seated(srv, clients, ids, (a, b, a, b), connect_wait, log_dir)
            try:
                match = await play_duplicate_match(
                    table, boards, (a.name, b.name), scale=scale,
                    event=f"Arena tournament: {a.name} - {b.name}", out_dir=out_dir,
                )
            finally:
                await table.close()
            await asyncio.wait(clients, timeout=10)
        result.matches.append(match)
        if progress is not None:
            progress(match)
    result.standings = standings(result.matches, names)
    result.ratings = rate(names, board_games(result.matches))
    return result
