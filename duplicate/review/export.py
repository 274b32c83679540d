"""An event's records for publishing: each with its table, its match and any ruling.

Every record gets ``[Table "N"]`` and ``[Match "X v Y"]`` (docs/FORMAT.md), so that
``guandan compare`` pairs the rooms of a board within one match. A room whose result was
set by a director keeps its record as played (its ``Result`` is the play's) and carries
``[Ruling "NS +1"]`` (the result that counts), ``[RulingBy]`` and ``[RulingReason]``.
"""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate.events import list_matches
from duplicate.gdn import format_record, loads
from duplicate.review.source import ruling_of, rulings, stored_rooms


def _result_tag(ns: int | None) -> str:
    if ns is None:
        return "unfinished"
    return f"NS +{ns}" if ns > 0 else f"EW +{-ns}"


def export_event(engine: Engine, event: str, round_no: int | None = None) -> str:
    """The stored records of the event (or of one round) as one ``.gdn`` text, in round,
    table, board order, the open room first."""
    rooms = stored_rooms(engine, event, round_no)
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
    return "\n\n".join(out) + ("\n" if out else "")
