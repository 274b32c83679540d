"""One truth for a room result: the finishing order it was counted from, and a table's
change after publication as a request on the desk.

* ``result_changes.finish`` (and ``old_finish``) already hold the order of a result
  reported from the table; a result counted from a play record now holds the record's
  order too (``store.canonical_finish``: two seats for a double down, else three).
  Upgrading fills it in for the existing changes that rest on a record and are not a
  director's (``note`` NULL); downgrading empties those again (revision 0008's code read
  the record for them).
* ``hall_reports.state`` may also be ``requested`` (a table's change after the round was
  published, waiting for the director), ``accepted`` or ``dismissed`` (what the director
  did with it). Downgrading turns an accepted request into ``settled`` and a waiting or
  dismissed one into ``replaced`` (no longer live): the results stay as they are.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 17:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD_STATES = ("reported", "confirmed", "disputed", "settled", "replaced")
_NEW_STATES = (*_OLD_STATES, "requested", "accepted", "dismissed")
_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}

_changes = sa.table(
    "result_changes",
    sa.column("id", sa.Integer),
    sa.column("finish", sa.String),
    sa.column("old_finish", sa.String),
    sa.column("note", sa.Text),
    sa.column("old_note", sa.Text),
    sa.column("record_id", sa.Integer),
    sa.column("old_record_id", sa.Integer),
)
_records = sa.table("play_records", sa.column("id", sa.Integer), sa.column("finish", sa.String))
_reports = sa.table(
    "hall_reports",
    sa.column("state", sa.String),
    sa.column("live", sa.Boolean),
)


def _canonical(text: str | None) -> str | None:
    """``store.canonical_finish`` as of this revision (a migration keeps its own copy)."""
    if text is None:
        return None
    seats = text.replace(",", " ").upper().split()
    if len(seats) < 2 or any(s not in _PARTNER for s in seats) or len(set(seats)) != len(seats):
        return text.strip() or None
    return " ".join(seats[: 2 if _PARTNER[seats[0]] == seats[1] else 3])


def _states(states: tuple[str, ...]) -> str:
    return "state IN (" + ", ".join(f"'{s}'" for s in states) + ")"


def _fill(column: str, record: str, note: str) -> None:
    """Set ``column`` of the changes resting on a record (not a director's) to its order."""
    c, p = _changes, _records
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(c.c.id, p.c.finish)
        .join(p, p.c.id == c.c[record])
        .where(c.c[column].is_(None), c.c[note].is_(None), p.c.finish.is_not(None))
    ).all()
    for change_id, finish in rows:
        bind.execute(
            sa.update(c).where(c.c.id == change_id).values({column: _canonical(finish)})
        )


def upgrade() -> None:
    """Widen the report states; fill in the order of results counted from a record."""
    with op.batch_alter_table("hall_reports", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_hall_reports_state"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_hall_reports_state"), _states(_NEW_STATES))
    _fill("finish", "record_id", "note")
    _fill("old_finish", "old_record_id", "old_note")


def downgrade() -> None:
    """Back to revision 0008's states and orders (see the module)."""
    bind = op.get_bind()
    r = _reports
    bind.execute(sa.update(r).where(r.c.state == "accepted").values(state="settled"))
    bind.execute(
        sa.update(r)
        .where(r.c.state.in_(("requested", "dismissed")))
        .values(state="replaced", live=None)
    )
    with op.batch_alter_table("hall_reports", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("ck_hall_reports_state"), type_="check")
        batch_op.create_check_constraint(batch_op.f("ck_hall_reports_state"), _states(_OLD_STATES))
    c = _changes
    bind.execute(
        sa.update(c)
        .where(c.c.record_id.is_not(None), c.c.note.is_(None))
        .values(finish=None)
    )
    bind.execute(
        sa.update(c)
        .where(c.c.old_record_id.is_not(None), c.c.old_note.is_(None))
        .values(old_finish=None)
    )
