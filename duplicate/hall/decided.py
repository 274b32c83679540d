"""A board the director decided by a ruling takes no report from the table.

A ruling that concedes a board (``conceded``: the opponents +3, whatever its rooms hold)
or forfeits the match (``forfeit``: every board) decides the board in both rooms
(``duplicate.hall.rulings``; scored by ``duplicate.events.scores`` from the ruling, with
no room result). West's report of such a board can never count: a report waiting then is
set aside by the ruling (``duplicate.events.waiting``), and one sent after it is refused
(``hall.err.decided``, a conflict), so that the phones, the desk and the API never show a
decided board as waiting for North. The phones show the decision instead of the form.

The refusal is the database's, in the transaction that would store the report:

* :func:`deciding` is the id of the ruling that decides a board, an SQL expression read
  with the report's other rows (a clear refusal first) and again in the report's
  ``INSERT … SELECT … WHERE`` (:func:`guarded_insert`): the row is written only if no
  ruling decides the board when the insert runs;
* on PostgreSQL a report holds a shared advisory lock of its table for its transaction
  (``waiting.share_table``) from its first read, and a director's decision takes the same
  lock exclusively (``waiting.lock_table``, in ``set_aside_waiting``) before it looks for
  reports that wait: a report either commits before the ruling looks (and is set aside
  by it) or inserts after the ruling committed (and is refused). SQLite runs one writer
  at a time and needs no lock.

A ruling counts for a board when its team plays at that table in that round, as scoring
reads it (``events.scores._adjustments``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Insert, bindparam, func, insert, or_, select
from sqlalchemy.orm import Session, aliased

from duplicate import models
from duplicate.events.waiting import is_postgresql, lock_table, share_table
from duplicate.hall.base import Decision

__all__ = [
    "DECIDING",
    "deciding",
    "deciding_ruling",
    "decision",
    "decisions",
    "guarded_insert",
    "is_postgresql",
    "lock_table",
    "share_table",
]

_r = aliased(models.HallRuling, name="deciding_ruling")
_m = aliased(models.EventMatch, name="deciding_match")
#: The effects of a ruling that decide a board without a room result.
DECIDING = ("conceded", "forfeit")


def deciding(round_id: Any, table: Any, board: Any) -> ColumnElement[int]:
    """The id of the first ruling that decides ``board`` at ``table`` of the round (SQL
    ``NULL``: none): a conceded board, or a forfeit of the match, by a team of that table.
    The arguments are SQL expressions or values."""
    return (
        select(func.min(_r.id))
        .join(_m, (_m.round_id == _r.round_id) & (_m.table_no == _r.table_no)
              & or_(_r.team_id == _m.team_x_id, _r.team_id == _m.team_y_id))
        .where(
            _r.round_id == round_id, _r.table_no == table,
            or_(_r.effect == "forfeit", (_r.effect == "conceded") & (_r.board == board)),
        )
        .correlate_except(_r, _m)
        .scalar_subquery()
    )  # fmt: skip


def guarded_insert(table: Any, columns: Sequence[str]) -> Insert:
    """``INSERT INTO hall_reports (columns) SELECT :column, … WHERE`` no ruling decides the
    board ``:round_id``, ``:table_no``, ``:board``, ``RETURNING id``: executed with the
    columns' values, it returns no row when a ruling decides the board."""
    h = models.HallReport
    values = [bindparam(c, type_=h.__table__.c[c].type).label(c) for c in columns]
    guard = deciding(
        bindparam("round_id", type_=h.round_id.type),
        bindparam("table_no", type_=h.table_no.type),
        bindparam("board", type_=h.board.type),
    ).is_(None)
    source = select(*values).where(guard)
    return insert(table).from_select(list(columns), source).returning(h.id)


def deciding_ruling(session: Session, round_id: int, table: int, board: int) -> int | None:
    """The id of the ruling that decides ``board`` (:func:`deciding`), or ``None``."""
    found: int | None = session.scalar(select(deciding(round_id, table, board)))
    return found


def decision(session: Session, ruling_id: int) -> Decision:
    """The ruling ``ruling_id`` as a :class:`Decision` (its effect and team)."""
    h, t = models.HallRuling, models.EventTeam
    effect, team = session.execute(
        select(h.effect, t.name).join(t, t.id == h.team_id).where(h.id == ruling_id)
    ).one()
    return Decision(ruling_id, effect, team)


def decisions(
    session: Session,
    rnd: models.EventRound,
    matches: Sequence[models.EventMatch],
    boards: Sequence[int],
) -> Mapping[tuple[int, int], Decision]:
    """The decision of every decided (match id, board) of these matches: the first ruling
    that decides it (as :func:`deciding` picks it)."""
    h, t = models.HallRuling, models.EventTeam
    by_table = {m.table_no: m for m in matches}
    query = (
        select(h.id, h.table_no, h.effect, h.board, h.team_id, t.name)
        .join(t, t.id == h.team_id)
        .where(h.round_id == rnd.id, h.effect.in_(DECIDING))
        .order_by(h.id)
    )
    found: dict[tuple[int, int], Decision] = {}
    for rid, table, effect, board, team_id, name in session.execute(query):
        m = by_table.get(table)
        if m is None or team_id not in (m.team_x_id, m.team_y_id):
            continue
        for b in boards if effect == "forfeit" else (board,) if board is not None else ():
            found.setdefault((m.id, b), Decision(rid, effect, name))
    return found
