"""An event's records for publishing: ``event export`` (``duplicate.events.export_records``).

Every record gets ``[Table "N"]`` and ``[Match "X v Y"]`` (docs/FORMAT.md), so that
``guandan compare`` pairs the rooms of a board within one match. A room whose result was
set by a director keeps its record as played (its ``Result`` is the play's) and carries
``[Ruling "NS +1"]`` (the result that counts), ``[RulingBy]`` and ``[RulingReason]``; a room
marked unfinished carries its original record with ``[Unfinished]``, ``[UnfinishedBy]`` and
``[UnfinishedReason]``. The library's export is the one implementation; this module is its
name for the review package and the command line.
"""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate.events import export_records
from duplicate.records import Correction


def export_event(
    engine: Engine,
    event: str,
    round_no: int | None = None,
    *,
    unreleased: Correction | None = None,
    results: bool = False,
) -> str:
    """The stored records of the event (or of one round) as one ``.gdn`` text, in round,
    table, board order, the open room first: those of released boards only
    (:mod:`duplicate.events.release`), meant for players. ``unreleased`` (who and why)
    exports every record, the director's own copy, and is logged. ``results``: the rooms
    whose result no record gives (a finishing order the table reported, a ruling, an
    unfinished board) follow as ``;`` comment lines that say so
    (:func:`duplicate.events.export_records`)."""
    text = export_records(engine, event, round_no, unreleased=unreleased, results=results)
    return text + ("\n" if text and not text.endswith("\n") else "")
