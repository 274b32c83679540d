"""What the hall's views return: a table's view, the desk's rooms, rulings, the draw,
live standings and a public match (frozen, JSON-able with ``to_dict``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from duplicate.hall.base import BoardStatus, Clock, Grant, Seat4, _iso
from duplicate.hall.outcomes import PublishedChange
from duplicate.standings import StandingRow


@dataclass(frozen=True, slots=True)
class TableView:
    """What a token's holder sees: the table and room, its seating, its boards, the clock."""

    grant: Grant
    team_ns: str
    team_ew: str
    seats: Seat4
    boards: list[BoardStatus]
    clock: Clock

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "grant": self.grant.to_dict(),
            "team_ns": self.team_ns,
            "team_ew": self.team_ew,
            "seats": self.seats.to_dict(),
            "boards": [b.to_dict() for b in self.boards],
            "clock": self.clock.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class RoomStatus:
    """One table and room of a round on the director's desk."""

    table: int
    room: str
    boards: list[BoardStatus]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "table": self.table,
            "room": self.room,
            "boards": [b.to_dict() for b in self.boards],
        }


@dataclass(frozen=True, slots=True)
class Ruling:
    """A director's ruling: category, effect, on whom and what, by whom, when, why."""

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

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "event": self.event,
            "round": self.round_no,
            "table": self.table,
            "category": self.category,
            "effect": self.effect,
            "team": self.team,
            "board": self.board,
            "room": self.room,
            "ns_result": self.ns_result,
            "by": self.by,
            "reason": self.reason,
            "made_at": _iso(self.made_at),
        }


@dataclass(frozen=True, slots=True)
class DrawRow:
    """A match of the draw: table, teams, and who sits where in each room."""

    table: int
    team_x: str
    team_y: str
    open: Seat4
    closed: Seat4

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "table": self.table,
            "team_x": self.team_x,
            "team_y": self.team_y,
            "open": self.open.to_dict(),
            "closed": self.closed.to_dict(),
        }


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
class MatchBoard:
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

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "board": self.board,
            "open_ns": self.open_ns,
            "closed_ns": self.closed_ns,
            "swing": self.swing,
            "status": self.status,
            "open_finish": self.open_finish,
            "closed_finish": self.closed_finish,
        }


@dataclass(frozen=True, slots=True)
class PublicMatch:
    """A match as the public sees it: teams, seating, board rows, the running swing total,
    and whether it is provisional (the round not yet published)."""

    event: str
    round_no: int
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

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "event": self.event,
            "round": self.round_no,
            "table": self.table,
            "team_x": self.team_x,
            "team_y": self.team_y,
            "open": self.open.to_dict(),
            "closed": self.closed.to_dict(),
            "boards": [b.to_dict() for b in self.boards],
            "swing_total": self.swing_total,
            "provisional": self.provisional,
            "forfeit": self.forfeit,
            "corrections": [c.to_dict() for c in self.corrections],
        }
