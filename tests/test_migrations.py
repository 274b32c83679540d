"""The Alembic migrations, run on every configured database (pytest-alembic's checks).

One head; upgrade from empty; the models match the migrated schema (autogenerate finds
nothing); every step down and up again; down to empty and back up. The schema is never
built with ``create_all``.
"""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect

from duplicate import db
from duplicate.models import Base

APP_TABLES = set(Base.metadata.tables)


def _revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory(db.migrations_dir())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def test_migrations_package_is_found_from_the_installed_package() -> None:
    import migrations

    location = Path(db.migrations_dir())
    assert location == Path(migrations.__file__).parent
    assert (location / "env.py").is_file()
    assert (location / "script.py.mako").is_file()
    assert any(location.joinpath("versions").glob("*.py"))


def test_single_head() -> None:
    heads = ScriptDirectory(db.migrations_dir()).get_heads()
    assert len(heads) == 1, f"migrations have several heads: {heads}"
    assert db.head_revision() == heads[0]


def test_upgrade_from_empty(db_engine: Engine) -> None:
    assert db.current_revision(db_engine) is None
    assert _tables(db_engine) == set()
    db.upgrade(db_engine)
    assert db.current_revision(db_engine) == db.head_revision()
    assert APP_TABLES <= _tables(db_engine)


def test_models_match_migrated_schema(migrated_engine: Engine) -> None:
    with migrated_engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, Base.metadata)
    assert diff == [], f"models and migrations differ: {diff}"


def test_every_step_down_and_up_again(db_engine: Engine) -> None:
    revisions = _revisions()
    assert revisions, "no migration revisions found"
    previous = "base"
    for revision in revisions:
        db.upgrade(db_engine, revision)
        after_up = _tables(db_engine)
        db.downgrade(db_engine, previous)
        assert db.current_revision(db_engine) == (None if previous == "base" else previous)
        db.upgrade(db_engine, revision)
        assert _tables(db_engine) == after_up
        previous = revision
    assert db.current_revision(db_engine) == db.head_revision()


def test_downgrade_to_base_and_upgrade_again(migrated_engine: Engine) -> None:
    db.downgrade(migrated_engine, "base")
    assert _tables(migrated_engine) == set()
    assert db.current_revision(migrated_engine) is None
    db.upgrade(migrated_engine)
    assert APP_TABLES <= _tables(migrated_engine)
    assert db.current_revision(migrated_engine) == db.head_revision()


def test_sqlite_foreign_keys_are_enforced(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path}/fk.sqlite")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


def test_hall_reports_allow_one_live_report_per_board_and_room(migrated_engine: Engine) -> None:
    """Migration 0008: the unique (round, table, room, board, live) with ``live`` NULL once
    replaced lets replaced reports pile up but never two live ones, on every backend."""
    import pytest
    from sqlalchemy import insert, text
    from sqlalchemy.exc import IntegrityError

    from duplicate import models

    with migrated_engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO events (id, name, seed, format, scale, unfinished_rule, "
                "boards_per_round, rounds, bye_points_cents, bye_won) VALUES "
                "(1, 'e', 's', 'rr', '{}', 'average', 4, 1, 200, TRUE)"
            )
        )
        conn.execute(text("INSERT INTO event_rounds (id, event_id, number) VALUES (1, 1, 1)"))
    row = {
        "round_id": 1, "table_no": 1, "room": "open", "board": 1, "finish": "N S",
        "ns_result": 3, "reported_by": "table 1 open West", "rev": 1,
        "reported_at": text("CURRENT_TIMESTAMP"),
    }  # fmt: skip
    table = models.HallReport.__table__
    with migrated_engine.begin() as conn:
        for _ in range(2):
            conn.execute(insert(table).values(**row, state="replaced", live=None))
        conn.execute(insert(table).values(**row, state="reported", live=True))
    for values in ({"state": "confirmed", "live": True}, {"state": "replaced", "live": True},
                   {"state": "reported", "live": None}):  # fmt: skip
        with pytest.raises(IntegrityError), migrated_engine.begin() as conn:
            conn.execute(insert(table).values(**row, **values))
    with migrated_engine.begin() as conn:
        conn.execute(insert(table).values(**{**row, "room": "closed"}, state="reported", live=True))
        assert conn.execute(text("SELECT COUNT(*) FROM hall_reports")).scalar_one() == 4
