"""The plain data the review pages are drawn from.

Whoever holds results (a ``.gdn`` file, the event database, the hall service) fills these
and the templates draw them; nothing here reads a database or writes a file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from duplicate.compare import BoardComparison
from duplicate.standings import StandingRow
from engine.seat import Seat


@dataclass(frozen=True, slots=True)
class Ruling:
    """A director's decision on one room of a board: the result that counts, who, why.

    ``recorded`` is the N–S result of the record as played (``None`` without a record);
    ``counted`` the result the score uses. Both are kept so that every output can show
    the result that counts and the original record."""

    room: str  # "open" / "closed"
    by: str
    reason: str
    at: str | None
    before: str
    after: str
    recorded: int | None = None
    counted: int | None = None
    #: a ruling that decides the board without a result (room ""): ``conceded`` (``team``
    #: concedes the board) or ``forfeit`` (``team`` forfeits the match); "" for a ruling
    #: on a room's result
    effect: str = ""
    team: str = ""


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a match: the two rooms' N–S results (those that count) and X's swing.

    ``status`` is ``played`` or why a board was not (``unfinished``, ``conceded`` by a
    ruling, ``not in yet``); such a board is shown with its status, never dropped. ``comparison``, when given and the
    board may be shown (``visible``), gets a page of its own that the line links to.
    """

    board: str
    level: int
    leader: Seat
    open_ns: int | None
    closed_ns: int | None
    swing: int | None
    status: str = "played"
    comparison: BoardComparison | None = None
    rulings: tuple[Ruling, ...] = ()
    visible: bool = True
    digest: str = ""  # what the board page is drawn from (records, rulings): for rebuilds
    records: tuple[str, ...] = ()  # the rooms' record texts (open, closed), "" for none
    #: the directors' corrections of a room's record or result, oldest first (who, when,
    #: why, the N–S result before and after: ``recorded`` and ``counted``)
    corrections: tuple[Ruling, ...] = ()
    #: the finishing order each room's result was counted from (open, closed), as the
    #: store holds it (``store.State.finish``); None: none (an N–S result ruled, unfinished)
    #: or not shown (a board not released)
    finishes: tuple[str | None, str | None] = (None, None)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match of team X against team Y, board by board (X: N–S open, E–W closed)."""

    key: str  # unique within the event; names the match's page
    round: str  # "" when not known
    team_x: str
    team_y: str
    boards: tuple[BoardLine, ...]
    margin: int  # X's margin: the sum of its swings
    points_x: float | None = None
    points_y: float | None = None
    open_players: tuple[str, str, str, str] = ("", "", "", "")  # N E S W
    closed_players: tuple[str, str, str, str] = ("", "", "", "")
    #: "" for a complete match; else what is missing ("not played yet", "3 of 8 boards in")
    state: str = ""
    table: int | None = None
    #: points are victory points (a VP scale): always shown with two decimals
    vp: bool = False


@dataclass(frozen=True, slots=True)
class ByeLine:
    """A team's bye in a round: no opponent, no boards, the event's bye points. ``points``
    is ``None`` while its round is not complete (not in the standings yet), as a match's
    points are."""

    round: str
    team: str
    points: float | None


@dataclass(frozen=True, slots=True)
class EventReport:
    """All an event's report shows: its name, the standings and its matches."""

    name: str
    standings: tuple[StandingRow, ...]
    matches: tuple[MatchSummary, ...]
    notes: tuple[str, ...] = field(default=())
    lang: str = "en"
    #: (round, board) the library releases to players (duplicate.events.release); None for
    #: a report not drawn from an event's store (the pages' own rule applies then)
    released: frozenset[tuple[str, str]] | None = None
    #: team name -> the team's number in the event (its entry, kept through renames): the
    #: address of its page; empty for a report not drawn from an event
    team_numbers: Mapping[str, int] = field(default_factory=dict)
    #: the IANA zone its times (rulings, corrections) are shown in (duplicate.zones)
    time_zone: str = "UTC"
    #: every round's bye (a team's rounds: its matches and its byes add up to its total)
    byes: tuple[ByeLine, ...] = ()
    #: withdrawn team name -> the round after which it withdrew (marked 退赛)
    withdrawn: Mapping[str, int] = field(default_factory=dict)
    #: False for standings that are not an event's (an arena tournament's): no progressive
    #: score, rounds won, levels or tie-break ("Placed by") columns
    event_columns: bool = True
    #: the order of tie-breaks the standings rank by (``standings.TIEBREAK_ORDERS``); None
    #: for a report not drawn from an event
    tiebreaks: str | None = None
    #: points are victory points (a VP scale): always shown with two decimals
    vp: bool = False
