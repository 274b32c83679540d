"""Board sets and boards (duplicate.models.BoardSet, Board).

Revision ID: 0001
Revises:
Create Date: 2026-11-29 15:13:31.062775
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import rows_of

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``board_sets`` and ``boards`` with their named constraints."""
    op.create_table(
        "board_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("generator", sa.String(length=100), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("level_schedule", sa.String(length=20), nullable=False),
        sa.Column("delayed_value", sa.Text(), nullable=True),
        sa.Column("board_count", sa.Integer(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("revealed_seed", sa.Text(), nullable=True),
        sa.CheckConstraint("board_count >= 0", name=op.f("ck_board_sets_board_count")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_board_sets")),
        sa.UniqueConstraint("name", name=op.f("uq_board_sets_name")),
    )
    with op.batch_alter_table("board_sets", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_board_sets_commitment"), ["commitment"], unique=False)

    op.create_table(
        "boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("set_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("leader", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.String(length=64), nullable=False),
        sa.Column("hand_n", sa.Text(), nullable=False),
        sa.Column("hand_e", sa.Text(), nullable=False),
        sa.Column("hand_s", sa.Text(), nullable=False),
        sa.Column("hand_w", sa.Text(), nullable=False),
        sa.CheckConstraint("leader BETWEEN 0 AND 3", name=op.f("ck_boards_leader")),
        sa.CheckConstraint("level BETWEEN 0 AND 12", name=op.f("ck_boards_level")),
        sa.CheckConstraint("number >= 1", name=op.f("ck_boards_number")),
        sa.ForeignKeyConstraint(
            ["set_id"],
            ["board_sets.id"],
            name=op.f("fk_boards_set_id_board_sets"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_boards")),
        sa.UniqueConstraint("deal_id", name=op.f("uq_boards_deal_id")),
        sa.UniqueConstraint("set_id", "number", name=op.f("uq_boards_set_id_number")),
    )


def downgrade() -> None:
    """Drop ``boards`` and ``board_sets`` (a loss when they hold rows: refused unless forced)."""
    rows_of(op.get_bind(), "board_sets", "boards")
    op.drop_table("boards")
    with op.batch_alter_table("board_sets", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_board_sets_commitment"))

    op.drop_table("board_sets")
