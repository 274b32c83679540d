"""An event's language: the default of its pages and report (English or Chinese).

Adds ``events.lang`` (``en`` or ``zh``); existing events get ``en``, the language every
report had before this revision.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 00:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import names, offline, phrase, would_lose

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add ``events.lang`` (default ``en``), checked to be one of the two languages."""
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("lang", sa.String(length=5), server_default="en", nullable=False)
        )
        batch_op.create_check_constraint(batch_op.f("ck_events_lang"), "lang IN ('en', 'zh')")


def downgrade() -> None:
    """Drop ``events.lang`` (the events themselves stay; a Chinese event's language is a
    loss: refused unless forced)."""
    if not offline():
        zh = names(op.get_bind(), "SELECT name FROM events WHERE lang <> 'en' ORDER BY id")
        if zh:
            would_lose(phrase("out.loss.lang", events=zh))
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_events_lang"), type_="check")
        batch_op.drop_column("lang")
