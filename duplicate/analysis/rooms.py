"""What each room's choices were worth on one board (for ``guandan compare --analyse``,
the event report and the board pages).

:func:`analyse_rooms` takes the records of one board in two or more rooms (the same cards:
``duplicate.compare`` checks it), finds the first divergence, and annotates every room
from there (:func:`duplicate.analysis.annotate.annotate`) as far back as the solver settles
positions exactly (only exact values show where value changed); the choice at the
divergence itself is always valued, as an estimate when it must be. The result says, at the divergence, what
each room's action was worth (the value for N–S after it, and the mark of the value it
lost), and lists every later decision of each room that changed the value: so a reader
sees which pair did better with the same cards and where the swing came from.

Callers (the report's board pages) need only :func:`analyse_rooms` and
:meth:`RoomsAnalysis.to_dict`; ``budget`` bounds the work per position valued (nodes and playouts, seeded: the
same records and budget give the same analysis everywhere).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from duplicate.analysis.annotate import Annotation, Decision, annotate, decision_at
from duplicate.analysis.estimate import DEFAULT_BUDGET, Budget
from duplicate.compare import first_divergence, trace_room
from duplicate.gdn import DealRecord
from engine.ruleset import COMPETITION, Ruleset

__all__ = ["RoomAnalysis", "RoomsAnalysis", "analyse_rooms", "changes"]


def changes(annotation: Annotation) -> tuple[Decision, ...]:
    """The decisions that changed the value: a mark, or exact values before and after
    that differ."""
    return tuple(
        d
        for d in annotation.decisions
        if d.mark or (d.before.exact and d.after.exact and d.before.value != d.after.value)
    )


@dataclass(frozen=True, slots=True)
class RoomAnalysis:
    """One room from the divergence on: its choice there and the decisions that changed
    the value."""

    room: str
    choice: Decision | None  # None when the room's play list ended before the divergence
    swings: tuple[Decision, ...]
    annotation: Annotation

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "room": self.room,
            "choice": self.choice.to_dict() if self.choice is not None else None,
            "swings": [d.to_dict() for d in self.swings],
            "result_ns": self.annotation.result,
        }


@dataclass(frozen=True, slots=True)
class RoomsAnalysis:
    """A board's rooms valued from their first divergence (``None``: they never differed)."""

    board: str | None
    divergence: int | None
    rooms: tuple[RoomAnalysis, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "board": self.board,
            "divergence": self.divergence,
            "rooms": [r.to_dict() for r in self.rooms],
        }


def analyse_rooms(
    records: Sequence[DealRecord], rules: Ruleset = COMPETITION, budget: Budget = DEFAULT_BUDGET
) -> RoomsAnalysis:
    """Value each room's choices on one board from the first divergence (see the module
    docstring). ``records`` are the rooms of one board, e.g. a group of
    ``duplicate.compare.group_boards``."""
    traces = [trace_room(r, rules) for r in records]
    d = first_divergence(traces) if len(traces) >= 2 else None
    board = records[0].board if records else None
    if d is None:
        return RoomsAnalysis(board, None, ())
    rooms = []
    for rec, trace in zip(records, traces, strict=True):
        if d >= len(trace.moves):
            continue
        ann = annotate(
            rec, "divergence", rules, budget, divergence=d, with_par=False, estimates=False
        )
        if ann.decisions and ann.decisions[0].ply == d:
            choice = ann.decisions[0]
        else:  # out of the solver's reach: valued on its own, an estimate if need be
            choice = decision_at(rec, d, rules, budget)
        rooms.append(RoomAnalysis(trace.room, choice, changes(ann), ann))
    return RoomsAnalysis(board, d, tuple(rooms))
