"""A table's report that waits, set aside when the director decides its board.

West's report waits for North (``reported``) or for the director (``disputed``) until it
counts or is set aside (``duplicate.hall.reports``, ``duplicate.hall.pending``). When the
director decides the board another way (a correction, a board marked unfinished, a ruling
that assigns its result, concedes it or forfeits the match), that report can no longer
count: it is set aside in the same transaction (``replaced``, no longer live, with who,
when and why, and a line in the event's admin log: ``hall dismiss``, *report set aside by
the director's decision*). So the desk no longer lists it as waiting while the phones say
*ruled by the director* (``duplicate.hall.status``), and a late confirmation from North
cannot write the table's result over the director's: one truth.

A report and a decision of its table are serialised on PostgreSQL by an advisory lock of
the table (round and table number) held to the end of the transaction: a report holds it
shared (:func:`share_table`, :func:`lock_table` ``shared``), the decision takes it
exclusively (:func:`lock_table`, here, before it looks for reports that wait). So a
report sent while the director decides either committed before the decision looks (and
is set aside) or is stored after the decision committed, and then a report of a board a
ruling decided is refused (``duplicate.hall.decided``). SQLite runs one writer at a time.

Left alone: a report that counted already (``confirmed``, ``settled``, ``accepted``), and
a table's request after publication (``requested``: the desk and the phones both show it
as waiting on the desk).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, func, literal, select, update
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.events.log import checked, log_change
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, stored

#: The states of a live report that waits (for North, for the director).
WAITING = ("reported", "disputed")


def is_postgresql(session: Session) -> bool:
    """Whether the session's database is PostgreSQL (advisory locks)."""
    return session.get_bind().dialect.name == "postgresql"


def share_table(round_id: Any, table: Any) -> ColumnElement[Any]:
    """PostgreSQL: a column that takes the table's advisory lock, shared, for the
    transaction (a report's); :func:`lock_table` takes it exclusively."""
    return func.pg_advisory_xact_lock_shared(round_id, table)


def lock_table(session: Session, round_id: int, table: int, *, shared: bool = False) -> None:
    """Take the advisory lock of ``table`` of the round for the transaction (PostgreSQL;
    nothing on SQLite, which runs one writer at a time): exclusively for a director's
    decision, ``shared`` for a table's report (see the module's docstring)."""
    if not is_postgresql(session):
        return
    take = func.pg_advisory_xact_lock_shared if shared else func.pg_advisory_xact_lock
    session.execute(select(take(literal(round_id), literal(table))))


def set_aside_waiting(
    session: Session,
    event: str,
    rnd: models.EventRound,
    table: int,
    by: str,
    reason: str,
    *,
    board: int | None = None,
    room: str | None = None,
    at: datetime | None = None,
) -> int:
    """Set aside every report of ``table`` that waits on ``board`` (every board: ``None``)
    in ``room`` (both: ``None``), as the director ``by`` decided it for ``reason`` (in the
    caller's transaction); how many. The table's lock is taken first (:func:`lock_table`):
    a report on its way is stored before the query below reads, or waits for the commit."""
    lock_table(session, rnd.id, table)
    h = models.HallReport
    query = select(h.id, h.state, h.board, h.room).where(
        h.round_id == rnd.id, h.table_no == table, h.live.is_(True), h.state.in_(WAITING)
    )
    if board is not None:
        query = query.where(h.board == board)
    if room is not None:
        query = query.where(h.room == room)
    when = at or datetime.now(UTC)
    change = checked(by, reason, "a ruling")
    done = 0
    for row in session.execute(query.order_by(h.id)).all():
        moved = session.execute(
            update(h)
            .where(h.id == row.id, h.state == row.state)
            .values(rev=h.rev + 1, state="replaced", live=None, settled_by=change.by,
                    settled_at=when, settled_reason=change.reason)
            .execution_options(synchronize_session=False)
        )
        if getattr(moved, "rowcount", 1) != 1:  # North confirmed it meanwhile
            continue
        where = phrase("hall.err.where", round=rnd.number, table=table, board=row.board,
                       room=phrase(f"hall.room.{row.room}"))
        log_change(session, "hall dismiss", change,
                   coded("lw.detail.set_aside", where=stored(where)), event=event)
        done += 1
    return done
