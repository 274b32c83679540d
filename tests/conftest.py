"""Shared database fixtures: every database test runs on SQLite, and on PostgreSQL too when
``GUANDAN_TEST_DATABASE_URL`` names a server (``.ci/run`` sets it).

* ``db_url``: the URL of an empty database, parametrised over the backends. SQLite is a
  fresh file in the test's temporary directory. For PostgreSQL, one uniquely named database
  is created per test session (so concurrent runs and xdist workers never collide), emptied
  before each test, and dropped at the end.
* ``db_engine``: an engine on ``db_url``, disposed after the test.
* ``migrated_engine``: ``db_engine`` with the migrations run up to the newest revision.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine, make_url, text

from duplicate.db import make_engine, resolve_url, upgrade

#: Environment variable naming the PostgreSQL server for the tests (any database on it).
TEST_DB_ENV = "GUANDAN_TEST_DATABASE_URL"
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get(TEST_DB_ENV) else [])


@pytest.fixture(scope="session")
def _postgres_url() -> Iterator[str]:
    """A fresh, uniquely named PostgreSQL database for this test session, dropped afterwards."""
    server = make_url(resolve_url(os.environ[TEST_DB_ENV]))
    name = f"guandan_test_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield server.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: os.PathLike[str]) -> str:
    """The URL of an empty database on each configured backend."""
    if request.param == "sqlite":
        return f"sqlite:///{os.fspath(tmp_path)}/test.sqlite"
    url: str = request.getfixturevalue("_postgres_url")
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("DROP SCHEMA public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()
    return url


@pytest.fixture
def db_engine(db_url: str) -> Iterator[Engine]:
    """An engine on the empty database ``db_url``."""
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def migrated_engine(db_engine: Engine) -> Engine:
    """An engine on a database migrated to the newest revision (never ``create_all``)."""
    upgrade(db_engine)
    return db_engine
