"""Pairs events (many tables, one board set): records in, per-pair scores and a ranking out.

DUPLICATE.md, "Pairs events": every N–S result on a board is compared with the other
tables' N–S results on it (E–W get the mirror), by matchpoints with Neuberg's adjustment,
cross-swings, or Butler against a datum. The per-board arithmetic is
:func:`duplicate.scoring.score_pairs_board`; this module is the director's side of it:

* every record is replayed (:func:`duplicate.replay.replay`); one that does not replay is
  an error naming its file and line, never dropped;
* records are grouped into boards by their ``Board`` tag, and the records of one board
  must hold the same hands, level and first leader;
* a pair is its two players, named by the ``North``/``South`` or ``East``/``West`` tags.
  A missing name is an error: a ``Table`` tag cannot stand in for a pair, because in a
  Mitchell movement the E–W pairs change tables every round (docs/SCORING.md, "Pairs
  events: from records to a ranking");
* per pair: total, average per board, boards scored, and for matchpoints the percentage
  of the tops available; a ranking with ties shown.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, loads
from duplicate.i18n import os_reason, phrase
from duplicate.replay import quick_replay
from duplicate.scoring import (
    PairsMethod,
    UnfinishedRule,
    butler_datum,
    deal_result_ns,
    neuberg,
    score_pairs_board,
)
from duplicate.shapes import BY_NAME, HIDDEN, Round2, Shaped, named
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

__all__ = [
    "METHOD_NAMES",
    "BoardSummary",
    "PairBoard",
    "PairScore",
    "PairsError",
    "PairsResult",
    "parse_method",
    "score_pairs_event",
    "score_pairs_files",
]

#: The short method names of the command line, and the method each stands for.
METHOD_NAMES: dict[str, PairsMethod] = {
    "mp": PairsMethod.MATCHPOINTS,
    "xswing": PairsMethod.CROSS_SWINGS,
    "butler": PairsMethod.BUTLER,
}
_SHORT_NAME = {m: name for name, m in METHOD_NAMES.items()}
#: Tag values that mean "no name given" (PGN's and PBN's habit, as duplicate.gdn reads them).
_NO_NAME = frozenset({"", "?", "-", "*"})
#: Scores closer than this are the same score when ranking (Neuberg's factors are fractions).
_TIE_DIGITS = 9


class PairsError(DuplicateError):
    """A pairs event that cannot be scored: a record missing a name, conflicting boards, ..."""


def parse_method(method: str | PairsMethod) -> PairsMethod:
    """The :class:`~duplicate.scoring.PairsMethod` of ``mp``, ``xswing`` or ``butler``.

    The enum itself and its values (``matchpoints``, ``cross_swings``, ``butler``) are
    accepted too.
    """
    if isinstance(method, PairsMethod):
        return method
    text = str(method).strip().lower()
    if text in METHOD_NAMES:
        return METHOD_NAMES[text]
    for m in PairsMethod:
        if m.value == text:
            return m
    raise PairsError(
        f"unknown pairs scoring method {method!r}: expected one of {', '.join(METHOD_NAMES)}"
    )


# --- results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairBoard(Shaped):
    """One pair's score on one board.

    Attributes:
        board: the ``Board`` tag.
        pair: the pair's name, ``"A & B"``; ``players`` its two names.
        direction: the side the pair sat on this board.
        opponents: the other pair's name.
        result: the table's result seen from this pair (levels won +1..+3, or conceded
            −1..−3); ``None`` when the deal was not finished.
        score: matchpoints (after Neuberg) or the swing; ``None`` when the board was not
            finished and the event's rule is ``not_scored``.
        top: the board's top in matchpoints, 2·(E − 1); ``None`` for the swing methods.
        datum: the board's Butler datum seen from this pair's side; ``None`` otherwise.
        where: the record's ``file:line``.
    """

    board: str
    pair: str
    players: tuple[str, str] = field(metadata=HIDDEN)
    direction: Annotated[Side, BY_NAME]
    opponents: str
    result: int | None
    score: Round2 | None
    top: Round2 | None
    datum: Round2 | None
    where: str = field(metadata=HIDDEN)


@dataclass(frozen=True, slots=True)
class BoardSummary(Shaped):
    """One board of the event: how often it was played and finished, and its datum.

    ``datum`` is the Butler datum of the N–S results (``None`` for the other methods or
    when no table finished the board).
    """

    board: str
    played: int
    finished: int
    top: Round2 | None
    datum: Round2 | None


@dataclass(frozen=True, slots=True)
class PairScore(Shaped):
    """One pair's line of the ranking.

    Attributes:
        rank: the place within ``field`` (1 = best); tied pairs share it.
        tied: True when another pair of the field has the same rank.
        field: ``"NS"`` or ``"EW"`` when every pair kept one direction (a Mitchell
            movement: each direction is ranked on its own), else ``"all"``.
        pair: ``"A & B"``; ``players`` the two names.
        direction: ``"NS"``, ``"EW"``, or ``"NS+EW"`` for a pair that sat both ways.
        boards: boards scored for the pair.
        total: the sum of its scores; ``average`` per board scored.
        percentage: matchpoints only: total / (sum of the tops of its boards) × 100.
    """

    rank: int
    tied: bool
    field: str
    pair: str
    players: tuple[str, str]
    direction: str
    boards: int
    # dataclasses.field by its module: a field of this class is named ``field``
    total: Round2 = dataclasses.field(metadata=named("score"))
    average: Round2 | None
    percentage: Round2 | None = dataclasses.field(metadata=named("percent"))


@dataclass(frozen=True, slots=True)
class PairsResult:
    """A scored pairs event.

    Attributes:
        method: how the boards were scored.
        tables: E, the number of times a board was due to be played (matchpoints of a
            board played A ≠ E times are scaled to E with Neuberg's formula).
        boards: each board's summary, in board order.
        ranking: the pairs, field by field, best first.
        detail: every pair's score on every board it played, board by board.
    """

    method: PairsMethod
    tables: int
    boards: tuple[BoardSummary, ...]
    ranking: tuple[PairScore, ...]
    detail: tuple[PairBoard, ...]

    @property
    def ranking_columns(self) -> tuple[str, ...]:
        """The ranking's columns for a table or CSV (``percent`` only for matchpoints)."""
        cols = ("rank", "pair", "direction", "boards", "score", "average")
        return (*cols, "percent") if self.method is PairsMethod.MATCHPOINTS else cols

    @property
    def detail_columns(self) -> tuple[str, ...]:
        """The per-board detail's columns (``top`` for matchpoints, ``datum`` for Butler)."""
        cols = ("board", "pair", "direction", "opponents", "result", "score")
        if self.method is PairsMethod.MATCHPOINTS:
            return (*cols, "top")
        if self.method is PairsMethod.BUTLER:
            return (*cols, "datum")
        return cols

    def to_dict(self, by_board: bool = False) -> dict[str, Any]:
        """The event as JSON: method, tables and ranking; with ``by_board`` the boards too."""
        out: dict[str, Any] = {
            "method": _SHORT_NAME[self.method],
            "tables": self.tables,
            "ranking": [p.to_dict() for p in self.ranking],
        }
        if by_board:
            out["boards"] = [b.to_dict() for b in self.boards]
            out["detail"] = [d.to_dict() for d in self.detail]
        return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


# --- reading the tables -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Table:
    """One replayed record: its board, its two pairs (keyed by their names) and its result."""

    record: DealRecord
    board: str
    ns: tuple[str, str]
    ew: tuple[str, str]
    ns_result: int | None

    def pair(self, side: Side) -> tuple[str, str]:
        """The pair that sat ``side``."""
        return self.ns if side is Side.NS else self.ew


def _where(record: DealRecord) -> str:
    """``file.gdn:12`` (or ``<record>``): where a record stands, for messages."""
    where = record.file if record.file is not None else "<record>"
    return f"{where}:{record.line}" if record.line is not None else where


def _name(record: DealRecord, seat: Seat) -> str:
    """The player at ``seat`` (whitespace tidied); a missing name is a :class:`PairsError`."""
    tag = ("North", "East", "South", "West")[seat]
    value = " ".join(record.tags.get(tag, "").split())
    if value in _NO_NAME:
        raise PairsError(
            f"{_where(record)}: board {record.board or '?'} has no {tag} tag naming the player; "
            "a pairs event identifies each pair by its two players' names"
        )
    return value


def _table(record: DealRecord, rules: Ruleset) -> _Table:
    """Replay ``record`` and read its board, pairs and N–S result (raises on any fault)."""
    if record.board is None or not record.board.strip():
        raise PairsError(f"{_where(record)}: the record has no Board tag to compare it by")
    names = [_name(record, s) for s in Seat]
    if len(set(names)) < 4:
        twice = next(n for n in names if names.count(n) > 1)
        raise PairsError(f"{_where(record)}: {twice!r} sits at two seats of one table")
    if record.plays is None:
        raise PairsError(
            f"{_where(record)}: board {record.board} is a hand record (no [Play]), "
            "not a played deal"
        )
    done = quick_replay(record, rules)
    if done.error is not None:
        raise done.error
    ns_result = None if done.result is None else deal_result_ns(done.result, rules)
    return _Table(
        record,
        record.board.strip(),
        (names[Seat.N], names[Seat.S]),
        (names[Seat.E], names[Seat.W]),
        ns_result,
    )


def _key(players: tuple[str, str]) -> frozenset[str]:
    return frozenset(players)


def _pair_name(players: tuple[str, str]) -> str:
    return f"{players[0]} & {players[1]}"


def _board_order(board: str) -> tuple[int, int, str]:
    """Numeric board tags in number order, then the others alphabetically."""
    return (0, int(board), "") if board.isdigit() else (1, 0, board)


def _group(tables: Sequence[_Table]) -> dict[str, list[_Table]]:
    """The tables by board, each board's records checked to be the same board."""
    boards: dict[str, list[_Table]] = {}
    for t in tables:
        group = boards.setdefault(t.board, [])
        if group:
            base = group[0].record
            for what, a, b in (
                ("hands", base.hands, t.record.hands),
                ("level", base.level, t.record.level),
                ("first leader", base.leader, t.record.leader),
            ):
                if a != b:
                    raise PairsError(
                        f"board {t.board}: {_where(t.record)} and {_where(base)} are not the "
                        f"same board: the {what} differ"
                    )
        seated = {_key(s.pair(side)): s for s in group for side in Side}
        for side in Side:
            other = seated.get(_key(t.pair(side)))
            if other is not None:
                raise PairsError(
                    f"board {t.board}: pair {_pair_name(t.pair(side))} plays it twice, at "
                    f"{_where(other.record)} and {_where(t.record)}"
                )
        group.append(t)
    return {b: boards[b] for b in sorted(boards, key=_board_order)}


def _check_players(tables: Sequence[_Table]) -> dict[frozenset[str], tuple[str, str]]:
    """Each player belongs to one pair; returns each pair's names as first seen."""
    pair_of: dict[str, tuple[frozenset[str], _Table]] = {}
    names: dict[frozenset[str], tuple[str, str]] = {}
    for t in tables:
        for side in Side:
            players = t.pair(side)
            key = _key(players)
            names.setdefault(key, players)
            for player in players:
                first = pair_of.setdefault(player, (key, t))
                if first[0] != key:
                    raise PairsError(
                        f"{player!r} plays in two pairs: {_pair_name(names[first[0]])} "
                        f"({_where(first[1].record)}) and {_pair_name(players)} "
                        f"({_where(t.record)}); record a substitute under the pair's usual names"
                    )
    return names


# --- scoring --------------------------------------------------------------------------------


def score_pairs_event(
    records: Iterable[DealRecord],
    method: str | PairsMethod = "mp",
    rules: Ruleset = COMPETITION,
    *,
    unfinished: UnfinishedRule = UnfinishedRule.AVERAGE,
    tables: int | None = None,
) -> PairsResult:
    """Score a pairs event from the records of its tables (DUPLICATE.md, "Pairs events").

    ``records`` hold the same boards played at several tables (``duplicate.gdn.load``).
    Each is replayed; a record that does not replay raises its
    :class:`~duplicate.gdn.GdnError` (file, line, reason). Per board, each N–S result is
    scored against the other tables' (``method``: ``mp``, ``xswing`` or ``butler``; E–W
    get the mirror). ``tables`` is E, the number of times each board was due to be played
    (default: the most times any board was); matchpoints of a board played A ≠ E times are
    scaled with Neuberg's formula so that every board has the same top 2·(E − 1). A deal
    whose play list stops before the end is scored by ``unfinished`` (docs/SCORING.md).
    """
    how = parse_method(method)
    played = [_table(rec, rules) for rec in records]
    if not played:
        raise PairsError(phrase("out.pairs.no_records"))
    boards = _group(played)
    names = _check_players(played)
    most = max(len(g) for g in boards.values())
    if tables is None:
        tables = most
    elif isinstance(tables, bool) or not isinstance(tables, int) or tables < most:
        raise PairsError(
            f"tables must be a whole number at least {most} (the most times a board was "
            f"played), not {tables!r}"
        )
    top = 2.0 * (tables - 1) if how is PairsMethod.MATCHPOINTS else None

    summaries: list[BoardSummary] = []
    detail: list[PairBoard] = []
    for board, group in boards.items():
        ns_results = {i: t.ns_result for i, t in enumerate(group)}
        scored = score_pairs_board(ns_results, how, unfinished, rules)
        done = [t.ns_result for t in group if t.ns_result is not None]
        datum = None
        if how is PairsMethod.BUTLER and done:
            datum = butler_datum(done)
        summaries.append(BoardSummary(board, len(group), len(done), top, datum))
        for i, t in enumerate(group):
            pair_scores = scored[i]
            if pair_scores is not None and how is PairsMethod.MATCHPOINTS and len(group) != tables:
                # Neuberg from the A tables that played the board to the E that were due;
                # score_pairs_board has already scaled the finished results to A.
                ns = neuberg(pair_scores[0], len(group), tables)
                assert top is not None
                pair_scores = (ns, top - ns)
            for side in Side:
                other = side.other
                result = t.ns_result
                if result is not None and side is Side.EW:
                    result = -result
                detail.append(
                    PairBoard(
                        board=board,
                        pair=_pair_name(names[_key(t.pair(side))]),
                        players=names[_key(t.pair(side))],
                        direction=side,
                        opponents=_pair_name(names[_key(t.pair(other))]),
                        result=result,
                        score=None if pair_scores is None else pair_scores[side],
                        top=top,
                        datum=None if datum is None else (datum if side is Side.NS else -datum),
                        where=_where(t.record),
                    )
                )
    ranking = _rank(detail, names, top)
    return PairsResult(how, tables, tuple(summaries), ranking, tuple(detail))


def _rank(
    detail: Sequence[PairBoard],
    names: dict[frozenset[str], tuple[str, str]],
    top: float | None,
) -> tuple[PairScore, ...]:
    """The ranking: per pair total, average and percentage; ranked within each field.

    Matchpoints rank by percentage, swings by average per board (the same order as the
    totals when every pair played as many boards). Equal scores share a rank.
    """
    sides: dict[frozenset[str], set[Side]] = {k: set() for k in names}
    scores: dict[frozenset[str], list[float]] = {k: [] for k in names}
    for d in detail:
        sides[_key(d.players)].add(d.direction)
        if d.score is not None:
            scores[_key(d.players)].append(d.score)
    mitchell = all(len(s) == 1 for s in sides.values())
    lines: list[tuple[str, float, PairScore]] = []
    for key, players in names.items():
        got = scores[key]
        total = math.fsum(got)
        average = total / len(got) if got else None
        percentage = None
        if top is not None and got and top > 0:
            percentage = 100.0 * total / (top * len(got))
        direction = "+".join(s.name for s in sorted(sides[key]))
        field = direction if mitchell else "all"
        value = percentage if top is not None else average
        line = PairScore(
            0,
            False,
            field,
            _pair_name(players),
            players,
            direction,
            len(got),
            total,
            average,
            percentage,
        )
        lines.append((field, -math.inf if value is None else round(value, _TIE_DIGITS), line))
    field_order = {"NS": 0, "EW": 1, "all": 2}
    lines.sort(key=lambda x: (field_order[x[0]], -x[1], x[2].pair))
    out: list[PairScore] = []
    for field, rank_key, line in lines:
        same = [j for j, (f, k, _) in enumerate(lines) if f == field and k == rank_key]
        before = sum(1 for f, _, _ in lines[: same[0]] if f == field)
        out.append(replace(line, rank=before + 1, tied=len(same) > 1))
    return tuple(out)


def score_pairs_files(
    paths: Iterable[str | Path],
    method: str | PairsMethod = "mp",
    rules: Ruleset = COMPETITION,
    *,
    unfinished: UnfinishedRule = UnfinishedRule.AVERAGE,
    tables: int | None = None,
) -> PairsResult:
    """Read the ``.gdn`` files (strictly: the first error stops) and score the pairs event.

    What :func:`score_pairs_event` does, from files; a file that cannot be read is a
    :class:`PairsError` naming it.
    """
    records: list[DealRecord] = []
    for path in paths:
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as e:
            raise PairsError(phrase("imports.unreadable", path=repr(str(p)),
                                    reason=os_reason(e))) from e
        records.extend(loads(data, file=str(p)))
    return score_pairs_event(records, method, rules, unfinished=unfinished, tables=tables)
