"""The director's API bodies and answers (pydantic; see :mod:`duplicate.web.api_models`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from duplicate.events.limit import MAX_MINUTES as MAX_DIRECTOR_MINUTES
from duplicate.hall import CLOCK_SETTINGS, MAX_MOVE
from duplicate.i18n import gettext
from duplicate.i18n.stored import decoded
from duplicate.web.api_models import (
    ClockOut,
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

#: The ``chief`` field of every body that changes a result.
CHIEF = ("As the chief director (裁判长): after the directors' limit on a published round "
         "only the chief director may change its results; logged as overriding the limit.")


class In(BaseModel):
    """A body the director sends: exactly the fields its schema lists; any other (a
    ``by``: who acts is the logged-in director, never a name in the body; a ``minutes``
    of a late team: lateness is the round clock's) is refused with 422, not ignored."""

    model_config = ConfigDict(extra="forbid")


class TeamIn(In):
    """A team: 4 to 6 players; ``pairs`` default to players 1-2, 3-4 (5-6)."""

    name: TeamName
    players: list[PlayerName] = Field(min_length=4, max_length=6)
    pairs: list[tuple[PlayerName, PlayerName]] | None = None


class EventIn(In):
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
    time_zone: str = Field(
        "Asia/Shanghai", max_length=64,
        description="The IANA time zone the event is played in (its pages show times in it).",
    )
    director_minutes: int | None = Field(
        20, ge=0, le=MAX_DIRECTOR_MINUTES,
        description="How long after a round's publication the directors may change its "
                    "results (null: no limit).",
    )
    lang: Literal["en", "zh"] = Field(
        "en", description="The event's own language: the default of its pages and report."
    )
    tiebreaks: Literal["jiangsu", "friendly"] = Field(
        "jiangsu", description="The order of tie-breaks after match points: jiangsu "
        "(seeds/000: progressive score, rounds won, swing, levels) or friendly (seeds/004: "
        "opponents' points, swing, levels); a draw last.",
    )


class PairIn(In):
    """Pair the next round; ``lineups``: team -> (open pair, closed pair), default (1, 2)."""

    lineups: dict[str, tuple[int, int]] = Field(default_factory=dict)


class BoardsIn(In):
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


def _clock(name: str, description: str) -> Any:
    """The field of a clock setting, with the library's default and bounds
    (``duplicate.hall.clock.CLOCK_SETTINGS``: the desk and the library take the same)."""
    default, low, high = CLOCK_SETTINGS[name]
    return Field(default, ge=low, le=high, description=description)


class StartIn(In):
    """The round's clock: its length, the warning before the end, the correction window."""

    minutes: int = _clock("minutes", "The round's length in minutes.")
    warning_minutes: int = _clock(
        "warning_minutes", "The warning, minutes before the end (not more than the round).")
    correction_minutes: int = _clock(
        "correction_minutes", "The correction window, minutes after the round is closed.")


class CheckInIn(In):
    team: TeamName


class ArrivalOut(Out):
    team: str
    table: int | None
    checked_in_at: datetime | None
    minutes_late: float
    status: str = Field(description="waiting, on_time, late, concedes or forfeits")


class SettleIn(In):
    """The director's decision on a disputed report: exactly one of ``finish``,
    ``ns_result``, ``unfinished``; ``reason`` is logged."""

    reason: Reason
    finish: str | None = Field(None, max_length=20)
    ns_result: NsResult | None = None
    unfinished: Reason | None = None
    chief: bool = Field(False, description=CHIEF)


class DecisionIn(In):
    """The director's decision on a table's request: ``reason`` is logged."""

    reason: str = Field(min_length=1, max_length=1000)
    chief: bool = Field(False, description=CHIEF)


class RulingIn(In):
    table: Number
    category: Literal["warning", "violation", "foul", "late", "forfeit"]
    effect: Literal["none", "assigned", "conceded", "forfeit"]
    reason: Reason
    team: TeamName | None = None
    board: Number | None = None
    room: Literal["open", "closed"] | None = None
    ns_result: NsResult | None = None
    chief: bool = Field(False, description=CHIEF)


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
    reason: str = Field(description="As stored: the director's words, or a phrase the desk "
                        "stored as a code and its values (``@@key {...}``): see reason_text.")
    made_at: datetime

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reason_text(self) -> str:
        """The reason in English words (a coded phrase said from the catalogue)."""
        found = decoded(self.reason)
        if found is None:
            return self.reason
        try:
            return gettext("en", found[0], **found[1])
        except (KeyError, ValueError, IndexError):
            return self.reason


class CorrectionIn(In):
    """A room's result set by the director, logged with why (``reason``) and who: the
    logged-in director, never a name in the body (a ``by`` is refused)."""

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
    chief: bool = Field(False, description=CHIEF)


class CorrectionOut(BaseModel):
    round: int
    table: int
    board: int
    room: str
    ns_result: int | None
    by: str
    reason: str
    finish: str | None = None
    changed: bool = Field(True, description="False when the room held this very ruling "
                          "already: nothing written, nothing logged.")


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


# --- the director's further actions (duplicate/web/api_director_actions.py) --------------------------

class ReasonIn(In):
    """An action's reason, logged with who and when."""

    reason: Reason


class ConfirmIn(ReasonIn):
    """A report that waits for North confirmed by the director (``reason`` logged)."""

    chief: bool = Field(False, description=CHIEF)


class DirectorLimitIn(In):
    """The directors' limit after a round's publication, set by the chief director."""

    minutes: int | None = Field(description="Minutes (0 to a week), or null: no limit.",
                                ge=0, le=MAX_DIRECTOR_MINUTES)
    reason: Reason


class DirectorLimitOut(BaseModel):
    event: str
    minutes: int | None = Field(description="The limit now (null: none).")
    before: int | None = Field(description="The limit it replaced (null: none).")


class UnfinishedIn(In):
    """A board not finished in one room or both (replacing what was in; logged)."""

    table: int = Field(ge=1)
    board: int = Field(ge=1)
    room: Literal["open", "closed", "both"] = "both"
    reason: Reason
    chief: bool = Field(False, description=CHIEF)


class UnfinishedOut(BaseModel):
    round: int
    table: int
    board: int
    rooms: int = Field(description="How many rooms were marked unfinished.")


class ReleaseIn(In):
    board: int = Field(ge=1)
    reason: Reason


class ReleaseOut(BaseModel):
    round: int
    board: int
    released: bool = True


class CardsIn(In):
    """Which table's cards to issue again (``None``: every table's)."""

    table: int | None = Field(None, ge=1)


class MoveIn(In):
    """Move the round's end: minutes added (positive) or taken off (negative)."""

    minutes: int = Field(ge=-MAX_MOVE, le=MAX_MOVE, description="Not 0.")
    reason: Reason


class DeskClockOut(ClockOut):
    """The clock with what the director did to it."""

    paused_at: datetime | None = Field(None, description="When it was paused (None: runs).")
    shift_seconds: int = Field(0, description="Seconds pauses and moves added to the end.")


class LateIn(In):
    """The ruling a late team's lateness calls for; the lateness is the round clock's
    (from the start to the check-in), never typed (a ``minutes`` is refused)."""

    team: TeamName
    effect: Literal["conceded", "forfeit"] | None = Field(
        None, description="The ruling the director was shown (GET …/late): refused (409, "
        "nothing recorded) when the clock now calls for the other one.")
    chief: bool = Field(False, description=CHIEF)


class RenameIn(In):
    """A name fixed (a team's or a player's)."""

    old: TeamName
    new: TeamName
    reason: Reason


class SubstituteIn(In):
    """Player ``new`` plays in ``out``'s place for ``team`` from now on."""

    team: TeamName
    out: TeamName
    new: TeamName
    reason: Reason


class TimeZoneIn(In):
    """The event's time zone changed (an IANA name: Asia/Shanghai, Europe/London, UTC)."""

    time_zone: str = Field(max_length=64)
    reason: Reason


class TiebreaksIn(In):
    """The order of tie-breaks the event ranks by from now on."""

    tiebreaks: Literal["jiangsu", "friendly"]
    reason: Reason


class WithdrawIn(In):
    team: TeamName
    reason: Reason


class ChangeOut(BaseModel):
    """A change done (what, to whom), logged with ``by`` and ``reason``."""

    action: str
    event: str
    detail: str
    by: str
    reason: str


class ImportIn(In):
    """``.gdn`` texts to import (one transaction each), as ``guandan event import``."""

    texts: list[str] = Field(min_length=1, max_length=64)
    round: int | None = Field(None, ge=1, description="Every record's round (default: its tag).")
    correction_reason: str | None = Field(
        None, max_length=500, description="Replace results already in (logged)."
    )
    chief: bool = Field(False, description=CHIEF)


class ImportOut(BaseModel):
    files: int
    records: int
    added: int
    unchanged: int
    corrected: int
    unfinished: int
    unfinished_boards: list[str]


class DeleteIn(In):
    """Deleting an event: its name again (a safeguard) and the reason."""

    confirm: str = Field(min_length=1, max_length=200, description="The event's name again.")
    reason: Reason


class SetOut(Out):
    name: str
    generator: str
    commitment: str
    level_schedule: str
    board_count: int
    revealed_seed: str | None
    created_at: datetime | None


class SeedOut(BaseModel):
    """A new secret seed: shown only in this answer (nothing of it is stored)."""

    seed_file: str = Field(description="The seed file's text: keep it secret until the event is over.")
    commitment: str = Field(description="Publish it before the event.")
