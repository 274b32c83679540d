"""What every part of the hall service uses: its error, its plain data, and lookups.

The data classes are frozen and JSON-able (``to_dict``); times are aware UTC datetimes
(ISO 8601 in JSON). The lookups (``_event``, ``_round``, ``_match``, …) turn the library's
``EventError`` for an unknown event, round or table into ``HallError(kind="not_found")``
so that the web layer can answer 404 without reading messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from duplicate.errors import DuplicateError
from duplicate.i18n import Phrase, phrase, translator
from duplicate.shapes import IsoTime, Round2, Shaped, named

#: What a table token may do: West reports, North confirms or disputes.
ROLES = ("report", "confirm")
#: The phases of a round's clock, in order.
PHASES = ("not_started", "running", "warning", "over", "closed", "published")
#: A team's arrival at the round (seeds/004 rules 3–6).
ARRIVAL = ("waiting", "on_time", "late", "concedes", "forfeits")
#: The states of a table's report (``requested``: sent after the round was published, it
#: waits on the desk; ``accepted``/``dismissed``: what the director did with it).
REPORT_STATES = (
    "reported", "confirmed", "disputed", "settled", "replaced", "requested", "accepted",
    "dismissed",
)
#: Reports that still stand (at most one per table, room and board).
LIVE_STATES = ("reported", "confirmed", "disputed", "requested", "accepted", "dismissed")
#: A board's state on the table's and the director's views.
BOARD_STATES = ("not_in", "reported", "confirmed", "disputed", "requested", "ruled")
#: The director's rulings: category (what happened) and effect (what it does to results).
CATEGORIES = ("warning", "violation", "foul", "late", "forfeit")
EFFECTS = ("none", "assigned", "conceded", "forfeit")
#: HallError kinds and the HTTP status the web layer maps them to.
KINDS = {"not_found": 404, "forbidden": 403, "conflict": 409, "invalid": 422, "closed": 410}


class HallError(DuplicateError):
    """A refused hall operation; ``kind`` says which (see :data:`KINDS`). The message is
    text or a catalogue :class:`~duplicate.i18n.Phrase`, as for any ``DuplicateError``."""

    def __init__(self, message: str | Phrase, kind: str = "invalid") -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown HallError kind {kind!r}")
        super().__init__(message)
        self.kind = kind


def where_phrase(round_no: int, table: int, board: int, room: str) -> Phrase:
    """A board of a table and room, for messages (``round 1, table 2, board 3, open room``)."""
    return phrase(
        "hall.err.where", round=round_no, table=table, board=board,
        room=phrase(f"hall.room.{room}") if room in ("open", "closed") else room,
    )


def no_team(event: str, team: str) -> Phrase:
    """The refusal of a team the event does not have."""
    return phrase("hall.err.no_team", event=repr(event), team=repr(team))


def state_phrase(state: str) -> Phrase | str:
    """A report's state in words."""
    return phrase(f"hall.state.{state}") if state in REPORT_STATES else state


def _iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def utc(when: datetime | None) -> datetime:
    """``when`` as aware UTC (a stored naive time is UTC); ``None``: now."""
    if when is None:
        return datetime.now(UTC)
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def utc_or_none(when: datetime | None) -> datetime | None:
    """A stored time as aware UTC, ``None`` staying ``None``."""
    return None if when is None else utc(when)


@dataclass(frozen=True, slots=True)
class Seat4(Shaped):
    """The four players of a room by seat."""

    north: str = field(metadata=named("N"))
    east: str = field(metadata=named("E"))
    south: str = field(metadata=named("S"))
    west: str = field(metadata=named("W"))


@dataclass(frozen=True, slots=True)
class TableCard:
    """One table and room of a round as printed on its card, with its two fresh tokens
    (plaintext: only ever returned by ``issue_tokens``)."""

    event: str
    round_no: int
    table: int
    room: str
    team_ns: str
    team_ew: str
    seats: Seat4
    report_token: str
    confirm_token: str


@dataclass(frozen=True, slots=True)
class Grant(Shaped):
    """What a token may do: ``role`` on the boards of one table and room of one round."""

    event: str
    round_no: int = field(metadata=named("round"))
    table: int
    room: str
    role: str


@dataclass(frozen=True, slots=True)
class Clock(Shaped):
    """A round's clock: its phase, the times that define it and the seconds left."""

    event: str
    round_no: int = field(metadata=named("round"))
    phase: str
    started_at: IsoTime | None
    ends_at: IsoTime | None
    warning_at: IsoTime | None
    closed_at: IsoTime | None
    published_at: IsoTime | None
    correction_until: IsoTime | None
    seconds_left: int | None
    minutes: int
    warning_minutes: int
    correction_minutes: int
    #: when the director paused the clock (``None``: it runs; the end moves on meanwhile)
    paused_at: IsoTime | None = None
    #: seconds the director's pauses and moves added to the end (negative: taken off)
    shift_seconds: int = 0


@dataclass(frozen=True, slots=True)
class Arrival(Shaped):
    """A team's arrival at a round: when it checked in, how late, what that costs it."""

    team: str
    table: int | None
    checked_in_at: IsoTime | None
    minutes_late: Round2
    status: str


@dataclass(frozen=True, slots=True)
class Report(Shaped):
    """A table's report of one board in one room (West's), and what became of it."""

    id: int
    event: str
    round_no: int = field(metadata=named("round"))
    table: int
    room: str
    board: int
    finish: str | None
    unfinished: str | None
    ns_result: int | None
    has_record: bool
    state: str
    reported_by: str
    reported_at: IsoTime
    confirmed_at: IsoTime | None
    dispute_note: str | None
    settled_by: str | None = None
    settled_at: IsoTime | None = None
    settled_reason: str | None = None
    #: the table's own typed reason of a correction (None: a first report)
    correction: str | None = None


@dataclass(frozen=True, slots=True)
class Preview(Shaped):
    """The result a finishing order implies (RULES.md §7): N–S's view, the winning side,
    its levels and whether it was a double down."""

    ns_result: int
    side: str
    levels: int
    double_down: bool

    JSON_COMPUTED = ("text",)

    @property
    def text(self) -> str:
        """:meth:`describe` in English (the JSON form's ``text``)."""
        return self.describe("en")

    def describe(self, lang: str | None = None) -> str:
        """In words, in ``lang`` (``en``/``zh``): e.g. "N–S +2 (1st and 3rd out)"."""
        t = translator(lang)
        kind = (
            "double_down" if self.double_down else {2: "third", 1: "last"}.get(self.levels, "third")
        )
        return t(f"hall.preview.{kind}", side=t(f"side.{self.side}"), levels=self.levels)


@dataclass(frozen=True, slots=True)
class Decision(Shaped):
    """The director's ruling that decides a board of a table (``duplicate.hall.decided``):
    ``team`` concedes it (``effect`` ``conceded``) or forfeits the match (``forfeit``).
    Such a board takes no report from the table."""

    ruling: int
    effect: str
    team: str

    JSON_COMPUTED = ("text",)

    @property
    def text(self) -> str:
        """:meth:`said` in English (the JSON form's ``text``)."""
        return self.said().text("en")

    def said(self) -> Phrase:
        """In words (``ruling 3: Tigers concedes this board``)."""
        return phrase(f"hall.decided.{self.effect}", id=self.ruling, team=self.team)


@dataclass(frozen=True, slots=True)
class BoardStatus(Shaped):
    """One board of a table and room: its state, the live report, the result that counts,
    and the ruling that decided it (``None``: none did)."""

    board: int
    state: str
    report: Report | None
    ns_result: int | None
    decision: Decision | None = None
