"""An event's order of tie-breaks.

Adds ``events.tiebreaks``: the name of the order its standings rank by after the match
points (``duplicate.standings.TIEBREAK_ORDERS``): ``jiangsu``, the Jiangsu competition
rules' order (seeds/000; what every event ranked by before this revision), or
``friendly``, the 2026 friendly tournament's (seeds/004).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 19:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import names, offline, phrase, would_lose

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``events.tiebreaks`` (default ``jiangsu``, one of the known orders)."""
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("tiebreaks", sa.String(length=20), server_default="jiangsu",
                      nullable=False)
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_events_tiebreaks"), "tiebreaks IN ('jiangsu', 'friendly')"
        )


def downgrade() -> None:
    """Drop the column; an event ranked by another order loses it (refused unless
    forced)."""
    if not offline():
        other = names(op.get_bind(),
                      "SELECT name FROM events WHERE tiebreaks <> 'jiangsu' ORDER BY id")
        if other:
            would_lose(phrase("out.loss.tiebreaks", events=other))
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_events_tiebreaks"), type_="check")
        batch_op.drop_column("tiebreaks")
