"""What capture's calls answer and refuse: the refusal with its code, and the plain data
(frozen, JSON-able with ``to_dict``) of a table's boards, a board's state and an
acknowledged action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from duplicate.hall.base import HallError, Seat4
from duplicate.i18n import Phrase

#: The refusal codes of the device protocol (docs/CAPTURE.md).
REFUSALS = (
    "not_recorder", "not_started", "cannot_start", "out_of_order", "resent_differs",
    "out_of_turn", "not_held", "illegal", "over", "bad_action", "undo",
)  # fmt: skip
#: The states of a captured board as the recorder sees them.
BOARD_STATES = ("not_started", "playing", "ended")


class CaptureError(HallError):
    """A refused capture call: ``kind`` as every hall refusal (the HTTP status), ``code``
    one of :data:`REFUSALS`, ``next`` the action number the board expects next (``None``
    when not known)."""

    def __init__(
        self, message: str | Phrase, kind: str, code: str, next_seq: int | None = None
    ) -> None:
        if code not in REFUSALS:
            raise ValueError(f"unknown capture refusal {code!r}")
        super().__init__(message, kind)
        self.code = code
        self.next_seq = next_seq


@dataclass(frozen=True, slots=True)
class ActionOut:
    """One stored action: its number, seat, cards (``.gdn`` tokens, none for a pass) and
    the reading the engine gave it (``.gdn`` type name and rank; ``None`` for a pass)."""

    seq: int
    seat: str
    cards: tuple[str, ...]
    type: str | None
    rank: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"seq": self.seq, "seat": self.seat, "cards": list(self.cards),
                "type": self.type, "rank": self.rank}


@dataclass(frozen=True, slots=True)
class BoardState:
    """A started board as its recorder sees it: the hands now, whose turn (``None`` once
    over), the play to beat, the live actions, the last acknowledged number, and once
    over the finishing order (1st first) and the result (``NS +2``) and what became of
    the record in the store (``note``, in words)."""

    event: str
    round_no: int
    table: int
    room: str
    board: int
    state: str
    level: str
    leader: str
    turn: str | None
    last: int
    hands: dict[str, list[str]]
    counts: dict[str, int]
    to_beat: ActionOut | None
    actions: tuple[ActionOut, ...]
    finish: tuple[str, ...] | None
    result: str | None
    note: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "event": self.event, "round": self.round_no, "table": self.table,
            "room": self.room, "board": self.board, "state": self.state, "level": self.level,
            "leader": self.leader, "turn": self.turn, "last": self.last, "hands": self.hands,
            "counts": self.counts,
            "to_beat": self.to_beat.to_dict() if self.to_beat is not None else None,
            "actions": [a.to_dict() for a in self.actions],
            "finish": list(self.finish) if self.finish is not None else None,
            "result": self.result, "note": self.note,
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Ack:
    """An acknowledged action: its number, whether it was stored now (``False``: a resend
    of the stored one), the last number now, whose turn, whether the deal is over."""

    seq: int
    stored: bool
    last: int
    turn: str | None
    over: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"ack": self.seq, "stored": self.stored, "last": self.last,
                "turn": self.turn, "over": self.over}


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of the round on the recorder's table: its state and last number (no
    hands: a board not started is not shown)."""

    board: int
    state: str
    last: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"board": self.board, "state": self.state, "last": self.last}


@dataclass(frozen=True, slots=True)
class TableCapture:
    """A recorder's table: event, round, table, room, its seating, its boards."""

    event: str
    round_no: int
    table: int
    room: str
    seats: Seat4
    boards: tuple[BoardLine, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"event": self.event, "round": self.round_no, "table": self.table,
                "room": self.room, "seats": self.seats.to_dict(),
                "boards": [b.to_dict() for b in self.boards]}
