"""What every answer of the hall service carries for the browser's safety, HEAD on every
GET path, the API's interactive documentation without a CDN, and the security schemes of
the OpenAPI document.

* :class:`SecurityHeaders` (ASGI middleware): a ``Content-Security-Policy`` on every
  answer: scripts only from this origin or inline with the request's nonce
  (``request.state.csp_nonce``: a template writes ``<script nonce="{{ request.state.csp_nonce }}">``),
  no plugin, no ``<base>``, forms posting only here, and ``frame-ancestors 'none'`` with
  ``X-Frame-Options: DENY`` (no page can be framed: no click-jacking of the desk);
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` (a table's
  address holds its token) unless the answer set its own.
* :class:`HeadAsGet` (ASGI middleware): a HEAD request is answered as its GET, without the
  body.
* :func:`install_docs`: ``/api/docs`` (Swagger UI) and ``/api/redoc`` (ReDoc), their
  scripts and styles served from the installed package ``fastapi-offline``
  (``/static/docs/``), started by ``duplicate/web/static/api-docs.js`` (no inline script).
* :func:`secure_openapi`: the OpenAPI document names how the director authenticates
  (``Authorization: Bearer``, or the desk's session cookie with ``X-CSRF-Token`` on
  writes) on every operation that needs it.
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from duplicate.i18n import gettext
from duplicate.web.context import language_of

DOCS_STATIC = "/static/docs"
_WRITES = frozenset({"post", "put", "patch", "delete"})


def content_security_policy(nonce: str) -> str:
    """The policy of every answer, allowing inline scripts only with ``nonce``. Styles
    may be inline (the report's stylesheet, Swagger UI's and ReDoc's); ReDoc's search runs
    in a worker made from a ``blob:``."""
    return (
        "default-src 'self'; "
        f"script-src 'self' 'nonce-{nonce}'; "
        "style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; "
        "font-src 'self' data:; "
        "connect-src 'self'; "
        "worker-src 'self' blob:; "
        "object-src 'none'; "
        "base-uri 'none'; "
        "form-action 'self'; "
        "frame-ancestors 'none'"
    )


class SecurityHeaders:
    """ASGI middleware: the module's headers on every HTTP answer, and a fresh nonce for
    the request's inline scripts in ``scope["state"]["csp_nonce"]``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_urlsafe(16)
        scope.setdefault("state", {})["csp_nonce"] = nonce
        policy = content_security_policy(nonce).encode("latin-1")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                for name, value in (
                    (b"content-security-policy", policy),
                    (b"x-frame-options", b"DENY"),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                ):
                    if name not in present:
                        headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HeadAsGet:
    """ASGI middleware: HEAD is answered as GET would be (status and headers, the length
    of the body included) without the body, on every path that answers GET."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_no_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_no_body)


# --- the interactive documentation ---------------------------------------------------------


def _assets() -> Path:
    """The folder of Swagger UI's and ReDoc's files in the installed ``fastapi-offline``."""
    return Path(str(resources.files("fastapi_offline").joinpath("static")))


_SWAGGER = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
<link rel="icon" href="{assets}/favicon.png">
</head><body>
<div id="swagger-ui" data-spec="{spec}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="/static/hall/api-docs.js"></script>
</body></html>
"""

_REDOC = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="{assets}/favicon.png">
</head><body>
<redoc spec-url="{spec}"></redoc>
<script src="{assets}/redoc.standalone.js"></script>
</body></html>
"""


def install_docs(app: FastAPI, docs: str = "/api/docs", redoc: str = "/api/redoc") -> None:
    """Serve Swagger UI at ``docs`` and ReDoc at ``redoc`` with their files from the
    installed package (``/static/docs/``): the documentation works in a hall without
    Internet, and no third party's script runs on the director's origin."""
    spec = app.openapi_url or "/api/openapi.json"

    def values(request: Request) -> dict[str, str]:  # the title in the reader's language
        lang = language_of(request)
        return {"title": html.escape(gettext(lang, "web.api.docs_title")), "assets": DOCS_STATIC,
                "spec": spec, "lang": "zh-CN" if lang == "zh" else "en"}

    @app.get(docs, include_in_schema=False)
    def swagger_ui(request: Request) -> HTMLResponse:
        return HTMLResponse(_SWAGGER.format(**values(request)))

    @app.get(redoc, include_in_schema=False)
    def redoc_ui(request: Request) -> HTMLResponse:
        return HTMLResponse(_REDOC.format(**values(request)))

    app.mount(DOCS_STATIC, StaticFiles(directory=_assets()), name="docs_static")


# --- the OpenAPI document's security schemes ------------------------------------------------

SECURITY_SCHEMES: dict[str, Any] = {
    "directorPassword": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <director password>`, for scripts: no "
        "cookie, no CSRF token. Wrong passwords are throttled (429 with Retry-After).",
    },
    "deskSession": {
        "type": "apiKey",
        "in": "cookie",
        "name": "guandan_desk",
        "description": "The desk's session cookie, set by `POST /desk/login` and ended by "
        "`POST /desk/logout`, a new director password or a new secret key.",
    },
    "csrfToken": {
        "type": "apiKey",
        "in": "header",
        "name": "X-CSRF-Token",
        "description": "The session's CSRF token (`GET /api/session`): needed with the "
        "session cookie on every write (POST, PUT, PATCH, DELETE); 403 without it.",
    },
}

_ERROR = {"$ref": "#/components/schemas/ErrorOut"}
#: A table's operations: the credential is the token in the path (OpenAPI has no scheme
#: for a path parameter), said in each operation's description.
TABLE_CREDENTIAL = (
    "**Credential:** the table's token in the path (`{token}`): West's report token or "
    "North's confirm token, from the printed card; it grants that table, room and round "
    "only, until the round's correction window closes (403 unknown or void, 410 closed)."
)


def _depends_on(dependant: Dependant, func: Any) -> bool:
    return dependant.call is func or any(_depends_on(d, func) for d in dependant.dependencies)


def _api_routes(app: FastAPI) -> Iterator[tuple[APIRoute, str]]:
    """Every API route of ``app`` and its path as served (FastAPI includes routers lazily:
    ``app.routes`` holds the included routers, not their routes)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # an older FastAPI: the routes are copied in
        for route in app.routes:
            if isinstance(route, APIRoute):
                yield route, route.path_format
        return
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if isinstance(route, APIRoute):
            yield route, context.path_format or route.path_format


def secure_openapi(app: FastAPI, guard: Any) -> dict[str, Any]:
    """The application's OpenAPI document (made once) with :data:`SECURITY_SCHEMES`, and on
    every operation whose route depends on ``guard`` (the director's dependency) its
    ``security`` (Bearer, or the session cookie, with the CSRF header on a write) and its
    401, 403 and 429 answers."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(
        title=app.title, version=app.version, summary=app.summary,
        description=app.description, routes=app.routes,
    )
    components = doc.setdefault("components", {})
    components["securitySchemes"] = SECURITY_SCHEMES
    schemas = components.setdefault("schemas", {})
    schemas.setdefault("ErrorOut", {
        "type": "object", "title": "ErrorOut", "required": ["error", "message"],
        "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
    })
    for route, path in _api_routes(app):
        if not route.include_in_schema or not _depends_on(route.dependant, guard):
            continue
        for method in route.methods or ():
            operation = doc.get("paths", {}).get(path, {}).get(method.lower())
            if operation is None:
                continue
            session: dict[str, list[str]] = {"deskSession": []}
            if method.lower() in _WRITES:
                session["csrfToken"] = []
            operation["security"] = [{"directorPassword": []}, session]
            answers = operation.setdefault("responses", {})
            for status, why in (
                ("401", "No director credentials (or a wrong password)."),
                ("403", "A session-cookie write without its X-CSRF-Token."),
                ("429", "Too many wrong director passwords: wait Retry-After seconds."),
            ):
                answers.setdefault(status, {
                    "description": why, "content": {"application/json": {"schema": _ERROR}},
                })
    for path, operations in doc.get("paths", {}).items():
        if "{token}" not in path:
            continue
        for operation in operations.values():
            text = operation.get("description", "")
            operation["description"] = f"{text}\n\n{TABLE_CREDENTIAL}".strip()
    app.openapi_schema = doc
    return doc
