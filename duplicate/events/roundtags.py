"""A round's bye and the withdrawals after it, as tags on every record an export writes of
that round (``Bye``, ``Withdrawn``: docs/FORMAT.md), and read back by an import: a bye the
round does not have is refused, a withdrawal the event does not know yet is recorded (who
imports, why: the export says so; logged), so that an event's export alone carries what
its standings count."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from duplicate import models
from duplicate.events.admin import withdrawn_teams
from duplicate.events.base import EventError
from duplicate.events.log import Change, log_change
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded
from duplicate.limits import shown

#: Several teams in one ``Withdrawn`` tag are separated so.
SEP = "; "


def round_tags(bye: str | None, withdrawn: Sequence[str]) -> dict[str, str]:
    """The tags of a round's records: its bye's team, the teams withdrawn after it."""
    tags: dict[str, str] = {}
    if bye is not None:
        tags["Bye"] = bye
    if withdrawn:
        tags["Withdrawn"] = SEP.join(sorted(withdrawn))
    return tags


def _teams_of(value: str, known: Mapping[str, models.EventTeam]) -> list[str]:
    """The team names of a ``Withdrawn`` tag (a name holding ``; `` is read whole)."""
    value = value.strip()
    if value in known:
        return [value]
    return [part.strip() for part in value.split(SEP.strip()) if part.strip()]


def check_round_tags(
    session: Session,
    ev: models.Event,
    known: Mapping[str, models.EventTeam],
    rnd: models.EventRound,
    tags: Mapping[str, str],
    where: object,
    by: str,
) -> None:
    """Check a record's ``Bye`` against its round's bye and record its ``Withdrawn`` teams
    the event does not have as withdrawn yet (after this round, logged)."""
    bye = tags.get("Bye")
    if bye is not None:
        mine = next((t.name for t in known.values() if t.id == rnd.bye_team_id), None)
        if bye.strip() != (mine or ""):
            raise EventError(phrase("imports.bye_differs", where=where, round=rnd.number,
                                    tag=shown(bye), bye=shown(mine or "-")))
    gone = tags.get("Withdrawn")
    if not gone:
        return
    already = withdrawn_teams(session, ev)
    for name in _teams_of(gone, known):
        team = known.get(name)
        if team is None:
            raise EventError(phrase("imports.withdrawn_unknown", where=where, team=shown(name),
                                    event=repr(ev.name)))
        if team.id in already:
            continue
        reason = coded("lw.reason.withdrawn_export", round=rnd.number)
        session.add(models.EventWithdrawal(team_id=team.id, after_round=rnd.number, made_by=by,
                                           reason=reason, made_at=datetime.now(UTC)))
        log_change(session, "withdraw team", Change(by, reason),
                   coded("lw.detail.withdraw", team=team.name, round=rnd.number),
                   event=ev.name)
        session.flush()
        already.add(team.id)
