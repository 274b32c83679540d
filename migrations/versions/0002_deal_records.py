"""Deal records (duplicate.models.DealRecordRow): imported, replayed .gdn records.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 15:21:07.707619
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import rows_of

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``deal_records`` with its named constraints and indexes."""
    op.create_table(
        "deal_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.String(length=64), nullable=False),
        sa.Column("event", sa.String(length=200), nullable=False),
        sa.Column("round", sa.String(length=50), nullable=False),
        sa.Column("room", sa.String(length=100), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("board_id", sa.Integer(), nullable=True),
        sa.Column("board_number", sa.String(length=50), nullable=True),
        sa.Column("north", sa.String(length=200), nullable=True),
        sa.Column("east", sa.String(length=200), nullable=True),
        sa.Column("south", sa.String(length=200), nullable=True),
        sa.Column("west", sa.String(length=200), nullable=True),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("leader", sa.Integer(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("finish", sa.String(length=20), nullable=False),
        sa.Column("result", sa.String(length=10), nullable=False),
        sa.Column("ns_score", sa.Integer(), nullable=False),
        sa.Column("gdn", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("correction_reason", sa.Text(), nullable=True),
        sa.Column("corrected_by", sa.String(length=200), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint(
            "(version = 1 AND correction_reason IS NULL) OR (version > 1 AND correction_reason IS NOT NULL)",
            name=op.f("ck_deal_records_correction_reason"),
        ),
        sa.CheckConstraint("leader BETWEEN 0 AND 3", name=op.f("ck_deal_records_leader")),
        sa.CheckConstraint("level BETWEEN 0 AND 12", name=op.f("ck_deal_records_level")),
        sa.CheckConstraint(
            "ns_score BETWEEN -4 AND 4 AND ns_score <> 0", name=op.f("ck_deal_records_ns_score")
        ),
        sa.CheckConstraint("version >= 1", name=op.f("ck_deal_records_version")),
        sa.ForeignKeyConstraint(
            ["board_id"],
            ["boards.id"],
            name=op.f("fk_deal_records_board_id_boards"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal_records")),
        sa.UniqueConstraint(
            "deal_id",
            "event",
            "round",
            "room",
            "version",
            name=op.f("uq_deal_records_deal_id_event_round_room_version"),
        ),
    )
    with op.batch_alter_table("deal_records", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deal_records_board_id"), ["board_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_deal_records_content_hash"), ["content_hash"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_deal_records_deal_id"), ["deal_id"], unique=False)


def downgrade() -> None:
    """Drop ``deal_records`` (a loss when it holds rows: refused unless forced)."""
    rows_of(op.get_bind(), "deal_records")
    with op.batch_alter_table("deal_records", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deal_records_deal_id"))
        batch_op.drop_index(batch_op.f("ix_deal_records_content_hash"))
        batch_op.drop_index(batch_op.f("ix_deal_records_board_id"))

    op.drop_table("deal_records")
