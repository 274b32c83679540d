"""Analyses stored in the database, and which records each event asked to be analysed.

Adds ``analyses`` (one row a record key: the digest of the deal, its plays, the rules and
the budget, ``duplicate.review.analysis.record_key``; unique, so the same record is
analysed and stored once, a second store of it a no-op) with the result as JSON and who
computed it when; ``analysis_events`` (an event whose analysis was asked for, with the
budget: the workers' sweep queues its records as they come) and ``analysis_requests``
(the record keys an event's analysis asked for, unique per event: its progress is how
many of them ``analyses`` holds). See
``duplicate.jobs`` and docs/ANALYSIS.md. The job queue's own tables (procrastinate's, on
PostgreSQL) are not made here: ``guandan db upgrade`` applies them.

A downgrade drops the tables without refusing: an analysis is computed again from the
stored records, the same values for the same budget.

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-07 22:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "analyses",
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("computed_by", sa.String(length=200), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_analyses")),
    )
    op.create_table(
        "analysis_events",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("budget", sa.Text(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"],
            name=op.f("fk_analysis_events_event_id_events"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_analysis_events")),
    )
    op.create_table(
        "analysis_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"],
            name=op.f("fk_analysis_requests_event_id_events"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_analysis_requests")),
        sa.UniqueConstraint("event_id", "key", name=op.f("uq_analysis_requests_event_id_key")),
    )


def downgrade() -> None:
    """Drop the three tables (analyses are computed again from the records: no refusal)."""
    op.drop_table("analysis_requests")
    op.drop_table("analysis_events")
    op.drop_table("analyses")
