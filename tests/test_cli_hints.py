"""The library's refusals speak to any caller; how to do it at the command line (a flag, a
command) is their ``cli_hint``, which the command line adds and the web service leaves out
(a director at the desk has no ``--by``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.hall import BEARER, Hall, open_hall, refused
from sqlalchemy import Engine

from cli import main
from duplicate import events
from duplicate.commands.common import error_text
from duplicate.errors import DuplicateError
from duplicate.events import EventError

ROOT = Path(__file__).resolve().parent.parent
#: what belongs to the command line: a long flag, or a command to type
CLI_WORDS = re.compile(r"(?<![\w-])--[a-z]|'guandan ")


def test_no_library_message_names_a_flag_or_a_command() -> None:
    """Every refusal written in the library keeps its command-line advice in ``cli_hint``,
    out of the message; but ``db.py`` (a database is upgraded with ``guandan db upgrade``
    whoever uses it, the service's operator too) and ``demo.py`` (the command line's demo).
    The command line itself (``duplicate/commands``) may name its own flags."""
    offenders = []
    for path in sorted((ROOT / "duplicate").rglob("*.py")):
        if path.name in ("db.py", "demo.py") or "commands" in path.relative_to(ROOT).parts:
            continue
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):  # every raise statement, whole
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            message = [a for a in node.exc.args] + [
                k.value for k in node.exc.keywords if k.arg != "cli_hint"
            ]
            for part in message:
                call = ast.get_source_segment(text, part) or ""
                if CLI_WORDS.search(call):
                    offenders.append(f"{path.relative_to(ROOT)}: {call.strip()[:80]}")
    assert offenders == []


def test_the_hint_is_for_the_command_line_only(migrated_engine: Engine) -> None:
    with pytest.raises(EventError) as exc:
        events.get_event(migrated_engine, "Nope")
    assert str(exc.value) == "no event named 'Nope'"
    assert exc.value.cli_hint == "create it with 'guandan event create'"
    assert error_text(exc.value) == "no event named 'Nope': create it with 'guandan event create'"
    assert error_text(DuplicateError("plain")) == "plain"
    events.create_event(migrated_engine, "Cup", seed="ab")
    with pytest.raises(EventError) as exc:
        events.release_board(migrated_engine, "Cup", 1, 1, by="", reason="")
    assert not CLI_WORDS.search(str(exc.value)) and "--by" in (exc.value.cli_hint or "")


def test_the_command_line_shows_the_hint(migrated_engine: Engine) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(main, ["event", "--db", url, "standings", "Nope"])
    assert result.exit_code == 1
    assert result.output == "Error: no event named 'Nope': create it with 'guandan event create'\n"


@pytest.fixture
def web_hall(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def test_the_service_leaves_the_hint_out(web_hall: Hall) -> None:
    r = web_hall.client.get("/api/events/Nope/rounds/1/export", headers=BEARER)
    body = refused(r, 404)
    assert body["message"] == "no event named 'Nope'"


def test_the_command_line_speaks_the_catalogues_refusals_in_its_language(
    migrated_engine: Engine,
) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    events.create_event(migrated_engine, "Cup", seed="ab")
    for team in ("A", "B"):
        events.add_team(migrated_engine, "Cup", team, [f"{team}{i}" for i in range(4)])
    events.pair_round(migrated_engine, "Cup")
    add = ["event", "--db", url, "team", "add", "Cup", "Late", "P", "Q", "R", "S"]
    en = CliRunner().invoke(main, add)
    zh = CliRunner().invoke(main, ["--lang", "zh", *add])
    assert en.exit_code == zh.exit_code == 1
    assert en.output == ("Error: event 'Cup', team 'Late': rounds are already paired, "
                         "the field is closed\n")
    assert zh.output == "错误：赛事“Cup”，“Late”队：已经编排了轮次，不能再报名\n"  # the line in zh
