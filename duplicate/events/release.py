"""Which boards players may see: the library rule behind every output meant for players
(``event export``, the comparison of an event's rooms, the report).

A board of a round is **released** when every match (table) of the round has it in, in both
rooms (a result, or marked unfinished), or needs no result for it (the hall's ruling
conceded the board at that table, or forfeited the match), or when the director released
it explicitly (:func:`release_board`, logged with who, when in UTC, and why). Until then
its hands and plays would tell a table that has not played it yet what to do, so they
appear nowhere a player can read them. The hall's pages and the command line's export and
report follow this one rule.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    ROOMS,
    EventError,
    _event_row,
    _matches,
    _round_boards,
    _round_row,
    _rounds,
)
from duplicate.events.log import checked, log_change
from duplicate.events.scores import _adjustments, _stored_rooms
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded
from duplicate.zones import When


def _released(session: Session, ev: models.Event, rnd: models.EventRound) -> frozenset[int]:
    """The released boards of a round (in the caller's transaction)."""
    boards = _round_boards(ev, rnd)
    if not boards:
        return frozenset()
    ms = _matches(session, rnd)
    stored = _stored_rooms(session, rnd)
    conceded, forfeits = _adjustments(session, rnd, ms)

    def settled(m: models.EventMatch, b: int) -> bool:
        if m.id in forfeits or (m.id, b) in conceded:
            return True
        return all((m.id, b, room) in stored for room in ROOMS)

    done = {b for b in boards if all(settled(m, b) for m in ms)}
    explicit = session.scalars(
        select(models.EventRelease.board).where(models.EventRelease.round_id == rnd.id)
    )
    return frozenset(done | {b for b in explicit if b in boards})


def released_boards(engine: Engine, event: str, round_no: int) -> frozenset[int]:
    """The boards of round ``round_no`` whose hands and plays may be shown to players."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        return _released(session, ev, _round_row(session, ev, round_no))


def unreleased_boards(engine: Engine, event: str) -> dict[int, tuple[int, ...]]:
    """Round number: the boards of that round not released yet (rounds with none left out)."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _unreleased(session, _event_row(session, event))


def _unreleased(session: Session, ev: models.Event) -> dict[int, tuple[int, ...]]:
    """:func:`unreleased_boards` in the caller's session."""
    out: dict[int, tuple[int, ...]] = {}
    for rnd in _rounds(session, ev):
        released = _released(session, ev, rnd)
        held = tuple(b for b in _round_boards(ev, rnd) if b not in released)
        if held:
            out[rnd.number] = held
    return out


def release_board(
    engine: Engine, event: str, round_no: int, board: int, by: str, reason: str
) -> None:
    """The director releases ``board`` of round ``round_no`` to the players before every
    table has it in (a table withdrew, a record is lost, ...): stored with who, when (UTC)
    and why, and logged. A board released once stays released."""
    change = checked(by, reason, "releasing a board")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd = _round_row(session, ev, round_no)
        boards = _round_boards(ev, rnd)
        if not boards:
            raise EventError(phrase("events.err.no_boards", event=repr(ev.name), round=round_no))
        if board not in boards:
            raise EventError(phrase("events.err.not_round_board", round=round_no, first=boards[0],
                                    last=boards[-1], board=board))
        old = session.scalar(
            select(models.EventRelease).where(
                models.EventRelease.round_id == rnd.id, models.EventRelease.board == board
            )
        )
        if old is not None:
            raise EventError(phrase("out.release.already", event=repr(ev.name), round=round_no,
                                    board=board, by=repr(old.made_by),
                                    when=When(old.made_at, ev.time_zone)))
        session.add(
            models.EventRelease(
                round_id=rnd.id,
                board=board,
                made_by=change.by,
                reason=change.reason,
                made_at=datetime.now(UTC),
            )
        )
        log_change(session, "release board", change,
                   coded("lw.detail.board", round=round_no, board=board), event=ev.name)
