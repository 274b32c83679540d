"""FastAPI dependencies every router uses: a table token's grant, and (re-exported from
:mod:`duplicate.web.context` and :mod:`duplicate.web.auth`) the database engine, the retry
of a write that lost a race, the director's credentials and CSRF tokens.

    @router.get("/t/{token}")
    def table_page(request: Request, grant: Grant = Depends(grant_dep)) -> Response: ...
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from duplicate import hall
from duplicate.hall import Grant
from duplicate.web.auth import check_csrf, csrf_token, director_dep, director_or_none
from duplicate.web.context import engine_of, retry_races, settings_of

__all__ = [
    "DirectorName",
    "TableGrant",
    "check_csrf",
    "check_token",
    "csrf_token",
    "director_dep",
    "director_or_none",
    "engine_of",
    "grant_dep",
    "retry_races",
    "settings_of",
]

#: The longest token looked up (``secrets.token_urlsafe(24)`` gives 32 characters).
MAX_TOKEN = 128


def grant_dep(request: Request, token: str) -> Grant:
    """FastAPI dependency for the path parameter ``token``: what that table token may do
    (``hall.grant_for``): 403 for an unknown or void token, 410 once the round's
    correction window is over (``HallError``, mapped by :mod:`duplicate.web.errors`)."""
    check_token(token)
    return hall.grant_for(engine_of(request), token)


def check_token(token: str) -> None:
    """Refuse (403) a token no card has before looking it up: empty or too long."""
    if not token or len(token) > MAX_TOKEN:
        raise hall.HallError("unknown or void table token", kind="forbidden")


#: A path operation's parameter ``grant: TableGrant``: the grant of the path's ``token``.
TableGrant = Annotated[Grant, Depends(grant_dep)]
#: A path operation's parameter ``by: DirectorName``: ``"director"``, or 401/403.
DirectorName = Annotated[str, Depends(director_dep)]
