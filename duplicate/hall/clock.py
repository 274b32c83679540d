"""The round clock, check-in, lateness (stub: filled in next commit)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine

from duplicate.hall.base import Arrival, Clock


def start_round(
    engine: Engine,
    event: str,
    round_no: int,
    by: str,
    *,
    minutes: int = 50,
    warning_minutes: int = 5,
    correction_minutes: int = 10,
    now: datetime | None = None,
) -> Clock:
    """Start the round's clock."""
    raise NotImplementedError


def round_clock(engine: Engine, event: str, round_no: int, now: datetime | None = None) -> Clock:
    """The round's clock."""
    raise NotImplementedError


def check_in(
    engine: Engine, event: str, round_no: int, team: str, by: str, now: datetime | None = None
) -> Arrival:
    """Check a team in."""
    raise NotImplementedError


def arrivals(
    engine: Engine, event: str, round_no: int, now: datetime | None = None
) -> list[Arrival]:
    """Every team of the round."""
    raise NotImplementedError
