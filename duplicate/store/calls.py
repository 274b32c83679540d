"""The store's calls, one transaction each: what the hall service (a phone reporting a
finishing order, North confirming, the director ruling), the arena and the command
line call."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.dealing import deal_id
from duplicate.gdn import GdnError, format_record, loads
from duplicate.i18n import Term, Worded, phrase
from duplicate.i18n.stored import FinishText
from duplicate.i18n.typed import finish_letters
from duplicate.replay import finish_text, quick_replay
from duplicate.scoring import check_result, room_result
from duplicate.store.data import (
    RULING_NOTE,
    Author,
    Change,
    CurrentResult,
    ResultKey,
    Slot,
    State,
    StoreError,
    canonical_finish,
    load_rules,
)
from duplicate.store.log import (
    add_record,
    apply_change,
    changes,
    current_changes,
    current_state,
    find_result,
    result_row,
    retrying,
)
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

# --- the library's calls (the hall service, the arena, the command line) ------------------


def result_of_finish(finish: Sequence[Seat] | str, rules: Ruleset = COMPETITION) -> int:
    """The N–S result of a finishing order (RULES.md §7): the first two seats when they are
    partners (双下), else at least the first three."""
    if isinstance(finish, str):
        try:
            seats = [Seat[t] for t in finish_letters(finish).replace(",", " ").upper().split()]
        except KeyError:
            raise StoreError(phrase("store.finish.seats", finish=FinishText(finish, quoted=True))) from None
    else:
        seats = list(finish)
    if len(set(seats)) != len(seats) or len(seats) < 2:
        shown = " ".join(s.name for s in seats)  # as the player wrote it, not Seat reprs
        raise StoreError(phrase("store.finish.twice", finish=FinishText(shown, quoted=True)))
    first = seats[0]
    if seats[1] == first.partner:
        levels = 4 if rules.double_down_plus4 else 3
    elif len(seats) < 3:
        raise StoreError(phrase("store.finish.three"))
    else:
        levels = 2 if seats[2] == first.partner else 1
    return room_result(first.side, levels, rules)


def _state_for(row: models.RoomResult, ns: int, finish: str | None) -> State:
    """A played result given by hand, checked against the room's rules (±1..±3, ±4)."""
    rules = load_rules(row.rules, f"room result {row.id}")
    try:
        check_result(ns, rules, where=Term("the reported result", "scoring.word.reported"))
    except GuandanError as exc:
        raise StoreError(getattr(exc, "phrase", None) or str(exc)) from None
    return State("played", ns, None, None, None, finish)


@retrying
def report_result(
    engine: Engine,
    slot: Slot,
    author: Author,
    *,
    finish: Sequence[Seat] | str | None = None,
    ns_result: int | None = None,
    guard: Callable[[Session], object] | None = None,
    where: str | Worded | None = None,
) -> Change | None:
    """A result reported without a record: a finishing order (``finish``) or the N–S result.

    A report equal to the current result changes nothing (``None``); one that differs, in
    its result or in its finishing order, is refused unless ``author.correction``.
    ``guard`` runs first in the same transaction (a check that raises to refuse the report,
    e.g. the directors' limit). A refusal names the room by ``where`` (default: its key in
    words; ``""``: not at all, the caller says where)."""
    if (finish is None) == (ns_result is None):
        raise StoreError(phrase("store.err.report_one"))
    check_schema(engine)
    text = None
    if finish is not None:
        ns_result = result_of_finish(finish, slot.key.rules)
        text = finish if isinstance(finish, str) else " ".join(s.name for s in finish)
        text = " ".join(text.upper().replace(",", " ").split())
    assert ns_result is not None
    with session_scope(engine) as session:
        if guard is not None:
            guard(session)
        row = result_row(session, slot)
        new = _state_for(row, ns_result, text)
        place = slot.key.words() if where is None else where
        return apply_change(session, row.id, "report", new, author, place)


@retrying
def mark_unfinished(engine: Engine, slot: Slot, reason: str, author: Author) -> Change | None:
    """The board was not finished in that room (``reason``: time, withdrawal, …)."""
    if not reason.strip():
        raise StoreError(phrase("store.err.unfinished_reason"))
    check_schema(engine)
    with session_scope(engine) as session:
        row = result_row(session, slot)
        new = State("unfinished", None, reason.strip())
        return apply_change(session, row.id, "unfinished", new, author, slot.key.words())


@retrying
def rule_result(engine: Engine, slot: Slot, ns_result: int, author: Author) -> Change:
    """A director's ruling: the room's N–S result is ``ns_result``; the record stays."""
    check_schema(engine)
    with session_scope(engine) as session:
        row = result_row(session, slot)
        state = _state_for(row, ns_result, None)
        cur = current_state(session, row.id)
        rec = (cur.record_id, cur.record_hash) if cur else (None, None)
        new = State("played", state.ns_result, RULING_NOTE, rec[0], rec[1])
        done = apply_change(session, row.id, "ruling", new, author, slot.key.words(), cur)
        assert done is not None
        return done


@retrying
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
        raise StoreError(phrase("store.err.one_record", n=len(recs)))
    res = quick_replay(recs[0], rules)
    if res.error is not None:
        raise StoreError(phrase("store.err.no_replay", error=str(res.error)))
    if res.record.plays is None:
        raise StoreError(phrase("store.err.no_plays"))
    if deal_id(res.record.hands) != slot.key.deal_id:
        raise StoreError(phrase("store.err.not_board", slot=slot.key.words()))
    canonical = format_record(res.record) + "\n"
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    ns = room_result(res.result.winner, res.result.levels, rules) if res.result else None
    order = finish_text(res.result) if res.result else None
    check_schema(engine)
    with session_scope(engine) as session:
        row = result_row(session, slot)
        old = current_state(session, row.id)
        if old is not None and old.record_hash == digest and not author.correction:
            return None
        rec = add_record(
            session,
            row.id,
            canonical,
            digest,
            finish=order,
            result=res.result.result_tag if res.result else None,
            ns_score=ns,
        )
        status = "played" if ns is not None else "unfinished"
        note = None if ns is not None else unfinished_note(res.record.tags)
        # with its finishing order, so that a record of the reported result whose order
        # differs (another seat went out first) is refused as any disagreeing record is
        new = State(status, ns, note, rec.id, digest, canonical_finish(order))
        return apply_change(session, row.id, "import", new, author, slot.key.words(), old)


#: The note of a record that stops before the deal is over without saying why.
ENDS_EARLY = "record ends before the deal"


def unfinished_note(tags: dict[str, str]) -> str:
    """Why a record stops before the deal is over: its ``Unfinished`` tag (docs/FORMAT.md,
    any case), else :data:`ENDS_EARLY`."""
    for name, value in tags.items():
        if name.lower() == "unfinished" and value.strip():
            return value.strip()
    return ENDS_EARLY


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
        rows = {row.id: row for row in session.scalars(select(r).where(*where))}
        return [
            CurrentResult(
                now.result_id,
                _key(rows[now.result_id]),
                now.board,
                now.match_id,
                now.state,
                texts.get(now.state.record_id) if now.state.record_id is not None else None,
            )
            for now in current_changes(session, *where)
        ]


def result_history(engine: Engine, key: ResultKey) -> list[Change]:
    """Every change of the room result of ``key``, oldest first (empty when not stored)."""
    check_schema(engine)
    with session_scope(engine) as session:
        row = find_result(session, key)
        if row is None:
            return []
        return [c for _, c in changes(session, models.RoomResult.id == row.id)]
