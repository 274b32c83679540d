"""The director's rulings (判罚, seeds/000): warnings (警告), violations (违例), fouls
(犯规), late arrivals (迟到) and forfeits (弃权), each recorded with who, when and why
(``hall_rulings``, and the event's admin log), and its effect on the results:

* ``none``: recorded only (a warning);
* ``assigned``: a room result (``ns_result`` for ``board`` in ``room``) written to the
  store as a director's ruling (a foul: the board ends, the offenders double down);
* ``conceded``: ``team`` concedes ``board`` (default the round's first, seeds/004 rule 5):
  the board scores a swing of +3 to the opponents whatever its rooms hold and needs no
  result (``duplicate.events.scores`` reads the ruling; the store is not touched);
* ``forfeit``: ``team`` forfeits the match (seeds/004 rule 6): the opponents score the
  scale's maximum (2 on 2/1/0, 20 VP), the offender 0 (``scoring.forfeit_match``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine, select

from duplicate import models, store
from duplicate.db import session_scope
from duplicate.events.base import _rules
from duplicate.events.results import _room
from duplicate.events.waiting import set_aside_waiting
from duplicate.hall.base import (
    CATEGORIES,
    EFFECTS,
    HallError,
    no_team,
    utc,
)
from duplicate.hall.rows import (
    boards_of,
    check_board,
    check_room,
    event_row,
    log,
    match_row,
    ready,
    round_row,
    team_names,
    who,
    within_limit,
)
from duplicate.hall.views import (
    Ruling,
)
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, stored, term
from duplicate.scoring import check_result
from duplicate.store import retrying


def _ruling(row: models.HallRuling, event: str, round_no: int, team: str | None) -> Ruling:
    return Ruling(
        row.id, event, round_no, row.table_no, row.category, row.effect, team, row.board,
        row.room, row.ns_result, row.made_by, row.reason, utc(row.made_at),
    )  # fmt: skip


@retrying
def record_ruling(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    category: str,
    effect: str,
    by: str,
    reason: str,
    *,
    team: str | None = None,
    board: int | None = None,
    room: str | None = None,
    ns_result: int | None = None,
    chief: bool = False,
    now: datetime | None = None,
) -> Ruling:
    """Record a ruling at ``table`` of the round and apply its effect (see the module); a
    table's report that waits on a board it decides is set aside
    (:mod:`duplicate.events.waiting`: the desk and the phones then agree).
    A ruling with an effect changes results: in a published round, after the directors'
    limit only as the chief director (``chief``: :mod:`duplicate.events.limit`)."""
    by, reason = who(by, reason, "a ruling")
    if category not in CATEGORIES:
        raise HallError(f"a ruling's category is one of {', '.join(CATEGORIES)}, not {category!r}")
    if effect not in EFFECTS:
        raise HallError(f"a ruling's effect is one of {', '.join(EFFECTS)}, not {effect!r}")
    if effect in ("conceded", "forfeit") and not team:
        raise HallError(phrase(f"hall.err.ruling_team_{effect}"))
    if effect == "assigned" and (board is None or room is None or ns_result is None):
        raise HallError(phrase("hall.err.assigned_needs"))
    if room is not None:
        check_room(room)
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        m = match_row(session, ev, rnd, table)
        team_id: int | None = None
        if team:
            t = session.scalar(
                select(models.EventTeam).where(
                    models.EventTeam.event_id == ev.id, models.EventTeam.name == team
                )
            )
            if t is None:
                raise HallError(no_team(event, team), "not_found")
            if t.id not in (m.team_x_id, m.team_y_id):
                raise HallError(phrase("hall.err.team_not_at_table", team=repr(team), table=table,
                                       round=round_no))
            team_id = t.id
        if effect == "conceded" and board is None:
            boards = boards_of(ev, rnd)
            board = boards[0] if boards else None
        if board is not None:
            check_board(ev, rnd, board)
        where = (
            phrase("hall.err.where_table_board", round=round_no, table=table, board=board)
            if board else phrase("hall.err.where_table", round=round_no, table=table)
        )
        if effect != "none":
            within_limit(session, ev, rnd, by, reason, str(where), chief=chief, now=at)
        h = models.HallRuling
        if effect in ("conceded", "forfeit"):
            same = session.scalar(
                select(h.id).where(
                    h.round_id == rnd.id, h.table_no == table, h.effect == effect,
                    h.team_id == team_id, h.board.is_(board) if board is None else h.board == board,
                )
            )  # fmt: skip
            if same is not None:
                raise HallError(
                    phrase(f"hall.err.already_{effect}", where=where, team=team, id=same),
                    "conflict",
                )
        if effect == "assigned":
            assert board is not None and room is not None and ns_result is not None
            rules = _rules(ev)
            try:
                check_result(ns_result, rules, where=phrase(
                    "scoring.where_room", where=where,
                    room=phrase(f"hall.room.{room}") if room in ("open", "closed")
                    else f"{room} room"))
            except ValueError as exc:
                raise HallError(getattr(exc, "phrase", None) or str(exc)) from None
            result_id, old = _room(session, ev, round_no, table, board, room)
            keep = (old.record_id, old.record_hash) if old is not None else (None, None)
            new = store.State("played", ns_result, store.RULING_NOTE, keep[0], keep[1])
            author = store.Author(by, f"{category}: {reason}", correction=True)
            store.apply_change(session, result_id, "ruling", new, author, str(where), old)
        row = h(
            round_id=rnd.id, table_no=table, category=category, effect=effect, team_id=team_id,
            board=board, room=room, ns_result=ns_result if effect == "assigned" else None,
            made_by=by, reason=reason, made_at=at,
        )  # fmt: skip
        session.add(row)
        session.flush()
        if effect != "none":  # a report of a board it decides waits no more
            set_aside_waiting(session, ev.name, rnd, table, by, reason,
                              board=None if effect == "forfeit" else board,
                              room=room if effect == "assigned" else None, at=at)
        words = {"where": stored(where), "category": term(category, f"desk.category.{category}"),
                 "effect": term(effect, f"desk.effect.{effect}")}
        detail = (coded("lw.detail.ruling_team", name=team, **words) if team
                  else coded("lw.detail.ruling", **words))
        log(session, "hall ruling", by, reason, detail, ev.name)
        return _ruling(row, ev.name, round_no, team)


def rulings(engine: Engine, event: str, round_no: int | None = None) -> list[Ruling]:
    """The event's rulings (or one round's), oldest first."""
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        h, r = models.HallRuling, models.EventRound
        query = select(h, r.number).join(r, r.id == h.round_id).where(r.event_id == ev.id)
        if round_no is not None:
            query = query.where(r.id == round_row(session, ev, round_no).id)
        rows = list(session.execute(query.order_by(h.id)))
        names = team_names(session, [row.team_id for row, _ in rows if row.team_id is not None])
        return [
            _ruling(row, ev.name, n, names.get(row.team_id) if row.team_id else None)
            for row, n in rows
        ]
