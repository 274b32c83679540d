"""Table tokens: what a QR code on a table card may do.

``issue_tokens`` makes, for every table and room of a round, two tokens
(``secrets.token_urlsafe(24)``, 192 bits): one lets West **report** the boards of that
table and room, the other lets North **confirm** or dispute them. Only their SHA-256 hex is
stored (``hall_tokens``); the plaintext is returned once, on the cards. Issuing again voids
every earlier token of the round (a lost card is replaced by reprinting). A token works
until the round's correction window is over (closed_at + correction_minutes): after that
``grant_for`` answers ``closed``. Every issue is in the event's admin log (who, when).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, Executable, bindparam, select, update
from sqlalchemy.orm import Session

from duplicate import models
from duplicate.db import session_scope
from duplicate.hall.base import ROLES, Grant, HallError, TableCard, utc
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
from duplicate.i18n import phrase
from duplicate.i18n.stored import coded, nested

#: The longest token accepted for a look-up (ours are 32 characters).
MAX_TOKEN = 200


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def derived_token(key: bytes, round_id: int, table: int, room: str, role: str) -> str:
    """The token of a table, room and role issued under ``key`` (HMAC-SHA256, 192 bits,
    URL-safe): whoever holds ``key`` can print the same cards again; the store keeps only
    the token's SHA-256, never ``key``."""
    mac = hmac.new(key, f"{round_id}|{table}|{room}|{role}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode("ascii")


def issue_tokens(
    engine: Engine, event: str, round_no: int, by: str, *, table: int | None = None,
    key: bytes | None = None,
) -> list[TableCard]:
    """Fresh tokens for every table and room of the round (or of ``table`` only: a lost
    card), as table cards (seating and the two plaintext tokens); the earlier tokens of
    those tables become void. With ``key`` (at least 32 random bytes, kept by the caller)
    the tokens derived (:func:`derived_token`), so that :func:`cards_again` can show the same
    cards again. Refused (invalid) when the round has no boards assigned, or its
    correction window is over; ``not_found`` when the round has no such table."""
    if not by or not by.strip():
        raise HallError(phrase("hall.err.cards_who"))
    if key is not None and len(key) < 32:
        raise ValueError("a card key needs at least 32 bytes")
    now = utc(None)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        if not boards_of(ev, rnd):
            raise HallError(phrase("events.err.no_boards", event=repr(event), round=round_no))
        hr = hall_round(session, rnd)
        if window_over(hr, now):
            raise HallError(phrase("hall.err.cards_over", event=repr(event), round=round_no))
        chosen = [m for m in matches(session, rnd) if table is None or m.table_no == table]
        if not chosen:
            raise HallError(phrase("hall.act.no_table", table=table, round=round_no),
                            "not_found")
        void = update(models.HallToken).where(
            models.HallToken.round_id == rnd.id, models.HallToken.void.is_(False),
            models.HallToken.role.in_(ROLES),  # a recorder's card is issued on its own
        )
        if table is not None:
            void = void.where(models.HallToken.table_no == table)
        session.execute(void.values(void=True))
        cards: list[TableCard] = []
        for m in chosen:
            x, y, open_, closed = seating(session, m)
            for room in ("open", "closed"):
                ns, ew, seats = room_of(x, y, open_, closed, room)
                tokens = {
                    role: derived_token(key, rnd.id, m.table_no, room, role)
                    if key is not None else secrets.token_urlsafe(24)
                    for role in ROLES
                }
                for role, token in tokens.items():
                    session.add(
                        models.HallToken(
                            round_id=rnd.id,
                            table_no=m.table_no,
                            room=room,
                            role=role,
                            token_hash=token_hash(token),
                            issued_at=now,
                            void=False,
                        )
                    )
                cards.append(
                    TableCard(
                        event,
                        round_no,
                        m.table_no,
                        room,
                        ns,
                        ew,
                        seats,
                        tokens["report"],
                        tokens["confirm"],
                    )  # fmt: skip
                )
        which = (nested("lw.which.table", table=table) if table is not None
                 else nested("lw.which.all"))
        log(
            session, "hall tokens", by, coded("lw.reason.tokens"),
            coded("lw.detail.tokens", round=round_no, which=which, cards=len(cards)), ev.name,
        )  # fmt: skip
        return cards


def cards_again(
    engine: Engine, event: str, round_no: int, key: bytes, table: int | None = None
) -> list[TableCard]:
    """The cards issued under ``key`` (:func:`issue_tokens`) that are still valid, again
    (a reload of the printed page): nothing is issued or voided. A card whose tokens were
    issued again since is left out; an empty list when none is valid any more."""
    now = utc(None)
    ready(engine)
    with session_scope(engine) as session:
        ev = event_row(session, event)
        rnd = round_row(session, ev, round_no)
        if window_over(hall_round(session, rnd), now):
            return []
        live = set(session.scalars(
            select(models.HallToken.token_hash).where(
                models.HallToken.round_id == rnd.id, models.HallToken.void.is_(False)
            )
        ))
        cards: list[TableCard] = []
        for m in matches(session, rnd):
            if table is not None and m.table_no != table:
                continue
            x, y, open_, closed = seating(session, m)
            for room in ("open", "closed"):
                tokens = {role: derived_token(key, rnd.id, m.table_no, room, role)
                          for role in ROLES}
                if any(token_hash(t) not in live for t in tokens.values()):
                    continue
                ns, ew, seats = room_of(x, y, open_, closed, room)
                cards.append(TableCard(event, round_no, m.table_no, room, ns, ew, seats,
                                       tokens["report"], tokens["confirm"]))
        return cards


#: A token's row with its round, event, clock and match: built once (building a statement
#: costs about as much as running it), run with the token's hash (``digest``).
GRANT = (
    select(
        models.HallToken, models.EventRound, models.Event, models.HallRound, models.EventMatch
    )
    .join(models.EventRound, models.EventRound.id == models.HallToken.round_id)
    .join(models.Event, models.Event.id == models.EventRound.event_id)
    .outerjoin(models.HallRound, models.HallRound.round_id == models.HallToken.round_id)
    .outerjoin(
        models.EventMatch,
        (models.EventMatch.round_id == models.HallToken.round_id)
        & (models.EventMatch.table_no == models.HallToken.table_no),
    )
    .where(models.HallToken.token_hash == bindparam("digest"))
)

#: What :func:`grant_rows` gives besides the grant: the event, round, match (``None`` if
#: the round has no such table any more) and clock rows (``rows.table_rows``).
TokenRows = tuple[
    models.Event, models.EventRound, "models.EventMatch | None", "models.HallRound | None"
]


def grant_for(engine: Engine, token: str, now: datetime | None = None) -> Grant:
    """What ``token`` may do. ``forbidden``: unknown or void; ``closed``: the round's
    correction window is over."""
    at = utc(now)
    ready(engine)
    with session_scope(engine) as session:
        return grant_rows(session, token, at)[0]


def grant_rows(session: Session, token: str, at: datetime) -> tuple[Grant, TokenRows]:
    """:func:`grant_for` inside a transaction, with the rows the token's table is made of,
    in one query (a phone's write looks its token up in the transaction that writes)."""
    grant, rows, _row = token_row(session, token, at, GRANT)
    return grant, rows


def token_row(
    session: Session, token: str, at: datetime, query: Executable, **params: Any
) -> tuple[Grant, TokenRows, Sequence[Any]]:
    """:func:`grant_rows` with ``query``: :data:`GRANT` or a statement built on it that
    reads more in the same round trip (its further columns come after the first five, its
    further ``params`` with the token's hash), and the whole row."""
    if not token or len(token) > MAX_TOKEN:
        raise HallError(phrase("hall.err.unknown_token"), "forbidden")
    digest = token_hash(token)
    row = session.execute(query, {"digest": digest, **params}).first()
    if row is None or not hmac.compare_digest(row[0].token_hash, digest):
        raise HallError(phrase("hall.err.unknown_token"), "forbidden")
    tok, rnd, ev, hr, m = row[:5]
    if tok.void:
        raise HallError(phrase("hall.err.card_replaced"), "forbidden")
    if window_over(hr, at):
        raise HallError(phrase("hall.err.round_over", round=rnd.number), "closed")
    return Grant(ev.name, rnd.number, tok.table_no, tok.room, tok.role), (ev, rnd, m, hr), row
