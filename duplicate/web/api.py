"""The JSON API: public reads and the table tokens' actions (director's: api_director).

Public (no credential): events, an event, a round's draw and clock, live standings (with
an ETag: ``If-None-Match`` answers 304 while nothing changed), a match board by board, a
board once every table has it in (403 before, but for the director). Table (the token in
the path is the credential, ``hall.grant_for``): the table's view, the preview of a
finishing order, West's report, North's confirmation or dispute. Every call is one library
call (one transaction); the library decides, this module only translates.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, Response
from pydantic import BaseModel
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from duplicate import events, hall
from duplicate.boards import board_to_dict, load_set
from duplicate.i18n import Named, phrase
from duplicate.limits import INT_MAX
from duplicate.web.api_models import (
    BoardOut,
    BoardTableOut,
    ClockOut,
    DisputeIn,
    DrawRowOut,
    ErrorOut,
    EventOut,
    EventSummary,
    MatchOut,
    PreviewOut,
    PublicMatchOut,
    ReportIn,
    ReportOut,
    RoundOut,
    StandingsOut,
    TableViewOut,
    TeamOut,
    out,
)
from duplicate.web.auth import director_or_none
from duplicate.web.deps import TableGrant, check_token, engine_of, retry_races
from duplicate.web.settings import MAX_RECORD

#: The error answers every endpoint may give (documented in the OpenAPI document).
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": text}
    for code, text in (
        (400, "Invalid request"), (403, "Forbidden (token, CSRF, or not yet released)"),
        (404, "Unknown event, round, table, board or report"), (409, "Conflict"),
        (410, "The round's correction window is over"), (413, "Body too large"),
        (422, "Invalid input (the field is named)"),
    )
}

router = APIRouter(prefix="/api", responses=ERRORS)

#: Path parameters (``Annotated``: each use gets its own copy of the FieldInfo).
EventName = Annotated[str, Path(min_length=1, max_length=200, description="The event's name.")]
RoundNo = Annotated[int, Path(ge=1, le=10_000, description="The round's number.")]
#: Standings answers kept per worker, by (event, standings version): a cache, not state.
STANDINGS_CACHE = 64
#: How long a worker answers standings polls with the version it last read (seconds):
#: 800 phones polling every 10 s are 80 requests a second, and reading the version costs
#: a few queries; new standings reach a phone at most this much later.
VERSION_TTL = 1.0


# --- events -------------------------------------------------------------------------------


def round_out(rnd: events.RoundInfo) -> RoundOut:
    """A round as the API gives it."""
    matches = [MatchOut(**_match_dict(m)) for m in rnd.matches]
    return RoundOut(
        number=rnd.number, matches=matches, bye=rnd.bye, board_set=rnd.board_set,
        boards=list(rnd.boards),
    )


def _match_dict(m: events.MatchInfo) -> dict[str, Any]:
    row = m.to_dict()
    return {k: row[k] for k in ("table", "team_x", "team_y", "open", "closed")}


def team_out(t: events.TeamInfo) -> TeamOut:
    return TeamOut(number=t.number, name=t.name, players=list(t.players), pairs=list(t.pairs))


def event_out(engine: Engine, name: str) -> EventOut:
    """An event's settings (never its seed), teams and paired rounds."""
    info = events.get_event(engine, name)
    numbers = sorted({m.round for m in events.list_matches(engine, info.name)})
    data = info.to_dict()
    return EventOut(
        name=info.name, format=info.format, rounds=info.rounds,
        boards_per_round=info.boards_per_round, scale=data["scale"],
        unfinished=data["unfinished"], bye_points=data["bye_points"], bye_won=info.bye.won,
        rules=data["rules"], created_at=data["created_at"], time_zone=info.time_zone,
        lang=info.lang, tiebreaks=info.tiebreaks,
        current_round=hall.current_round(engine, info.name),
        teams=[team_out(t) for t in events.list_teams(engine, info.name)],
        paired_rounds=[round_out(events.get_round(engine, info.name, n)) for n in numbers],
    )


@router.get("/events", response_model=list[EventSummary], tags=["public"])
def list_events(request: Request) -> list[EventSummary]:
    """Every event of the hall."""
    engine = engine_of(request)
    return [
        EventSummary(
            name=e.name, format=e.format, rounds=e.rounds, boards_per_round=e.boards_per_round,
            scale=e.scale.name, current_round=hall.current_round(engine, e.name),
        )
        for e in events.list_events(engine)
    ]


@router.get("/events/{event}", response_model=EventOut, tags=["public"])
def get_event(request: Request, event: EventName) -> EventOut:
    """An event: settings, teams, the rounds paired so far."""
    return event_out(engine_of(request), event)


@router.get("/events/{event}/rounds/{n}/draw", response_model=list[DrawRowOut],
            tags=["public"])
def get_draw(request: Request, event: EventName, n: RoundNo) -> list[DrawRowOut]:
    """Who plays whom at which table, and how each room is seated."""
    return [out(DrawRowOut, row) for row in hall.draw(engine_of(request), event, n)]


@router.get("/events/{event}/rounds/{n}/clock", response_model=ClockOut, tags=["public"])
def get_clock(request: Request, event: EventName, n: RoundNo) -> ClockOut:
    """The round's clock: phase, start, end, 5-minute warning, correction window."""
    return out(ClockOut, hall.round_clock(engine_of(request), event, n))


@router.get(
    "/events/{event}/standings", response_model=StandingsOut, tags=["public"],
    responses={304: {"description": "Not modified since the ETag sent in If-None-Match"}},
)
async def get_standings(
    request: Request, event: EventName, if_none_match: str | None = Header(None),
) -> Any:
    """Live standings with the event's tie-breaks; provisional while a counted round is
    not published. ETag: the standings' version, which a result of a round still coming in
    does not move (poll with If-None-Match, 304 when the same)."""
    engine = engine_of(request)
    version = await _standings_version(request, engine, event)
    etag = f'"{version}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if if_none_match is not None and etag in {t.strip() for t in if_none_match.split(",")}:
        return Response(status_code=304, headers=headers)
    cached = _cached_standings(request, event, version)
    if cached is None:
        computed, cached = await _once(
            request, ("standings", event, version), _compute_standings, request, engine, event
        )
        headers["ETag"] = f'"{computed}"'  # the version these rows are of
    # the JSON text as cached: 800 phones fetching new standings are not 800 encodings
    return Response(cached, media_type="application/json", headers=headers)


def _compute_standings(request: Request, engine: Engine, event: str) -> tuple[str, bytes]:
    """New standings (in a thread of the pool): their version and JSON text, cached."""
    standings = hall.live_standings(engine, event)
    cached = out(StandingsOut, standings).model_dump_json().encode()
    _cache_standings(request, event, standings.version, cached)
    return standings.version, cached


_cache_lock = threading.Lock()
_T = TypeVar("_T")


async def _once(
    request: Request, key: Hashable, work: Callable[..., _T], *args: Any
) -> _T:
    """``work(*args)`` in a thread of the pool, once for all the requests of this
    application and event loop that ask for ``key`` while it runs: each awaits the same
    answer (or error) and holds no thread meanwhile. A standings poll answers from this
    worker's cache on the event loop; only a new version (at most once a second) or new
    standings take a thread, and when a new version appears the polls waiting for it no
    longer fill the thread pool the table's reports need (they held a thread each, queued
    behind one computation of hundreds of milliseconds for 200 teams)."""
    with _cache_lock:
        pending: dict[Hashable, asyncio.Task[Any]] | None = getattr(
            request.app.state, "pending", None
        )
        if pending is None:
            pending = request.app.state.pending = {}
    loop = asyncio.get_running_loop()
    k = (loop, key)
    task = pending.get(k)
    if task is None:
        task = pending[k] = loop.create_task(run_in_threadpool(work, *args))
        task.add_done_callback(lambda t: _done(pending, k, t))
    result: _T = await asyncio.shield(task)  # one request gone does not stop the others'
    return result


def _done(
    pending: dict[Hashable, asyncio.Task[Any]], key: Hashable, task: asyncio.Task[Any]
) -> None:
    """A shared task ended: forgotten, and its error marked seen (every request that
    awaited it was given it; one whose requests all went away is not logged as lost)."""
    pending.pop(key, None)
    if not task.cancelled():
        task.exception()


async def _standings_version(request: Request, engine: Engine, event: str) -> str:
    """``hall.standings_version``, read at most once every :data:`VERSION_TTL` seconds by
    this worker for each event (and once for all the polls that find it older)."""
    with _cache_lock:
        seen = getattr(request.app.state, "standings_versions", None)
        if seen is None:
            seen = request.app.state.standings_versions = {}
        found = seen.get(event)
    if found is not None and time.monotonic() - found[0] < VERSION_TTL:
        return str(found[1])
    return await _once(request, ("version", event), _read_version, seen, engine, event)


def _read_version(seen: dict[str, tuple[float, str]], engine: Engine, event: str) -> str:
    """The standings' version read now (in a thread of the pool) and kept in ``seen``."""
    now = time.monotonic()
    version = hall.standings_version(engine, event)
    with _cache_lock:
        if len(seen) > STANDINGS_CACHE:
            seen.clear()
        seen[event] = (now, version)
    return version


def _cache_of(request: Request) -> OrderedDict[tuple[str, str], bytes]:
    """This worker's standings cache (on the application; created on first use)."""
    with _cache_lock:
        cache = getattr(request.app.state, "standings_cache", None)
        if cache is None:
            cache = request.app.state.standings_cache = OrderedDict()
        return cache


def _cached_standings(request: Request, event: str, version: str) -> bytes | None:
    """The standings computed before at exactly this standings version, if this worker
    has them (the version changes whenever the standings may have: never stale)."""
    cache = _cache_of(request)
    with _cache_lock:
        found = cache.get((event, version))
        if found is not None:
            cache.move_to_end((event, version))
        return found


def _cache_standings(request: Request, event: str, version: str, value: bytes) -> None:
    cache = _cache_of(request)
    with _cache_lock:
        cache[(event, version)] = value
        while len(cache) > STANDINGS_CACHE:
            cache.popitem(last=False)


@router.get("/events/{event}/rounds/{n}/tables/{t}", response_model=PublicMatchOut,
            tags=["public"])
def get_match(
    request: Request, event: EventName, n: RoundNo, t: int = Path(ge=1, le=10_000)
) -> PublicMatchOut:
    """A match board by board (each room's N-S result, the swing); provisional until the
    round is published."""
    return out(PublicMatchOut, hall.public_match(engine_of(request), event, n, t))


@router.get("/events/{event}/rounds/{n}/boards/{b}", response_model=BoardOut, tags=["public"])
def get_board(
    request: Request, event: EventName, n: RoundNo, b: int = Path(ge=1, le=10_000)
) -> BoardOut:
    """A board's deal and every table's two rooms, once every table has it in (403 before;
    the director sees it at once)."""
    engine = engine_of(request)
    rnd = events.get_round(engine, event, n)
    if b not in rnd.boards:
        raise HTTPException(404, phrase("lw.err.no_board", round=n, event=Named(event), board=b))
    if not hall.board_released(engine, event, n, b) and director_or_none(request) is None:
        raise HTTPException(403, phrase("lw.err.held", board=b))
    assert rnd.board_set is not None
    board = load_set(engine, rnd.board_set, [b]).boards[0]
    deal = board_to_dict(board)
    tables = []
    outcomes = hall.board_outcomes(engine, event, n, b)  # the store's: what was counted

    def order(table: int, room: str) -> str | None:
        found = outcomes.get((table, room))
        return None if found is None else found.state.finish

    for m in rnd.matches:
        row = next(r for r in events.match_boards(engine, event, n, m.table) if r.board == b)
        d = row.to_dict()
        tables.append(BoardTableOut(
            table=m.table, team_x=m.team_x, team_y=m.team_y, open=d["open"],
            closed=d["closed"], swing=d["swing"], status=d["status"],
            open_finish=order(m.table, "open"), closed_finish=order(m.table, "closed"),
        ))
    return BoardOut(
        round=n, board=b, level=board.level, leader=board.leader.name, hands=deal["hands"],
        tables=tables,
    )


# --- tables (the token is the credential) -------------------------------------------------


def answer(model: BaseModel, status_code: int = 200) -> Response:
    """``model`` as the JSON answer, encoded here in the path operation's thread. A model
    returned to FastAPI from a synchronous path operation is validated again in a second
    trip through the worker's thread pool: under a burst of phones that second trip queues
    behind the pool's other requests like the first (measured in the saturated hall: every
    report waited for a thread twice). The route's ``response_model`` still documents it."""
    return Response(model.model_dump_json().encode(), status_code=status_code,
                    media_type="application/json")


@router.get("/table/{token}", response_model=TableViewOut, tags=["table"])
def get_table(request: Request, token: str) -> Response:
    """What the token's table and room see: seating, every board's state, the clock. The
    token is checked in the transaction that reads them (one trip through the thread pool,
    not two)."""
    check_token(token)
    return answer(out(TableViewOut, hall.table_view(engine_of(request), token)))


@router.get("/table/{token}/preview", response_model=PreviewOut, tags=["table"])
def get_preview(
    request: Request, grant: TableGrant,
    finish: str = Query(min_length=1, max_length=20, examples=["N S E"]),
) -> PreviewOut:
    """The result a finishing order implies under the event's rules (side, levels)."""
    return out(PreviewOut, hall.preview_finish(engine_of(request), grant.event, finish))


@router.post(
    "/table/{token}/reports", response_model=ReportOut, status_code=201, tags=["table"],
    responses={200: {"model": ReportOut, "description": "The same report was in already"}},
)
@retry_races
def post_report(request: Request, body: ReportIn, token: str) -> Response:
    """West reports a board (the report token only): 201 when stored, 200 when the same
    report was in already (a double tap stores it once), 409 when a different one is.
    The token is checked in the transaction that stores the report."""
    if body.record is not None and len(body.record.encode("utf-8")) > MAX_RECORD:
        raise HTTPException(413, phrase("hall.err.record_too_big", kib=MAX_RECORD // 1024))
    report, created = hall.west_report(
        engine_of(request), token, body.board, finish=body.finish, unfinished=body.unfinished,
        record=body.record, correction=body.correction,
    )
    return answer(out(ReportOut, report), 201 if created else 200)


def _report_board(engine: Engine, grant: hall.Grant, report_id: int) -> int:
    """The board of report ``report_id`` at the grant's table and room (404 if none)."""
    for status in hall.table_view(engine, grant).boards:
        if status.report is not None and status.report.id == report_id:
            return status.board
    raise HTTPException(404, phrase("hall.err.no_report_here", id=report_id, table=grant.table,
                                    room=phrase(f"hall.room.{grant.room}")))


@router.post("/table/{token}/reports/{report_id}/confirm", response_model=ReportOut,
             tags=["table"])
@retry_races
def post_confirm(
    request: Request, token: str, report_id: int = Path(ge=1, le=INT_MAX),
    board: int | None = Query(None, ge=1, description="The report's board (saves a look-up)."),
) -> Response:
    """North confirms West's report (the confirm token only): the result counts. With
    ``board`` the token is checked in the transaction that counts the result."""
    engine = engine_of(request)
    if board is None:  # the token is looked up first, to find the report's board
        grant = hall.grant_for(engine, token)
        board = _report_board(engine, grant, report_id)
        return answer(out(ReportOut, hall.north_confirm(engine, grant, board, report_id)))
    return answer(out(ReportOut, hall.north_confirm(engine, token, board, report_id)))


@router.post("/table/{token}/reports/{report_id}/dispute", response_model=ReportOut,
             tags=["table"])
@retry_races
def post_dispute(
    request: Request, body: DisputeIn, grant: TableGrant, report_id: int = Path(ge=1, le=INT_MAX)
) -> Response:
    """North disputes West's report (the confirm token only): it goes to the director."""
    engine = engine_of(request)
    board = body.board if body.board is not None else _report_board(engine, grant, report_id)
    return answer(out(ReportOut, hall.north_dispute(engine, grant, board, report_id, body.note)))
