"""The store at the session level: finding and adding room results, their records and
the changes of the log, and the current result as a query. What the imports of
``duplicate.records`` and ``duplicate.events`` build on (inside their own transaction)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session, aliased

from duplicate import models
from duplicate.store.data import (
    Author,
    Change,
    ResultKey,
    Slot,
    State,
    StoreError,
    canonical_finish,
    rules_json,
    utc,
)

# --- session level: what imports build on -------------------------------------------------


def find_result(session: Session, key: ResultKey) -> models.RoomResult | None:
    """The stored room result of ``key``, if any."""
    r = models.RoomResult
    return session.scalar(
        select(r).where(
            r.deal_id == key.deal_id,
            r.event == key.event,
            r.round == key.round,
            r.table_key == key.table,
            r.room == key.room,
            r.rules == rules_json(key.rules),
        )
    )


def result_row(session: Session, slot: Slot) -> models.RoomResult:
    """The room result of ``slot``, added (flushed) when it is not stored yet."""
    row = find_result(session, slot.key)
    if row is None:
        row = models.RoomResult(**result_values(slot))
        session.add(row)
        session.flush()
    return row


def result_values(slot: Slot) -> dict[str, Any]:
    """The column values of a new ``room_results`` row for ``slot`` (bulk inserts)."""
    k = slot.key
    return {
        "deal_id": k.deal_id,
        "board_id": slot.board_id,
        "board": slot.board,
        "event": k.event,
        "round": k.round,
        "table_key": k.table,
        "room": k.room,
        "rules": rules_json(k.rules),
        "match_id": slot.match_id,
    }


@dataclass(frozen=True, slots=True)
class Now:
    """A room's current result: its latest change's state, with where the room is."""

    result_id: int
    match_id: int | None
    board: str
    room: str
    state: State


def current_changes(session: Session, *where: Any) -> list[Now]:
    """The current result of every room matching the ``where`` clauses (on
    ``models.RoomResult``): its latest change, and the hash of the record it rests on.

    Plain columns, no ORM objects: scoring a round reads thousands of rooms."""
    r, c, p = models.RoomResult, models.ResultChange, models.PlayRecord
    latest = select(func.max(c.id)).where(c.result_id == r.id).correlate(r).scalar_subquery()
    query = (
        select(
            r.id,
            r.match_id,
            r.board,
            r.room,
            c.status,
            c.ns_result,
            c.note,
            c.record_id,
            p.content_hash,
            c.finish,
        )
        .select_from(r)
        .join(c, c.result_id == r.id)
        .outerjoin(p, p.id == c.record_id)
        .where(c.id == latest, *where)
        .order_by(r.id)
    )
    return [
        Now(rid, mid, board, room, State(status, ns, note, rec, h, finish))
        for rid, mid, board, room, status, ns, note, rec, h, finish in session.execute(query)
    ]


_r, _c, _p = models.RoomResult, models.ResultChange, models.PlayRecord
#: One room's latest change, by match, board and room: built once (a phone's request runs
#: it, and building a statement costs about as much as running it).
_ROOM_NOW = (
    select(
        _r.id, _r.match_id, _r.board, _r.room, _c.status, _c.ns_result, _c.note, _c.record_id,
        _p.content_hash, _c.finish,
    )
    .select_from(_r)
    .join(_c, _c.result_id == _r.id)
    .outerjoin(_p, _p.id == _c.record_id)
    .where(
        _r.match_id == bindparam("match_id"), _r.board == bindparam("board"),
        _r.room == bindparam("room"),
    )
    .order_by(_c.id.desc())
    .limit(1)
)  # fmt: skip


def room_now(session: Session, match_id: int, board: int, room: str) -> Now | None:
    """The current result of one room of an event's match (``None``: nothing stored):
    :func:`current_changes` of that room, with a statement built once."""
    row = session.execute(
        _ROOM_NOW, {"match_id": match_id, "board": str(board), "room": room}
    ).first()
    if row is None:
        return None
    rid, mid, b, rm, status, ns, note, rec, h, finish = row
    return Now(rid, mid, b, rm, State(status, ns, note, rec, h, finish))


def current_state(session: Session, result_id: int) -> State | None:
    """The current result of one room (``None``: nothing logged yet)."""
    found = current_changes(session, models.RoomResult.id == result_id)
    return found[0].state if found else None


def state_of(change: models.ResultChange, record_hash: str | None = None) -> State:
    """The new state a change left."""
    return State(
        change.status, change.ns_result, change.note, change.record_id, record_hash, change.finish
    )


def add_record(
    session: Session,
    result_id: int,
    text: str,
    digest: str,
    *,
    finish: str | None = None,
    result: str | None = None,
    ns_score: int | None = None,
    source: str | None = None,
) -> models.PlayRecord:
    """Store a record of a room result (flushed, to get its id)."""
    rec = models.PlayRecord(
        result_id=result_id,
        gdn=text,
        content_hash=digest,
        finish=finish,
        result=result,
        ns_score=ns_score,
        source=source,
    )
    session.add(rec)
    session.flush()
    return rec


def change_values(
    result_id: int, action: str, author: Author, new: State, old: State | None, at: datetime
) -> dict[str, Any]:
    """The column values of a ``result_changes`` row (bulk inserts)."""
    return {
        "result_id": result_id,
        "action": action,
        "made_by": author.by.strip(),
        "made_at": at,
        "reason": author.reason.strip(),
        "status": new.status,
        "ns_result": new.ns_result,
        "note": new.note,
        "finish": canonical_finish(new.finish),
        "record_id": new.record_id,
        "old_status": old.status if old else None,
        "old_ns_result": old.ns_result if old else None,
        "old_note": old.note if old else None,
        "old_finish": canonical_finish(old.finish) if old else None,
        "old_record_id": old.record_id if old else None,
    }


def decide(old: State | None, new: State, action: str, author: Author, where: str) -> str | None:
    """The action a change is logged as, ``None`` when it changes nothing; raises when it
    contradicts the current result without being a correction (both named)."""
    if old is None:
        return action
    if action == "ruling":
        return action
    if (old.status, old.ns_result, old.note, old.record_id) == (
        new.status,
        new.ns_result,
        new.note,
        new.record_id,
    ):
        # the same result: only a correction of the order it was counted from is a change
        moved = new.finish is not None and canonical_finish(new.finish) != old.finish
        return "correction" if moved and author.correction else None
    if new.record_hash is not None and new.record_hash == old.record_hash and not author.correction:
        return None  # the same record again changes nothing, even under a ruling
    agrees = old.same_result(new) and old.note == new.note
    if agrees and new.record_id is not None and old.record_id is None:
        return "attach"  # a record backs the result reported without one
    if not author.correction:
        raise StoreError(
            f"{where}: the stored result is {old.describe()}, this one {new.describe()}: "
            f"replacing it is a correction (who, why)"
        )
    return "correction"


def _record_finish(session: Session, new: State) -> State:
    """``new`` with the finishing order of the record it is counted from (a result that
    rests on a record and is not a director's: an import, a record attached), so that the
    log holds the order of every result whichever path set it."""
    if new.finish is not None or new.record_id is None or new.note is not None:
        return new
    finish = session.scalar(
        select(models.PlayRecord.finish).where(models.PlayRecord.id == new.record_id)
    )
    if finish is None:
        return new
    return State(
        new.status, new.ns_result, new.note, new.record_id, new.record_hash,
        canonical_finish(finish),
    )  # fmt: skip


def apply_change(
    session: Session,
    result_id: int,
    action: str,
    new: State,
    author: Author,
    where: str,
    old: State | None = None,
    *,
    at: datetime | None = None,
) -> Change | None:
    """Log ``new`` as the result of room ``result_id`` (see :func:`decide`); ``None`` when
    unchanged. ``old``: its current result, when the caller has just read it; ``at``: when
    the change was made (default now; the hall passes its own clock). A result counted
    from a record gets the record's finishing order."""
    if old is None:
        old = current_state(session, result_id)
    done = decide(old, new, action, author, where)
    if done is None:
        return None
    new = _record_finish(session, new)
    at = datetime.now(UTC) if at is None else utc(at)
    ch = models.ResultChange(**change_values(result_id, done, author, new, old, at))
    session.add(ch)
    session.flush()
    return Change(ch.id, result_id, done, ch.made_by, at, ch.reason, old, state_of(ch, new.record_hash))


def changes(session: Session, *where: Any) -> list[tuple[models.RoomResult, Change]]:
    """The log rows of the results matching ``where`` (on ``models.RoomResult``), oldest first."""
    c, p, old_p = models.ResultChange, models.PlayRecord, aliased(models.PlayRecord)
    query = (
        select(models.RoomResult, c, p.content_hash, old_p.content_hash)
        .join(c, c.result_id == models.RoomResult.id)
        .outerjoin(p, p.id == c.record_id)
        .outerjoin(old_p, old_p.id == c.old_record_id)
        .where(*where)
        .order_by(c.id)
    )
    out = []
    for row, ch, h, old_h in session.execute(query):
        old = (
            State(
                ch.old_status,
                ch.old_ns_result,
                ch.old_note,
                ch.old_record_id,
                old_h,
                ch.old_finish,
            )
            if ch.old_status is not None
            else None
        )
        out.append(
            (
                row,
                Change(
                    ch.id,
                    row.id,
                    ch.action,
                    ch.made_by,
                    utc(ch.made_at),
                    ch.reason,
                    old,
                    state_of(ch, h),
                ),
            )
        )
    return out
