"""What every page of the director's desk shares: reading form fields, the flash message
carried over a redirect, the login redirect, running an action and showing its outcome,
and the few words a desk page says of stored texts (:mod:`duplicate.web.pages.desk` and the
routers it assembles: ``desk_round``, ``desk_actions``, ``desk_admin``)."""


from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import Engine

from duplicate.errors import DuplicateError
from duplicate.i18n.stored import decoded, who_key
from duplicate.web.auth import safe_next
from duplicate.web.context import settings_of
from duplicate.web.deps import check_csrf, director_or_none, engine_of
from duplicate.web.errors import message_of
from duplicate.web.render import page
from engine.errors import GuandanError

#: The cookie that carries one message from a form's handler to the page it redirects to.
FLASH = "guandan_desk_flash"
#: A flash's message is cut there (even in Chinese, the cookie stays under 4 KiB).
FLASH_MAX = 600

#: What a handler tells the page after it: a catalogue key and its values. A value that is
#: ``{"t": key}`` is itself translated in the page's language.
Flash = tuple[str, dict[str, Any]]
Action = Callable[[Engine, str], Flash]


class DeskInput(Exception):
    """A form field the desk cannot read (not a number, missing): said in the page's
    language, nothing is called."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def q(text: object) -> str:
    """``text`` as one path segment (``/``, ``?``, ``#``, ``%`` and the rest encoded)."""
    return quote(str(text), safe="")


def event_url(event: str, tail: str = "") -> str:
    """The desk page of ``event`` (and below it: ``tail`` such as ``/round/2``)."""
    return f"/desk/e/{q(event)}{tail}"


# --- reading forms ------------------------------------------------------------------------


def text_of(value: str | None) -> str | None:
    """A form's text field: stripped, ``None`` when empty."""
    value = (value or "").strip()
    return value or None


def chief_of(value: str | None) -> bool:
    """A form's box "as chief director (裁判长)": ticked or not (the directors' limit on a
    published round: ``duplicate.events.limit``)."""
    return (value or "").strip() not in ("", "0", "off", "false")


def int_of(value: str | None, field: str, required: bool = False) -> int | None:
    """A form's whole-number field (``field`` the catalogue key of its label)."""
    text = text_of(value)
    if text is None:
        if required:
            raise DeskInput("desk.error.required", field={"t": field})
        return None
    try:
        return int(text)
    except ValueError:
        raise DeskInput("desk.error.number", field={"t": field}, value=text[:40]) from None


def float_of(value: str | None, field: str) -> float | None:
    """A form's number field that may have a fraction (``12.5``; ``field`` as :func:`int_of`)."""
    text = text_of(value)
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        raise DeskInput("desk.error.number", field={"t": field}, value=text[:40]) from None


# --- flash messages and redirects ---------------------------------------------------------


def _encode_flash(key: str, values: dict[str, Any], error: bool) -> str:
    if "message" in values:  # a very long library message: its start
        values = {**values, "message": str(values["message"])[:FLASH_MAX]}
    raw = json.dumps({"k": key, "v": values, "e": error}, ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii")


def read_flash(request: Request) -> dict[str, Any] | None:
    """The message the last form left for this page, or ``None``."""
    raw = request.cookies.get(FLASH)
    if not raw:
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(raw.encode("ascii")).decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("k"), str):
        return None
    if not data["k"].startswith("desk.") or not isinstance(data.get("v"), dict):
        return None
    return data


def say(t: Callable[..., str], flash: dict[str, Any]) -> str:
    """A flash in the page's language (``t``: the page's translator)."""
    values = {
        name: t(v["t"]) if isinstance(v, dict) and isinstance(v.get("t"), str) else v
        for name, v in flash["v"].items()
    }
    try:
        return t(flash["k"], **values)
    except (KeyError, ValueError, IndexError):  # a message whose values do not fit its key
        return t("desk.flash.refused", message=str(flash["v"].get("message", "")))


def redirect(url: str, flash: Flash | None = None, error: bool = False) -> Response:
    """303 to ``url``, carrying ``flash`` for the page there."""
    response = RedirectResponse(url, status_code=303)
    if flash is not None:
        response.set_cookie(
            FLASH, _encode_flash(flash[0], flash[1], error), max_age=120, path="/desk",
            httponly=True, samesite="strict",
        )
    return response


def secure(request: Request) -> bool:
    """Whether a cookie of the desk's must be ``Secure`` (as the session's: HTTPS here, or
    a public URL in HTTPS)."""
    return request.url.scheme == "https" or settings_of(request).public_url.startswith("https:")


def to_login(request: Request, back: str | None = None) -> Response:
    """The login page, coming back to ``back`` (default: this page) afterwards."""
    raw = request.scope.get("raw_path") or request.url.path.encode("utf-8")
    path = raw.decode("ascii", "replace")  # as sent: an event's name stays percent-encoded
    target = back or path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/desk/login?next={quote(safe_next(target), safe='')}",
                            status_code=303)


def act(
    request: Request, csrf: str | None, back: str, action: Action,
    success: Callable[[Flash], str] | None = None,
) -> Response:
    """Run a form's ``action`` (one library call) as the director and go back to ``back``
    (or, when it succeeds, to ``success(flash)``).

    Not logged in: to the login page. A missing or wrong CSRF token: 403 (nothing called).
    What the library or the form reading refuses comes back as the page's message."""
    who = director_or_none(request)
    if who is None:
        return to_login(request, back)
    check_csrf(request, csrf)
    try:
        flash = action(engine_of(request), who)
    except DeskInput as exc:
        return redirect(back, (exc.key, exc.values), error=True)
    except (DuplicateError, GuandanError) as exc:
        message = message_of(request, exc)
        return redirect(back, ("desk.flash.refused", {"message": message}), error=True)
    return redirect(success(flash) if success is not None else back, flash)


def said(t: Callable[..., str], text: str | None) -> str:
    """A stored phrase (a coded reason, an old English one: ``i18n.stored.decoded``) in the
    page's language; a person's own words as typed."""
    found = decoded(text)
    if found is None:
        return text or ""
    try:
        return t(found[0], **found[1])
    except (KeyError, ValueError, IndexError):
        return text or ""


def who_said(t: Callable[..., str], by: str | None) -> str:
    """Who did something (``director``, ``table 3 open West``) in the page's language."""
    found = who_key(by)
    if found is None:
        return by or ""
    values = {k: t(v) if k == "room" else v for k, v in found[1].items()}
    return t(found[0], **values)


def show(request: Request, template: str, **context: Any) -> Response:
    """Render a desk page (``duplicate.web.render.page``) with the pending flash, then forget it."""
    flash = read_flash(request)
    response: Response = page(request, template, flash=flash, say=say, q=q,
                              event_url=event_url, said=said, who=who_said, **context)
    if flash is not None:
        response.delete_cookie(FLASH, path="/desk", httponly=True, samesite="strict")
    response.headers["Cache-Control"] = "no-store"
    return response
