"""The hall service's application: ``create_app(settings)`` and, for uvicorn's workers,
the factory ``app_from_env`` (``uvicorn --factory duplicate.web.app:app_from_env``).

The application holds one SQLAlchemy engine (a connection pool) and its settings, nothing
else: every request reads and writes the database through the library, so any worker can
answer any request. It serves

* the JSON API under ``/api`` (:mod:`duplicate.web.api`, :mod:`duplicate.web.api_director`; OpenAPI document
  at ``/api/openapi.json`` with its security schemes, interactive docs at ``/api/docs``
  and ``/api/redoc`` served from an installed package: :mod:`duplicate.web.security`);
* the table, public and desk pages (:mod:`duplicate.web.pages`), the director's login and logout
  (:mod:`duplicate.web.auth`);
* static files: ``/static/`` (``duplicate/static``) and ``/static/hall/`` (``duplicate/web/static``).

Request bodies over :data:`MAX_BODY` are refused with 413 before they are read (from
``Content-Length``) or as soon as the stream passes the limit; uvicorn's access log never
shows a table token (:class:`TokenLogFilter`). Every answer carries the security headers
of :mod:`duplicate.web.security` (a Content-Security-Policy, no framing), and HEAD is answered
wherever GET is.

An event is addressed by its name as one path segment: a name holding ``/`` is sent
encoded (``%2F``, as every link of the service writes it), and :class:`EncodedSlashes`
keeps such a segment whole (:func:`keep_slashes`), so that every name the library accepts
is reachable.
"""

from __future__ import annotations

import gc
import logging
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import anyio.to_thread
from fastapi import FastAPI, HTTPException
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.convertors import CONVERTOR_TYPES
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from duplicate.db import make_engine
from duplicate.i18n import gettext, messages, negotiate, phrase
from duplicate.web import (
    api,
    api_capture,
    api_director,
    api_live,
    auth,
    errors,
    login,
    ws_capture,
)
from duplicate.web.pages import desk, live, public, record, table
from duplicate.web.security import HeadAsGet, SecurityHeaders, install_docs, secure_openapi
from duplicate.web.settings import DEFAULT_THREADS, MAX_BODY, Settings

_TOKEN_PATH = re.compile(r"^(/t/|/api/table/)[^/?#\s]+")


class ForgetVersions:
    """ASGI middleware: after a director's write (any method but GET, HEAD, OPTIONS, on a
    path that is not a table's) this worker reads the standings' version afresh
    (``duplicate.web.api.VERSION_TTL``): the director sees what he changed at once, other workers
    within the TTL. A table's report or confirmation does not (hundreds a second when a
    round ends would make every poll read the version); it moves the standings only when
    it completes a round, and the phones see that within the TTL."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        finally:
            if (
                scope["type"] == "http"
                and scope["method"] not in ("GET", "HEAD", "OPTIONS")
                and not _TOKEN_PATH.match(scope["path"])  # a table's phone
            ):
                seen = getattr(scope["app"].state, "standings_versions", None)
                if seen is not None:
                    seen.clear()


class BodyLimit:
    """ASGI middleware: 413 for a body over ``limit`` bytes, early from ``Content-Length``,
    else as soon as the bytes received pass it (a chunked or lying client)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > self.limit:
                    await self._refuse(scope, send, declared)
                    return
        seen = 0
        limit = self.limit

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise HTTPException(413, phrase("lw.err.body_big", limit=limit))
            return message

        await self.app(scope, counted, send)

    async def _refuse(self, scope: Scope, send: Send, declared: int) -> None:
        path = scope.get("path", "")
        asked = dict(scope.get("headers") or []).get(b"accept-language", b"")
        lang = negotiate(asked.decode("latin-1"))  # no cookie read before the body is
        message = gettext(lang, "lw.err.body_big", limit=self.limit) if declared >= 0 else (
            gettext(lang, "lw.err.content_length"))
        status = 413 if declared >= 0 else 400
        if path == "/api" or path.startswith("/api/"):
            response: Any = errors.json_error(status, errors.STATUS_KIND[status], message)
        else:
            response = PlainTextResponse(message, status_code=status)
        response.headers["Connection"] = "close"
        await response(scope, _no_body, send)


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


#: Stands for a ``/`` inside one path segment between :class:`EncodedSlashes` and the
#: path parameter's convertor (a control character: no name holds one).
SLASH = "\x1f"


class EncodedSlashes:
    """ASGI middleware: a path whose raw form holds ``%2F`` inside a segment is routed with
    that slash kept in its segment (as :data:`SLASH`, turned back into ``/`` by the path
    parameter's convertor: :func:`keep_slashes`), instead of splitting the segment in two."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("raw_path") if scope["type"] == "http" else None
        if raw and b"%2f" in raw.lower():
            text = raw.split(b"?", 1)[0].decode("latin-1")
            path = "/".join(unquote(part).replace("/", SLASH) for part in text.split("/"))
            scope = {**scope, "path": path}
        await self.app(scope, receive, send)


def _segment(value: str) -> str:
    """A path parameter as the route gives it, a ``/`` within its segment given back."""
    return value.replace(SLASH, "/")


def keep_slashes() -> None:
    """Make the path convertor of ``{name}`` parameters give a ``/`` that
    :class:`EncodedSlashes` kept in its segment back. Starlette compiles every route's
    ``{name}`` with one shared convertor (FastAPI compiles included routes lazily), so it
    is that one that learns it, once a process: a value without :data:`SLASH` (all but
    those) passes unchanged."""
    convertor = CONVERTOR_TYPES["str"]
    if getattr(convertor, "convert", None) is not _segment:
        setattr(convertor, "convert", _segment)  # noqa: B010 (an instance's method)


class TokenLogFilter(logging.Filter):
    """Hide table tokens in uvicorn's access log: ``/t/<token>`` becomes ``/t/…``."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], hide_tokens(args[2]), *args[3:])
        return True


def hide_tokens(path: str) -> str:
    """``path`` with the token of a table URL replaced by ``…``."""
    return _TOKEN_PATH.sub(lambda m: m.group(1) + "…", path)


def install_log_filter() -> None:
    """Put :class:`TokenLogFilter` on uvicorn's access logger (once per process)."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, TokenLogFilter) for f in logger.filters):
        logger.addFilter(TokenLogFilter())


def pool_options(db_url: str, threads: int = DEFAULT_THREADS) -> dict[str, Any]:
    """The engine's connection pool: on a server database, a connection kept open for each
    of the worker's ``threads`` (a request uses one at a time) and a few more at a busy
    moment; four workers of 8 threads stay well under PostgreSQL's default of 100.
    Connections are not pinged before use (a round trip on every request): after a
    database restart the first request on a dropped connection fails, the pool is
    refilled, and the writes try again (``duplicate.web.deps.retry_races``)."""
    if db_url.startswith("sqlite"):
        return {}
    return {"pool_size": threads, "max_overflow": 4, "pool_timeout": 30, "pool_pre_ping": False}


def _lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Size the worker's thread pool (FastAPI runs the path operations there; anyio's
    default is 40) when it starts, read the message catalogue (else the first requests
    of every thread would each parse every ``.po`` file at once, holding up the worker),
    and freeze what is loaded out of the garbage collector (modules, the application, its
    routes and models, the catalogue: a full collection walking them paused every request
    in the worker); when it stops, close the database pool's connections."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        messages()
        gc.freeze()  # what is loaded by now stays: full collections no longer walk it
        try:
            yield
        finally:  # the pool's connections closed now, not whenever the engine is collected
            _app.state.engine.dispose()

    return lifespan


def create_app(settings: Settings) -> FastAPI:
    """The service on ``settings``' database (one engine, kept on ``app.state``)."""
    app = FastAPI(
        lifespan=_lifespan(settings),
        title="Guandan tournament hall",
        summary="Duplicate Guandan (复式掼蛋): tables report by phone, the director runs "
        "the rounds, results go public as they come in.",
        version="1",
        openapi_url="/api/openapi.json",
        docs_url=None,  # duplicate.web.security.install_docs: no CDN, no inline script
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.clock = lambda: datetime.now(UTC)  # the login throttle's and sessions' time
    app.state.engine = make_engine(settings.db_url, **pool_options(settings.db_url, settings.threads))
    errors.install(app)
    app.include_router(api.router)
    app.include_router(api_director.router)
    app.include_router(api_capture.router)
    app.include_router(api_capture.desk_router)
    app.include_router(api_live.router)
    app.include_router(ws_capture.router)
    app.include_router(login.router)
    install_docs(app)
    app.openapi = lambda: secure_openapi(app, auth.director_dep)  # type: ignore[method-assign]
    # the tables', the public's, the desk's, the recorder's, the live view's
    for pages in (table, public, desk, record, live):
        app.include_router(pages.router)
    duplicate_static = Path(str(resources.files("duplicate").joinpath("static")))
    hall_static = Path(__file__).parent / "static"
    app.mount("/static/hall", StaticFiles(directory=hall_static), name="hall_static")
    app.mount("/static", StaticFiles(directory=duplicate_static), name="static")
    keep_slashes()
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(ForgetVersions)
    app.add_middleware(HeadAsGet)
    app.add_middleware(EncodedSlashes)
    app.add_middleware(SecurityHeaders)  # outermost: every answer, refusals too
    install_log_filter()
    return app


def app_from_env() -> FastAPI:
    """The factory uvicorn's workers call: :func:`create_app` on ``Settings.from_env()``."""
    return create_app(Settings.from_env())
