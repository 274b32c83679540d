"""The JSON API's bodies and answers as pydantic models, so that the OpenAPI document
(``/api/openapi.json``) describes every field. Answers are built from the library's
dataclasses by attribute (:func:`out`); nothing here computes anything."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, computed_field

from duplicate.i18n.stored import said
from duplicate.limits import INT_MAX, TEXT_LIMITS

M = TypeVar("M", bound=BaseModel)

Room = Literal["open", "closed"]

# --- what a request may hold: the library's limits (duplicate.limits), said in the schema --

#: A round, table or board number: 1 to the largest both databases hold.
Number = Annotated[int, Field(ge=1, le=INT_MAX)]
#: The names people give, each kind within its one limit.
EventNameIn = Annotated[str, Field(min_length=1, max_length=TEXT_LIMITS["event"])]
TeamName = Annotated[str, Field(min_length=1, max_length=TEXT_LIMITS["team"])]
PlayerName = Annotated[str, Field(min_length=1, max_length=TEXT_LIMITS["player"])]
SetName = Annotated[str, Field(min_length=1, max_length=TEXT_LIMITS["set"])]
#: Why (a correction, a ruling, an unfinished board) and a director's or table's note.
Reason = Annotated[str, Field(min_length=1, max_length=TEXT_LIMITS["reason"])]
Note = Annotated[str, Field(min_length=1, max_length=TEXT_LIMITS["note"])]
#: An N-S room result: levels won (+) or conceded (-); never 0; ±4 only in an event
#: playing the ``double_down_plus4`` variant (the others refuse it with 400).
NsResult = Annotated[
    Literal[-4, -3, -2, -1, 1, 2, 3, 4],
    Field(description="N-S levels: +1..+3 won, -1..-3 conceded; ±4 only under the "
          "double_down_plus4 variant. Never 0."),
]


class Out(BaseModel):
    """An answer read from a library object's attributes."""

    model_config = ConfigDict(from_attributes=True)


def out(model: type[M], obj: Any) -> M:
    """``obj`` (a library dataclass) as ``model``."""
    return model.model_validate(obj, from_attributes=True)


class ErrorOut(BaseModel):
    """Every error: ``error`` is the kind (not_found, forbidden, conflict, invalid, closed,
    unauthorized, too_large, ...), ``message`` says what and where."""

    error: str
    message: str


# --- public -------------------------------------------------------------------------------


class EventSummary(BaseModel):
    name: str
    format: str
    rounds: int
    boards_per_round: int
    scale: str
    current_round: int | None = Field(description="The highest round with boards assigned.")


class TeamOut(BaseModel):
    number: int
    name: str
    players: list[str]
    pairs: list[tuple[str, str]]


class MatchOut(BaseModel):
    table: int
    team_x: str
    team_y: str
    open: dict[str, str] = Field(description="Seat (N, E, S, W) -> player, open room.")
    closed: dict[str, str] = Field(description="Seat (N, E, S, W) -> player, closed room.")


class RoundOut(BaseModel):
    number: int
    matches: list[MatchOut]
    bye: str | None
    board_set: str | None
    boards: list[int] = Field(description="The boards the round plays (numbers of the set).")


class EventOut(BaseModel):
    """An event's settings (never its secret seed), teams and rounds."""

    name: str
    format: str
    rounds: int
    boards_per_round: int
    scale: dict[str, Any]
    unfinished: str
    bye_points: float
    bye_won: bool
    rules: dict[str, Any]
    created_at: datetime | None
    time_zone: str = Field(description="The IANA time zone the event's pages show times in.")
    lang: str = Field("en", description="The event's own language (en or zh): the default "
                      "of its pages and report.")
    tiebreaks: str = Field("jiangsu", description="The order of tie-breaks its standings "
                           "rank by: jiangsu (seeds/000) or friendly (seeds/004).")
    current_round: int | None
    teams: list[TeamOut]
    paired_rounds: list[RoundOut]


class Seat4Out(Out):
    north: str
    east: str
    south: str
    west: str


class DrawRowOut(Out):
    table: int
    team_x: str
    team_y: str
    open: Seat4Out
    closed: Seat4Out


class StandingRowOut(Out):
    rank: int
    team: str | int
    points: float
    progressive: float
    rounds_won: int
    swing: int
    levels: int
    opponents_points: float
    played: int
    decided_by: str | None


class RoomStateOut(Out):
    """A room's result as the store counts it."""

    status: str = Field(description="played or unfinished")
    ns_result: int | None = Field(description="N-S's view (None: unfinished).")
    finish: str | None = Field(
        description="The finishing order the result was counted from ('N E S', 'N S' for a "
                    "double down); None: unfinished, or an N-S result ruled without one."
    )
    note: str | None = Field(description="Why the board is unfinished.")
    ruled: bool = Field(description="Set by a director (a ruling, a settlement, a correction).")


class PublishedChangeOut(Out):
    """A room's result changed after its round was published (公示): a correction."""

    round_no: int
    table: int
    board: int
    room: str
    before: RoomStateOut | None
    after: RoomStateOut
    action: str
    by: str
    at: datetime
    reason: str = Field(description="As stored: the director's or the table's words, or a phrase "
                        "the program stored as a code and its values (``@@key {...}``): see "
                        "reason_text.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reason_text(self) -> str:
        """The reason in English words (a coded phrase said from the catalogue)."""
        return said(self.reason, "en") or self.reason


class StandingsOut(Out):
    rows: list[StandingRowOut]
    through: int = Field(description="The last round counted.")
    provisional: bool = Field(description="A counted round is not yet published (公示).")
    version: str = Field(description="Changes whenever a result of the event does (the ETag).")
    corrected: bool = Field(
        False, description="A result changed since its round was published (see corrections)."
    )
    withdrawn: dict[str, int] = Field(
        default_factory=dict,
        description="Withdrawn teams (退赛) by name: the round after which each withdrew.",
    )
    corrections: list[PublishedChangeOut] = Field(
        default_factory=list, description="Every result changed since its round was published."
    )
    tiebreaks: str = Field("jiangsu", description="The order of tie-breaks they rank by: "
                           "jiangsu (seeds/000) or friendly (seeds/004).")


class ClockOut(Out):
    event: str
    round_no: int
    phase: str = Field(description="not_started, running, warning, over, closed, published")
    started_at: datetime | None
    ends_at: datetime | None
    warning_at: datetime | None
    closed_at: datetime | None
    published_at: datetime | None
    correction_until: datetime | None
    seconds_left: int | None
    minutes: int
    warning_minutes: int
    correction_minutes: int


class MatchBoardOut(Out):
    board: int
    open_ns: int | None = Field(description="The open room's N-S result (None: not in).")
    closed_ns: int | None
    swing: int | None = Field(description="Team X's swing on the board.")
    status: str
    open_finish: str | None = Field(
        None, description="The finishing order the open room's result was counted from."
    )
    closed_finish: str | None = Field(None, description="The same, closed room.")


class PublicMatchOut(Out):
    event: str
    round_no: int
    table: int
    team_x: str
    team_y: str
    open: Seat4Out
    closed: Seat4Out
    boards: list[MatchBoardOut]
    swing_total: int
    provisional: bool = Field(description="The round is not yet published (公示).")
    forfeit: str | None = Field(None, description="The team that forfeited the match, if any.")
    corrections: list[PublishedChangeOut] = Field(
        default_factory=list, description="The match's results changed since publication."
    )


class BoardTableOut(BaseModel):
    table: int
    team_x: str
    team_y: str
    open: str
    closed: str
    swing: str
    status: str
    open_finish: str | None = Field(
        None, description="The finishing order the open room's result was counted from."
    )
    closed_finish: str | None = Field(None, description="The same, closed room.")


class BoardOut(BaseModel):
    """A released board: its deal and every table's two rooms."""

    round: int
    board: int
    level: int
    leader: str
    hands: dict[str, list[str]]
    tables: list[BoardTableOut]


# --- tables -------------------------------------------------------------------------------


class GrantOut(Out):
    event: str
    round_no: int
    table: int
    room: str
    role: str = Field(description="report (West) or confirm (North)")


class ReportOut(Out):
    id: int
    event: str
    round_no: int
    table: int
    room: str
    board: int
    finish: str | None = Field(description="Finishing order, e.g. 'N S E' (1st, 2nd, 3rd).")
    unfinished: str | None
    ns_result: int | None
    has_record: bool
    state: str = Field(description="reported, confirmed, disputed, settled, replaced, "
                                   "requested (after publication: waits on the desk), "
                                   "accepted or dismissed (by the director)")
    reported_by: str
    reported_at: datetime
    confirmed_at: datetime | None
    dispute_note: str | None
    settled_by: str | None = None
    settled_at: datetime | None = None
    settled_reason: str | None = None
    correction: str | None = Field(
        None, description="The table's own typed reason of a correction (None: a first report)."
    )


class DecisionOut(Out):
    """The director's ruling that decided a board: it takes no report from the table."""

    ruling: int = Field(description="The ruling's id.")
    effect: str = Field(description="conceded (the team concedes the board) or forfeit "
                                    "(the team forfeits the match)")
    team: str


class BoardStatusOut(Out):
    board: int
    state: str = Field(description="not_in, reported, confirmed, disputed, requested or ruled")
    report: ReportOut | None
    ns_result: int | None
    decision: DecisionOut | None = Field(
        None, description="The ruling that decided the board (conceded, or its match "
                          "forfeited): a report of it is refused (409).")


class TableViewOut(Out):
    grant: GrantOut
    team_ns: str
    team_ew: str
    seats: Seat4Out
    boards: list[BoardStatusOut]
    clock: ClockOut


class PreviewOut(Out):
    ns_result: int
    side: str
    levels: int
    double_down: bool


class ReportIn(BaseModel):
    """West's report of a board: exactly one of ``finish`` and ``unfinished``."""

    board: Number
    finish: str | None = Field(None, max_length=20, examples=["N S E"])
    unfinished: Reason | None = Field(None, examples=["time"])
    record: str | None = Field(
        None, description="The board's .gdn play record (at most 256 KiB), checked like "
        "'guandan event import'."
    )
    correction: Reason | None = Field(
        None, description="Why a different report replaces the live one."
    )


class DisputeIn(BaseModel):
    note: Note
    board: Number | None = Field(None, description="The report's board (saves a look-up).")


class RoomStatusOut(Out):
    table: int
    room: str
    boards: list[BoardStatusOut]
