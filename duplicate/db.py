"""Database URL, engine and sessions, and the schema migrations, in one place (STYLE.md).

* The URL comes from the ``--db`` option, else the ``GUANDAN_DATABASE_URL`` environment
  variable, else the embedded default, a SQLite file ``guandan.sqlite`` in the current
  directory. Any SQLAlchemy URL works; ``postgresql://`` and ``postgres://`` are taken to
  mean the psycopg 3 driver.
* :func:`make_engine` turns SQLite's foreign keys on for every connection, and creates a
  new SQLite file with mode 0600 (it holds boards not yet played).
* :func:`session_scope` is the only place sessions are opened: one transaction
  (``Session.begin()``), committed on success and rolled back on any error, so an
  interrupted operation leaves nothing half-written.
* :func:`upgrade` / :func:`downgrade` run the Alembic migrations shipped in the
  ``migrations`` package, found from the installed package, so they work from any directory.
"""

from __future__ import annotations

import functools
import os
import re
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.engine import URL, Connection
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from duplicate.errors import DatabaseError, DatabaseUrlError
from duplicate.i18n import Term, phrase
from duplicate.limits import guard_engine

#: Environment variable naming the database URL.
ENV_VAR = "GUANDAN_DATABASE_URL"
#: The embedded default: a SQLite file in the current directory.
DEFAULT_URL = "sqlite:///guandan.sqlite"


def resolve_url(url: str | None = None) -> str:
    """The database URL to use: ``url``, else ``$GUANDAN_DATABASE_URL``, else the default.

    ``postgresql://`` / ``postgres://`` URLs are normalised to ``postgresql+psycopg://``.
    Raises :class:`DatabaseUrlError` for a URL SQLAlchemy cannot parse.
    """
    text = url or os.environ.get(ENV_VAR) or DEFAULT_URL
    return _parse(text).render_as_string(hide_password=False)


#: Query parameters shown in messages with their values (a connection's place and mode);
#: every other one (``user``, ``password``, ``passfile``, ...) is shown as ``key=***``.
_SHOWN_QUERY = frozenset(
    {"host", "hostaddr", "port", "dbname", "sslmode", "connect_timeout", "mode", "uri",
     "target_session_attrs", "application_name"}
)


def mask_url(text: str) -> str:
    """``text`` for messages: the whole user information (user name and password,
    everything before the last ``@`` of the part after ``://``) replaced by ``***``, and
    the value of every query parameter but a connection's place and mode (``password=``,
    ``user=``, ...) by ``***``.

    The last ``@``, not the first: in ``user:p@ss@host`` an unescaped ``@`` is part of the
    password, and SQLAlchemy would take ``ss@host`` for the host name and show it.
    """
    scheme, sep, rest = text.partition("://")
    if not sep:
        return text
    authority, qsep, query = rest.partition("?")
    if "@" in authority and not authority.startswith("/"):  # a SQLite path may hold an @
        authority = "***@" + authority[authority.rindex("@") + 1 :]
    if qsep:
        query = "&".join(_mask_param(p) for p in query.split("&"))
    return f"{scheme}://{authority}{qsep}{query}"


def _mask_param(param: str) -> str:
    key, eq, _value = param.partition("=")
    return param if not eq or key.lower() in _SHOWN_QUERY else f"{key}=***"


def display_url(url: str | URL) -> str:
    """A database URL for messages: never its user name, password, or a query parameter
    that may hold either (see :func:`mask_url`)."""
    if isinstance(url, URL):
        url = url.render_as_string(hide_password=False)
    return mask_url(url)


#: A user or role named in a server's message (``role "x" does not exist``,
#: ``password authentication failed for user "x"``), or a ``key=value`` of a connection
#: string a driver quotes back.
_NAMED_USER = re.compile(r'\b(user|role)(\s+)"[^"]*"', re.IGNORECASE)
_SECRET_PARAM = re.compile(r"\b(user|password|passfile|sslpassword)\s*=\s*('[^']*'|\S+)",
                           re.IGNORECASE)


def redact(text: str, url: str | URL | None = None) -> str:
    """``text`` (a driver's or server's message) without a credential: the user name and
    password of ``url`` wherever they appear, quoted user and role names, and
    ``password=...`` / ``user=...`` of a connection string, each replaced by ``***``."""
    secrets: list[str] = []
    if url is not None:
        try:
            parsed = url if isinstance(url, URL) else make_url(url)
        except ArgumentError:
            parsed = None
        if parsed is not None:
            secrets += [parsed.username or "", parsed.password or ""]
            for key in ("user", "password"):
                value = parsed.query.get(key)
                secrets += [value] if isinstance(value, str) else list(value or ())
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        # the credential where it stands as a word of its own: a user "u" leaves
        # "Connection refused" whole
        text = re.sub(rf"(?<!\w){re.escape(secret)}(?!\w)", "***", text)
    text = _NAMED_USER.sub(lambda m: f'{m[1]}{m[2]}"***"', text)
    return _SECRET_PARAM.sub(lambda m: f"{m[1]}=***", text)


def _parse(text: str) -> URL:
    for prefix in ("postgresql://", "postgres://"):
        if text.startswith(prefix):
            text = "postgresql+psycopg://" + text[len(prefix) :]
    _, sep, rest = text.partition("://")
    authority = rest.split("?", 1)[0]
    if sep and not authority.startswith("/") and authority.count("@") > 1:
        # read as it stands, the part after the first @ would be taken for the host name,
        # and the driver's error would show it: a piece of the password
        raise DatabaseUrlError(
            f"invalid database URL {mask_url(text)!r}: the user name or password holds an "
            f"'@'; write it %40 (and ':' %3A, '/' %2F)"
        )
    try:
        return make_url(text)
    except ArgumentError:
        raise DatabaseUrlError(
            f"invalid database URL {mask_url(text)!r}: expected e.g. sqlite:///guandan.sqlite "
            f"or postgresql://user@host/dbname"
        ) from None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Per-connection SQLite settings: enforce foreign keys, wait for a busy writer."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _sqlite_file(parsed: URL) -> str | None:
    """The path of a SQLite database file named by ``parsed`` (not memory, not a URI)."""
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:":
        return None
    if path.startswith("file:") or parsed.query.get("uri"):
        return None
    return path


def _create_private(path: str) -> None:
    """Create the SQLite file ``path`` empty with mode 0600 (owner only) if it is missing,
    before SQLite creates it with the umask's mode (usually 0644, world-readable): the
    database holds unplayed boards. SQLite gives its journal files the database's mode."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return  # it exists (left as it is), or its folder is missing: SQLite will say so
    os.close(fd)


def make_engine(url: str | None = None, **kwargs: Any) -> Engine:
    """A SQLAlchemy engine for ``url`` (resolved by :func:`resolve_url`)."""
    parsed = _parse(resolve_url(url))
    try:
        engine = create_engine(parsed, **kwargs)
    except (ArgumentError, ImportError) as exc:
        reason = redact(str(exc), parsed)
        plugin = re.search(r"Can't load plugin: sqlalchemy\.dialects:(\S+)", reason)
        raise DatabaseUrlError(
            phrase("out.db.unknown_dialect", url=repr(display_url(parsed)), dialect=plugin[1])
            if plugin else phrase("out.db.bad_url", url=repr(display_url(parsed)), reason=reason)
        ) from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        path = _sqlite_file(parsed)
        if path is not None:
            event.listen(engine, "do_connect", lambda *_args: _create_private(path))

    return guard_engine(engine)  # numbers past 32 bits: a LimitError, before any query


_FACTORIES: weakref.WeakKeyDictionary[Engine, sessionmaker[Session]] = (
    weakref.WeakKeyDictionary()
)


def _factory(engine: Engine) -> sessionmaker[Session]:
    """The engine's session factory, made once: ``sessionmaker`` builds a Session subclass
    and its event dispatch each time (0.75 ms, more than a query on a server database)."""
    found = _FACTORIES.get(engine)
    if found is None:
        found = _FACTORIES.setdefault(engine, sessionmaker(engine, expire_on_commit=False))
    return found


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One session in one transaction: committed when the block ends, rolled back on error."""
    with _factory(engine).begin() as session:
        yield session


# --- migrations -------------------------------------------------------------------------


def migrations_dir() -> str:
    """The directory of the ``migrations`` package (Alembic's script location).

    Found from the imported package, not the current directory, so that it works from an
    installed (or editable) distribution wherever the command is run.
    """
    import migrations  # lazy: the migration scripts' package, only to find its folder

    for entry in [
        os.path.dirname(getattr(migrations, "__file__", None) or ""),
        *migrations.__path__,
    ]:
        if entry and os.path.isfile(os.path.join(entry, "env.py")):
            return str(entry)
    raise DatabaseError(
        "cannot find the migrations package (migrations/env.py): reinstall guandan-duplicate"
    )


def alembic_config(engine: Engine) -> Config:
    """An Alembic configuration for ``engine``'s database, pointing at our migrations."""
    config = Config()
    config.set_main_option("script_location", migrations_dir())
    config.set_main_option(
        "sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%")
    )
    return config


def check_reachable(engine: Engine) -> None:
    """Open and close one connection; :class:`DatabaseError` (one clear line) if it fails.

    So that a server that is down, or a SQLite file in a missing folder, is reported as
    such instead of as a driver traceback.
    """
    try:
        with engine.connect():
            pass
    except OperationalError as exc:
        raise DatabaseError(phrase("db.cannot_open", db=_display(engine),
                                   reason=error_reason(exc, engine.url))) from None


def error_reason(exc: SQLAlchemyError, url: str | URL | None = None) -> str:
    """The first line of the driver's message (the rest is SQLAlchemy's boilerplate),
    without a credential (:func:`redact`: ``url``'s user name and password, any quoted
    user or role name)."""
    cause = getattr(exc, "orig", None) or exc
    lines = str(cause).strip().splitlines()
    return redact(lines[0], url) if lines else type(cause).__name__


@contextmanager
def migration_transaction(engine: Engine) -> Iterator[Connection]:
    """A connection in one transaction that holds the schema changes too, committed when
    the block ends and rolled back on any error (or by the database when the process is
    killed): a migration is done whole or not at all, on every backend.

    SQLite's Python driver begins a transaction only before the first data statement and
    runs the DDL before it (``CREATE``, ``DROP``, ``ALTER``) outside of any: a failed or
    killed migration would keep half its tables. Here the driver's own transaction handling
    is off and ``BEGIN IMMEDIATE`` opens the transaction before anything (and takes the
    write lock at once: another writer waits for the migration, or the migration for it).

    On SQLite, foreign keys are off while it runs: a batch migration copies a table, drops
    it and renames the copy, and with foreign keys on the drop would delete every row that
    refers to it (``ON DELETE CASCADE``): an event's teams, rounds and results. The
    references are checked (``PRAGMA foreign_key_check``) before the transaction commits.
    """
    with engine.connect() as connection:
        if connection.dialect.name != "sqlite":
            with connection.begin():
                yield connection
            return
        raw = connection.connection.driver_connection
        assert raw is not None
        old_level = raw.isolation_level
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside a transaction, or
        connection.commit()  # SQLite ignores it
        raw.isolation_level = None  # the driver begins and commits nothing by itself
        try:
            with connection.begin():
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                yield connection
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                if broken is not None:
                    raise DatabaseError(
                        f"the migration would leave a row of {broken[0]} referring to a "
                        f"missing row of {broken[2]}: nothing changed"
                    )
        finally:
            raw.isolation_level = old_level
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def _migrate(engine: Engine, step: Callable[[Config], None], **attributes: Any) -> None:
    """Run an Alembic command on ``engine`` in one transaction (:func:`migration_transaction`);
    ``attributes`` go to the migrations (``migrations/env.py``: ``force``, ``target``)."""
    from alembic.util import CommandError  # lazy: alembic, only when migrating

    try:
        with migration_transaction(engine) as connection:
            config = alembic_config(engine)
            config.attributes.update(attributes, connection=connection)
            step(config)
    except CommandError as exc:  # a revision Alembic does not know, a bad range: one line
        target = str(attributes.get("target") or _revision_of(exc))
        if "Can't locate revision" in str(exc) or "No such revision" in str(exc):
            raise DatabaseError(phrase("out.db.no_revision", revision=repr(target))) from None
        raise DatabaseError(phrase("out.db.migrate", revision=repr(target),
                                   reason=str(exc))) from None


def _revision_of(exc: Exception) -> str:
    """The revision an Alembic error quotes (``'zzzz'``), else ``?``."""
    found = re.search(r"'([^']*)'", str(exc))
    return found[1] if found else "?"


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database up to ``revision`` (by default the newest)."""
    check_reachable(engine)
    _migrate(engine, lambda config: command.upgrade(config, revision))


def downgrade(engine: Engine, revision: str, *, force: bool = False) -> None:
    """Migrate the database down to ``revision`` (``base`` empties it).

    A downgrade that would lose something the older schema cannot hold (an event's rule
    variants or language, the hall's rounds and reports, the log's who and when, any table
    with rows that it drops) is refused, nothing changed, with a :class:`DatabaseError`
    naming every loss, unless ``force`` (``guandan db downgrade REV --force``).
    """
    check_reachable(engine)
    _migrate(engine, lambda config: command.downgrade(config, revision),
             force=force, target=revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; ``None`` when it has never been migrated."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


@functools.lru_cache(maxsize=1)
def head_revision() -> str | None:
    """The newest revision of the shipped migrations (read once a process: reading them
    compiles every migration file, ~14 ms, and they do not change while it runs)."""
    script = ScriptDirectory(migrations_dir())
    return script.get_current_head()


def check_schema(engine: Engine) -> None:
    """Refuse to work on a database that is unreachable or not migrated to the newest revision.

    Raises :class:`DatabaseError` with what to do (``guandan db upgrade``), instead of the
    "no such table" a command would otherwise fail with half-way.
    """
    head = head_revision()
    path = engine.url.database
    if (
        engine.dialect.name == "sqlite"
        and path
        and path != ":memory:"
        and not path.startswith("file:")
        and not os.path.exists(path)
        and os.path.isdir(os.path.dirname(os.path.abspath(path)))
    ):
        # Connecting would create an empty file: refuse first and leave the disk as it was.
        raise DatabaseError(phrase("db.not_migrated", db=_display(engine),
                                   revision=Term("none (empty)", "db.empty"), head=head))
    try:
        current = current_revision(engine)
    except OperationalError as exc:
        raise DatabaseError(phrase("db.cannot_open", db=_display(engine),
                                   reason=error_reason(exc, engine.url))) from None
    if current != head:
        raise DatabaseError(phrase(
            "db.not_migrated", db=_display(engine), head=head,
            revision=current or Term("none (empty)", "db.empty"),
        ))  # fmt: skip


def _display(engine: Engine) -> str:
    """The engine's URL for messages: no user name, password or secret query parameter."""
    return display_url(engine.url)


@contextmanager
def temporary_database(server_url: str, prefix: str = "guandan_tmp") -> Iterator[str]:
    """A fresh, uniquely named PostgreSQL database on ``server_url``'s server; yields its
    URL and drops it afterwards. For tests and benchmarks that must not collide."""
    server = make_url(resolve_url(server_url))
    name = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield server.set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
