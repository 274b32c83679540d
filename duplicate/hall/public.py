"""What everyone may see: the draw, live standings, a match board by board, which boards
are released, and the cheap version of an event's results (the standings' ETag).

* Standings are the library's (``events.event_standings``: every tie-break of the event),
  after the last round with every result in; ``provisional`` while a round they count is
  not published (a round run without the hall counts as published once scored); with the
  results changed since their round was published (``outcomes.published_changes``).
* A match shows each room's finishing order as the store holds it (the one the result was
  counted from), and its results changed since publication.
* A match's room results are shown only for **released** boards (every table has the
  board in, in both rooms, or a ruling made it need no result, or the director released
  it: ``events.released_boards``): a result tells something about a board's hands.
* ``results_version`` and ``standings_version`` are a few aggregate queries, no scoring
  (:mod:`duplicate.hall.versions`): the first changes with every result, report, ruling,
  clock, close, publish, pairing or rename; the second only when the standings may have
  (not with a result of a round still coming in): the standings' ETag.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import session_scope
from duplicate.errors import DuplicateError
from duplicate.events.admin import withdrawn_names
from duplicate.events.base import _current
from duplicate.events.field import _load_field
from duplicate.events.release import _released
from duplicate.events.scores import (
    _adjustments,
    _complete_rounds,
    _match_rows,
    _standings,
)
from duplicate.hall import versions
from duplicate.hall.base import (
    Clock,
    HallError,
    utc,
)
from duplicate.hall.outcomes import published_changes
from duplicate.hall.rows import (
    boards_of,
    check_board,
    event_row,
    hall_round,
    make_clock,
    match_row,
    matches,
    ready,
    round_row,
    seating,
)
from duplicate.hall.views import (
    DrawRow,
    LiveStandings,
    MatchBoard,
    PublicMatch,
)


def draw(engine: Engine, event: str, round_no: int) -> list[DrawRow]:
    """Who plays whom at which table, and who sits where in each room."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        return [DrawRow(m.table_no, *seating(session, m)) for m in matches(session, rnd)]


def results_version(engine: Engine, event: str) -> str:
    """A short string that changes whenever the event's results may have (see the module)."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        return versions.results_of(session, ev)


def standings_version(engine: Engine, event: str) -> str:
    """A short string that changes whenever the event's standings may have: not with a
    result of a round still coming in (``versions.standings_of``)."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        return versions.standings_of(session, ev)


def _published(session: Session, rnd: models.EventRound) -> bool:
    hr = hall_round(session, rnd)
    if hr is None:
        return rnd.scored_at is not None
    return hr.published_at is not None


def public_clock(engine: Engine, event: str, round_no: int, now: datetime | None = None) -> Clock:
    """The round's clock as the public pages tell it: the hall's clock, or, for a round
    run without the hall (no clock ever started) and scored, ``published`` (as the
    standings count it): such a round is never "not started"."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        hr = hall_round(session, rnd)
        clock = make_clock(ev.name, round_no, hr, at)
        if hr is None and _published(session, rnd):
            clock = replace(clock, phase="published", published_at=utc(rnd.scored_at))
        return clock


def live_standings(engine: Engine, event: str) -> LiveStandings:
    """The library's standings (``events.event_standings``: after the last complete
    round, every tie-break) read in one transaction with their version, provisional while
    a round they count is not published, and the teams withdrawn (``events.withdrawals``)."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        version = versions.standings_of(session, ev)
        f = _load_field(session, ev)
        try:
            through = _complete_rounds(session, ev, f)
            rows = _standings(session, ev, f, through)
        except DuplicateError as exc:
            raise HallError(str(exc)) from None
        rounds = session.scalars(
            select(models.EventRound).where(
                models.EventRound.event_id == ev.id, models.EventRound.number <= through
            )
        )
        provisional = not all(_published(session, rnd) for rnd in rounds)
        changed = published_changes(session, ev)
        withdrawn = withdrawn_names(session, ev)
        order = ev.tiebreaks
    return LiveStandings(list(rows), through, provisional, version, changed, withdrawn, order)


def board_released(engine: Engine, event: str, round_no: int, board: int) -> bool:
    """Whether players may see the board's hands and records (every table has it in, or
    the director released it)."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        check_board(ev, rnd, board)
        return board in _released(session, ev, rnd)


def current_round(engine: Engine, event: str) -> int | None:
    """The highest round with boards assigned (``None``: none yet)."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        return session.scalar(
            select(func.max(models.EventRound.number)).where(
                models.EventRound.event_id == ev.id, models.EventRound.first_board.is_not(None)
            )
        )


def public_match(engine: Engine, event: str, round_no: int, table: int) -> PublicMatch:
    """A match board by board (``events.match_boards``): each room's result and team X's
    swing for released boards (``None``, status ``hidden``, otherwise), the swing total of
    what is shown, whether it is provisional, and who forfeited it, if anyone."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        m = match_row(session, ev, rnd, table)
        x, y, open_, closed = seating(session, m)
        rows = []
        released: frozenset[int] = frozenset()
        if boards_of(ev, rnd):
            released = _released(session, ev, rnd)
            try:
                rows = _match_rows(session, ev, _load_field(session, ev), rnd, m)
            except DuplicateError as exc:
                raise HallError(str(exc)) from None
        provisional = not _published(session, rnd)
        _, forfeits = _adjustments(session, rnd, [m])
        forfeit = {"x": x, "y": y}.get(forfeits[m.id], f"{x}, {y}") if m.id in forfeits else None
        name = ev.name
        now = _current(session, [m.id])
        changed = [
            c for c in published_changes(session, ev, round_no, table) if c.board in released
        ]

    def order(board: int, room: str) -> str | None:
        found = now.get((m.id, board, room))
        return None if found is None else found.state.finish

    boards = [
        MatchBoard(r.board, r.open_ns, r.closed_ns, r.swing, r.status,
                   order(r.board, "open"), order(r.board, "closed"))
        if r.board in released
        else MatchBoard(
            r.board, None, None, None, "hidden" if r.status != "not in yet" else r.status
        )
        for r in rows
    ]
    total = sum(b.swing for b in boards if b.swing is not None)
    return PublicMatch(
        name, round_no, table, x, y, open_, closed, boards, total, provisional, forfeit, changed
    )
