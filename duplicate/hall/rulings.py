"""The director's rulings (stub: filled in next commit)."""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate.hall.base import Ruling


def record_ruling(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    category: str,
    effect: str,
    by: str,
    reason: str,
    *,
    team: str | None = None,
    board: int | None = None,
    room: str | None = None,
    ns_result: int | None = None,
) -> Ruling:
    """Record a ruling."""
    raise NotImplementedError


def rulings(engine: Engine, event: str, round_no: int | None = None) -> list[Ruling]:
    """The event's rulings."""
    raise NotImplementedError
