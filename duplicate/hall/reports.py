"""Reports from the table (stub: filled in next commit)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine

from duplicate.hall.base import Grant, Preview, Report, TableView


def preview_finish(engine: Engine, event: str, finish: str) -> Preview:
    """The result a finishing order implies."""
    raise NotImplementedError


def west_report(
    engine: Engine,
    grant: Grant,
    board: int,
    *,
    finish: str | None = None,
    unfinished: str | None = None,
    record: str | None = None,
    correction: str | None = None,
    now: datetime | None = None,
) -> tuple[Report, bool]:
    """West reports a board."""
    raise NotImplementedError


def north_confirm(
    engine: Engine, grant: Grant, board: int, report_id: int, now: datetime | None = None
) -> Report:
    """North confirms."""
    raise NotImplementedError


def north_dispute(
    engine: Engine,
    grant: Grant,
    board: int,
    report_id: int,
    note: str,
    now: datetime | None = None,
) -> Report:
    """North disputes."""
    raise NotImplementedError


def table_view(engine: Engine, grant: Grant, now: datetime | None = None) -> TableView:
    """What the token's holder sees."""
    raise NotImplementedError
