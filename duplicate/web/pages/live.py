"""The live view's pages (vugraph): the tables being recorded and a table's board, both
rooms side by side, drawn by the review's movie (``static/movie.js``) at its last step.

* ``GET /e/{event}/live`` and ``GET /e/{event}/live/round/{n}/table/{t}/board/{b}``:
  anyone's view (a board once released; the director, logged in, sees every board now);
* ``GET /w/{token}`` and ``GET /w/{token}/round/{n}/table/{t}/board/{b}``: the spectator
  link's view (the event's boards ``live_delay`` minutes late, when the director chose
  ``delayed``);
* each board page's ``…/version`` answers ``{"version"}``: ``live.js`` polls it every
  few seconds and reloads the page when it changed.

Who sees what is the library's (:mod:`duplicate.capture.live`); these functions only
choose a template.
"""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from duplicate import capture, events
from duplicate.capture.analysis import LIVE_BUDGET
from duplicate.capture.live import comparison
from duplicate.review.pages import movie_and_analysis
from duplicate.web.context import language_of
from duplicate.web.deps import director_or_none, engine_of
from duplicate.web.render import page, pathpart

router = APIRouter(include_in_schema=False)

RoundNo = Annotated[int, Path(ge=1, le=1000)]
Number = Annotated[int, Path(ge=1, le=10_000)]
Token = Annotated[str, Path(min_length=1, max_length=200)]
#: How often live.js asks whether the board changed, in seconds.
POLL_SECONDS = 5


def _viewer(request: Request) -> capture.Viewer:
    return capture.DIRECTOR if director_or_none(request) is not None else capture.ANYONE


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def _tables(request: Request, event: str, viewer: capture.Viewer, base: str) -> Response:
    tables = capture.live_tables(engine_of(request), event, viewer)
    return _no_store(page(request, "live_tables.html", event=event, tables=tables, base=base))


def _board(request: Request, event: str, n: int, t: int, b: int, viewer: capture.Viewer,
           base: str) -> Response:
    engine = engine_of(request)
    board = capture.live_board(engine, event, n, t, b, viewer)
    lang = language_of(request)
    rules = events.event_rules(engine, event)
    comp = comparison(board, rules)
    movie, shown = None, None
    if comp is not None:
        annotations = None
        if board.analysis is not None and len(comp.rooms) == 2:
            annotations = json.loads(board.analysis["body"])["annotations"]
        movie, shown = movie_and_analysis(comp, lang, rules, analysis=annotations,
                                          budget=LIVE_BUDGET if annotations else None)
    here = f"{base}/round/{n}/table/{t}/board/{b}"
    return _no_store(page(
        request, "live_board.html", event=event, board=board, movie=movie, analysis=shown,
        base=base, poll=f"{here}/version", seconds=POLL_SECONDS,
    ))


def _version(request: Request, event: str, n: int, t: int, b: int,
             viewer: capture.Viewer) -> Response:
    board = capture.live_board(engine_of(request), event, n, t, b, viewer)
    body: dict[str, Any] = {"version": board.version}
    return _no_store(Response(json.dumps(body), media_type="application/json"))


@router.get("/e/{event}/live")
def live_tables_page(request: Request, event: str) -> Response:
    """The tables being recorded, as anyone (or the director) may see them."""
    return _tables(request, event, _viewer(request), f"/e/{pathpart(event)}/live")


@router.get("/e/{event}/live/round/{n}/table/{t}/board/{b}")
def live_board_page(request: Request, event: str, n: RoundNo, t: Number, b: Number) -> Response:
    """A table's board live, both rooms, as anyone (or the director) may see it."""
    return _board(request, event, n, t, b, _viewer(request), f"/e/{pathpart(event)}/live")


@router.get("/e/{event}/live/round/{n}/table/{t}/board/{b}/version")
def live_board_version(request: Request, event: str, n: RoundNo, t: Number,
                       b: Number) -> Response:
    """Whether the board page changed (``live.js`` polls it)."""
    return _version(request, event, n, t, b, _viewer(request))


@router.get("/w/{token}")
def watch_tables_page(request: Request, token: Token) -> Response:
    """The tables being recorded, as the spectator link shows them (late by the delay)."""
    event = capture.watch_event(engine_of(request), token)
    return _tables(request, event, capture.Viewer(watch=token), f"/w/{quote(token, safe='')}")


@router.get("/w/{token}/round/{n}/table/{t}/board/{b}")
def watch_board_page(request: Request, token: Token, n: RoundNo, t: Number,
                     b: Number) -> Response:
    """A table's board as the spectator link shows it (late by the delay)."""
    event = capture.watch_event(engine_of(request), token)
    return _board(request, event, n, t, b, capture.Viewer(watch=token),
                  f"/w/{quote(token, safe='')}")


@router.get("/w/{token}/round/{n}/table/{t}/board/{b}/version")
def watch_board_version(request: Request, token: Token, n: RoundNo, t: Number,
                        b: Number) -> Response:
    """Whether the spectator's board page changed (``live.js`` polls it)."""
    event = capture.watch_event(engine_of(request), token)
    return _version(request, event, n, t, b, capture.Viewer(watch=token))
