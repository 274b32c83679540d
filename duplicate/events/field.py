"""An event and its field: creating it, its settings and rules, the teams, their
players and pairs, and the seating of a match by name."""

from __future__ import annotations

import json
import os
import re
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    FORMATS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    EventError,
    EventInfo,
    MatchInfo,
    TeamInfo,
    _event_row,
    _info,
    _rules,
    _scale,
)
from duplicate.events.limit import DEFAULT_MINUTES, check_minutes
from duplicate.gdn import utf8_reason
from duplicate.i18n import LANGUAGES, Term, os_reason, phrase
from duplicate.limits import check_int, check_text, shown
from duplicate.pairing import (
    MatchSeating,
    seat_match,
)
from duplicate.records import rules_json
from duplicate.scoring import (
    UnfinishedRule,
    WinDrawLoss,
)
from duplicate.standings import DEFAULT_ORDER, StandingsError, tiebreak_order
from duplicate.zones import DEFAULT_ZONE, check_zone
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

#: The longest event seed (hex digits; ``models.Event.seed`` holds 128).
MAX_SEED = 128
#: A teams file's line, as its errors show it (``events.err.teams_syntax`` in Chinese).
_TEAMS_SYNTAX = "'TEAM: player, player, ...'"


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
    lang: str = "en",
    time_zone: str = DEFAULT_ZONE,
    director_minutes: int | None = DEFAULT_MINUTES,
    tiebreaks: str = DEFAULT_ORDER,
) -> EventInfo:
    """Create an event, and enter ``teams`` (name, players) in the same transaction.

    ``seed`` (hex, drawn from :mod:`secrets` when not given) fixes every draw: round 1 of a
    Swiss event and the last tie-break. A bye scores ``bye_points`` (default: a win, 2 on
    the 2/1/0 scale; 12 of 20 VP, standings.BYE_VP). ``rules`` (default the competition
    rules) are what its records are replayed and scored under; they never change after.
    ``lang`` (``en`` or ``zh``) is the default language of its pages and report;
    ``time_zone`` (an IANA name, default ``Asia/Shanghai``: :mod:`duplicate.zones`) the zone
    its times are shown in; ``director_minutes``: how long after a round's publication the directors may change
    its results (``None``: no limit; :mod:`duplicate.events.limit`); ``tiebreaks`` the order
    its standings rank by (a key of ``standings.TIEBREAK_ORDERS``: ``jiangsu``, seeds/000,
    or ``friendly``, seeds/004)."""
    check_schema(engine)
    if not name.strip():
        raise EventError(phrase("events.err.needs_name"))
    name = check_text(name, "event")  # at most 200 characters; not '.' or '..'
    if fmt not in FORMATS:
        raise EventError(phrase("events.err.format", fmt=repr(fmt)))
    sc = _scale(scale)
    try:
        rule = UnfinishedRule(unfinished.replace("-", "_"))
    except ValueError:
        raise EventError(phrase("events.err.unfinished_rule", rule=repr(unfinished))) from None
    if boards_per_round < 1 or rounds < 1:
        raise EventError(phrase("events.err.too_few", rounds=rounds, boards=boards_per_round))
    check_int(rounds, "the number of rounds")
    check_int(boards_per_round, "the number of boards a round")
    seed = seed.strip().lower() if seed else secrets.token_hex(16)
    if not re.fullmatch(r"[0-9a-f]+", seed) or len(seed) > MAX_SEED:
        raise EventError(phrase("events.err.seed", most=MAX_SEED, seed=shown(seed)))
    if lang not in LANGUAGES:
        raise EventError(phrase("events.err.language", lang=repr(lang),
                                langs=", ".join(LANGUAGES)))
    zone = check_zone(time_zone)
    director_minutes = check_minutes(director_minutes)
    order = check_order(tiebreaks)
    if not isinstance(rules, Ruleset):
        raise EventError(phrase("events.err.rules_type", kind=type(rules).__name__))
    if bye_points is None:
        bye_points = 2.0 if isinstance(sc, WinDrawLoss) else 12.0
    cents = round(bye_points * 100)
    if cents < 0 or abs(bye_points * 100 - cents) > 1e-6:
        raise EventError(phrase("events.err.bye_points", points=bye_points))
    with session_scope(engine) as session:
        if session.scalar(select(models.Event.id).where(models.Event.name == name)):
            raise EventError(phrase("events.err.exists", name=repr(name)))
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
            lang=lang,
            time_zone=zone,
            director_minutes=director_minutes,
            tiebreaks=order,
            rules=rules_json(rules),
        )
        session.add(row)
        session.flush()
        if director_minutes is None:  # an INSERT leaves None to the server's default (20)
            row.director_minutes = None
            session.flush()
        for team, players in teams:
            _add_team(session, row, team, players, None)
        return _info(row)


def check_order(name: str) -> str:
    """``name`` if it names an order of tie-breaks (``standings.TIEBREAK_ORDERS``)."""
    order = (name or "").strip().lower()
    try:
        tiebreak_order(order)
    except StandingsError as exc:
        raise EventError(exc.phrase or str(exc)) from None
    return order


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


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text).strip()


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
    name = _nfc(name)  # names in Unicode normal form C: an NFD spelling is the same name
    if not name:
        raise EventError(phrase("events.err.team_name", event=repr(ev.name)))
    name = check_text(name, "team")  # within its length limit before it is quoted
    names = [_nfc(p) for p in players]
    where = phrase("events.err.where_team", event=repr(ev.name), team=repr(name))
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise EventError(phrase("events.err.team_size", where=where, count=len(names)))
    if any(not p for p in names):
        raise EventError(phrase("events.err.player_empty", where=where))
    names = [check_text(p, "player") for p in names]
    if len(set(names)) != len(names):
        raise EventError(phrase("events.err.player_twice", where=where))
    if session.scalar(
        select(models.EventRound.id).where(models.EventRound.event_id == ev.id).limit(1)
    ):
        raise EventError(phrase("events.err.field_closed", where=where))
    if session.scalar(
        select(models.EventTeam.id).where(
            models.EventTeam.event_id == ev.id, models.EventTeam.name == name
        )
    ):
        raise EventError(phrase("events.err.team_taken", where=where))
    taken = session.scalars(
        select(models.EventPlayer.name).where(
            models.EventPlayer.event_id == ev.id, models.EventPlayer.name.in_(names)
        )
    ).all()
    if taken:
        raise EventError(phrase("events.err.player_taken", where=where, player=repr(taken[0])))
    pair_list = [(_nfc(a), _nfc(b)) for a, b in pairs] if pairs else _default_pairs(names)
    if len(pair_list) < 2:
        raise EventError(phrase("events.err.two_pairs", where=where))
    for a, b in pair_list:
        if a == b or a not in names or b not in names:
            raise EventError(phrase("events.err.pair_bad", where=where, a=a, b=b))
    if len({frozenset(p) for p in pair_list}) != len(pair_list):
        raise EventError(phrase("events.err.pair_twice", where=where))
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


def parse_teams_file(text: str, source: str | Term = "<teams>") -> list[tuple[str, list[str]]]:
    """Teams from a text file: one team a line, ``TEAM: player, player, player, player``.

    Blank lines and lines starting with ``#`` are skipped. Errors name the file and line
    (``teams.txt:2``), or a form's field (a :class:`Term`) and line: 参赛队名单第2行.
    """
    teams: list[tuple[str, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if ":" not in line:
            where = (phrase("events.where.form_line", field=source, line=number)
                     if isinstance(source, Term) else f"{source}:{number}")
            raise EventError(phrase("events.err.teams_line", where=where,
                                    syntax=Term(_TEAMS_SYNTAX, "events.err.teams_syntax")))
        team, rest = line.split(":", 1)
        players = [p.strip() for p in rest.split(",") if p.strip()]
        teams.append((team.strip(), players))
    if not teams:
        raise EventError(phrase("events.err.teams_none", where=source))
    return teams


def read_teams_file(path: str | os.PathLike[str]) -> list[tuple[str, list[str]]]:
    """The teams of a teams file (:func:`parse_teams_file`)."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise EventError(phrase("events.err.teams_unreadable", path=repr(os.fspath(path)),
                                  reason=os_reason(exc))) from None
    except UnicodeDecodeError as exc:
        raise EventError(phrase("events.err.teams_not_utf8", path=repr(os.fspath(path)),
                                  reason=utf8_reason(exc), byte=exc.start)) from None
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


# --- a match's seating, by name ----------------------------------------------------------


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


def event_rules(engine: Engine, event: str) -> Ruleset:
    """The rule set event ``event`` is played, checked and scored under."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _rules(_event_row(session, event))
