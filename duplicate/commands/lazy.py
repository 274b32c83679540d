"""A click group that imports its commands when one is used (click's "lazy loading of
subcommands" pattern), so that ``guandan --help`` and ``guandan version`` do not import
every command's libraries (the database, the web service, the analysis).

The group knows each command by name, where it lives (``"module:attribute"``) and the
first sentence of its help, which ``--help`` lists without importing the command. A
command is imported when it is asked for by name (``get_command``, ``commands[name]``);
listing the names imports nothing; ``commands.items()`` and ``commands.values()`` import
them all. What is done to every command of the tree (:meth:`LazyGroup.on_load`) is done to
each as it is imported, in the order it was asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any, NamedTuple

import click
from click import core as click_core


class Lazy(NamedTuple):
    """A command not imported yet: ``"module:attribute"`` and its line in ``--help``
    (the first sentence of its help, which click cuts to the width of the terminal)."""

    target: str
    short_help: str

    def load(self) -> click.Command:
        """Import the command."""
        return load(self.target)


def load(target: str) -> click.Command:
    """The click command ``"module:attribute"`` names, imported."""
    module, _, attribute = target.partition(":")
    command = getattr(importlib.import_module(module), attribute)
    if not isinstance(command, click.Command):
        raise TypeError(f"{target} is not a click command")
    return command


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name: the imported ones, and the :class:`Lazy` ones imported
    (and handed to ``prepare``) when first looked up."""

    def __init__(self, lazy: Mapping[str, Lazy],
                 prepare: Callable[[str, click.Command], None]) -> None:
        self._lazy = dict(lazy)
        self._loaded: dict[str, click.Command] = {}
        self._names = list(lazy)  # in the order they were given, as a dict keeps them
        self._prepare = prepare

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            entry = self._lazy[name]  # KeyError for a name the group does not have
            command = entry.load()
            self._loaded[name] = command
            del self._lazy[name]
            self._prepare(name, command)
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        if name not in self:
            self._names.append(name)
        self._lazy.pop(name, None)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name in self._loaded:
            del self._loaded[name]
        else:
            del self._lazy[name]
        self._names.remove(name)

    def __contains__(self, name: object) -> bool:
        return name in self._loaded or name in self._lazy

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))  # looking commands up while iterating imports them

    def __len__(self) -> int:
        return len(self._names)

    def loaded(self) -> dict[str, click.Command]:
        """The commands imported so far."""
        return dict(self._loaded)

    def waiting(self) -> dict[str, Lazy]:
        """The commands not imported yet."""
        return dict(self._lazy)


class LazyGroup(click.Group):
    """A group whose commands (``lazy``: name -> :class:`Lazy`) are imported when used."""

    def __init__(self, *args: Any, lazy: Mapping[str, Lazy] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._hooks: list[Callable[[click.Command], None]] = []
        commands = LazyCommands(lazy or {}, self._loaded)
        commands.update(self.commands)
        self.commands = commands

    def on_load(self, hook: Callable[[click.Command], None]) -> None:
        """Call ``hook`` on each command of this group imported from now on."""
        self._hooks.append(hook)

    def _loaded(self, name: str, command: click.Command) -> None:
        for hook in self._hooks:
            hook(command)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, the ones not imported yet by their stored line."""
        commands = self.commands  # a plain dict in a copy (duplicate.commands.helps)
        waiting = commands.waiting() if isinstance(commands, LazyCommands) else {}
        rows: list[tuple[str, Callable[[int], str]]] = []
        for name in self.list_commands(ctx):
            if name in waiting:
                rows.append((name, _stored_line(waiting[name].short_help)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section(_commands_heading()):
                formatter.write_dl([(name, line(limit)) for name, line in rows])


def _stored_line(text: str) -> Callable[[int], str]:
    """The line of a command whose help starts with ``text``, as click cuts it."""
    return click.Command(None, help=text).get_short_help_str


def _commands_heading() -> str:
    """click's own heading, through click's gettext (which the command line may have put
    into its language: :mod:`duplicate.commands.clickwords`)."""
    return str(click_core._("Commands"))  # type: ignore[attr-defined]


def loaded_commands(group: click.Group) -> Mapping[str, click.Command]:
    """The commands of ``group`` imported so far (all of a group that is not lazy)."""
    commands = group.commands
    return commands.loaded() if isinstance(commands, LazyCommands) else commands
