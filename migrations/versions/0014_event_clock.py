"""An event's local time and its directors' correction limit.

Adds ``events.time_zone`` (an IANA name such as ``Asia/Shanghai``; existing events get
``UTC``, the zone every page showed before this revision) and
``events.director_minutes``: how long after a round's publication a director may still
change one of its results (seeds/000 更正: 20 minutes unless the chief director sets
another limit; NULL means the chief director set none).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 20:15:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import names, offline, phrase, would_lose

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``events.time_zone`` (default ``UTC``) and ``events.director_minutes``
    (default 20, at least 0 when set)."""
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("time_zone", sa.String(length=64), server_default="UTC", nullable=False)
        )
        batch_op.add_column(
            sa.Column("director_minutes", sa.Integer(), server_default="20", nullable=True)
        )
        batch_op.create_check_constraint(
            batch_op.f("ck_events_director_minutes"),
            "director_minutes IS NULL OR director_minutes >= 0",
        )


def downgrade() -> None:
    """Drop both columns; an event with another zone or limit loses it (refused unless
    forced)."""
    if not offline():
        bind = op.get_bind()
        zoned = names(bind, "SELECT name FROM events WHERE time_zone <> 'UTC' ORDER BY id")
        if zoned:
            would_lose(phrase("out.loss.zone", events=zoned))
        limited = names(
            bind,
            "SELECT name FROM events WHERE director_minutes IS NULL"
            " OR director_minutes <> 20 ORDER BY id",
        )
        if limited:
            would_lose(phrase("out.loss.limit", events=limited))
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_events_director_minutes"), type_="check")
        batch_op.drop_column("director_minutes")
        batch_op.drop_column("time_zone")
