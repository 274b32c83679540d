"""The director's desk (stub: filled in next commit)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine

from duplicate.hall.base import Clock, Report, RoomStatus


def round_status(engine: Engine, event: str, round_no: int) -> list[RoomStatus]:
    """Every table and room's boards."""
    raise NotImplementedError


def disputes(engine: Engine, event: str, round_no: int | None = None) -> list[Report]:
    """Open disputes."""
    raise NotImplementedError


def settle_dispute(
    engine: Engine,
    event: str,
    report_id: int,
    by: str,
    reason: str,
    *,
    finish: str | None = None,
    ns_result: int | None = None,
    unfinished: str | None = None,
) -> Report:
    """Settle a dispute."""
    raise NotImplementedError


def close_round(
    engine: Engine, event: str, round_no: int, by: str, now: datetime | None = None
) -> Clock:
    """Close and score the round."""
    raise NotImplementedError


def publish_round(
    engine: Engine, event: str, round_no: int, by: str, now: datetime | None = None
) -> Clock:
    """Publish the round."""
    raise NotImplementedError


def director_correct(
    engine: Engine,
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    ns_result: int,
    by: str,
    reason: str,
) -> None:
    """A director's correction."""
    raise NotImplementedError
