"""The state of every board of a table and room, as the phones and the desk show it.

A board's state combines its live report (``hall_reports``), the result that counts (the
store's current result, ``duplicate.store``) and the director's rulings:

* ``disputed`` / ``reported``: West's live report waits for the director / for North
  (a result that counted before, if any, still counts meanwhile). Checked first, so that
  a phone says *waiting* exactly when the desk lists the report as waiting; a ruling sets
  aside the reports of the boards it decides (``duplicate.events.waiting``) and a board
  conceded or forfeited takes none after it, so on such a board this is a report stored
  before that refusal existed;
* ``ruled``: conceded or forfeited by a ruling (its :class:`~duplicate.hall.base.Decision`
  beside it: such a board takes no report, ``duplicate.hall.decided``), settled by the
  director, or its current result is a director's ruling or correction (note
  ``store.RULING_NOTE``);
* ``requested``: a table's change after the round was published waits on the desk
  (``duplicate.hall.requests``; the published result counts meanwhile);
* ``confirmed``: North confirmed West's report, or a result came in otherwise (an import);
* ``not_in``: nothing yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.events.base import _current
from duplicate.hall.base import (
    BoardStatus,
)
from duplicate.hall.decided import decisions
from duplicate.hall.rows import boards_of, report_of
from duplicate.hall.views import (
    RoomStatus,
)

ROOMS = ("open", "closed")


def live_reports(
    session: Session, rnd: models.EventRound, table: int | None = None, room: str | None = None
) -> dict[tuple[int, str, int], models.HallReport]:
    """The live report of every (table, room, board) of the round (or of one table/room)."""
    h = models.HallReport
    query = select(h).where(h.round_id == rnd.id, h.live.is_(True))
    if table is not None:
        query = query.where(h.table_no == table)
    if room is not None:
        query = query.where(h.room == room)
    return {(r.table_no, r.room, r.board): r for r in session.scalars(query)}


def room_statuses(
    session: Session,
    ev: models.Event,
    rnd: models.EventRound,
    matches: Sequence[models.EventMatch],
    rooms: Sequence[str] = ROOMS,
) -> list[RoomStatus]:
    """Every board of these matches in these rooms, table by table."""
    boards = boards_of(ev, rnd)
    one = matches[0].table_no if len(matches) == 1 else None
    reports = live_reports(session, rnd, one, rooms[0] if len(rooms) == 1 else None)
    current = _current(session, [m.id for m in matches])
    decided = decisions(session, rnd, matches, boards)
    out: list[RoomStatus] = []
    for m in matches:
        for room in rooms:
            rows = []
            for b in boards:
                now = current.get((m.id, b, room))
                ns = now.state.ns_result if now is not None else None
                rep = reports.get((m.table_no, room, b))
                report = report_of(rep, ev.name, rnd.number) if rep is not None else None
                if rep is not None and rep.state in ("reported", "disputed", "requested"):
                    state = rep.state  # waits: the desk lists it so (one truth)
                elif (m.id, b) in decided:
                    state = "ruled"
                elif rep is not None and rep.state in ("settled", "accepted"):
                    state = "ruled"
                elif now is not None and now.state.note == store.RULING_NOTE:
                    state = "ruled"
                elif now is not None:
                    state = "confirmed"
                else:
                    state = "not_in"
                rows.append(BoardStatus(b, state, report, ns, decided.get((m.id, b))))
            out.append(RoomStatus(m.table_no, room, rows))
    return out
