"""Recorders' cards: a ``record`` token for every table and room of a round.

A recorder's token is stored as the hall's table tokens are (``hall_tokens``, its SHA-256
only, role ``record``), scoped to one table, room and round, dead once the round's
correction window is over. Issuing again voids the earlier recorders' cards of those
tables (not the report and confirm cards); every issue is in the event's admin log.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from sqlalchemy import Engine, update

from duplicate import models
from duplicate.db import session_scope
from duplicate.hall.base import HallError, Seat4, utc
from duplicate.hall.rows import (
    boards_of,
    event_row,
    hall_round,
    log,
    matches,
    ready,
    room_of,
    round_row,
    seating,
    window_over,
)
from duplicate.hall.tokens import token_hash
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, nested
from duplicate.shapes import Shaped, named


@dataclass(frozen=True, slots=True)
class RecorderCard(Shaped):
    """A recorder's card: the table and room, its seating, the plaintext token (only ever
    returned here)."""

    event: str
    round_no: int = field(metadata=named("round"))
    table: int
    room: str
    seats: Seat4
    token: str


def fresh_token() -> str:
    """A new token (``secrets.token_urlsafe(24)``, 192 bits) that no command line takes for
    an option: never starting with ``-`` (``guandan table-sim URL TOKEN…``)."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def issue_recorder_tokens(
    engine: Engine, event: str, round_no: int, by: str, *, table: int | None = None
) -> list[RecorderCard]:
    """Fresh recorders' tokens for every table and room of the round (or of ``table``);
    refused as the hall's table cards are (no boards, window over, no such table)."""
    if not by or not by.strip():
        raise HallError(phrase("hall.err.cards_who"))
    now = utc(None)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        if not boards_of(ev, rnd):
            raise HallError(phrase("events.err.no_boards", event=repr(event), round=round_no))
        if window_over(hall_round(session, rnd), now):
            raise HallError(phrase("hall.err.cards_over", event=repr(event), round=round_no))
        chosen = [m for m in matches(session, rnd) if table is None or m.table_no == table]
        if not chosen:
            raise HallError(phrase("hall.act.no_table", table=table, round=round_no),
                            "not_found")
        t = models.HallToken
        void = update(t).where(t.round_id == rnd.id, t.void.is_(False), t.role == "record")
        if table is not None:
            void = void.where(t.table_no == table)
        session.execute(void.values(void=True))
        cards: list[RecorderCard] = []
        for m in chosen:
            x, y, open_, closed = seating(session, m)
            for room in ("open", "closed"):
                token = fresh_token()
                session.add(t(round_id=rnd.id, table_no=m.table_no, room=room, role="record",
                              token_hash=token_hash(token), issued_at=now, void=False))
                seats = room_of(x, y, open_, closed, room)[2]
                cards.append(RecorderCard(event, round_no, m.table_no, room, seats, token))
        which = (nested("lw.which.table", table=table) if table is not None
                 else nested("lw.which.all"))
        log(session, "hall tokens", by, coded("capture.reason.cards"),
            coded("lw.detail.tokens", round=round_no, which=which, cards=len(cards)), ev.name)
        return cards
