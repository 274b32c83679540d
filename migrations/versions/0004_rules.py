"""Rule sets: the rules an event plays under, and the rules a deal record was checked under.

Adds ``events.rules`` and ``deal_records.rules``: the ``engine.ruleset.Ruleset`` as JSON
(every variant of RULES.md, keys sorted). Existing rows get the competition rules, which is
what they were played and checked under before this revision. The rules become part of a
deal record's key (the unique constraint gains ``rules``): the same record imported under
other rules is another record (docs/FORMAT.md, "Rule variants").

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29 16:40:00.000000
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from migrations.losses import DatabaseError, offline, phrase, would_lose

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The competition rules as this revision knows them (``json.dumps(COMPETITION.to_dict(),
#: sort_keys=True)`` when it was written). A literal, not an import, so that the migration
#: stays what it was when the rule set grows.
#: The competition rules with the keys added after this revision (as engine.ruleset's
#: COMPETITION held them when this was written): a rule set that has one of them at its
#: competition value names no variant.
LATER_COMPETITION = {
    "joker_pair_in_full_house": True, "bomb_max": 10, "jiefeng_next": False,
    "double_down_plus4": False, "a_fail_limit": 0, "return_max_rank": 8,
    "return_lower_at_ten": False, "limit_draw": False,
}
COMPETITION_JSON = (
    '{"a_fail_limit": 0, "bomb_max": 10, "double_down_plus4": false, "jiefeng_next": false, '
    '"joker_pair_in_full_house": true, "return_lower_at_ten": false, "return_max_rank": 8}'
)

_OLD_KEY = ["deal_id", "event", "round", "room", "version"]
_NEW_KEY = ["deal_id", "event", "round", "room", "rules", "version"]


def upgrade() -> None:
    """Add the ``rules`` columns (existing rows: the competition rules); key records by them."""
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rules", sa.Text(), server_default=COMPETITION_JSON, nullable=False)
        )
    with op.batch_alter_table("deal_records", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rules", sa.Text(), server_default=COMPETITION_JSON, nullable=False)
        )
        batch_op.drop_constraint(
            "uq_deal_records_deal_id_event_round_room_version", type_="unique"
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_deal_records_deal_id_event_round_room_rules_version"), _NEW_KEY
        )


def _variants(text: str) -> str:
    """The variants of the rule set ``text`` (JSON): ``name=value`` for each rule that is
    not the competition's, "" for the competition rules."""
    base = {**LATER_COMPETITION, **json.loads(COMPETITION_JSON)}
    try:
        rules = json.loads(text)
    except ValueError:
        return "unreadable rules"
    if not isinstance(rules, dict):
        return "unreadable rules"
    return ", ".join(
        f"{k}={json.dumps(v)}" for k, v in sorted(rules.items()) if k not in base or base[k] != v
    )


def _variants_lost(bind: sa.Connection) -> None:
    for name, rules in bind.execute(sa.text("SELECT name, rules FROM events ORDER BY id")):
        variants = _variants(rules)
        if variants:
            would_lose(phrase("out.loss.event_variants", event=repr(name), variants=variants))
    records = 0
    for rules, n in bind.execute(sa.text("SELECT rules, COUNT(*) FROM deal_records GROUP BY rules")):
        if _variants(rules):
            records += int(n)
    if records:
        would_lose(phrase("out.loss.record_variants", n=records))


def downgrade() -> None:
    """Drop the ``rules`` columns and restore the old record key.

    Refused (nothing changed) when one board and room holds records under several rule
    sets: the old key cannot hold both, and dropping one would lose a record silently.
    Events and records under other rules than the competition's lose them (the older
    schema plays everything by the competition rules): refused unless forced.
    """
    bind = op.get_bind()
    if not offline():
        _variants_lost(bind)
    clash = bind.execute(
        sa.text(
            "SELECT deal_id, event, round, room, version FROM deal_records "
            "GROUP BY deal_id, event, round, room, version HAVING COUNT(*) > 1"
        )
    ).first()
    if clash is not None:
        raise DatabaseError(
            "cannot downgrade below 0004: deal_records holds records of DealId "
            f"{clash[0][:12]}…, event {clash[1]!r}, round {clash[2]!r}, room {clash[3]!r}, "
            f"version {clash[4]} under several rule sets; delete all but one first"
        )
    with op.batch_alter_table("deal_records", schema=None) as batch_op:
        batch_op.drop_constraint(
            "uq_deal_records_deal_id_event_round_room_rules_version", type_="unique"
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_deal_records_deal_id_event_round_room_version"), _OLD_KEY
        )
        batch_op.drop_column("rules")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("rules")
