"""The director's credentials: server-side sessions, Bearer passwords, CSRF tokens, the
throttle on wrong passwords (the ``POST /desk/login`` / ``POST /desk/logout`` endpoints
that use them are :mod:`duplicate.web.login`; the desk draws the login page).

* Logging in with the director password opens a session in the store
  (:mod:`duplicate.sessions`) and sets ``guandan_desk``: the session's random id, signed
  with the service's secret key (:mod:`itsdangerous`), HttpOnly, SameSite=Strict (Secure
  behind HTTPS), a browser-session cookie. Every request looks the session up: logging
  out deletes it, and a session opened under another director password or secret key (a
  restart with new ones) is gone, so the old cookie stops working at once; a session ends
  after :data:`SESSION_SECONDS` in any case.
* The API also takes ``Authorization: Bearer <director password>`` (scripts): no cookie,
  so no CSRF token is needed.
* A cookie-authenticated write needs the session's CSRF token: the hidden form field
  ``csrf`` on desk pages (:func:`check_csrf`), the header ``X-CSRF-Token`` on the API.
* Wrong passwords (the login form's and Bearer's) are counted by client address and for
  all together (:class:`duplicate.sessions.Throttle`, ``Settings.throttle``): past a few,
  each makes the next try wait twice as long; a try that comes too early is answered 429
  with ``Retry-After``. Every wrong password and every refusal is logged (``guandan.web``).
* Passwords and tokens are compared in constant time (:func:`hmac.compare_digest`).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
from typing import Any
from urllib.parse import urlsplit

from fastapi import HTTPException, Request
from itsdangerous import BadSignature, URLSafeTimedSerializer

from duplicate import sessions
from duplicate.i18n import phrase
from duplicate.web.context import engine_of, language_of, now_of, settings_of
from duplicate.web.settings import Settings

COOKIE = "guandan_desk"
#: A director's session lasts a long tournament day.
SESSION_SECONDS = 14 * 3600
CSRF_HEADER = "X-CSRF-Token"
DIRECTOR = "director"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_NO_SESSION: dict[str, str] = {}

log = logging.getLogger("guandan.web")


def client_address(request: Request) -> str:
    """The client's address, as the throttle counts it."""
    return request.client.host if request.client is not None else "?"


def _serializer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(settings_of(request).secret_key, salt="guandan-desk-session")


def key_tag(settings: Settings) -> str:
    """The tag of the director password and secret key a session is opened under: a
    keyed hash, so the store holds neither."""
    return hmac.new(settings.secret_key.encode("utf-8"),
                    b"desk-session\0" + settings.director_password.encode("utf-8"),
                    hashlib.sha256).hexdigest()


def _equal(a: str, b: str) -> bool:
    """Constant-time comparison of two texts (as UTF-8 bytes)."""
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


def _cookie_token(request: Request) -> str | None:
    """The session id of the request's cookie when its signature holds, else ``None``."""
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 512:
        return None
    try:
        data: Any = _serializer(request).loads(raw, max_age=SESSION_SECONDS)
    except BadSignature:
        return None
    token = data.get("sid") if isinstance(data, dict) else None
    return token if isinstance(token, str) else None


def session_of(request: Request) -> dict[str, str] | None:
    """The director's live session of this request's cookie, or ``None`` (none, forged,
    expired, logged out, or opened under another password or secret key). Looked up once
    a request."""
    cached = getattr(request.state, "desk_session", None)
    if cached is not None:
        return cached or None
    found: dict[str, str] = _NO_SESSION
    token = _cookie_token(request)
    if token is not None:
        csrf = sessions.session_csrf(
            engine_of(request), token, key_tag(settings_of(request)), now_of(request))
        if csrf is not None:
            found = {"who": DIRECTOR, "csrf": csrf}
    request.state.desk_session = found
    return found or None


def too_many(wait: float, lang: str | None = None) -> HTTPException:
    """The 429 answer to a password tried ``wait`` seconds too early, in ``lang``."""
    seconds = max(1, math.ceil(wait))
    return HTTPException(
        status_code=429,
        detail=phrase("limits.err.too_many_logins", seconds=seconds).text(lang),
        headers={"Retry-After": str(seconds)},
    )


def check_password(request: Request, password: str, how: str) -> bool:
    """Whether ``password`` is the director's, through the throttle: 429
    (:func:`too_many`) while this client must wait; a wrong one is counted and logged."""
    engine, address, now = engine_of(request), client_address(request), now_of(request)
    wait = sessions.login_wait(engine, address, now)
    if wait > 0:
        log.warning("director password refused (%s from %s): %.1f s to wait", how, address, wait)
        raise too_many(wait, language_of(request))
    if password and _equal(password, settings_of(request).director_password):
        return True
    wait = sessions.login_failed(engine, address, now, settings_of(request).throttle)
    log.warning("wrong director password (%s from %s); next try in %.1f s", how, address, wait)
    return False


def _bearer_ok(request: Request) -> bool:
    """Whether the request carries ``Authorization: Bearer <director password>`` (a wrong
    one is counted by the throttle; 429 while this client must wait)."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return False
    cached = getattr(request.state, "bearer_ok", None)
    if cached is None:
        cached = check_password(request, value.strip(), "Bearer")
        request.state.bearer_ok = cached
    return bool(cached)


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
            detail=phrase("lw.err.login"),
            headers={"WWW-Authenticate": "Bearer"},
        )
    if _is_api(request) and request.method not in _SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not sent or not _equal(sent, session["csrf"]):
            raise HTTPException(
                status_code=403, detail=phrase("rest.web.csrf_header", header=CSRF_HEADER)
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
        raise HTTPException(status_code=403, detail=phrase("rest.web.csrf_form"))


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
