"""Public views (stub: filled in next commit)."""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate.hall.base import DrawRow, LiveStandings, PublicMatch


def draw(engine: Engine, event: str, round_no: int) -> list[DrawRow]:
    """The draw."""
    raise NotImplementedError


def live_standings(engine: Engine, event: str) -> LiveStandings:
    """The standings."""
    raise NotImplementedError


def results_version(engine: Engine, event: str) -> str:
    """A cheap version of the event's results."""
    raise NotImplementedError


def public_match(engine: Engine, event: str, round_no: int, table: int) -> PublicMatch:
    """A match board by board."""
    raise NotImplementedError


def board_released(engine: Engine, event: str, round_no: int, board: int) -> bool:
    """Whether the board is released."""
    raise NotImplementedError


def current_round(engine: Engine, event: str) -> int | None:
    """The highest round with boards assigned."""
    raise NotImplementedError
