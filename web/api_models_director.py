"""The director's API bodies and answers (pydantic; see :mod:`web.api_models`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from web.api_models import (
    EventNameIn,
    NsResult,
    Number,
    Out,
    PlayerName,
    Reason,
    ReportOut,
    SetName,
    TeamName,
)


class TeamIn(BaseModel):
    """A team: 4 to 6 players; ``pairs`` default to players 1-2, 3-4 (5-6)."""

    name: TeamName
    players: list[PlayerName] = Field(min_length=4, max_length=6)
    pairs: list[tuple[PlayerName, PlayerName]] | None = None


class EventIn(BaseModel):
    """A new event (as ``guandan event create``). Its name is a segment of the hall's
    URLs, sent encoded (``/`` as ``%2F``); ``.`` and ``..`` are refused."""

    name: EventNameIn
    format: Literal["swiss", "rr"] = "swiss"
    rounds: int = Field(3, ge=1, le=100)
    boards_per_round: int = Field(8, ge=1, le=64)
    scale: Literal["wdl", "vp20"] = "wdl"
    unfinished: Literal["average", "not-scored"] = "average"
    bye_points: float | None = Field(None, ge=0)
    bye_won: bool = True
    seed: str | None = Field(
        None, max_length=128, description="Hex seed of the draws (default: a new secret)."
    )
    variants: dict[str, int | bool] = Field(
        default_factory=dict, description="Rule variants of RULES.md, e.g. {\"jiefeng_next\": true}."
    )
    teams: list[TeamIn] = Field(default_factory=list, max_length=1000)


class PairIn(BaseModel):
    """Pair the next round; ``lineups``: team -> (open pair, closed pair), default (1, 2)."""

    lineups: dict[str, tuple[int, int]] = Field(default_factory=dict)


class BoardsIn(BaseModel):
    """The round's boards: a stored set (``set_name``) or a seed file's text
    (``seed_file``: the event's whole set is generated and stored the first time)."""

    set_name: SetName | None = None
    seed_file: str | None = Field(None, max_length=20_000)
    delayed: str | None = Field(None, max_length=500)
    schedule: str = Field("fixed", max_length=40)
    first: Number | None = None
    reuse_reason: Reason | None = Field(
        None, description="Allow boards already played elsewhere (logged)."
    )


class StartIn(BaseModel):
    minutes: int = Field(50, ge=1, le=600)
    warning_minutes: int = Field(5, ge=0, le=120)
    correction_minutes: int = Field(10, ge=0, le=1440)


class CheckInIn(BaseModel):
    team: TeamName


class ArrivalOut(Out):
    team: str
    table: int | None
    checked_in_at: datetime | None
    minutes_late: float
    status: str = Field(description="waiting, on_time, late, concedes or forfeits")


class SettleIn(BaseModel):
    """The director's decision on a disputed report: exactly one of ``finish``,
    ``ns_result``, ``unfinished``; ``reason`` is logged."""

    reason: Reason
    finish: str | None = Field(None, max_length=20)
    ns_result: NsResult | None = None
    unfinished: Reason | None = None


class DecisionIn(BaseModel):
    """The director's decision on a table's request: ``reason`` is logged."""

    reason: str = Field(min_length=1, max_length=1000)


class RulingIn(BaseModel):
    table: Number
    category: Literal["warning", "violation", "foul", "late", "forfeit"]
    effect: Literal["none", "assigned", "conceded", "forfeit"]
    reason: Reason
    team: TeamName | None = None
    board: Number | None = None
    room: Literal["open", "closed"] | None = None
    ns_result: NsResult | None = None


class RulingOut(Out):
    id: int
    event: str
    round_no: int
    table: int
    category: str
    effect: str
    team: str | None
    board: int | None
    room: str | None
    ns_result: int | None
    by: str
    reason: str
    made_at: datetime


class CorrectionIn(BaseModel):
    table: Number
    board: Number
    room: Literal["open", "closed"]
    ns_result: NsResult | None = Field(
        None, description="The N-S result (or give the finishing order)."
    )
    finish: str | None = Field(
        None, max_length=20, examples=["N E S"],
        description="The finishing order the result is counted from (kept in the log).",
    )
    reason: Reason


class CorrectionOut(BaseModel):
    round: int
    table: int
    board: int
    room: str
    ns_result: int | None
    by: str
    reason: str
    finish: str | None = None


class CardOut(BaseModel):
    """A table card: seating and the two tokens (shown once: they are stored hashed)."""

    event: str
    round: int
    table: int
    room: str
    team_ns: str
    team_ew: str
    seats: dict[str, str]
    report_token: str
    confirm_token: str
    report_url: str
    confirm_url: str


class LogOut(BaseModel):
    """The event's log: the director's actions (``admin``: tokens, clock, settled
    disputes, rulings, close, publish, exports, ...), every result changed after it was in
    (``results``: corrections and rulings, with the result before and after), the
    rulings, and the tables' reports that stand (``reports``: who reported, when, when
    North confirmed or what North disputed, who settled it)."""

    admin: list[dict[str, Any]]
    results: list[dict[str, Any]]
    history: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Every change of every room as it happened: where, action, who (table, "
                    "room and seats, or the director), when, why (the table's own reason), "
                    "before and after with their finishing orders.",
    )
    rulings: list[RulingOut]
    reports: list[ReportOut]
