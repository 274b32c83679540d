"""What leaves an event: its records as one ``.gdn`` text (:func:`export_records`; for
publishing, :func:`export_event`: every record gets ``[Table "N"]`` and ``[Match "X v Y"]``,
docs/FORMAT.md, so that ``guandan compare`` pairs the rooms of a board within one match; a
ruled room keeps its record as played with ``[Ruling]``, ``[RulingBy]``, ``[RulingReason]``;
an unfinished one carries ``[Unfinished]``...), and the report's data (written as pages by
:mod:`duplicate.report`)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.compare import BoardComparison, compare_board
from duplicate.db import check_schema, session_scope
from duplicate.dealing import Board
from duplicate.events.admin import _withdrawals
from duplicate.events.base import (
    _current,
    _current_texts,
    _event_row,
    _info,
    _matches,
    _round_board_set,
    _round_boards,
    _round_row,
    _rounds,
    _rules,
    snapshot,
)
from duplicate.events.eventtags import event_tags
from duplicate.events.field import _load_field, _seating
from duplicate.events.log import checked, log_change
from duplicate.events.marks import EXPORT_TAGS, MARK_BY
from duplicate.events.release import _released
from duplicate.events.roundtags import round_tags
from duplicate.events.scores import (
    _adjustments,
    _complete_rounds,
    _round_bye,
    _round_scores,
    _standings,
    _stored_rooms,
    board_rows,
)
from duplicate.gdn import DealRecord, format_record, loads
from duplicate.i18n.stored import coded, decoded, nested, said, unfinished_code
from duplicate.pairing import MatchSeating
from duplicate.records import Correction, describe_rules
from duplicate.report import BoardLine, EventReport, MatchSummary, write_report
from duplicate.review.model import ByeLine
from duplicate.scoring import is_vp
from duplicate.store import Change
from engine.seat import Seat


def export_records(
    engine: Engine,
    event: str,
    round_no: int | None = None,
    *,
    unreleased: Correction | None = None,
    results: bool = False,
) -> str:
    """The stored records of the event (or of one round) as one ``.gdn`` text, in round,
    table, board order, the open room first: only those of released boards
    (:mod:`~duplicate.events.release`), meant for players.

    Every record carries its ``Table`` and ``Match``; a ruled room its ``Ruling``,
    ``RulingBy`` and ``RulingReason``; a room marked unfinished its original record (or,
    never having had one, the board with an empty play list) with ``Unfinished`` (why),
    ``UnfinishedBy`` and ``UnfinishedReason``; a record that corrected another its
    ``CorrectedBy`` and ``CorrectionReason``; every record of a round with a bye its ``Bye``
    (the team), of a round after which teams withdrew its ``Withdrawn`` (them)
    (:mod:`~duplicate.events.marks`, :mod:`~duplicate.events.roundtags`, docs/FORMAT.md).

    ``unreleased`` (who and why) exports every record, those of boards not every table has
    in yet too: the director's own copy, logged. ``results``: every room whose result has
    no record (the tables reported a finishing order, a ruling set it, it is unfinished)
    follows the records as ``.gdn`` comment lines (``;``) saying so, with the finishing
    order and the N–S result it was counted from: what exists is exported.
    """
    change = (
        checked(unreleased.by, unreleased.reason, "exporting unreleased boards")
        if unreleased is not None
        else None
    )
    check_schema(engine)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        texts: list[str] = []
        if round_no is not None:
            _round_row(session, ev, round_no)  # an unknown round is an error, not nothing
        f = _load_field(session, ev)
        teams = dict(
            session.execute(
                select(models.EventTeam.id, models.EventTeam.name).where(
                    models.EventTeam.event_id == ev.id
                )
            ).all()
        )
        gone = _withdrawals(session, ev)
        # the whole event with its results: everything its standings count, as tags
        whole = round_no is None and results
        for rnd in _rounds(session, ev):
            if round_no is not None and rnd.number != round_no:
                continue
            marks = round_tags(
                teams[rnd.bye_team_id] if rnd.bye_team_id is not None else None,
                [teams[t] for t, after in gone.items() if after == rnd.number],
            )
            matches = {m.id: m for m in _matches(session, rnd)}
            rooms = _rooms(session, list(matches))
            released = _released(session, ev, rnd)
            boards: dict[int, Board] | None = None
            exported: set[tuple[int, int, str]] = set()
            decisions = _decision_tags(session, ev, rnd, list(matches.values()), teams) if whole \
                else {}
            for key in sorted(set(rooms) | {(mid, b, "open") for mid, b in decisions
                                            if b is not None},
                              key=lambda k: (matches[k[0]].table_no, k[1], k[2] != "open")):
                if change is None and key[1] not in released:
                    continue
                now, record = rooms.get(key, (None, None))
                stored = record is not None or (now is not None and now.new.status == "unfinished")
                m = matches[key[0]]
                extra = decisions.get((key[0], key[1]), {}) | decisions.get((key[0], None), {})
                if now is not None and record is None and (
                        now.new.status == "unfinished" or whole):
                    boards = boards or _round_board_set(session, ev, rnd)
                    record = _board_text(ev, rnd.number, boards[key[1]], key[2], _seating(f, m))
                    if now.new.status != "unfinished" and now.new.note != store.RULING_NOTE:
                        extra |= _reported(now)
                elif now is None and extra and not any(
                        k[0] == key[0] and k[1] == key[1] for k in rooms):
                    # a board conceded (or a match forfeited) that no room has: the board,
                    # its play list empty, with the ruling's tag
                    boards = boards or _round_board_set(session, ev, rnd)
                    record = _board_text(ev, rnd.number, boards[key[1]], key[2], _seating(f, m))
                if record is None:
                    continue  # a result reported without a record, or ruled without one
                tags = {"Table": str(m.table_no),
                        "Match": f"{teams[m.team_x_id]} v {teams[m.team_y_id]}"}  # fmt: skip
                tags |= (_decided(now) if now is not None else {}) | marks | extra
                if whole and not texts:
                    tags |= event_tags(ev, f)
                texts.append(_with_tags(record, tags))
                if stored:  # the rooms the whole export adds are said in words below too
                    exported.add(key)
            if results:
                bare = _bare_results(session, rnd, list(matches.values()), exported, released,
                                     change, teams)
                bare += "".join(f"; round {rnd.number}: {k.lower()} {v}\n"
                                for k, v in marks.items())
                if bare:
                    texts.append(bare)
        if change is not None:
            where = (nested("lw.detail.round", round=round_no) if round_no is not None
                     else nested("lw.every_round"))
            log_change(session, "export unreleased", change,
                       coded("lw.detail.export", where=where, n=len(texts)), event=ev.name)
    return "\n".join(texts)


def export_name(event: str, round_no: int | None = None, suffix: str = ".gdn") -> str:
    """The file name an export of ``event`` (or of its round ``round_no``) is offered
    under: the event's name with characters no file system takes replaced, then
    ``-round-N`` (``Spring Cup-round-1.gdn``, ``Spring Cup.gdn``)."""
    stem = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]+', "_", event).strip(" .") or "event"
    return f"{stem[:120]}{f'-round-{round_no}' if round_no is not None else ''}{suffix}"


def _rooms(session: Session, match_ids: list[int]) -> dict[tuple[int, int, str], _Room]:
    """Every stored room of these matches: its latest change and the record to export (the
    one its result rests on, or for a room marked unfinished since, the last it had)."""
    out: dict[tuple[int, int, str], tuple[Change, int | None]] = {}
    for row, ch in store.changes(session, models.RoomResult.match_id.in_(match_ids)):
        key = (row.match_id or 0, int(row.board), row.room)
        last = out[key][1] if key in out else None
        out[key] = (ch, ch.new.record_id if ch.new.record_id is not None else last)
    wanted = {rid for _, rid in out.values() if rid is not None}
    texts = dict(
        session.execute(
            select(models.PlayRecord.id, models.PlayRecord.gdn).where(
                models.PlayRecord.id.in_(wanted)
            )
        ).all()
    ) if wanted else {}  # fmt: skip
    return {k: (ch, texts.get(rid) if rid is not None else None) for k, (ch, rid) in out.items()}


#: A room to export: its latest change and the record text.
_Room = tuple[Change, str | None]


def _decided(now: Change) -> dict[str, str]:
    """The tags of what the room's latest change decided beyond its record: a ruling, an
    unfinished mark (a board the record does not show unfinished), or the correction that
    put this record in place of another (who and why)."""
    state = now.new
    why = said(now.reason) or ""  # a reason the program wrote (coded) in English words
    if now.action == "correction" and state.record_id is not None:
        return {"CorrectedBy": now.by, "CorrectionReason": why}
    if state.status == "played" and state.note == store.RULING_NOTE:
        assert state.ns_result is not None
        return {"Ruling": _result_tag(state.ns_result), "RulingBy": now.by,
                "RulingReason": why}  # fmt: skip
    if state.status == "unfinished" and state.record_id is None:
        if (decoded(now.reason) or ("",))[0] == "lw.reason.table":
            # the table's own report (West's, North confirming): why is why the board was
            # not finished, as a director's mark says it, not how the report came in
            why = said(coded("lw.reason.unfinished", reason=unfinished_code(state.note))) or ""
        return {"Unfinished": state.note or "", MARK_BY: now.by, "UnfinishedReason": why}
    return {}


def _reported(now: Change) -> dict[str, str]:
    """The tags of a room's result reported without a record: the N–S result, the
    finishing order it was counted from, who reported it."""
    state = now.new
    assert state.ns_result is not None
    tags = {"ReportedResult": _result_tag(state.ns_result), "ReportedBy": now.by}
    if state.finish:
        tags["ReportedFinish"] = state.finish
    return tags


def _decision_tags(
    session: Session, ev: models.Event, rnd: models.EventRound,
    matches: list[models.EventMatch], teams: dict[int, str],
) -> dict[tuple[int, int | None], dict[str, str]]:
    """The rulings that score without a result, as tags: (match id, board) -> ``Conceded``
    (the team that conceded it), (match id, None) -> ``Forfeited`` (the team, or both
    teams joined by `` & ``). A forfeit goes on every record of the match, or on its first
    board's open room when it has none."""
    conceded, forfeits = _adjustments(session, rnd, matches)
    by_id = {m.id: m for m in matches}

    def named(mid: int, side: str) -> str:
        m = by_id[mid]
        x, y = teams[m.team_x_id], teams[m.team_y_id]
        return {"x": x, "y": y, "both": f"{x} & {y}"}[side]

    out: dict[tuple[int, int | None], dict[str, str]] = {
        (mid, b): {"Conceded": named(mid, side)} for (mid, b), side in conceded.items()}
    boards = _round_boards(ev, rnd)
    for mid, side in forfeits.items():
        out[mid, None] = {"Forfeited": named(mid, side)}
        if boards:
            out.setdefault((mid, boards[0]), {})
    return out


def _result_tag(ns: int) -> str:
    return f"NS +{ns}" if ns > 0 else f"EW +{-ns}"


_EXPORT_LOWER = frozenset(t.lower() for t in EXPORT_TAGS)


def _with_tags(text: str, tags: dict[str, str]) -> str:
    """A stored record with the export's tags (any it had of theirs replaced; a record cut
    short keeps its own ``Unfinished``)."""
    rec = loads(text)[0]
    drop = (_EXPORT_LOWER - {"unfinished"}) | {t.lower() for t in tags}
    kept = {k: v for k, v in rec.tags.items() if k.lower() not in drop}
    rec.tags = kept | tags
    return format_record(rec) + "\n"


_SEAT_TAGS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def _board_text(
    ev: models.Event, round_no: int, board: Board, room: str, seating: MatchSeating
) -> str:
    """The board of a room that never had a record, as a record whose play list is empty."""
    seats = seating.open_room if room == "open" else seating.closed_room
    tags = {"Event": ev.name, "Round": str(round_no), "Board": str(board.number),
            "Room": room.capitalize()} | {_SEAT_TAGS[s]: seats[s] for s in Seat}  # fmt: skip
    rec = DealRecord(tags=tags, hands=board.hands, level=board.level, leader=board.leader,
                     plays=[])  # fmt: skip
    return format_record(rec) + "\n"


def _bare_results(
    session: Session,
    rnd: models.EventRound,
    matches: list[models.EventMatch],
    with_record: set[tuple[int, int, str]],
    released: frozenset[int],
    change: object,
    teams: dict[int, str],
) -> str:
    """The round's room results exported with no record (``with_record``: those that were),
    and the rulings that score without a result (a board conceded, a match forfeited), as
    ``.gdn`` comment lines; each table's lines follow its match (``; table 3: X v Y``, X's
    pair N-S in the open room), so that the export alone says whose results they are.
    English in every language, as the file's tags are: part of the file format (a program
    reads the export), not output said to a person."""
    tables = {m.id: m.table_no for m in matches}
    now = _current(session, list(tables))
    keys = sorted(
        (k for k in now
         if k not in with_record and (change is not None or k[1] in released)),
        key=lambda k: (tables[k[0]], k[1], k[2] != "open"),
    )
    conceded, forfeits = _adjustments(session, rnd, matches)
    given = {k: side for k, side in conceded.items() if change is not None or k[1] in released}
    if not keys and not given and not forfeits:
        return ""
    lines = [
        f"; Round {rnd.number}: {len(keys)} room result{'' if len(keys) == 1 else 's'} "
        "not given by a play record above (the table reported the finishing order only, "
        "or the director set it): table, board, room, finishing order, N-S result",
    ]
    for m in sorted(matches, key=lambda m: m.table_no):
        mine = [k for k in keys if k[0] == m.id]
        boards = sorted(b for (mid, b) in given if mid == m.id)
        if not mine and not boards and m.id not in forfeits:
            continue
        names = {"x": teams[m.team_x_id], "y": teams[m.team_y_id]}
        names["both"] = f"{names['x']} and {names['y']}"
        lines.append(f"; table {m.table_no}: {names['x']} v {names['y']}")
        if m.id in forfeits:
            lines.append(f"; table {m.table_no}: forfeited by {names[forfeits[m.id]]} (a ruling)")
        for b in boards:
            lines.append(f"; table {m.table_no}, board {b}: conceded by "
                         f"{names[given[m.id, b]]} (a ruling)")
        for k in mine:
            st = now[k].state
            if st.status == "unfinished":
                said = f"unfinished ({st.note or 'no reason given'})"
            else:
                assert st.ns_result is not None
                order = st.finish or "-"
                said = f"{order}  NS {st.ns_result:+d}" + (f"  ({st.note})" if st.note else "")
            lines.append(f"; table {m.table_no}, board {k[1]}, {k[2]} room: {said}")
    return "\n".join(lines) + "\n"


def event_report(engine: Engine, event: str, compare: bool = True) -> EventReport:
    """The report data of an event: standings, and every match board by board, each board
    with the comparison of its two rooms (``compare.compare_board``) when both were stored
    and the board is released (:mod:`~duplicate.events.release`: no hands or plays of a
    board some table has not played yet)."""
    check_schema(engine)
    with session_scope(engine) as session, snapshot(session):
        return _event_report(session, _event_row(session, event), compare)


def _event_report(session: Session, ev: models.Event, compare: bool = True) -> EventReport:
    """:func:`event_report` in the caller's session (best in a
    :func:`~duplicate.events.base.snapshot`: the current results are read once)."""
    f = _load_field(session, ev)
    rules = _rules(ev)
    vp = is_vp(_info(ev).scale)
    through = _complete_rounds(session, ev, f)
    table = _standings(session, ev, f, through)
    matches: list[MatchSummary] = []
    byes: list[ByeLine] = []
    for rnd in _rounds(session, ev):
        bye = _round_bye(ev, f, rnd)
        if bye is not None:  # in the standings once its round is complete, as a match
            byes.append(ByeLine(str(rnd.number), bye.team,
                                bye.points if rnd.number <= through else None))
        if rnd.board_set_id is None:
            continue
        boards = _round_board_set(session, ev, rnd)
        released = _released(session, ev, rnd)  # only these boards' rooms are compared
        scored, _ = _round_scores(session, ev, f, rnd, strict=False)
        ids = {m.table_no: m.id for m in _matches(session, rnd)}
        texts = _current_texts(session, list(ids.values())) if compare else {}
        stored = _stored_rooms(session, rnd)
        _, forfeits = _adjustments(session, rnd, _matches(session, rnd))
        for s in scored:
            mid = ids[s.info.table]
            lines = []
            # the rows every other output shows (event boards, the hall's pages and API)
            for row in board_rows(s, mid, boards, stored):
                comp: BoardComparison | None = None
                o = texts.get((mid, row.board, "open"))
                c = texts.get((mid, row.board, "closed"))
                if o and c and row.board in released:
                    comp = compare_board([loads(o)[0], loads(c)[0]], rules)
                lines.append(BoardLine(str(row.board), row.level, row.leader, row.open_ns,
                                       row.closed_ns, row.swing, row.status, comp))
            n_in = sum(line.status != "not in yet" for line in lines)
            whole = n_in == len(lines) or mid in forfeits  # a forfeit needs no board
            matches.append(
                MatchSummary(
                    key=f"r{rnd.number}-t{s.info.table}",
                    round=str(rnd.number),
                    team_x=s.info.team_x,
                    team_y=s.info.team_y,
                    boards=tuple(lines),
                    margin=s.score.margin,
                    points_x=s.score.points_x if whole else None,
                    points_y=s.score.points_y if whole else None,
                    open_players=s.info.open_players,
                    closed_players=s.info.closed_players,
                    state=(
                        ""
                        if whole
                        else "not played yet"
                        if n_in == 0
                        else f"{n_in} of {len(lines)} boards in"
                    ),
                    vp=vp,
                )
            )
    info = _info(ev)
    # The English data of an English report (EventReport.lang "en"); a page in another
    # language says the notes again from the event's settings (events.site.event_notes)
    # and a match's state ("3 of 8 boards in") by review.render.state_text.
    notes = (
        f"Format: {'Swiss' if info.format == 'swiss' else 'round robin'}, {info.rounds} "
        f"round{'s' if info.rounds != 1 else ''} of {info.boards_per_round} boards; scale "
        f"{info.scale.name}; unfinished boards: "
        f"{info.unfinished.value.replace('_', ' ')}; rules: {describe_rules(info.rules)}.",
        f"Standings after round {through}." if through else "No round complete yet.",
    )
    gone = {f.teams[t].name: after for t, after in _withdrawals(session, ev).items()}
    return EventReport(info.name, tuple(table), tuple(matches), notes,
                       time_zone=info.time_zone, byes=tuple(byes), withdrawn=gone,
                       tiebreaks=info.tiebreaks, vp=vp)


def write_event_report(engine: Engine, event: str, outdir: str | os.PathLike[str]) -> Path:
    """Write the event's HTML report into ``outdir``; returns the path of ``index.html``."""
    report = event_report(engine, event)
    files = write_report(Path(outdir), report)
    return next(p for p in files if p.name == "index.html")


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
