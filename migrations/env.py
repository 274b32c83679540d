"""Alembic environment: migrate the database named by the caller or by the environment.

``duplicate.db.upgrade`` passes an open connection in ``config.attributes["connection"]``;
the ``alembic`` command line gets the URL from the config or ``GUANDAN_DATABASE_URL``.
Batch mode (``render_as_batch``) lets SQLite alter tables; ``compare_type`` makes
autogenerate (and the test that models match the schema) see column type changes.

Every run is one transaction (``duplicate.db.migration_transaction``, which SQLite's driver
needs to hold DDL too). A downgrade that would lose data (``migrations.losses``) is refused
at its end, the transaction rolled back, unless forced (``config.attributes["force"]``,
``alembic -x force=1``).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from duplicate.db import make_engine, migration_transaction
from duplicate.models import Base
from migrations.losses import refuse_losses

config = context.config
#: Options of every run: the models as target, batch mode for SQLite, column types compared.
OPTIONS = {"target_metadata": Base.metadata, "render_as_batch": True, "compare_type": True}


def _run(connection: Connection) -> None:
    context.configure(connection=connection, **OPTIONS)
    forced = config.attributes.get("force") or context.get_x_argument(as_dictionary=True).get(
        "force", ""
    ) not in ("", "0")
    config.attributes.setdefault("target", context.get_revision_argument())
    with context.begin_transaction():
        context.run_migrations()
        refuse_losses(config.attributes, bool(forced))


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
        with migration_transaction(engine) as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
