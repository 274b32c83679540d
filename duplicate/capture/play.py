"""A board played at the table, action by action: started, each action checked by the
engine before it is stored, the last one taken back, the state read.

Every call is one transaction, given the recorder's token (a ``record`` card,
:mod:`duplicate.capture.tokens`), and refuses with :class:`~duplicate.capture.base.
CaptureError` leaving the database as it was. The deal is rebuilt from the board and the
live actions (``engine.deal.Deal``) for each call: nothing is kept between calls, so
any number of workers serve the same table. Two devices sending the same number at
once meet the unique key on (board, seq, live): one insert wins, the other call runs
again and finds the action stored (a resend, acknowledged again, or a refusal when it
says something else). The action that ends the deal stores its record as the room's
result in the same transaction (:mod:`duplicate.capture.record`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.capture.analysis import schedule
from duplicate.capture.base import (
    Ack,
    ActionOut,
    BoardLine,
    BoardState,
    CaptureError,
    TableCapture,
)
from duplicate.capture.record import store_record
from duplicate.db import session_scope
from duplicate.dealing import Board
from duplicate.events.base import _round_board_set, _rules
from duplicate.hall.base import HallError, Seat4, utc, where_phrase
from duplicate.hall.rows import boards_of, check_board, ready, room_of, seating
from duplicate.hall.tokens import grant_rows
from duplicate.i18n import Phrase, engine_phrase, phrase
from duplicate.store.log import begin_write, retrying, room_now
from engine.cards import is_subset, parse_cards, parse_rank, rank_name, to_tokens
from engine.combo import Combo, ComboType
from engine.deal import Deal
from engine.errors import GuandanError
from engine.moves import legal_readings
from engine.seat import Seat

#: The most cards one action names (a play is at most 10 cards; a little slack).
MAX_CARDS = 27
#: Engine error keys -> refusal codes (every other engine refusal is ``illegal``).
_CODES = {
    "engine.out_of_turn": "out_of_turn",
    "engine.not_held": "not_held",
    "engine.no_cards": "not_held",
    "engine.deal_over": "over",
}


@dataclass(slots=True)
class _Table:
    """What a recorder's token opens, read in the call's transaction."""

    ev: models.Event
    rnd: models.EventRound
    match: models.EventMatch
    hall: models.HallRound | None
    table: int
    room: str
    seats: Seat4

    @property
    def by(self) -> str:
        """Who enters at this table (``table 3 open Recorder``)."""
        return f"table {self.table} {self.room} Recorder"

    def where(self, board: int) -> Phrase:
        """The board of this table and room, for messages."""
        return where_phrase(self.rnd.number, self.table, board, self.room)


def _open(session: Session, token: str, at: datetime) -> _Table:
    """The recorder's table of ``token`` (the hall's refusals of an unknown, void or
    expired token; a report or confirm card is refused)."""
    grant, (ev, rnd, m, hr) = grant_rows(session, token, at)
    if grant.role != "record":
        raise CaptureError(phrase("capture.err.not_recorder"), "forbidden", "not_recorder")
    if m is None:
        raise HallError(phrase("hall.act.no_table", table=grant.table, round=rnd.number),
                        "not_found")
    seats = room_of(*seating(session, m), grant.room)[2]
    return _Table(ev, rnd, m, hr, grant.table, grant.room, seats)


def _capture(session: Session, t: _Table, board: int) -> models.CaptureBoard | None:
    c = models.CaptureBoard
    return session.scalar(select(c).where(
        c.round_id == t.rnd.id, c.table_no == t.table, c.room == t.room, c.board == board))


def _live(session: Session, capture_id: int) -> list[models.CaptureAction]:
    a = models.CaptureAction
    return list(session.scalars(
        select(a).where(a.capture_id == capture_id, a.live.is_(True)).order_by(a.seq)))


def _board(session: Session, t: _Table, board: int) -> Board:
    check_board(t.ev, t.rnd, board)
    return _round_board_set(session, t.ev, t.rnd, only=board)[board]


def _act(deal: Deal, seat: Seat, cards: int, ctype: ComboType | None,
         rank: int | None) -> None:
    if cards == 0:
        deal.pass_(seat)
    else:
        deal.play_cards(cards, ctype, rank, seat)


def _replayed(b: Board, t: _Table, actions: Sequence[models.CaptureAction]) -> Deal:
    """The deal after the stored actions (each was checked when it was stored)."""
    deal = Deal(b.hands, b.level, b.leader, _rules(t.ev))
    for a in actions:
        ctype = ComboType.from_name(a.ctype) if a.ctype else None
        rank = parse_rank(a.rank) if a.rank else None
        _act(deal, Seat[a.seat], parse_cards(a.cards), ctype, rank)
    return deal


def _out(a: models.CaptureAction) -> ActionOut:
    return ActionOut(a.seq, a.seat, tuple(a.cards.split()), a.ctype, a.rank)


def _state(t: _Table, row: models.CaptureBoard, deal: Deal,
           actions: Sequence[models.CaptureAction]) -> BoardState:
    over = deal.is_over
    result = deal.result() if over else None
    beat = None
    if deal.to_beat is not None and deal.last_player is not None:
        combo = deal.to_beat
        beat = ActionOut(0, deal.last_player.name, tuple(to_tokens(combo.cards)),
                         combo.type.record_name, rank_name(combo.rank))
    return BoardState(
        t.ev.name, t.rnd.number, t.table, t.room, row.board, row.state, rank_name(deal.level),
        deal.leader.name, deal.turn.name if deal.turn is not None else None,
        actions[-1].seq if actions else 0,
        {s.name: to_tokens(deal.hand(s)) for s in Seat},
        {s.name: deal.card_counts[s] for s in Seat}, beat,
        tuple(_out(a) for a in actions),
        tuple(s.name for s in result.finish_order) if result is not None else None,
        result.result_tag if result is not None else None, row.note,
    )  # fmt: skip


def _refusal(exc: GuandanError, where: Phrase, seq: int, next_seq: int) -> CaptureError:
    """The engine's refusal of action ``seq``, in the recorder's words."""
    code = _CODES.get(exc.key or "", "illegal")
    return CaptureError(
        phrase("capture.err.refused", where=where, seq=seq, reason=engine_phrase(exc)),
        "conflict", code, next_seq,
    )


# --- the calls ---------------------------------------------------------------------------


def table_capture(engine: Engine, token: str, now: datetime | None = None) -> TableCapture:
    """The recorder's table: its seating and each board of the round with its state and
    last acknowledged number (no hands)."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        t = _open(session, token, at)
        c, a = models.CaptureBoard, models.CaptureAction
        rows = {r.board: r for r in session.scalars(select(c).where(
            c.round_id == t.rnd.id, c.table_no == t.table, c.room == t.room))}
        last: dict[int, int] = {}
        for cid, seq in session.execute(
            select(a.capture_id, a.seq).where(
                a.capture_id.in_([r.id for r in rows.values()]), a.live.is_(True))
        ):
            last[cid] = max(last.get(cid, 0), seq)
        lines = tuple(
            BoardLine(b, rows[b].state if b in rows else "not_started",
                      last.get(rows[b].id, 0) if b in rows else 0)
            for b in boards_of(t.ev, t.rnd)
        )
        return TableCapture(t.ev.name, t.rnd.number, t.table, t.room, t.seats, lines)


@retrying
def start_board(engine: Engine, token: str, board: int,
                now: datetime | None = None) -> BoardState:
    """The table starts ``board``: from now its recorder sees its hands. Refused before
    the round's clock starts, once the round is closed, or when a result counts already
    for the room; starting a started board answers its state."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        begin_write(session)
        t = _open(session, token, at)
        b = _board(session, t, board)
        row = _capture(session, t, board)
        if row is None:
            where = t.where(board)
            if t.hall is None:
                raise CaptureError(phrase("capture.err.round_not_started", round=t.rnd.number),
                                   "conflict", "cannot_start")
            if t.hall.closed_at is not None:
                raise CaptureError(phrase("capture.err.round_closed", where=where),
                                   "closed", "cannot_start")
            stored = room_now(session, t.match.id, board, t.room)
            if stored is not None:
                raise CaptureError(
                    phrase("capture.err.result_counts", where=where,
                           result=stored.state.describe()),
                    "conflict", "cannot_start",
                )
            row = models.CaptureBoard(
                round_id=t.rnd.id, table_no=t.table, room=t.room, board=board,
                state="playing", started_by=t.by, started_at=at,
            )
            session.add(row)
            session.flush()  # the unique key: a second device starting it runs again
        actions = _live(session, row.id)
        return _state(t, row, _replayed(b, t, actions), actions)


def board_state(engine: Engine, token: str, board: int,
                now: datetime | None = None) -> BoardState:
    """The state of a started board (refused, ``not_started``, before the table starts
    it: its hands are shown to no one before)."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        t = _open(session, token, at)
        b = _board(session, t, board)
        row = _started(session, t, board)
        actions = _live(session, row.id)
        return _state(t, row, _replayed(b, t, actions), actions)


def _started(session: Session, t: _Table, board: int) -> models.CaptureBoard:
    row = _capture(session, t, board)
    if row is None:
        raise CaptureError(phrase("capture.err.not_started", where=t.where(board)),
                           "conflict", "not_started", 1)
    return row


def _not_closed(t: _Table, row: models.CaptureBoard) -> None:
    """Refused (``over``): the director marked the deal unfinished or took its record
    back; nothing more is entered on it."""
    if row.state in ("unfinished", "withdrawn"):
        raise CaptureError(phrase("capture.err.closed_by_director", where=t.where(row.board),
                                  state=row.state), "conflict", "over", None)


def _read_action(
    where: Phrase, seq: int, seat: str, cards: Sequence[str], ctype: str | None,
    rank: str | None,
) -> tuple[Seat, int, ComboType | None, int | None]:
    """The action as the engine takes it; ``bad_action`` when it cannot be read."""
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise CaptureError(phrase("capture.err.bad_seq", where=where), "invalid", "bad_action")
    if seat not in ("N", "E", "S", "W"):
        raise CaptureError(phrase("capture.err.bad_seat", where=where), "invalid", "bad_action")
    if len(cards) > MAX_CARDS or not all(isinstance(c, str) for c in cards):
        raise CaptureError(phrase("capture.err.bad_cards", where=where, most=MAX_CARDS),
                           "invalid", "bad_action")
    try:
        parsed = parse_cards(list(cards))
        kind = ComboType.from_name(ctype) if ctype else None
        r = parse_rank(rank) if rank else None
    except GuandanError as exc:
        raise CaptureError(
            phrase("capture.err.unreadable", where=where, reason=engine_phrase(exc)),
            "invalid", "bad_action",
        ) from None
    return Seat[seat], parsed, kind, r


def enter_action(
    engine: Engine,
    token: str,
    board: int,
    seq: int,
    seat: str,
    cards: Sequence[str] = (),
    ctype: str | None = None,
    rank: str | None = None,
    now: datetime | None = None,
) -> Ack:
    """Action ``seq`` of ``board``: ``seat`` plays ``cards`` (none: a pass), read as
    ``ctype`` and ``rank`` when given, else as the engine reads it (RULES.md §5). Stored
    when the engine accepts it and it is the next number; a resend of the stored action
    ``seq`` is acknowledged again (``stored`` False). The action that ends the deal
    stores the record as the room's result; once committed, the board's analysis is
    queued in the background when the other room has ended too
    (:mod:`duplicate.capture.analysis`: the answer does not wait for it)."""
    ack, round_id, table = _enter_action(engine, token, board, seq, seat, cards, ctype, rank,
                                         now)
    if ack.over and ack.stored:
        schedule(engine, round_id, table, board)
    return ack


@retrying
def _enter_action(
    engine: Engine,
    token: str,
    board: int,
    seq: int,
    seat: str,
    cards: Sequence[str] = (),
    ctype: str | None = None,
    rank: str | None = None,
    now: datetime | None = None,
) -> tuple[Ack, int, int]:
    """:func:`enter_action` in one transaction; also answers the round's id and the
    table."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        begin_write(session)
        t = _open(session, token, at)
        where = t.where(board)
        me, parsed, kind, r = _read_action(where, seq, seat, cards, ctype, rank)
        b = _board(session, t, board)
        row = _started(session, t, board)
        _not_closed(t, row)
        actions = _live(session, row.id)
        next_seq = len(actions) + 1
        if seq < next_seq:
            return _resent(t, row, actions, seq, me, parsed, kind, r, b), t.rnd.id, t.table
        if seq > next_seq:
            raise CaptureError(
                phrase("capture.err.out_of_order", where=where, seq=seq, next=next_seq),
                "conflict", "out_of_order", next_seq,
            )
        deal = _replayed(b, t, actions)
        try:
            _act(deal, me, parsed, kind, r)
        except GuandanError as exc:
            raise _refusal(exc, where, seq, next_seq) from None
        done = deal.actions[-1]
        combo: Combo | None = done.combo
        new = models.CaptureAction(
            capture_id=row.id, seq=seq, seat=me.name,
            cards=" ".join(to_tokens(combo.cards)) if combo is not None else "",
            ctype=combo.type.record_name if combo is not None else None,
            rank=rank_name(combo.rank) if combo is not None else None,
            live=True, entered_by=t.by, entered_at=at,
        )  # fmt: skip
        session.add(new)
        session.flush()  # the unique key on (board, seq, live): a racing device runs again
        if deal.is_over:
            row.state, row.ended_at, row.result = "ended", at, deal.result().result_tag
            row.record, row.note = store_record(session, t.ev, t.rnd, t.match, t.room, t.seats,
                                                b, deal, t.by, at)
        ack = Ack(seq, True, seq, deal.turn.name if deal.turn is not None else None,
                  deal.is_over)
        return ack, t.rnd.id, t.table


def _resent(
    t: _Table, row: models.CaptureBoard, actions: Sequence[models.CaptureAction], seq: int,
    me: Seat, cards: int, kind: ComboType | None, rank: int | None, b: Board,
) -> Ack:
    """Action ``seq`` again: acknowledged when it says what the stored one says."""
    stored = actions[seq - 1]
    same = stored.seat == me.name and parse_cards(stored.cards) == cards and (
        cards == 0 or kind is None or (stored.ctype == kind.record_name and (
            rank is None or stored.rank == rank_name(rank))))
    last = actions[-1].seq
    if not same:
        said = " ".join([stored.seat, *(stored.cards.split() or ["PASS"])])
        raise CaptureError(
            phrase("capture.err.resent_differs", where=t.where(row.board), seq=seq,
                   stored=said),
            "conflict", "resent_differs", last + 1,
        )
    deal = _replayed(b, t, actions)
    return Ack(seq, False, last, deal.turn.name if deal.turn is not None else None,
               deal.is_over)


def readings(engine: Engine, token: str, board: int, seat: str, cards: Sequence[str],
             now: datetime | None = None) -> list[tuple[str, str]]:
    """The readings (``.gdn`` type name and rank) under which ``seat``, the seat to act,
    may play exactly ``cards`` now: one for most plays, several when wild hearts (or a
    sequence's ends) leave a choice, none when no reading is legal (the entry would be
    refused: entering it says why). Empty for a seat not to act."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        t = _open(session, token, at)
        where = t.where(board)
        me, parsed, _, _ = _read_action(where, 1, seat, cards, None, None)
        b = _board(session, t, board)
        row = _started(session, t, board)
        deal = _replayed(b, t, _live(session, row.id))
    if deal.turn != me or parsed == 0 or not is_subset(parsed, deal.hand(me)):
        return []
    found = legal_readings(parsed, deal.level, deal.to_beat, deal.rules)
    return [(c.type.record_name, rank_name(c.rank)) for c in found if c.cards == parsed]


@retrying
def undo_action(engine: Engine, token: str, board: int, seq: int,
                now: datetime | None = None) -> int:
    """Take back action ``seq``, the last live one (logged on the action: who, when);
    answers the last number now. Taking back an action already taken back (a resend)
    answers the same; refused once the deal has ended (its result counts: the director
    corrects it)."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        begin_write(session)
        t = _open(session, token, at)
        where = t.where(board)
        _board(session, t, board)
        row = _started(session, t, board)
        actions = _live(session, row.id)
        last = actions[-1].seq if actions else 0
        if row.state != "playing":
            raise CaptureError(phrase("capture.err.undo_over", where=where), "conflict", "undo",
                               None)
        if seq > last and seq >= 1 and _was_undone(session, row.id, seq):
            return last  # taken back already: the same answer again
        if not actions:
            raise CaptureError(phrase("capture.err.undo_none", where=where), "conflict", "undo", 1)
        if seq != last:
            raise CaptureError(phrase("capture.err.undo_last", where=where, seq=seq, last=last),
                               "conflict", "undo", last + 1)
        a = models.CaptureAction
        done = session.execute(
            update(a).where(a.id == actions[-1].id, a.live.is_(True))
            .values(live=None, undone_by=t.by, undone_at=at)
        )
        if getattr(done, "rowcount", 1) != 1:  # another device took it back meanwhile: read again
            raise CaptureError(phrase("capture.err.undo_last", where=where, seq=seq, last=last),
                               "conflict", "undo", last)
        return last - 1


def _was_undone(session: Session, capture_id: int, seq: int) -> bool:
    a = models.CaptureAction
    return session.scalar(select(a.id).where(
        a.capture_id == capture_id, a.seq == seq, a.live.is_(None)).limit(1)) is not None
