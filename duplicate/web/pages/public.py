"""The public pages of the hall: what everyone in the hall (and outside it) may read.

* ``GET /``: the events;
* ``GET /e/{event}``: live standings with the event's tie-breaks (``standings.js`` polls
  ``/api/events/{event}/standings`` with If-None-Match every 10 s and redraws on a 200),
  provisional while a counted round is not published (公示), and the rounds;
* ``GET /e/{event}/round/{n}``: the draw (who plays whom, at which table, seated how),
  the round clock, the round's boards (linked once released), its results corrected
  since publication (``hall.corrections``: what, when, by whom, why);
* ``GET /e/{event}/round/{n}/table/{t}``: a match board by board (provisional marked);
* ``GET /e/{event}/round/{n}/board/{b}``: a board once every table has it in
  (``hall.board_released``): the deal and every table's two rooms side by side (result,
  finishing order the store counted, swing; a correction since publication), each table's
  play-by-play (the review's board page, reused) at
  ``/e/{event}/round/{n}/board/{b}/table/{t}``. Before that: 403, "still being played";
  the director (``director_or_none``) sees it at once.

No result, score or release rule is computed here: :mod:`duplicate.hall` and
:mod:`duplicate.events` say what is what; these functions only choose a template.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, Response

from duplicate import events, hall
from duplicate.boards import load_set
from duplicate.compare import compare_board
from duplicate.events.site import stored_rooms
from duplicate.gdn import loads
from duplicate.i18n import Named, phrase, translator
from duplicate.i18n import game as vocab
from duplicate.review.pages import language_switch, render_board
from duplicate.scoring import is_vp
from duplicate.web.context import language_of
from duplicate.web.deps import director_or_none, engine_of
from duplicate.web.render import lang_url, page, pathpart
from engine.seat import Seat

router = APIRouter(include_in_schema=False)

#: Path parameters: a round number, a table or board number (bounded: no huge integers).
RoundNo = Annotated[int, Path(ge=1, le=1000)]
Number = Annotated[int, Path(ge=1, le=10_000)]


def _cache(response: Response, seconds: int = 5) -> Response:
    """Public pages may be cached briefly (results arrive within seconds anyway)."""
    response.headers["Cache-Control"] = f"public, max-age={seconds}"
    return response


@router.get("/")
def index(request: Request) -> Response:
    """Every event, with its current round."""
    engine = engine_of(request)
    rows = [(info, hall.current_round(engine, info.name)) for info in events.list_events(engine)]
    return _cache(page(request, "public_index.html", rows=rows))


def released_of(engine: Any, event: str, n: int, boards: Iterable[int]) -> set[int]:
    """The boards of round ``n`` the public may open (``hall.board_released``)."""
    return {b for b in boards if hall.board_released(engine, event, n, b)}


def _zone(engine: Any, event: str) -> str:
    """The zone ``event``'s times are shown in (its ``time_zone``)."""
    return events.get_event(engine, event).time_zone


def _rounds(engine: Any, event: str) -> list[int]:
    current = hall.current_round(engine, event)
    return list(range(1, current + 1)) if current else []


@router.get("/e/{event}")
def event_page(request: Request, event: str) -> Response:
    """The live standings and the rounds of ``event``."""
    engine = engine_of(request)
    info = events.get_event(engine, event)
    live = hall.live_standings(engine, event)
    response = page(
        request, "public_event.html", event=info.name, info=info, live=live,
        rounds=_rounds(engine, event),
        api=f"/api/events/{pathpart(info.name)}/standings",
    )
    response.headers["ETag"] = f'W/"{live.version}"'
    return _cache(response, 2)


@router.get("/e/{event}/round/{n}")
def round_page(request: Request, event: str, n: RoundNo) -> Response:
    """The draw of round ``n``, its clock (``hall.public_clock``: a round scored without
    the hall is published), its boards and, once published, each match's result."""
    engine = engine_of(request)
    rnd = events.get_round(engine, event, n)
    clock = hall.public_clock(engine, event, n)
    results = events.score_event(engine, event, n) if clock.phase == "published" else []
    rows = hall.draw(engine, event, n)
    released = released_of(engine, event, n, rnd.boards)
    changed = [c for c in hall.corrections(engine, event, n) if c.board in released]
    byes = {b.team: b.points for b in events.round_byes(engine, event, n)}
    vp = is_vp(events.get_event(engine, event).scale)
    return _cache(page(
        request, "public_round.html", event=event, round_no=n, rows=rows, rnd=rnd, byes=byes,
        vp=vp, released=released, clock=clock, results=results,
        rounds=_rounds(engine, event), corrections=changed, zone=_zone(engine, event),
    ))


@router.get("/e/{event}/round/{n}/table/{t}")
def match_page(request: Request, event: str, n: RoundNo, t: Number) -> Response:
    """Match ``t`` of round ``n`` board by board."""
    engine = engine_of(request)
    match = hall.public_match(engine, event, n, t)
    released = released_of(engine, event, n, [b.board for b in match.boards])
    return _cache(page(request, "public_match.html", event=event, round_no=n, match=match,
                       released=released, zone=_zone(engine, event)))


def _held(request: Request, event: str, n: int, b: int) -> Response | None:
    """The 403 page of a board still being played (``None`` when it may be shown)."""
    engine = engine_of(request)
    rnd = events.get_round(engine, event, n)
    if b not in rnd.boards:
        raise hall.HallError(phrase("lw.err.no_board", round=n, event=Named(event), board=b),
                             kind="not_found")
    if hall.board_released(engine, event, n, b) or director_or_none(request) is not None:
        return None
    response = page(request, "public_board_held.html", event=event, round_no=n, board=b)
    response.status_code = 403
    response.headers["Cache-Control"] = "no-store"
    return response


def _hands(engine: Any, set_name: str | None, b: int, lang: str) -> dict[str, Any] | None:
    """The deal of board ``b`` as faces by seat (N, E, S, W), its level and leader."""
    if set_name is None:
        return None
    board = load_set(engine, set_name, [b]).boards[0]
    return {
        "level": vocab.level_text(board.level, lang),
        "leader": vocab.seat_name(board.leader, lang),
        "hands": [
            (seat.name, vocab.hand_faces(cards, board.level, lang, high_first=True))
            for seat, cards in zip(Seat, board.hands, strict=True)
        ],
    }


@router.get("/e/{event}/round/{n}/board/{b}")
def board_page(request: Request, event: str, n: RoundNo, b: Number) -> Response:
    """Board ``b`` of round ``n``: every table's two rooms side by side, once released."""
    held = _held(request, event, n, b)
    if held is not None:
        return held
    engine = engine_of(request)
    rnd = events.get_round(engine, event, n)
    draw = {row.table: row for row in hall.draw(engine, event, n)}
    outcomes = hall.board_outcomes(engine, event, n, b)  # the store's: what was counted
    changed = hall.corrections(engine, event, n)
    records = stored_rooms(engine, event, n)
    tables = []
    for m in rnd.matches:
        row = next(r for r in events.match_boards(engine, event, n, m.table) if r.board == b)
        both = all(
            records.get((n, m.table, b, room)) and records[(n, m.table, b, room)].record
            for room in ("open", "closed")
        )
        tables.append({
            "table": m.table, "draw": draw.get(m.table), "row": row, "movie": both,
            "open": outcomes.get((m.table, "open")),
            "closed": outcomes.get((m.table, "closed")),
            "corrections": [c for c in changed if (c.table, c.board) == (m.table, b)],
        })
    lang = language_of(request)
    return page(
        request, "public_board.html", event=event, round_no=n, board=b, tables=tables,
        deal=_hands(engine, rnd.board_set, b, lang), released=True,
        director_view=not hall.board_released(engine, event, n, b), zone=_zone(engine, event),
    )


@router.get("/e/{event}/round/{n}/board/{b}/table/{t}")
def board_movie(
    request: Request, event: str, n: RoundNo, b: Number, t: Number
) -> Response:
    """The play-by-play of board ``b`` at table ``t`` (the review's board page), released
    boards only (the director: any), linking the other language at the same step and the
    table's previous and next released boards."""
    held = _held(request, event, n, b)
    if held is not None:
        return held
    engine = engine_of(request)
    records = stored_rooms(engine, event, n)
    texts = [records.get((n, t, b, room)) for room in ("open", "closed")]
    if not all(s is not None and s.record for s in texts):
        raise hall.HallError(f"table {t} has no play records of board {b} in both rooms",
                             kind="not_found")
    rnd = events.get_round(engine, event, n)
    match = next(m for m in rnd.matches if m.table == t)
    comp = compare_board([loads(s.record)[0] for s in texts if s and s.record],
                         events.event_rules(engine, event))
    lang = language_of(request)
    tr = translator(lang)
    base = f"/e/{pathpart(event)}/round/{n}"
    # the table's previous and next board that the public may open, with both rooms' plays
    def has_movie(x: int) -> bool:
        return all((s := records.get((n, t, x, room))) is not None and bool(s.record)
                   for room in ("open", "closed"))

    shown = sorted({x for x in released_of(engine, event, n, rnd.boards) if has_movie(x)} | {b})
    at = shown.index(b)
    neighbours = [(f"{base}/board/{shown[i]}/table/{t}", str(shown[i]))
                  if 0 <= i < len(shown) else None for i in (at - 1, at + 1)]
    html = render_board(
        comp, lang=lang, static="/static/", team_x=match.team_x,
        rules=events.event_rules(engine, event),
        nav=[(f"/e/{pathpart(event)}", event), (base, tr("web.round", round=n)),
             (f"{base}/board/{b}", tr("report.board.title", board=b))],
        switch=language_switch("", lang_url(request, "zh" if lang == "en" else "en"), lang),
        neighbours=neighbours,
    )
    response = HTMLResponse(html)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response
