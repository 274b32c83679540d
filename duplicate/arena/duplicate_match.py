"""A duplicate match between two agents at one table (RULES.md §11, DUPLICATE.md).

Agent A's clients sit at positions 0 and 2, agent B's at 1 and 3. Every board is played
twice, one room after the other at one table (or at two tables at once, one a room, when
the agents launch eight clients): in the open room position ``p`` holds board seat ``p``
(A is N–S), in the closed room the board is turned one seat (``p`` holds ``p + 1``: A is
E–W). Each board is one episode at the board's level with its stored leader and no
tribute (§9). Every room's record is a ``.gdn`` deal (players = agent names), replayed by
``duplicate.replay`` before it counts and scored with ``duplicate.scoring``: A's swing is
open N–S − closed N–S; the margin goes through the event's scale (2/1/0 or 20-VP).

The seating is checked before play: a table whose clients the seating gives to other
agents (A's at 1 and 3) is refused, so that results are credited to the agents that
played. Every record names each seat's client and agent (``NorthClient``..``WestClient``).

A seat without its client is played by the fallback bot (``duplicate.arena.table``); a seat still
empty at the start of a room after ``Limits.reconnect`` seconds ends the match, and the
side that failed **forfeits** every board not played in both rooms: each is conceded, a
swing of ``duplicate.scoring.CONCEDED_SWING`` (3) to the opponents (both sides failing:
0), as a director scores a conceded board (seeds/004 rule 5).

A match stopped before its end (Ctrl-C: the task cancelled) writes every board finished in
both rooms and raises :class:`MatchInterrupted` with that partial result; a later run
given those records (``kept``) keeps their boards and plays the others. With a table log,
a line ``{"arena": {"tags": {...}, "turned": rot}}`` before each room names its board,
room, agents and clients, so that the log reads back into the same records
(:mod:`duplicate.arena.openguandan`).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplicate.arena.episode import (
    client_tags,
    deal_record,
    faults_tag,
    play_out,
    seat_of,
    send_beginning,
    send_episode_over,
)
from duplicate.arena.protocol import level_int
from duplicate.arena.seating import agent_of
from duplicate.arena.server import ArenaError, Fault, Table
from duplicate.arena.uncertainty import MarginEstimate, margin_estimate
from duplicate.dealing import GENERATOR_ID, Board, LevelSchedule, generate_boards, read_seed_file
from duplicate.gdn import DealRecord, ErrorWords, dumps
from duplicate.i18n import Term, phrase
from duplicate.replay import quick_replay
from duplicate.scoring import (
    CONCEDED_SWING,
    JIANGSU_WDL,
    BoardResult,
    MatchScore,
    UnfinishedRule,
    VictoryPoints,
    WinDrawLoss,
    room_result,
    score_match,
)
from duplicate.simulate import simulation_key
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

__all__ = ["FORFEIT_TAG", "BoardPlay", "MatchInterrupted", "MatchResult", "check_seating", "dropped_replies",
           "kept_boards", "load_boards", "match_file_name", "match_path",
           "play_duplicate_match", "room_ns", "seating_rows"]

ROOMS = (("Open", 0), ("Closed", 1))
_SEAT_TAGS = ("North", "East", "South", "West")


@dataclass(slots=True)
class BoardPlay:
    """One board of the match: its records and N–S results (``None``: room not played)."""

    board: Board
    open: DealRecord | None = None
    closed: DealRecord | None = None
    open_ns: int | None = None
    closed_ns: int | None = None
    #: the agent(s) that forfeited this board (``FORFEIT_TAG``), "" for a board played
    forfeit: str = ""
    #: A's swing as the forfeit scores it (a conceded board), None for a board played
    conceded: int | None = None

    @property
    def swing(self) -> int | None:
        """A's swing (open N–S − closed N–S), ``None`` when a room is missing."""
        if self.open_ns is None or self.closed_ns is None:
            return None
        return self.open_ns - self.closed_ns

    @property
    def scored(self) -> int | None:
        """A's swing as it counts: the rooms', or the forfeit's (a conceded board)."""
        return self.swing if self.swing is not None else self.conceded

    def row(self, names: tuple[str, str]) -> dict[str, Any]:
        """A listing row."""
        def finish(rec: DealRecord | None) -> str:
            return " ".join(s.name for s in rec.finish) if rec and rec.finish else ""

        return {
            "board": self.board.number,
            "level": "23456789TJQKA"[self.board.level],
            "leader": self.board.leader.name,
            "open_finish": finish(self.open),
            "open_ns": self.open_ns,
            "closed_finish": finish(self.closed),
            "closed_ns": self.closed_ns,
            f"swing_{names[0]}": self.scored,
        } | ({"forfeited_by": self.forfeit} if self.forfeit else {})

    def json_row(self, names: tuple[str, str]) -> dict[str, Any]:
        """The row for ``--json``: the level a number, 2..14 (14 = A), as the protocol's
        ``beginning`` writes it, not the listing's rank letter."""
        return self.row(names) | {"level": level_int(self.board.level)}


@dataclass(slots=True)
class MatchResult:
    """A finished (or abandoned) duplicate match."""

    names: tuple[str, str]
    boards: list[BoardPlay]
    score: MatchScore
    faults: list[Fault] = field(default_factory=list)
    abandoned: str = ""
    seconds: float = 0.0
    engine_seconds: float = 0.0
    acts: int = 0
    messages: int = 0
    file: Path | None = None
    #: ``"x"`` (A), ``"y"`` (B) or ``"both"``: who forfeited the boards not played
    forfeited_by: str = ""
    #: every table's seating: (table, position, client id, agent)
    seating: list[tuple[int, int, str, str]] = field(default_factory=list)
    #: replies dropped, by client id (:func:`dropped_replies`)
    dropped: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def records(self) -> list[DealRecord]:
        """Every room's record, board by board, open before closed (a room a forfeit left
        unplayed: the board with an empty play list, ``Unfinished`` and ``Forfeit``)."""
        return [r for b in self.boards for r in (b.open, b.closed) if r is not None]

    @property
    def deals(self) -> int:
        """Rooms played."""
        return sum(1 for r in self.records if r.plays)

    @property
    def estimate(self) -> MarginEstimate | None:
        """A's mean swing a board played in both rooms, with its 95% interval."""
        return margin_estimate([bp.swing for bp in self.boards if bp.swing is not None])

    def summary(self) -> dict[str, Any]:
        """The match in a few figures (JSON-ready)."""
        a, b = self.names
        return {
            "a": a, "b": b, "boards": len(self.boards), "deals": self.deals,
            "margin": self.score.margin,
            "margin_per_board": None if self.estimate is None else self.estimate.to_dict(),
            "points_a": self.score.points_x,
            "points_b": self.score.points_y, "unfinished": list(self.score.unfinished),
            "faults": [f.text() for f in self.faults], "abandoned": self.abandoned,
            "forfeited_by": (self.names[0] if self.forfeited_by == "x" else self.names[1]
                             if self.forfeited_by == "y" else self.forfeited_by),
            "seating": [{"table": t, "position": p, "client": c, "agent": g}
                        for t, p, c, g in self.seating],
            "dropped_replies": self.dropped,
        }


def room_ns(record: DealRecord, rules: Ruleset = COMPETITION) -> int:
    """A room's N–S result from its record, after replaying it (raises when it does not)."""
    checked = quick_replay(record, rules)
    if checked.error is not None:
        raise ArenaError(phrase("rest.arena.err.board", board=record.board,
                                room=_room(record.room), why=ErrorWords(checked.error)))
    if checked.result is None:
        raise ArenaError(phrase("rest.arena.err.unfinished", board=record.board,
                                room=_room(record.room)))
    return room_result(checked.result.winner, checked.result.levels, rules)


def _room(room: str | None) -> Term | str:
    """A record's Room tag in an error: open and closed in the reader's words."""
    key = (room or "").lower()
    return Term(room or "", f"report.room.{key}") if key in ("open", "closed") else room or ""


def load_boards(
    count: int,
    *,
    seed_hex: str | None = None,
    seed_file: str | None = None,
    delayed: str | None = None,
    set_name: str | None = None,
    db_url: str | None = None,
    schedule: str = "fixed",
) -> list[Board]:
    """Boards 1..``count`` of a stored set (``set_name``, from the database), of a seed
    file's set, or of a ``--seed`` as ``guandan simulate`` takes it: exactly one source."""
    if sum(x is not None for x in (seed_hex, seed_file, set_name)) != 1:
        raise ArenaError(phrase("rest.arena.err.one_source"))
    if count < 1:
        raise ArenaError(phrase("rest.arena.err.count", count=count))
    if set_name is not None:
        from duplicate.boards import load_set  # lazy: sqlalchemy, only for a stored set
        from duplicate.db import make_engine  # lazy: sqlalchemy, only for a stored set

        engine = make_engine(db_url)
        try:
            return list(load_set(engine, set_name, range(1, count + 1)).boards)
        finally:
            engine.dispose()
    if seed_file is not None:
        seeds = read_seed_file(seed_file)
        key, generator = seeds.key(delayed), seeds.generator
    else:
        assert seed_hex is not None
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            raise ArenaError(phrase("rest.arena.err.seed_hex", seed=repr(seed_hex))) from None
        key, generator = simulation_key(seed), GENERATOR_ID
    return list(generate_boards(key, count, LevelSchedule.parse(schedule), generator))


def match_file_name(a: str, b: str) -> str:
    """``<a>-vs-<b>.gdn`` with only safe characters."""
    def safe(s: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "_", s) or "agent"

    return f"{safe(a)}-vs-{safe(b)}.gdn"


def match_path(out_dir: str | Path, names: tuple[str, str]) -> Path:
    """The records file a duplicate match of ``names`` writes into ``out_dir`` (what the
    command line checks before any play: an existing one is replaced only with --force)."""
    return Path(out_dir) / match_file_name(*names)


@dataclass(slots=True)
class _Tally:
    engine: float = 0.0
    acts: int = 0
    abandoned: str = ""


def _at(table: Table, board: Board, room: str) -> None:
    """Where the table is (a fault's where): this board's room, set before its seats are
    awaited, so that a seat missing at the closed room's start is said there."""
    table.where = f"board {board.number} {room.lower()} room"
    table.where_said = phrase("arena.fault.where_board", board=board.number,
                              room=Term(room.lower(), f"report.room.{room.lower()}"))


async def _play_room(
    table: Table, bp: BoardPlay, room: str, rot: int, names: tuple[str, str],
    rules: Ruleset, event: str, tally: _Tally,
) -> None:
    """Play one room of a board at ``table`` and keep its replayed record in ``bp``."""
    board = bp.board
    _at(table, board, room)
    level = board.level

    def ranks(pos: int) -> tuple[int, int]:
        return (level, level)  # a board has one level for both sides

    tags = {"Event": event, "Board": str(board.number), "Room": room}
    for seat in Seat:
        pos = (int(seat) - rot) & 3
        assert seat_of(pos, rot) == seat
        tags[_SEAT_TAGS[seat]] = names[pos & 1]
    tags["Generator"] = board.generator
    tags["DealId"] = board.deal_id
    extra = client_tags(table, rot)
    if table.log is not None:  # the room's tags, so that the log reads back into its record
        table.log(-1, json.dumps({"arena": {"tags": tags | extra, "turned": rot}},
                                 ensure_ascii=False))
    await send_beginning(table, board.hands, level, rot, ranks)
    deal = Deal(board.hands, level, board.leader, rules)
    outcome = await play_out(table, deal, rot, ranks)
    await send_episode_over(table, deal, rot)
    tally.engine += outcome.engine_seconds
    tally.acts += outcome.acts
    if outcome.faults:
        extra["ArenaFaults"] = faults_tag(outcome.faults)
    record = deal_record(outcome, tags, extra)
    ns = room_ns(record, rules)
    if rot == 0:
        bp.open, bp.open_ns = record, ns
    else:
        bp.closed, bp.closed_ns = record, ns


async def _end(table: Table, px: float, py: float) -> None:
    await table.tell_all({"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 1})
    won = [1 if px > py else 0, 1 if py > px else 0]
    drew = 1 if px == py else 0
    await table.tell_all({
        "type": "notify", "stage": "gameResult",
        "victoryNum": [won[p & 1] for p in range(4)], "draws": [drew] * 4,
    })
    await table.flush()


def dropped_replies(tables: Iterable[Table]) -> dict[str, dict[str, int]]:
    """The replies dropped per client id: ``stale`` (after their question's time ran
    out) and ``unsolicited`` (when nothing was asked); clients with none are left out."""
    return {c.id: {"stale": c.stale, "unsolicited": c.unsolicited}
            for t in tables for c in t.clients if c.stale or c.unsolicited}


def seating_rows(table: Table) -> list[tuple[int, int, str, str]]:
    """The seating of a table: (table number, position, client id, agent)."""
    return [(table.number, c.pos, c.id, c.agent) for c in table.clients]


def check_seating(table: Table, names: tuple[str, str]) -> None:
    """Refuse a table whose seating gives a position to the other agent (results would be
    credited to the wrong agent): A at positions 0 and 2, B at 1 and 3; and a table where
    a client whose id names one agent (``mine-1``) holds a position of the other."""
    want = [names[p & 1] for p in range(4)]
    have = table.agents
    named = [agent_of(c.id, names) for c in table.clients]
    if (any(have) and have != want) or any(n not in (None, w) for n, w in zip(named, want,
                                                                         strict=True)):
        seats = ", ".join(f"{p}: {c.id} ({c.agent})" for p, c in enumerate(table.clients))
        raise ArenaError(phrase("rest.arena.err.seated", table=table.number, seats=seats,
                                a=names[0], b=names[1]))


class MatchInterrupted(ArenaError):
    """The match was stopped before its end: ``result`` holds the boards finished in both
    rooms (their records written when the match had an ``out_dir``)."""

    def __init__(self, result: MatchResult, total: int) -> None:
        done = len(result.boards)
        where = result.file if result.file is not None else "-"
        super().__init__(phrase("arena.interrupted", done=done, total=total, path=str(where)))
        self.result = result
        self.total = total


def kept_boards(records: Iterable[DealRecord], boards: Iterable[Board],
                rules: Ruleset = COMPETITION) -> dict[int, tuple[DealRecord, DealRecord]]:
    """The boards of an earlier, interrupted run to keep: board number -> (open, closed)
    records, for each board whose two rooms are in ``records`` and hold this match's board
    (the same ``DealId``). Every record is replayed again before it counts."""
    by_number = {b.number: b for b in boards}
    rooms: dict[int, dict[str, DealRecord]] = {}
    for rec in records:
        try:
            number = int(rec.board or "")
        except ValueError:
            continue
        board = by_number.get(number)
        if (board is None or rec.tags.get("DealId") != board.deal_id
                or FORFEIT_TAG in rec.tags):
            continue
        rooms.setdefault(number, {})[rec.room or ""] = rec
    kept = {}
    for number, got in rooms.items():
        if "Open" in got and "Closed" in got:
            room_ns(got["Open"], rules)  # refused when it does not replay
            room_ns(got["Closed"], rules)
            kept[number] = (got["Open"], got["Closed"])
    return kept


#: the tag naming the agent(s) that forfeited a board, on both its records (docs/FORMAT.md)
FORFEIT_TAG = "Forfeit"


def _mark_forfeit(bp: BoardPlay, who: str, side: str, names: tuple[str, str],
                  event: str) -> None:
    """A board the forfeit left unplayed in a room or both: its swing as conceded, the
    ``Forfeit`` tag on the room played, and a record of the board with an empty play list
    for each room not played (``Unfinished "forfeit"``), so that the records say it."""
    bp.forfeit = who
    bp.conceded = {"x": -CONCEDED_SWING, "y": CONCEDED_SWING, "both": 0}[side]
    board = bp.board
    for room, rot in ROOMS:
        rec = bp.open if rot == 0 else bp.closed
        if rec is None:
            tags = {"Event": event, "Board": str(board.number), "Room": room}
            for seat in Seat:
                tags[_SEAT_TAGS[seat]] = names[((int(seat) - rot) & 3) & 1]
            tags["Generator"] = board.generator
            tags["DealId"] = board.deal_id
            tags["Unfinished"] = "forfeit"
            rec = DealRecord(tags=tags, hands=board.hands, level=board.level,
                             leader=board.leader, plays=[])
            if rot == 0:
                bp.open = rec
            else:
                bp.closed = rec
        rec.tags[FORFEIT_TAG] = who


def _forfeit_side(sides: set[int]) -> str:
    return "both" if len(sides) == 2 else "x" if 0 in sides else "y"


FORFEIT = "a client did not come back: its side forfeits the boards not played"


async def play_duplicate_match(
    table: Table,
    boards: Iterable[Board],
    names: tuple[str, str],
    *,
    closed_table: Table | None = None,
    rules: Ruleset = COMPETITION,
    scale: WinDrawLoss | VictoryPoints = JIANGSU_WDL,
    event: str = "Arena",
    out_dir: str | Path | None = None,
    kept: dict[int, tuple[DealRecord, DealRecord]] | None = None,
) -> MatchResult:
    """Play ``boards`` in both rooms: A = ``names[0]`` at positions 0 and 2.

    With one table the rooms are played in turn, board by board (open, then closed). With
    ``closed_table`` (eight connections: two sets of agent processes) the open room is
    played at ``table`` and the closed room at ``closed_table`` at the same time, so that
    no client sees both rooms of a board.

    ``kept`` (:func:`kept_boards`): boards already played in both rooms by an earlier run,
    kept as they are and not played again. Cancelled (Ctrl-C), the match writes the boards
    finished in both rooms and raises :class:`MatchInterrupted`.
    """
    if names[0] == names[1]:
        raise ArenaError(phrase("rest.arena.err.same_names", name=repr(names[0])))
    started = time.perf_counter()
    plays = [BoardPlay(b) for b in boards]
    if not plays:
        raise ArenaError(phrase("rest.arena.err.no_board"))
    for bp in plays:
        if kept and bp.board.number in kept:
            bp.open, bp.closed = kept[bp.board.number]
            bp.open_ns, bp.closed_ns = room_ns(bp.open, rules), room_ns(bp.closed, rules)
    tally = _Tally()
    tables = [table] if closed_table is None else [table, closed_table]
    for t in tables:
        check_seating(t, names)
    failed: set[int] = set()  # the sides (0: A, 1: B) whose seat stayed empty

    async def seats_ready(t: Table) -> bool:
        if not failed:
            failed.update(pos & 1 for pos in await t.await_seats())
        return not failed

    to_play = [bp for bp in plays if bp.swing is None]
    try:
        if closed_table is None:
            for bp in to_play:
                for room, rot in ROOMS:
                    _at(table, bp.board, room)
                    if not await seats_ready(table):
                        break
                    await _play_room(table, bp, room, rot, names, rules, event, tally)
        else:
            async def one_room(t: Table, room: str, rot: int) -> None:
                for bp in to_play:
                    _at(t, bp.board, room)
                    if not await seats_ready(t):
                        return
                    await _play_room(t, bp, room, rot, names, rules, event, tally)

            await asyncio.gather(one_room(table, *ROOMS[0]),
                                 one_room(closed_table, *ROOMS[1]))
    except asyncio.CancelledError:
        done = [bp for bp in plays if bp.swing is not None]
        partial = _result(names, done, scale, rules, tables, tally, started, None, out_dir)
        raise MatchInterrupted(partial, len(plays)) from None
    forfeit = _forfeit_side(failed) if failed else None
    if forfeit is not None:
        tally.abandoned = FORFEIT
    result = _result(names, plays, scale, rules, tables, tally, started, forfeit, out_dir,
                     event)
    for t in tables:
        await _end(t, result.score.points_x, result.score.points_y)
    return result


def _result(names: tuple[str, str], plays: list[BoardPlay], scale: WinDrawLoss | VictoryPoints,
            rules: Ruleset, tables: list[Table], tally: _Tally, started: float,
            forfeit: str | None, out_dir: str | Path | None, event: str = "Arena") -> MatchResult:
    """The match as scored over ``plays``, its records written into ``out_dir``."""
    results = [BoardResult(bp.board.number, bp.open_ns, bp.closed_ns,
                           forfeit if bp.swing is None else None) for bp in plays]
    score = score_match(results, scale, UnfinishedRule.AVERAGE, rules)
    if forfeit is not None:
        who = {"x": names[0], "y": names[1]}.get(forfeit, f"{names[0]} & {names[1]}")
        for bp in plays:
            if bp.swing is None:
                _mark_forfeit(bp, who, forfeit, names, event)
    result = MatchResult(
        names, plays, score, [f for t in tables for f in t.faults], tally.abandoned,
        time.perf_counter() - started, tally.engine, tally.acts,
        sum(t.messages for t in tables), forfeited_by=forfeit or "",
        seating=[row for t in tables for row in seating_rows(t)],
        dropped=dropped_replies(tables),
    )
    if out_dir is not None:
        path = match_path(out_dir, names)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(result.records), encoding="utf-8")
        result.file = path
    return result
