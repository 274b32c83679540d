"""What leaves an event: its records as one ``.gdn`` text, and the report's data
(written as pages by :mod:`duplicate.report`)."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.compare import BoardComparison, compare_board
from duplicate.db import check_schema, session_scope
from duplicate.events.base import (
    ROOMS,
    _current,
    _current_texts,
    _event_row,
    _info,
    _matches,
    _round_board_set,
    _round_row,
    _rounds,
    _rules,
    snapshot,
)
from duplicate.events.field import _load_field
from duplicate.events.log import checked, log_change
from duplicate.events.release import _released
from duplicate.events.scores import _complete_rounds, _round_scores, _standings, _stored_rooms
from duplicate.gdn import loads
from duplicate.records import Correction, describe_rules
from duplicate.report import BoardLine, EventReport, MatchSummary, write_report


def export_records(
    engine: Engine,
    event: str,
    round_no: int | None = None,
    *,
    unreleased: Correction | None = None,
    results: bool = False,
) -> str:
    """The stored records of the event (or of one round) as one ``.gdn`` text: only those
    of released boards (:mod:`~duplicate.events.release`), meant for players.

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
        for rnd in _rounds(session, ev):
            if round_no is not None and rnd.number != round_no:
                continue
            matches = _matches(session, rnd)
            tables = {m.id: m.table_no for m in matches}
            current = _current_texts(session, list(tables))
            released = _released(session, ev, rnd)
            order = sorted(current, key=lambda k: (tables[k[0]], k[1], k[2] != "open"))
            texts.extend(
                current[k] for k in order if change is not None or k[1] in released
            )
            if results:
                bare = _bare_results(session, rnd, matches, set(current), released, change)
                if bare:
                    texts.append(bare)
        if change is not None:
            where = f"round {round_no}" if round_no is not None else "every round"
            log_change(
                session, "export unreleased", change, f"{where}: {len(texts)} records",
                event=ev.name,
            )  # fmt: skip
    return "\n".join(texts)


def _bare_results(
    session: Session,
    rnd: models.EventRound,
    matches: list[models.EventMatch],
    with_record: set[tuple[int, int, str]],
    released: frozenset[int],
    change: object,
) -> str:
    """The round's room results that have no record, as ``.gdn`` comment lines."""
    tables = {m.id: m.table_no for m in matches}
    now = _current(session, list(tables))
    keys = sorted(
        (k for k in now
         if (k not in with_record or now[k].state.note) and (change is not None or k[1] in released)),
        key=lambda k: (tables[k[0]], k[1], k[2] != "open"),
    )
    if not keys:
        return ""
    lines = [
        f"; Round {rnd.number}: {len(keys)} room result{'' if len(keys) == 1 else 's'} "
        "not given by a play record above (the table reported the finishing order only, "
        "or the director set it): table, board, room, finishing order, N-S result",
    ]
    for k in keys:
        st = now[k].state
        if st.status == "unfinished":
            said = f"unfinished ({st.note or 'no reason given'})"
        else:
            assert st.ns_result is not None
            order = st.finish or "-"
            said = f"{order}  NS {st.ns_result:+d}" + (f"  ({st.note})" if st.note else "")
        lines.append(f"; table {tables[k[0]]}, board {k[1]}, {k[2]} room: {said}")
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
    through = _complete_rounds(session, ev, f)
    table = _standings(session, ev, f, through)
    matches: list[MatchSummary] = []
    for rnd in _rounds(session, ev):
        if rnd.board_set_id is None:
            continue
        boards = _round_board_set(session, ev, rnd)
        released = _released(session, ev, rnd)  # only these boards' rooms are compared
        scored, _ = _round_scores(session, ev, f, rnd, strict=False)
        ids = {m.table_no: m.id for m in _matches(session, rnd)}
        texts = _current_texts(session, list(ids.values())) if compare else {}
        stored = _stored_rooms(session, rnd)
        for s in scored:
            lines = []
            mid = ids[s.info.table]
            n_in = 0
            for r, b in zip(s.results, s.score.boards, strict=True):
                comp: BoardComparison | None = None
                o = texts.get((ids[s.info.table], r.board, "open"))
                c = texts.get((ids[s.info.table], r.board, "closed"))
                if o and c and r.board in released:
                    comp = compare_board([loads(o)[0], loads(c)[0]], rules)
                bd = boards[r.board]
                status = "played" if b.status.value == "played" else "unfinished"
                if all((mid, r.board, room) in stored for room in ROOMS):
                    n_in += 1
                else:  # no result and not marked unfinished: not scored as one
                    status = "not in yet"
                lines.append(
                    BoardLine(
                        str(r.board),
                        bd.level,
                        bd.leader,
                        r.open_ns,
                        r.closed_ns,
                        None if status == "not in yet" else b.swing,
                        status,
                        comp,
                    )
                )
            matches.append(
                MatchSummary(
                    key=f"r{rnd.number}-t{s.info.table}",
                    round=str(rnd.number),
                    team_x=s.info.team_x,
                    team_y=s.info.team_y,
                    boards=tuple(lines),
                    margin=s.score.margin,
                    points_x=s.score.points_x if n_in == len(lines) else None,
                    points_y=s.score.points_y if n_in == len(lines) else None,
                    open_players=s.info.open_players,
                    closed_players=s.info.closed_players,
                    state=(
                        ""
                        if n_in == len(lines)
                        else "not played yet"
                        if n_in == 0
                        else f"{n_in} of {len(lines)} boards in"
                    ),
                )
            )
    info = _info(ev)
    notes = (
        f"Format: {'Swiss' if info.format == 'swiss' else 'round robin'}, {info.rounds} "
        f"round{'s' if info.rounds != 1 else ''} of {info.boards_per_round} boards; scale "
        f"{info.scale.name}; unfinished boards: "
        f"{info.unfinished.value.replace('_', ' ')}; rules: {describe_rules(info.rules)}.",
        f"Standings after round {through}." if through else "No round complete yet.",
    )
    return EventReport(info.name, tuple(table), tuple(matches), notes)


def write_event_report(engine: Engine, event: str, outdir: str | os.PathLike[str]) -> Path:
    """Write the event's HTML report into ``outdir``; returns the path of ``index.html``."""
    report = event_report(engine, event)
    files = write_report(Path(outdir), report)
    return next(p for p in files if p.name == "index.html")
