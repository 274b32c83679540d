"""mkdocs hook: the command reference (docs/reference/commands.md) written from the
command line itself at build time, so that it cannot drift from the code.

The page holds the marker ``<!-- guandan-commands -->``; the hook puts in its place every
command's ``--help``, in English, as click prints it, walking the ``guandan`` group.
"""

from __future__ import annotations

from typing import Any

import click
from click.testing import CliRunner

MARKER = "<!-- guandan-commands -->"


def _commands(group: click.Group, path: tuple[str, ...]) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        found.append((*path, name))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*path, name)))
    return found


def command_reference() -> str:
    """Every command's help, a heading and a text block each."""
    from cli import main  # the command line, imported only when the page is built

    runner = CliRunner()
    parts = []
    for path in [(), *_commands(main, ())]:
        result = runner.invoke(main, ["--lang", "en", *path, "--help"], env={"COLUMNS": "90"},
                               prog_name="guandan", catch_exceptions=False)
        title = " ".join(("guandan", *path))
        level = "#" * min(2 + len(path) - (1 if path else 0), 4)
        parts.append(f"{level} `{title}`\n\n```text\n{result.output.rstrip()}\n```\n")
    return "\n".join(parts)


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, command_reference())
    return markdown
