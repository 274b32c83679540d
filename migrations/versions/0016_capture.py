"""Plays captured at the table: the recorder's token and the captured boards and actions.

Adds ``capture_boards`` (one board started in one room of one table of a round, unique)
and ``capture_actions`` (its numbered actions; the unique key on (board, seq, live) stores
a resent action once), and lets ``hall_tokens.role`` be ``record`` (a recorder's card).
See ``duplicate.capture`` and docs/CAPTURE.md.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 19:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import count, offline, phrase, rows_of, would_lose

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the two tables; widen the tokens' role check."""
    with op.batch_alter_table("hall_tokens") as batch:
        batch.drop_constraint(batch.f("ck_hall_tokens_role"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_hall_tokens_role"), "role IN ('report', 'confirm', 'record')"
        )
    op.create_table(
        "capture_boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=6), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("started_by", sa.String(length=200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("result", sa.String(length=10), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.CheckConstraint("state IN ('playing', 'ended')", name=op.f("ck_capture_boards_state")),
        sa.CheckConstraint("room IN ('open', 'closed')", name=op.f("ck_capture_boards_room")),
        sa.CheckConstraint(
            "(state = 'ended') = (ended_at IS NOT NULL)", name=op.f("ck_capture_boards_ended")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["event_rounds.id"],
            name=op.f("fk_capture_boards_round_id_event_rounds"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_capture_boards")),
        sa.UniqueConstraint(
            "round_id", "table_no", "room", "board",
            name=op.f("uq_capture_boards_round_id_table_no_room_board"),
        ),
    )
    op.create_table(
        "capture_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("capture_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=1), nullable=False),
        sa.Column("cards", sa.String(length=200), nullable=False),
        sa.Column("ctype", sa.String(length=20), nullable=True),
        sa.Column("rank", sa.String(length=2), nullable=True),
        sa.Column("live", sa.Boolean(), nullable=True),
        sa.Column("entered_by", sa.String(length=200), nullable=False),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_by", sa.String(length=200), nullable=True),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_capture_actions_seq")),
        sa.CheckConstraint("seat IN ('N', 'E', 'S', 'W')", name=op.f("ck_capture_actions_seat")),
        sa.CheckConstraint(
            "(live IS NULL) = (undone_at IS NOT NULL)", name=op.f("ck_capture_actions_live")
        ),
        sa.ForeignKeyConstraint(
            ["capture_id"], ["capture_boards.id"],
            name=op.f("fk_capture_actions_capture_id_capture_boards"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_capture_actions")),
        sa.UniqueConstraint(
            "capture_id", "seq", "live", name=op.f("uq_capture_actions_capture_id_seq_live")
        ),
    )
    op.create_index(
        op.f("ix_capture_actions_capture_id"), "capture_actions", ["capture_id"], unique=False
    )


def downgrade() -> None:
    """Drop the two tables and the recorders' cards (what they hold is lost: refused
    unless forced)."""
    bind = op.get_bind()
    rows_of(bind, "capture_actions", "capture_boards")
    if not offline():
        n = count(bind, "SELECT COUNT(*) FROM hall_tokens WHERE role = 'record'")
        if n:
            would_lose(phrase("out.loss.recorder_cards", n=n))
    op.drop_index(op.f("ix_capture_actions_capture_id"), table_name="capture_actions")
    op.drop_table("capture_actions")
    op.drop_table("capture_boards")
    op.execute("DELETE FROM hall_tokens WHERE role = 'record'")
    with op.batch_alter_table("hall_tokens") as batch:
        batch.drop_constraint(batch.f("ck_hall_tokens_role"), type_="check")
        batch.create_check_constraint(
            batch.f("ck_hall_tokens_role"), "role IN ('report', 'confirm')"
        )
