"""Records stored in an older canonical form brought to today's.

The store tells a record it already holds by the hash of its canonical ``.gdn`` text
(``duplicate.records``). That form has grown since records were first stored: the stored
text states the computed ``Finish`` and ``Result`` (a file may leave them out), a double
down's ``Finish`` names its first two seats only, tag values are in NFC. A record stored
before then keeps its old text and hash, and importing the same file again is refused as
"a different record". This revision replays every stored record under its rules and
stores its canonical form today (text, hash, finish and result) where it differs; a record
that does not read or replay is left as it is. Read in batches: memory does not grow with
the store.

The downgrade changes nothing: today's form is a record every older revision reads alike.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 17:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import offline

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Records read at once.
BATCH = 500


def upgrade() -> None:
    """Store today's canonical form of every record stored in an older one."""
    if offline():  # a data migration: nothing to read when only SQL is written
        return
    from duplicate.records import canonical_form
    from duplicate.store.data import StoreError, load_rules

    conn = op.get_bind()
    last = 0
    while True:
        rows = conn.execute(
            sa.text(
                "SELECT p.id, p.gdn, p.content_hash, r.rules "
                "FROM play_records p JOIN room_results r ON r.id = p.result_id "
                "WHERE p.id > :last ORDER BY p.id LIMIT :n"
            ),
            {"last": last, "n": BATCH},
        ).all()
        if not rows:
            return
        for rec_id, text, digest, rules in rows:
            try:
                form = canonical_form(text, load_rules(rules, f"play record {rec_id}"))
            except StoreError:  # rules it cannot read: left as it is
                continue
            if form is None or (form.text, form.content_hash) == (text, digest):
                continue
            conn.execute(
                sa.text(
                    "UPDATE play_records SET gdn = :gdn, content_hash = :digest, "
                    "finish = :finish, result = :result WHERE id = :id"
                ),
                {
                    "gdn": form.text,
                    "digest": form.content_hash,
                    "finish": form.finish,
                    "result": form.result,
                    "id": rec_id,
                },
            )
        last = rows[-1][0]


def downgrade() -> None:
    """Nothing to undo: today's canonical form reads alike at every older revision."""
