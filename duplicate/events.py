"""Teams events in the database: teams, rounds, matches, seating, results, standings.

What ``guandan event`` calls (docs/EVENTS.md). An event has teams of four to six players,
split into pairs; each round pairs the teams (Swiss through :mod:`duplicate.pairing`, or a
round robin), plays a slice of a stored board set, and seats every match in two rooms
(RULES.md §11): open room X's pair N–S and Y's pair E–W, closed room Y's other pair N–S and
X's other pair E–W, on the same boards.

* Records are accepted into a match only when they replay cleanly, their board is the
  round's board of that number (same hands, level and leader) and their players are the
  seating's; importing the same record again changes nothing, and a different record for a
  board and room already filled is refused unless it is a correction (who, why).
* Unfinished boards (time, withdrawal) are stored as such and scored by the event's rule
  (``scoring.UnfinishedRule``), never dropped.
* Standings are always recomputed from the stored results (:mod:`duplicate.standings`),
  never stored, so a correction changes every standing after it.
* Every import, scoring and correction is one transaction (``db.session_scope``): an error
  leaves the database as it was.
* An event has one rule set (``engine.ruleset.Ruleset``, ``events.rules``; default the
  competition rules, RULES.md): every record is replayed under it, the bots play under it,
  results are checked and scored under it (``double_down_plus4``: ±4 results, swings up to
  ±8, RULES.md §7) and the report compares the rooms under it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import repeat
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.boards import generate_set, store_set
from duplicate.bots import HeuristicPlayer, Player, RandomPlayer, View, XorShift64, make_player
from duplicate.compare import BoardComparison, compare_board
from duplicate.db import check_schema, session_scope
from duplicate.dealing import Board, LevelSchedule, SeedFile, board_from_hands
from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, GdnError, format_record, loads
from duplicate.pairing import (
    MatchSeating,
    Pairing,
    PairingError,
    first_round,
    round_robin,
    seat_match,
    swiss_round,
)
from duplicate.records import Correction, describe_rules, load_rules, rules_json
from duplicate.replay import replay
from duplicate.report import BoardLine, EventReport, MatchSummary, write_report
from duplicate.scoring import (
    BoardResult,
    MatchScore,
    UnfinishedRule,
    VictoryPoints,
    WinDrawLoss,
    check_result,
    room_result,
    scale_from_dict,
    score_match,
)
from duplicate.simulate import play_deal, player_seed
from duplicate.standings import (
    ByeRule,
    StandingRow,
    TeamRound,
    bye_round,
    match_rounds,
    standings,
)
from engine.cards import parse_cards, rank_name
from engine.combo import Combo
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

__all__ = [
    "FORMATS",
    "ROOMS",
    "EventError",
    "EventInfo",
    "ImportSummary",
    "MatchInfo",
    "RoundInfo",
    "TeamInfo",
    "Correction",
    "add_team",
    "add_teams_file",
    "assign_boards",
    "correct_result",
    "create_event",
    "event_report",
    "event_rules",
    "export_records",
    "get_event",
    "import_files",
    "import_texts",
    "list_corrections",
    "list_events",
    "list_matches",
    "list_teams",
    "match_boards",
    "pair_round",
    "parse_result",
    "parse_teams_file",
    "play_bots",
    "read_teams_file",
    "record_unfinished",
    "score_event",
    "event_standings",
    "write_event_report",
]

#: Event formats: Swiss (pairing by standings) or round robin.
FORMATS = ("swiss", "rr")
#: The two rooms of a match, as stored.
ROOMS = ("open", "closed")
#: Players per team (the issue: teams of four to six).
MIN_PLAYERS, MAX_PLAYERS = 4, 6

Progress = Callable[[int], None]


class EventError(DuplicateError):
    """A refused event operation: unknown event or round, a bad record, a missing result."""


# --- plain data returned to callers ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventInfo:
    """An event's settings (what ``event create`` stored), its rule set included."""

    name: str
    seed: str
    format: str
    scale: WinDrawLoss | VictoryPoints
    unfinished: UnfinishedRule
    boards_per_round: int
    rounds: int
    bye: ByeRule
    created_at: datetime | None = None
    rules: Ruleset = COMPETITION

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``rules``: every variant of the rule set, ``Ruleset.to_dict``)."""
        return {
            "name": self.name,
            "seed": self.seed,
            "format": self.format,
            "scale": self.scale.to_dict(),
            "unfinished": self.unfinished.value,
            "boards_per_round": self.boards_per_round,
            "rounds": self.rounds,
            "bye_points": self.bye.points,
            "bye_won": self.bye.won,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "rules": self.rules.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class TeamInfo:
    """A team: entry number, name, players in order, and its pairs (player N/E first)."""

    number: int
    name: str
    players: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]

    def to_dict(self) -> dict[str, Any]:
        """A listing row."""
        return {
            "number": self.number,
            "team": self.name,
            "players": list(self.players),
            "pairs": [f"{a}/{b}" for a, b in self.pairs],
        }


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A match of a round: teams X and Y and who sits where in each room (N, E, S, W)."""

    round: int
    table: int
    team_x: str
    team_y: str
    open_players: tuple[str, str, str, str]
    closed_players: tuple[str, str, str, str]

    def to_dict(self) -> dict[str, Any]:
        """A listing row."""
        return {
            "round": self.round,
            "table": self.table,
            "team_x": self.team_x,
            "team_y": self.team_y,
            "open": dict(zip("NESW", self.open_players, strict=True)),
            "closed": dict(zip("NESW", self.closed_players, strict=True)),
        }


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A round: its matches, the bye, and the boards it plays (set name and numbers)."""

    number: int
    matches: tuple[MatchInfo, ...]
    bye: str | None
    board_set: str | None
    boards: tuple[int, ...]


@dataclass(slots=True)
class ImportSummary:
    """What an import did: records read, stored anew, already there, corrected."""

    files: int = 0
    records: int = 0
    added: int = 0
    unchanged: int = 0
    corrected: int = 0
    unfinished: int = 0

    def to_dict(self) -> dict[str, int]:
        """JSON form."""
        return {
            "files": self.files,
            "records": self.records,
            "added": self.added,
            "unchanged": self.unchanged,
            "corrected": self.corrected,
            "unfinished": self.unfinished,
        }


# --- settings ----------------------------------------------------------------------------


def _scale(name: str) -> WinDrawLoss | VictoryPoints:
    try:
        return scale_from_dict({"name": name})
    except GuandanError as exc:
        raise EventError(str(exc)) from None


def _info(row: models.Event) -> EventInfo:
    return EventInfo(
        name=row.name,
        seed=row.seed,
        format=row.format,
        scale=scale_from_dict(json.loads(row.scale)),
        unfinished=UnfinishedRule(row.unfinished_rule),
        boards_per_round=row.boards_per_round,
        rounds=row.rounds,
        bye=ByeRule(row.bye_points_cents / 100, row.bye_won),
        created_at=row.created_at,
        rules=_rules(row),
    )


def _rules(row: models.Event) -> Ruleset:
    """The rule set event ``row`` is played, checked and scored under."""
    return load_rules(row.rules, f"event {row.name!r}")


def create_event(
    engine: Engine,
    name: str,
    *,
    seed: str | None = None,
    scale: str = "wdl",
    fmt: str = "swiss",
    boards_per_round: int = 8,
    rounds: int = 3,
    unfinished: str = "average",
    bye_points: float | None = None,
    bye_won: bool = True,
    teams: Sequence[tuple[str, Sequence[str]]] = (),
    rules: Ruleset = COMPETITION,
) -> EventInfo:
    """Create an event, and enter ``teams`` (name, players) in the same transaction.

    ``seed`` (hex, drawn from :mod:`secrets` when not given) fixes every draw: round 1 of a
    Swiss event and the last tie-break. A bye scores ``bye_points`` (default: a win, 2 on
    the 2/1/0 scale; 12 of 20 VP, standings.BYE_VP). ``rules`` (default the competition
    rules) are what its records are replayed and scored under; they never change after."""
    check_schema(engine)
    name = name.strip()
    if not name:
        raise EventError("an event needs a name")
    if fmt not in FORMATS:
        raise EventError(f"unknown event format {fmt!r}: expected swiss or rr")
    sc = _scale(scale)
    try:
        rule = UnfinishedRule(unfinished.replace("-", "_"))
    except ValueError:
        raise EventError(
            f"unknown unfinished-board rule {unfinished!r}: expected average or not-scored"
        ) from None
    if boards_per_round < 1 or rounds < 1:
        raise EventError(
            f"an event needs at least 1 round of 1 board, not {rounds} of {boards_per_round}"
        )
    seed = seed.strip().lower() if seed else secrets.token_hex(16)
    if not re.fullmatch(r"[0-9a-f]+", seed):
        raise EventError(f"the event seed must be hexadecimal, not {seed!r}")
    if not isinstance(rules, Ruleset):
        raise EventError(f"an event's rules must be a Ruleset, not {type(rules).__name__}")
    if bye_points is None:
        bye_points = 2.0 if isinstance(sc, WinDrawLoss) else 12.0
    cents = round(bye_points * 100)
    if cents < 0 or abs(bye_points * 100 - cents) > 1e-6:
        raise EventError(f"bye points must be 0 or more with two decimals, not {bye_points}")
    with session_scope(engine) as session:
        if session.scalar(select(models.Event.id).where(models.Event.name == name)):
            raise EventError(f"an event named {name!r} already exists")
        row = models.Event(
            name=name,
            seed=seed,
            format=fmt,
            scale=json.dumps(sc.to_dict(), sort_keys=True),
            unfinished_rule=rule.value,
            boards_per_round=boards_per_round,
            rounds=rounds,
            bye_points_cents=cents,
            bye_won=bye_won,
            rules=rules_json(rules),
        )
        session.add(row)
        session.flush()
        for team, players in teams:
            _add_team(session, row, team, players, None)
        return _info(row)


def _event_row(session: Session, name: str) -> models.Event:
    row = session.scalar(select(models.Event).where(models.Event.name == name))
    if row is None:
        raise EventError(f"no event named {name!r}: create it with 'guandan event create'")
    return row


def get_event(engine: Engine, name: str) -> EventInfo:
    """The settings of event ``name``."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _info(_event_row(session, name))


def list_events(engine: Engine) -> list[EventInfo]:
    """Every event, by name."""
    check_schema(engine)
    with session_scope(engine) as session:
        return [_info(r) for r in session.scalars(select(models.Event).order_by(models.Event.name))]


# --- teams -------------------------------------------------------------------------------


def _default_pairs(players: Sequence[str]) -> list[tuple[str, str]]:
    """Players 1–2 and 3–4 (and 5–6 for six); a fifth player alone is a reserve."""
    return [(players[i], players[i + 1]) for i in range(0, len(players) - 1, 2)]


def add_team(
    engine: Engine,
    event: str,
    name: str,
    players: Sequence[str],
    pairs: Sequence[tuple[str, str]] | None = None,
) -> TeamInfo:
    """Add a team of 4 to 6 players; ``pairs`` default to players 1–2, 3–4 (5–6).

    Refused before any round is paired (the field is fixed then), for a name or a player
    already in the event, or pairs that are not two of the team's players.
    """
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        return _add_team(session, ev, name, players, pairs)


def _add_team(
    session: Session,
    ev: models.Event,
    name: str,
    players: Sequence[str],
    pairs: Sequence[tuple[str, str]] | None,
) -> TeamInfo:
    name = name.strip()
    names = [p.strip() for p in players]
    where = f"event {ev.name!r}, team {name!r}"
    if not name:
        raise EventError(f"event {ev.name!r}: a team needs a name")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise EventError(f"{where}: a team has 4 to 6 players, not {len(names)}")
    if any(not p for p in names):
        raise EventError(f"{where}: a player name is empty")
    if len(set(names)) != len(names):
        raise EventError(f"{where}: a player is listed twice")
    if session.scalar(
        select(models.EventRound.id).where(models.EventRound.event_id == ev.id).limit(1)
    ):
        raise EventError(f"{where}: rounds are already paired, the field is closed")
    if session.scalar(
        select(models.EventTeam.id).where(
            models.EventTeam.event_id == ev.id, models.EventTeam.name == name
        )
    ):
        raise EventError(f"{where}: a team of that name is already entered")
    taken = session.scalars(
        select(models.EventPlayer.name).where(
            models.EventPlayer.event_id == ev.id, models.EventPlayer.name.in_(names)
        )
    ).all()
    if taken:
        raise EventError(f"{where}: player {taken[0]!r} already plays for another team")
    pair_list = [(a.strip(), b.strip()) for a, b in pairs] if pairs else _default_pairs(names)
    if len(pair_list) < 2:
        raise EventError(f"{where}: a team needs at least two pairs")
    for a, b in pair_list:
        if a == b or a not in names or b not in names:
            raise EventError(f"{where}: pair {a}/{b} is not two players of the team")
    if len({frozenset(p) for p in pair_list}) != len(pair_list):
        raise EventError(f"{where}: a pair is listed twice")
    number = (
        session.scalar(
            select(models.EventTeam.number)
            .where(models.EventTeam.event_id == ev.id)
            .order_by(models.EventTeam.number.desc())
            .limit(1)
        )
        or 0
    ) + 1
    team = models.EventTeam(event_id=ev.id, number=number, name=name)
    session.add(team)
    session.flush()
    ids: dict[str, int] = {}
    for pos, p in enumerate(names, 1):
        prow = models.EventPlayer(event_id=ev.id, team_id=team.id, position=pos, name=p)
        session.add(prow)
        session.flush()
        ids[p] = prow.id
    for n, (a, b) in enumerate(pair_list, 1):
        session.add(
            models.EventPair(team_id=team.id, number=n, player_1_id=ids[a], player_2_id=ids[b])
        )
    session.flush()
    return TeamInfo(number, name, tuple(names), tuple(pair_list))


def parse_teams_file(text: str, source: str = "<teams>") -> list[tuple[str, list[str]]]:
    """Teams from a text file: one team a line, ``TEAM: player, player, player, player``.

    Blank lines and lines starting with ``#`` are skipped. Errors name the file and line.
    """
    teams: list[tuple[str, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if ":" not in line:
            raise EventError(f"{source}:{number}: expected 'TEAM: player, player, ...'")
        team, rest = line.split(":", 1)
        players = [p.strip() for p in rest.split(",") if p.strip()]
        teams.append((team.strip(), players))
    if not teams:
        raise EventError(f"{source}: no team in the file")
    return teams


def read_teams_file(path: str | os.PathLike[str]) -> list[tuple[str, list[str]]]:
    """The teams of a teams file (:func:`parse_teams_file`)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise EventError(f"cannot read teams file {os.fspath(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise EventError(
            f"teams file {os.fspath(path)!r} is not UTF-8 text: {exc.reason} at byte {exc.start}"
        ) from None
    return parse_teams_file(text, os.fspath(path))


def add_teams_file(engine: Engine, event: str, path: str | os.PathLike[str]) -> list[TeamInfo]:
    """Add every team of a teams file (:func:`parse_teams_file`) in one transaction."""
    teams = read_teams_file(path)
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        return [_add_team(session, ev, name, players, None) for name, players in teams]


@dataclass(slots=True)
class _Field:
    """An event's teams, players and pairs, loaded once for a transaction."""

    teams: dict[int, models.EventTeam] = field(default_factory=dict)
    by_name: dict[str, models.EventTeam] = field(default_factory=dict)
    players: dict[int, str] = field(default_factory=dict)
    pairs: dict[int, models.EventPair] = field(default_factory=dict)
    team_pairs: dict[int, list[models.EventPair]] = field(default_factory=dict)
    rosters: dict[int, list[str]] = field(default_factory=dict)  # team id: players in order

    def pair_names(self, pair_id: int) -> tuple[str, str]:
        """The two players of a pair: the one at N or E first."""
        p = self.pairs[pair_id]
        return (self.players[p.player_1_id], self.players[p.player_2_id])


def _load_field(session: Session, ev: models.Event) -> _Field:
    f = _Field()
    for t in session.scalars(
        select(models.EventTeam)
        .where(models.EventTeam.event_id == ev.id)
        .order_by(models.EventTeam.number)
    ):
        f.teams[t.id] = t
        f.by_name[t.name] = t
        f.team_pairs[t.id] = []
        f.rosters[t.id] = []
    for p in session.scalars(
        select(models.EventPlayer)
        .where(models.EventPlayer.event_id == ev.id)
        .order_by(models.EventPlayer.team_id, models.EventPlayer.position)
    ):
        f.players[p.id] = p.name
        f.rosters[p.team_id].append(p.name)
    if f.teams:
        for pr in session.scalars(
            select(models.EventPair)
            .where(models.EventPair.team_id.in_(list(f.teams)))
            .order_by(models.EventPair.team_id, models.EventPair.number)
        ):
            f.pairs[pr.id] = pr
            f.team_pairs[pr.team_id].append(pr)
    return f


def list_teams(engine: Engine, event: str) -> list[TeamInfo]:
    """The event's teams in entry order, with players and pairs."""
    check_schema(engine)
    with session_scope(engine) as session:
        f = _load_field(session, _event_row(session, event))
        return [
            TeamInfo(
                t.number,
                t.name,
                tuple(f.rosters[t.id]),
                tuple(f.pair_names(p.id) for p in f.team_pairs[t.id]),
            )
            for t in f.teams.values()
        ]


# --- rounds, pairing and seating ---------------------------------------------------------


def _round_row(session: Session, ev: models.Event, number: int) -> models.EventRound:
    row = session.scalar(
        select(models.EventRound).where(
            models.EventRound.event_id == ev.id, models.EventRound.number == number
        )
    )
    if row is None:
        raise EventError(f"event {ev.name!r} has no round {number}: pair it first")
    return row


def _rounds(
    session: Session, ev: models.Event, only: int | None = None, through: int | None = None
) -> list[models.EventRound]:
    """The event's rounds in order: every one, only round ``only`` (which must exist), or
    rounds 1..``through``."""
    query = select(models.EventRound).where(models.EventRound.event_id == ev.id)
    if only is not None:
        _round_row(session, ev, only)
        query = query.where(models.EventRound.number == only)
    if through is not None:
        query = query.where(models.EventRound.number <= through)
    return list(session.scalars(query.order_by(models.EventRound.number)))


def _seating(f: _Field, m: models.EventMatch) -> MatchSeating:
    """The seating of a stored match, checked by ``pairing.validate_seating`` (§11)."""
    return seat_match(
        (f.pair_names(m.open_ns_pair_id), f.pair_names(m.closed_ew_pair_id)),
        (f.pair_names(m.open_ew_pair_id), f.pair_names(m.closed_ns_pair_id)),
    )


def _match_info(f: _Field, rnd: int, m: models.EventMatch) -> MatchInfo:
    s = _seating(f, m)
    op = tuple(s.open_room[seat] for seat in Seat)
    cl = tuple(s.closed_room[seat] for seat in Seat)
    return MatchInfo(
        rnd,
        m.table_no,
        f.teams[m.team_x_id].name,
        f.teams[m.team_y_id].name,
        (op[0], op[1], op[2], op[3]),
        (cl[0], cl[1], cl[2], cl[3]),
    )


def pair_round(
    engine: Engine,
    event: str,
    lineups: Mapping[str, tuple[int, int]] | None = None,
) -> RoundInfo:
    """Pair the next round and seat its matches; returns it.

    Swiss: round 1 is drawn from the event's seed; later rounds pair by the standings after
    the rounds before (which must be complete), never the same two teams twice, the bye to
    the lowest team without one (``pairing.swiss_round``). Round robin: the circle method's
    schedule (``pairing.round_robin``) in entry order. ``lineups`` gives a team's
    ``(open pair, closed pair)`` numbers; by default pairs 1 (open room) and 2 (closed).
    """
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        if len(f.teams) < 2:
            raise EventError(f"event {event!r} needs at least 2 teams to pair a round")
        done = _rounds(session, ev)
        number = len(done) + 1
        if number > ev.rounds:
            raise EventError(f"event {event!r} has {ev.rounds} rounds: all are paired")
        names = [t.name for t in f.teams.values()]
        if ev.format == "rr":
            schedule = round_robin(names)
            if number > len(schedule):
                raise EventError(
                    f"a round robin of {len(names)} teams has {len(schedule)} rounds, not {number}"
                )
            pairing = schedule[number - 1]
        elif number == 1:
            pairing = first_round(names, ev.seed)
        else:
            rows = _standings(session, ev, f, number - 1)
            played: list[tuple[str, str]] = []
            byes: list[str] = []
            for rnd in done:
                if rnd.bye_team_id is not None:
                    byes.append(f.teams[rnd.bye_team_id].name)
                for m in _matches(session, rnd):
                    played.append((f.teams[m.team_x_id].name, f.teams[m.team_y_id].name))
            try:
                pairing = swiss_round([str(r.team) for r in rows], played, byes)
            except PairingError as exc:
                raise EventError(f"event {event!r}, round {number}: {exc}") from None
        return _store_round(session, ev, f, number, pairing, lineups or {})


def _store_round(
    session: Session,
    ev: models.Event,
    f: _Field,
    number: int,
    pairing: Pairing,
    lineups: Mapping[str, tuple[int, int]],
) -> RoundInfo:
    bye = f.by_name[str(pairing.bye)] if pairing.bye is not None else None
    rnd = models.EventRound(
        event_id=ev.id, number=number, bye_team_id=bye.id if bye is not None else None
    )
    session.add(rnd)
    session.flush()
    unknown = set(lineups) - set(f.by_name)
    if unknown:
        raise EventError(f"event {ev.name!r}: no team named {sorted(unknown)[0]!r}")
    matches = []
    for table, (x, y) in enumerate(pairing.tables, 1):
        tx, ty = f.by_name[str(x)], f.by_name[str(y)]
        x_open, x_closed = _lineup(f, tx, lineups.get(tx.name, (1, 2)))
        y_open, y_closed = _lineup(f, ty, lineups.get(ty.name, (1, 2)))
        m = models.EventMatch(
            round_id=rnd.id,
            table_no=table,
            team_x_id=tx.id,
            team_y_id=ty.id,
            open_ns_pair_id=x_open.id,
            closed_ew_pair_id=x_closed.id,
            open_ew_pair_id=y_open.id,
            closed_ns_pair_id=y_closed.id,
        )
        matches.append(_match_info(f, number, m))  # validates the seating before storing
        session.add(m)
    session.flush()
    return RoundInfo(number, tuple(matches), bye.name if bye else None, None, ())


def _lineup(
    f: _Field, team: models.EventTeam, numbers: tuple[int, int]
) -> tuple[models.EventPair, models.EventPair]:
    pairs = {p.number: p for p in f.team_pairs[team.id]}
    a, b = numbers
    if a == b or a not in pairs or b not in pairs:
        raise EventError(
            f"team {team.name!r}: line-up {a},{b} is not two of its pairs (1 to {len(pairs)})"
        )
    return pairs[a], pairs[b]


def _matches(session: Session, rnd: models.EventRound) -> list[models.EventMatch]:
    return list(
        session.scalars(
            select(models.EventMatch)
            .where(models.EventMatch.round_id == rnd.id)
            .order_by(models.EventMatch.table_no)
        )
    )


def list_matches(engine: Engine, event: str, round_no: int | None = None) -> list[MatchInfo]:
    """The matches of every round (or of ``round_no``) with their seating."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        out: list[MatchInfo] = []
        for rnd in _rounds(session, ev, only=round_no):
            out.extend(_match_info(f, rnd.number, m) for m in _matches(session, rnd))
        return out


def get_round(engine: Engine, event: str, round_no: int) -> RoundInfo:
    """Round ``round_no``: matches, bye and boards."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rnd = _round_row(session, ev, round_no)
        set_name = None
        if rnd.board_set_id is not None:
            set_name = session.scalar(
                select(models.BoardSet.name).where(models.BoardSet.id == rnd.board_set_id)
            )
        return RoundInfo(
            rnd.number,
            tuple(_match_info(f, rnd.number, m) for m in _matches(session, rnd)),
            f.teams[rnd.bye_team_id].name if rnd.bye_team_id is not None else None,
            set_name,
            _round_boards(ev, rnd),
        )


def _round_boards(ev: models.Event, rnd: models.EventRound) -> tuple[int, ...]:
    if rnd.first_board is None:
        return ()
    return tuple(range(rnd.first_board, rnd.first_board + ev.boards_per_round))


# --- boards ------------------------------------------------------------------------------


def assign_boards(
    engine: Engine,
    event: str,
    round_no: int,
    *,
    set_name: str | None = None,
    seed: SeedFile | None = None,
    schedule: LevelSchedule | str = "fixed",
    first: int | None = None,
    delayed: str | None = None,
) -> RoundInfo:
    """Give round ``round_no`` its boards: ``boards_per_round`` boards of a stored set from
    ``first`` on.

    Either a set stored by ``guandan deals generate`` (``set_name``), or a seed file: then
    the event's whole set (``rounds × boards_per_round`` boards, named after the event) is
    generated and stored the first time, so that no two rounds share a board; later rounds
    must give the same seed file (checked against the stored commitment). ``first``
    defaults to ``(round − 1) × boards_per_round + 1`` when the set is that long, else 1.
    Refused once the round has results (its boards are what was played).
    """
    if (set_name is None) == (seed is None):
        raise EventError("give either a stored board set or a seed file, not both or neither")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        _round_row(session, ev, round_no)  # before generating anything
        total = ev.rounds * ev.boards_per_round
        name = set_name if set_name is not None else f"{ev.name} boards"
    if seed is not None:
        with session_scope(engine) as session:
            stored = session.scalar(
                select(models.BoardSet.commitment).where(models.BoardSet.name == name)
            )
        if stored is None:
            store_set(engine, generate_set(seed, total, name, schedule, delayed))
        elif stored != seed.commitment:
            # The event's set exists already: a different seed file must not pass silently.
            raise EventError(
                f"event {event!r} already has its board set {name!r}, generated from another "
                f"seed file (commitment {stored[:16]}…, this file's {seed.commitment[:16]}…): "
                f"give that seed file again, or a stored set with --set"
            )
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd = _round_row(session, ev, round_no)
        bset = session.scalar(select(models.BoardSet).where(models.BoardSet.name == name))
        if bset is None:
            raise EventError(f"no board set named {name!r}: generate it with 'guandan deals'")
        bpr = ev.boards_per_round
        if first is None:
            first = (round_no - 1) * bpr + 1 if bset.board_count >= round_no * bpr else 1
        if first < 1 or first + bpr - 1 > bset.board_count:
            raise EventError(
                f"set {name!r} has boards 1 to {bset.board_count}: round {round_no} needs "
                f"{bpr} boards from board {first}"
            )
        if _has_results(session, rnd):
            raise EventError(
                f"event {event!r}, round {round_no} already has results: its boards stay"
            )
        rnd.board_set_id = bset.id
        rnd.first_board = first
        session.flush()
    return get_round(engine, event, round_no)


def _has_results(session: Session, rnd: models.EventRound) -> bool:
    return (
        session.scalar(
            select(models.EventResult.id)
            .join(models.EventMatch)
            .where(models.EventMatch.round_id == rnd.id)
            .limit(1)
        )
        is not None
    )


def _round_board_set(
    session: Session, ev: models.Event, rnd: models.EventRound
) -> dict[int, Board]:
    """The round's boards by set number (from the stored set, checked against DealIds)."""
    if rnd.board_set_id is None or rnd.first_board is None:
        raise EventError(
            f"event {ev.name!r}, round {rnd.number} has no boards: run 'guandan event "
            f"assign-boards'"
        )
    numbers = _round_boards(ev, rnd)
    bset = session.get(models.BoardSet, rnd.board_set_id)
    assert bset is not None
    rows = session.scalars(
        select(models.Board).where(
            models.Board.set_id == bset.id, models.Board.number.in_(list(numbers))
        )
    )
    out: dict[int, Board] = {}
    for r in rows:
        hands = [parse_cards(h) for h in (r.hand_n, r.hand_e, r.hand_s, r.hand_w)]
        out[r.number] = board_from_hands(hands, r.number, r.level, bset.generator)
    return out


# --- records -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prepared:
    """A record read and replayed (possibly in a worker process), ready to be matched.

    ``text`` is its canonical ``.gdn`` form (plays completed with type and rank);
    ``ns_result`` is the N–S result of a finished deal, ``None`` for an unfinished one;
    ``rules`` the rule set it was replayed under (it must be the event's).
    """

    where: str
    tags: dict[str, str]
    hands: tuple[int, int, int, int]
    level: int
    leader: int
    text: str
    digest: str
    ns_result: int | None
    rules: Ruleset = COMPETITION


def _where(rec: DealRecord) -> str:
    place = rec.file or "<record>"
    if rec.line is not None:
        place += f":{rec.line}"
    return f"{place}: board {rec.board or '?'}, room {rec.room or '?'}"


def prepare_text(
    text: str, file: str | None = None, rules: Ruleset = COMPETITION
) -> list[Prepared]:
    """Read ``.gdn`` text strictly and replay every deal under ``rules``; the first error
    raises.

    The error names the file, line, board and room (and the rules, when they are not the
    competition's). Nothing is stored here: this is the part of an import that may run in a
    worker process (``--jobs``).
    """
    out: list[Prepared] = []
    for rec in loads(text, file=file, strict=True):
        res = replay(rec, rules)
        if res.error is not None:
            under = "" if rules == COMPETITION else f" under the rules {describe_rules(rules)}"
            raise EventError(f"{_where(rec)}: does not replay{under}: {res.error}")
        if rec.plays is None:
            raise EventError(f"{_where(rec)}: a hand record without plays is not a result")
        done = res.record
        canonical = format_record(done) + "\n"
        ns = room_result(res.result.winner, res.result.levels, rules) if res.result else None
        h = done.hands
        out.append(
            Prepared(
                _where(rec),
                dict(done.tags),
                (h[0], h[1], h[2], h[3]),
                done.level,
                int(done.leader),
                canonical,
                hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
                ns,
                rules,
            )
        )
    return out


def _prepare_file(path: str, rules: Ruleset = COMPETITION) -> list[Prepared]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise EventError(f"cannot read {path!r}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EventError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        prepared = prepare_text(text, path, rules)
    except GdnError as exc:
        raise EventError(str(exc)) from None
    if not prepared:  # an empty file is a mistake (wrong file, failed export), not a success
        raise EventError(f"{path}: no deal in the file (it is empty or holds only comments)")
    return prepared


@dataclass(slots=True)
class _Slot:
    """Where a record goes: a match's board in one room."""

    match: models.EventMatch
    room: str
    board: int


class _Importer:
    """Matches prepared records to the event's matches and stores them (one transaction)."""

    def __init__(self, session: Session, ev: models.Event, correction: Correction | None):
        self.session = session
        self.ev = ev
        self.correction = correction
        self.field = _load_field(session, ev)
        self.rules = _rules(ev)
        self.boards: dict[int, dict[int, Board]] = {}  # round number: its boards by number
        # (round, room, seat N player) -> (match, seating)
        self.by_player: dict[tuple[int, str, str], tuple[models.EventMatch, MatchSeating]] = {}
        self.results: dict[tuple[int, int, str], models.EventResult] = {}
        self.summary = ImportSummary()
        self.new_rows: list[dict[str, Any]] = []
        self.pending: dict[tuple[int, int, str], str] = {}

    def _round(self, number: int, where: str) -> dict[int, Board]:
        """Round ``number``'s boards; its seating and stored results are loaded the first time."""
        if number not in self.boards:
            try:
                rnd = _round_row(self.session, self.ev, number)
                boards = _round_board_set(self.session, self.ev, rnd)
            except EventError as exc:
                raise EventError(f"{where}: {exc}") from None
            matches = _matches(self.session, rnd)
            for m in matches:
                seating = _seating(self.field, m)
                self.by_player[(number, "open", seating.open_room[Seat.N])] = (m, seating)
                self.by_player[(number, "closed", seating.closed_room[Seat.N])] = (m, seating)
            if matches:
                for r in self.session.scalars(
                    select(models.EventResult).where(
                        models.EventResult.match_id.in_([m.id for m in matches])
                    )
                ):
                    self.results[(r.match_id, r.board, r.room)] = r
            self.boards[number] = boards
        return self.boards[number]

    def add(self, rec: Prepared, round_no: int | None) -> None:
        """Check one record against the event and queue or apply its storage."""
        self.summary.records += 1
        where = rec.where
        if rec.rules != self.rules:  # a caller of import_prepared that replayed it otherwise
            raise EventError(
                f"{where}: replayed under the rules {describe_rules(rec.rules)}, but event "
                f"{self.ev.name!r} plays under {describe_rules(self.rules)}"
            )
        tag_round = rec.tags.get("Round")
        if round_no is None:
            if tag_round is None or not tag_round.strip().isdigit():
                raise EventError(f"{where}: the record has no Round tag (or give --round)")
            round_no = int(tag_round)
        elif tag_round is not None and tag_round.strip() != str(round_no):
            raise EventError(f"{where}: Round tag {tag_round!r} is not round {round_no}")
        boards = self._round(round_no, where)
        board_tag = (rec.tags.get("Board") or "").strip()
        if not board_tag.isdigit() or int(board_tag) not in boards:
            first, last = min(boards), max(boards)
            raise EventError(
                f"{where}: round {round_no} plays boards {first} to {last} of its set, "
                f"not board {board_tag or '?'}"
            )
        number = int(board_tag)
        board = boards[number]
        room = (rec.tags.get("Room") or "").strip().lower()
        if room not in ROOMS:
            raise EventError(f"{where}: Room must be Open or Closed")
        names = [rec.tags.get(t, "").strip() for t in ("North", "East", "South", "West")]
        found = self.by_player.get((round_no, room, names[0]))
        if found is None:
            raise EventError(
                f"{where}: no match of round {round_no} seats {names[0] or '(no North)'!r} "
                f"at N in the {room} room"
            )
        match, seating = found
        seats = seating.open_room if room == "open" else seating.closed_room
        for seat, got in zip(Seat, names, strict=True):
            if seats[seat] != got:
                raise EventError(
                    f"{where}: seat {seat.name} is {seats[seat]!r} in the seating of table "
                    f"{match.table_no}, not {got!r}"
                )
        for what, mine, stored in (
            ("hands", rec.hands, board.hands),
            ("level", rec.level, board.level),
            ("first leader", rec.leader, int(board.leader)),
        ):
            if mine != stored:
                raise EventError(
                    f"{where}: the {what} differ from board {number} of the round's set "
                    f"(DealId {board.deal_id}): not this board"
                )
        self._store(_Slot(match, room, number), rec, where)

    def _store(self, slot: _Slot, rec: Prepared, where: str) -> None:
        key = (slot.match.id, slot.board, slot.room)
        status = "played" if rec.ns_result is not None else "unfinished"
        reason = None if status == "played" else "record ends before the deal"
        if key in self.pending:
            if self.pending[key] != rec.digest:
                raise EventError(
                    f"{where}: a different record of the same board and room "
                    "is earlier in this import"
                )
            self.summary.unchanged += 1
            return
        self.pending[key] = rec.digest
        if status == "unfinished":
            self.summary.unfinished += 1
        old = self.results.get(key)
        if old is None:
            self.new_rows.append(
                {
                    "match_id": slot.match.id,
                    "board": slot.board,
                    "room": slot.room,
                    "status": status,
                    "ns_result": rec.ns_result,
                    "reason": reason,
                    "record_hash": rec.digest,
                    "record_text": rec.text,
                }
            )
            self.summary.added += 1
            return
        as_recorded = (old.status, old.ns_result, old.reason) == (status, rec.ns_result, reason)
        # The same record again changes nothing, even over a director's ruling; only a
        # correction of it restores what the record says (and is logged).
        if old.record_hash == rec.digest and (as_recorded or self.correction is None):
            self.summary.unchanged += 1
            return
        if self.correction is None:
            raise EventError(
                f"{where}: table {slot.match.table_no} already has {_describe(old)} for this "
                f"board and room: a different record is a correction (--correction --reason "
                f"--by)"
            )
        before = _describe(old)
        old.status = status
        old.ns_result = rec.ns_result
        old.reason = reason
        old.record_hash = rec.digest
        old.record_text = rec.text
        _log_correction(
            self.session,
            self.ev,
            slot.match,
            slot.board,
            slot.room,
            self.correction,
            before,
            _describe(old),
        )
        self.summary.corrected += 1

    def flush(self) -> None:
        """Bulk-insert the new results."""
        if self.new_rows:
            self.session.execute(insert(models.EventResult), self.new_rows)
            self.new_rows = []


def _utc(when: datetime) -> datetime:
    """A stored time in UTC with its offset (SQLite gives it back without a time zone)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _describe(row: models.EventResult) -> str:
    """A stored result in a few words, for corrections and errors."""
    if row.status == "unfinished":
        return f"unfinished ({row.reason or 'no reason given'})"
    assert row.ns_result is not None
    side = "NS" if row.ns_result > 0 else "EW"
    text = f"{side} +{abs(row.ns_result)}"
    if row.reason:
        return f"{text} ({row.reason})"
    return f"{text} (record {row.record_hash[:12]})" if row.record_hash else text


def _log_correction(
    session: Session,
    ev: models.Event,
    match: models.EventMatch,
    board: int,
    room: str,
    correction: Correction,
    before: str,
    after: str,
) -> None:
    session.add(
        models.EventCorrection(
            event_id=ev.id,
            match_id=match.id,
            board=board,
            room=room,
            made_by=correction.by.strip(),
            reason=correction.reason.strip(),
            made_at=datetime.now(UTC),
            before=before,
            after=after,
        )
    )


def import_prepared(
    engine: Engine,
    event: str,
    batches: Iterable[Sequence[Prepared]],
    *,
    round_no: int | None = None,
    correction: Correction | None = None,
) -> ImportSummary:
    """Store prepared records, one transaction per batch (a file); see :func:`import_files`."""
    check_schema(engine)
    total = ImportSummary()
    for batch in batches:
        try:
            with session_scope(engine) as session:
                imp = _Importer(session, _event_row(session, event), correction)
                for rec in batch:
                    imp.add(rec, round_no)
                imp.flush()
        except IntegrityError:
            # only a concurrent import can fill a slot this one found empty
            where = batch[0].where.split(": board")[0] if batch else "<empty>"
            raise EventError(
                f"{where}: another import stored results of these boards meanwhile; "
                f"nothing of this file was stored: import it again"
            ) from None
        s = imp.summary
        total.files += 1
        total.records += s.records
        total.added += s.added
        total.unchanged += s.unchanged
        total.corrected += s.corrected
        total.unfinished += s.unfinished
    return total


def import_files(
    engine: Engine,
    event: str,
    paths: Sequence[str | os.PathLike[str]],
    *,
    round_no: int | None = None,
    correction: Correction | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
) -> ImportSummary:
    """Import ``.gdn`` files of played deals into the event's matches.

    Each file is read strictly, every deal replayed under the event's rules (in ``jobs``
    worker processes when more than one), then stored in one transaction: a record that does not replay, is not the
    round's board, or whose players are not the seating's, refuses the whole file. The same
    record again is a no-op; a different one for a filled board and room needs
    ``correction``.
    """
    names = [os.fspath(p) for p in paths]
    rules = event_rules(engine, event)

    def batches() -> Iterable[list[Prepared]]:
        if jobs > 1 and len(names) > 1:
            pool = ProcessPoolExecutor(max_workers=jobs)
            try:
                for prepared in pool.map(_prepare_file, names, repeat(rules)):
                    yield prepared
                    if progress is not None:
                        progress(1)
            finally:  # a refused file stops the import: drop the files not yet replayed
                pool.shutdown(cancel_futures=True)
        else:
            for name in names:
                yield _prepare_file(name, rules)
                if progress is not None:
                    progress(1)

    return import_prepared(engine, event, batches(), round_no=round_no, correction=correction)


def import_texts(
    engine: Engine,
    event: str,
    texts: Sequence[str],
    *,
    round_no: int | None = None,
    correction: Correction | None = None,
) -> ImportSummary:
    """Import ``.gdn`` texts (one transaction each), as :func:`import_files` does files."""
    rules = event_rules(engine, event)
    try:
        prepared = [prepare_text(t, f"<text {i + 1}>", rules) for i, t in enumerate(texts)]
    except GdnError as exc:
        raise EventError(str(exc)) from None
    return import_prepared(engine, event, prepared, round_no=round_no, correction=correction)


def event_rules(engine: Engine, event: str) -> Ruleset:
    """The rule set event ``event`` is played, checked and scored under."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _rules(_event_row(session, event))


def _find_match(
    session: Session, ev: models.Event, round_no: int, table: int
) -> tuple[models.EventRound, models.EventMatch]:
    rnd = _round_row(session, ev, round_no)
    m = session.scalar(
        select(models.EventMatch).where(
            models.EventMatch.round_id == rnd.id, models.EventMatch.table_no == table
        )
    )
    if m is None:
        raise EventError(f"event {ev.name!r}, round {round_no} has no table {table}")
    return rnd, m


def _check_slot(ev: models.Event, rnd: models.EventRound, board: int, room: str) -> None:
    boards = _round_boards(ev, rnd)
    if not boards:
        raise EventError(f"event {ev.name!r}, round {rnd.number} has no boards assigned")
    if board not in boards:
        raise EventError(
            f"round {rnd.number} plays boards {boards[0]} to {boards[-1]}, not board {board}"
        )
    if room not in ROOMS:
        raise EventError(f"room must be open or closed, not {room!r}")


def record_unfinished(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    reason: str,
    rooms: Sequence[str] = ROOMS,
    correction: Correction | None = None,
) -> int:
    """Record that ``board`` of a match was not finished (``reason``: time, withdrawal, …)
    in ``rooms``; it is scored by the event's unfinished rule. A room that already has a
    result needs ``correction``. Returns the number of rooms marked."""
    if not reason.strip():
        raise EventError("an unfinished board needs its reason (time, withdrawal, ...)")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd, m = _find_match(session, ev, round_no, table)
        for room in rooms:
            _check_slot(ev, rnd, board, room)
            old = session.scalar(
                select(models.EventResult).where(
                    models.EventResult.match_id == m.id,
                    models.EventResult.board == board,
                    models.EventResult.room == room,
                )
            )
            if old is None:
                session.add(
                    models.EventResult(
                        match_id=m.id,
                        board=board,
                        room=room,
                        status="unfinished",
                        ns_result=None,
                        reason=reason.strip(),
                    )
                )
                continue
            if old.status == "unfinished" and old.reason == reason.strip():
                continue
            if correction is None:
                raise EventError(
                    f"round {round_no}, table {table}, board {board}, {room} room already has "
                    f"{_describe(old)}: changing it is a correction (--by, --reason)"
                )
            before = _describe(old)
            old.status, old.ns_result, old.reason = "unfinished", None, reason.strip()
            old.record_hash = old.record_text = None
            _log_correction(session, ev, m, board, room, correction, before, _describe(old))
        return len(rooms)


def correct_result(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    ns_result: int,
    correction: Correction,
) -> str:
    """A director's ruling: set a room's N–S result on a board (±1..±3, or ±4 when the
    event plays ``double_down_plus4``, RULES.md §7), kept with who, when and why; the
    record, if any, stays stored beside it. Returns what it replaced."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        check_result(ns_result, _rules(ev), where=f"event {event!r}, board {board}, {room} room")
        rnd, m = _find_match(session, ev, round_no, table)
        _check_slot(ev, rnd, board, room)
        old = session.scalar(
            select(models.EventResult).where(
                models.EventResult.match_id == m.id,
                models.EventResult.board == board,
                models.EventResult.room == room,
            )
        )
        before = _describe(old) if old is not None else "no result"
        if old is None:
            old = models.EventResult(match_id=m.id, board=board, room=room)
            session.add(old)
        old.status, old.ns_result, old.reason = "played", ns_result, "director's ruling"
        session.flush()
        _log_correction(session, ev, m, board, room, correction, before, _describe(old))
        return before


_RESULT_RE = re.compile(r"^\s*+(NS|N-S|EW|E-W)\s*+\+?\s*+([1-4])\s*+$", re.IGNORECASE)


def parse_result(text: str) -> int:
    """A room result as written in records (``NS +2``, ``EW +1``) to N–S's view (+2, −1)."""
    m = _RESULT_RE.match(text)
    if m is None:
        shown = repr(text[:40]) + ("…" if len(text) > 40 else "")
        raise EventError(f"invalid result {shown}: expected e.g. 'NS +2' or 'EW +1'")
    levels = int(m.group(2))
    return levels if m.group(1).upper().startswith("N") else -levels


def list_corrections(engine: Engine, event: str) -> list[dict[str, Any]]:
    """Every correction of the event, oldest first: who, when, why, what changed."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rows = session.execute(
            select(models.EventCorrection, models.EventMatch.table_no, models.EventRound.number)
            .join(models.EventMatch, models.EventCorrection.match_id == models.EventMatch.id)
            .join(models.EventRound, models.EventMatch.round_id == models.EventRound.id)
            .where(models.EventCorrection.event_id == ev.id)
            .order_by(models.EventCorrection.id)
        ).all()
        return [
            {
                "round": rnd,
                "table": table,
                "board": c.board,
                "room": c.room,
                "by": c.made_by,
                "at": _utc(c.made_at).isoformat() if c.made_at else None,
                "reason": c.reason,
                "before": c.before,
                "after": c.after,
            }
            for c, table, rnd in rows
        ]


# --- scores and standings ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoredMatch:
    """A match with its stored results and its score under the event's rules."""

    info: MatchInfo
    results: tuple[BoardResult, ...]
    score: MatchScore

    def to_dict(self) -> dict[str, Any]:
        """A listing row: teams, margin, match points, unfinished boards."""
        return {
            "round": self.info.round,
            "table": self.info.table,
            "team_x": self.info.team_x,
            "team_y": self.info.team_y,
            "margin": self.score.margin,
            "points_x": self.score.points_x,
            "points_y": self.score.points_y,
            "boards_scored": self.score.boards_scored,
            "unfinished": list(self.score.unfinished),
        }


def _round_scores(
    session: Session, ev: models.Event, f: _Field, rnd: models.EventRound, strict: bool
) -> tuple[list[ScoredMatch], list[str]]:
    """Score every match of a round from stored results; ``missing`` lists what is not in.

    With ``strict`` a missing board (neither a result nor marked unfinished) raises.
    """
    boards = _round_boards(ev, rnd)
    matches = _matches(session, rnd)
    stored: dict[tuple[int, int, str], models.EventResult] = {}
    if matches:
        for r in session.scalars(
            select(models.EventResult).where(
                models.EventResult.match_id.in_([m.id for m in matches])
            )
        ):
            stored[(r.match_id, r.board, r.room)] = r
    scale = scale_from_dict(json.loads(ev.scale))
    rule = UnfinishedRule(ev.unfinished_rule)
    rules = _rules(ev)
    out: list[ScoredMatch] = []
    missing: list[str] = []
    if not boards and matches:
        missing.append(f"round {rnd.number}: no boards assigned")
    for m in matches:
        info = _match_info(f, rnd.number, m)
        results = []
        for b in boards:
            vals: list[int | None] = []
            for room in ROOMS:
                row = stored.get((m.id, b, room))
                if row is None:
                    missing.append(
                        f"round {rnd.number}, table {m.table_no} ({info.team_x} v "
                        f"{info.team_y}), board {b}, {room} room"
                    )
                    vals.append(None)
                else:
                    vals.append(row.ns_result)
            results.append(BoardResult(b, vals[0], vals[1]))
        out.append(ScoredMatch(info, tuple(results), score_match(results, scale, rule, rules)))
    if strict and missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise EventError(
            f"event {ev.name!r}: no result for {missing[0]}{more}: import the record or mark "
            f"the board unfinished"
        )
    return out, missing


def _team_rounds(
    ev: models.Event, f: _Field, rnd: models.EventRound, scored: Sequence[ScoredMatch]
) -> list[TeamRound]:
    rows: list[TeamRound] = []
    for s in scored:
        rows.extend(match_rounds(rnd.number, s.info.team_x, s.info.team_y, s.score))
    if rnd.bye_team_id is not None:
        rule = ByeRule(ev.bye_points_cents / 100, ev.bye_won)
        rows.append(bye_round(rnd.number, f.teams[rnd.bye_team_id].name, rule))
    return rows


def _standings(
    session: Session, ev: models.Event, f: _Field, through: int | None
) -> list[StandingRow]:
    """Standings recomputed from the stored results of rounds 1..``through`` (all complete)."""
    rows: list[TeamRound] = []
    for rnd in _rounds(session, ev, through=through):
        scored, _ = _round_scores(session, ev, f, rnd, strict=True)
        rows.extend(_team_rounds(ev, f, rnd, scored))
    return standings([t.name for t in f.teams.values()], rows, ev.seed)


def _complete_rounds(session: Session, ev: models.Event, f: _Field) -> int:
    """The last round n such that rounds 1..n all have every result in."""
    last = 0
    for rnd in _rounds(session, ev):
        _, missing = _round_scores(session, ev, f, rnd, strict=False)
        if missing:
            break
        last = rnd.number
    return last


def event_standings(
    engine: Engine, event: str, through: int | None = None
) -> tuple[list[StandingRow], int]:
    """The standings after round ``through`` (default: the last complete round), always
    recomputed from the stored results; returns them and the round they are after."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        if through is None:
            through = _complete_rounds(session, ev, f)
        else:
            _round_row(session, ev, through)
        return _standings(session, ev, f, through), through


def score_event(engine: Engine, event: str, round_no: int | None = None) -> list[ScoredMatch]:
    """Score every match of ``round_no`` (or of every round) and mark the rounds scored
    (published); refuses, naming the first, when a board has no result in a room."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        out: list[ScoredMatch] = []
        now = datetime.now(UTC)
        for rnd in _rounds(session, ev, only=round_no):
            scored, _ = _round_scores(session, ev, f, rnd, strict=True)
            out.extend(scored)
            rnd.scored_at = now
        if not out and round_no is None:
            raise EventError(f"event {event!r} has no match to score: pair a round first")
        return out


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One board of a match as printed: level, leader, each room's result, X's swing."""

    board: int
    level: int
    leader: Seat
    open_ns: int | None
    closed_ns: int | None
    swing: int | None
    status: str

    def to_dict(self) -> dict[str, Any]:
        """A listing row (level and leader as record characters)."""
        return {
            "board": self.board,
            "level": rank_name(self.level),
            "leader": self.leader.name,
            "open": _signed(self.open_ns),
            "closed": _signed(self.closed_ns),
            "swing": _signed(self.swing),
            "status": self.status,
        }


def _signed(v: int | None) -> str:
    return "-" if v is None else f"{v:+d}" if v else "0"


def match_boards(engine: Engine, event: str, round_no: int, table: int) -> list[BoardRow]:
    """A match board by board: level, leader, open and closed N–S results, X's swing."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rnd, m = _find_match(session, ev, round_no, table)
        boards = _round_board_set(session, ev, rnd)
        scored, _ = _round_scores(session, ev, f, rnd, strict=False)
        sm = next(s for s in scored if s.info.table == table)
        stored = _stored_rooms(session, rnd)
        rows = []
        for r, b in zip(sm.results, sm.score.boards, strict=True):
            status = "played" if r.open_ns is not None and r.closed_ns is not None else "unfinished"
            swing = b.swing
            if not all((m.id, r.board, room) in stored for room in ROOMS):
                status, swing = "not in yet", None  # no result, not marked unfinished
            lv, leader = boards[r.board].level, boards[r.board].leader
            rows.append(BoardRow(r.board, lv, leader, r.open_ns, r.closed_ns, swing, status))
        return rows


def _stored_rooms(session: Session, rnd: models.EventRound) -> set[tuple[int, int, str]]:
    """(match id, board, room) of every stored result of a round, finished or not."""
    return {
        (mid, num, room)
        for mid, num, room in session.execute(
            select(models.EventResult.match_id, models.EventResult.board, models.EventResult.room)
            .join(models.EventMatch)
            .where(models.EventMatch.round_id == rnd.id)
        )
    }


# --- self-play, export and the report ----------------------------------------------------


def _match_seed(ev: models.Event, round_no: int, table: int) -> bytes:
    """The bots' seed for a match: from the event seed, the round and the table."""
    return hashlib.sha256(f"guandan-event/bots|{ev.seed}|{round_no}|{table}".encode()).digest()


#: Bot policies for ``play-bots``: the two of ``duplicate.bots``, and ``mixed``.
BOT_POLICIES = ("mixed", "heuristic", "random")
#: The largest share of random actions a ``mixed`` team's bots make.
MAX_ERROR_RATE = 0.4


class MixedPlayer:
    """A heuristic player that makes a random legal action at a rate of its own.

    Two heuristic teams play every board alike in both rooms (the heuristic player does
    not depend on its seed), so every swing would be 0. In ``mixed`` play each team gets an
    error rate drawn from the event seed (0 to :data:`MAX_ERROR_RATE`), so that teams differ
    in strength as real ones do and the standings mean something.
    """

    name = "mixed"

    def __init__(self, seed: bytes, error_rate: float) -> None:
        self._rng = XorShift64(b"mixed/" + seed)
        self._heuristic = HeuristicPlayer(seed)
        self._random = RandomPlayer(seed)
        self._per_mille = round(error_rate * 1000)

    def act(self, view: View) -> Combo | None:
        """The random player's action with the team's error rate, else the heuristic one."""
        if self._rng.below(1000) < self._per_mille:
            return self._random.act(view)
        return self._heuristic.act(view)


def team_error_rate(seed: str, team: str) -> float:
    """A ``mixed`` team's error rate, drawn from the event seed: 0 to MAX_ERROR_RATE."""
    digest = hashlib.sha256(f"guandan-event/skill|{seed}|{team}".encode()).digest()
    return round(MAX_ERROR_RATE * int.from_bytes(digest[:4], "big") / 0xFFFFFFFF, 3)


def _bot(policy: str, seed: bytes, event_seed: str, team: str) -> Player:
    if policy == "mixed":
        return MixedPlayer(seed, team_error_rate(event_seed, team))
    try:
        return make_player(policy, seed)
    except GuandanError as exc:
        raise EventError(f"{exc} (or mixed)") from None


def bot_records(
    engine: Engine,
    event: str,
    round_no: int,
    x_policy: str = "mixed",
    y_policy: str = "mixed",
) -> list[str]:
    """Play every match of a round with the self-play bots (``simulate.play_deal``) under
    the event's rules, with the seating's player names in the records; returns one ``.gdn`` text per match (open
    room before closed, board by board). Nothing is stored.

    ``x_policy``/``y_policy`` are the policies of each match's teams X and Y: ``mixed``
    (:class:`MixedPlayer`, each team its own error rate), ``heuristic`` or ``random``.
    """
    for policy in (x_policy, y_policy):
        if policy not in BOT_POLICIES:
            raise EventError(f"unknown bot policy {policy!r}: expected {', '.join(BOT_POLICIES)}")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rnd = _round_row(session, ev, round_no)
        boards = _round_board_set(session, ev, rnd)
        plans = [
            (_match_info(f, round_no, m), _match_seed(ev, round_no, m.table_no))
            for m in _matches(session, rnd)
        ]
        event_name, event_seed, rules = ev.name, ev.seed, _rules(ev)
    # team X holds open N–S and closed E–W (RULES.md §11)
    x_seats = {"Open": (True, False, True, False), "Closed": (False, True, False, True)}
    texts = []
    for info, seed in plans:
        records = []
        for number in sorted(boards):
            board = boards[number]
            for room, players in (("Open", info.open_players), ("Closed", info.closed_players)):
                bots = [
                    _bot(
                        x_policy if is_x else y_policy,
                        player_seed(seed, board, room, seat),
                        event_seed,
                        info.team_x if is_x else info.team_y,
                    )
                    for seat, is_x in zip(Seat, x_seats[room], strict=True)
                ]
                tags = {
                    "Event": event_name,
                    "Round": str(round_no),
                    "Room": room,
                    "North": players[0],
                    "East": players[1],
                    "South": players[2],
                    "West": players[3],
                }
                records.append(format_record(play_deal(board, bots, rules, tags=tags)))
        texts.append("\n\n".join(records) + "\n")
    return texts


def play_bots(
    engine: Engine,
    event: str,
    round_no: int,
    x_policy: str = "mixed",
    y_policy: str = "mixed",
    out: str | os.PathLike[str] | None = None,
) -> ImportSummary:
    """Play a round's matches with the bots and import the records (one transaction per
    match); with ``out``, also write them all to that ``.gdn`` file."""
    texts = bot_records(engine, event, round_no, x_policy, y_policy)
    if out is not None:
        Path(out).write_text("\n".join(texts), encoding="utf-8")
    return import_texts(engine, event, texts, round_no=round_no)


def export_records(engine: Engine, event: str, round_no: int | None = None) -> str:
    """The stored records of the event (or of one round) as one ``.gdn`` text."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        query = (
            select(models.EventResult.record_text)
            .join(models.EventMatch, models.EventResult.match_id == models.EventMatch.id)
            .join(models.EventRound, models.EventMatch.round_id == models.EventRound.id)
            .where(models.EventRound.event_id == ev.id, models.EventResult.record_text.is_not(None))
        )
        if round_no is not None:
            query = query.where(models.EventRound.number == round_no)
        query = query.order_by(
            models.EventRound.number,
            models.EventMatch.table_no,
            models.EventResult.board,
            models.EventResult.room.desc(),
        )
        texts = [t for t in session.scalars(query) if t]
    return "\n".join(texts)


def event_report(engine: Engine, event: str, compare: bool = True) -> EventReport:
    """The report data of an event: standings, and every match board by board, each board
    with the comparison of its two rooms (``compare.compare_board``) when both were stored."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rules = _rules(ev)
        through = _complete_rounds(session, ev, f)
        table = _standings(session, ev, f, through)
        matches: list[MatchSummary] = []
        for rnd in _rounds(session, ev):
            if rnd.board_set_id is None:
                continue
            boards = _round_board_set(session, ev, rnd)
            scored, _ = _round_scores(session, ev, f, rnd, strict=False)
            texts: dict[tuple[int, int, str], str] = {}
            if compare:
                for mid, num, room, text in session.execute(
                    select(
                        models.EventResult.match_id,
                        models.EventResult.board,
                        models.EventResult.room,
                        models.EventResult.record_text,
                    )
                    .join(models.EventMatch)
                    .where(models.EventMatch.round_id == rnd.id)
                ):
                    if text:
                        texts[(mid, num, room)] = text
            ids = {m.table_no: m.id for m in _matches(session, rnd)}
            stored = _stored_rooms(session, rnd)
            for s in scored:
                lines = []
                mid = ids[s.info.table]
                n_in = 0
                for r, b in zip(s.results, s.score.boards, strict=True):
                    comp: BoardComparison | None = None
                    o = texts.get((ids[s.info.table], r.board, "open"))
                    c = texts.get((ids[s.info.table], r.board, "closed"))
                    if o and c:
                        comp = compare_board([loads(o)[0], loads(c)[0]], rules)
                    bd = boards[r.board]
                    status = "played" if b.status.value == "played" else "unfinished"
                    if all((mid, r.board, room) in stored for room in ROOMS):
                        n_in += 1
                    else:  # no result and not marked unfinished: not scored as one
                        status = "not in yet"
                    lines.append(
                        BoardLine(
                            str(r.board),
                            bd.level,
                            bd.leader,
                            r.open_ns,
                            r.closed_ns,
                            None if status == "not in yet" else b.swing,
                            status,
                            comp,
                        )
                    )
                matches.append(
                    MatchSummary(
                        key=f"r{rnd.number}-t{s.info.table}",
                        round=str(rnd.number),
                        team_x=s.info.team_x,
                        team_y=s.info.team_y,
                        boards=tuple(lines),
                        margin=s.score.margin,
                        points_x=s.score.points_x if n_in == len(lines) else None,
                        points_y=s.score.points_y if n_in == len(lines) else None,
                        open_players=s.info.open_players,
                        closed_players=s.info.closed_players,
                        state=(
                            ""
                            if n_in == len(lines)
                            else "not played yet"
                            if n_in == 0
                            else f"{n_in} of {len(lines)} boards in"
                        ),
                    )
                )
        info = _info(ev)
    notes = (
        f"Format: {'Swiss' if info.format == 'swiss' else 'round robin'}, {info.rounds} "
        f"round{'s' if info.rounds != 1 else ''} of {info.boards_per_round} boards; scale "
        f"{info.scale.name}; unfinished boards: "
        f"{info.unfinished.value.replace('_', ' ')}; rules: {describe_rules(info.rules)}.",
        f"Standings after round {through}." if through else "No round complete yet.",
    )
    return EventReport(info.name, tuple(table), tuple(matches), notes)


def write_event_report(engine: Engine, event: str, outdir: str | os.PathLike[str]) -> Path:
    """Write the event's HTML report into ``outdir``; returns the path of ``index.html``."""
    report = event_report(engine, event)
    files = write_report(Path(outdir), report)
    return next(p for p in files if p.name == "index.html")
