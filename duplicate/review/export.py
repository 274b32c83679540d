"""An event's records for publishing: each with its table, its match and any ruling.

Every record gets ``[Table "N"]`` and ``[Match "X v Y"]`` (docs/FORMAT.md), so that
``guandan compare`` pairs the rooms of a board within one match. A room whose result was
set by a director keeps its record as played (its ``Result`` is the play's) and carries
``[Ruling "NS +1"]`` (the result that counts), ``[RulingBy]`` and ``[RulingReason]``.
"""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate.db import session_scope
from duplicate.events import list_matches
from duplicate.events.log import checked, log_change
from duplicate.gdn import format_record, loads
from duplicate.records import Correction
from duplicate.review.source import released, ruling_of, rulings, stored_rooms


def _result_tag(ns: int | None) -> str:
    if ns is None:
        return "unfinished"
    return f"NS +{ns}" if ns > 0 else f"EW +{-ns}"


def export_event(
    engine: Engine,
    event: str,
    round_no: int | None = None,
    *,
    unreleased: Correction | None = None,
) -> str:
    """The stored records of the event (or of one round) as one ``.gdn`` text, in round,
    table, board order, the open room first: those of released boards only
    (:mod:`duplicate.events.release`), meant for players. ``unreleased`` (who and why)
    exports every record, the director's own copy, and is logged."""
    change = (
        checked(unreleased.by, unreleased.reason, "exporting unreleased boards")
        if unreleased is not None
        else None
    )
    rooms = stored_rooms(engine, event, round_no)
    if change is None:
        shown = released(engine, event)
        rooms = {k: v for k, v in rooms.items() if (str(k[0]), str(k[2])) in shown}
    teams = {(m.round, m.table): (m.team_x, m.team_y) for m in list_matches(engine, event)}
    log = rulings(engine, event)
    out = []
    for key in sorted(rooms, key=lambda k: (k[0], k[1], k[2], k[3] != "open")):
        room = rooms[key]
        if not room.record:
            continue
        rec = loads(room.record)[0]
        rnd, table = key[0], key[1]
        extra = {"Table": str(table)}
        if (rnd, table) in teams:
            x, y = teams[(rnd, table)]
            extra["Match"] = f"{x} v {y}"
        ruling = ruling_of(key, room, log)
        if ruling is not None:
            extra |= {"Ruling": _result_tag(ruling.counted), "RulingBy": ruling.by,
                      "RulingReason": ruling.reason}
        tags = dict(rec.tags)
        for name in ("Table", "Match", "Ruling", "RulingBy", "RulingReason"):
            tags.pop(name, None)
        tags.update(extra)
        rec.tags = tags
        out.append(format_record(rec))
    if change is not None:
        where = f"round {round_no}" if round_no is not None else "every round"
        with session_scope(engine) as session:
            log_change(
                session, "export unreleased", change, f"{where}: {len(out)} records",
                event=event,
            )  # fmt: skip
    return "\n\n".join(out) + ("\n" if out else "")
