"""The migrations with data in every table, on every configured database.

From every older revision (0001..0008), filled as its code filled it
(tests/migration_data.py): up to the newest revision with every row there, down again
to where it started with every row as it was, and up again to the same newest state. A
downgrade that would lose data is refused unless forced, naming what it would lose, and a
refused migration changes nothing (SQLite's driver ran DDL outside the transaction: a
refused downgrade dropped the hall's tables). Records stored in revision 0002's canonical
form are brought to today's (0009): importing the same file again says "already stored".
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner
from migration_data import build, counts, played, revisions, snapshot
from sqlalchemy import Engine, inspect, text

from cli import main
from duplicate import db, events, gdn, store
from duplicate.errors import DatabaseError
from duplicate.records import import_files, stored_records

OLDER = revisions()[:-1]
HALL = ["hall_checkins", "hall_reports", "hall_rounds", "hall_rulings", "hall_tokens"]


@pytest.mark.parametrize("start", OLDER)
def test_up_to_the_newest_and_down_again_keeps_every_row(db_engine: Engine, start: str) -> None:
    build(db_engine, start)
    before = snapshot(db_engine)
    assert all(rows for t, rows in before.items()), "a table of the revision holds no rows"
    db.upgrade(db_engine)
    newest = snapshot(db_engine)
    assert db.current_revision(db_engine) == db.head_revision()
    # what the library reads at the newest revision: every record, event and result
    n = counts(db_engine)
    old_records = before.get("play_records") or [
        r for t in ("deal_records", "event_results") for r in before.get(t, [])
        if dict(r).get("record_text", "") is not None
    ]  # fmt: skip
    assert len(stored_records(db_engine, all_versions=True)) == len(old_records)
    if start >= "0003":
        names = [e.name for e in events.list_events(db_engine)]
        assert "Old Cup" in names
        assert events.event_standings(db_engine, "Old Cup")[0]
        assert n["room_results"] >= 3
    db.downgrade(db_engine, start)  # nothing the older schema cannot hold: not refused
    assert snapshot(db_engine) == before
    db.upgrade(db_engine)
    assert snapshot(db_engine) == newest


def _with(rec: gdn.DealRecord, **tags: str) -> gdn.DealRecord:
    return dataclasses.replace(rec, tags={**rec.tags, **tags})


def _hall_rows(engine: Engine) -> dict[str, int]:
    found = set(inspect(engine).get_table_names())
    return {t: counts(engine)[t] for t in HALL if t in found}


def test_a_refused_downgrade_changes_nothing(db_engine: Engine, tmp_path: Path) -> None:
    """Refused below 0005 (a result reported without a record), the
    downgrade had dropped the hall's tables on SQLite while the version stayed."""
    build(db_engine, "0008")
    db.upgrade(db_engine)
    before = snapshot(db_engine)
    assert all(before[t] for t in HALL)
    with pytest.raises(DatabaseError, match="reported without a record"):
        db.downgrade(db_engine, "0004")
    assert snapshot(db_engine) == before
    assert db.current_revision(db_engine) == db.head_revision()


def test_a_downgrade_that_would_lose_data_is_refused_unless_forced(
    db_engine: Engine, tmp_path: Path
) -> None:
    """Below 0004 an event's rule variants went silently."""
    build(db_engine, "0008")
    db.upgrade(db_engine)
    with db_engine.begin() as conn:  # what stops the downgrade below 0005 for another reason
        conn.execute(text("DELETE FROM room_results WHERE id = 100"))
    path = tmp_path / "r3.gdn"
    path.write_text(gdn.dumps(_with(played()[0], Round="3")), encoding="utf-8")
    assert [o.status for o in import_files(db_engine, [path], by="scorer")] == ["stored"]
    before = snapshot(db_engine)
    with pytest.raises(DatabaseError) as refused:
        db.downgrade(db_engine, "0003")
    message = str(refused.value)
    for lost in [
        "1 row of hall_rounds", "1 row of hall_reports", "1 row of hall_rulings",
        "1 row of hall_tokens", "1 row of hall_checkins",
        "the language (Chinese) of the events 'Old Cup'",
        "1 row of event_releases", "1 row of event_withdrawals", "1 row of admin_log",
        "the rule variants of event 'Folk Cup' (double_down_plus4=true)",
        "the rule variants of 1 deal record",
        "who made 1 of the log's imports, reports and marks, when and why",
    ]:  # fmt: skip
        assert lost in message, (lost, message)
    assert message.startswith("downgrading to 0003 would lose ")
    assert message.endswith(": nothing changed")
    assert str(refused.value.cli_hint) == "'guandan db downgrade 0003 --force' downgrades and loses them"
    assert snapshot(db_engine) == before
    # down to where nothing is lost: not refused
    with db_engine.begin() as conn:
        for table in HALL:
            conn.execute(text(f"DELETE FROM {table}"))
    db.downgrade(db_engine, "0007")
    db.downgrade(db_engine, "0003", force=True)
    assert db.current_revision(db_engine) == "0003"
    with db_engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM events")).scalar_one() == 2
    db.upgrade(db_engine)


def test_the_command_line_refuses_and_forces_a_downgrade(db_url: str, db_engine: Engine) -> None:
    build(db_engine, "0008")
    db.upgrade(db_engine)
    runner = CliRunner()
    refused = runner.invoke(main, ["db", "downgrade", "0007", "--db", db_url])
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: downgrading to 0007 would lose 1 row of hall_")
    assert refused.stderr.rstrip().endswith(
        "nothing changed: 'guandan db downgrade 0007 --force' downgrades and loses them"
    )
    assert db.current_revision(db_engine) == db.head_revision()
    assert all(_hall_rows(db_engine).values())
    forced = runner.invoke(main, ["db", "downgrade", "0007", "--force", "--db", db_url])
    assert forced.exit_code == 0, forced.output
    assert forced.stdout.endswith(" at revision 0007\n")
    assert _hall_rows(db_engine) == {}
    up = runner.invoke(main, ["db", "upgrade", "--db", db_url])
    assert up.exit_code == 0 and db.current_revision(db_engine) == db.head_revision()


def test_records_stored_at_0002_are_already_stored_after_the_upgrade(
    db_engine: Engine, tmp_path: Path
) -> None:
    """Records stored in revision 0002's canonical form (no computed
    Finish and Result) kept it, and the same file imported again was refused."""
    build(db_engine, "0002", today=False)
    with db_engine.begin() as conn:  # the club night's file: the four rooms as stored
        conn.execute(text("DELETE FROM deal_records WHERE version = 2"))
    path = tmp_path / "club.gdn"
    path.write_text("\n".join(gdn.dumps(r) for r in played()), encoding="utf-8")
    db.upgrade(db_engine)
    outcomes = list(import_files(db_engine, [path], per="deal"))
    assert [o.status for o in outcomes] == ["unchanged"] * 4, [o.error for o in outcomes]
    # the stored text is today's canonical form: it states the computed Finish and Result
    for rec in stored_records(db_engine):
        (read,) = gdn.loads(rec.gdn)
        assert read.finish is not None and read.result is not None
    assert len(store.current_results(db_engine)) == 4
