"""Cheap versions of what the public polls: no scoring, a few aggregate queries.

* :func:`results_of` changes with every result, report, ruling, clock start, close,
  publish, pairing or director's change of the event (not with check-ins, token issues or
  reads): a table's live state.
* :func:`standings_of` changes whenever the **standings** may have, and not with every
  report: the standings are after the last complete round (``events.event_standings``),
  so a result of a round still coming in changes nothing until it completes that round.
  It is made of the last complete round (found by counting each round's stored rooms, as
  scoring would, without scoring), the store's last change and the last ruling of the
  rounds counted, whether those rounds are published, the event's settings and its
  director's log (renames, substitutions, withdrawals). During a round every phone polling
  the standings gets a 304 until that round is in.

Both are hashes: equal versions mean equal answers, never the other way round (a changed
version may give the same standings, computed once more).
"""

from __future__ import annotations

import hashlib
from collections import Counter

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.events.base import ROOMS
from duplicate.events.scores import _round_complete
from duplicate.hall.rows import boards_of

_EFFECTS = ("conceded", "forfeit")
#: The event's columns the standings depend on (not its secret seed: a version is public).
_SETTINGS = (
    "name", "format", "scale", "unfinished_rule", "boards_per_round", "rounds",
    "bye_points_cents", "bye_won", "rules", "tiebreaks",
)


def _digest(ev: models.Event, values: object) -> str:
    return hashlib.sha256(f"{ev.id}:{values!r}".encode()).hexdigest()[:16]


def results_of(session: Session, ev: models.Event) -> str:
    """The version of the event's live results (see the module)."""
    r, m = models.EventRound, models.EventMatch
    rc, rr = models.ResultChange, models.RoomResult
    hr, hu, hc = models.HallReport, models.HallRuling, models.HallRound
    log = models.AdminLog
    rounds = select(r.id).where(r.event_id == ev.id).scalar_subquery()
    match_ids = select(m.id).where(m.round_id.in_(rounds)).scalar_subquery()

    parts = [
        select(func.max(rc.id)).join(rr, rr.id == rc.result_id).where(rr.match_id.in_(match_ids)),
        select(func.max(hr.id)).where(hr.round_id.in_(rounds)),
        select(func.coalesce(func.sum(hr.rev), 0)).where(hr.round_id.in_(rounds)),
        select(func.max(hu.id)).where(hu.round_id.in_(rounds)),
        select(func.count(hc.id)).where(hc.round_id.in_(rounds)),
        select(func.count(hc.closed_at)).where(hc.round_id.in_(rounds)),
        select(func.count(hc.published_at)).where(hc.round_id.in_(rounds)),
        select(func.count(r.id)).where(r.event_id == ev.id),
        select(func.count(r.first_board)).where(r.event_id == ev.id),
        select(func.max(log.id)).where(log.event == ev.name, log.action != "hall tokens"),
    ]
    values = session.execute(select(*(p.scalar_subquery() for p in parts))).one()
    return _digest(ev, tuple(values))


def complete_through(session: Session, ev: models.Event) -> int:
    """The last round n such that rounds 1..n have every result in: the library's
    ``_complete_rounds`` without loading the field or scoring. A round without rulings
    that excuse rooms is complete when its stored rooms (of its boards) number
    matches x boards x 2; a round with such rulings is checked room by room."""
    r, m, rr, rc, hu = (
        models.EventRound, models.EventMatch, models.RoomResult, models.ResultChange,
        models.HallRuling,
    )  # fmt: skip
    rounds = list(session.scalars(select(r).where(r.event_id == ev.id).order_by(r.number)))
    ids = [x.id for x in rounds]
    if not ids:
        return 0
    n_matches = {
        round_id: int(n)
        for round_id, n in session.execute(
            select(m.round_id, func.count()).where(m.round_id.in_(ids)).group_by(m.round_id)
        )
    }
    stored = Counter[tuple[int, str]]()
    for round_id, board, n in session.execute(
        select(m.round_id, rr.board, func.count())
        .join(m, m.id == rr.match_id)
        .where(m.round_id.in_(ids), rr.room.in_(ROOMS), exists().where(rc.result_id == rr.id))
        .group_by(m.round_id, rr.board)
    ):
        stored[(round_id, board)] += int(n)
    ruled = set(
        session.scalars(select(hu.round_id).where(hu.round_id.in_(ids), hu.effect.in_(_EFFECTS)))
    )
    through = 0
    for rnd in rounds:
        boards = boards_of(ev, rnd)
        if rnd.id in ruled:
            complete = _round_complete(session, ev, rnd)
        elif not boards:
            complete = n_matches.get(rnd.id, 0) == 0
        else:
            have = sum(stored[(rnd.id, str(b))] for b in boards)
            complete = have == n_matches.get(rnd.id, 0) * len(boards) * len(ROOMS)
        if not complete:
            break
        through = rnd.number
    return through


def standings_of(session: Session, ev: models.Event) -> str:
    """The version of the event's standings (see the module)."""
    through = complete_through(session, ev)
    r, m, rc, rr = models.EventRound, models.EventMatch, models.ResultChange, models.RoomResult
    hu, hc, log = models.HallRuling, models.HallRound, models.AdminLog
    counted = (
        select(r.id).where(r.event_id == ev.id, r.number <= through).scalar_subquery()
    )
    match_ids = select(m.id).where(m.round_id.in_(counted)).scalar_subquery()
    parts = [
        select(func.max(rc.id)).join(rr, rr.id == rc.result_id).where(rr.match_id.in_(match_ids)),
        select(func.max(hu.id)).where(hu.round_id.in_(counted)),
        select(func.count(hc.published_at)).where(hc.round_id.in_(counted)),
        select(func.count(r.scored_at)).where(r.id.in_(counted)),
        select(func.count(r.id)).where(r.event_id == ev.id),
        select(func.count(models.EventTeam.id)).where(models.EventTeam.event_id == ev.id),
        select(func.max(log.id)).where(log.event == ev.name, log.action != "hall tokens"),
    ]
    values = session.execute(select(*(p.scalar_subquery() for p in parts))).one()
    settings = tuple(getattr(ev, name) for name in _SETTINGS)  # never the seed
    return _digest(ev, (through, tuple(values), settings))
