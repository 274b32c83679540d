"""The director's server-side sessions and the login throttle.

Adds ``desk_sessions`` (a session's id as SHA-256, its CSRF token, the tag of the password
and secret it was opened under, when it was opened and when it expires) and
``desk_login_failures`` (wrong director passwords by client address, ``*`` for all
together, and until when further tries wait). See ``duplicate.sessions``. Downgrading
drops both (every director is logged out; the throttle forgets).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 16:50:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the two tables."""
    op.create_table(
        "desk_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("key_tag", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_desk_sessions")),
    )
    op.create_index(
        op.f("ix_desk_sessions_expires_at"), "desk_sessions", ["expires_at"], unique=False
    )
    op.create_table(
        "desk_login_failures",
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("address", name=op.f("pk_desk_login_failures")),
    )


def downgrade() -> None:
    """Drop the two tables (every session ends, the throttle forgets)."""
    op.drop_table("desk_login_failures")
    op.drop_index(op.f("ix_desk_sessions_expires_at"), table_name="desk_sessions")
    op.drop_table("desk_sessions")
