"""The live view and the director's side of capture.

Adds to ``events`` the director's choice for the live view: ``live_mode`` (``released``:
spectators see a board once it is released, the default; ``delayed``: the holders of the
event's spectator link see it live after ``live_delay`` minutes) and ``watch_hash`` (the
SHA-256 of the spectator link's token, none until the director issues one). Lets a
captured board be ``unfinished`` (marked by the director) or ``withdrawn`` (its record
taken back); adds ``capture_corrections`` (the director's changes to a captured board:
who, when, why, before, after) and ``capture_analyses`` (a board's first divergence and
analysis once both rooms ended, computed in the background). See ``duplicate.capture``
and docs/CAPTURE.md.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07 22:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import count, names, offline, phrase, rows_of, would_lose

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the event's live settings, widen the captured board's states, create the two
    tables."""
    with op.batch_alter_table("events", schema=None) as batch:
        batch.add_column(sa.Column("live_mode", sa.String(length=8), server_default="released",
                                   nullable=False))
        batch.add_column(sa.Column("live_delay", sa.Integer(), server_default="15",
                                   nullable=False))
        batch.add_column(sa.Column("watch_hash", sa.String(length=64), nullable=True))
        batch.create_check_constraint(batch.f("ck_events_live_mode"),
                                      "live_mode IN ('released', 'delayed')")
        batch.create_check_constraint(batch.f("ck_events_live_delay"),
                                      "live_delay >= 0 AND live_delay <= 1440")
    with op.batch_alter_table("capture_boards", schema=None) as batch:
        batch.drop_constraint(batch.f("ck_capture_boards_state"), type_="check")
        batch.drop_constraint(batch.f("ck_capture_boards_ended"), type_="check")
        batch.alter_column("state", existing_type=sa.String(length=8),
                           type_=sa.String(length=10), existing_nullable=False)
        batch.create_check_constraint(
            batch.f("ck_capture_boards_state"),
            "state IN ('playing', 'ended', 'unfinished', 'withdrawn')")
        batch.create_check_constraint(
            batch.f("ck_capture_boards_ended"), "(state = 'playing') = (ended_at IS NULL)")
    op.create_table(
        "capture_corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("capture_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("made_by", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('play', 'unfinished', 'withdrawn')",
                           name=op.f("ck_capture_corrections_kind")),
        sa.CheckConstraint("made_by <> ''", name=op.f("ck_capture_corrections_made_by")),
        sa.CheckConstraint("reason <> ''", name=op.f("ck_capture_corrections_reason")),
        sa.ForeignKeyConstraint(
            ["capture_id"], ["capture_boards.id"],
            name=op.f("fk_capture_corrections_capture_id_capture_boards"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_capture_corrections")),
    )
    op.create_index(op.f("ix_capture_corrections_capture_id"), "capture_corrections",
                    ["capture_id"], unique=False)
    op.create_table(
        "capture_analyses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("records_hash", sa.String(length=64), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["event_rounds.id"],
            name=op.f("fk_capture_analyses_round_id_event_rounds"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_capture_analyses")),
        sa.UniqueConstraint("round_id", "table_no", "board", "records_hash",
                            name=op.f("uq_capture_analyses_round_id_table_no_board_records_hash")),
    )


def downgrade() -> None:
    """Drop the two tables and the live settings; a board marked unfinished or taken back
    and an event's live choice are lost (refused unless forced)."""
    bind = op.get_bind()
    rows_of(bind, "capture_corrections", "capture_analyses")
    if not offline():
        n = count(bind, "SELECT COUNT(*) FROM capture_boards "
                        "WHERE state IN ('unfinished', 'withdrawn')")
        if n:
            would_lose(phrase("out.loss.capture_states", n=n))
        other = names(bind, "SELECT name FROM events WHERE live_mode <> 'released' "
                            "OR watch_hash IS NOT NULL ORDER BY id")
        if other:
            would_lose(phrase("out.loss.live_settings", events=other))
    op.drop_index(op.f("ix_capture_corrections_capture_id"), table_name="capture_corrections")
    op.drop_table("capture_corrections")
    op.drop_table("capture_analyses")
    op.execute("DELETE FROM capture_boards WHERE state IN ('unfinished', 'withdrawn')")
    with op.batch_alter_table("capture_boards", schema=None) as batch:
        batch.drop_constraint(batch.f("ck_capture_boards_state"), type_="check")
        batch.drop_constraint(batch.f("ck_capture_boards_ended"), type_="check")
        batch.alter_column("state", existing_type=sa.String(length=10),
                           type_=sa.String(length=8), existing_nullable=False)
        batch.create_check_constraint(batch.f("ck_capture_boards_state"),
                                      "state IN ('playing', 'ended')")
        batch.create_check_constraint(batch.f("ck_capture_boards_ended"),
                                      "(state = 'ended') = (ended_at IS NOT NULL)")
    with op.batch_alter_table("events", schema=None) as batch:
        batch.drop_constraint(batch.f("ck_events_live_mode"), type_="check")
        batch.drop_constraint(batch.f("ck_events_live_delay"), type_="check")
        batch.drop_column("watch_hash")
        batch.drop_column("live_delay")
        batch.drop_column("live_mode")
