"""The director's desk: the pages a tournament director runs the hall from.

Pages (every one needs the director's session, else a redirect to ``/desk/login?next=…``):

* ``GET /desk/login``: the login form (``POST /desk/login`` is :mod:`duplicate.web.auth`'s);
* ``GET /desk``: the events, and a form creating one (with its teams);
* ``GET /desk/e/{event}``: teams and their players, adding a team, the rounds, check-in
  (签到) for the latest paired round, pairing the next round (配对), assigning boards (发牌);
* the round's desk and its table cards: :mod:`duplicate.web.pages.desk_round` (included here), its
  further actions :mod:`duplicate.web.pages.desk_actions` (reports that wait, unfinished and
  released boards, the clock, late rulings, one table's cards);
* teams and players changed, records imported, the event deleted, board sets and seeds:
  :mod:`duplicate.web.pages.desk_admin` (included here);
* the standings and the order they rank by, the HTML report, the event's export, hand
  records, a set's seed revealed and verified: :mod:`duplicate.web.pages.desk_outputs`.

Every form posts the session's CSRF token (field ``csrf``, checked by
:func:`duplicate.web.deps.check_csrf` before anything else is read) and follows Post/Redirect/Get:
the handler makes one library call (one transaction: a refusal leaves the database as it
was), then redirects to the page with a short message (a "flash", kept in a cookie for
one page) said in the language of the page that shows it. The desk holds no rule, score,
pairing or state logic: it reads forms and calls :mod:`duplicate.events` and
:mod:`duplicate.hall`; what they refuse is shown as they say it.

Event names travel in the path, percent-encoded (:func:`q`); a name holding ``/`` cannot
(the router decodes ``%2F`` before matching), so the desk refuses to create one.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import Response
from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.boards import list_sets
from duplicate.dealing import parse_seed_file
from duplicate.i18n import Term
from duplicate.jobs.stored import progress as analysis_progress
from duplicate.limits import checked_name
from duplicate.records import Correction
from duplicate.variants import ruleset_of, variant_names
from duplicate.web.auth import safe_next
from duplicate.web.deps import director_or_none, engine_of
from duplicate.web.pages.desk_actions import router as _actions_router
from duplicate.web.pages.desk_admin import router as _admin_router
from duplicate.web.pages.desk_base import (
    DeskInput,
    Flash,
    act,
    chief_of,
    event_url,
    float_of,
    int_of,
    show,
    text_of,
    to_login,
)
from duplicate.web.pages.desk_capture import router as _capture_router
from duplicate.web.pages.desk_outputs import router as _outputs_router
from duplicate.web.pages.desk_round import router as _round_router

router: APIRouter = APIRouter(include_in_schema=False)

@router.get("/desk/login")
def login_page(request: Request, next: str = "/desk") -> Response:  # noqa: A002
    """The director's login form (posts to ``/desk/login``, :mod:`duplicate.web.auth`)."""
    return show(request, "desk_login.html", next=safe_next(next),
                logged_in=director_or_none(request) is not None)


@router.get("/desk")
def desk_home(request: Request) -> Response:
    """The events, with their current round, and the form that creates one."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    rows = [(e, hall.current_round(engine, e.name)) for e in events.list_events(engine)]
    return show(request, "desk_home.html", events=rows, variant_names=variant_names())


@router.post("/desk/events")
def create_event(
    request: Request, csrf: str = Form(""), name: str = Form(""), format: str = Form("swiss"),  # noqa: A002
    rounds: str = Form(""), boards_per_round: str = Form(""), scale: str = Form("wdl"),
    unfinished: str = Form("average"), teams: str = Form(""),
    time_zone: str = Form("Asia/Shanghai"), language: str = Form("en"),
    tiebreaks: str = Form("jiangsu"), bye_points: str = Form(""), bye_won: str = Form("1"),
    variants: str = Form(""),
) -> Response:
    """Create an event (and enter its teams, one transaction): ``events.create_event``;
    its rule variants (``NAME=VALUE`` lines, as ``--variant``) read by
    ``variants.ruleset_of``."""
    title = (name or "").strip()

    def action(engine: Engine, who: str) -> Flash:
        if not title:
            raise DeskInput("desk.error.required", field={"t": "desk.field.name"})
        if "/" in title:
            raise DeskInput("desk.error.slash")
        entered = (events.parse_teams_file(teams, Term("teams", "desk.source.teams"))
                   if text_of(teams) else [])
        entered = [(checked_name(t, "team"), [checked_name(p, "player") for p in ps])
                   for t, ps in entered]
        info = events.create_event(
            engine, checked_name(title, "the event name"), fmt=format, scale=scale, unfinished=unfinished, teams=entered,
            rounds=int_of(rounds, "desk.field.rounds", True) or 0,
            boards_per_round=int_of(boards_per_round, "desk.field.boards_per_round", True) or 0,
            time_zone=time_zone, lang=language, tiebreaks=tiebreaks,
            bye_points=float_of(bye_points, "desk.field.bye_points"), bye_won=chief_of(bye_won),
            rules=ruleset_of(line for line in variants.splitlines() if line.strip()),
        )
        return "desk.flash.created", {"event": info.name}

    return act(request, csrf, "/desk", action,
               success=lambda flash: event_url(str(flash[1]["event"])))


# --- an event: teams, rounds, check-in, pairing, boards -----------------------------------


@router.get("/desk/e/{event}")
def event_page(request: Request, event: str) -> Response:
    """An event's teams, rounds (with their boards and clocks), check-in for the latest
    paired round, the analysis of its records (how many analysed, how many pending), and
    the forms that add a team, pair a round and assign boards."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    numbers = sorted({m.round for m in events.list_matches(engine, info.name)})
    rounds = [
        (events.get_round(engine, info.name, n), hall.round_clock(engine, info.name, n))
        for n in numbers
    ]
    latest = numbers[-1] if numbers else None
    arrivals = hall.arrivals(engine, info.name, latest) if latest is not None else []
    sets = [s.name for s in list_sets(engine)]
    own = events.event_board_set(engine, info.name)
    return show(
        request, "desk_event.html", info=info, teams=events.list_teams(engine, info.name),
        rounds=rounds, latest=latest, arrivals=arrivals, sets=sets,
        default_set=own or "",
        unassigned=[r.number for r, _ in rounds if not r.boards],
        director_minutes=events.director_minutes(engine, info.name),
        withdrawn=events.withdrawals(engine, info.name),
        published=any(clock.phase == "published" for _, clock in rounds),
        analysis=analysis_progress(engine, info.name),
    )


@router.post("/desk/e/{event}/teams")
def add_team(
    request: Request, event: str, csrf: str = Form(""), name: str = Form(""),
    players: str = Form(""),
) -> Response:
    """Enter a team with its 4 to 6 players (``events.add_team``; default pairs)."""

    def action(engine: Engine, who: str) -> Flash:
        title = text_of(name)
        if title is None:
            raise DeskInput("desk.error.required", field={"t": "desk.field.team"})
        people = [checked_name(p.strip(), "player")
                  for p in players.replace("\n", ",").replace("，", ",").split(",") if p.strip()]
        info = events.add_team(engine, event, checked_name(title, "team"), people)
        return "desk.flash.team_added", {"team": info.name}

    return act(request, csrf, event_url(event), action)


def lineups_of(text: str) -> dict[str, tuple[int, int]]:
    """``TEAM=OPEN,CLOSED`` lines (as ``guandan event pair-round --lineup``)."""
    chosen: dict[str, tuple[int, int]] = {}
    for line in text.splitlines():
        item = line.strip()
        if not item:
            continue
        team, _, nums = item.rpartition("=")
        try:
            a, b = (int(x) for x in nums.split(","))
        except ValueError:
            raise DeskInput("desk.error.lineup", line=item[:80]) from None
        chosen[team.strip()] = (a, b)
    return chosen


@router.post("/desk/e/{event}/pair")
def pair_round(request: Request, event: str, csrf: str = Form(""),
               lineups: str = Form("")) -> Response:
    """Pair the next round and seat its matches (``events.pair_round``)."""

    def action(engine: Engine, who: str) -> Flash:
        rnd = events.pair_round(engine, event, lineups_of(lineups) or None)
        return "desk.flash.paired", {"n": rnd.number}

    return act(request, csrf, event_url(event), action)


@router.post("/desk/e/{event}/boards")
def assign_boards(
    request: Request, event: str, csrf: str = Form(""), round_no: str = Form(""),
    set_name: str = Form(""), first: str = Form(""), seed_text: str = Form(""),
    seed_file: Annotated[UploadFile | None, File()] = None, delayed: str = Form(""),
    schedule: str = Form("fixed"), reuse: str = Form(""),
) -> Response:
    """Give a round its boards (``events.assign_boards``): a stored set, or the event's
    seed file (uploaded or pasted; never shown again, never logged)."""
    upload = seed_file.file.read(64 * 1024) if seed_file is not None else b""

    def action(engine: Engine, who: str) -> Flash:
        number = int_of(round_no, "desk.field.round", True) or 0
        data = upload or (seed_text.strip().encode("utf-8") if seed_text.strip() else b"")
        if bool(text_of(set_name)) == bool(data):
            raise DeskInput("desk.error.seed")
        seed = parse_seed_file(data, Term("the seed file", "desk.source.seed")) if data else None
        reason = text_of(reuse)
        rnd = events.assign_boards(
            engine, event, number, set_name=text_of(set_name), seed=seed,
            schedule=text_of(schedule) or "fixed", first=int_of(first, "desk.field.first"),
            delayed=text_of(delayed),
            reuse=Correction(reason=reason, by=who) if reason else None,
        )
        return "desk.flash.boards", {"n": rnd.number, "first": rnd.boards[0],
                                     "last": rnd.boards[-1], "set": rnd.board_set or ""}

    return act(request, csrf, event_url(event), action)


# the round's desk and its table cards, its actions, the event's further actions; the
# standings, the report, the export, hand records and seeds: one router, in this order
router.include_router(_round_router)
router.include_router(_actions_router)
router.include_router(_admin_router)
router.include_router(_outputs_router)
router.include_router(_capture_router)
