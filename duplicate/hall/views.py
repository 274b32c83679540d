"""What the hall's views return: a table's view, the desk's rooms, rulings, the draw,
live standings and a public match (frozen, JSON-able with ``to_dict``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from duplicate.hall.base import BoardStatus, Clock, Grant, Seat4
from duplicate.hall.outcomes import PublishedChange
from duplicate.shapes import IsoTime, Shaped, named
from duplicate.standings import StandingRow


@dataclass(frozen=True, slots=True)
class TableView(Shaped):
    """What a token's holder sees: the table and room, its seating, its boards, the clock."""

    grant: Grant
    team_ns: str
    team_ew: str
    seats: Seat4
    boards: list[BoardStatus]
    clock: Clock


@dataclass(frozen=True, slots=True)
class RoomStatus(Shaped):
    """One table and room of a round on the director's desk."""

    table: int
    room: str
    boards: list[BoardStatus]


@dataclass(frozen=True, slots=True)
class Ruling(Shaped):
    """A director's ruling: category, effect, on whom and what, by whom, when, why."""

    id: int
    event: str
    round_no: int = field(metadata=named("round"))
    table: int
    category: str
    effect: str
    team: str | None
    board: int | None
    room: str | None
    ns_result: int | None
    by: str
    reason: str
    made_at: IsoTime


@dataclass(frozen=True, slots=True)
class DrawRow(Shaped):
    """A match of the draw: table, teams, and who sits where in each room."""

    table: int
    team_x: str
    team_y: str
    open: Seat4
    closed: Seat4


@dataclass(frozen=True, slots=True)
class LiveStandings:
    """The standings the library computes, after round ``through``; ``provisional`` when a
    round counted is not yet published; ``version`` is :func:`results_version`;
    ``corrections``: the results changed since their round was published (the standings
    are then "published, corrected since", never plain published)."""

    rows: list[StandingRow]
    through: int
    provisional: bool
    version: str
    corrections: list[PublishedChange] = field(default_factory=list)
    #: withdrawn teams (退赛) by name, each with the round after which it withdrew
    withdrawn: dict[str, int] = field(default_factory=dict)
    #: the order of tie-breaks they rank by (``standings.TIEBREAK_ORDERS``)
    tiebreaks: str = "jiangsu"

    @property
    def corrected(self) -> bool:
        """Whether a result counted changed after its round was published."""
        return bool(self.corrections)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "rows": [_standing(r) for r in self.rows],
            "through": self.through,
            "provisional": self.provisional,
            "version": self.version,
            "corrected": self.corrected,
            "corrections": [c.to_dict() for c in self.corrections],
            "tiebreaks": self.tiebreaks,
        }


def _standing(row: StandingRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "team": row.team,
        "points": row.points,
        "progressive": row.progressive,
        "rounds_won": row.rounds_won,
        "swing": row.swing,
        "levels": row.levels,
        "opponents_points": row.opponents_points,
        "played": row.played,
        "decided_by": row.decided_by,
    }


@dataclass(frozen=True, slots=True)
class MatchBoard(Shaped):
    """One board of a public match: each room's N–S result, the finishing order it was
    counted from (``None``: none, or not shown) and team X's swing (``None`` while not in);
    ``status`` as ``events.match_boards`` says."""

    board: int
    open_ns: int | None
    closed_ns: int | None
    swing: int | None
    status: str
    open_finish: str | None = None
    closed_finish: str | None = None


@dataclass(frozen=True, slots=True)
class PublicMatch(Shaped):
    """A match as the public sees it: teams, seating, board rows, the running swing total,
    and whether it is provisional (the round not yet published)."""

    event: str
    round_no: int = field(metadata=named("round"))
    table: int
    team_x: str
    team_y: str
    open: Seat4
    closed: Seat4
    boards: list[MatchBoard]
    swing_total: int
    provisional: bool
    forfeit: str | None = field(default=None)
    #: the match's results changed since the round was published (released boards only)
    corrections: list[PublishedChange] = field(default_factory=list)
