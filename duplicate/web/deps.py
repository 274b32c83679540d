"""FastAPI dependencies every router uses: the database engine, a table token's grant,
and (re-exported from :mod:`duplicate.web.auth`) the director's credentials and CSRF tokens.

    @router.get("/t/{token}")
    def table_page(request: Request, grant: Grant = Depends(grant_dep)) -> Response: ...
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from duplicate.web.auth import (
    check_csrf,
    csrf_token,
    director_dep,
    director_or_none,
    settings_of,
)

if TYPE_CHECKING:
    from duplicate.hall import Grant

__all__ = [
    "DirectorName",
    "TableGrant",
    "check_csrf",
    "csrf_token",
    "director_dep",
    "director_or_none",
    "engine_of",
    "grant_dep",
    "retry_races",
    "settings_of",
]

F = TypeVar("F", bound=Callable[..., Any])

#: How often a write that lost a race in the database is tried again.
RACE_TRIES = 4
#: PostgreSQL's "try again" errors: serialization failure, deadlock.
_RETRYABLE_PGCODES = frozenset({"40001", "40P01"})

#: The longest token looked up (``secrets.token_urlsafe(24)`` gives 32 characters).
MAX_TOKEN = 128


def engine_of(request: Request) -> Engine:
    """The application's one SQLAlchemy engine (a pool; no other state is kept)."""
    engine: Engine = request.app.state.engine
    return engine


def grant_dep(request: Request, token: str) -> Grant:
    """FastAPI dependency for the path parameter ``token``: what that table token may do
    (``hall.grant_for``): 403 for an unknown or void token, 410 once the round's
    correction window is over (``HallError``, mapped by :mod:`duplicate.web.errors`)."""
    from duplicate import hall

    if not token or len(token) > MAX_TOKEN:
        raise hall.HallError("unknown or void table token", kind="forbidden")
    return hall.grant_for(engine_of(request), token)


#: A path operation's parameter ``grant: TableGrant``: the grant of the path's ``token``.
TableGrant = Annotated["Grant", Depends(grant_dep)]
#: A path operation's parameter ``by: DirectorName``: ``"director"``, or 401/403.
DirectorName = Annotated[str, Depends(director_dep)]


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
