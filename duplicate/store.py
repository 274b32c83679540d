"""The one store of played deals: room results, their records, and the log of every change.

A **room result** (``models.RoomResult``) is one room's play of one board at one table under
one rule set. Its key (:class:`ResultKey`) is the board's DealId, the event, round, table
and room ("" when unknown) and the rules; an event's results also name their match. What
happened in that room is not stored on the row: it is the **log** (``models.ResultChange``),
one append-only row per change (an import, a result reported from the table, a record
attached to it, a board marked unfinished, a correction, a director's ruling), each with
who made it, when (UTC), why, the state it replaced and the new one. The **current result**
is the latest change of each room, always a query (:func:`current_changes`), never a copy
kept in sync. A **play record** (``models.PlayRecord``: canonical ``.gdn``, SHA-256) proves
a result; a change names the record it rests on, if any.

* A result may be **reported without a record** (a phone at the table sends the finishing
  order): it is a result like any other, and a record can later **back** it
  (:func:`attach_record`: action ``attach``) when the record says the same.
* A record or report that **disagrees** with the current result is refused, both named,
  unless it comes as a correction (:class:`Author` with ``correction=True``); a director's
  ruling (:func:`rule_result`) always applies and keeps the record beside it.
* Everything here is one transaction per call (``db.session_scope``): a refusal leaves the
  database as it was. The session-level functions (``find_result``, ``apply_change``, …)
  are what ``duplicate.events`` and ``duplicate.records`` build their imports on.
"""

from __future__ import annotations

import getpass
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session, aliased

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.dealing import deal_id
from duplicate.errors import DuplicateError
from duplicate.gdn import GdnError, format_record, loads
from duplicate.replay import finish_text, replay
from duplicate.scoring import check_result, room_result
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

__all__ = [
    "ACTIONS",
    "Author",
    "Change",
    "CurrentResult",
    "ResultKey",
    "Slot",
    "State",
    "StoreError",
    "attach_record",
    "current_results",
    "mark_unfinished",
    "report_result",
    "result_history",
    "result_of_finish",
    "rule_result",
]

#: What a change did: a record ``import``\\ed into an empty room, a result ``report``\\ed
#: without a record, a record ``attach``\\ed to the result it agrees with, a board marked
#: ``unfinished``, a ``correction`` of a stored result, a director's ``ruling``.
ACTIONS = models.CHANGE_ACTIONS
#: The word a director's ruling leaves in ``note``.
RULING_NOTE = "director's ruling"


class StoreError(DuplicateError):
    """A change the store refuses: a disagreeing record or report, bad input."""


def rules_json(rules: Ruleset) -> str:
    """``rules`` as stored in a ``rules`` column: ``Ruleset.to_dict()`` as JSON, keys sorted.

    One rule set has one text, so that the column can be compared and be part of a key.
    """
    return json.dumps(rules.to_dict(), sort_keys=True)


def describe_rules(rules: Ruleset) -> str:
    """The rules in a few words: ``competition``, or the variants that differ from it as
    ``--variant`` takes them (``jiefeng_next=true, double_down_plus4=true``)."""
    base = COMPETITION.to_dict()
    changed = [
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in rules.to_dict().items()
        if base[name] != value
    ]
    return ", ".join(changed) if changed else "competition"


def load_rules(text: str, where: str) -> Ruleset:
    """The rule set of a stored ``rules`` column (``duplicate.records.load_rules`` checks
    input more closely; this reads what the store wrote)."""
    try:
        return Ruleset.from_dict(json.loads(text))
    except (ValueError, TypeError) as exc:
        raise StoreError(f"{where}: stored rules are not a rule set: {exc}") from None


def utc(when: datetime) -> datetime:
    """A stored time in UTC with its offset (SQLite gives it back without a time zone)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Author:
    """Who makes a change and why; ``correction`` allows it to replace a result that
    differs (DUPLICATE.md: every correction is kept with who and why)."""

    by: str
    reason: str
    correction: bool = False

    def __post_init__(self) -> None:
        if not self.by.strip() or len(self.by.strip()) > 200:
            raise StoreError("a change needs the name of who makes it (at most 200 characters)")
        if not self.reason.strip():
            raise StoreError("a change needs its reason")


def default_by() -> str:
    """Who makes a change when the caller does not say: the login name of this process."""
    try:
        return getpass.getuser() or "unknown"
    except (OSError, KeyError):
        return "unknown"


@dataclass(frozen=True, slots=True)
class ResultKey:
    """The key of a room result (see the module): DealId, event, round, table, room, rules."""

    deal_id: str
    event: str = ""
    round: str = ""
    table: str = ""
    room: str = ""
    rules: Ruleset = COMPETITION

    def describe(self) -> str:
        """The key in a few words, for errors."""
        parts = [f"DealId {self.deal_id[:12]}…"]
        parts += [
            f"{name} {value!r}"
            for name, value in zip(
                ("event", "round", "table", "room"),
                (self.event, self.round, self.table, self.room),
                strict=True,
            )
            if value
        ]
        if self.rules != COMPETITION:
            parts.append(f"rules {describe_rules(self.rules)}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a result goes: its key, and the board (number, stored row) and match it is of."""

    key: ResultKey
    board: str = ""
    board_id: int | None = None
    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """A room's result: ``played`` with its N–S result, or ``unfinished`` (``note``: why);
    ``note`` also marks a ruling; ``record_id``/``record_hash`` the record it rests on."""

    status: str
    ns_result: int | None = None
    note: str | None = None
    record_id: int | None = None
    record_hash: str | None = None
    #: the finishing order reported (a detail of the report, not compared: a change's old
    #: state does not repeat it; the change that reported it holds it)
    finish: str | None = field(default=None, compare=False)

    def same_result(self, other: State) -> bool:
        """Whether both say the same about the room (status and N–S result)."""
        return (self.status, self.ns_result) == (other.status, other.ns_result)

    def describe(self) -> str:
        """The result in a few words: ``NS +2 (record 0123456789ab)``, ``unfinished (time)``."""
        if self.status == "unfinished":
            return f"unfinished ({self.note or 'no reason given'})"
        assert self.ns_result is not None
        text = f"{'NS' if self.ns_result > 0 else 'EW'} +{abs(self.ns_result)}"
        if self.note:
            return f"{text} ({self.note})"
        if self.record_hash:
            return f"{text} (record {self.record_hash[:12]})"
        return f"{text} (reported{', finish ' + self.finish if self.finish else ''})"


@dataclass(frozen=True, slots=True)
class Change:
    """One row of the log, as read back."""

    id: int
    result_id: int
    action: str
    by: str
    at: datetime
    reason: str
    old: State | None
    new: State

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "action": self.action,
            "by": self.by,
            "at": self.at.isoformat(),
            "reason": self.reason,
            "before": self.old.describe() if self.old else "no result",
            "after": self.new.describe(),
        }


@dataclass(frozen=True, slots=True)
class CurrentResult:
    """A room's current result (its latest change), with its key and current record."""

    result_id: int
    key: ResultKey
    board: str
    match_id: int | None
    state: State
    record_text: str | None


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


def current_changes(
    session: Session, *where: Any
) -> list[tuple[models.RoomResult, models.ResultChange, str | None]]:
    """Every room result matching the ``where`` clauses (on ``models.RoomResult``) with its
    latest change and the hash of the record that change rests on: the current results."""
    r, c, p = models.RoomResult, models.ResultChange, models.PlayRecord
    latest = select(func.max(c.id)).where(c.result_id == r.id).correlate(r).scalar_subquery()
    query = (
        select(r, c, p.content_hash)
        .join(c, c.result_id == r.id)
        .outerjoin(p, p.id == c.record_id)
        .where(c.id == latest, *where)
        .order_by(r.id)
    )
    return [(row, ch, h) for row, ch, h in session.execute(query)]


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
        "finish": new.finish,
        "record_id": new.record_id,
        "old_status": old.status if old else None,
        "old_ns_result": old.ns_result if old else None,
        "old_note": old.note if old else None,
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
        return None
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


def apply_change(
    session: Session,
    row: models.RoomResult,
    action: str,
    new: State,
    author: Author,
    where: str,
) -> Change | None:
    """Log ``new`` as the result of ``row`` (see :func:`decide`); ``None`` when unchanged."""
    found = current_changes(session, models.RoomResult.id == row.id)
    old = state_of(found[0][1], found[0][2]) if found else None
    done = decide(old, new, action, author, where)
    if done is None:
        return None
    at = datetime.now(UTC)
    ch = models.ResultChange(**change_values(row.id, done, author, new, old, at))
    session.add(ch)
    session.flush()
    return Change(ch.id, row.id, done, ch.made_by, at, ch.reason, old, new)


# --- the library's calls (the hall service, the arena, the command line) ------------------


def result_of_finish(finish: Sequence[Seat] | str, rules: Ruleset = COMPETITION) -> int:
    """The N–S result of a finishing order (RULES.md §7): the first two seats when they are
    partners (双下), else at least the first three."""
    if isinstance(finish, str):
        try:
            seats = [Seat[t] for t in finish.replace(",", " ").upper().split()]
        except KeyError:
            raise StoreError(
                f"invalid finishing order {finish!r}: expected seats N E S W"
            ) from None
    else:
        seats = list(finish)
    if len(set(seats)) != len(seats) or len(seats) < 2:
        raise StoreError(f"invalid finishing order {finish!r}: at least two seats, none twice")
    first = seats[0]
    if seats[1] == first.partner:
        levels = 4 if rules.double_down_plus4 else 3
    elif len(seats) < 3:
        raise StoreError("a finishing order that is not a double down names three seats")
    else:
        levels = 2 if seats[2] == first.partner else 1
    return room_result(first.side, levels, rules)


def _state_for(row: models.RoomResult, ns: int | None, finish: str | None) -> State:
    rules = load_rules(row.rules, f"room result {row.id}")
    try:
        check_result(ns, rules, where="the reported result") if ns is not None else None
    except GuandanError as exc:
        raise StoreError(str(exc)) from None
    return State("played", ns, None, None, None, finish)


def report_result(
    engine: Engine,
    slot: Slot,
    author: Author,
    *,
    finish: Sequence[Seat] | str | None = None,
    ns_result: int | None = None,
) -> Change | None:
    """A result reported without a record: a finishing order (``finish``) or the N–S result.

    A report equal to the current result changes nothing (``None``); one that differs is
    refused unless ``author.correction``."""
    if (finish is None) == (ns_result is None):
        raise StoreError("report either the finishing order or the N–S result")
    check_schema(engine)
    text = None
    if finish is not None:
        ns_result = result_of_finish(finish, slot.key.rules)
        text = finish if isinstance(finish, str) else " ".join(s.name for s in finish)
        text = " ".join(text.upper().replace(",", " ").split())
    with session_scope(engine) as session:
        row = result_row(session, slot)
        new = _state_for(row, ns_result, text)
        return apply_change(session, row, "report", new, author, slot.key.describe())


def mark_unfinished(engine: Engine, slot: Slot, reason: str, author: Author) -> Change | None:
    """The board was not finished in that room (``reason``: time, withdrawal, …)."""
    if not reason.strip():
        raise StoreError("an unfinished board needs its reason (time, withdrawal, ...)")
    check_schema(engine)
    with session_scope(engine) as session:
        row = result_row(session, slot)
        new = State("unfinished", None, reason.strip())
        return apply_change(session, row, "unfinished", new, author, slot.key.describe())


def rule_result(engine: Engine, slot: Slot, ns_result: int, author: Author) -> Change:
    """A director's ruling: the room's N–S result is ``ns_result``; the record stays."""
    check_schema(engine)
    with session_scope(engine) as session:
        row = result_row(session, slot)
        state = _state_for(row, ns_result, None)
        found = current_changes(session, models.RoomResult.id == row.id)
        rec = (found[0][1].record_id, found[0][2]) if found else (None, None)
        new = State("played", state.ns_result, RULING_NOTE, rec[0], rec[1])
        done = apply_change(session, row, "ruling", new, author, slot.key.describe())
        assert done is not None
        return done


def attach_record(engine: Engine, slot: Slot, text: str, author: Author) -> Change | None:
    """A play record of the room: replayed under the key's rules, it must be a play of the
    key's board (DealId) and, unless ``author.correction``, agree with the current result
    (then it backs it: ``attach``). The same record again changes nothing."""
    rules = slot.key.rules
    try:
        recs = loads(text, strict=True)
    except GdnError as exc:
        raise StoreError(str(exc)) from None
    if len(recs) != 1:
        raise StoreError(f"one record of the room, not {len(recs)}")
    res = replay(recs[0], rules)
    if res.error is not None:
        raise StoreError(f"the record does not replay: {res.error}")
    if res.record.plays is None:
        raise StoreError("a hand record without plays is not a result")
    if deal_id(res.record.hands) != slot.key.deal_id:
        raise StoreError(f"the record's hands are not the board of {slot.key.describe()}")
    canonical = format_record(res.record) + "\n"
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    ns = room_result(res.result.winner, res.result.levels, rules) if res.result else None
    check_schema(engine)
    with session_scope(engine) as session:
        row = result_row(session, slot)
        found = current_changes(session, models.RoomResult.id == row.id)
        old = state_of(found[0][1], found[0][2]) if found else None
        if old is not None and old.record_hash == digest and not author.correction:
            return None
        rec = add_record(
            session,
            row.id,
            canonical,
            digest,
            finish=finish_text(res.result) if res.result else None,
            result=res.result.result_tag if res.result else None,
            ns_score=ns,
        )
        status = "played" if ns is not None else "unfinished"
        note = None if ns is not None else "record ends before the deal"
        new = State(status, ns, note, rec.id, digest)
        return apply_change(session, row, "import", new, author, slot.key.describe())


def _key(row: models.RoomResult) -> ResultKey:
    rules = load_rules(row.rules, f"room result {row.id}")
    return ResultKey(row.deal_id, row.event, row.round, row.table_key, row.room, rules)


def current_results(
    engine: Engine,
    *,
    event: str | None = None,
    match_ids: Iterable[int] | None = None,
    key: ResultKey | None = None,
) -> list[CurrentResult]:
    """The current result of every room (of an ``event``, of matches, or of one ``key``)."""
    check_schema(engine)
    r = models.RoomResult
    where: list[Any] = []
    if event is not None:
        where.append(r.event == event)
    if match_ids is not None:
        where.append(r.match_id.in_(list(match_ids)))
    with session_scope(engine) as session:
        if key is not None:
            row = find_result(session, key)
            if row is None:
                return []
            where.append(r.id == row.id)
        texts = dict(
            (a, b)
            for a, b in session.execute(
                select(models.PlayRecord.id, models.PlayRecord.gdn).where(
                    models.PlayRecord.id.in_(
                        select(models.ResultChange.record_id).join(r).where(*where)
                    )
                )
            )
        )
        return [
            CurrentResult(
                row.id,
                _key(row),
                row.board,
                row.match_id,
                state_of(ch, h),
                texts.get(ch.record_id) if ch.record_id is not None else None,
            )
            for row, ch, h in current_changes(session, *where)
        ]


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
            State(ch.old_status, ch.old_ns_result, ch.old_note, ch.old_record_id, old_h)
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


def result_history(engine: Engine, key: ResultKey) -> list[Change]:
    """Every change of the room result of ``key``, oldest first (empty when not stored)."""
    check_schema(engine)
    with session_scope(engine) as session:
        row = find_result(session, key)
        if row is None:
            return []
        return [c for _, c in changes(session, models.RoomResult.id == row.id)]
