"""Alembic environment: migrate the database named by the caller or by the environment.

``duplicate.db.upgrade`` passes an open connection in ``config.attributes["connection"]``;
the ``alembic`` command line gets the URL from the config or ``GUANDAN_DATABASE_URL``.
Batch mode (``render_as_batch``) lets SQLite alter tables; ``compare_type`` makes
autogenerate (and the test that models match the schema) see column type changes.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from duplicate.db import make_engine
from duplicate.models import Base

config = context.config
#: Options of every run: the models as target, batch mode for SQLite, column types compared.
OPTIONS = {"target_metadata": Base.metadata, "render_as_batch": True, "compare_type": True}


def _run(connection: Connection) -> None:
    context.configure(connection=connection, **OPTIONS)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """Emit SQL for the URL without connecting (``alembic upgrade --sql``)."""
    url = config.get_main_option("sqlalchemy.url") or make_engine().url
    context.configure(url=url, literal_binds=True, **OPTIONS)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Migrate through the caller's connection, or a new engine for the configured URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url"))
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
