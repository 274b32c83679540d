"""The director's API, further actions: everything the desk does, for scripts.

Included in :mod:`duplicate.web.api_director`'s router (same authentication: Bearer password, or
the desk's session with ``X-CSRF-Token`` on writes). Each endpoint is one library call
with ``by="director"``; the library logs who, when and why.

* reports that wait for North: list, confirm, dismiss (a disputed one too);
* a board unfinished with its reason, a board released;
* the clock paused, resumed, moved; the ruling a late team's lateness calls for;
* the directors' limit after a round's publication (``…/director-minutes``); every body
  that changes a result takes ``chief`` (the chief director's override of that limit);
* one table's cards issued again (``POST …/cards`` with ``{"table": n}``: in
  :mod:`duplicate.web.api_director`);
* teams renamed, withdrawn; players renamed, substituted; the event's time zone changed;
* ``.gdn`` records imported; the event deleted (its name again as a safeguard);
* the stored board sets; a new secret seed.
"""

from __future__ import annotations

import secrets

from fastapi import APIRouter, HTTPException, Request

from duplicate import events, hall
from duplicate.boards import list_sets
from duplicate.dealing import SECRET_BYTES, parse_seed_file, seed_file_bytes
from duplicate.i18n import phrase
from duplicate.limits import checked_name
from duplicate.records import Correction
from duplicate.web.api import EventName, RoundNo
from duplicate.web.api_models import ReportOut, out
from duplicate.web.api_models_director import (
    ChangeOut,
    ConfirmIn,
    DeleteIn,
    DeskClockOut,
    DirectorLimitIn,
    DirectorLimitOut,
    ImportIn,
    ImportOut,
    LateIn,
    MoveIn,
    ReasonIn,
    ReleaseIn,
    ReleaseOut,
    RenameIn,
    RulingOut,
    SeedOut,
    SetOut,
    SubstituteIn,
    TiebreaksIn,
    TimeZoneIn,
    UnfinishedIn,
    UnfinishedOut,
    WithdrawIn,
)
from duplicate.web.deps import DirectorName, engine_of, retry_races

router = APIRouter()


@router.get("/events/{event}/rounds/{n}/pending", response_model=list[ReportOut])
def get_pending(request: Request, by: DirectorName, event: EventName,
                n: RoundNo) -> list[ReportOut]:
    """The reports of the round that wait for North (they keep the round from closing)."""
    return [out(ReportOut, r) for r in hall.pending_reports(engine_of(request), event, n)]


@router.post("/events/{event}/reports/{report_id}/confirm", response_model=ReportOut)
@retry_races
def confirm_report(request: Request, by: DirectorName, body: ConfirmIn, event: EventName,
                   report_id: int) -> ReportOut:
    """Confirm a report that waits for North: it counts (the director its author)."""
    return out(ReportOut, hall.director_confirm(engine_of(request), event, report_id, by,
                                                body.reason, chief=body.chief))


@router.post("/events/{event}/reports/{report_id}/dismiss", response_model=ReportOut)
@retry_races
def dismiss_report(request: Request, by: DirectorName, body: ReasonIn, event: EventName,
                   report_id: int) -> ReportOut:
    """Dismiss a report that waits for North, or a disputed one: it does not count; the
    table may report the board again."""
    return out(ReportOut, hall.director_dismiss(engine_of(request), event, report_id, by,
                                                body.reason))


@router.post("/events/{event}/rounds/{n}/unfinished", response_model=UnfinishedOut)
@retry_races
def record_unfinished(request: Request, by: DirectorName, body: UnfinishedIn,
                      event: EventName, n: RoundNo) -> UnfinishedOut:
    """Record a board unfinished (time, withdrawal, ...) in one room or both; it is scored
    by the event's rule. Replaces what was in (logged as the director's)."""
    rooms = events.ROOMS if body.room == "both" else (body.room,)
    count = events.record_unfinished(
        engine_of(request), event, n, body.table, body.board, body.reason, rooms,
        Correction(body.reason, by), chief=body.chief,
    )
    return UnfinishedOut(round=n, table=body.table, board=body.board, rooms=count)


@router.post("/events/{event}/rounds/{n}/release", response_model=ReleaseOut)
@retry_races
def release_board(request: Request, by: DirectorName, body: ReleaseIn, event: EventName,
                  n: RoundNo) -> ReleaseOut:
    """Release a board to the players before every table has it in (logged)."""
    events.release_board(engine_of(request), event, n, body.board, by, body.reason)
    return ReleaseOut(round=n, board=body.board)


@router.post("/events/{event}/rounds/{n}/clock/pause", response_model=DeskClockOut)
@retry_races
def pause_clock(request: Request, by: DirectorName, body: ReasonIn, event: EventName,
                n: RoundNo) -> DeskClockOut:
    """Pause the round's clock (its end moves on while paused); again changes nothing."""
    return out(DeskClockOut, hall.pause_clock(engine_of(request), event, n, by, body.reason))


@router.post("/events/{event}/rounds/{n}/clock/resume", response_model=DeskClockOut)
@retry_races
def resume_clock(request: Request, by: DirectorName, body: ReasonIn, event: EventName,
                 n: RoundNo) -> DeskClockOut:
    """Let a paused clock run again; again changes nothing."""
    return out(DeskClockOut, hall.resume_clock(engine_of(request), event, n, by, body.reason))


@router.post("/events/{event}/rounds/{n}/clock/move", response_model=DeskClockOut)
@retry_races
def move_clock(request: Request, by: DirectorName, body: MoveIn, event: EventName,
               n: RoundNo) -> DeskClockOut:
    """Move the round's end by ``minutes`` (positive: more time)."""
    return out(DeskClockOut, hall.move_clock(engine_of(request), event, n, body.minutes, by,
                                             body.reason))


@router.get("/events/{event}/rounds/{n}/late", response_model=dict[str, str])
def late_due(request: Request, by: DirectorName, event: EventName, n: RoundNo) -> dict[str, str]:
    """The ruling each late team's lateness calls for now and has not had: team ->
    ``conceded`` (the first board) or ``forfeit`` (the round)."""
    return hall.late_rulings_due(engine_of(request), event, n)


@router.post("/events/{event}/rounds/{n}/late", response_model=RulingOut, status_code=201)
@retry_races
def rule_late(request: Request, by: DirectorName, body: LateIn, event: EventName,
              n: RoundNo) -> RulingOut:
    """Record the ruling the team's lateness calls for now (409 when none is due; 403 after
    the directors' limit on a published round unless ``chief``)."""
    return out(RulingOut, hall.rule_late(engine_of(request), event, n, body.team, by,
                                         chief=body.chief, expect=body.effect))


@router.put("/events/{event}/director-minutes", response_model=DirectorLimitOut)
@retry_races
def set_director_minutes(request: Request, by: DirectorName, body: DirectorLimitIn,
                         event: EventName) -> DirectorLimitOut:
    """The chief director sets how long after a round's publication the directors may
    change its results (``null``: no limit; logged with who and why)."""
    before = events.set_director_minutes(engine_of(request), event, body.minutes, by,
                                         body.reason)
    return DirectorLimitOut(event=event, minutes=body.minutes, before=before)


@router.get("/events/{event}/director-minutes", response_model=DirectorLimitOut)
def get_director_minutes(request: Request, by: DirectorName,
                         event: EventName) -> DirectorLimitOut:
    """The event's directors' limit after a round's publication (``null``: none)."""
    minutes = events.director_minutes(engine_of(request), event)
    return DirectorLimitOut(event=event, minutes=minutes, before=minutes)


def _change(action: str, event: str, detail: str, by: str, reason: str) -> ChangeOut:
    return ChangeOut(action=action, event=event, detail=detail, by=by, reason=reason)


@router.post("/events/{event}/teams/rename", response_model=ChangeOut)
@retry_races
def rename_team(request: Request, by: DirectorName, body: RenameIn,
                event: EventName) -> ChangeOut:
    """Fix a team's name (logged)."""
    new = checked_name(body.new, "team")
    events.rename_team(engine_of(request), event, body.old, new, by=by, reason=body.reason)
    return _change("rename team", event, f"{body.old} -> {new}", by, body.reason)


@router.post("/events/{event}/time-zone", response_model=ChangeOut)
@retry_races
def set_time_zone(request: Request, by: DirectorName, body: TimeZoneIn,
                  event: EventName) -> ChangeOut:
    """Show the event's times in another IANA time zone from now on (logged)."""
    old = events.set_time_zone(engine_of(request), event, body.time_zone, by=by,
                               reason=body.reason)
    return _change("time zone", event, f"{old} -> {body.time_zone.strip()}", by, body.reason)


@router.post("/events/{event}/tiebreaks", response_model=ChangeOut)
@retry_races
def set_tiebreaks(request: Request, by: DirectorName, body: TiebreaksIn,
                  event: EventName) -> ChangeOut:
    """Rank the event by another order of tie-breaks from now on (logged)."""
    old = events.set_tiebreaks(engine_of(request), event, body.tiebreaks, by=by,
                               reason=body.reason)
    return _change("tiebreaks", event, f"{old} -> {body.tiebreaks}", by, body.reason)


@router.post("/events/{event}/players/rename", response_model=ChangeOut)
@retry_races
def rename_player(request: Request, by: DirectorName, body: RenameIn,
                  event: EventName) -> ChangeOut:
    """Fix a player's name (logged); records imported from now on name the new one."""
    new = checked_name(body.new, "player")
    events.rename_player(engine_of(request), event, body.old, new, by=by, reason=body.reason)
    return _change("rename player", event, f"{body.old} -> {new}", by, body.reason)


@router.post("/events/{event}/substitutions", response_model=ChangeOut)
@retry_races
def substitute(request: Request, by: DirectorName, body: SubstituteIn,
               event: EventName) -> ChangeOut:
    """Player ``new`` plays in ``out``'s place for ``team`` from now on (logged)."""
    new = checked_name(body.new, "player")
    events.substitute_player(engine_of(request), event, body.team, body.out, new, by=by,
                             reason=body.reason)
    return _change("substitute", event, f"{body.team}: {new} for {body.out}", by, body.reason)


@router.post("/events/{event}/withdrawals", response_model=ChangeOut)
@retry_races
def withdraw(request: Request, by: DirectorName, body: WithdrawIn,
             event: EventName) -> ChangeOut:
    """Withdraw a team: no further pairings; its played results stand (logged)."""
    events.withdraw_team(engine_of(request), event, body.team, by=by, reason=body.reason)
    return _change("withdraw", event, body.team, by, body.reason)


@router.post("/events/{event}/import", response_model=ImportOut)
def import_records(request: Request, by: DirectorName, body: ImportIn,
                   event: EventName) -> ImportOut:
    """Import ``.gdn`` texts into the event's matches (each replayed and checked; one
    transaction a text). A different record for a board already in needs
    ``correction_reason``."""
    fix = Correction(body.correction_reason, by) if body.correction_reason else None
    summary = events.import_texts(engine_of(request), event, body.texts, round_no=body.round,
                                  correction=fix, by=by, chief=body.chief)
    return ImportOut(**summary.to_dict())


@router.post("/events/{event}/delete", response_model=ChangeOut)
@retry_races
def delete_event(request: Request, by: DirectorName, body: DeleteIn,
                 event: EventName) -> ChangeOut:
    """Delete the event with its teams, rounds and results (its board sets stay; the log
    keeps the entry). ``confirm`` must be the event's name."""
    if body.confirm != event:
        raise HTTPException(422, phrase("lw.err.confirm_name"))
    events.delete_event(engine_of(request), event, by=by, reason=body.reason)
    return _change("delete event", event, event, by, body.reason)


@router.get("/board-sets", response_model=list[SetOut])
def board_sets(request: Request, by: DirectorName) -> list[SetOut]:
    """The stored board sets (never an unrevealed secret)."""
    return [out(SetOut, s) for s in list_sets(engine_of(request))]


@router.post("/seeds", response_model=SeedOut, status_code=201)
def new_seed(request: Request, by: DirectorName) -> SeedOut:
    """A new secret seed file (256 bits from the operating system), shown only in this
    answer: publish its commitment, keep the file secret until the event is over, give it
    to ``POST …/rounds/{n}/boards`` as ``seed_file``."""
    data = seed_file_bytes(secrets.token_bytes(SECRET_BYTES))
    return SeedOut(seed_file=data.decode("utf-8"), commitment=parse_seed_file(data).commitment)
