"""The device protocol of plays captured at the table (docs/CAPTURE.md), over HTTP.

The recorder's token in the path is the credential. Every call is one library call
(``duplicate.capture``, one transaction); the library decides, this module only
translates. A refusal is the API's error answer with the protocol's ``refusal`` code and
the ``next`` number the board expects (``duplicate.web.errors``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field

from duplicate import capture
from duplicate.capture.base import Ack, BoardState, TableCapture
from duplicate.hall.base import Seat4
from duplicate.limits import INT_MAX
from duplicate.shapes import json_bytes
from duplicate.web.api import ERRORS, EventName, RoundNo, answer
from duplicate.web.api_models_director import CardsIn
from duplicate.web.cards import public_base
from duplicate.web.deps import DirectorName, engine_of, retry_races

router = APIRouter(prefix="/api/capture", responses=ERRORS, tags=["capture"])
#: The director's call: recorders' cards.
desk_router = APIRouter(prefix="/api", tags=["director"], responses={
    **ERRORS, 401: {"description": "The director's login or Bearer password is needed"}})

Token = Annotated[str, Path(min_length=1, max_length=200, description="The recorder's token.")]
BoardNo = Annotated[int, Path(ge=1, le=10_000, description="The board's number.")]


class ActionIn(BaseModel):
    """One action: its number, the seat, the cards (none: a pass), optionally the
    declared reading (a ``.gdn`` type name and rank)."""

    seq: int = Field(ge=1, le=INT_MAX)
    seat: str = Field(min_length=1, max_length=1, examples=["N"])
    cards: list[Annotated[str, Field(max_length=3)]] = Field(default=[], max_length=27)
    type: str | None = Field(default=None, max_length=20, examples=["Straight"])
    rank: str | None = Field(default=None, max_length=2, examples=["7"])


class ReadingsIn(BaseModel):
    """A play being entered: the seat and its cards."""

    seat: str = Field(min_length=1, max_length=1, examples=["N"])
    cards: list[Annotated[str, Field(max_length=3)]] = Field(min_length=1, max_length=27)


class ReadingOut(BaseModel):
    type: str
    rank: str


class ReadingsOut(BaseModel):
    readings: list[ReadingOut]


class UndoIn(BaseModel):
    seq: int = Field(ge=1, le=INT_MAX, description="The last live action's number.")


class UndoOut(BaseModel):
    undone: int
    last: int


def _json(data: dict[str, Any], model: type[BaseModel]) -> Response:
    return answer(model.model_validate(data))


def _shaped(obj: TableCapture | BoardState | Ack) -> Response:
    """A library object as the answer: its JSON form (``duplicate.shapes``)."""
    return Response(json_bytes(obj), media_type="application/json")


@router.get("/{token}", response_model=TableCapture)
def get_table(request: Request, token: Token) -> Response:
    """The recorder's table and its boards' states."""
    return _shaped(capture.table_capture(engine_of(request), token))


@router.post("/{token}/boards/{board}/start", response_model=BoardState)
@retry_races
def post_start(request: Request, token: Token, board: BoardNo) -> Response:
    """The table starts the board (again: the same answer)."""
    state = capture.start_board(engine_of(request), token, board)
    return _shaped(state)


@router.get("/{token}/boards/{board}", response_model=BoardState)
def get_board(request: Request, token: Token, board: BoardNo) -> Response:
    """A started board's state (409 ``not_started`` before)."""
    return _shaped(capture.board_state(engine_of(request), token, board))


@router.post("/{token}/boards/{board}/actions", response_model=Ack)
@retry_races
def post_action(request: Request, token: Token, board: BoardNo, body: ActionIn) -> Response:
    """One numbered action, acknowledged (a resend: acknowledged again, stored once)."""
    ack = capture.enter_action(engine_of(request), token, board, body.seq, body.seat,
                               body.cards, body.type, body.rank)
    return _shaped(ack)


@router.post("/{token}/boards/{board}/readings", response_model=ReadingsOut)
def post_readings(request: Request, token: Token, board: BoardNo, body: ReadingsIn) -> Response:
    """The readings under which the seat to act may play exactly these cards now (several
    when wild hearts leave a choice; none when no reading is legal). Stores nothing."""
    found = capture.readings(engine_of(request), token, board, body.seat, body.cards)
    return _json({"readings": [{"type": t, "rank": r} for t, r in found]}, ReadingsOut)


@router.post("/{token}/boards/{board}/undo", response_model=UndoOut)
@retry_races
def post_undo(request: Request, token: Token, board: BoardNo, body: UndoIn) -> Response:
    """Take back the last action (again: the same answer)."""
    last = capture.undo_action(engine_of(request), token, board, body.seq)
    return _json({"undone": body.seq, "last": last}, UndoOut)


class RecorderCardOut(BaseModel):
    """A recorder's card: its table and room, seating, token and the protocol's address."""

    event: str
    round: int
    table: int
    room: str
    seats: Seat4
    token: str
    url: str


@desk_router.post("/events/{event}/rounds/{n}/recorder-cards",
                  response_model=list[RecorderCardOut], status_code=201)
@retry_races
def issue_recorder_cards(
    request: Request, by: DirectorName, event: EventName, n: RoundNo,
    body: CardsIn | None = None,
) -> list[RecorderCardOut]:
    """Issue recorders' tokens for the round (every table and room, or ``{"table": n}``'s;
    the earlier recorders' cards of those tables become void, the table cards stay). The
    tokens are shown only here."""
    table = body.table if body is not None else None
    cards = capture.issue_recorder_tokens(engine_of(request), event, n, by, table=table)
    base = public_base(request)
    return [RecorderCardOut.model_validate(
        {**c.to_dict(), "url": f"{base}/api/capture/{c.token}"}) for c in cards]
