"""A director's changes to an event after pairing, each logged (who, when in UTC, why; see
:mod:`~duplicate.events.log`): a team's or a player's name fixed, a player substituted, a
team withdrawn, the event's time zone or order of tie-breaks changed, an event or an unused board set deleted. Names are stored in Unicode
normal form C, so a name typed decomposed (NFD) is the same name."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import Engine, delete, func, or_, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import MAX_PLAYERS, EventError, _event_row
from duplicate.events.field import check_order
from duplicate.events.log import checked, log_change, nfc
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, term
from duplicate.limits import check_text, shown
from duplicate.standings import DEFAULT_ORDER
from duplicate.zones import check_zone


def _team_row(session: Session, ev: models.Event, name: str) -> models.EventTeam:
    row = session.scalar(
        select(models.EventTeam).where(
            models.EventTeam.event_id == ev.id, models.EventTeam.name == nfc(name)
        )
    )
    if row is None:
        raise EventError(phrase("admin.no_team", event=repr(ev.name), team=shown(nfc(name))))
    return row


def _player_row(session: Session, ev: models.Event, name: str) -> models.EventPlayer:
    row = session.scalar(
        select(models.EventPlayer).where(
            models.EventPlayer.event_id == ev.id, models.EventPlayer.name == nfc(name)
        )
    )
    if row is None:
        raise EventError(phrase("admin.no_player", event=repr(ev.name), player=shown(nfc(name))))
    return row


def _new_name(what: Literal["team", "player"], name: str) -> str:
    new = nfc(name)
    if not new:
        raise EventError(phrase(f"admin.needs_name.{what}"))
    return check_text(new, what)


def _free_player_name(session: Session, ev: models.Event, name: str) -> None:
    if session.scalar(
        select(models.EventPlayer.id).where(
            models.EventPlayer.event_id == ev.id, models.EventPlayer.name == name
        )
    ):
        raise EventError(phrase("admin.plays_already", player=repr(name), event=repr(ev.name)))


def rename_team(engine: Engine, event: str, old: str, new: str, *, by: str, reason: str) -> None:
    """Fix a team's name (a misspelling): every listing and the report use the new one."""
    change = checked(by, reason, "renaming a team")
    name = _new_name("team", new)
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        team = _team_row(session, ev, old)
        if name == team.name:
            raise EventError(phrase("admin.same_name", team=repr(name)))
        if session.scalar(
            select(models.EventTeam.id).where(
                models.EventTeam.event_id == ev.id, models.EventTeam.name == name
            )
        ):
            raise EventError(phrase("admin.team_taken", team=repr(name), event=repr(ev.name)))
        log_change(session, "rename team", change, coded("lw.detail.renamed", old=team.name, new=name), event=ev.name)
        team.name = name


def rename_player(
    engine: Engine, event: str, old: str, new: str, *, by: str, reason: str
) -> None:
    """Fix a player's name (a misspelling). Records imported from now on must name the
    player so; those stored keep the name they were played under."""
    change = checked(by, reason, "renaming a player")
    name = _new_name("player", new)
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        player = _player_row(session, ev, old)
        _free_player_name(session, ev, name)
        log_change(session, "rename player", change,
                   coded("lw.detail.renamed", old=player.name, new=name), event=ev.name)
        player.name = name


def _pair_ids(session: Session, player: models.EventPlayer) -> list[models.EventPair]:
    return list(
        session.scalars(
            select(models.EventPair)
            .where(
                or_(
                    models.EventPair.player_1_id == player.id,
                    models.EventPair.player_2_id == player.id,
                )
            )
            .order_by(models.EventPair.number)
        )
    )


_SEATS = ("open_ns_pair_id", "open_ew_pair_id", "closed_ns_pair_id", "closed_ew_pair_id")


def _matches_of(session: Session, pair_ids: list[int]) -> list[models.EventMatch]:
    cols = [getattr(models.EventMatch, c) for c in _SEATS]
    return list(
        session.scalars(select(models.EventMatch).where(or_(*(c.in_(pair_ids) for c in cols))))
    )


def _played(session: Session, match: models.EventMatch) -> bool:
    return (
        session.scalar(
            select(models.RoomResult.id).where(models.RoomResult.match_id == match.id).limit(1)
        )
        is not None
    )


def substitute_player(
    engine: Engine, event: str, team: str, out: str, new: str, *, by: str, reason: str
) -> None:
    """Put player ``new`` in ``out``'s place in ``team`` from now on.

    If ``out`` has not played yet (no result in a match that seats them), ``new`` simply
    takes their place. Otherwise the matches played stand as played: ``new`` joins the
    team (at most six players), each pair of ``out`` gets a successor with ``new`` under
    its number (the old pair keeps its place in history under the next free number), and
    the matches not begun yet seat the successor.
    """
    change = checked(by, reason, "substituting a player")
    name = _new_name("player", new)
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        trow = _team_row(session, ev, team)
        player = _player_row(session, ev, out)
        if player.team_id != trow.id:
            raise EventError(phrase("admin.not_in_team", player=repr(player.name),
                                    team=repr(trow.name)))
        _free_player_name(session, ev, name)
        log_change(
            session, "substitute", change, coded("lw.detail.substitute", team=trow.name, old=player.name, new=name),
            event=ev.name,
        )  # fmt: skip
        pairs = _pair_ids(session, player)
        matches = _matches_of(session, [p.id for p in pairs])
        if not any(_played(session, m) for m in matches):
            player.name = name
            return
        _successors(session, ev, trow, player, name, pairs, matches)


def _successors(
    session: Session,
    ev: models.Event,
    team: models.EventTeam,
    player: models.EventPlayer,
    name: str,
    pairs: list[models.EventPair],
    matches: list[models.EventMatch],
) -> None:
    """The substitute joins the team; each of the player's pairs gets a successor."""
    count = session.scalar(
        select(func.count()).select_from(models.EventPlayer).where(
            models.EventPlayer.team_id == team.id
        )
    ) or 0
    if count >= MAX_PLAYERS:
        raise EventError(phrase("admin.team_full", team=repr(team.name), count=count,
                                limit=MAX_PLAYERS, player=repr(player.name)))
    sub = models.EventPlayer(event_id=ev.id, team_id=team.id, position=count + 1, name=name)
    session.add(sub)
    session.flush()
    unplayed = [m for m in matches if not _played(session, m)]
    for old in pairs:
        top = session.scalar(
            select(func.max(models.EventPair.number)).where(models.EventPair.team_id == team.id)
        ) or 0
        number, old.number = old.number, top + 1
        session.flush()
        succ = models.EventPair(
            team_id=team.id,
            number=number,
            player_1_id=sub.id if old.player_1_id == player.id else old.player_1_id,
            player_2_id=sub.id if old.player_2_id == player.id else old.player_2_id,
        )
        session.add(succ)
        session.flush()
        for m in unplayed:
            for col in _SEATS:
                if getattr(m, col) == old.id:
                    setattr(m, col, succ.id)
    session.flush()


def withdrawn_teams(session: Session, ev: models.Event) -> set[int]:
    """The ids of the event's withdrawn teams."""
    return set(
        session.scalars(
            select(models.EventWithdrawal.team_id)
            .join(models.EventTeam, models.EventWithdrawal.team_id == models.EventTeam.id)
            .where(models.EventTeam.event_id == ev.id)
        )
    )


def _withdrawals(session: Session, ev: models.Event) -> dict[int, int]:
    """Withdrawn team id -> the number of rounds paired when it withdrew (its last)."""
    w = models.EventWithdrawal
    return {
        team: after
        for team, after in session.execute(
            select(w.team_id, w.after_round)
            .join(models.EventTeam, w.team_id == models.EventTeam.id)
            .where(models.EventTeam.event_id == ev.id)
        )
    }


def withdrawals(engine: Engine, event: str) -> dict[str, int]:
    """The event's withdrawn teams by name, each with the round after which it withdrew
    (the rounds paired then): what a listing or the report marks as withdrawn (退赛)."""
    check_schema(engine)
    with session_scope(engine) as session:
        return withdrawn_names(session, _event_row(session, event))


def withdrawn_names(session: Session, ev: models.Event) -> dict[str, int]:
    """:func:`withdrawals` in ``session`` (one query)."""
    w, t = models.EventWithdrawal, models.EventTeam
    return {
        name: after
        for name, after in session.execute(
            select(t.name, w.after_round).join(t, w.team_id == t.id).where(t.event_id == ev.id)
        )
    }


def withdraw_team(engine: Engine, event: str, team: str, *, by: str, reason: str) -> None:
    """Withdraw a team: it gets no further pairings; the results it played stand (a match
    of a round already paired stays: mark its boards unfinished if it is not played)."""
    change = checked(by, reason, "withdrawing a team")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        trow = _team_row(session, ev, team)
        if trow.id in withdrawn_teams(session, ev):
            raise EventError(phrase("admin.withdrawn", team=repr(trow.name), event=repr(ev.name)))
        rounds = session.scalar(
            select(func.count()).select_from(models.EventRound).where(
                models.EventRound.event_id == ev.id
            )
        ) or 0
        session.add(
            models.EventWithdrawal(
                team_id=trow.id, after_round=rounds, made_by=change.by, reason=change.reason,
                made_at=datetime.now(UTC),
            )
        )  # fmt: skip
        log_change(
            session, "withdraw team", change, coded("lw.detail.withdraw", team=trow.name, round=rounds),
            event=ev.name,
        )  # fmt: skip


def set_time_zone(engine: Engine, event: str, zone: str, *, by: str, reason: str) -> str:
    """Show event ``event``'s times in ``zone`` (an IANA name, :mod:`duplicate.zones`) from
    now on; the stored times (UTC) do not change. Logged; returns the zone it had."""
    change = checked(by, reason, "changing an event's time zone")
    new = check_zone(zone)
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        old = ev.time_zone or "UTC"
        if new == old:
            raise EventError(phrase("events.err.same_zone", event=repr(ev.name), zone=new))
        log_change(session, "time zone", change, coded("lw.detail.zone", before=old, after=new),
                   event=ev.name)
        ev.time_zone = new
        return old


def set_tiebreaks(engine: Engine, event: str, order: str, *, by: str, reason: str) -> str:
    """Rank event ``event``'s standings by order ``order`` (``standings.TIEBREAK_ORDERS``)
    from now on: the standings, the next Swiss pairing and the report follow it. Logged;
    returns the order it had."""
    change = checked(by, reason, "changing an event's tie-breaks")
    new = check_order(order)
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        old = ev.tiebreaks or DEFAULT_ORDER
        if new == old:
            raise EventError(phrase("events.err.same_tiebreaks", event=repr(ev.name),
                                    order=new))
        log_change(session, "tiebreaks", change,
                   coded("lw.detail.tiebreaks", before=term(old, f"cli.val.{old}"),
                         after=term(new, f"cli.val.{new}")),
                   event=ev.name)
        ev.tiebreaks = new
        return old


def delete_event(engine: Engine, event: str, *, by: str, reason: str) -> None:
    """Delete an event with everything it holds (teams, rounds, results, corrections);
    its board sets stay (``deals delete`` removes an unused one). The log keeps the entry."""
    change = checked(by, reason, "deleting an event")
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        teams = session.scalar(
            select(func.count()).select_from(models.EventTeam).where(
                models.EventTeam.event_id == ev.id
            )
        )
        rounds = session.scalar(
            select(func.count()).select_from(models.EventRound).where(
                models.EventRound.event_id == ev.id
            )
        )
        log_change(session, "delete event", change,
                   coded("lw.detail.delete_event", event=ev.name, teams=teams, rounds=rounds),
                   event=ev.name)
        # rounds first: their matches point at the teams without a cascade of their own
        session.execute(delete(models.EventRound).where(models.EventRound.event_id == ev.id))
        session.execute(delete(models.Event).where(models.Event.id == ev.id))


def delete_board_set(engine: Engine, name: str, *, by: str, reason: str) -> None:
    """Delete a board set no event round plays and no stored record names (logged)."""
    change = checked(by, reason, "deleting a board set")
    check_schema(engine)
    with session_scope(engine) as session:
        bset = session.scalar(select(models.BoardSet).where(models.BoardSet.name == nfc(name)))
        if bset is None:
            raise EventError(phrase("records.set.missing_short", set=shown(nfc(name))))
        used = session.execute(
            select(models.EventRound.number, models.Event.name)
            .join(models.Event, models.EventRound.event_id == models.Event.id)
            .where(models.EventRound.board_set_id == bset.id)
            .order_by(models.Event.name, models.EventRound.number)
            .limit(1)
        ).first()
        if used is not None:
            raise EventError(phrase("admin.set_used", set=repr(bset.name), round=used[0],
                                    event=repr(used[1])))
        recorded = session.scalar(
            select(func.count())
            .select_from(models.RoomResult)
            .join(models.Board, models.RoomResult.board_id == models.Board.id)
            .where(models.Board.set_id == bset.id, models.RoomResult.match_id.is_(None))
        )
        if recorded:
            raise EventError(
                phrase("admin.set_recorded", set=repr(bset.name), n=recorded),
                cli_hint="they were imported with 'guandan import --set'",
            )
        log_change(
            session, "delete set", change, coded("lw.detail.delete_set", set=bset.name, boards=bset.board_count),
            board_set=bset.name,
        )  # fmt: skip
        session.execute(delete(models.BoardSet).where(models.BoardSet.id == bset.id))
