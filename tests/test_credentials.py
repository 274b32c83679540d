"""No credential in any message about a database URL or connection: neither a password
(in the user information or the query, ``?user=...&password=...``) nor a user name (the
URL's, or the one a server quotes: ``role "..." does not exist``). (They were printed:
``password=topsecret`` in full, ``postgres:***``, ``role "hallscorer"``.)
"""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner
from sqlalchemy import make_url

from cli import main
from duplicate import db

USER, PASSWORD = "hallscorer", "topsecret"
SERVER = make_url(os.environ.get("GUANDAN_TEST_DATABASE_URL") or "postgresql://127.0.0.1")
HOST = SERVER.host or "127.0.0.1"
PORT = SERVER.port or 5432

URLS = [
    f"postgresql+psycopg:///x?host={HOST}&port={PORT}&user={USER}&password={PASSWORD}",
    f"postgresql://{USER}:{PASSWORD}@{HOST}:{PORT}/x",
    f"postgresql://{USER}@{HOST}:{PORT}/x?password={PASSWORD}",
    f"postgresql://{USER}:top@{PASSWORD}@{HOST}:{PORT}/x",  # an '@' not written %40
    f"postgresql://{USER}:{PASSWORD}@{HOST}:99999/x",  # a port no server has
    f"nosuchdialect://{USER}:{PASSWORD}@{HOST}/x?password={PASSWORD}",
    f"postgresql+psycopg://{HOST}:{PORT}/x?user={USER}&password={PASSWORD}&sslmode=bogus",
]
COMMANDS = [["db", "current"], ["db", "upgrade"], ["db", "downgrade", "base"],
            ["event", "list"], ["import", "nothing.gdn"]]  # fmt: skip


def _clean(text: str) -> None:
    assert PASSWORD not in text and USER not in text, text


@pytest.mark.skipif(
    not os.environ.get("GUANDAN_TEST_DATABASE_URL"), reason="needs a PostgreSQL server"
)
@pytest.mark.parametrize("url", URLS)
def test_no_command_shows_a_credential_of_its_database(url: str) -> None:
    runner = CliRunner()
    for command in COMMANDS:
        done = runner.invoke(main, [*command, "--db", url])
        assert done.exit_code == 1, (command, done.output)
        assert done.stderr.startswith("Error: "), done.output
        _clean(done.output)


def test_serve_names_its_database_without_credentials() -> None:
    for url in URLS:
        _clean(db.mask_url(url))
        _clean(db.display_url(url))


@pytest.mark.parametrize(
    "message",
    [
        f'connection failed: FATAL:  password authentication failed for user "{USER}"',
        f'connection failed: FATAL:  role "{USER}" does not exist',
        f"invalid connection option: password={PASSWORD} user='{USER}'",
        f"could not connect as {USER} with {PASSWORD}",
    ],
)
def test_a_driver_message_loses_its_credentials(message: str) -> None:
    _clean(db.redact(message, f"postgresql://{USER}:{PASSWORD}@h/x"))
    if "could not connect" not in message:  # named in the message's own words
        _clean(db.redact(message))
