"""Standings of a teams event: totals per team and the tie-breaks, in order (pure functions).

The order is the Jiangsu competition rules' (seeds/000, "七、胜负" 2): total match points,
then (去首)累进分, rounds won (胜轮次), total swing (级差分), total levels gained (升级数),
and finally a draw (抽签) made from the event's seed with SHA-256. docs/SCORING.md gives the
reading of each term; the friendly-tournament order of seeds/004 is available as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from duplicate.i18n import Phrase, phrase
from duplicate.pairing import TeamId, draw_key
from duplicate.scoring import MatchScore, ScoringError


class StandingsError(ScoringError):
    """Inconsistent round results: an unknown team, a team twice in a round, bad points."""


@dataclass(frozen=True, slots=True)
class TeamRound:
    """One team's result in one round: a match (``opponent`` set) or a bye (``None``).

    ``margin`` is the team's swing total (级差分 of the round), ``levels`` the levels its
    pairs gained, ``won`` whether it won the round (margin > 0; a bye per :class:`ByeRule`).
    """

    round: int
    team: TeamId
    opponent: TeamId | None
    points: float
    margin: int
    levels: int
    won: bool


@dataclass(frozen=True, slots=True)
class ByeRule:
    """What a bye scores (an event parameter): match points, and whether it counts as won.

    A bye has no boards, so its margin and levels are 0. Defaults: a win (2 points) on the
    win/draw/loss scale; :data:`BYE_VP` gives 12 of 20 VP, a common bridge Swiss practice.
    """

    points: float = 2.0
    won: bool = True


#: A bye on the 2/1/0 scale: a win.
BYE_WDL = ByeRule(2.0, True)
#: A bye on the 20–0 VP scale: 12 VP, counted as a round won.
BYE_VP = ByeRule(12.0, True)


def match_rounds(
    round_no: int, x: TeamId, y: TeamId, score: MatchScore
) -> tuple[TeamRound, TeamRound]:
    """The two teams' :class:`TeamRound` rows from a scored match (X and Y as in the match)."""
    return (
        TeamRound(round_no, x, y, score.points_x, score.margin, score.levels_x, score.margin > 0),
        TeamRound(round_no, y, x, score.points_y, -score.margin, score.levels_y, score.margin < 0),
    )


def bye_round(round_no: int, team: TeamId, rule: ByeRule = BYE_WDL) -> TeamRound:
    """The row of a team that had the bye in ``round_no``."""
    return TeamRound(round_no, team, None, rule.points, 0, 0, rule.won)


class Criterion(Enum):
    """A standings criterion; larger is better for every one."""

    POINTS = "points"  # 总积分: total match points
    PROGRESSIVE = "progressive"  # (去首)累进分: see progressive_score
    ROUNDS_WON = "rounds_won"  # 胜轮次
    SWING = "swing"  # 级差分: total swing (margin) over all rounds
    LEVELS = "levels"  # 升级数: total levels gained
    OPPONENTS_POINTS = "opponents_points"  # 对手分: total points of the teams met


#: Jiangsu rules, "七、胜负" 2 (DUPLICATE.md): the default order; the draw comes last.
JIANGSU_TIEBREAKS = (
    Criterion.POINTS,
    Criterion.PROGRESSIVE,
    Criterion.ROUNDS_WON,
    Criterion.SWING,
    Criterion.LEVELS,
)
#: seeds/004 (2026 friendly): 总场分, 总对手分, 总级差分, 总晋级数.
FRIENDLY_TIEBREAKS = (
    Criterion.POINTS,
    Criterion.OPPONENTS_POINTS,
    Criterion.SWING,
    Criterion.LEVELS,
)
#: The orders an event may rank by, by the name it stores (``events.tiebreaks``): every
#: order the seed texts describe (seeds/002 describes none).
TIEBREAK_ORDERS: dict[str, tuple[Criterion, ...]] = {
    "jiangsu": JIANGSU_TIEBREAKS,
    "friendly": FRIENDLY_TIEBREAKS,
}
#: The order an event ranks by unless its director chose another.
DEFAULT_ORDER = "jiangsu"


def tiebreak_order(name: str) -> tuple[Criterion, ...]:
    """The criteria of order ``name`` (a key of :data:`TIEBREAK_ORDERS`)."""
    try:
        return TIEBREAK_ORDERS[name]
    except KeyError:
        raise StandingsError(phrase("standings.err.order", order=repr(name),
                                    orders=", ".join(TIEBREAK_ORDERS))) from None


def ranked_by(name: str) -> Phrase:
    """What order ``name`` ranks by, as a sentence (the standings say it above the table)."""
    tiebreak_order(name)
    return phrase(f"standings.ranked_by.{name}")


def _where(round_no: object, team: object) -> Phrase:
    """``round 2, team 'Reds'``: a result's place in an error."""
    return phrase("standings.where", round=round_no, team=repr(team))


def _cents(value: float, where: Phrase) -> int:
    """Points as integer hundredths, so that sums and ties are exact."""
    c = round(value * 100)
    if abs(value * 100 - c) > 1e-6:
        raise StandingsError(phrase("standings.err.cents", where=where, value=repr(value)))
    return c


def progressive_score(points_by_round: Sequence[float]) -> float:
    """(去首)累进分: the sum of the running totals after rounds 2, 3, …, R.

    Rounds 2..R, with C_r the total after round r: Σ C_r. E.g. points 2, 0, 2, 2 give running
    totals 2, 2, 4, 6 and a progressive score of 2 + 4 + 6 = 12 (FIDE's "sum of progressive
    scores, cut 1"). Early wins weigh more; cutting round 1 (drawn by lot) limits that.
    """
    running = 0
    total = 0
    for r, p in enumerate(points_by_round, 1):
        running += _cents(p, phrase("standings.where.round", round=r))
        if r >= 2:
            total += running
    return total / 100


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One team's line in the standings; ``decided_by`` names the criterion that put it
    below the row above (``"draw"`` when only the lot did; ``None`` for the first row)."""

    rank: int
    team: TeamId
    points: float
    progressive: float
    rounds_won: int
    swing: int
    levels: int
    opponents_points: float
    played: int
    lot: str
    decided_by: str | None


def standings(
    teams: Iterable[TeamId],
    results: Iterable[TeamRound],
    seed: str | bytes,
    tiebreaks: Sequence[Criterion] = JIANGSU_TIEBREAKS,
) -> list[StandingRow]:
    """Rank the teams: criteria in ``tiebreaks`` order, then a draw from ``seed``.

    Every team is compared over rounds 1..R (R the last round with a result); a round
    without a row for a team (it withdrew) scores 0 for it.
    """
    team_list = list(teams)
    known = {str(t): t for t in team_list}
    if len(known) != len(team_list):
        raise StandingsError(phrase("standings.err.team_twice"))
    rows: dict[str, list[TeamRound]] = {k: [] for k in known}
    seen: set[tuple[int, str]] = set()
    last_round = 0
    for res in results:
        key = str(res.team)
        where = _where(res.round, res.team)
        if key not in known:
            raise StandingsError(phrase("standings.err.not_team", where=where))
        if res.opponent is not None and str(res.opponent) not in known:
            raise StandingsError(phrase("standings.err.opponent", where=where,
                                        opponent=repr(res.opponent)))
        if isinstance(res.round, bool) or not isinstance(res.round, int) or res.round < 1:
            raise StandingsError(phrase("standings.err.round", where=where))
        if (res.round, key) in seen:
            raise StandingsError(phrase("standings.err.two_results", where=where))
        seen.add((res.round, key))
        rows[key].append(res)
        last_round = max(last_round, res.round)

    by_round: dict[str, list[int]] = {}
    for key, rs in rows.items():
        pts = [0] * last_round
        for r in rs:
            pts[r.round - 1] = _cents(r.points, _where(r.round, r.team))
        by_round[key] = pts
    totals = {k: sum(v) for k, v in by_round.items()}

    values: dict[str, dict[Criterion, int]] = {}
    for key, rs in rows.items():
        values[key] = {
            Criterion.POINTS: totals[key],
            Criterion.PROGRESSIVE: round(progressive_score([p / 100 for p in by_round[key]]) * 100),
            Criterion.ROUNDS_WON: sum(1 for r in rs if r.won),
            Criterion.SWING: sum(r.margin for r in rs),
            Criterion.LEVELS: sum(r.levels for r in rs),
            Criterion.OPPONENTS_POINTS: sum(
                totals[str(r.opponent)] for r in rs if r.opponent is not None
            ),
        }
    lots = {key: draw_key(seed, known[key], "standings") for key in known}

    def sort_key(key: str) -> tuple[object, ...]:
        return (*(-values[key][c] for c in tiebreaks), lots[key])

    order = sorted(known, key=sort_key)
    out: list[StandingRow] = []
    prev: str | None = None
    for i, key in enumerate(order, 1):
        decided: str | None = None
        if prev is not None:
            decided = next(
                (c.value for c in tiebreaks if values[key][c] != values[prev][c]), "draw"
            )
        v = values[key]
        out.append(
            StandingRow(
                rank=i,
                team=known[key],
                points=v[Criterion.POINTS] / 100,
                progressive=v[Criterion.PROGRESSIVE] / 100,
                rounds_won=v[Criterion.ROUNDS_WON],
                swing=v[Criterion.SWING],
                levels=v[Criterion.LEVELS],
                opponents_points=v[Criterion.OPPONENTS_POINTS] / 100,
                played=sum(1 for r in rows[key] if r.opponent is not None),
                lot=lots[key].hex()[:16],
                decided_by=decided,
            )
        )
        prev = key
    return out
