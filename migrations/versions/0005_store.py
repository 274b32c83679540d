"""The one store of played deals: ``room_results``, ``play_records`` and the log
``result_changes`` replace ``deal_records``, ``event_results`` and ``event_corrections``.

Every row of the old tables moves over (duplicate.store, docs/DESIGN.md "The store"):

* ``deal_records``: each key (DealId, event, round, room, rules) becomes a room result
  (table ""), each version a play record, version 1 an ``import`` change and each later
  version a ``correction`` (who and why: the version's), made when it was stored.
* ``event_results``: each row becomes a room result of its match (the board's DealId, the
  event's name, round and table numbers, the room, the event's rules), its record (if any)
  a play record; its corrections (``event_corrections``, whose before and after were text)
  become ``correction`` or ``ruling`` changes with their who, when and why, the states read
  back from that text, after a first change giving the result they corrected; the last
  change states the row as it was.

The downgrade moves them back the same way and refuses (nothing changed) what the old
tables cannot hold: a result reported without a record outside an event, or two tables'
records of one board and room outside an event. Results, records, corrections and rulings
go back whole; what the old tables had no column for (who imported or reported and when,
a reported finishing order) does not.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 20:30:00.000000
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from migrations.losses import DatabaseError, count, offline, phrase, would_lose

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The competition rules as revision 0004 wrote them (the columns' default).
COMPETITION_JSON = (
    '{"a_fail_limit": 0, "bomb_max": 10, "double_down_plus4": false, "jiefeng_next": false, '
    '"joker_pair_in_full_house": true, "return_lower_at_ten": false, "return_max_rank": 8}'
)
#: Who made a change the old tables did not name.
UNKNOWN = "unknown (before migration 0005)"
RULING = "director's ruling"

_room_results = sa.table(
    "room_results",
    sa.column("id", sa.Integer),
    sa.column("deal_id", sa.String),
    sa.column("board_id", sa.Integer),
    sa.column("board", sa.String),
    sa.column("event", sa.String),
    sa.column("round", sa.String),
    sa.column("table_key", sa.String),
    sa.column("room", sa.String),
    sa.column("rules", sa.Text),
    sa.column("match_id", sa.Integer),
    sa.column("created_at"),
)
_play_records = sa.table(
    "play_records",
    sa.column("id", sa.Integer),
    sa.column("result_id", sa.Integer),
    sa.column("gdn", sa.Text),
    sa.column("content_hash", sa.String),
    sa.column("finish", sa.String),
    sa.column("result", sa.String),
    sa.column("ns_score", sa.Integer),
    sa.column("source", sa.Text),
    sa.column("created_at"),
)
_changes = sa.table(
    "result_changes",
    *(
        sa.column(n)
        for n in (
            "id",
            "result_id",
            "action",
            "made_by",
            "made_at",
            "reason",
            "status",
            "ns_result",
            "note",
            "finish",
            "record_id",
            "old_status",
            "old_ns_result",
            "old_note",
            "old_record_id",
        )
    ),
)

#: A state: (status, ns_result, note, record_id).
State = tuple[str, int | None, str | None, int | None]


def _insert(conn: sa.Connection, table: Any, values: dict[str, Any]) -> int:
    return int(conn.execute(sa.insert(table).returning(table.c.id), values).scalar_one())


def _change(
    conn: sa.Connection,
    result_id: int,
    action: str,
    by: str,
    at: datetime | None,
    reason: str,
    new: State,
    old: State | None,
) -> None:
    conn.execute(
        sa.insert(_changes),
        {
            "result_id": result_id,
            "action": action,
            "made_by": by or UNKNOWN,
            "made_at": at or datetime.now(UTC),
            "reason": reason or "stored before migration 0005",
            "status": new[0],
            "ns_result": new[1],
            "note": new[2],
            "finish": None,
            "record_id": new[3],
            "old_status": old[0] if old else None,
            "old_ns_result": old[1] if old else None,
            "old_note": old[2] if old else None,
            "old_record_id": old[3] if old else None,
        },
    )


_DESCRIBED = re.compile(r"^(NS|EW) \+([1-4])(?: \((.*)\))?$")


def _parse(text: str, record_hash: str | None, record_id: int | None) -> State | None:
    """A state from the text ``events._describe`` wrote into ``event_corrections``."""
    if text == "no result":
        return None
    if text.startswith("unfinished (") and text.endswith(")"):
        note = text[len("unfinished (") : -1]
        return ("unfinished", None, None if note == "no reason given" else note, None)
    m = _DESCRIBED.match(text)
    if m is None:
        return ("unfinished", None, f"not read back by migration 0005: {text}", None)
    ns = int(m.group(2)) * (1 if m.group(1) == "NS" else -1)
    paren = m.group(3)
    if paren and paren.startswith("record "):
        if record_hash is not None and record_hash.startswith(paren[len("record ") :]):
            return ("played", ns, None, record_id)
        # a record event_results no longer kept: its words stay, as the state's note
        return ("played", ns, paren, None)
    return ("played", ns, paren, None)


def _tag(text: str, name: str) -> str | None:
    m = re.search(rf'^\[{name} "([^"]*)"\]', text, re.MULTILINE)
    return m.group(1) if m else None


def upgrade() -> None:
    """Create the store, move every row of the old tables into it, drop them."""
    op.create_table(
        "room_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.String(length=64), nullable=False),
        sa.Column("board_id", sa.Integer(), nullable=True),
        sa.Column("board", sa.String(length=50), server_default="", nullable=False),
        sa.Column("event", sa.String(length=200), server_default="", nullable=False),
        sa.Column("round", sa.String(length=50), server_default="", nullable=False),
        sa.Column("table_key", sa.String(length=50), server_default="", nullable=False),
        sa.Column("room", sa.String(length=100), server_default="", nullable=False),
        sa.Column("rules", sa.Text(), server_default=COMPETITION_JSON, nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint(
            "match_id IS NULL OR room IN ('open', 'closed')",
            name=op.f("ck_room_results_match_room"),
        ),
        sa.ForeignKeyConstraint(
            ["board_id"],
            ["boards.id"],
            name=op.f("fk_room_results_board_id_boards"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["event_matches.id"],
            name=op.f("fk_room_results_match_id_event_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_room_results")),
        sa.UniqueConstraint(
            "deal_id",
            "event",
            "round",
            "table_key",
            "room",
            "rules",
            name=op.f("uq_room_results_deal_id_event_round_table_key_room_rules"),
        ),
    )
    op.create_table(
        "play_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("gdn", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("finish", sa.String(length=20), nullable=True),
        sa.Column("result", sa.String(length=10), nullable=True),
        sa.Column("ns_score", sa.Integer(), nullable=True),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["room_results.id"],
            name=op.f("fk_play_records_result_id_room_results"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_records")),
    )
    op.create_table(
        "result_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("result_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=12), nullable=False),
        sa.Column("made_by", sa.String(length=200), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("ns_result", sa.Integer(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("finish", sa.String(length=20), nullable=True),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.Column("old_status", sa.String(length=12), nullable=True),
        sa.Column("old_ns_result", sa.Integer(), nullable=True),
        sa.Column("old_note", sa.Text(), nullable=True),
        sa.Column("old_finish", sa.String(length=20), nullable=True),
        sa.Column("old_record_id", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "(status = 'played' AND ns_result IS NOT NULL AND ns_result BETWEEN -4 AND 4 AND ns_result <> 0) OR (status = 'unfinished' AND ns_result IS NULL)",
            name=op.f("ck_result_changes_state"),
        ),
        sa.CheckConstraint(
            "action IN ('import', 'report', 'attach', 'unfinished', 'correction', 'ruling')",
            name=op.f("ck_result_changes_action"),
        ),
        sa.CheckConstraint("made_by <> ''", name=op.f("ck_result_changes_made_by")),
        sa.CheckConstraint(
            "old_status IS NULL OR (old_status = 'played' AND old_ns_result IS NOT NULL AND old_ns_result BETWEEN -4 AND 4 AND old_ns_result <> 0) OR (old_status = 'unfinished' AND old_ns_result IS NULL)",
            name=op.f("ck_result_changes_old_state"),
        ),
        sa.CheckConstraint("reason <> ''", name=op.f("ck_result_changes_reason")),
        sa.ForeignKeyConstraint(
            ["old_record_id"],
            ["play_records.id"],
            name=op.f("fk_result_changes_old_record_id_play_records"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["record_id"],
            ["play_records.id"],
            name=op.f("fk_result_changes_record_id_play_records"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["result_id"],
            ["room_results.id"],
            name=op.f("fk_result_changes_result_id_room_results"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_result_changes")),
    )
    op.create_index(op.f("ix_room_results_match_id"), "room_results", ["match_id"], unique=False)
    op.create_index(op.f("ix_room_results_board_id"), "room_results", ["board_id"], unique=False)
    op.create_index(op.f("ix_play_records_result_id"), "play_records", ["result_id"], unique=False)
    op.create_index(
        op.f("ix_play_records_content_hash"), "play_records", ["content_hash"], unique=False
    )
    op.create_index(
        "ix_result_changes_result_id_id", "result_changes", ["result_id", "id"], unique=False
    )
    op.create_index(
        op.f("ix_result_changes_record_id"), "result_changes", ["record_id"], unique=False
    )
    conn = op.get_bind()
    _move_deal_records(conn)
    _move_event_results(conn)
    op.drop_table("event_corrections")
    op.drop_table("event_results")
    op.drop_index(op.f("ix_deal_records_board_id"), table_name="deal_records")
    op.drop_index(op.f("ix_deal_records_deal_id"), table_name="deal_records")
    op.drop_index(op.f("ix_deal_records_content_hash"), table_name="deal_records")
    op.drop_table("deal_records")


def _move_deal_records(conn: sa.Connection) -> None:
    rows = conn.execute(
        sa.text(
            "SELECT deal_id, event, round, room, rules, version, board_id, board_number, "
            "finish, result, ns_score, gdn, content_hash, source, correction_reason, "
            "corrected_by, created_at FROM deal_records "
            "ORDER BY deal_id, event, round, room, rules, version"
        )
    ).mappings()
    key: tuple[str, ...] | None = None
    result_id = 0
    old: State | None = None
    for r in rows:
        k = (r["deal_id"], r["event"], r["round"], r["room"], r["rules"])
        if k != key:
            key, old = k, None
            result_id = _insert(
                conn,
                _room_results,
                {
                    "deal_id": r["deal_id"],
                    "board_id": r["board_id"],
                    "board": r["board_number"] or "",
                    "event": r["event"],
                    "round": r["round"],
                    "table_key": (_tag(r["gdn"], "Table") or "")[:50],
                    "room": r["room"],
                    "rules": r["rules"],
                    "match_id": None,
                    "created_at": r["created_at"],
                },
            )
        rec_id = _insert(
            conn,
            _play_records,
            {
                "result_id": result_id,
                "gdn": r["gdn"],
                "content_hash": r["content_hash"],
                "finish": r["finish"],
                "result": r["result"],
                "ns_score": r["ns_score"],
                "source": r["source"],
                "created_at": r["created_at"],
            },
        )
        new: State = ("played", r["ns_score"], None, rec_id)
        if r["version"] == 1:
            why = f"imported from {r['source'] or 'a record'}"
            _change(conn, result_id, "import", UNKNOWN, r["created_at"], why, new, None)
        else:
            by, why = r["corrected_by"] or UNKNOWN, r["correction_reason"]
            _change(conn, result_id, "correction", by, r["created_at"], why, new, old)
        old = new


def _move_event_results(conn: sa.Connection) -> None:
    rows = conn.execute(
        sa.text(
            "SELECT r.id, r.match_id, r.board, r.room, r.status, r.ns_result, r.reason, "
            "r.record_hash, r.record_text, m.table_no, d.number AS round_no, e.name, "
            "e.rules, e.created_at, b.id AS board_id, b.deal_id "
            "FROM event_results r JOIN event_matches m ON m.id = r.match_id "
            "JOIN event_rounds d ON d.id = m.round_id JOIN events e ON e.id = d.event_id "
            "LEFT JOIN boards b ON b.set_id = d.board_set_id AND b.number = r.board "
            "ORDER BY r.id"
        )
    ).mappings()
    for r in list(rows):
        result_id = _insert(
            conn,
            _room_results,
            {
                "deal_id": r["deal_id"] or f"event-{r['match_id']}-{r['board']}",
                "board_id": r["board_id"],
                "board": str(r["board"]),
                "event": r["name"],
                "round": str(r["round_no"]),
                "table_key": str(r["table_no"]),
                "room": r["room"],
                "rules": r["rules"],
                "match_id": r["match_id"],
                "created_at": r["created_at"],
            },
        )
        rec_id = None
        if r["record_text"]:
            text = r["record_text"]
            ns = r["ns_result"] if r["status"] == "played" and r["reason"] is None else None
            rec_id = _insert(
                conn,
                _play_records,
                {
                    "result_id": result_id,
                    "gdn": text,
                    "content_hash": r["record_hash"] or "",
                    "finish": _tag(text, "Finish"),
                    "result": _tag(text, "Result"),
                    "ns_score": ns,
                    "source": None,
                    "created_at": r["created_at"],
                },
            )
        now: State = (r["status"], r["ns_result"], r["reason"], rec_id)
        fixes = (
            conn.execute(
                sa.text(
                    "SELECT made_by, reason, made_at, before, after FROM event_corrections "
                    "WHERE match_id = :m AND board = :b AND room = :r ORDER BY id"
                ),
                {"m": r["match_id"], "b": r["board"], "r": r["room"]},
            )
            .mappings()
            .all()
        )
        h = r["record_hash"]
        states = [(_parse(f["before"], h, rec_id), _parse(f["after"], h, rec_id)) for f in fixes]
        first = states[0][0] if states else now
        if first is not None:
            action = "import" if first[3] else "ruling" if first[2] == RULING else "unfinished"
            if first[0] == "played" and first[3] is None and first[2] != RULING:
                action = "report"
            _change(conn, result_id, action, UNKNOWN, r["created_at"], "", first, None)
        for i, (f, (before, after)) in enumerate(zip(fixes, states, strict=True)):
            last = i == len(fixes) - 1
            new = now if last else after if after is not None else now
            action = "ruling" if new[2] == RULING else "correction"
            _change(conn, result_id, action, f["made_by"], f["made_at"], f["reason"], new, before)


def _losses(conn: sa.Connection) -> None:
    """Note what the old tables have no column for: who made the log's imports, reports
    and marks, and when; finishing orders reported without a record; an event room's
    records before its current one, and the files they came from."""
    log = count(
        conn,
        "SELECT COUNT(*) FROM result_changes WHERE action IN "
        f"('import', 'report', 'attach', 'unfinished') AND made_by <> '{UNKNOWN}'",
    )
    if log:
        would_lose(phrase("out.loss.log_authors", n=log))
    finishes = count(
        conn,
        "SELECT COUNT(*) FROM result_changes WHERE finish IS NOT NULL AND record_id IS NULL",
    )
    if finishes:
        would_lose(phrase("out.loss.finishes", n=finishes))
    event_records = (
        "FROM play_records p JOIN room_results r ON r.id = p.result_id "
        "WHERE r.match_id IS NOT NULL"
    )
    earlier = count(
        conn,
        f"SELECT COUNT(*) {event_records} AND p.id <> COALESCE((SELECT c.record_id FROM "
        "result_changes c WHERE c.result_id = r.id ORDER BY c.id DESC LIMIT 1), -1)",
    )
    if earlier:
        would_lose(phrase("out.loss.replaced", n=earlier))
    sources = count(conn, f"SELECT COUNT(*) {event_records} AND p.source IS NOT NULL")
    if sources:
        would_lose(phrase("out.loss.sources", n=sources))


def downgrade() -> None:
    """Move the store back into ``deal_records``, ``event_results`` and
    ``event_corrections``; refused (nothing changed) when they cannot hold it all, and
    unless forced when they would lose part of it (:func:`_losses`)."""
    conn = op.get_bind()
    if not offline():
        _losses(conn)
    lone = conn.execute(
        sa.text(
            "SELECT r.deal_id, r.event, r.round, r.room FROM room_results r "
            "WHERE r.match_id IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM play_records p WHERE p.result_id = r.id)"
        )
    ).first()
    if lone is not None:
        raise DatabaseError(
            f"cannot downgrade below 0005: the result of DealId {lone[0][:12]}…, event "
            f"{lone[1]!r}, round {lone[2]!r}, room {lone[3]!r} was reported without a record, "
            "which deal_records cannot hold; attach its record or delete it first"
        )
    clash = conn.execute(
        sa.text(
            "SELECT deal_id, event, round, room FROM room_results WHERE match_id IS NULL "
            "GROUP BY deal_id, event, round, room, rules HAVING COUNT(*) > 1"
        )
    ).first()
    if clash is not None:
        raise DatabaseError(
            f"cannot downgrade below 0005: several tables played DealId {clash[0][:12]}…, "
            f"event {clash[1]!r}, round {clash[2]!r}, room {clash[3]!r}, which deal_records "
            "cannot tell apart; delete all but one first"
        )
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
        sa.Column("rules", sa.Text(), server_default=COMPETITION_JSON, nullable=False),
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
            "rules",
            "version",
            name=op.f("uq_deal_records_deal_id_event_round_room_rules_version"),
        ),
    )
    op.create_table(
        "event_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=6), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("ns_result", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("record_hash", sa.String(length=64), nullable=True),
        sa.Column("record_text", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "(status = 'played' AND ns_result IS NOT NULL AND ns_result BETWEEN -4 AND 4 AND ns_result <> 0) OR (status = 'unfinished' AND ns_result IS NULL)",
            name=op.f("ck_event_results_status_result"),
        ),
        sa.CheckConstraint("room IN ('open', 'closed')", name=op.f("ck_event_results_room")),
        sa.CheckConstraint("board >= 1", name=op.f("ck_event_results_board")),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["event_matches.id"],
            name=op.f("fk_event_results_match_id_event_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_results")),
        sa.UniqueConstraint(
            "match_id", "board", "room", name=op.f("uq_event_results_match_id_board_room")
        ),
    )
    op.create_table(
        "event_corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=6), nullable=False),
        sa.Column("made_by", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column(
            "made_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.CheckConstraint("made_by <> ''", name=op.f("ck_event_corrections_made_by")),
        sa.CheckConstraint("reason <> ''", name=op.f("ck_event_corrections_reason")),
        sa.CheckConstraint("room IN ('open', 'closed')", name=op.f("ck_event_corrections_room")),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("fk_event_corrections_event_id_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["event_matches.id"],
            name=op.f("fk_event_corrections_match_id_event_matches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_corrections")),
    )
    op.create_index(op.f("ix_deal_records_board_id"), "deal_records", ["board_id"], unique=False)
    op.create_index(op.f("ix_deal_records_deal_id"), "deal_records", ["deal_id"], unique=False)
    op.create_index(
        op.f("ix_deal_records_content_hash"), "deal_records", ["content_hash"], unique=False
    )
    _back_to_deal_records(conn)
    _back_to_event_results(conn)
    op.drop_table("result_changes")
    op.drop_table("play_records")
    op.drop_table("room_results")


_TAG = re.compile(r'^\[(\w+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*$')
_RANKS = "23456789TJQKA"
_SEATS = "NESW"


def _record(text: str) -> tuple[dict[str, str], int, int, int]:
    """The tags, level (rank index 0..12), leader (0..3: N E S W) and number of plays of the
    one stored record ``text``, as the store wrote it at this revision (docs/FORMAT.md)."""
    tags: dict[str, str] = {}
    plays = 0
    in_plays = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        m = _TAG.match(line)
        if m:
            value = re.sub(r"\\(.)", r"\1", m[2] or "")
            tags[m[1]] = value
            in_plays = m[1] == "Play"
        elif in_plays:
            plays += 1
    level = tags.get("Level", "2").upper()
    level = "T" if level == "10" else level
    leader = tags.get("Leader", "N").upper()[:1]
    return tags, _RANKS.index(level), _SEATS.index(leader), plays


def _back_to_deal_records(conn: sa.Connection) -> None:
    rows = conn.execute(
        sa.text(
            "SELECT r.id AS rid, r.deal_id, r.event, r.round, r.room, r.rules, r.board_id, "
            "r.board, p.id, p.gdn, p.content_hash, p.finish, p.result, p.ns_score, p.source, "
            "p.created_at FROM play_records p JOIN room_results r ON r.id = p.result_id "
            "WHERE r.match_id IS NULL ORDER BY p.id"
        )
    ).mappings()
    versions: dict[int, int] = {}
    for r in list(rows):
        version = versions[r["rid"]] = versions.get(r["rid"], 0) + 1
        why = conn.execute(
            sa.text(
                "SELECT reason, made_by FROM result_changes WHERE record_id = :p "
                "AND action = 'correction' ORDER BY id"
            ),
            {"p": r["id"]},
        ).first()
        tags, level, leader, plays = _record(r["gdn"])
        conn.execute(
            sa.text(
                "INSERT INTO deal_records (deal_id, event, round, room, version, board_id, "
                "board_number, north, east, south, west, level, leader, plays, finish, "
                "result, ns_score, gdn, content_hash, source, correction_reason, "
                "corrected_by, created_at, rules) VALUES (:deal_id, :event, :round, :room, "
                ":version, :board_id, :board, :north, :east, :south, :west, :level, "
                ":leader, :plays, :finish, :result, :ns_score, :gdn, :hash, :source, "
                ":why, :by, :created_at, :rules)"
            ),
            {
                "deal_id": r["deal_id"],
                "event": r["event"],
                "round": r["round"],
                "room": r["room"],
                "version": version,
                "board_id": r["board_id"],
                "board": r["board"] or None,
                "north": tags.get("North"),
                "east": tags.get("East"),
                "south": tags.get("South"),
                "west": tags.get("West"),
                "level": level,
                "leader": leader,
                "plays": plays,
                "finish": r["finish"] or "",
                "result": r["result"] or "",
                "ns_score": r["ns_score"],
                "gdn": r["gdn"],
                "hash": r["content_hash"],
                "source": r["source"],
                "why": None if version == 1 else (why[0] if why else "moved back by downgrade"),
                "by": None if version == 1 else (why[1] if why else UNKNOWN),
                "created_at": r["created_at"],
                "rules": r["rules"],
            },
        )


def _describe(status: str, ns: int | None, note: str | None, digest: str | None) -> str:
    if status == "unfinished":
        return f"unfinished ({note or 'no reason given'})"
    assert ns is not None
    text = f"{'NS' if ns > 0 else 'EW'} +{abs(ns)}"
    if note:
        return f"{text} ({note})"
    return f"{text} (record {digest[:12]})" if digest else text


def _back_to_event_results(conn: sa.Connection) -> None:
    current = conn.execute(
        sa.text(
            "SELECT r.match_id, r.board, r.room, c.status, c.ns_result, c.note, "
            "p.content_hash, p.gdn FROM room_results r JOIN result_changes c "
            "ON c.result_id = r.id LEFT JOIN play_records p ON p.id = c.record_id "
            "WHERE r.match_id IS NOT NULL AND c.id = "
            "(SELECT MAX(c2.id) FROM result_changes c2 WHERE c2.result_id = r.id) "
            "ORDER BY r.id"
        )
    ).mappings()
    for r in list(current):
        conn.execute(
            sa.text(
                "INSERT INTO event_results (match_id, board, room, status, ns_result, reason, "
                "record_hash, record_text) VALUES (:m, :b, :r, :s, :ns, :note, :h, :t)"
            ),
            {
                "m": r["match_id"],
                "b": int(r["board"]),
                "r": r["room"],
                "s": r["status"],
                "ns": r["ns_result"],
                "note": r["note"],
                "h": r["content_hash"],
                "t": r["gdn"],
            },
        )
    fixes = conn.execute(
        sa.text(
            "SELECT d.event_id, r.match_id, r.board, r.room, c.made_by, c.reason, c.made_at, "
            "c.status, c.ns_result, c.note, p.content_hash, c.old_status, c.old_ns_result, "
            "c.old_note, q.content_hash AS old_hash FROM result_changes c "
            "JOIN room_results r ON r.id = c.result_id "
            "JOIN event_matches m ON m.id = r.match_id JOIN event_rounds d ON d.id = m.round_id "
            "LEFT JOIN play_records p ON p.id = c.record_id "
            "LEFT JOIN play_records q ON q.id = c.old_record_id "
            "WHERE c.action IN ('correction', 'ruling') ORDER BY c.id"
        )
    ).mappings()
    for f in list(fixes):
        before = (
            "no result"
            if f["old_status"] is None
            else _describe(f["old_status"], f["old_ns_result"], f["old_note"], f["old_hash"])
        )
        conn.execute(
            sa.text(
                "INSERT INTO event_corrections (event_id, match_id, board, room, made_by, "
                "reason, made_at, before, after) VALUES (:e, :m, :b, :r, :by, :why, :at, "
                ":before, :after)"
            ),
            {
                "e": f["event_id"],
                "m": f["match_id"],
                "b": int(f["board"]),
                "r": f["room"],
                "by": f["made_by"],
                "why": f["reason"],
                "at": f["made_at"],
                "before": before,
                "after": _describe(f["status"], f["ns_result"], f["note"], f["content_hash"]),
            },
        )
