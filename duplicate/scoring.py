"""Duplicate scoring: boards, matches, conversion scales and pairs scoring (pure functions).

Everything here follows ``DUPLICATE.md`` and ``docs/SCORING.md`` (which documents every
scale and parameter). Results are seen from N–S: a room's result on a board is the levels
N–S gained (+1..+3, RULES.md §7; +4 for a double down under the variant
``double_down_plus4``) or conceded (−1..−3, or −4). Team X sits N–S in the open room and
E–W in the closed room (RULES.md §11), so its swing is open N–S − closed N–S. Every bound
comes from :func:`max_levels` of the rule set passed in, never a fixed 3.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from duplicate.errors import PhrasedError
from duplicate.i18n import Phrase, Term, phrase
from engine.deal import DealResult
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Side

K = TypeVar("K", bound=Hashable)

#: τ = (√5 − 1)/2, the golden ratio's reciprocal; the WBF scale uses r = τ³.
TAU: float = (math.sqrt(5.0) - 1.0) / 2.0
#: The WBF scale's base r = τ³ ≈ 0.236068.
WBF_R: float = TAU**3
#: The WBF 2013 scale factor for bridge IMPs: B = 15·√boards.
WBF_BRIDGE_K = 15.0
#: This project's scale factor for Guandan swings: B = 6·√boards (docs/SCORING.md).
GUANDAN_K = 6.0


class ScoringError(PhrasedError, GuandanError):
    """Bad input to a scoring function: a result out of range, an unknown scale, ...
    (English, or a catalogue phrase: :class:`~duplicate.errors.PhrasedError`)."""


# --- one board ------------------------------------------------------------------------


def max_levels(rules: Ruleset = COMPETITION) -> int:
    """The most levels one deal can gain: 3, or 4 under ``double_down_plus4`` (RULES.md §7)."""
    return 4 if rules.double_down_plus4 else 3


def room_result(winner: Side, levels: int, rules: Ruleset = COMPETITION) -> int:
    """A room's result on a board seen from N–S: ``+levels`` if N–S won, ``−levels`` if E–W did.

    ``levels`` is the winning side's level gain from the deal (RULES.md §7: 1, 2 or 3; 4 for
    a double down under ``double_down_plus4``).
    """
    top = max_levels(rules)
    if isinstance(levels, bool) or not isinstance(levels, int) or not 1 <= levels <= top:
        raise ScoringError(phrase("scoring.err.levels", top=top, got=repr(levels)))
    return levels if Side(winner) == Side.NS else -levels


def deal_result_ns(result: DealResult, rules: Ruleset = COMPETITION) -> int:
    """A room's N–S result from the engine's :class:`~engine.deal.DealResult` of the board."""
    return room_result(result.winner, result.levels, rules)


#: Where :func:`check_result` says the result is when its caller does not say.
_RESULT = Term("result", "scoring.word.result")


def check_result(ns_result: int, rules: Ruleset = COMPETITION,
                 where: str | Phrase | Term = _RESULT) -> int:
    """Validate an N–S room result (±1..±3, or ±4 with ``double_down_plus4``) and return it."""
    top = max_levels(rules)
    if (
        isinstance(ns_result, bool)
        or not isinstance(ns_result, int)
        or not 1 <= abs(ns_result) <= top
    ):
        raise ScoringError(phrase("scoring.err.ns_result", where=where, top=top,
                                  got=repr(ns_result)))
    return ns_result


def swing(open_ns: int, closed_ns: int, rules: Ruleset = COMPETITION) -> int:
    """Team X's swing on a board: open-room N–S result − closed-room N–S result (−6..+6;
    −8..+8 under ``double_down_plus4``).

    Team Y's swing is the negation (swings are antisymmetric).
    """
    check_result(open_ns, rules, "open room")
    check_result(closed_ns, rules, "closed room")
    return open_ns - closed_ns


class BoardStatus(Enum):
    """Whether a board of a match was completed in both rooms."""

    PLAYED = "played"
    #: Not finished in at least one room (time ran out, a withdrawal): never silently dropped.
    UNFINISHED = "unfinished"
    #: Conceded by a team by the director's ruling (a late arrival, seeds/004 rule 5): the
    #: opponents gain :data:`CONCEDED_SWING` whatever the rooms say (``duplicate.hall``).
    CONCEDED = "conceded"


#: The swing a conceded board gives the opponents (seeds/004 rule 5: "the opponents +3").
CONCEDED_SWING = 3
#: Who concedes a board or forfeits a match: team X, team Y, or both (each late).
SIDES_XY = ("x", "y", "both")


class UnfinishedRule(Enum):
    """How an event scores an unfinished board (docs/SCORING.md, "Unfinished boards").

    ``AVERAGE``: the board is scored as a swing of 0 for both teams (bridge's "average" in
    IMP scoring, Law 12C2) and counts as a board of the match for the VP scale.
    ``NOT_SCORED``: the board is left out of the margin *and* of the board count used by
    the VP scale; it is still listed in the match score as unfinished.
    """

    AVERAGE = "average"
    NOT_SCORED = "not_scored"


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board of a match: the N–S result in each room; ``None`` for a room that did not finish."""

    board: int
    open_ns: int | None
    closed_ns: int | None
    #: ``"x"``, ``"y"`` or ``"both"`` when the board was conceded by a ruling (see
    #: :func:`score_board`); the rooms' results, if any, then do not count.
    conceded_by: str | None = None

    @property
    def status(self) -> BoardStatus:
        """``CONCEDED`` by a ruling, ``PLAYED`` when both rooms have a result, else
        ``UNFINISHED``."""
        if self.conceded_by is not None:
            return BoardStatus.CONCEDED
        if self.open_ns is None or self.closed_ns is None:
            return BoardStatus.UNFINISHED
        return BoardStatus.PLAYED


@dataclass(frozen=True, slots=True)
class BoardScore:
    """A board as scored for team X: its swing (``None`` when not scored) and levels gained."""

    board: int
    status: BoardStatus
    swing: int | None
    levels_x: int
    levels_y: int


def score_board(
    result: BoardResult,
    unfinished: UnfinishedRule = UnfinishedRule.AVERAGE,
    rules: Ruleset = COMPETITION,
) -> BoardScore:
    """Score one board for team X (N–S open, E–W closed) under the event's unfinished rule.

    Levels gained are counted from the rooms that finished: X gains in the open room when
    N–S won there, and in the closed room when E–W won there.

    A board conceded by a team (``result.conceded_by``, a director's ruling on a late
    arrival) is scored as a swing of :data:`CONCEDED_SWING` to the opponents and that many
    levels gained by them, whatever the rooms hold; conceded by both teams, 0.
    """
    if result.conceded_by is not None:
        if result.conceded_by not in SIDES_XY:
            raise ScoringError(phrase("scoring.err.conceded_by", board=result.board,
                                      got=repr(result.conceded_by)))
        given = {"x": -CONCEDED_SWING, "y": CONCEDED_SWING, "both": 0}[result.conceded_by]
        return BoardScore(result.board, BoardStatus.CONCEDED, given, max(given, 0), max(-given, 0))
    lx = ly = 0
    if result.open_ns is not None:
        check_result(result.open_ns, rules, phrase("scoring.where.open", board=result.board))
        lx += max(result.open_ns, 0)
        ly += max(-result.open_ns, 0)
    if result.closed_ns is not None:
        check_result(result.closed_ns, rules,
                     phrase("scoring.where.closed", board=result.board))
        ly += max(result.closed_ns, 0)
        lx += max(-result.closed_ns, 0)
    if result.status is BoardStatus.PLAYED:
        assert result.open_ns is not None and result.closed_ns is not None
        return BoardScore(
            result.board, BoardStatus.PLAYED, result.open_ns - result.closed_ns, lx, ly
        )
    sw = 0 if unfinished is UnfinishedRule.AVERAGE else None
    return BoardScore(result.board, BoardStatus.UNFINISHED, sw, lx, ly)


# --- conversion scales ----------------------------------------------------------------


class Scale(Protocol):
    """A conversion from a match margin to the two teams' match points."""

    name: str

    def points(self, margin: int, boards: int) -> tuple[float, float]:
        """``(winner-or-X points, loser-or-Y points)`` for X's ``margin`` over ``boards``."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The scale as a plain dict (for JSON and the database)."""
        ...


@dataclass(frozen=True, slots=True)
class WinDrawLoss:
    """Win/draw/loss match points: 2/1/0 by default (Jiangsu rules, "七、胜负")."""

    win: float = 2.0
    draw: float = 1.0
    loss: float = 0.0
    name: str = "wdl"

    def __post_init__(self) -> None:
        if not self.win >= self.draw >= self.loss:
            raise ScoringError(phrase("scoring.err.wdl", win=self.win, draw=self.draw,
                                      loss=self.loss))

    def points(self, margin: int, boards: int) -> tuple[float, float]:
        """X's and Y's points for X's ``margin`` (``boards`` is not used by this scale)."""
        if margin > 0:
            return (self.win, self.loss)
        if margin < 0:
            return (self.loss, self.win)
        return (self.draw, self.draw)

    def to_dict(self) -> dict[str, Any]:
        """The scale as a plain dict."""
        return {"name": self.name, "win": self.win, "draw": self.draw, "loss": self.loss}


def vp_raw(margin: float, blitz: float) -> float:
    """The WBF formula, unrounded: min(20, 10 + 10·(1 − r^(M/B)) / (1 − r)) for M ≥ 0."""
    if margin < 0:
        raise ScoringError(phrase("scoring.err.vp_margin", margin=margin))
    if blitz <= 0:
        raise ScoringError(phrase("scoring.err.blitz", blitz=blitz))
    decay: float = WBF_R ** (margin / blitz)
    return min(20.0, 10.0 + 10.0 * (1.0 - decay) / (1.0 - WBF_R))


@lru_cache(maxsize=256)
def _vp_table_cents(blitz: float) -> tuple[int, ...]:
    """The winner's VP in hundredths for margins 0..⌈B⌉, built like the WBF tables.

    Compute each entry with the formula, round to two decimals, then enforce that an extra
    unit never gains more than the one before (non-increasing increments): wherever the
    increment into margin i exceeds the increment into i − 1, raise the entry at i − 1 by
    0.01 and check again from the start. Raising (never lowering) keeps every entry at or
    above the rounded formula value; see docs/SCORING.md for which values were checked.
    """
    top = math.ceil(blitz)
    v = [round(vp_raw(m, blitz) * 100) for m in range(top + 1)]
    i = 2
    while i < len(v):
        if v[i] - v[i - 1] > v[i - 1] - v[i - 2]:
            v[i - 1] += 1
            i = 2  # a raise can break convexity further down: check again from the start
        else:
            i += 1
    return tuple(v)


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    """The WBF-form continuous 20–0 VP scale with B = k·√boards.

    ``k = 15`` is the WBF 2013 bridge scale (IMPs); ``k = 6`` (:data:`GUANDAN_K`) is this
    project's Guandan scale (swings in levels), justified in docs/SCORING.md.
    """

    k: float = GUANDAN_K
    name: str = "vp20"

    def __post_init__(self) -> None:
        if not (isinstance(self.k, (int, float)) and math.isfinite(self.k) and self.k > 0):
            raise ScoringError(phrase("scoring.err.k", k=repr(self.k)))

    def blitz(self, boards: int) -> float:
        """The scale parameter B = k·√boards: the margin that earns 20–0."""
        if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
            raise ScoringError(phrase("scoring.err.boards", boards=repr(boards)))
        return self.k * math.sqrt(boards)

    def table(self, boards: int) -> tuple[float, ...]:
        """Winner's VP for margins 0, 1, …, ⌈B⌉ (the last is 20.00), two decimals."""
        return tuple(c / 100 for c in _vp_table_cents(self.blitz(boards)))

    def vp(self, margin: int, boards: int) -> float:
        """Team X's VP for its ``margin`` (negative when X lost): winner's VP or 20 − it."""
        if isinstance(margin, bool) or not isinstance(margin, int):
            raise ScoringError(phrase("scoring.err.margin", margin=repr(margin)))
        cents = _vp_table_cents(self.blitz(boards))
        win = cents[min(abs(margin), len(cents) - 1)]
        return (win if margin >= 0 else 2000 - win) / 100

    def points(self, margin: int, boards: int) -> tuple[float, float]:
        """X's and Y's VP; they always add up to 20."""
        x = self.vp(margin, boards)
        return (x, round(20.0 - x, 2))

    def to_dict(self) -> dict[str, Any]:
        """The scale as a plain dict."""
        return {"name": self.name, "k": self.k}


#: The WBF 2013 bridge scale (B = 15·√boards), used to check the implementation.
WBF_BRIDGE_VP = VictoryPoints(k=WBF_BRIDGE_K)
#: This project's Guandan VP scale (B = 6·√boards).
GUANDAN_VP = VictoryPoints(k=GUANDAN_K)
#: The Jiangsu win/draw/loss scale, 2/1/0.
JIANGSU_WDL = WinDrawLoss()


def is_vp(scale: WinDrawLoss | VictoryPoints) -> bool:
    """Whether ``scale`` gives victory points (shown with two decimals everywhere:
    ``duplicate.i18n.game.points_text``) rather than match points (2/1/0)."""
    return isinstance(scale, VictoryPoints)


def scale_from_dict(data: Mapping[str, Any]) -> WinDrawLoss | VictoryPoints:
    """Build a scale from :meth:`to_dict` output: ``{"name": "wdl", ...}`` or ``"vp20"``."""
    params = dict(data)
    name = params.pop("name", None)
    try:
        if name == "wdl":
            return WinDrawLoss(**params)
        if name == "vp20":
            return VictoryPoints(**params)
    except TypeError as exc:
        raise ScoringError(phrase("scoring.err.scale_params", name=repr(name),
                                  error=str(exc))) from None
    raise ScoringError(phrase("scoring.err.scale", name=repr(name)))


def calibrate_k(swings: Iterable[float], sigmas: float = 2.5) -> float:
    """A k for :class:`VictoryPoints` from observed board swings: ``sigmas`` × their std. dev.

    With B = k·√N and board swings of standard deviation σ, a match margin over N boards
    has standard deviation σ·√N, so B lies ``sigmas`` match standard deviations out. Bridge
    (σ ≈ 6 IMPs, k = 15) puts the blitz about 2.5 standard deviations out.
    """
    xs = [float(s) for s in swings]
    if len(xs) < 2:
        raise ScoringError(phrase("scoring.err.calibrate_few", count=len(xs)))
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    if sd == 0:
        raise ScoringError(phrase("scoring.err.calibrate_same"))
    return sigmas * sd


# --- one match ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match as scored: every board (unfinished ones included), margin and match points.

    ``margin``, ``levels_x`` and ``points_x`` are team X's; Y's are the negation / the
    other member. ``boards_scored`` is the board count the scale used.
    """

    boards: tuple[BoardScore, ...]
    margin: int
    boards_scored: int
    levels_x: int
    levels_y: int
    points_x: float
    points_y: float

    @property
    def unfinished(self) -> tuple[int, ...]:
        """Numbers of the boards that were not finished (scored by the event's rule)."""
        return tuple(b.board for b in self.boards if b.status is BoardStatus.UNFINISHED)


def score_match(
    results: Sequence[BoardResult],
    scale: WinDrawLoss | VictoryPoints = JIANGSU_WDL,
    unfinished: UnfinishedRule = UnfinishedRule.AVERAGE,
    rules: Ruleset = COMPETITION,
) -> MatchScore:
    """Score a match: sum X's swings into its margin and convert it with ``scale``.

    A match with no scored board (all unfinished and ``NOT_SCORED``) is a draw.
    """
    seen: set[int] = set()
    for r in results:
        if r.board in seen:
            raise ScoringError(phrase("scoring.err.board_twice", board=r.board))
        seen.add(r.board)
    scored = tuple(score_board(r, unfinished, rules) for r in results)
    counted = [b.swing for b in scored if b.swing is not None]
    margin = sum(counted)
    n = len(counted)
    px, py = scale.points(margin, n) if n else scale.points(0, 1)
    return MatchScore(
        boards=scored,
        margin=margin,
        boards_scored=n,
        levels_x=sum(b.levels_x for b in scored),
        levels_y=sum(b.levels_y for b in scored),
        points_x=px,
        points_y=py,
    )


def scale_extremes(scale: WinDrawLoss | VictoryPoints) -> tuple[float, float]:
    """The most and the least match points a team can score on ``scale`` (2 and 0 on
    2/1/0; 20 and 0 VP)."""
    if isinstance(scale, WinDrawLoss):
        return (scale.win, scale.loss)
    return (20.0, 0.0)


def forfeit_match(
    score: MatchScore, forfeited_by: str, scale: WinDrawLoss | VictoryPoints, boards: int
) -> MatchScore:
    """A match forfeited by a team (弃权, a director's ruling): the opponents score the
    scale's maximum and the forfeiting team its minimum (both the minimum when both teams
    forfeit). The margin is :data:`CONCEDED_SWING` a board of the round to the opponents,
    as if every board were conceded (0 when both forfeit); the boards played, if any, stay
    listed but do not count."""
    if forfeited_by not in SIDES_XY:
        raise ScoringError(phrase("scoring.err.forfeited_by", got=repr(forfeited_by)))
    top, bottom = scale_extremes(scale)
    whole = CONCEDED_SWING * boards
    margin, px, py = {
        "x": (-whole, bottom, top),
        "y": (whole, top, bottom),
        "both": (0, bottom, bottom),
    }[forfeited_by]
    return MatchScore(
        boards=score.boards,
        margin=margin,
        boards_scored=boards,
        levels_x=0,
        levels_y=0,
        points_x=px,
        points_y=py,
    )


# --- pairs events: many results of one board ------------------------------------------


def matchpoints(scores: Sequence[float]) -> list[float]:
    """Matchpoints: 2 for every other score beaten, 1 for every tie (top = 2·(n − 1)).

    Higher scores are better: pass N–S results for N–S, negated ones for E–W.
    """
    return [
        float(sum(2 if s > o else 1 if s == o else 0 for j, o in enumerate(scores) if j != i))
        for i, s in enumerate(scores)
    ]


def neuberg(mp: float, played: int, expected: int) -> float:
    """Neuberg's formula M′ = (M + 1)·E/A − 1 (2-per-beat scale) for a board played A ≠ E times."""
    if played < 1 or expected < 1:
        raise ScoringError(phrase("scoring.err.neuberg", played=played, expected=expected))
    return (mp + 1.0) * expected / played - 1.0


def cross_swings(scores: Sequence[float]) -> list[float]:
    """The average swing of each score against every other score (bridge's cross-IMPs).

    Guandan swings are level differences, so the swing against one score is the plain
    difference. A lone score has nothing to compare with and gets 0.
    """
    n = len(scores)
    if n < 2:
        return [0.0] * n
    total = sum(scores)
    return [(n * s - total) / (n - 1) for s in scores]


def butler_datum(scores: Sequence[float]) -> float:
    """The board's datum: the mean after dropping one top and one bottom score.

    With fewer than three scores nothing is dropped (the mean of what there is); with
    exactly three the datum is the middle one. Ties are dropped one copy at a time.
    """
    if not scores:
        raise ScoringError(phrase("scoring.err.butler"))
    s = sorted(scores)
    kept = s[1:-1] if len(s) >= 3 else s
    return sum(kept) / len(kept)


def butler(scores: Sequence[float]) -> list[float]:
    """Each score's swing against the Butler datum (N–S view; E–W gets the negation)."""
    d = butler_datum(scores)
    return [s - d for s in scores]


class PairsMethod(Enum):
    """How a pairs event scores a board (DUPLICATE.md, "Pairs events")."""

    MATCHPOINTS = "matchpoints"
    CROSS_SWINGS = "cross_swings"
    BUTLER = "butler"


def score_pairs_board(
    ns_results: Mapping[K, int | None],
    method: PairsMethod = PairsMethod.MATCHPOINTS,
    unfinished: UnfinishedRule = UnfinishedRule.AVERAGE,
    rules: Ruleset = COMPETITION,
) -> dict[K, tuple[float, float] | None]:
    """Score one board of a pairs event: ``{table: (N–S score, E–W score)}``.

    ``ns_results`` maps each table that was due to play the board to its N–S result, or
    ``None`` if the board was not finished there. Finished results are compared with each
    other; when some were not finished, matchpoints are scaled with Neuberg's formula to the
    number of tables that were due (E). An unfinished table gets, under ``AVERAGE``, half the
    top (matchpoints) or 0 (swings) for both sides; under ``NOT_SCORED``, ``None``.
    """
    keys = list(ns_results)
    done = [k for k in keys if ns_results[k] is not None]
    vals = []
    for k in done:
        v = ns_results[k]
        assert v is not None
        vals.append(check_result(v, rules, f"table {k!r}"))
    expected = len(keys)
    out: dict[K, tuple[float, float] | None] = {}
    if method is PairsMethod.MATCHPOINTS:
        top = 2.0 * (expected - 1)
        ns = matchpoints(vals)
        if done and len(done) != expected:
            ns = [neuberg(m, len(done), expected) for m in ns]
        for k, m in zip(done, ns, strict=True):
            out[k] = (m, top - m)
        avg: tuple[float, float] = (top / 2, top / 2)
    else:
        sw = (
            cross_swings(vals)
            if method is PairsMethod.CROSS_SWINGS
            else (butler(vals) if vals else [])
        )
        for k, s in zip(done, sw, strict=True):
            out[k] = (s, -s)
        avg = (0.0, 0.0)
    for k in keys:
        if k not in out:
            out[k] = avg if unfinished is UnfinishedRule.AVERAGE else None
    return {k: out[k] for k in keys}
