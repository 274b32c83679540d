"""What a request carries that every part of the hall reads: the application's settings,
clock and database engine, the reader's language, and the retry of a write that lost a
race in the database. The bottom of :mod:`duplicate.web`: it imports nothing of it but
the settings."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from fastapi import Request
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from duplicate.i18n import LANGUAGES, negotiate, normalise_language
from duplicate.web.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])

LANG_COOKIE = "lang"
#: How often a write that lost a race in the database is tried again.
RACE_TRIES = 4
#: PostgreSQL's "try again" errors: serialization failure, deadlock.
_RETRYABLE_PGCODES = frozenset({"40001", "40P01"})


def settings_of(request: Request) -> Settings:
    """The service's settings (``create_app`` keeps them on the application)."""
    settings: Settings = request.app.state.settings
    return settings


def now_of(request: Request) -> datetime:
    """The time (UTC) by the application's clock (``app.state.clock``; a test moves it)."""
    clock = getattr(request.app.state, "clock", None)
    return clock() if clock is not None else datetime.now(UTC)


def engine_of(request: Request) -> Engine:
    """The application's one SQLAlchemy engine (a pool; no other state is kept)."""
    engine: Engine = request.app.state.engine
    return engine


def asked_language(request: Request) -> str | None:
    """The language ``?lang=`` asks for, when it names one we speak."""
    asked = request.query_params.get("lang")
    if asked and asked.strip().replace("_", "-").split("-")[0].lower() in LANGUAGES:
        return normalise_language(asked)
    return None


def language_of(request: Request) -> str:
    """The page's language: ``?lang=``, then the ``lang`` cookie, then Accept-Language."""
    asked = asked_language(request)
    if asked:
        return asked
    cookie = request.cookies.get(LANG_COOKIE)
    if cookie and cookie in LANGUAGES:
        return cookie
    return negotiate(request.headers.get("accept-language"))


def lost_race(exc: Exception) -> bool:
    """Whether ``exc`` is a database's refusal that a second try can overcome: a unique
    key another transaction inserted at the same moment (the library checks first, so a
    second try sees the row and answers properly), a serialization failure or deadlock, a
    connection the database dropped (connections are not pinged before use)."""
    if isinstance(exc, IntegrityError):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True  # the database restarted: the pool is refilled, a second try connects
    if isinstance(exc, DBAPIError):
        code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
        return code in _RETRYABLE_PGCODES
    return False


def retry_races(func: F) -> F:
    """Decorate a path operation that writes: each library call is one transaction, rolled
    back when it fails, so the operation is run again (up to :data:`RACE_TRIES` times, a
    few milliseconds apart) when it lost a race in the database (:func:`lost_race`).
    FastAPI reads the signature through ``functools.wraps``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for attempt in range(1, RACE_TRIES + 1):
            try:
                return func(*args, **kwargs)
            except DBAPIError as exc:
                if attempt == RACE_TRIES or not lost_race(exc):
                    raise
                time.sleep(0.005 * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    return wrapper  # type: ignore[return-value]
