"""The live view of captured boards (vugraph), and who may see what of it.

A board being captured is shown live only to someone who cannot still play it. One rule,
here, for every view (the live page of a table's board, the list of the tables being
recorded, their JSON):

* the **director** sees every captured board as it is now;
* **anyone** (no token) sees a board once it is released (``duplicate.events.release``:
  every table of the round has it in, or the director released it), never before;
* when the event's director chose ``delayed`` (:func:`set_live`), the holders of the
  event's **spectator link** (:func:`issue_watch_link`: a token of its own, never printed
  on a table card) see every captured board as it stood ``live_delay`` minutes ago: a
  board started less than that ago is not shown, nor an action entered less than that ago.

A table's token (report, confirm, recorder) is no spectator link: the live views refuse it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.capture.analysis import records_digest, schedule
from duplicate.capture.record import record_text
from duplicate.capture.tokens import fresh_token
from duplicate.compare import (
    BoardComparison,
    align_tricks,
    compare_board,
    summarize_room,
    trace_room,
)
from duplicate.db import session_scope
from duplicate.dealing import Board
from duplicate.events.base import _round_board_set, _rules
from duplicate.events.release import _released
from duplicate.gdn import DealRecord, loads
from duplicate.hall.base import HallError, Seat4, utc
from duplicate.hall.rows import (
    boards_of,
    check_board,
    event_row,
    log,
    match_row,
    matches,
    ready,
    room_of,
    round_row,
    seating,
)
from duplicate.hall.tokens import token_hash
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded
from engine.cards import parse_cards, parse_rank, to_tokens
from engine.combo import ComboType
from engine.deal import Deal
from engine.ruleset import Ruleset
from engine.seat import Seat

#: The director's choices for the live view.
LIVE_MODES = ("released", "delayed")
#: The longest delay a director may set, in minutes (a day).
MAX_DELAY = 1440
ROOMS = ("open", "closed")


@dataclass(frozen=True, slots=True)
class LiveSettings:
    """An event's live view: ``mode`` (:data:`LIVE_MODES`), ``delay`` in minutes, whether a
    spectator link has been issued."""

    event: str
    mode: str
    delay: int
    has_link: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": self.event, "mode": self.mode, "delay": self.delay,
                "has_link": self.has_link}


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: the director, the holder of a spectator link (its token), or anyone."""

    director: bool = False
    watch: str | None = None


ANYONE = Viewer()
DIRECTOR = Viewer(director=True)


@dataclass(frozen=True, slots=True)
class LiveCorrection:
    """A director's correction of a captured board, as shown on the live page."""

    kind: str
    seq: int | None
    before: str
    after: str
    by: str
    reason: str
    at: datetime

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"kind": self.kind, "seq": self.seq, "before": self.before,
                "after": self.after, "by": self.by, "reason": self.reason,
                "at": self.at.isoformat()}


@dataclass(frozen=True, slots=True)
class LiveRoom:
    """One room of a board as the viewer may see it: ``state`` (``not_started``,
    ``playing``, ``ended``, ``unfinished``, ``withdrawn``, or ``held``: there is something
    the viewer may not see yet), its players, its record so far (``None`` when not shown),
    the number of actions shown, the result once shown ended, the director's
    corrections."""

    room: str
    state: str
    seats: Seat4
    record: DealRecord | None
    shown: int
    result: str | None
    corrections: tuple[LiveCorrection, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the record's plays shown: seat and cards, none for a pass)."""
        plays = [] if self.record is None else [
            {"seat": p.seat.name, "cards": to_tokens(p.cards)} for p in self.record.plays or ()]
        return {"room": self.room, "state": self.state, "seats": self.seats.to_dict(),
                "shown": self.shown, "plays": plays, "result": self.result,
                "corrections": [c.to_dict() for c in self.corrections]}


@dataclass(frozen=True, slots=True)
class LiveBoard:
    """A board of one table, both rooms, as the viewer may see it; ``version`` changes
    whenever what is shown changes (a page polls it); ``as_of`` the moment shown (now, or
    now less the delay); ``analysis`` the stored first divergence and analysis once both
    rooms ended (``None`` before, or while it is computed)."""

    event: str
    round_no: int
    table: int
    board: int
    rooms: tuple[LiveRoom, ...]
    as_of: datetime
    delayed: bool
    version: str
    analysis: dict[str, Any] | None = None
    analysing: bool = False

    @property
    def shown_rooms(self) -> tuple[LiveRoom, ...]:
        """The rooms with a record shown."""
        return tuple(r for r in self.rooms if r.record is not None)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": self.event, "round": self.round_no, "table": self.table,
                "board": self.board, "as_of": self.as_of.isoformat(),
                "delayed": self.delayed, "version": self.version,
                "rooms": [r.to_dict() for r in self.rooms],
                "analysis": self.analysis, "analysing": self.analysing}


@dataclass(frozen=True, slots=True)
class LiveLine:
    """One board of one table on the list of the tables being recorded: each room's
    state (as the viewer may know it: states tell no card) and whether the viewer may
    open it."""

    table: int
    board: int
    states: dict[str, str]
    open: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"table": self.table, "board": self.board, "states": self.states,
                "open": self.open}


@dataclass(frozen=True, slots=True)
class LiveTables:
    """The tables being recorded in the event's latest round with captured boards."""

    event: str
    round_no: int | None
    lines: tuple[LiveLine, ...] = field(default_factory=tuple)
    delayed: bool = False
    delay: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": self.event, "round": self.round_no, "delayed": self.delayed,
                "delay": self.delay, "lines": [x.to_dict() for x in self.lines]}


# --- the director's choices -------------------------------------------------------------


def _settings(ev: models.Event) -> LiveSettings:
    return LiveSettings(ev.name, ev.live_mode, ev.live_delay, ev.watch_hash is not None)


def live_settings(engine: Engine, event: str) -> LiveSettings:
    """The event's live view as the director chose it."""
    ready(engine)
    with session_scope(engine) as session:
        return _settings(event_row(session, event))


def set_live(engine: Engine, event: str, mode: str, delay: int | None, by: str,
             reason: str = "") -> LiveSettings:
    """The director's choice: ``released`` (spectators see a board once released, the
    default) or ``delayed`` (the spectator link's holders see it ``delay`` minutes late);
    logged."""
    if mode not in LIVE_MODES:
        raise HallError(phrase("live.err.mode", modes=", ".join(LIVE_MODES)), "invalid")
    if delay is not None and (isinstance(delay, bool) or not 0 <= delay <= MAX_DELAY):
        raise HallError(phrase("live.err.delay", most=MAX_DELAY), "invalid")
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        ev.live_mode = mode
        if delay is not None:
            ev.live_delay = delay
        log(session, "live view", by, reason or coded("live.reason.settings"),
            coded("live.detail.settings", mode=mode, delay=ev.live_delay), ev.name)
        return _settings(ev)


def issue_watch_link(engine: Engine, event: str, by: str) -> str:
    """A fresh spectator link's token for the event (the earlier one stops working);
    logged. It opens the live view only when the event's mode is ``delayed``."""
    token = fresh_token()
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        ev.watch_hash = token_hash(token)
        log(session, "live view", by, coded("live.reason.link"),
            coded("live.detail.link"), ev.name)
    return token


def watch_event(engine: Engine, token: str) -> str:
    """The event whose spectator link ``token`` is (refused: not a spectator link, or the
    event does not show its boards with a delay)."""
    ready(engine)
    with session_scope(engine) as session:
        return _watched(session, token).name


def _watched(session: Session, token: str) -> models.Event:
    ev = session.scalar(select(models.Event).where(models.Event.watch_hash == token_hash(token)))
    if ev is None or not token:
        raise HallError(phrase("live.err.not_link"), "forbidden")
    if ev.live_mode != "delayed":
        raise HallError(phrase("live.err.not_delayed", event=ev.name), "forbidden")
    return ev


# --- what a viewer sees --------------------------------------------------------------------


@dataclass(slots=True)
class _Sight:
    """What the viewer may see in this event now: everything (``cutoff`` None, ``all``),
    released boards only, or everything as of ``cutoff``."""

    everything: bool
    cutoff: datetime | None
    delayed: bool


def _sight(session: Session, ev: models.Event, viewer: Viewer, now: datetime) -> _Sight:
    if viewer.director:
        return _Sight(True, None, False)
    if viewer.watch is not None:
        watched = _watched(session, viewer.watch)
        if watched.id != ev.id:
            raise HallError(phrase("live.err.not_link"), "forbidden")
        return _Sight(False, now - timedelta(minutes=ev.live_delay), True)
    return _Sight(False, None, False)


def _captures(session: Session, rnd: models.EventRound, table: int | None = None,
              board: int | None = None) -> list[models.CaptureBoard]:
    c = models.CaptureBoard
    q = select(c).where(c.round_id == rnd.id)
    if table is not None:
        q = q.where(c.table_no == table)
    if board is not None:
        q = q.where(c.board == board)
    return list(session.scalars(q))


def _actions_as_of(session: Session, capture_id: int,
                   cutoff: datetime | None) -> list[models.CaptureAction]:
    """The actions that stood at ``cutoff`` (``None``: now), in order."""
    a = models.CaptureAction
    if cutoff is None:
        return list(session.scalars(
            select(a).where(a.capture_id == capture_id, a.live.is_(True)).order_by(a.seq)))
    rows = session.scalars(select(a).where(a.capture_id == capture_id).order_by(a.seq, a.id))
    out: dict[int, models.CaptureAction] = {}
    for r in rows:
        if utc(r.entered_at) <= cutoff and (r.undone_at is None or utc(r.undone_at) > cutoff):
            out[r.seq] = r
    seqs = sorted(out)
    # the numbers stand from 1 without a gap at any moment
    shown = [out[s] for i, s in enumerate(seqs) if s == i + 1]
    return shown


def replay_actions(b: Board, rules: Any, actions: list[models.CaptureAction]) -> Deal:
    """The deal of board ``b`` after ``actions`` (each was checked when it was stored)."""
    deal = Deal(b.hands, b.level, b.leader, rules)
    for x in actions:
        seat = Seat[x.seat]
        if not x.cards:
            deal.pass_(seat)
        else:
            ctype = ComboType.from_name(x.ctype) if x.ctype else None
            deal.play_cards(parse_cards(x.cards), ctype,
                            parse_rank(x.rank) if x.rank else None, seat)
    return deal


def _corrections(session: Session, capture_id: int) -> tuple[LiveCorrection, ...]:
    k = models.CaptureCorrection
    return tuple(
        LiveCorrection(r.kind, r.seq, r.before, r.after, r.made_by, r.reason, utc(r.made_at))
        for r in session.scalars(select(k).where(k.capture_id == capture_id).order_by(k.id)))


def live_board(engine: Engine, event: str, round_no: int, table: int, board: int,
               viewer: Viewer = ANYONE, now: datetime | None = None) -> LiveBoard:
    """Board ``board`` of table ``table`` in round ``round_no``, both rooms, as ``viewer``
    may see it (the module's rule). A room the viewer may not see yet is ``held``, with
    no record."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        sight = _sight(session, ev, viewer, at)
        rnd = round_row(session, ev, round_no)
        check_board(ev, rnd, board)
        m = match_row(session, ev, rnd, table)
        released = board in _released(session, ev, rnd)
        full = sight.everything or released
        cutoff = None if full else sight.cutoff
        b = _round_board_set(session, ev, rnd, only=board)[board]
        rules = _rules(ev)
        x, y, open_, closed = seating(session, m)
        caps = {c.room: c for c in _captures(session, rnd, table, board)}
        rooms = []
        for room in ROOMS:
            seats = room_of(x, y, open_, closed, room)[2]
            c = caps.get(room)
            if c is None:
                rooms.append(LiveRoom(room, "not_started", seats, None, 0, None))
                continue
            if not full and (cutoff is None or utc(c.started_at) > cutoff):
                rooms.append(LiveRoom(room, "held", seats, None, 0, None))
                continue
            acts = _actions_as_of(session, c.id, cutoff)
            deal = replay_actions(b, rules, acts)
            ended_seen = c.ended_at is not None and (cutoff is None or utc(c.ended_at) <= cutoff)
            state = c.state if ended_seen else "playing"
            text = record_text(ev, rnd.number, b, room, seats, deal)
            record = loads(text)[0]
            result = c.result if ended_seen and c.state == "ended" else None
            corrections = _corrections(session, c.id) if ended_seen or cutoff is None else ()
            rooms.append(LiveRoom(room, state, seats, record, len(acts), result,
                                  tuple(cr for cr in corrections
                                        if cutoff is None or cr.at <= cutoff)))
        analysis = None
        analysing = False
        both = [r for r in rooms if r.state == "ended" and r.record is not None]
        if len(both) == 2:
            digest = records_digest([caps[r.room].record or "" for r in both])
            row = session.scalar(select(models.CaptureAnalysis).where(
                models.CaptureAnalysis.round_id == rnd.id,
                models.CaptureAnalysis.table_no == table,
                models.CaptureAnalysis.board == board,
                models.CaptureAnalysis.records_hash == digest))
            if row is not None:
                analysis = {"body": row.body, "made_at": utc(row.made_at).isoformat()}
            else:
                analysing = True
        version = hashlib.sha256(repr((
            [(r.state, r.shown, r.result, len(r.corrections)) for r in rooms],
            analysis is not None)).encode()).hexdigest()[:16]
        if analysing:  # queued when the deal ended; again here after a worker's restart
            schedule(engine, rnd.id, table, board)
        return LiveBoard(ev.name, rnd.number, table, board, tuple(rooms),
                         cutoff or at, sight.delayed and not full, version, analysis,
                         analysing)


def comparison(board: LiveBoard, rules: Ruleset) -> BoardComparison | None:
    """The rooms shown of ``board`` side by side, as the review compares rooms (the first
    divergence when both are shown); one room alone when only one is; ``None``: none."""
    records = [r.record for r in board.rooms if r.record is not None]
    if len(records) >= 2:
        return compare_board(records, rules)
    if not records:
        return None
    rec = records[0]
    rooms = (summarize_room(trace_room(rec, rules), rec.level),)
    return BoardComparison(
        event=rec.tags.get("Event"), round=rec.tags.get("Round"), board=rec.board,
        level=rec.level, leader=rec.leader, hands=rec.hands, rooms=rooms, swing=None,
        divergence=None, alignment=align_tricks(rooms), table=str(board.table))


def live_tables(engine: Engine, event: str, viewer: Viewer = ANYONE,
                now: datetime | None = None, round_no: int | None = None) -> LiveTables:
    """The tables being recorded in ``round_no`` (default: the latest round with a
    captured board): every board of every table with a captured room, each room's state
    as the viewer may know it, and whether the viewer may open the board."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        sight = _sight(session, ev, viewer, at)
        if round_no is None:
            c, r = models.CaptureBoard, models.EventRound
            round_no = session.scalar(
                select(r.number).join(c, c.round_id == r.id).where(r.event_id == ev.id)
                .order_by(r.number.desc()).limit(1))
            if round_no is None:
                return LiveTables(ev.name, None, (), sight.delayed, ev.live_delay)
        rnd = round_row(session, ev, round_no)
        released = _released(session, ev, rnd)
        caps: dict[tuple[int, int], dict[str, models.CaptureBoard]] = {}
        for cap in _captures(session, rnd):
            caps.setdefault((cap.table_no, cap.board), {})[cap.room] = cap
        lines = []
        for m in matches(session, rnd):
            for b in boards_of(ev, rnd):
                rooms = caps.get((m.table_no, b))
                if not rooms:
                    continue
                full = sight.everything or b in released
                states = {}
                visible = False
                for room in ROOMS:
                    got = rooms.get(room)
                    if got is None:
                        states[room] = "not_started"
                    elif full:
                        states[room] = got.state
                        visible = True
                    elif sight.cutoff is not None and utc(got.started_at) <= sight.cutoff:
                        seen = got.ended_at is not None and utc(got.ended_at) <= sight.cutoff
                        states[room] = got.state if seen else "playing"
                        visible = True
                    else:
                        states[room] = "held"
                lines.append(LiveLine(m.table_no, b, states, visible))
        return LiveTables(ev.name, rnd.number, tuple(lines), sight.delayed, ev.live_delay)
