"""The director's sessions and the throttle on wrong director passwords, kept in the store
so that every worker of the hall service sees the same and a restart forgets nothing.

* A session (``desk_sessions``) is a random id the caller gives the browser; the store
  keeps its SHA-256, its CSRF token, and a ``key_tag`` the caller derives from the
  director password and the secret key: :func:`session_csrf` finds a session only under
  the same tag, so changing either ends every session opened before. :func:`close_session`
  ends one (logging out); a session also ends when it expires.
* The throttle (``desk_login_failures``) counts wrong passwords by client address and for
  all addresses together (``*``). After :attr:`Throttle.free` failures (``free_all`` for
  all together) each further one makes the next try wait, twice as long each time, up to a
  cap: :func:`login_wait` says how long is left, :func:`login_failed` counts one (an upsert:
  two workers counting at once both count), :func:`login_succeeded` forgets the address's.
  Failures older than :attr:`Throttle.forget` seconds are forgotten.

Times are given by the caller (UTC), so that a test can move its clock.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, case, delete, select, update

from duplicate import models
from duplicate.db import session_scope

__all__ = [
    "ALL",
    "Throttle",
    "close_session",
    "login_failed",
    "login_succeeded",
    "login_wait",
    "open_session",
    "session_csrf",
]

#: The throttle's row for every address together.
ALL = "*"
#: The longest client address kept (an IPv6 address with a zone fits).
MAX_ADDRESS = 64


@dataclass(frozen=True, slots=True)
class Throttle:
    """How wrong director passwords slow the next try: per address, ``free`` failures cost
    nothing, then the n-th further one makes the next try wait ``base * 2**(n-1)`` seconds,
    at most ``cap``; for all addresses together likewise with ``free_all`` and ``cap_all``
    (kept short: every address, the director's too, waits on it). Failures older than
    ``forget`` seconds are forgotten."""

    free: int = 5
    base: float = 1.0
    cap: float = 900.0
    free_all: int = 50
    cap_all: float = 60.0
    forget: float = 3600.0

    def wait_after(self, failures: int, everyone: bool = False) -> float:
        """The wait after the ``failures``-th wrong password in a row."""
        free, cap = (self.free_all, self.cap_all) if everyone else (self.free, self.cap)
        over = failures - free
        if over <= 0:
            return 0.0
        return min(cap, self.base * 2.0 ** min(over - 1, 60))


def _utc(moment: datetime | None) -> datetime | None:
    """``moment`` with UTC attached when the database gave it back naive (SQLite)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _address(address: str) -> str:
    return (address or "?")[:MAX_ADDRESS]


# --- sessions ------------------------------------------------------------------------------


def open_session(engine: Engine, key_tag: str, now: datetime, seconds: float) -> tuple[str, str]:
    """A new session lasting ``seconds``: its id (for the cookie) and its CSRF token.
    Sessions already expired are deleted on the way."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    with session_scope(engine) as session:
        session.execute(delete(models.DeskSession).where(models.DeskSession.expires_at < now))
        session.add(models.DeskSession(
            id_hash=_hash(token), csrf=csrf, key_tag=key_tag, created_at=now,
            expires_at=now + timedelta(seconds=seconds),
        ))
    return token, csrf


def session_csrf(engine: Engine, token: str, key_tag: str, now: datetime) -> str | None:
    """The CSRF token of the live session ``token`` opened under ``key_tag``, or ``None``
    (unknown, logged out, expired, or opened under another password or secret key)."""
    if not token or len(token) > 128:
        return None
    with session_scope(engine) as session:
        row = session.get(models.DeskSession, _hash(token))
        if row is None:
            return None
        expires = _utc(row.expires_at)
        if row.key_tag != key_tag or expires is None or expires <= now:
            session.delete(row)  # ended for good: another password or secret, or expired
            return None
        return row.csrf


def close_session(engine: Engine, token: str) -> None:
    """End session ``token`` (nothing happens if there is none)."""
    with session_scope(engine) as session:
        session.execute(delete(models.DeskSession).where(
            models.DeskSession.id_hash == _hash(token)))


# --- the login throttle --------------------------------------------------------------------


def login_wait(engine: Engine, address: str, now: datetime) -> float:
    """Seconds before ``address`` may try a password again (0: now), counting the wait of
    all addresses together."""
    with session_scope(engine) as session:
        rows = session.scalars(select(models.LoginFailure.blocked_until).where(
            models.LoginFailure.address.in_((_address(address), ALL)))).all()
    waits = [(_utc(u) - now).total_seconds() for u in rows if u is not None]  # type: ignore[operator]
    return max([0.0, *waits])


def _insert(engine: Engine) -> Any:
    """The database's ``INSERT`` with ``ON CONFLICT`` (both have it)."""
    from sqlalchemy.dialects import postgresql, sqlite  # lazy: the dialects, only to write

    return postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert


def login_failed(engine: Engine, address: str, now: datetime, throttle: Throttle) -> float:
    """Count a wrong password from ``address`` (and for all together); the wait it makes
    the next try from that address take, in seconds."""
    table = models.LoginFailure
    insert = _insert(engine)
    waits = []
    with session_scope(engine) as session:
        for key in (_address(address), ALL):
            stmt = insert(table).values(address=key, failures=1, last_at=now, blocked_until=None)
            stmt = stmt.on_conflict_do_update(
                index_elements=[table.address],
                set_={
                    "failures": case(
                        (table.last_at < now - timedelta(seconds=throttle.forget), 1),
                        else_=table.failures + 1,
                    ),
                    "last_at": now,
                },
            ).returning(table.failures)
            failures = int(session.execute(stmt).scalar_one())
            wait = throttle.wait_after(failures, everyone=key == ALL)
            if wait > 0:
                session.execute(update(table).where(table.address == key).values(
                    blocked_until=now + timedelta(seconds=wait)))
            waits.append(wait)
        # the quiet addresses are forgotten: the table holds at most an hour's addresses
        session.execute(delete(table).where(
            table.last_at < now - timedelta(seconds=throttle.forget), table.address != ALL))
    return max(waits)


def login_succeeded(engine: Engine, address: str) -> None:
    """Forget the wrong passwords from ``address`` (those of all together stay)."""
    with session_scope(engine) as session:
        session.execute(delete(models.LoginFailure).where(
            models.LoginFailure.address == _address(address)))
