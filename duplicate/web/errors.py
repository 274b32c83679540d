"""Errors as answers: JSON ``{"error": kind, "message": ...}`` under ``/api``, a short page
elsewhere (the public pages' ``public_error.html``, in the page's language).

The library's refusals carry their kind (``HallError.kind``); the status follows the
contract: not_found 404, forbidden 403, conflict 409, invalid 422, closed 410. An
``EventError`` is 400 ("invalid"), or 404 when it names an unknown event, round, table,
team or board set. FastAPI's own 404/405/422 (no such path, wrong method, a body that does
not fit its model) are JSON on the API too, naming the field that is wrong.
"""

from __future__ import annotations

import html
import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from duplicate.errors import DatabaseError, DuplicateError
from duplicate.i18n import Phrase, gettext, messages, translator
from duplicate.web.context import language_of, lost_race
from duplicate.web.render import page
from engine.errors import GuandanError

log = logging.getLogger("guandan.web")

#: HallError.kind -> HTTP status (contract section 1).
KIND_STATUS = {"not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422, "closed": 410}
#: HTTP status -> the ``error`` word of a JSON answer.
STATUS_KIND = {
    400: "invalid", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 410: "closed", 413: "too_large",
    415: "unsupported_media_type", 422: "invalid", 429: "too_many_requests", 500: "internal", 503: "unavailable",
}
_NOT_FOUND = re.compile(
    r"^no event named |has no round \d+|there is no round \d+|has no table \d+|has no team named |"
    r"^no board set named |has no player named "
)


def is_api(request: Request) -> bool:
    """Whether the request is one of the JSON API's (``/api`` and below)."""
    path = request.url.path
    return path == "/api" or path.startswith("/api/")


def classify(exc: Exception) -> tuple[int, str]:
    """The HTTP status and ``error`` word of a library exception."""
    kind = getattr(exc, "kind", None)
    if isinstance(kind, str) and kind in KIND_STATUS:
        return KIND_STATUS[kind], kind
    if isinstance(exc, DatabaseError):
        return 503, "unavailable"
    if _NOT_FOUND.search(str(exc)):
        return 404, "not_found"
    return 400, "invalid"


def message_of(request: Request, exc: Exception) -> str:
    """A library refusal's message in the request's language (``DuplicateError.text``: a
    message from the catalogue; any other is English)."""
    if isinstance(exc, DuplicateError):
        return exc.text(language_of(request))
    return str(exc)


def json_error(status: int, kind: str, message: str, headers: Any = None) -> JSONResponse:
    """The API's error answer."""
    return JSONResponse({"error": kind, "message": message}, status_code=status, headers=headers)


def error_page(
    request: Request, status: int, message: str, back: str | None = None, headers: Any = None
) -> Response:
    """A page saying what went wrong: the public pages' ``public_error.html`` (context ``status``,
    ``message``, ``back``) in the page's language; a plain page if that one fails (an
    error page must not fail)."""
    try:
        response: Response = page(
            request, "public_error.html", status=status, message=message, back=back
        )
        response.status_code = status
        if headers:
            response.headers.update(headers)
        return response
    except Exception:  # the plain page below still answers
        log.warning("the error page could not be drawn", exc_info=True)
    link = f'<p><a href="{html.escape(back)}">&larr;</a></p>' if back else ""
    body = (
        "<!doctype html><html><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{status}</title></head><body><h1>{status}</h1>"
        f"<p>{html.escape(message)}</p>{link}</body></html>"
    )
    return HTMLResponse(body, status_code=status, headers=headers)


def answer(
    request: Request, status: int, kind: str, message: str, headers: Any = None
) -> Response:
    """JSON on the API, a page elsewhere."""
    if is_api(request):
        return json_error(status, kind, message, headers)
    return error_page(request, status, message, headers=headers)


async def _library_error(request: Request, exc: Exception) -> Response:
    status, kind = classify(exc)
    refusal = getattr(exc, "code", None)
    if isinstance(refusal, str) and is_api(request):  # a capture refusal: its code and next
        body = {"error": kind, "message": message_of(request, exc), "refusal": refusal,
                "next": getattr(exc, "next_seq", None)}
        return JSONResponse(body, status_code=status)
    return answer(request, status, kind, message_of(request, exc))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    lang = language_of(request)
    detail: Any = exc.detail
    if isinstance(detail, Phrase):
        message = detail.text(lang)
    else:
        message = detail if isinstance(detail, str) else str(detail)
    if status == 404 and message == "Not Found":
        message = gettext(lang, "lw.err.no_page", path=request.url.path)
    elif status == 405 and message == "Method Not Allowed":
        message = gettext(lang, "lw.err.method", method=request.method, path=request.url.path)
    headers = getattr(exc, "headers", None)
    return answer(request, status, STATUS_KIND.get(status, "error"), message, headers)


def validation_message(exc: RequestValidationError, lang: str = "en") -> str:
    """Each wrong field of a request, where and why: in English as pydantic says it
    (``body.board: Input should be ...``), in another language the field, the part of the
    request it is in, and what it should be (``提交内容中的 board：应为整数``)."""
    if lang != "en":
        return _fields_said(exc, lang)
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(x) for x in err.get("loc", ()))
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


#: pydantic's error types -> what the field should be (``lw.valid.*``), and the value of
#: the error's ``ctx`` the words quote (``limit``).
_EXPECTED: dict[str, tuple[str, str | None]] = {
    "int_parsing": ("lw.valid.int", None), "int_type": ("lw.valid.int", None),
    "int_from_float": ("lw.valid.int", None), "float_parsing": ("lw.valid.float", None),
    "float_type": ("lw.valid.float", None), "bool_parsing": ("lw.valid.bool", None),
    "bool_type": ("lw.valid.bool", None), "string_type": ("lw.valid.string", None),
    "missing": ("lw.valid.missing", None), "greater_than_equal": ("lw.valid.ge", "ge"),
    "greater_than": ("lw.valid.gt", "gt"), "less_than_equal": ("lw.valid.le", "le"),
    "less_than": ("lw.valid.lt", "lt"), "string_too_long": ("lw.valid.too_long", "max_length"),
    "string_too_short": ("lw.valid.too_short", "min_length"),
    "too_long": ("lw.valid.too_many", "max_length"),  # a list's length: its items
    "too_short": ("lw.valid.too_few", "min_length"),
    "literal_error": ("lw.valid.choice", "expected"), "enum": ("lw.valid.choice", "expected"),
    "json_invalid": ("lw.valid.json", None), "dict_type": ("lw.valid.object", None),
    "model_type": ("lw.valid.object", None), "model_attributes_type": ("lw.valid.object", None),
    "list_type": ("lw.valid.list", None), "extra_forbidden": ("lw.valid.extra", None),
}


def _field_said(loc: list[Any], lang: str) -> str:
    """A field's place in a request in words: a name the catalogue knows
    (``lw.api.players``: 队员), an item of a list by its number (第2项), any other name
    as the request spells it."""
    t = translator(lang)
    known = messages()
    words = ""
    for x in loc:
        if isinstance(x, int):
            words += t("lw.api.item", n=x + 1)
            continue
        name = t(f"lw.api.{x}") if f"lw.api.{x}" in known else str(x)
        words += (t("lw.api.of") if words else "") + name
    return words


def _choices_said(expected: Any, lang: str) -> str:
    """pydantic's choices (``'wdl' or 'vp20'``) in the reader's words: “wdl”或“vp20”,
    three or more joined by the language's list separator before the last."""
    t = translator(lang)
    names = re.findall(r"'([^']*)'", str(expected))
    if not names:
        return str(expected)
    quoted = [t("lw.valid.quoted", value=n) for n in names]
    if len(quoted) == 1:
        return quoted[0]
    return t("lw.valid.or", first=t("list.sep").join(quoted[:-1]), last=quoted[-1])


def _fields_said(exc: RequestValidationError, lang: str) -> str:
    t = translator(lang)
    parts = []
    for err in exc.errors()[:5]:
        loc = list(err.get("loc", ()))
        part = (str(loc[0]) if loc and loc[0] in ("path", "query", "body", "header", "cookie")
                else "")
        field = _field_said(loc[1:] if part else loc, lang)
        where = (t("lw.valid.where", field=field, part=t(f"lw.part.{part}")) if part and field
                 else t(f"lw.part.{part}") if part else field)
        key, name = _EXPECTED.get(str(err.get("type")), ("lw.valid.other", None))
        ctx = err.get("ctx") or {}
        what = (t(key, **({"limit": ctx.get(name, "")} if key != "lw.valid.choice"
                          else {"expected": _choices_said(ctx.get(name, ""), lang)}))
                if name is not None else t(key))
        parts.append(t("lw.valid.field", where=where, what=what))
    return t("list.clause_sep").join(parts) or t("lw.err.invalid")


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return answer(request, 422, "invalid", validation_message(exc, language_of(request)))


async def _database_error(request: Request, exc: Exception) -> Response:
    route = getattr(request.scope.get("route"), "path", "?")
    if lost_race(exc):
        log.warning("a write lost its race every time on %s", route)
        return answer(request, 409, "conflict",
                      gettext(language_of(request), "lw.err.conflict"))
    if isinstance(exc, OperationalError):
        log.error("database unavailable on %s %s", request.method, route, exc_info=exc)
        return answer(request, 503, "unavailable",
                      gettext(language_of(request), "lw.err.unavailable"))
    return await _internal_error(request, exc)


async def _internal_error(request: Request, exc: Exception) -> Response:
    route = getattr(request.scope.get("route"), "path", "?")  # the pattern: never a token
    log.error("internal error on %s %s", request.method, route, exc_info=exc)
    return answer(request, 500, "internal", gettext(language_of(request), "lw.err.internal"))


def install(app: FastAPI) -> None:
    """Register the handlers on ``app``."""
    app.add_exception_handler(DuplicateError, _library_error)
    app.add_exception_handler(GuandanError, _library_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(Exception, _internal_error)
