"""``guandan db upgrade`` and ``db downgrade`` killed (SIGKILL) at random points, on every
configured database: each time the database is intact, at the revision it had or the one
it was migrated to (never between), and migrates again.

A migration is one transaction (``duplicate.db.migration_transaction``). SQLite's driver
ran DDL outside the transaction: a kill during the upgrade from 0004 left the version at
0004 with the store's tables created and empty, and every later upgrade failed "table
room_results already exists".

The migrating process is forked from the test's (modules already imported, so a kill
lands in the migration rather than in Python's start-up); the delays, from a fixed seed,
run from the moment it begins to migrate and are drawn over the time an unkilled
migration takes.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

from migration_data import build, snapshot
from sqlalchemy import Engine, text

from duplicate import db

START = "0004"
KILLS = 20


def _child(url: str, op: str, began: Any) -> None:
    engine = db.make_engine(url)
    began.set()
    if op == "upgrade":
        db.upgrade(engine)
    else:
        db.downgrade(engine, START)
    engine.dispose()
    os._exit(0)


def _run(url: str, op: str, kill_after: float | None) -> float:
    """Run ``op`` in a forked process, killed ``kill_after`` seconds after it begins
    (None: let it finish); how long the migration ran."""
    ctx = multiprocessing.get_context("fork")
    started = ctx.Event()
    proc = ctx.Process(target=_child, args=(url, op, started))
    proc.start()
    assert started.wait(30), "the migrating process did not start"
    began = time.monotonic()
    if kill_after is not None:
        proc.join(kill_after)
        if proc.is_alive():
            os.kill(proc.pid, signal.SIGKILL)
    proc.join(60)
    assert proc.exitcode in (0, -signal.SIGKILL), proc.exitcode
    return time.monotonic() - began


def _state(engine: Engine, states: dict[str, Any]) -> str:
    """The revision the database is at, checked to hold exactly that revision's rows."""
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    now = db.current_revision(engine)
    assert now in states, f"a killed migration left revision {now}"
    assert snapshot(engine) == states[now], f"a killed migration changed revision {now}"
    return str(now)


def test_killed_migrations_leave_the_database_intact_and_upgradable(
    db_url: str, db_engine: Engine, tmp_path: Path
) -> None:
    build(db_engine, START)
    states = {START: snapshot(db_engine)}
    db_engine.dispose()
    took = _run(db_url, "upgrade", None)
    head = db.head_revision()
    assert head is not None
    states[head] = snapshot(db_engine)
    took = max(took, _run(db_url, "downgrade", None))
    assert snapshot(db_engine) == states[START]
    rng = random.Random(19)
    seen: dict[str, set[str]] = {"upgrade": set(), "downgrade": set()}
    for _ in range(KILLS):
        for op, before, after in (("upgrade", START, head), ("downgrade", head, START)):
            db_engine.dispose()  # nothing of the parent's pool in the child
            _run(db_url, op, rng.uniform(0.0, took))
            seen[op].add(_state(db_engine, states))
            if db.current_revision(db_engine) == before:  # killed in time: again, whole
                getattr(db, op)(db_engine, *([] if op == "upgrade" else [START]))
            assert _state(db_engine, states) == after
    # kills fell before the commit (the delays are drawn over the migration's own time;
    # how many fell after it depends on the machine's load)
    assert START in seen["upgrade"] and head in seen["downgrade"], seen
    with db_engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM deal_records")).scalar_one() == 6
