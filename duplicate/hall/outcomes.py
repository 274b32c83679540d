"""The one truth of each room, as every view shows it: the store's current result with the
finishing order it was counted from, and the results changed since their round was
published (公示).

* :func:`board_outcomes`: every table's two rooms of one board, each its current result
  (``store``'s latest change): status, N–S result, the finishing order (the table's, the
  record's, the director's; ``None`` for an N–S result ruled without one), the unfinished
  board's reason, and who set it, when and why. The public board page and the API show
  this, never a table's report (a dispute settled otherwise, a correction, a request on
  the desk do not show what West once said).
* :func:`published_changes`: every change of a room made after its round was published
  (a director's correction, a ruling, a table's request accepted): what it was before and
  after, when, by whom, why. The standings and the match pages list them; the standings
  are "published, corrected since" while there is one.

Only rounds run in the hall have a publication time (``hall_rounds.published_at``); the
results of a round scored without the hall are never listed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, aliased

from duplicate import models, store
from duplicate.db import session_scope
from duplicate.hall.base import _iso
from duplicate.hall.rows import check_board, event_row, ready, round_row
from duplicate.i18n.stored import said
from duplicate.shapes import IsoTime, Shaped, named


@dataclass(frozen=True, slots=True)
class RoomState(Shaped):
    """A room's result in plain fields: ``played`` with ``ns_result`` and the ``finish`` it
    was counted from, or ``unfinished`` (``note``: why); ``ruled`` when a director set it."""

    status: str
    ns_result: int | None
    finish: str | None
    note: str | None
    ruled: bool

    @classmethod
    def of(cls, state: store.State) -> RoomState:
        """From the store's state."""
        ruled = state.note == store.RULING_NOTE
        return cls(state.status, state.ns_result, state.finish, None if ruled else state.note,
                   ruled)


@dataclass(frozen=True, slots=True)
class RoomOutcome:
    """One room's current result and the change that set it (who, when, why)."""

    table: int
    room: str
    board: int
    state: RoomState
    action: str
    by: str
    at: datetime
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "table": self.table, "room": self.room, "board": self.board,
            **self.state.to_dict(), "action": self.action, "by": self.by,
            "at": _iso(self.at), "reason": self.reason,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class PublishedChange(Shaped):
    """A room's result changed after its round was published: before, after, when, who,
    why (shown on the public pages as a correction)."""

    round_no: int = field(metadata=named("round"))
    table: int
    board: int
    room: str
    before: RoomState | None
    after: RoomState
    action: str
    by: str
    at: IsoTime
    reason: str


def _outcomes(session: Session, *where: Any) -> list[tuple[models.RoomResult, store.Change]]:
    """The latest change of every room matching ``where`` (on ``models.RoomResult``)."""
    r, c = models.RoomResult, models.ResultChange
    later = aliased(models.ResultChange)
    latest = select(func.max(later.id)).where(later.result_id == r.id).correlate(r)
    return store.changes(session, c.id == latest.scalar_subquery(), *where)


def board_outcomes(
    engine: Engine, event: str, round_no: int, board: int
) -> dict[tuple[int, str], RoomOutcome]:
    """Every stored room of ``board`` in the round, by (table, room): its current result,
    the order it was counted from, who set it, when and why."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        check_board(ev, rnd, board)
        m = models.EventMatch
        ids = select(m.id).where(m.round_id == rnd.id).scalar_subquery()
        r = models.RoomResult
        found = _outcomes(session, r.match_id.in_(ids), r.board == str(board))
        return {
            (int(row.table_key), row.room): RoomOutcome(
                int(row.table_key), row.room, board, RoomState.of(ch.new), ch.action, ch.by,
                ch.at, ch.reason,
            )
            for row, ch in found
        }


def published_changes(
    session: Session, ev: models.Event, round_no: int | None = None, table: int | None = None
) -> list[PublishedChange]:
    """Every change of the event's rooms (of one round, one table) made after the round
    was published, oldest first (in the caller's transaction)."""
    r, c, m = models.RoomResult, models.ResultChange, models.EventMatch
    er, hr = models.EventRound, models.HallRound
    published = (
        select(hr.published_at)
        .join(m, m.round_id == hr.round_id)
        .where(m.id == r.match_id)
        .correlate(r)
        .scalar_subquery()
    )
    rounds = select(er.id).where(er.event_id == ev.id)
    if round_no is not None:
        rounds = rounds.where(er.number == round_no)
    matches = select(m.id).where(m.round_id.in_(rounds.scalar_subquery()))
    if table is not None:
        matches = matches.where(m.table_no == table)
    numbers = dict(
        (a, b)
        for a, b in session.execute(
            select(m.id, er.number).join(er, er.id == m.round_id).where(er.event_id == ev.id)
        )
    )
    rows = store.changes(
        session, r.match_id.in_(matches.scalar_subquery()), c.made_at > published
    )
    return [
        PublishedChange(
            numbers.get(row.match_id or 0, 0), int(row.table_key), int(row.board), row.room,
            None if ch.old is None else RoomState.of(ch.old), RoomState.of(ch.new),
            ch.action, ch.by, ch.at, said(ch.reason) or "",  # a coded reason in English words
        )
        for row, ch in rows
    ]


def corrections(
    engine: Engine, event: str, round_no: int | None = None, table: int | None = None
) -> list[PublishedChange]:
    """:func:`published_changes` in a transaction of its own."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        if round_no is not None:
            round_row(session, ev, round_no)
        return published_changes(session, ev, round_no, table)
