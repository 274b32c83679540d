"""The rounds of an event: pairing (Swiss or round robin), the seating of each match in
two rooms (RULES.md §11), and the boards each round plays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.boards import generate_set, store_set
from duplicate.db import check_schema, session_scope
from duplicate.dealing import LevelSchedule, SeedFile
from duplicate.events.admin import withdrawn_teams
from duplicate.events.base import (
    EventError,
    MatchInfo,
    RoundInfo,
    _event_row,
    _matches,
    _round_boards,
    _round_row,
    _rounds,
)
from duplicate.events.field import _Field, _load_field, _match_info
from duplicate.events.log import checked, log_change
from duplicate.events.scores import _standings
from duplicate.i18n import Named, phrase
from duplicate.i18n.stored import coded, nested
from duplicate.limits import shown
from duplicate.pairing import (
    Pairing,
    PairingError,
    first_round,
    round_robin,
    swiss_round,
)
from duplicate.records import Correction


def pair_round(
    engine: Engine,
    event: str,
    lineups: Mapping[str, tuple[int, int]] | None = None,
) -> RoundInfo:
    """Pair the next round and seat its matches; returns it.

    Swiss: round 1 is drawn from the event's seed; later rounds pair by the standings after
    the rounds before (which must be complete), never the same two teams twice, the bye to
    the lowest team without one (``pairing.swiss_round``). Round robin: the circle method's
    schedule (``pairing.round_robin``) in entry order. ``lineups`` gives a team's
    ``(open pair, closed pair)`` numbers; by default pairs 1 (open room) and 2 (closed).
    """
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        gone = {f.teams[t].name for t in withdrawn_teams(session, ev)}
        if len(f.teams) - len(gone) < 2:
            raise EventError(phrase("events.err.two_teams", event=repr(event)))
        done = _rounds(session, ev)
        number = len(done) + 1
        if number > ev.rounds:
            raise EventError(phrase("events.err.all_paired", event=repr(event), rounds=ev.rounds))
        names = [t.name for t in f.teams.values()]
        if ev.format == "rr":
            schedule = round_robin(names)  # the whole field's schedule, withdrawn teams too
            if number > len(schedule):
                raise EventError(phrase(
                    "events.err.rr_rounds", teams=len(names), rounds=len(schedule), number=number
                ))
            pairing = _without(schedule[number - 1], gone)
        elif number == 1:
            pairing = first_round([n for n in names if n not in gone], ev.seed)
        else:
            rows = _standings(session, ev, f, number - 1)
            played: list[tuple[str, str]] = []
            byes: list[str] = []
            for rnd in done:
                if rnd.bye_team_id is not None:
                    byes.append(f.teams[rnd.bye_team_id].name)
                for m in _matches(session, rnd):
                    played.append((f.teams[m.team_x_id].name, f.teams[m.team_y_id].name))
            try:
                pairing = swiss_round([str(r.team) for r in rows if r.team not in gone],
                                      played, byes)  # fmt: skip
            except PairingError as exc:
                raise EventError(phrase(
                    "events.err.pairing", event=repr(event), number=number,
                    reason=exc.phrase or str(exc)
                )) from None
        return _store_round(session, ev, f, number, pairing, lineups or {})


def _without(pairing: Pairing, gone: set[str]) -> Pairing:
    """A round-robin round without the withdrawn teams: a team whose opponent withdrew gets
    the bye when the round has none, else sits the round out."""
    tables = tuple((x, y) for x, y in pairing.tables if str(x) not in gone and str(y) not in gone)
    left = [
        t for x, y in pairing.tables for t in (x, y)
        if str(t) not in gone and (str(x) in gone or str(y) in gone)
    ]  # fmt: skip
    bye = pairing.bye if pairing.bye is not None and str(pairing.bye) not in gone else None
    if bye is None and left:
        bye = left[0]
    return Pairing(tables, bye)


def _store_round(
    session: Session,
    ev: models.Event,
    f: _Field,
    number: int,
    pairing: Pairing,
    lineups: Mapping[str, tuple[int, int]],
) -> RoundInfo:
    bye = f.by_name[str(pairing.bye)] if pairing.bye is not None else None
    rnd = models.EventRound(
        event_id=ev.id, number=number, bye_team_id=bye.id if bye is not None else None
    )
    session.add(rnd)
    session.flush()
    unknown = set(lineups) - set(f.by_name)
    if unknown:
        raise EventError(phrase("events.err.no_team", event=repr(ev.name),
                                team=shown(sorted(unknown)[0])))
    matches = []
    for table, (x, y) in enumerate(pairing.tables, 1):
        tx, ty = f.by_name[str(x)], f.by_name[str(y)]
        x_open, x_closed = _lineup(f, tx, lineups.get(tx.name, (1, 2)))
        y_open, y_closed = _lineup(f, ty, lineups.get(ty.name, (1, 2)))
        m = models.EventMatch(
            round_id=rnd.id,
            table_no=table,
            team_x_id=tx.id,
            team_y_id=ty.id,
            open_ns_pair_id=x_open.id,
            closed_ew_pair_id=x_closed.id,
            open_ew_pair_id=y_open.id,
            closed_ns_pair_id=y_closed.id,
        )
        matches.append(_match_info(f, number, m))  # validates the seating before storing
        session.add(m)
    session.flush()
    return RoundInfo(number, tuple(matches), bye.name if bye else None, None, ())


def _lineup(
    f: _Field, team: models.EventTeam, numbers: tuple[int, int]
) -> tuple[models.EventPair, models.EventPair]:
    pairs = {p.number: p for p in f.team_pairs[team.id]}
    a, b = numbers
    if a == b or a not in pairs or b not in pairs:
        raise EventError(phrase("events.err.lineup", team=repr(team.name), a=a, b=b,
                                top=len(pairs)))
    return pairs[a], pairs[b]


def list_matches(engine: Engine, event: str, round_no: int | None = None) -> list[MatchInfo]:
    """The matches of every round (or of ``round_no``) with their seating."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        out: list[MatchInfo] = []
        for rnd in _rounds(session, ev, only=round_no):
            out.extend(_match_info(f, rnd.number, m) for m in _matches(session, rnd))
        return out


def get_round(engine: Engine, event: str, round_no: int) -> RoundInfo:
    """Round ``round_no``: matches, bye and boards."""
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rnd = _round_row(session, ev, round_no)
        set_name = None
        if rnd.board_set_id is not None:
            set_name = session.scalar(
                select(models.BoardSet.name).where(models.BoardSet.id == rnd.board_set_id)
            )
        return RoundInfo(
            rnd.number,
            tuple(_match_info(f, rnd.number, m) for m in _matches(session, rnd)),
            f.teams[rnd.bye_team_id].name if rnd.bye_team_id is not None else None,
            set_name,
            _round_boards(ev, rnd),
        )


# --- boards ------------------------------------------------------------------------------


def assign_boards(
    engine: Engine,
    event: str,
    round_no: int,
    *,
    set_name: str | None = None,
    seed: SeedFile | None = None,
    schedule: LevelSchedule | str = "fixed",
    first: int | None = None,
    delayed: str | None = None,
    reuse: Correction | None = None,
) -> RoundInfo:
    """Give round ``round_no`` its boards: ``boards_per_round`` boards of a stored set from
    ``first`` on.

    Either a set stored by ``guandan deals generate`` (``set_name``), or a seed file: then
    the event's whole set (``rounds × boards_per_round`` boards, named as the event:
    :func:`event_set_name`; an old database's ``<event> boards`` is found too) is generated
    and stored the first time, so that no two rounds share a board; later rounds must give
    the same seed file (checked against the stored commitment). ``first``
    defaults to ``(round − 1) × boards_per_round + 1`` when the set is that long, else 1.
    Refused once the round has results (its boards are what was played), and when a board
    is another round's (of this event or another) or the set is revealed (its seed is
    public), unless ``reuse`` says who and why (logged).
    """
    change = checked(reuse.by, reuse.reason, "reusing boards") if reuse is not None else None
    if (set_name is None) == (seed is None):
        raise EventError(phrase("events.err.set_or_seed"))
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        _round_row(session, ev, round_no)  # before generating anything
        total = ev.rounds * ev.boards_per_round
        if set_name is not None:
            name = set_name
        else:
            own = _event_set(session, ev)
            name = own.name if own is not None else event_set_name(ev.name)
    if seed is not None:
        with session_scope(engine) as session:
            stored = session.scalar(
                select(models.BoardSet.commitment).where(models.BoardSet.name == name)
            )
        if stored is None:
            store_set(engine, generate_set(seed, total, name, schedule, delayed))
        elif stored != seed.commitment:
            # The event's set exists already: a different seed file must not pass silently.
            raise EventError(
                phrase("events.err.other_seed", event=repr(event), name=repr(name),
                       stored=stored[:16], mine=seed.commitment[:16]),
                cli_hint="a stored set is given with --set",
            )
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        rnd = _round_row(session, ev, round_no)
        bset = session.scalar(select(models.BoardSet).where(models.BoardSet.name == name))
        if bset is None:
            raise EventError(phrase("events.err.no_set", name=repr(name)),
                             cli_hint="generate it with 'guandan deals'")
        bpr = ev.boards_per_round
        if first is None:
            first = (round_no - 1) * bpr + 1 if bset.board_count >= round_no * bpr else 1
        if first < 1 or first + bpr - 1 > bset.board_count:
            raise EventError(phrase(
                "events.err.set_range", name=repr(name), count=bset.board_count, round=round_no,
                per=bpr, first=first,
            ))
        if _has_results(session, rnd):
            raise EventError(phrase("events.err.has_results", event=repr(event), round=round_no))
        conflicts = _reused(session, rnd, bset, first, bpr)
        if conflicts and change is None:
            key, values = conflicts[0]
            raise EventError(
                phrase("events.err.reused", event=Named(ev.name), round=round_no,
                       conflict=phrase(key, **{k: Named(v) if k in ("set", "event") else v
                                               for k, v in values.items()})),
                cli_hint="--reuse with --by NAME and --reason TEXT",
            )
        if conflicts and change is not None:
            log_change(
                session,
                "reuse boards",
                change,
                coded("lw.detail.reuse", round=round_no, first=first, last=first + bpr - 1,
                      set=name, conflicts=[nested(k, **v) for k, v in conflicts]),
                event=ev.name,
                board_set=name,
            )
        rnd.board_set_id = bset.id
        rnd.first_board = first
        session.flush()
    return get_round(engine, event, round_no)


def _has_results(session: Session, rnd: models.EventRound) -> bool:
    return (
        session.scalar(
            select(models.RoomResult.id)
            .join(models.EventMatch)
            .where(models.EventMatch.round_id == rnd.id)
            .limit(1)
        )
        is not None
    )


def _reused(
    session: Session, rnd: models.EventRound, bset: models.BoardSet, first: int, count: int
) -> list[tuple[str, dict[str, Any]]]:
    """Why boards ``first`` .. ``first + count - 1`` of ``bset`` are not new to round
    ``rnd``: the set is revealed, or some are boards of another round (of any event); each
    reason a catalogue key (``lw.reuse.*``) and its values (names as stored)."""
    out: list[tuple[str, dict[str, Any]]] = []
    if bset.revealed_seed is not None:
        out.append(("lw.reuse.revealed", {"set": bset.name}))
    mine = set(range(first, first + count))
    others = session.execute(
        select(models.EventRound.number, models.EventRound.first_board, models.Event)
        .join(models.Event, models.EventRound.event_id == models.Event.id)
        .where(
            models.EventRound.board_set_id == bset.id,
            models.EventRound.id != rnd.id,
            models.EventRound.first_board.is_not(None),
        )
        .order_by(models.Event.name, models.EventRound.number)
    )
    for number, start, ev in others:
        assert start is not None  # the query keeps rounds with boards only
        both = sorted(mine & set(range(start, start + ev.boards_per_round)))
        if both:
            where = {"set": bset.name, "round": number, "event": ev.name}
            if len(both) == 1:
                out.append(("lw.reuse.one", {"board": both[0], **where}))
            else:
                out.append(("lw.reuse.some", {"first": both[0], "last": both[-1], **where}))
    return out


# --- the event's own set -----------------------------------------------------------------

#: The name the event's own set had before it was the event's name (``Cup boards``): sets
#: stored so in a database still count as the event's.
_OLD_SET_NAME = "{event} boards"


def event_set_name(event: str) -> str:
    """The name of the board set an event generates from its seed file
    (:func:`assign_boards` with ``seed``): the event's own name, the same in every
    language, and what a director types back (``--set``)."""
    return event


def _event_set(session: Session, ev: models.Event) -> models.BoardSet | None:
    """The event's own stored set: named :func:`event_set_name`, or as it was named before
    (``<event> boards``); when both exist, the one the event's rounds play, else the new."""
    names = (event_set_name(ev.name), _OLD_SET_NAME.format(event=ev.name))
    found = {
        s.name: s
        for s in session.scalars(select(models.BoardSet).where(models.BoardSet.name.in_(names)))
    }
    if len(found) > 1:
        used = set(session.scalars(
            select(models.EventRound.board_set_id).where(models.EventRound.event_id == ev.id)
        ))
        for n in names:
            if found[n].id in used:
                return found[n]
    return next((found[n] for n in names if n in found), None)


def event_board_set(engine: Engine, event: str) -> str | None:
    """The name of event ``event``'s own stored set (generated from its seed file; an
    old database's ``<event> boards`` too), or ``None`` while it has none."""
    check_schema(engine)
    with session_scope(engine) as session:
        found = _event_set(session, _event_row(session, event))
        return found.name if found is not None else None
