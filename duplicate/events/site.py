"""An event's review (its report and site) from the database.

The review pages (:mod:`duplicate.review`) are drawn from plain data; everything they need
of an event is read here, from the one store of played deals (duplicate.store: the current
result is a query on its append-only log), through the few functions of this module: :func:`stored_rooms` (records and the results that count, by round, table, board
and room), :func:`rulings` (who ruled what and why) and :func:`released` (the library's
rule of which boards players may see) are the data access;
:func:`event_data` assembles the report from them and ``events.event_report``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    _current,
    _current_texts,
    _event_row,
    _info,
    _matches,
    _round_boards,
    _rounds,
    _rules,
    snapshot,
)
from duplicate.events.export import _event_report
from duplicate.events.field import get_event
from duplicate.events.release import _unreleased
from duplicate.events.results import _corrections, list_corrections
from duplicate.events.scores import _decisions
from duplicate.gdn import loads
from duplicate.i18n import translator
from duplicate.i18n.game import rules_text
from duplicate.i18n.stored import reason_said
from duplicate.models import EventTeam
from duplicate.records import describe_rules
from duplicate.review.model import EventReport, Ruling
from duplicate.review.site import folder_language, write_site
from duplicate.scoring import room_result
from duplicate.store import RULING_NOTE
from duplicate.store import utc as store_utc
from engine.ruleset import COMPETITION, Ruleset

RoomKey = tuple[int, int, int, str]  # round, table, board, room ("open"/"closed")
#: The note the store gives a result set by a director's ruling (events.correct_result).
RULING_REASON = RULING_NOTE


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """One room of a board as stored: its record (if any) and the result that counts."""

    record: str | None
    ns_result: int | None
    status: str
    reason: str | None
    #: the finishing order the result was counted from (``store.State.finish``)
    finish: str | None = None


def stored_rooms(engine: Engine, event: str, round_no: int | None = None) -> dict[RoomKey, StoredRoom]:
    """Every stored room of the event (or of one round), by round, table, board, room: the
    current result (a query on the store's log) and the record it rests on."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _stored_rooms(session, _event_row(session, event), round_no)


def _stored_rooms(session: Session, ev: Any, round_no: int | None = None) -> dict[RoomKey, StoredRoom]:
    """:func:`stored_rooms` in the caller's session."""
    out: dict[RoomKey, StoredRoom] = {}
    for rnd in _rounds(session, ev):
        if round_no is not None and rnd.number != round_no:
            continue
        tables = {m.id: m.table_no for m in _matches(session, rnd)}
        current = _current(session, list(tables))
        texts = _current_texts(session, list(tables))
        for (mid, board, room), now in current.items():
            s = now.state
            out[(rnd.number, tables[mid], board, room)] = StoredRoom(
                texts.get((mid, board, room)), s.ns_result, s.status, s.note, s.finish
            )
    return out


def released(engine: Engine, event: str) -> frozenset[tuple[str, str]]:
    """(round, board) of every board the library releases to players
    (:mod:`duplicate.events.release`: every table has it in, or the director released it)."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _released_boards(session, _event_row(session, event))


def _released_boards(session: Session, ev: Any) -> frozenset[tuple[str, str]]:
    """:func:`released` in the caller's session."""
    held = _unreleased(session, ev)
    return frozenset(
        (str(rnd.number), str(b))
        for rnd in _rounds(session, ev)
        for b in _round_boards(ev, rnd)
        if b not in held.get(rnd.number, ())
    )


def rulings(engine: Engine, event: str) -> dict[RoomKey, dict[str, Any]]:
    """The latest logged change of every corrected room: who, when, why, before, after."""
    return _latest(list_corrections(engine, event))


def _latest(changes: list[dict[str, Any]]) -> dict[RoomKey, dict[str, Any]]:
    out: dict[RoomKey, dict[str, Any]] = {}
    for c in changes:
        out[(c["round"], c["table"], c["board"], c["room"])] = c
    return out


def recorded_result(text: str | None, rules: Ruleset = COMPETITION) -> int | None:
    """The N–S result a stored record's own Result tag says (the play as recorded)."""
    if not text:
        return None
    rec = loads(text)[0]
    if rec.result is None:
        return None
    side, levels = rec.result
    return room_result(side, levels, rules)


def ruling_of(key: RoomKey, room: StoredRoom, log: dict[RoomKey, dict[str, Any]],
              rules: Ruleset = COMPETITION) -> Ruling | None:
    """The ruling on a room, when the result that counts was set by a director."""
    if room.reason != RULING_REASON:
        return None
    c = log.get(key, {})
    return Ruling(
        room=key[3], by=str(c.get("by", "?")), reason=str(c.get("reason", "")),
        at=c.get("at"), before=str(c.get("before", "")), after=str(c.get("after", "")),
        recorded=recorded_result(room.record, rules), counted=room.ns_result,
    )


_KEY = re.compile(r"^r(\d+)-t(\d+)$")


def event_data(engine: Engine, event: str, lang: str = "en") -> tuple[EventReport, Ruleset]:
    """The event's report data (matches without comparisons: each board line carries its
    records and a digest instead, so that only changed boards are replayed) and its rules.

    One read-only session (a :func:`~duplicate.events.base.snapshot`): the current results
    are read and each round scored once, however many parts of the report ask."""
    check_schema(engine)
    with session_scope(engine) as session, snapshot(session):
        ev = _event_row(session, event)
        base = _event_report(session, ev, compare=False)
        rules = _rules(ev)
        rooms = _stored_rooms(session, ev)
        changes = _corrections(session, ev)
        log = _latest(changes)
        decided = _decided(_decisions(session, ev), lang)
        shown = _released_boards(session, ev)
        info = _info(ev)
        numbers = {name: number for name, number in session.execute(
            select(EventTeam.name, EventTeam.number).where(EventTeam.event_id == ev.id))}
    matches = []
    for m in base.matches:
        km = _KEY.match(m.key)
        rnd, table = (int(km.group(1)), int(km.group(2))) if km else (0, 0)
        lines = []
        for line in m.boards:
            keys = [(rnd, table, int(line.board), room) for room in ("open", "closed")]
            stored = [rooms.get(k) for k in keys]
            texts = tuple((s.record or "") if s is not None else "" for s in stored)
            found = [ruling_of(k, s, log, rules) for k, s in zip(keys, stored, strict=True)
                     if s is not None]
            rs = tuple(r for r in found if r is not None) + decided.get(
                (rnd, table, int(line.board)), ())
            if line is m.boards[0]:  # a forfeit of the match: said once, on its first board
                rs += decided.get((rnd, table, None), ())
            released = (str(rnd), line.board) in shown  # an order tells of the hands
            orders = (stored[0].finish if stored[0] and released else None,
                      stored[1].finish if stored[1] and released else None)
            fixes = tuple(
                Ruling(room=c["room"], by=str(c["by"]), reason=str(c["reason"]), at=c["at"],
                       before=str(c["before"]), after=str(c["after"]),
                       recorded=c.get("before_ns"), counted=c.get("after_ns"))
                for c in changes
                if c.get("kind") == "correction"
                and (c["round"], c["table"], c["board"]) == (rnd, table, int(line.board))
            )
            digest = hashlib.sha256(
                "\x00".join([*texts, repr(rs), repr(fixes), repr((line.open_ns, line.closed_ns,
                                                                 line.swing, line.status,
                                                                 orders, info.time_zone))]
                          ).encode()
            ).hexdigest()
            lines.append(replace(line, rulings=rs, digest=digest, records=texts,
                                 corrections=fixes, finishes=orders))
        matches.append(replace(m, boards=tuple(lines), table=table))
    return replace(base, matches=tuple(matches), lang=lang, released=shown,
                   notes=_notes(info, base.notes, lang), team_numbers=numbers), rules


def _decided(decisions: list[Any], lang: str) -> dict[tuple[int, int, int | None], tuple[Ruling, ...]]:
    """The rulings that decide a board (a board conceded) or a match (a forfeit: board
    ``None``) without a result, by (round, table, board), as the report lists them: no
    room, the reason in the page's language (``events.scores.Decided``)."""
    out: dict[tuple[int, int, int | None], tuple[Ruling, ...]] = {}
    for d in decisions:
        ruling = Ruling(room="", by=d.by, reason=reason_said(d.reason, lang),
                        at=store_utc(d.at).isoformat(), before="", after="",
                        effect=d.effect, team=d.team)
        key = (d.round, d.table, d.board)
        out[key] = (*out.get(key, ()), ruling)
    return out


_AFTER = re.compile(r"after round (\d+)")


def event_notes(engine: Engine, event: str, notes: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """The lines under the event's title (format, scale, rules; standings after which
    round) in the page's language."""
    return _notes(get_event(engine, event), notes, lang)


def _notes(info: Any, notes: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """:func:`event_notes` from the event's settings (``events.EventInfo``)."""
    t = translator(lang)
    fmt = t("report.format.swiss" if info.format == "swiss" else "report.format.rr")
    rules = describe_rules(info.rules)
    first = t("report.note.format", format=fmt, rounds=t("count.rounds", n=info.rounds),
              boards=t("count.boards", n=info.boards_per_round),
              scale=t(f"desk.scale.{info.scale.name}"),
              unfinished=t(f"report.unfinished_rule.{info.unfinished.value}"),
              rules=t("report.rules.competition") if rules == "competition"
              else rules_text(info.rules, lang))
    after = next((m for m in (_AFTER.search(n) for n in notes) if m), None)
    second = (t("report.note.after", round=after.group(1)) if after
              else t("report.note.none"))
    return (first, second)


def write_event_site(engine: Engine, event: str, outdir: str, lang: str | None = None,
                     analyse: Any = None, analyses: Any = None, both: bool = False) -> Any:
    """Bring the event's report folder up to date (``duplicate.review.site``); without
    ``lang``, in the language the folder was written in, else the event's own; with
    ``analyse`` (an ``duplicate.analysis.estimate.Budget``), the boards' analysis, read
    from ``analyses`` when given (``duplicate.jobs.stored.DatabaseAnalyses``); with
    ``both``, the other language too, in its subfolder (each record analysed once)."""
    lang = lang or folder_language(outdir) or get_event(engine, event).lang
    data, rules = event_data(engine, event, lang)
    other = event_data(engine, event, "zh" if lang == "en" else "en")[0] if both else None
    return write_site(outdir, data, lang=lang, rules=rules, analyse=analyse, analyses=analyses,
                      other=other)


def match_rulings(engine: Engine, event: str, round_no: int, table: int,
                  rules: Ruleset = COMPETITION) -> list[tuple[int, Ruling]]:
    """(board, ruling) of every ruled room of one match, board by board, open first."""
    rooms = stored_rooms(engine, event, round_no)
    log = rulings(engine, event)
    out = []
    for key in sorted(rooms, key=lambda k: (k[2], k[3] != "open")):
        if key[1] != table:
            continue
        ruling = ruling_of(key, rooms[key], log, rules)
        if ruling is not None:
            out.append((key[2], ruling))
    return out
