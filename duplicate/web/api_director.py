"""The director's JSON API: every action of the desk, for scripts and the desk's pages.

Authenticated by ``Authorization: Bearer <director password>`` (no CSRF needed) or by the
desk's session cookie with the header ``X-CSRF-Token`` on every write
(:func:`duplicate.web.auth.director_dep`). Each endpoint is one library call with ``by="director"``;
the library logs who, when and why. The rest of the director's actions (reports that wait,
boards unfinished and released, the clock, teams and players, imports, board sets, seeds,
deleting an event) are in :mod:`duplicate.web.api_director_actions`, included in this router.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import PlainTextResponse

from duplicate import events, hall
from duplicate.dealing import parse_seed_file
from duplicate.i18n import phrase
from duplicate.i18n.stored import action_said
from duplicate.limits import checked_name
from duplicate.records import Correction
from duplicate.web.api import ERRORS, EventName, RoundNo, event_out, round_out, team_out
from duplicate.web.api_director_actions import router as _actions_router
from duplicate.web.api_models import (
    ClockOut,
    EventOut,
    ReportOut,
    RoomStatusOut,
    RoundOut,
    TeamOut,
    out,
)
from duplicate.web.api_models_director import (
    ArrivalOut,
    BoardsIn,
    CardOut,
    CardsIn,
    CheckInIn,
    CorrectionIn,
    CorrectionOut,
    DecisionIn,
    EventIn,
    LogOut,
    PairIn,
    RulingIn,
    RulingOut,
    SettleIn,
    StartIn,
    TeamIn,
)
from duplicate.web.cards import card_json, public_base
from duplicate.web.context import language_of
from duplicate.web.deps import DirectorName, engine_of, retry_races
from duplicate.web.render import attachment
from engine.ruleset import Ruleset

router = APIRouter(
    prefix="/api", tags=["director"], responses={
        **ERRORS, 401: {"description": "The director's login or Bearer password is needed"},
    },
)

RoundQuery = Query(None, ge=1, alias="round", description="Only this round.")


def _team(name: str, players: list[str]) -> tuple[str, list[str]]:
    return checked_name(name, "team"), [checked_name(p, "player") for p in players]


@router.post("/events", response_model=EventOut, status_code=201)
@retry_races
def create_event(request: Request, by: DirectorName, body: EventIn) -> EventOut:
    """Create an event (and enter its teams, in one transaction)."""
    unknown = sorted(set(body.variants) - {f.name for f in fields(Ruleset)})
    if unknown:
        raise HTTPException(422, phrase("cli.err.variant_unknown", names=", ".join(unknown)))
    try:
        rules = Ruleset.from_dict(dict(body.variants))
    except (TypeError, ValueError) as exc:
        raise HTTPException(422, f"variants: {exc}") from None
    engine = engine_of(request)
    info = events.create_event(
        engine, checked_name(body.name, "the event name"), seed=body.seed, scale=body.scale,
        fmt=body.format, boards_per_round=body.boards_per_round, rounds=body.rounds,
        unfinished=body.unfinished, bye_points=body.bye_points, bye_won=body.bye_won,
        teams=[_team(t.name, t.players) for t in body.teams], rules=rules,
        time_zone=body.time_zone,
        director_minutes=body.director_minutes, lang=body.lang, tiebreaks=body.tiebreaks,
    )
    return event_out(engine, info.name)


@router.post("/events/{event}/teams", response_model=TeamOut, status_code=201)
@retry_races
def add_team(request: Request, by: DirectorName, body: TeamIn, event: EventName) -> TeamOut:
    """Enter a team (before the first round is paired)."""
    name, players = _team(body.name, body.players)
    pairs = (
        [(checked_name(a, "player"), checked_name(b, "player")) for a, b in body.pairs]
        if body.pairs else None
    )
    return team_out(events.add_team(engine_of(request), event, name, players, pairs))


@router.post("/events/{event}/rounds", response_model=RoundOut, status_code=201)
@retry_races
def pair_round(
    request: Request, by: DirectorName, event: EventName, body: PairIn | None = None,
) -> RoundOut:
    """Pair the next round (Swiss or round robin, as the event says) and seat it."""
    lineups = dict(body.lineups) if body is not None else {}
    return round_out(events.pair_round(engine_of(request), event, lineups or None))


@router.post("/events/{event}/rounds/{n}/boards", response_model=RoundOut)
@retry_races
def assign_boards(
    request: Request, by: DirectorName, body: BoardsIn, event: EventName, n: RoundNo,
) -> RoundOut:
    """Give the round its boards: a stored set, or the event's set from a seed file."""
    if (body.set_name is None) == (body.seed_file is None):
        raise HTTPException(422, phrase("lw.err.set_or_seed"))
    seed = (
        parse_seed_file(body.seed_file.encode("utf-8"), "seed_file")
        if body.seed_file is not None else None
    )
    reuse = Correction(reason=body.reuse_reason, by=by) if body.reuse_reason else None
    return round_out(events.assign_boards(
        engine_of(request), event, n, set_name=body.set_name, seed=seed,
        schedule=body.schedule, first=body.first, delayed=body.delayed, reuse=reuse,
    ))


@router.post("/events/{event}/rounds/{n}/cards", response_model=list[CardOut], status_code=201)
@retry_races
def issue_cards(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
    body: CardsIn | None = None,
) -> list[CardOut]:
    """Issue the round's table tokens (earlier ones become void): one card per table and
    room, with West's and North's URLs. With ``{"table": n}`` only that table's (a lost
    card: the other tables' stay valid). The tokens are shown only here."""
    base = public_base(request)
    table = body.table if body is not None else None
    cards = hall.issue_tokens(engine_of(request), event, n, by, table=table)
    return [CardOut(**card_json(c, base)) for c in cards]


@router.post("/events/{event}/rounds/{n}/start", response_model=ClockOut)
@retry_races
def start_round(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
    body: StartIn | None = None,
) -> ClockOut:
    """Start the round's clock (50 minutes, warning 5 minutes before the end, by default)."""
    b = body or StartIn.model_validate({})
    return out(ClockOut, hall.start_round(
        engine_of(request), event, n, by, minutes=b.minutes,
        warning_minutes=b.warning_minutes, correction_minutes=b.correction_minutes,
    ))


@router.post("/events/{event}/rounds/{n}/checkins", response_model=ArrivalOut)
@retry_races
def check_in(
    request: Request, by: DirectorName, body: CheckInIn, event: EventName, n: RoundNo,
) -> ArrivalOut:
    """Check a team in (签到); again changes nothing."""
    return out(ArrivalOut, hall.check_in(engine_of(request), event, n, body.team, by))


@router.get("/events/{event}/rounds/{n}/arrivals", response_model=list[ArrivalOut])
def get_arrivals(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
) -> list[ArrivalOut]:
    """Every team of the round: checked in when, late by how much, what it costs."""
    return [out(ArrivalOut, a) for a in hall.arrivals(engine_of(request), event, n)]


@router.get("/events/{event}/rounds/{n}/status", response_model=list[RoomStatusOut])
def get_status(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
) -> list[RoomStatusOut]:
    """Every table and room, every board: not in, reported, confirmed, disputed, ruled."""
    return [out(RoomStatusOut, r) for r in hall.round_status(engine_of(request), event, n)]


@router.get("/events/{event}/disputes", response_model=list[ReportOut])
def get_disputes(
    request: Request, by: DirectorName, event: EventName, round_no: int | None = RoundQuery,
) -> list[ReportOut]:
    """The disputed reports waiting for the director."""
    return [out(ReportOut, r) for r in hall.disputes(engine_of(request), event, round_no)]


@router.post("/events/{event}/disputes/{report_id}/settle", response_model=ReportOut)
@retry_races
def settle(
    request: Request, by: DirectorName, body: SettleIn, report_id: int, event: EventName,
) -> ReportOut:
    """Settle a dispute with a finishing order, an N-S result or 'unfinished' (logged)."""
    return out(ReportOut, hall.settle_dispute(
        engine_of(request), event, report_id, by, body.reason, finish=body.finish,
        ns_result=body.ns_result, unfinished=body.unfinished, chief=body.chief,
    ))


@router.post("/events/{event}/rounds/{n}/rulings", response_model=RulingOut, status_code=201)
@retry_races
def record_ruling(
    request: Request, by: DirectorName, body: RulingIn, event: EventName, n: RoundNo,
) -> RulingOut:
    """Record a ruling (判罚): warning, violation, foul, late arrival or forfeit, and its
    effect (none, an assigned room result, a conceded board, a forfeited match)."""
    return out(RulingOut, hall.record_ruling(
        engine_of(request), event, n, body.table, body.category, body.effect, by,
        body.reason, team=body.team, board=body.board, room=body.room,
        ns_result=body.ns_result, chief=body.chief,
    ))


@router.get("/events/{event}/rulings", response_model=list[RulingOut])
def get_rulings(
    request: Request, by: DirectorName, event: EventName, round_no: int | None = RoundQuery,
) -> list[RulingOut]:
    """Every ruling of the event (or of one round)."""
    return [out(RulingOut, r) for r in hall.rulings(engine_of(request), event, round_no)]


@router.post("/events/{event}/rounds/{n}/close", response_model=ClockOut)
@retry_races
def close_round(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
) -> ClockOut:
    """Close and score the round (every board in, no dispute open); the correction
    window starts."""
    return out(ClockOut, hall.close_round(engine_of(request), event, n, by))


@router.post("/events/{event}/rounds/{n}/publish", response_model=ClockOut)
@retry_races
def publish_round(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
) -> ClockOut:
    """Publish (公示) a closed round: its results are no longer provisional."""
    return out(ClockOut, hall.publish_round(engine_of(request), event, n, by))


@router.post("/events/{event}/rounds/{n}/corrections", response_model=CorrectionOut)
@retry_races
def correct(
    request: Request, by: DirectorName, body: CorrectionIn, event: EventName,
    n: RoundNo,
) -> CorrectionOut:
    """Set a room's N-S result on a board (logged with who and why). After the directors'
    limit on a published round: 403 unless ``chief`` (the chief director's override,
    logged as such). The same ruling again changes nothing: ``changed`` false, nothing
    logged."""
    changed = hall.director_correct(
        engine_of(request), event, n, body.table, body.board, body.room, body.ns_result, by,
        body.reason, finish=body.finish, chief=body.chief,
    )
    return CorrectionOut(
        round=n, table=body.table, board=body.board, room=body.room,
        ns_result=body.ns_result, by=by, reason=body.reason, finish=body.finish,
        changed=changed,
    )


@router.get("/events/{event}/requests", response_model=list[ReportOut])
def get_requests(
    request: Request, by: DirectorName, event: EventName, round_no: int | None = RoundQuery,
) -> list[ReportOut]:
    """The tables' requests waiting on the desk: what a table sent after its round was
    published (公示), with the table's own reason (``correction``)."""
    return [out(ReportOut, r) for r in hall.table_requests(engine_of(request), event, round_no)]


@router.post("/events/{event}/requests/{report_id}/accept", response_model=ReportOut)
@retry_races
def accept_request(
    request: Request, by: DirectorName, body: DecisionIn, report_id: int, event: EventName,
) -> ReportOut:
    """Accept a table's request (sent after publication): it counts, logged as the
    director's correction with the table's reason, and is shown publicly as a correction."""
    return out(ReportOut, hall.accept_request(engine_of(request), event, report_id, by,
                                              body.reason, chief=body.chief))


@router.post("/events/{event}/requests/{report_id}/dismiss", response_model=ReportOut)
@retry_races
def dismiss_request(
    request: Request, by: DirectorName, body: DecisionIn, report_id: int, event: EventName,
) -> ReportOut:
    """Dismiss a table's request (sent after publication): no result changes (logged)."""
    return out(ReportOut, hall.dismiss_request(engine_of(request), event, report_id, by,
                                               body.reason))


@router.get("/events/{event}/rounds/{n}/export", response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {}},
                             "description": "The round's records as .gdn text"}})
def export_round(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
    unreleased: bool = Query(
        False, description="Also boards not every table has in (logged, with reason)."
    ),
    reason: str | None = Query(None, max_length=500),
) -> PlainTextResponse:
    """The round's play records as one ``.gdn`` text (released boards; with
    ``unreleased=true`` and a ``reason``, every board: logged), followed by the room
    results no record gives (finishing orders the tables reported, the director's
    results, unfinished boards) as ``;`` comment lines that say so."""
    change = None
    if unreleased:
        if not reason:
            raise HTTPException(422, phrase("lw.err.unreleased_reason"))
        change = Correction(reason=reason, by=by)
    text = events.export_records(engine_of(request), event, n, unreleased=change,
                                 results=True)
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8",
                             headers=attachment(events.export_name(event, n)))


@router.get("/events/{event}/export", response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {}},
                             "description": "The event's records as .gdn text"}})
def export_event(
    request: Request, by: DirectorName, event: EventName,
    unreleased: bool = Query(
        False, description="Also boards not every table has in (logged, with reason)."
    ),
    reason: str | None = Query(None, max_length=500),
) -> PlainTextResponse:
    """Every round's records as one ``.gdn`` text, as the round's export gives them (its
    byes and withdrawals in the records' tags, docs/FORMAT.md)."""
    change = None
    if unreleased:
        if not reason:
            raise HTTPException(422, phrase("lw.err.unreleased_reason"))
        change = Correction(reason=reason, by=by)
    text = events.export_records(engine_of(request), event, unreleased=change, results=True)
    return PlainTextResponse(text, media_type="text/plain; charset=utf-8",
                             headers=attachment(events.export_name(event)))


@router.get("/events/{event}/log", response_model=LogOut)
def get_log(request: Request, by: DirectorName, event: EventName) -> LogOut:
    """Every change of the event, oldest first: who, when, why."""
    engine = engine_of(request)
    results: list[dict[str, Any]] = events.list_corrections(engine, event)
    numbers = sorted({m.round for m in events.list_matches(engine, event)})
    reports = [
        status.report
        for n in numbers for room in hall.round_status(engine, event, n)
        for status in room.boards if status.report is not None
    ]
    reports.sort(key=lambda r: (r.reported_at, r.id))
    lang = language_of(request)  # the log's words in the asker's language; action stays a key
    admin = [{**e, "action_text": action_said(e["action"], lang)}
             for e in events.admin_log(engine, event, lang)]
    return LogOut(
        admin=admin, results=results,
        history=events.result_log(engine, event),
        rulings=[out(RulingOut, r) for r in hall.rulings(engine, event)],
        reports=[out(ReportOut, r) for r in reports],
    )


# the director's further actions (duplicate/web/api_director_actions.py), after these
router.include_router(_actions_router)
