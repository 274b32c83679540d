"""Migration 0010 (the store's keys) on every backend, with data: copies of a record left by
two imports at once are merged, a change that repeats its predecessor is dropped, the log
is numbered; downgrading keeps every row and upgrading again is the same."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError
from store_race import check_store

from duplicate import db

AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _insert(conn: Any, table: str, **values: Any) -> int:
    cols = ", ".join(values)
    params = ", ".join(f":{k}" for k in values)
    conn.execute(text(f"INSERT INTO {table} ({cols}) VALUES ({params})"), values)
    return int(conn.execute(text(f"SELECT MAX(id) FROM {table}")).scalar_one())


def _room(conn: Any, deal: str) -> int:
    return _insert(conn, "room_results", deal_id=deal * 64, board="1", event="E", round="1",
                   table_key="", room="Open")  # fmt: skip


def _record(conn: Any, room: int, digest: str) -> int:
    return _insert(conn, "play_records", result_id=room, gdn=f"text {digest}",
                   content_hash=digest * 64, ns_score=2)  # fmt: skip


def _change(conn: Any, room: int, action: str, record: int | None, old: int | None = None,
            ns: int = 2, first: bool = False, old_ns: int = 2) -> int:  # fmt: skip
    return _insert(
        conn, "result_changes", result_id=room, action=action, made_by="x", made_at=AT,
        reason="r", status="played", ns_result=ns, record_id=record,
        old_status=None if first else "played", old_ns_result=None if first else old_ns,
        old_record_id=old,
    )  # fmt: skip


def _rows(engine: Engine, sql: str) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(sql))]


def test_0010_merges_copies_numbers_the_log_and_downgrades(db_engine: Engine) -> None:
    db.upgrade(db_engine, "0008")
    with db_engine.begin() as conn:
        # two event imports at once backed one reported result twice, each with its copy
        a = _room(conn, "a")
        p1, p2 = _record(conn, a, "1"), _record(conn, a, "1")
        _change(conn, a, "report", None, first=True)
        _change(conn, a, "attach", p1)
        _change(conn, a, "attach", p2)  # stale "before": the report, not the first attach
        # two imports per deal at once: an orphan copy, no change of its own
        b = _room(conn, "b")
        q1 = _record(conn, b, "2")
        _record(conn, b, "2")
        _change(conn, b, "import", q1, first=True)
        # corrections A, B, back to A: a second row of A's text
        c = _room(conn, "c")
        r1, r2, r3 = _record(conn, c, "3"), _record(conn, c, "4"), _record(conn, c, "3")
        _change(conn, c, "import", r1, first=True)
        _change(conn, c, "correction", r2, r1, ns=-1)
        _change(conn, c, "correction", r3, r2, old_ns=-1)
    db.upgrade(db_engine, "0010")
    assert _rows(db_engine, "SELECT result_id, id FROM play_records ORDER BY id") == [
        (a, p1), (b, q1), (c, r1), (c, r2),
    ]  # fmt: skip
    log = _rows(db_engine, "SELECT result_id, seq, action, record_id, old_record_id "
                           "FROM result_changes ORDER BY id")  # fmt: skip
    assert log == [
        (a, 1, "report", None, None), (a, 2, "attach", p1, None),
        (b, 1, "import", q1, None),
        (c, 1, "import", r1, None), (c, 2, "correction", r2, r1), (c, 3, "correction", r1, r2),
    ]  # fmt: skip
    with pytest.raises(IntegrityError), db_engine.begin() as conn:  # the keys hold
        _record(conn, a, "1")
    db.downgrade(db_engine, "0008")
    assert len(_rows(db_engine, "SELECT id FROM result_changes")) == 6
    with db_engine.begin() as conn:  # no key at 0008: a copy may be written again
        _record(conn, a, "1")
    db.upgrade(db_engine)
    assert len(_rows(db_engine, "SELECT id FROM play_records")) == 4
    check_store(db_engine)
