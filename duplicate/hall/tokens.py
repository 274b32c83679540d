"""Table tokens (stub: filled in next commit)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Engine

from duplicate.hall.base import Grant, TableCard


def issue_tokens(engine: Engine, event: str, round_no: int, by: str) -> list[TableCard]:
    """Fresh tokens for every table and room of the round."""
    raise NotImplementedError


def grant_for(engine: Engine, token: str, now: datetime | None = None) -> Grant:
    """What ``token`` may do."""
    raise NotImplementedError
