"""FastAPI dependencies every router uses: the database engine, a table token's grant,
and (re-exported from :mod:`web.auth`) the director's credentials and CSRF tokens.

    @router.get("/t/{token}")
    def table_page(request: Request, grant: Grant = Depends(grant_dep)) -> Response: ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine

from web.auth import (
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
    "settings_of",
]

#: The longest token looked up (``secrets.token_urlsafe(24)`` gives 32 characters).
MAX_TOKEN = 128


def engine_of(request: Request) -> Engine:
    """The application's one SQLAlchemy engine (a pool; no other state is kept)."""
    engine: Engine = request.app.state.engine
    return engine


def grant_dep(request: Request, token: str) -> Grant:
    """FastAPI dependency for the path parameter ``token``: what that table token may do
    (``hall.grant_for``): 403 for an unknown or void token, 410 once the round's
    correction window is over (``HallError``, mapped by :mod:`web.errors`)."""
    from duplicate import hall

    if not token or len(token) > MAX_TOKEN:
        raise hall.HallError("unknown or void table token", kind="forbidden")
    return hall.grant_for(engine_of(request), token)


#: A path operation's parameter ``grant: TableGrant``: the grant of the path's ``token``.
TableGrant = Annotated["Grant", Depends(grant_dep)]
#: A path operation's parameter ``by: DirectorName``: ``"director"``, or 401/403.
DirectorName = Annotated[str, Depends(director_dep)]
