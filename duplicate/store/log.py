"""The store at the session level: finding and adding room results, their records and
the changes of the log, and the current result as a query. What the imports of
``duplicate.records`` and ``duplicate.events`` build on (inside their own transaction).

Concurrent writers end by the database's unique keys, never by a check before an insert:
a room result and a record are inserted with ``ON CONFLICT DO NOTHING`` and read back (a
second writer finds the first's row), and a change is written as the successor
(``seq``) of the change its writer read as current, so that of two writers that read the
same current result the second's insert fails (:func:`unique_violation`); it then runs
again from a fresh read (:func:`retrying`, :func:`in_savepoint`) and finds the first's
change: the same result merges (nothing logged), a different one is refused or logged
after it. Every log chain stays whole: each change's "before" is its predecessor's
"after"."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, aliased

from duplicate import models
from duplicate.i18n import Phrase, Worded, phrase
from duplicate.i18n.stored import FinishText, StateText
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


def _insert(session: Session, table: Any) -> Any:
    """``INSERT`` into ``table`` in the session's dialect, which can say ``ON CONFLICT``."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def result_row(session: Session, slot: Slot) -> models.RoomResult:
    """The room result of ``slot``, added when it is not stored yet (``ON CONFLICT DO
    NOTHING``: a concurrent writer's row is found, not doubled)."""
    row = find_result(session, slot.key)
    if row is None:
        session.execute(_insert(session, models.RoomResult).values(**result_values(slot))
                        .on_conflict_do_nothing())  # fmt: skip
        row = find_result(session, slot.key)
        assert row is not None, "a room result inserted or found"
    return row


def result_row_id(session: Session, slot: Slot) -> int:
    """:func:`result_row`'s id, in one statement when the row is new (``INSERT … ON
    CONFLICT DO NOTHING RETURNING``; the row found when it was there, or a concurrent
    writer's)."""
    session.flush()
    dialect = session.get_bind().dialect.name
    statement = _NEW_RESULT.get(dialect)
    if statement is None:  # built once for each database (building costs as running does)
        statement = _NEW_RESULT[dialect] = (
            _insert(session, models.RoomResult).on_conflict_do_nothing()
            .returning(models.RoomResult.id)
        )  # fmt: skip
    found = session.connection().execute(statement, result_values(slot)).scalar()
    if found is not None:
        return int(found)
    return result_row(session, slot).id


#: :func:`result_row_id`'s statement by dialect.
_NEW_RESULT: dict[str, Any] = {}


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
            c.seq,
        )
        .select_from(r)
        .join(c, c.result_id == r.id)
        .outerjoin(p, p.id == c.record_id)
        .where(c.id == latest, *where)
        .order_by(r.id)
    )
    return [
        Now(rid, mid, board, room, State(status, ns, note, rec, h, finish, seq))
        for rid, mid, board, room, status, ns, note, rec, h, finish, seq in session.execute(query)
    ]


_r, _c, _p = models.RoomResult, models.ResultChange, models.PlayRecord
#: One room's latest change, by match, board and room: built once (a phone's request runs
#: it, and building a statement costs about as much as running it).
_ROOM_NOW = (
    select(
        _r.id, _r.match_id, _r.board, _r.room, _c.status, _c.ns_result, _c.note, _c.record_id,
        _p.content_hash, _c.finish, _c.seq,
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


def latest_change(match_id: Any, board: Any, room: Any) -> Any:
    """The id of one room's latest change (``NULL``: nothing stored) as a scalar subquery
    on expressions of an enclosing statement (match id, board as text, room), so that a
    statement about a table can read the room's current result in the same round trip
    (with :data:`NOW_COLUMNS` of the change it names and :func:`now_of`)."""
    return (
        select(_c.id)
        .join(_r, _r.id == _c.result_id)
        .where(_r.match_id == match_id, _r.board == board, _r.room == room)
        .order_by(_c.id.desc())
        .limit(1)
        .scalar_subquery()
    )


#: What :func:`latest_change` names, as columns of an enclosing statement: join
#: ``NOW_CHANGE`` on that id, then ``NOW_RESULT`` and ``NOW_RECORD`` on the change.
NOW_CHANGE, NOW_RESULT, NOW_RECORD = aliased(_c), aliased(_r), aliased(_p)
NOW_COLUMNS = (
    NOW_RESULT.id, NOW_RESULT.match_id, NOW_RESULT.board, NOW_RESULT.room, NOW_CHANGE.status,
    NOW_CHANGE.ns_result, NOW_CHANGE.note, NOW_CHANGE.record_id, NOW_RECORD.content_hash,
    NOW_CHANGE.finish, NOW_CHANGE.seq,
)  # fmt: skip


def now_of(values: Any) -> Now | None:
    """:data:`NOW_COLUMNS`' values (``_ROOM_NOW``'s) as a :class:`Now` (``None``: nothing
    stored)."""
    rid, mid, b, rm, status, ns, note, rec, h, finish, seq = values
    if rid is None:
        return None
    return Now(rid, mid, b, rm, State(status, ns, note, rec, h, finish, seq))


def room_now(session: Session, match_id: int, board: int, room: str) -> Now | None:
    """The current result of one room of an event's match (``None``: nothing stored):
    :func:`current_changes` of that room, with a statement built once."""
    row = session.execute(
        _ROOM_NOW, {"match_id": match_id, "board": str(board), "room": room}
    ).first()
    return None if row is None else now_of(row)


def current_state(session: Session, result_id: int) -> State | None:
    """The current result of one room (``None``: nothing logged yet)."""
    found = current_changes(session, models.RoomResult.id == result_id)
    return found[0].state if found else None


def state_of(change: models.ResultChange, record_hash: str | None = None) -> State:
    """The new state a change left."""
    return State(
        change.status, change.ns_result, change.note, change.record_id, record_hash,
        change.finish, change.seq,
    )  # fmt: skip


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
    """Store a record of a room result, or find it: a room holds one row per record text
    (``ON CONFLICT DO NOTHING``, then read back), so that a concurrent writer of the same
    record and a correction back to an earlier record use the row already there."""
    p = models.PlayRecord
    session.execute(
        _insert(session, p)
        .values(
            result_id=result_id,
            gdn=text,
            content_hash=digest,
            finish=finish,
            result=result,
            ns_score=ns_score,
            source=source,
        )
        .on_conflict_do_nothing()
    )
    rec = session.scalar(select(p).where(p.result_id == result_id, p.content_hash == digest))
    assert rec is not None, "a record inserted or found"
    return rec


def change_values(
    result_id: int, action: str, author: Author, new: State, old: State | None, at: datetime
) -> dict[str, Any]:
    """The column values of a ``result_changes`` row (bulk inserts): the successor of
    ``old``'s change (``seq``), or the room's first change."""
    return {
        "result_id": result_id,
        "seq": (old.seq if old is not None else 0) + 1,
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


def decide(
    old: State | None, new: State, action: str, author: Author, where: str | Worded
) -> str | None:
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
        # the same result: another order it was counted from (who went out first) is a
        # correction; an order given to a result that had none changes nothing
        moved = new.finish is not None and canonical_finish(new.finish) != old.finish
        if moved and not author.correction and old.finish is not None:
            raise order_conflict(old, new, where)
        return "correction" if moved and author.correction else None
    if new.record_hash is not None and new.record_hash == old.record_hash and not author.correction:
        return None  # the same record again changes nothing, even under a ruling
    agrees = old.same_result(new) and old.note == new.note
    if agrees and new.record_id is not None and old.record_id is None:
        if not orders_differ(old.finish, new.finish):
            return "attach"  # a record backs the result reported without one
        if not author.correction:  # the same result, but another player went out first
            raise order_conflict(old, new, where)
        return "correction"
    if not author.correction:
        raise StoreError(phrase("store.err.conflict" if where else "store.err.conflict.here",
                                **({"where": where} if where else {}),
                                stored=StateText(old.describe()), new=StateText(new.describe())))
    return "correction"


def orders_differ(old: str | None, new: str | None) -> bool:
    """Whether two finishing orders of the same result say different things (RULES.md §7:
    another seat went out first, or second, or third); an order not known differs from none."""
    return old is not None and new is not None and canonical_finish(old) != canonical_finish(new)


def order_conflict(old: State, new: State, where: str | Worded) -> StoreError:
    """The refusal of a result whose finishing order differs from the stored one's (the
    same N–S result or not: who went out first is part of what a room says), both named;
    ``where`` empty: the caller names the room."""
    return StoreError(order_phrase(old, new.finish, where))


def order_phrase(old: State, finish: str | None, where: str | Worded) -> Phrase:
    """The words of :func:`order_conflict`: the stored result ``old``, the order it was
    counted from and the other order ``finish`` (a table's report refuses with them too)."""
    assert old.ns_result is not None and old.finish is not None and finish is not None
    ns = old.ns_result
    values: dict[str, Any] = {
        "stored": StateText(f"{'NS' if ns > 0 else 'EW'} +{abs(ns)}"),
        # the result named (a double down's side too): each order without it
        "stored_order": FinishText(canonical_finish(old.finish) or old.finish, side=False),
        "new_order": FinishText(canonical_finish(finish) or finish, side=False),
    }
    if where:
        return phrase("store.err.order", where=where, **values)
    return phrase("store.err.order.here", **values)


class _Unread(Enum):
    """The current result not read by the caller (``apply_change`` reads it)."""

    UNREAD = 0


#: ``apply_change``'s ``old`` when the caller has not read the current result.
UNREAD = _Unread.UNREAD


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
    where: str | Worded,
    old: State | None | _Unread = UNREAD,
    *,
    at: datetime | None = None,
) -> Change | None:
    """Log ``new`` as the result of room ``result_id`` (see :func:`decide`); ``None`` when
    unchanged. ``old``: its current result as the caller read it (``None``: nothing
    logged yet), which the caller's decisions rest on; ``at``: when the change was made
    (default now; the hall passes its own clock). A result counted from a record gets the
    record's finishing order.

    The change is written as the successor of ``old``'s: when another writer has logged a
    change since ``old`` was read, the insert fails on the unique (``result_id``, ``seq``)
    (:func:`unique_violation`) and the caller's transaction or savepoint runs again."""
    if old is UNREAD:
        old = current_state(session, result_id)
    done = decide(old, new, action, author, where)
    if done is None:
        return None
    new = _record_finish(session, new)
    at = datetime.now(UTC) if at is None else utc(at)
    values = change_values(result_id, done, author, new, old, at)
    session.flush()  # what the session holds goes first, as the unit of work would send it
    # one Core statement that gives the id back: the unit of work's flush of one object
    # cost more than the rest of a hall's confirmation
    change_id = session.connection().execute(_CHANGE, values).scalar_one()
    state = State(
        values["status"], values["ns_result"], values["note"], values["record_id"],
        new.record_hash, values["finish"], values["seq"],
    )  # fmt: skip
    return Change(change_id, result_id, done, values["made_by"], at, values["reason"], old, state)


#: A new change of the log, its id given back (:func:`apply_change`).
_CHANGE = insert(models.ResultChange).returning(models.ResultChange.id)


# --- concurrent writers -------------------------------------------------------------------

#: How often a write runs again after another writer took one of its keys.
TRIES = 8

_P = ParamSpec("_P")
_T = TypeVar("_T")


def unique_violation(exc: IntegrityError) -> bool:
    """Whether ``exc`` is a unique key taken by another writer (not a refused value)."""
    orig = exc.orig
    code = getattr(orig, "sqlstate", None)  # psycopg
    if code is not None:
        return bool(code == "23505")
    name = getattr(orig, "sqlite_errorname", None)  # sqlite3
    if name is not None:
        return name in ("SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY")
    return "unique" in str(orig).lower()


#: PostgreSQL's codes of a transaction chosen to give way to another: a deadlock, a
#: serialization failure. Run again whole, it goes through.
_GIVE_WAY = frozenset({"40P01", "40001"})


def _lost_race(exc: DBAPIError) -> bool:
    """Whether ``exc`` is a race with another writer that running again settles."""
    if isinstance(exc, IntegrityError):
        return unique_violation(exc)
    return getattr(exc.orig, "sqlstate", None) in _GIVE_WAY


def retrying(func: Callable[_P, _T]) -> Callable[_P, _T]:
    """``func`` (one transaction, or several each whole) run again, up to :data:`TRIES`
    times, when another writer took one of its unique keys meanwhile (or PostgreSQL chose
    it to give way in a deadlock): it reads afresh and finds the other's rows. A key still
    taken after that is the ``IntegrityError``."""

    @functools.wraps(func)
    def again(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        for attempt in range(TRIES):
            try:
                return func(*args, **kwargs)
            except DBAPIError as exc:
                if not _lost_race(exc) or attempt == TRIES - 1:
                    raise
        raise AssertionError("unreachable")

    return again


def begin_write(session: Session) -> None:
    """Make sure the session's transaction is open on the database before a savepoint.

    SQLite's Python driver opens a transaction only at the first data statement, and a
    savepoint opened before it is a transaction of its own, committed on release: on
    SQLite this opens it (``BEGIN IMMEDIATE``: the write lock, waited for, so that what is
    read next is what the write is based on)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        return
    raw = conn.connection.driver_connection
    if raw is not None and not raw.in_transaction:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def in_savepoint(session: Session, step: Callable[[], _T]) -> _T:
    """``step()`` in a savepoint of the session's transaction, run again from a fresh read
    (up to :data:`TRIES` times) when another writer took one of its unique keys: what it
    wrote is undone each time, what the transaction wrote before is kept."""
    begin_write(session)
    for attempt in range(TRIES):
        try:
            with session.begin_nested():
                return step()
        except IntegrityError as exc:
            if not unique_violation(exc) or attempt == TRIES - 1:
                raise
    raise AssertionError("unreachable")


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
