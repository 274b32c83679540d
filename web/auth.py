"""The director's credentials: the session cookie, Bearer passwords, CSRF tokens, and the
``POST /desk/login`` / ``POST /desk/logout`` endpoints (H4 draws the login page).

* Logging in with the director password sets ``guandan_desk``: a cookie signed with the
  service's secret key (:mod:`itsdangerous`), HttpOnly, SameSite=Strict (Secure behind
  HTTPS), holding ``{"who": "director", "csrf": <random>}``: a browser-session cookie
  (gone when the browser closes) whose signature expires after :data:`SESSION_SECONDS`.
  Nothing is kept on the server: every worker checks it alike.
* The API also takes ``Authorization: Bearer <director password>`` (scripts): no cookie,
  so no CSRF token is needed.
* A cookie-authenticated write needs the session's CSRF token: the hidden form field
  ``csrf`` on desk pages (:func:`check_csrf`), the header ``X-CSRF-Token`` on the API.
* Passwords and tokens are compared in constant time (:func:`hmac.compare_digest`).
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from web.settings import Settings

COOKIE = "guandan_desk"
#: A director's session lasts a long tournament day.
SESSION_SECONDS = 14 * 3600
CSRF_HEADER = "X-CSRF-Token"
DIRECTOR = "director"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

router = APIRouter()


def settings_of(request: Request) -> Settings:
    """The service's settings (``create_app`` keeps them on the application)."""
    settings: Settings = request.app.state.settings
    return settings


def _serializer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(settings_of(request).secret_key, salt="guandan-desk-session")


def _equal(a: str, b: str) -> bool:
    """Constant-time comparison of two texts (as UTF-8 bytes)."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def session_of(request: Request) -> dict[str, str] | None:
    """The director's session of this request's cookie, or ``None`` (none, forged, expired)."""
    raw = request.cookies.get(COOKIE)
    if not raw:
        return None
    try:
        data: Any = _serializer(request).loads(raw, max_age=SESSION_SECONDS)
    except BadSignature:
        return None
    if (
        not isinstance(data, dict)
        or data.get("who") != DIRECTOR
        or not isinstance(data.get("csrf"), str)
    ):
        return None
    return {"who": DIRECTOR, "csrf": data["csrf"]}


def _bearer_ok(request: Request) -> bool:
    """Whether the request carries ``Authorization: Bearer <director password>``."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return False
    return _equal(value.strip(), settings_of(request).director_password)


def _is_api(request: Request) -> bool:
    return request.url.path == "/api" or request.url.path.startswith("/api/")


def director_or_none(request: Request) -> str | None:
    """``"director"`` when the request is the director's (session cookie or Bearer
    password), else ``None``. No CSRF check: pages call :func:`check_csrf` on their form."""
    if _bearer_ok(request) or session_of(request) is not None:
        return DIRECTOR
    return None


def director_dep(request: Request) -> str:
    """FastAPI dependency: the director's ``by`` name, or 401.

    On the API, a write (POST, PUT, PATCH, DELETE) authenticated by the cookie must carry
    the session's CSRF token in ``X-CSRF-Token`` (403 otherwise); a Bearer call needs none.
    """
    if _bearer_ok(request):
        return DIRECTOR
    session = session_of(request)
    if session is None:
        raise HTTPException(
            status_code=401,
            detail="the director's login is needed (log in at /desk/login, or send "
            "Authorization: Bearer <director password>)",
            headers={"WWW-Authenticate": "Bearer"},
        )
    if _is_api(request) and request.method not in _SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent or not _equal(sent, session["csrf"]):
            raise HTTPException(
                status_code=403, detail=f"missing or wrong CSRF token (header {CSRF_HEADER})"
            )
    return DIRECTOR


def csrf_token(request: Request) -> str:
    """The CSRF token of the director's session, for desk forms; ``""`` without a session."""
    session = session_of(request)
    return session["csrf"] if session is not None else ""


def check_csrf(request: Request, form_value: str | None) -> None:
    """403 unless ``form_value`` is the CSRF token of the request's director session."""
    session = session_of(request)
    if session is None or not form_value or not _equal(form_value, session["csrf"]):
        raise HTTPException(status_code=403, detail="missing or wrong CSRF token: reload the page")


def safe_next(target: str | None) -> str:
    """Where to go after logging in: ``target`` when it is a path of this site (``/desk/…``),
    else ``/desk`` (never another host: ``//evil``, ``http://…``, ``/\\evil``)."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/desk"
    if "\\" in target or any(ord(c) < 32 for c in target):
        return "/desk"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/desk"
    return target


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


def _secure(request: Request) -> bool:
    return request.url.scheme == "https" or settings_of(request).public_url.startswith("https:")


@router.post("/desk/login", include_in_schema=False)
def login(
    request: Request, password: str = Form(""), next: str = Form("/desk")  # noqa: A002
) -> Response:
    """Check the director password; on success set the session cookie and go to ``next``
    (a path of this site) with 303; on failure 401 (a page, or JSON when asked for)."""
    if not password or not _equal(password, settings_of(request).director_password):
        message = "wrong director password"
        if _wants_json(request):
            return JSONResponse({"error": "unauthorized", "message": message}, status_code=401)
        from web.errors import error_page

        return error_page(
            request, 401, message, back=f"/desk/login?next={quote(safe_next(next), safe='')}",
        )
    value = _serializer(request).dumps({"who": DIRECTOR, "csrf": secrets.token_urlsafe(32)})
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(
        COOKIE, value, path="/", httponly=True, samesite="strict",
        secure=_secure(request),
    )
    return response


@router.post("/desk/logout", include_in_schema=False)
def logout(request: Request, csrf: str = Form("")) -> Response:
    """End the director's session (the form's ``csrf`` must match) and go to the login page."""
    if session_of(request) is not None:
        check_csrf(request, csrf)
    response = RedirectResponse("/desk/login", status_code=303)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return response
