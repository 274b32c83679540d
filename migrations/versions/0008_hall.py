"""The tournament hall service: round clocks, check-ins, table tokens, reports
and rulings.

Adds ``hall_rounds`` (a round's clock: started, length, warning, correction window, closed,
published), ``hall_tokens`` (a table's tokens, SHA-256 only, void when reissued),
``hall_checkins`` (签到), ``hall_reports`` (West's reports and their state; at most one live
report per board and room: the unique (round, table, room, board, live) with ``live`` NULL
once replaced) and ``hall_rulings`` (the director's rulings: category, effect, team, board,
room, result, who, why). See ``duplicate.hall``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 00:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import rows_of

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the five tables."""
    op.create_table(
        "hall_checkins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("checked_in_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("made_by", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["event_rounds.id"],
            name=op.f("fk_hall_checkins_round_id_event_rounds"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["event_teams.id"],
            name=op.f("fk_hall_checkins_team_id_event_teams"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hall_checkins")),
        sa.UniqueConstraint("round_id", "team_id", name=op.f("uq_hall_checkins_round_id_team_id")),
    )
    op.create_table(
        "hall_reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=6), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("finish", sa.String(length=20), nullable=True),
        sa.Column("unfinished", sa.Text(), nullable=True),
        sa.Column("ns_result", sa.Integer(), nullable=True),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("correction", sa.Text(), nullable=True),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("live", sa.Boolean(), nullable=True),
        sa.Column("rev", sa.Integer(), nullable=False),
        sa.Column("reported_by", sa.String(length=200), nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("dispute_note", sa.Text(), nullable=True),
        sa.Column("settled_by", sa.String(length=200), nullable=True),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("settled_reason", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "(live IS NULL) = (state = 'replaced')", name=op.f("ck_hall_reports_live")
        ),
        sa.CheckConstraint("reported_by <> ''", name=op.f("ck_hall_reports_reported_by")),
        sa.CheckConstraint("room IN ('open', 'closed')", name=op.f("ck_hall_reports_room")),
        sa.CheckConstraint(
            "state IN ('reported', 'confirmed', 'disputed', 'settled', 'replaced')",
            name=op.f("ck_hall_reports_state"),
        ),
        sa.CheckConstraint(
            "(finish IS NULL) <> (unfinished IS NULL)", name=op.f("ck_hall_reports_one_kind")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["event_rounds.id"],
            name=op.f("fk_hall_reports_round_id_event_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hall_reports")),
        sa.UniqueConstraint(
            "round_id",
            "table_no",
            "room",
            "board",
            "live",
            name=op.f("uq_hall_reports_round_id_table_no_room_board_live"),
        ),
    )
    op.create_index(
        "ix_hall_reports_round_id_state", "hall_reports", ["round_id", "state"], unique=False
    )
    op.create_table(
        "hall_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("warning_minutes", sa.Integer(), nullable=False),
        sa.Column("correction_minutes", sa.Integer(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_by", sa.String(length=200), nullable=False),
        sa.CheckConstraint("correction_minutes >= 0", name=op.f("ck_hall_rounds_correction")),
        sa.CheckConstraint("minutes >= 1", name=op.f("ck_hall_rounds_minutes")),
        sa.CheckConstraint(
            "published_at IS NULL OR closed_at IS NOT NULL", name=op.f("ck_hall_rounds_published")
        ),
        sa.CheckConstraint(
            "warning_minutes >= 0 AND warning_minutes <= minutes",
            name=op.f("ck_hall_rounds_warning"),
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["event_rounds.id"],
            name=op.f("fk_hall_rounds_round_id_event_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hall_rounds")),
        sa.UniqueConstraint("round_id", name=op.f("uq_hall_rounds_round_id")),
    )
    op.create_table(
        "hall_rulings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(length=10), nullable=False),
        sa.Column("effect", sa.String(length=10), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("room", sa.String(length=6), nullable=True),
        sa.Column("ns_result", sa.Integer(), nullable=True),
        sa.Column("made_by", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "category IN ('warning', 'violation', 'foul', 'late', 'forfeit')",
            name=op.f("ck_hall_rulings_category"),
        ),
        sa.CheckConstraint(
            "effect <> 'assigned' OR ns_result IS NOT NULL", name=op.f("ck_hall_rulings_assigned")
        ),
        sa.CheckConstraint(
            "effect IN ('none', 'assigned', 'conceded', 'forfeit')",
            name=op.f("ck_hall_rulings_effect"),
        ),
        sa.CheckConstraint(
            "effect NOT IN ('conceded', 'forfeit') OR team_id IS NOT NULL",
            name=op.f("ck_hall_rulings_team"),
        ),
        sa.CheckConstraint("made_by <> ''", name=op.f("ck_hall_rulings_made_by")),
        sa.CheckConstraint("reason <> ''", name=op.f("ck_hall_rulings_reason")),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["event_rounds.id"],
            name=op.f("fk_hall_rulings_round_id_event_rounds"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["event_teams.id"],
            name=op.f("fk_hall_rulings_team_id_event_teams"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hall_rulings")),
    )
    op.create_index(op.f("ix_hall_rulings_round_id"), "hall_rulings", ["round_id"], unique=False)
    op.create_table(
        "hall_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=6), nullable=False),
        sa.Column("role", sa.String(length=7), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("void", sa.Boolean(), nullable=False),
        sa.CheckConstraint("role IN ('report', 'confirm')", name=op.f("ck_hall_tokens_role")),
        sa.CheckConstraint("room IN ('open', 'closed')", name=op.f("ck_hall_tokens_room")),
        sa.CheckConstraint("table_no >= 1", name=op.f("ck_hall_tokens_table_no")),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["event_rounds.id"],
            name=op.f("fk_hall_tokens_round_id_event_rounds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hall_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_hall_tokens_token_hash")),
    )
    op.create_index(op.f("ix_hall_tokens_round_id"), "hall_tokens", ["round_id"], unique=False)


def downgrade() -> None:
    """Drop the five tables (a loss when they hold rows: refused unless forced)."""
    rows_of(op.get_bind(), "hall_rounds", "hall_checkins", "hall_tokens", "hall_reports",
            "hall_rulings")
    op.drop_index(op.f("ix_hall_tokens_round_id"), table_name="hall_tokens")
    op.drop_table("hall_tokens")
    op.drop_index(op.f("ix_hall_rulings_round_id"), table_name="hall_rulings")
    op.drop_table("hall_rulings")
    op.drop_table("hall_rounds")
    op.drop_index("ix_hall_reports_round_id_state", table_name="hall_reports")
    op.drop_table("hall_reports")
    op.drop_table("hall_checkins")
