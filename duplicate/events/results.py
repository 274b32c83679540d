"""Results changed by hand: unfinished boards, a director's ruling, corrections and
their log (who, when, why, before and after)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    ROOMS,
    EventError,
    _event_row,
    _find_match,
    _round_boards,
    _rules,
    _utc,
)
from duplicate.records import Correction
from duplicate.scoring import (
    check_result,
)


def _describe(row: models.EventResult) -> str:
    """A stored result in a few words, for corrections and errors."""
    if row.status == "unfinished":
        return f"unfinished ({row.reason or 'no reason given'})"
    assert row.ns_result is not None
    side = "NS" if row.ns_result > 0 else "EW"
    text = f"{side} +{abs(row.ns_result)}"
    if row.reason:
        return f"{text} ({row.reason})"
    return f"{text} (record {row.record_hash[:12]})" if row.record_hash else text


def _log_correction(
    session: Session,
    ev: models.Event,
    match: models.EventMatch,
    board: int,
    room: str,
    correction: Correction,
    before: str,
    after: str,
) -> None:
    session.add(
        models.EventCorrection(
            event_id=ev.id,
            match_id=match.id,
            board=board,
            room=room,
            made_by=correction.by.strip(),
            reason=correction.reason.strip(),
            made_at=datetime.now(UTC),
            before=before,
            after=after,
        )
    )


def _check_slot(ev: models.Event, rnd: models.EventRound, board: int, room: str) -> None:
    boards = _round_boards(ev, rnd)
    if not boards:
        raise EventError(f"event {ev.name!r}, round {rnd.number} has no boards assigned")
    if board not in boards:
        raise EventError(
            f"round {rnd.number} plays boards {boards[0]} to {boards[-1]}, not board {board}"
        )
    if room not in ROOMS:
        raise EventError(f"room must be open or closed, not {room!r}")


def record_unfinished(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    reason: str,
    rooms: Sequence[str] = ROOMS,
    correction: Correction | None = None,
) -> int:
    """Record that ``board`` of a match was not finished (``reason``: time, withdrawal, …)
    in ``rooms``; it is scored by the event's unfinished rule. A room that already has a
    result needs ``correction``. Returns the number of rooms marked."""
    if not reason.strip():
        raise EventError("an unfinished board needs its reason (time, withdrawal, ...)")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd, m = _find_match(session, ev, round_no, table)
        for room in rooms:
            _check_slot(ev, rnd, board, room)
            old = session.scalar(
                select(models.EventResult).where(
                    models.EventResult.match_id == m.id,
                    models.EventResult.board == board,
                    models.EventResult.room == room,
                )
            )
            if old is None:
                session.add(
                    models.EventResult(
                        match_id=m.id,
                        board=board,
                        room=room,
                        status="unfinished",
                        ns_result=None,
                        reason=reason.strip(),
                    )
                )
                continue
            if old.status == "unfinished" and old.reason == reason.strip():
                continue
            if correction is None:
                raise EventError(
                    f"round {round_no}, table {table}, board {board}, {room} room already has "
                    f"{_describe(old)}: changing it is a correction (--by, --reason)"
                )
            before = _describe(old)
            old.status, old.ns_result, old.reason = "unfinished", None, reason.strip()
            old.record_hash = old.record_text = None
            _log_correction(session, ev, m, board, room, correction, before, _describe(old))
        return len(rooms)


def correct_result(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    ns_result: int,
    correction: Correction,
) -> str:
    """A director's ruling: set a room's N–S result on a board (±1..±3, or ±4 when the
    event plays ``double_down_plus4``, RULES.md §7), kept with who, when and why; the
    record, if any, stays stored beside it. Returns what it replaced."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        check_result(ns_result, _rules(ev), where=f"event {event!r}, board {board}, {room} room")
        rnd, m = _find_match(session, ev, round_no, table)
        _check_slot(ev, rnd, board, room)
        old = session.scalar(
            select(models.EventResult).where(
                models.EventResult.match_id == m.id,
                models.EventResult.board == board,
                models.EventResult.room == room,
            )
        )
        before = _describe(old) if old is not None else "no result"
        if old is None:
            old = models.EventResult(match_id=m.id, board=board, room=room)
            session.add(old)
        old.status, old.ns_result, old.reason = "played", ns_result, "director's ruling"
        session.flush()
        _log_correction(session, ev, m, board, room, correction, before, _describe(old))
        return before


_RESULT_RE = re.compile(r"^\s*+(NS|N-S|EW|E-W)\s*+\+?\s*+([1-4])\s*+$", re.IGNORECASE)


def parse_result(text: str) -> int:
    """A room result as written in records (``NS +2``, ``EW +1``) to N–S's view (+2, −1)."""
    m = _RESULT_RE.match(text)
    if m is None:
        shown = repr(text[:40]) + ("…" if len(text) > 40 else "")
        raise EventError(f"invalid result {shown}: expected e.g. 'NS +2' or 'EW +1'")
    levels = int(m.group(2))
    return levels if m.group(1).upper().startswith("N") else -levels


def list_corrections(engine: Engine, event: str) -> list[dict[str, Any]]:
    """Every correction of the event, oldest first: who, when, why, what changed."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rows = session.execute(
            select(models.EventCorrection, models.EventMatch.table_no, models.EventRound.number)
            .join(models.EventMatch, models.EventCorrection.match_id == models.EventMatch.id)
            .join(models.EventRound, models.EventMatch.round_id == models.EventRound.id)
            .where(models.EventCorrection.event_id == ev.id)
            .order_by(models.EventCorrection.id)
        ).all()
        return [
            {
                "round": rnd,
                "table": table,
                "board": c.board,
                "room": c.room,
                "by": c.made_by,
                "at": _utc(c.made_at).isoformat() if c.made_at else None,
                "reason": c.reason,
                "before": c.before,
                "after": c.after,
            }
            for c, table, rnd in rows
        ]
