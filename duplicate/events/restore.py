"""An event made again from its whole export alone (``guandan event restore``), in a
database that does not have it: the settings and teams from the first record's tags
(:mod:`~duplicate.events.eventtags`), then round by round its matches and seating (each
record's ``Table``, ``Match`` and players), its boards (the records' hands, stored as the
event's board set), its bye (``Bye``), its records imported, the results no record gives
(``ReportedResult``), the rulings (``Ruling``, an unfinished mark, ``Conceded``,
``Forfeited``) and the teams withdrawn after it (``Withdrawn``). Its standings, and every
match's points, are the original's (docs/FORMAT.md, docs/how-to/export.md)."""

from __future__ import annotations

import contextlib
import hashlib
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.boards import BoardSet, SetInfo, store_set
from duplicate.db import check_schema, session_scope
from duplicate.dealing import GENERATOR_ID, Board, board_from_hands
from duplicate.events.admin import delete_board_set, delete_event
from duplicate.events.base import EventError, EventInfo, _event_row, _info, _rounds
from duplicate.events.eventtags import read_event_tags
from duplicate.events.field import _Field, _load_field, add_team, create_event
from duplicate.events.imports import import_texts
from duplicate.events.marks import MARK_BY
from duplicate.events.results import correct_result, parse_result, record_unfinished, report_result
from duplicate.events.rounds import _store_round, assign_boards, event_set_name
from duplicate.events.roundtags import check_round_tags
from duplicate.gdn import DealRecord, format_record, loads
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded
from duplicate.limits import shown
from duplicate.pairing import Pairing
from duplicate.records import Correction
from duplicate.store import Author
from engine.seat import Seat

#: The tags of a room's decision the import of its record does not read: applied after it.
_DECISION = ("Ruling", "RulingBy", "RulingReason", "UnfinishedBy", "UnfinishedReason")


def restore_event(engine: Engine, text: str, by: str, file: str | None = None) -> EventInfo:
    """Make the event of a whole export (``event export``'s text) again in ``engine``:
    refused when the database has an event of its name or the export lacks what the
    standings count (its first record's event tags). ``by``: who restores it (the log
    names it for what the export does not say); ``file``: the export's name, for errors."""
    check_schema(engine)
    records = loads(text, file=file, strict=True)
    if not records:
        raise EventError(phrase("events.err.export_empty"))
    settings, teams = read_event_tags(records[0].tags)
    rounds: dict[int, list[DealRecord]] = defaultdict(list)
    for rec in records:
        try:
            rounds[int(rec.tags.get("Round", ""))].append(rec)
        except ValueError:
            raise EventError(phrase("events.err.export_round",
                                    round=shown(rec.tags.get("Round", "")))) from None
    if sorted(rounds) != list(range(1, len(rounds) + 1)):
        raise EventError(phrase("events.err.export_rounds", rounds=sorted(rounds)))
    name = records[0].tags.get("Event", "").strip()
    create_event(engine, name, **settings)
    try:
        for team, players, pairs in teams:
            add_team(engine, name, team, players, pairs)
        _store_boards(engine, name, records)
        for number in sorted(rounds):
            _restore_round(engine, name, number, rounds[number], by)
    except Exception:
        # what was made of it goes: the database is as it was but for the log's lines
        delete_event(engine, name, by=by, reason=coded("lw.reason.restore_failed"))
        with contextlib.suppress(Exception):
            delete_board_set(engine, event_set_name(name), by=by,
                             reason=coded("lw.reason.restore_failed"))
        raise
    with session_scope(engine) as session:
        return _info(_event_row(session, name))


def _store_boards(engine: Engine, event: str, records: list[DealRecord]) -> None:
    """The records' boards as the event's board set, numbered as they were."""
    boards: dict[int, Board] = {}
    for rec in records:
        number = int(rec.tags.get("Board", "0") or 0)
        if number not in boards:
            made = board_from_hands(rec.hands, number, rec.level,
                                    rec.tags.get("Generator") or GENERATOR_ID)
            boards[number] = replace(made, leader=Seat(rec.leader))
    if sorted(boards) != list(range(1, len(boards) + 1)):
        missing = sorted(set(range(1, max(boards) + 1)) - set(boards))
        raise EventError(phrase("events.err.export_boards", boards=missing[:10]))
    ids = "".join(boards[n].deal_id for n in sorted(boards))
    info = SetInfo(event_set_name(event), next(iter(boards.values())).generator,
                   hashlib.sha256(f"restored:{ids}".encode()).hexdigest(), "fixed", None,
                   len(boards))
    store_set(engine, BoardSet(info, tuple(boards[n] for n in sorted(boards))))


def _restore_round(engine: Engine, event: str, number: int, recs: list[DealRecord],
                   by: str) -> None:
    """Round ``number`` of the export: its matches, boards, results, rulings, withdrawals."""
    tables: dict[int, tuple[str, str]] = {}
    seats: dict[tuple[int, str], tuple[str, str, str, str]] = {}
    with session_scope(engine) as session:
        known = set(_load_field(session, _event_row(session, event)).by_name)
    for rec in recs:
        table = int(rec.tags["Table"])
        tables[table] = _match_teams(rec.tags["Match"], known)
        room = rec.tags.get("Room", "").lower()
        n, e, s_, w = (rec.tags.get(t, "") for t in ("North", "East", "South", "West"))
        seats[table, room] = (n, e, s_, w)
    if sorted(tables) != list(range(1, len(tables) + 1)):
        raise EventError(phrase("events.err.export_tables", round=number, tables=sorted(tables)))
    bye = recs[0].tags.get("Bye")
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        lineups: dict[str, tuple[int, int]] = {}
        for table, (x, y) in tables.items():
            # X: its open pair N-S in the open room, its closed pair E-W in the closed room;
            # Y the other way round
            for team, room_seats in ((x, ((table, "open"), (0, 2), (table, "closed"), (1, 3))),
                                     (y, ((table, "open"), (1, 3), (table, "closed"), (0, 2)))):
                lineups[team] = _lineup(f, team, seats, room_seats)
        _store_round(session, ev, f, number, Pairing(tuple(tables[t] for t in sorted(tables)),
                                                     bye), lineups)
    first = min(int(r.tags["Board"]) for r in recs)
    assign_boards(engine, event, number, set_name=event_set_name(event), first=first)
    played = [r for r in recs if r.plays]
    if played:
        import_texts(engine, event, ["\n".join(_for_import(r) for r in played)],
                     round_no=number, by=by)
    for rec in recs:
        _decide(engine, event, number, rec, by)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        f = _load_field(session, ev)
        rnd = next(r for r in _rounds(session, ev) if r.number == number)
        check_round_tags(session, ev, f.by_name, rnd, recs[0].tags, f"round {number}", by)
        _rulings(session, rnd, f, recs, by)


def _match_teams(match: str, known: set[str]) -> tuple[str, str]:
    """The two teams of a ``Match`` tag (``X v Y``; a team's name may hold `` v ``)."""
    parts = match.split(" v ")
    for i in range(1, len(parts)):
        x, y = " v ".join(parts[:i]), " v ".join(parts[i:])
        if x in known and y in known:
            return (x, y)
    raise EventError(phrase("events.err.export_match", match=shown(match)))


def _lineup(f: _Field, team: str, seats: dict[tuple[int, str], tuple[str, str, str, str]],
            rooms: tuple[tuple[int, str], tuple[int, int], tuple[int, str], tuple[int, int]],
            ) -> tuple[int, int]:
    """A team's (open pair, closed pair) numbers from the players the records seat
    (``rooms``: where each pair sits, the room and the two seats' indexes)."""
    pairs = f.team_pairs[f.by_name[team].id]
    numbers: list[int | None] = []
    for where, (a, b) in ((rooms[0], rooms[1]), (rooms[2], rooms[3])):
        names = seats.get(where)
        numbers.append(next((p.number for p in pairs if names is not None
                             and set(f.pair_names(p.id)) == {names[a], names[b]}), None))
    open_no = numbers[0] or next(p.number for p in pairs if p.number != numbers[1])
    closed_no = numbers[1] or next(p.number for p in pairs if p.number != open_no)
    return (open_no, closed_no)


def _for_import(rec: DealRecord) -> str:
    """A played record as the import takes it: without the decisions applied after it (a
    ruling, an unfinished mark over a record that was finished)."""
    marked = MARK_BY in rec.tags
    drop = set(_DECISION) | ({"Unfinished"} if marked else set())
    out = replace(rec, tags={k: v for k, v in rec.tags.items() if k not in drop})
    return format_record(out) + "\n"


def _decide(engine: Engine, event: str, number: int, rec: DealRecord, by: str) -> None:
    """What the room's tags decide beyond its record: a ruling, an unfinished mark, a
    result reported without a record."""
    tags = rec.tags
    table, board, room = int(tags["Table"]), int(tags["Board"]), tags["Room"].lower()
    if "Ruling" in tags:
        correct_result(engine, event, number, table, board, room, parse_result(tags["Ruling"]),
                       Correction(tags.get("RulingReason") or "ruling", tags.get("RulingBy") or by))
    elif "Unfinished" in tags and (MARK_BY in tags or not rec.plays):
        change = Correction(tags.get("UnfinishedReason") or "unfinished",
                            tags.get(MARK_BY) or by) if rec.plays else None
        record_unfinished(engine, event, number, table, board, tags["Unfinished"], (room,),
                          change, tags.get(MARK_BY) or by)
    elif "ReportedResult" in tags:
        author = Author(tags.get("ReportedBy") or by, coded("lw.reason.no_record"))
        finish = tags.get("ReportedFinish")
        report_result(engine, event, number, table, board, room, author,
                      finish=finish or None,
                      ns_result=None if finish else parse_result(tags["ReportedResult"]))


def _rulings(session: Session, rnd: models.EventRound, f: _Field, recs: list[DealRecord],
             by: str) -> None:
    """The rulings that score a board (``Conceded``) or a match (``Forfeited``) without a
    result, stored as the hall stores them."""
    done: set[tuple[int, int | None, str]] = set()
    for rec in recs:
        table = int(rec.tags["Table"])
        for tag, effect, board in (("Conceded", "conceded", int(rec.tags["Board"])),
                                   ("Forfeited", "forfeit", None)):
            value = rec.tags.get(tag)
            if not value:
                continue
            names = value.split(" & ") if value not in f.by_name else [value]
            for team in names:
                if (table, board, team) in done:
                    continue
                done.add((table, board, team))
                row = f.by_name.get(team)
                if row is None:
                    raise EventError(phrase("events.err.export_match", match=shown(value)))
                session.add(models.HallRuling(
                    round_id=rnd.id, table_no=table, category="late", effect=effect,
                    team_id=row.id, board=board, room=None, ns_result=None, made_by=by,
                    reason=coded("lw.reason.restored"), made_at=datetime.now(UTC)))
    session.flush()
