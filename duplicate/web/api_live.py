"""The director's calls on the live view and on captured boards, over HTTP (Bearer or
the desk's session): the live view's choice (``released`` or ``delayed`` by D minutes),
a spectator link, and a captured board's correction (a play, marked unfinished, its
record taken back). Each call is one library call (``duplicate.capture``); the library
decides and logs, this module only translates (docs/CAPTURE.md, "The director's side").
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from duplicate import capture
from duplicate.web.api import ERRORS, EventName, RoundNo
from duplicate.web.api_models_director import In
from duplicate.web.cards import public_base
from duplicate.web.deps import DirectorName, engine_of, retry_races

router = APIRouter(prefix="/api/events/{event}", tags=["director"], responses={
    **ERRORS, 401: {"description": "The director's login or Bearer password is needed"}})

TableNo = Annotated[int, Path(ge=1, le=10_000, description="The table's number.")]
BoardNo = Annotated[int, Path(ge=1, le=10_000, description="The board's number.")]
Room = Annotated[Literal["open", "closed"], Path(description="The room.")]


class LiveSettingsIn(In):
    """``released``: spectators see a board once released (the default); ``delayed``:
    the spectator link's holders see every captured board ``delay`` minutes late."""

    mode: Literal["released", "delayed"]
    delay: int | None = Field(None, ge=0, le=1440, description="Minutes (kept when absent).")


class LiveSettingsOut(BaseModel):
    event: str
    mode: str
    delay: int
    has_link: bool


class WatchLinkOut(BaseModel):
    """The spectator link (shown only here; a new one voids the earlier)."""

    token: str
    url: str


class PlayIn(In):
    """Action ``seq`` becomes ``seat`` playing ``cards`` (none: a pass), with why."""

    seq: int = Field(ge=1, le=10_000)
    seat: str = Field(min_length=1, max_length=1, examples=["N"])
    cards: list[Annotated[str, Field(max_length=3)]] = Field(default=[], max_length=27)
    type: str | None = Field(default=None, max_length=20)
    rank: str | None = Field(default=None, max_length=2)
    reason: str = Field(min_length=1, max_length=2000)


class ReasonIn(In):
    reason: str = Field(min_length=1, max_length=2000)


class CorrectedOut(BaseModel):
    """What the call did: kind (play, unfinished, withdrawn), before and after, the
    board's state now."""

    kind: str
    seq: int | None
    before: str
    after: str
    state: str


@router.get("/live-settings", response_model=LiveSettingsOut)
def get_live_settings(request: Request, by: DirectorName, event: EventName) -> LiveSettingsOut:
    """The event's live view as chosen."""
    return LiveSettingsOut.model_validate(
        capture.live_settings(engine_of(request), event).to_dict())


@router.put("/live-settings", response_model=LiveSettingsOut)
@retry_races
def put_live_settings(request: Request, by: DirectorName, event: EventName,
                      body: LiveSettingsIn) -> LiveSettingsOut:
    """Choose the live view (logged)."""
    done = capture.set_live(engine_of(request), event, body.mode, body.delay, by)
    return LiveSettingsOut.model_validate(done.to_dict())


@router.post("/watch-link", response_model=WatchLinkOut, status_code=201)
@retry_races
def post_watch_link(request: Request, by: DirectorName, event: EventName) -> WatchLinkOut:
    """A new spectator link (the earlier one stops working); it opens the live view
    while the event's mode is ``delayed``. Never printed on a table card."""
    token = capture.issue_watch_link(engine_of(request), event, by)
    return WatchLinkOut(token=token, url=f"{public_base(request)}/w/{token}")


_BOARD = "/rounds/{n}/tables/{t}/rooms/{room}/boards/{b}"


@router.post(_BOARD + "/correct-play", response_model=CorrectedOut)
@retry_races
def post_correct_play(request: Request, by: DirectorName, event: EventName, n: RoundNo,
                      t: TableNo, room: Room, b: BoardNo, body: PlayIn) -> CorrectedOut:
    """Correct a captured play (every later action must stay legal; logged)."""
    done = capture.correct_play(engine_of(request), event, n, t, room, b, body.seq,
                                body.seat, body.cards, by, body.reason, ctype=body.type,
                                rank=body.rank)
    return CorrectedOut.model_validate(done.to_dict())


@router.post(_BOARD + "/mark-unfinished", response_model=CorrectedOut)
@retry_races
def post_mark_unfinished(request: Request, by: DirectorName, event: EventName, n: RoundNo,
                         t: TableNo, room: Room, b: BoardNo, body: ReasonIn) -> CorrectedOut:
    """A captured deal still being played stops there: the room's result is unfinished."""
    done = capture.mark_unfinished(engine_of(request), event, n, t, room, b, by, body.reason)
    return CorrectedOut.model_validate(done.to_dict())


@router.post(_BOARD + "/take-back", response_model=CorrectedOut)
@retry_races
def post_take_back(request: Request, by: DirectorName, event: EventName, n: RoundNo,
                   t: TableNo, room: Room, b: BoardNo, body: ReasonIn) -> CorrectedOut:
    """An ended captured deal's record no longer counts (the room is unfinished until
    the director rules)."""
    done = capture.take_back(engine_of(request), event, n, t, room, b, by, body.reason)
    return CorrectedOut.model_validate(done.to_dict())
