"""A director's changes to an event: board releases, withdrawals, and the admin log.

Adds ``event_releases`` (a board released to the players before every table of its round
had it in: who, when, why), ``event_withdrawals`` (a team paired no more after a round) and
``admin_log`` (renames, substitutions, withdrawals, deletions of events and board sets,
boards reused: who, when, why, what; no foreign keys, so an entry outlives what it names).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 20:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import rows_of

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _who(table: str) -> list[sa.SchemaItem]:
    return [
        sa.Column("made_by", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column(
            "made_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint("made_by <> ''", name=op.f(f"ck_{table}_made_by")),
        sa.CheckConstraint("reason <> ''", name=op.f(f"ck_{table}_reason")),
    ]


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "event_releases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        *_who("event_releases"),
        sa.CheckConstraint("board >= 1", name=op.f("ck_event_releases_board")),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["event_rounds.id"],
            name=op.f("fk_event_releases_round_id_event_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_releases")),
        sa.UniqueConstraint("round_id", "board", name=op.f("uq_event_releases_round_id_board")),
    )
    op.create_table(
        "event_withdrawals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("after_round", sa.Integer(), nullable=False),
        *_who("event_withdrawals"),
        sa.CheckConstraint("after_round >= 0", name=op.f("ck_event_withdrawals_after_round")),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["event_teams.id"],
            name=op.f("fk_event_withdrawals_team_id_event_teams"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_withdrawals")),
        sa.UniqueConstraint("team_id", name=op.f("uq_event_withdrawals_team_id")),
    )
    op.create_table(
        "admin_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("event", sa.String(length=200), nullable=True),
        sa.Column("board_set", sa.String(length=200), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        *_who("admin_log"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_log")),
    )
    op.create_index(op.f("ix_admin_log_event"), "admin_log", ["event"], unique=False)


def downgrade() -> None:
    """Drop the three tables (a loss when they hold rows: refused unless forced)."""
    rows_of(op.get_bind(), "event_releases", "event_withdrawals", "admin_log")
    op.drop_index(op.f("ix_admin_log_event"), table_name="admin_log")
    op.drop_table("admin_log")
    op.drop_table("event_withdrawals")
    op.drop_table("event_releases")
