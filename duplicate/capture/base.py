"""What capture's calls answer and refuse: the refusal with its code, and the plain data
(frozen, JSON-able with ``to_dict``) of a table's boards, a board's state and an
acknowledged action."""

from __future__ import annotations

from dataclasses import dataclass, field

from duplicate.hall.base import HallError, Seat4
from duplicate.i18n import Phrase
from duplicate.shapes import Shaped, about, named

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
class ActionOut(Shaped):
    """One stored action: its number, seat, cards (``.gdn`` tokens, none for a pass) and
    the reading the engine gave it (``.gdn`` type name and rank; ``None`` for a pass)."""

    seq: int
    seat: str
    cards: tuple[str, ...]
    type: str | None
    rank: str | None


@dataclass(frozen=True, slots=True)
class BoardState(Shaped):
    """A started board as its recorder sees it: the hands now, whose turn (``None`` once
    over), the play to beat, the live actions, the last acknowledged number, and once
    over the finishing order (1st first) and the result (``NS +2``) and what became of
    the record in the store (``note``, in words)."""

    event: str
    round_no: int = field(metadata=named("round"))
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


@dataclass(frozen=True, slots=True)
class Ack(Shaped):
    """An acknowledged action: its number, whether it was stored now (``False``: a resend
    of the stored one), the last number now, whose turn, whether the deal is over."""

    seq: int = field(metadata=named("ack"))
    stored: bool = field(metadata=about("False: a resend of the stored action, stored once."))
    last: int
    turn: str | None
    over: bool


@dataclass(frozen=True, slots=True)
class BoardLine(Shaped):
    """One board of the round on the recorder's table: its state and last number (no
    hands: a board not started is not shown)."""

    board: int
    state: str = field(metadata=about("not_started, playing or ended"))
    last: int = field(metadata=about("The last acknowledged action number (0: none)."))


@dataclass(frozen=True, slots=True)
class TableCapture(Shaped):
    """A recorder's table: event, round, table, room, its seating, its boards."""

    event: str
    round_no: int = field(metadata=named("round"))
    table: int
    room: str
    seats: Seat4
    boards: tuple[BoardLine, ...]
