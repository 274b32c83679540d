"""Scores and standings, always recomputed from the stored results: a round's matches,
the standings after a round, a match board by board.

The director's rulings of the hall service (``hall_rulings``, :mod:`duplicate.hall`) are
honoured here, never copied into results: a board **conceded** by a team (a late arrival,
seeds/004 rule 5) scores a swing of ``scoring.CONCEDED_SWING`` (+3) to the opponents
whatever its rooms hold, and needs no result in either room; a match **forfeited** by a
team (seeds/004 rule 6) scores the scale's maximum for the opponents and its minimum for
the offender (``scoring.forfeit_match``) and needs no result at all. Assigned room results
are ordinary rulings in the store."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.dealing import Board
from duplicate.events.base import (
    ROOMS,
    EventError,
    MatchInfo,
    _current,
    _event_row,
    _find_match,
    _matches,
    _memo,
    _round_board_set,
    _round_boards,
    _round_row,
    _rounds,
    _rules,
)
from duplicate.events.field import _Field, _load_field, _match_info
from duplicate.i18n import Phrase, phrase
from duplicate.scoring import (
    BoardResult,
    BoardStatus,
    MatchScore,
    UnfinishedRule,
    forfeit_match,
    scale_from_dict,
    score_match,
)
from duplicate.shapes import BY_NAME, As, Shaped, named
from duplicate.standings import (
    DEFAULT_ORDER,
    ByeRule,
    StandingRow,
    TeamRound,
    bye_round,
    match_rounds,
    standings,
    tiebreak_order,
)
from engine.cards import rank_name
from engine.seat import Seat


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
            "bye": False,
            "margin": self.score.margin,
            "points_x": self.score.points_x,
            "points_y": self.score.points_y,
            "boards_scored": self.score.boards_scored,
            "unfinished": list(self.score.unfinished),
        }


@dataclass(frozen=True, slots=True)
class ScoredBye:
    """A team's bye in a round: no opponent and no boards, the event's bye points
    (:class:`~duplicate.standings.ByeRule`), a round won or not. The standings count it
    as they count a match (:func:`_team_rounds`): every listing of a team's rounds shows
    it, so that its rounds add up to its total."""

    round: int
    team: str
    points: float
    won: bool

    def to_dict(self) -> dict[str, Any]:
        """A row of the score listing, in its columns: ``team_x`` the team, no table, no
        opponent (``team_y`` null), ``bye`` true."""
        return {
            "round": self.round,
            "table": None,
            "team_x": self.team,
            "team_y": None,
            "bye": True,
            "margin": 0,
            "points_x": self.points,
            "points_y": None,
            "boards_scored": 0,
            "unfinished": [],
            "won": self.won,
        }


def _round_scores(
    session: Session, ev: models.Event, f: _Field, rnd: models.EventRound, strict: bool
) -> tuple[list[ScoredMatch], list[Phrase]]:
    """Score every match of a round from stored results; ``missing`` lists what is not in.

    With ``strict`` a missing board (neither a result nor marked unfinished) raises.
    In a :func:`~duplicate.events.base.snapshot` a round is scored once.
    """
    memo = _memo(session)
    key = ("scores", rnd.id)
    if memo is not None and key in memo:
        out, missing = memo[key]
    else:
        out, missing = _score_round(session, ev, f, rnd)
        if memo is not None:
            memo[key] = (out, missing)
    if strict and missing and missing[0].key == "events.err.missing_boards":
        raise EventError(phrase("out.events.no_boards", event=repr(ev.name), round=rnd.number),
                         cli_hint=phrase("out.events.assign_hint"))
    if strict and missing:
        raise EventError(
            phrase("events.err.no_result_more", event=repr(ev.name), first=missing[0],
                   more=len(missing) - 1)
            if len(missing) > 1
            else phrase("events.err.no_result", event=repr(ev.name), first=missing[0])
        )
    return list(out), list(missing)


def _score_round(
    session: Session, ev: models.Event, f: _Field, rnd: models.EventRound
) -> tuple[list[ScoredMatch], list[Phrase]]:
    """Every match of a round scored, and what is missing (see :func:`_round_scores`)."""
    boards = _round_boards(ev, rnd)
    matches = _matches(session, rnd)
    stored = {k: n.state for k, n in _current(session, [m.id for m in matches]).items()}
    conceded, forfeits = _adjustments(session, rnd, matches)
    scale = scale_from_dict(json.loads(ev.scale))
    rule = UnfinishedRule(ev.unfinished_rule)
    rules = _rules(ev)
    out: list[ScoredMatch] = []
    missing: list[Phrase] = []
    if not boards and matches:
        missing.append(phrase("events.err.missing_boards", round=rnd.number))
    for m in matches:
        info = _match_info(f, rnd.number, m)
        results = []
        for b in boards:
            vals: list[int | None] = []
            given = conceded.get((m.id, b))
            for room in ROOMS:
                row = stored.get((m.id, b, room))
                if row is None:
                    if not _excused(m.id, b, conceded, forfeits):
                        missing.append(phrase(
                            "events.err.missing_room", round=rnd.number, table=m.table_no,
                            x=info.team_x, y=info.team_y, board=b,
                            room=phrase(f"hall.room.{room}"),
                        ))
                    vals.append(None)
                else:
                    vals.append(row.ns_result)
            results.append(BoardResult(b, vals[0], vals[1], given))
        score = score_match(results, scale, rule, rules)
        if m.id in forfeits:
            score = forfeit_match(score, forfeits[m.id], scale, len(boards))
        out.append(ScoredMatch(info, tuple(results), score))
    return out, missing


def _excused(
    match_id: int, board: int, conceded: dict[tuple[int, int], str], forfeits: dict[int, str]
) -> bool:
    """Whether a room of the board needs no result: the board was conceded by ruling, or
    the match forfeited (:func:`_adjustments`)."""
    return (match_id, board) in conceded or match_id in forfeits


def _round_complete(session: Session, ev: models.Event, rnd: models.EventRound) -> bool:
    """Whether the round has every result in (what :func:`_round_scores` calls nothing
    missing) without scoring it: the board and room of every match stored or excused."""
    boards = _round_boards(ev, rnd)
    matches = _matches(session, rnd)
    if not boards:
        return not matches
    stored = _current(session, [m.id for m in matches])
    conceded, forfeits = _adjustments(session, rnd, matches)
    return all(
        (m.id, b, room) in stored or _excused(m.id, b, conceded, forfeits)
        for m in matches for b in boards for room in ROOMS
    )


def _adjustments(
    session: Session, rnd: models.EventRound, matches: Sequence[models.EventMatch]
) -> tuple[dict[tuple[int, int], str], dict[int, str]]:
    """The hall's rulings that change scores in a round: (match id, board) -> who conceded
    it, and match id -> who forfeited it (``"x"``, ``"y"`` or ``"both"``)."""
    by_table = {m.table_no: m for m in matches}
    conceded: dict[tuple[int, int], str] = {}
    forfeits: dict[int, str] = {}
    h = models.HallRuling
    rows = session.execute(
        select(h.table_no, h.effect, h.team_id, h.board)
        .where(h.round_id == rnd.id, h.effect.in_(("conceded", "forfeit")))
        .order_by(h.id)
    )
    for table_no, effect, team_id, board in rows:
        m = by_table.get(table_no)
        if m is None or team_id not in (m.team_x_id, m.team_y_id):
            continue
        side = "x" if team_id == m.team_x_id else "y"
        if effect == "forfeit":
            forfeits[m.id] = side if forfeits.get(m.id, side) == side else "both"
        elif board is not None:
            key = (m.id, board)
            conceded[key] = side if conceded.get(key, side) == side else "both"
    return conceded, forfeits


@dataclass(frozen=True, slots=True)
class Decided:
    """A hall ruling that decides a board without a result (``conceded``: ``board``) or a
    whole match (``forfeit``: ``board`` None): where, which team, who, when, why (as
    stored: a coded reason is said by :func:`duplicate.i18n.stored.reason_said`)."""

    round: int
    table: int
    board: int | None
    effect: str
    team: str
    by: str
    at: datetime
    reason: str


def _decisions(session: Session, ev: models.Event) -> list[Decided]:
    """Every ruling of the event that concedes a board or forfeits a match, oldest first
    (what :func:`_adjustments` scores)."""
    h, r, t = models.HallRuling, models.EventRound, models.EventTeam
    rows = session.execute(
        select(r.number, h.table_no, h.board, h.effect, t.name, h.made_by, h.made_at, h.reason)
        .join(r, r.id == h.round_id)
        .join(t, t.id == h.team_id)
        .where(r.event_id == ev.id, h.effect.in_(("conceded", "forfeit")))
        .order_by(h.id)
    )
    return [Decided(n, table, None if effect == "forfeit" else board, effect, team, by, at,
                    reason)
            for n, table, board, effect, team, by, at, reason in rows]


def _round_bye(ev: models.Event, f: _Field, rnd: models.EventRound) -> ScoredBye | None:
    """The round's bye (``None``: it has none), scored by the event's bye rule."""
    if rnd.bye_team_id is None:
        return None
    rule = ByeRule(ev.bye_points_cents / 100, ev.bye_won)
    return ScoredBye(rnd.number, f.teams[rnd.bye_team_id].name, rule.points, rule.won)


def _team_rounds(
    ev: models.Event, f: _Field, rnd: models.EventRound, scored: Sequence[ScoredMatch]
) -> list[TeamRound]:
    rows: list[TeamRound] = []
    for s in scored:
        rows.extend(match_rounds(rnd.number, s.info.team_x, s.info.team_y, s.score))
    bye = _round_bye(ev, f, rnd)
    if bye is not None:
        rows.append(bye_round(rnd.number, bye.team, ByeRule(bye.points, bye.won)))
    return rows


def round_byes(engine: Engine, event: str, round_no: int | None = None) -> list[ScoredBye]:
    """The byes of round ``round_no`` (or of every round), round by round: who had one and
    what it scores, as the standings count it."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        return [b for rnd in _rounds(session, ev, only=round_no)
                if (b := _round_bye(ev, f, rnd)) is not None]


def _standings(
    session: Session, ev: models.Event, f: _Field, through: int | None
) -> list[StandingRow]:
    """Standings recomputed from the stored results of rounds 1..``through`` (all complete)."""
    rows: list[TeamRound] = []
    for rnd in _rounds(session, ev, through=through):
        scored, _ = _round_scores(session, ev, f, rnd, strict=True)
        rows.extend(_team_rounds(ev, f, rnd, scored))
    return standings([t.name for t in f.teams.values()], rows, ev.seed,
                     tiebreak_order(ev.tiebreaks or DEFAULT_ORDER))


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
            raise EventError(phrase("events.err.nothing_to_score", event=repr(event)))
        return out


#: a result written signed (``+2``, ``0``; ``-`` when none)
Signed = Annotated[int | None, As(lambda v: _signed(v))]


@dataclass(frozen=True, slots=True)
class BoardRow(Shaped):
    """One board of a match as printed: level, leader, each room's result, X's swing."""

    board: int
    level: Annotated[int, As(rank_name)]
    leader: Annotated[Seat, BY_NAME]
    open_ns: Signed = field(metadata=named("open"))
    closed_ns: Signed = field(metadata=named("closed"))
    swing: Signed
    status: str


def _signed(v: int | None) -> str:
    return "-" if v is None else f"{v:+d}" if v else "0"


def match_boards(engine: Engine, event: str, round_no: int, table: int) -> list[BoardRow]:
    """A match board by board: level, leader, open and closed N–S results, X's swing."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd, m = _find_match(session, ev, round_no, table)
        return _match_rows(session, ev, _load_field(session, ev), rnd, m)


def _match_rows(
    session: Session, ev: models.Event, f: _Field, rnd: models.EventRound, m: models.EventMatch
) -> list[BoardRow]:
    """:func:`match_boards` in the caller's transaction (the hall service's public pages)."""
    scored, _ = _round_scores(session, ev, f, rnd, strict=False)
    sm = next(s for s in scored if s.info.table == m.table_no)
    return board_rows(sm, m.id, _round_board_set(session, ev, rnd), _stored_rooms(session, rnd))


def board_rows(
    sm: ScoredMatch, match_id: int, boards: Mapping[int, Board],
    stored: set[tuple[int, int, str]],
) -> list[BoardRow]:
    """A scored match board by board, as every output shows it (the hall's pages and API,
    ``event boards``, the HTML report): ``played``; ``unfinished`` (scored by the event's
    rule); ``conceded`` by a ruling (its swing counts, its rooms need no result); ``not in
    yet`` (no result and not marked unfinished: no swing). ``stored``: (match id, board,
    room) of every stored result of the round (:func:`_stored_rooms`)."""
    rows = []
    for r, b in zip(sm.results, sm.score.boards, strict=True):
        status = "played" if r.open_ns is not None and r.closed_ns is not None else "unfinished"
        swing = b.swing
        if b.status is BoardStatus.CONCEDED:
            status = "conceded"  # a ruling: the rooms need no result
        elif not all((match_id, r.board, room) in stored for room in ROOMS):
            status, swing = "not in yet", None  # no result, not marked unfinished
        lv, leader = boards[r.board].level, boards[r.board].leader
        rows.append(BoardRow(r.board, lv, leader, r.open_ns, r.closed_ns, swing, status))
    return rows


def _stored_rooms(session: Session, rnd: models.EventRound) -> set[tuple[int, int, str]]:
    """(match id, board, room) of every stored result of a round, finished or not."""
    return set(_current(session, [m.id for m in _matches(session, rnd)]))
