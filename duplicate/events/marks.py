"""What ``event export`` adds to a stored record, and how an import sees past it.

An exported record carries where it was played (``Table``, ``Match``) and what the
director decided about its room: a ruling (``Ruling``, ``RulingBy``, ``RulingReason``) or
an unfinished mark (``Unfinished``, ``UnfinishedBy``, ``UnfinishedReason``), or the
correction that put the record in place of another (``CorrectedBy``, ``CorrectionReason``);
and its round's bye and the teams withdrawn after it (``Bye``, ``Withdrawn``:
:mod:`~duplicate.events.roundtags`); in the whole event's export, the event's settings
and teams, a result no record gives, a conceded board and a forfeit
(:mod:`~duplicate.events.eventtags`): docs/FORMAT.md.
None of these is the play, nor are the ``;`` lines an export writes after a round: two
records that differ only in them are the same record
(:func:`same_play`), so that an event's own export imports back into it as already
stored.
"""

from __future__ import annotations

import re
from dataclasses import replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.events.eventtags import is_export_tag
from duplicate.gdn import format_record, loads

#: The tags an export writes beside the stored record (docs/FORMAT.md).
EXPORT_TAGS = (
    "Table",
    "Match",
    "Ruling",
    "RulingBy",
    "RulingReason",
    "Unfinished",
    "UnfinishedBy",
    "UnfinishedReason",
    "CorrectedBy",
    "CorrectionReason",
    "Bye",
    "Withdrawn",
)
#: The tag that says who marked an exported room unfinished: the export's mark.
MARK_BY = "UnfinishedBy"
_DROPPED = frozenset(t.lower() for t in EXPORT_TAGS)


#: The ``;`` lines an export writes after a round's records (the rooms' results in
#: words: ``duplicate.events.export``); read back, they belong to the round's last record.
_EXPORT_LINE = re.compile(
    r"^(Round \d+: \d+ room results? not given by a play record|table \d+[:,] "
    r"|round \d+: (bye|withdrawn) )"
)


def _own(comments: list[str]) -> list[str]:
    return [c for c in comments if not _EXPORT_LINE.match(c)]


def play_text(text: str) -> str:
    """The canonical text of a one-deal ``.gdn`` text without the export's tags and the
    export's own ``;`` lines (a comment of the record's is part of it)."""
    rec = loads(text)[0]
    rec.tags = {k: v for k, v in rec.tags.items()
                if k.lower() not in _DROPPED and not is_export_tag(k)}
    rec.comments = _own(rec.comments)
    if rec.plays:
        rec.plays = [replace(p, comments=_own(p.comments)) for p in rec.plays]
    return format_record(rec)


def same_play(a: str, b: str) -> bool:
    """Whether two one-deal texts are one record but for the export's tags."""
    return a == b or play_text(a) == play_text(b)


def last_record(session: Session, result_id: int) -> str | None:
    """The text of the record a room's latest change with a record rested on (the original
    record of a room marked unfinished since), ``None`` when it never had one."""
    c, p = models.ResultChange, models.PlayRecord
    return session.scalar(
        select(p.gdn)
        .join(c, c.record_id == p.id)
        .where(c.result_id == result_id)
        .order_by(c.seq.desc())
        .limit(1)
    )
