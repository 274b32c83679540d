"""The store's keys against concurrent writers: one row per record text of a room, and a
numbered log.

* ``play_records``: unique (``result_id``, ``content_hash``). Rows that repeat one (left
  by two imports of one file at once) are merged first: every change that named a copy
  names the first row, and the copies are deleted.
* ``result_changes.seq``: a room's changes numbered 1, 2, … in the order they were made
  (their ids), unique with ``result_id``. A change that repeats the one before it in the
  same room (same action, same before, same after: a second writer that read a stale
  current result) is deleted first, so that the chain reads whole.

Downgrading drops the keys and the column; merged and deleted copies stay gone (they
were copies).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 17:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: rows read and written at a time (memory bounded on any database)
_CHUNK = 1000
#: the columns of a change compared to find one that repeats its predecessor
_STATE = (
    "action", "status", "ns_result", "note", "finish", "record_id",
    "old_status", "old_ns_result", "old_note", "old_finish", "old_record_id",
)  # fmt: skip


def _merge_records(conn: sa.Connection) -> None:
    """Point every change at the first row of its record text, then delete the copies."""
    first = (
        "(SELECT MIN(p2.id) FROM play_records p1 JOIN play_records p2 "
        "ON p2.result_id = p1.result_id AND p2.content_hash = p1.content_hash "
        "WHERE p1.id = result_changes.{col})"
    )
    for col in ("record_id", "old_record_id"):
        conn.execute(
            sa.text(
                f"UPDATE result_changes SET {col} = {first.format(col=col)} "
                f"WHERE {col} IS NOT NULL AND {col} <> {first.format(col=col)}"
            )
        )
    conn.execute(
        sa.text(
            "DELETE FROM play_records WHERE id > (SELECT MIN(p2.id) FROM play_records p2 "
            "WHERE p2.result_id = play_records.result_id "
            "AND p2.content_hash = play_records.content_hash)"
        )
    )


def _number_changes(conn: sa.Connection) -> None:
    """Delete each change that repeats its predecessor in the same room; number the rest.

    Read a page at a time in (room, id) order (memory bounded on any database)."""
    cols = ", ".join(_STATE)
    page = sa.text(
        f"SELECT id, result_id, {cols} FROM result_changes "
        "WHERE result_id > :r OR (result_id = :r AND id > :i) "
        f"ORDER BY result_id, id LIMIT {_CHUNK}"
    )
    room, seq, before = None, 0, None
    at = {"r": -1, "i": -1}
    while True:
        rows = conn.execute(page, at).fetchall()
        if not rows:
            return
        doubles: list[dict[str, int]] = []
        numbers: list[dict[str, int]] = []
        for row in rows:
            cid, rid, state = row[0], row[1], tuple(row[2:])
            if rid != room:
                room, seq, before = rid, 0, None
            if state == before:
                doubles.append({"id": cid})
            else:
                seq += 1
                numbers.append({"seq": seq, "id": cid})
                before = state
        if doubles:
            conn.execute(sa.text("DELETE FROM result_changes WHERE id = :id"), doubles)
        if numbers:
            conn.execute(sa.text("UPDATE result_changes SET seq = :seq WHERE id = :id"), numbers)
        at = {"r": rows[-1][1], "i": rows[-1][0]}


def upgrade() -> None:
    """Merge copies, number the log, add the keys."""
    conn = op.get_bind()
    _merge_records(conn)
    op.add_column("result_changes", sa.Column("seq", sa.Integer(), nullable=True))
    _number_changes(conn)
    with op.batch_alter_table("result_changes") as batch:
        batch.alter_column("seq", existing_type=sa.Integer(), nullable=False)
        batch.create_unique_constraint(
            op.f("uq_result_changes_result_id_seq"), ["result_id", "seq"]
        )
        batch.create_check_constraint(op.f("ck_result_changes_seq"), "seq >= 1")
    with op.batch_alter_table("play_records") as batch:
        batch.create_unique_constraint(
            op.f("uq_play_records_result_id_content_hash"), ["result_id", "content_hash"]
        )


def downgrade() -> None:
    """Drop the keys and the numbers."""
    with op.batch_alter_table("play_records") as batch:
        batch.drop_constraint(op.f("uq_play_records_result_id_content_hash"), type_="unique")
    with op.batch_alter_table("result_changes") as batch:
        batch.drop_constraint(op.f("ck_result_changes_seq"), type_="check")
        batch.drop_constraint(op.f("uq_result_changes_result_id_seq"), type_="unique")
        batch.drop_column("seq")
