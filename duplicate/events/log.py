"""The log of a director's changes to events and board sets (``admin_log``): who, when
(UTC), why, and what; releases of boards, boards reused, renames, substitutions,
withdrawals, deletions. Entries are only ever added, and name what they changed by name,
so that the entry of a deleted event or set stays."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import check_schema, session_scope
from duplicate.events.base import EventError, _utc
from duplicate.i18n import Term, messages, phrase
from duplicate.i18n.stored import said
from duplicate.limits import TEXT_LIMITS, check_text

#: Longest ``made_by`` the log stores (``duplicate.limits``; its column is ``String(200)``).
MAX_BY = TEXT_LIMITS["by"]


def nfc(text: str) -> str:
    """``text`` in Unicode normal form C, stripped: how names are stored and compared."""
    return unicodedata.normalize("NFC", text).strip()


@dataclass(frozen=True, slots=True)
class Change:
    """Who makes a change and why (both stripped, NFC, non-empty)."""

    by: str
    reason: str


#: what a change is (the ``what`` of :func:`checked`) -> the key of its words
_WHAT = {
    "releasing a board": "events.what.release",
    "exporting unreleased boards": "events.what.export_unreleased",
    "reusing boards": "events.what.reuse",
    "a change as the chief director": "events.what.override",
    "setting the directors' limit": "events.what.limit",
    "renaming a team": "events.what.rename_team",
    "renaming a player": "events.what.rename_player",
    "substituting a player": "events.what.substitute",
    "withdrawing a team": "events.what.withdraw",
    "changing an event's time zone": "events.what.time_zone",
    "changing an event's tie-breaks": "events.what.tiebreaks",
    "deleting an event": "events.what.delete_event",
    "deleting a board set": "events.what.delete_set",
    "starting a round": "events.what.start",
    "checking a team in": "events.what.check_in",
    "pausing the clock": "events.what.pause",
    "resuming the clock": "events.what.resume",
    "moving the clock": "events.what.move_clock",
    "accepting a table's request": "events.what.accept_request",
    "dismissing a table's request": "events.what.dismiss_request",
    "confirming a report": "events.what.confirm_report",
    "dismissing a report": "events.what.dismiss_report",
    "settling a dispute": "events.what.settle",
    "closing a round": "events.what.close",
    "publishing a round": "events.what.publish",
    "a correction": "events.what.correction",
    "a ruling": "events.what.ruling",
}


def what_words(what: str) -> Term | str:
    """What a change is, in the reader's language: a phrase of :data:`_WHAT`, or a log's
    action word (``hall start``: the catalogue's ``cli.val.hall start``)."""
    key = _WHAT.get(what)
    if key is None and f"cli.val.{what}" in messages():
        key = f"cli.val.{what}"
    return Term(what, key) if key else what


def checked(by: str | None, reason: str | None, what: str) -> Change:
    """Who and why of a change, stripped (NFC); refused when either is missing."""
    who = nfc(by) if by else ""
    why = nfc(reason) if reason else ""
    if not who or not why:
        raise EventError(phrase("events.err.who_why", what=what_words(what)),
                         cli_hint="--by NAME --reason TEXT")
    if len(who) > MAX_BY:
        raise EventError(phrase("events.err.by_long", what=what_words(what),
                                count=f"{len(who):,}", most=MAX_BY), cli_hint="--by NAME")
    if len(why) > TEXT_LIMITS["reason"]:
        raise EventError(phrase("events.err.reason_long", what=what_words(what),
                                count=f"{len(why):,}", most=TEXT_LIMITS["reason"]),
                         cli_hint="--reason TEXT")
    return Change(check_text(who, "by"), check_text(why, "reason"))


def log_change(
    session: Session,
    action: str,
    change: Change,
    detail: str,
    *,
    event: str | None = None,
    board_set: str | None = None,
) -> None:
    """Add an entry to the log (in the caller's transaction)."""
    session.add(
        models.AdminLog(
            action=action,
            event=event,
            board_set=board_set,
            detail=detail,
            made_by=change.by,
            reason=change.reason,
            made_at=datetime.now(UTC),
        )
    )


def admin_log(
    engine: Engine, event: str | None = None, lang: str = "en"
) -> list[dict[str, Any]]:
    """The log, oldest first: every entry, or those of event ``event`` (which need not
    exist any more). The detail and a reason the program wrote (stored as codes,
    :mod:`duplicate.i18n.stored`) in ``lang``; a reason a person typed as typed; the action
    is the log's word (``rename team``: a program's key, ``logtext.action_said`` says it)."""
    check_schema(engine)
    with session_scope(engine) as session:
        query = select(models.AdminLog).order_by(models.AdminLog.id)
        if event is not None:
            query = query.where(models.AdminLog.event == nfc(event))
        return [
            {
                "at": _utc(e.made_at).isoformat() if e.made_at else None,
                "action": e.action,
                "event": e.event,
                "set": e.board_set,
                "detail": said(e.detail, lang),
                "by": e.made_by,
                "reason": said(e.reason, lang),
            }
            for e in session.scalars(query)
        ]
