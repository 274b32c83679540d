"""The director's ``POST /desk/login`` and ``POST /desk/logout`` endpoints and
``GET /api/session``, on the credentials of :mod:`duplicate.web.auth`."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from duplicate import sessions
from duplicate.i18n import gettext
from duplicate.web.auth import (
    COOKIE,
    SESSION_SECONDS,
    _bearer_ok,
    _cookie_token,
    _serializer,
    check_csrf,
    check_password,
    client_address,
    key_tag,
    safe_next,
    session_of,
)
from duplicate.web.context import engine_of, language_of, now_of, settings_of
from duplicate.web.errors import error_page

router = APIRouter()


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def _secure(request: Request) -> bool:
    return request.url.scheme == "https" or settings_of(request).public_url.startswith("https:")


@router.post("/desk/login", include_in_schema=False)
def login(
    request: Request, password: str = Form(""), next: str = Form("/desk")  # noqa: A002
) -> Response:
    """Check the director password (through the throttle: 429 with ``Retry-After`` while
    this client must wait); on success open a session, set its cookie and go to ``next``
    (a path of this site) with 303; on failure 401 (a page, or JSON when asked for)."""
    try:
        right = len(password) <= 1024 and check_password(request, password, "login form")
    except HTTPException as exc:  # 429: this client must wait
        if not _wants_json(request):
            raise
        return JSONResponse({"error": "too_many_requests", "message": exc.detail},
                            status_code=exc.status_code, headers=exc.headers)
    if not right:
        message = gettext(language_of(request), "lw.err.password")
        if _wants_json(request):
            return JSONResponse({"error": "unauthorized", "message": message}, status_code=401)
        return error_page(
            request, 401, message, back=f"/desk/login?next={quote(safe_next(next), safe='')}",
        )
    engine = engine_of(request)
    sessions.login_succeeded(engine, client_address(request))
    token, _csrf = sessions.open_session(
        engine, key_tag(settings_of(request)), now_of(request), SESSION_SECONDS)
    value = _serializer(request).dumps({"sid": token})
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(
        COOKIE, value, path="/", httponly=True, samesite="strict",
        secure=_secure(request),
    )
    return response


@router.post("/desk/logout", include_in_schema=False)
def logout(request: Request, csrf: str = Form("")) -> Response:
    """End the director's session in the store (the form's ``csrf`` must match), so that
    its cookie no longer works anywhere, and go to the login page."""
    if session_of(request) is not None:
        check_csrf(request, csrf)
        token = _cookie_token(request)
        if token is not None:
            sessions.close_session(engine_of(request), token)
    response = RedirectResponse("/desk/login", status_code=303)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.get("/api/session", tags=["session"])
def session_info(request: Request) -> dict[str, Any]:
    """Whether this request is the director's, and (with the session cookie) the CSRF
    token its writes must send in ``X-CSRF-Token``. Never refused: ``director`` is false
    without credentials."""
    session = session_of(request)
    if session is not None:
        return {"director": True, "csrf": session["csrf"]}
    return {"director": _bearer_ok(request), "csrf": None}
