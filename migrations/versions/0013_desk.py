"""The desk's clock controls: a round's clock can be paused, resumed and moved.

Adds to ``hall_rounds`` ``paused_at`` (when the director paused the clock; NULL while it
runs) and ``shift_seconds`` (seconds added to, or taken from, the round's end by earlier
pauses and by the director moving the clock; 0 by default). See
``duplicate.hall.clock.pause_clock``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 17:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the two columns (existing clocks: running, not moved)."""
    with op.batch_alter_table("hall_rounds") as batch:
        batch.add_column(sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("shift_seconds", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    """Drop them (a paused clock runs again; moves are forgotten)."""
    with op.batch_alter_table("hall_rounds") as batch:
        batch.drop_column("shift_seconds")
        batch.drop_column("paused_at")
