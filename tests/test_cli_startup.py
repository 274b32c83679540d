"""The command line starts fast: ``guandan --help`` and ``guandan version`` cost at most twice
the CPU time of ``python -c "import click"``, because the root group imports a command only
when it is used (``duplicate.commands.lazy``) and a command imports only what it uses (no
database, web service or analysis for the version); and the lazy group behaves as the
eager one did: every command listed with its line, each imported whole when used.

What each imports is read from ``python -X importtime`` (every module, those imported
inside functions too): ``--help`` and ``version`` import exactly the project's modules
named here and a bounded number beyond ``import click``'s; no command's ``--help``
imports a database, a web service, the solver or the players' compiled code. CI times
nothing: the CPU-time bound runs only with ``GUANDAN_TIMED_TESTS=1``."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli import COMMANDS, main
from duplicate.commands.lazy import Lazy, LazyGroup

ROOT = Path(__file__).resolve().parent.parent
#: the libraries a short command must not import
HEAVY = ("sqlalchemy", "fastapi", "uvicorn", "starlette", "alembic", "duplicate.analysis",
         "duplicate.web", "duplicate.store", "jinja2", "babel")


def _env(cache: Path) -> dict[str, str]:
    """An environment where Python keeps its bytecode (under ``cache``), as an installed
    package has it: the cost measured is the program's, not compiling it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    env.pop("GUANDAN_LANG", None)
    return env


def _cpu(argv: Sequence[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) of running ``argv`` to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr.decode()
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


GUANDAN = [sys.executable, "-c", "import sys; from cli import main; sys.exit(main())"]


@pytest.mark.skipif(not os.environ.get("GUANDAN_TIMED_TESTS"),
                    reason="a measure of CPU time: CI times nothing; run it with "
                    "GUANDAN_TIMED_TESTS=1 on a quiet machine")
@pytest.mark.parametrize("args", [["--help"], ["version"]])
def test_a_short_command_costs_at_most_twice_importing_click(
        args: list[str], pycache: Path) -> None:
    env = _env(pycache)
    click_alone = [sys.executable, "-c", "import click"]
    command = [*GUANDAN, *args]
    _cpu(command, env)  # bytecode and the catalogue's cache written
    _cpu(click_alone, env)
    base, cost = [], []
    for _ in range(5):  # the best of five each, taken in turns (a loaded machine)
        base.append(_cpu(click_alone, env))
        cost.append(_cpu(command, env))
    print(f"guandan {' '.join(args)}: {min(cost):.3f} s CPU; import click: {min(base):.3f} s")
    assert min(cost) <= 2 * min(base)


@pytest.fixture(scope="module")
def pycache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the subprocesses keep their bytecode and the catalogue's cache, both written
    by a first run."""
    cache = tmp_path_factory.mktemp("pycache")
    subprocess.run([*GUANDAN, "version"], env=_env(cache), cwd=ROOT, capture_output=True,
                   timeout=60, check=True)
    return cache


def _imported(args: list[str], cache: Path) -> dict[str, object]:
    """Run ``guandan ARGS`` in a fresh interpreter, the caches written: its output, and
    which modules it held."""
    code = (
        "import io, json, sys, contextlib\n"
        "from cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        f"        main({args!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(json.dumps({'out': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=_env(cache), timeout=60, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _heavy(modules: object) -> list[str]:
    assert isinstance(modules, list)
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def _import_order(code: str, cache: Path) -> list[str]:
    """The modules ``python -X importtime -c code`` reports importing, in order, the caches
    written; then any other module the interpreter holds at the end (one imported with
    ``importlib.import_module``, as the lazy group does, is not timed)."""
    body = "".join(f"    {line}\n" for line in code.splitlines())
    script = f"import sys\ntry:\n{body}finally:\n    print('\\n' + ' '.join(sorted(sys.modules)))\n"
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", script],
                          capture_output=True, text=True, cwd=ROOT, env=_env(cache), timeout=60)
    assert done.returncode in (0, 2), done.stderr
    timed = [line.split("|")[2].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:") and not line.endswith("imported package")]
    seen = set(timed)
    return timed + [m for m in done.stdout.rstrip().rsplit("\n", 1)[-1].split() if m not in seen]


def _guandan_imports(args: list[str], cache: Path) -> list[str]:
    return _import_order(f"from cli import main\nsys.exit(main({args!r}))", cache)


@pytest.fixture(scope="module")
def click_modules(pycache: Path) -> set[str]:
    """What ``python -c "import click"`` imports: every command line starts with it."""
    return set(_import_order("import click", pycache))


def _own(modules: list[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in ("cli", "duplicate", "engine")}


#: the project's modules the root group imports: the group, its words and its help
ROOT_GROUP = {
    "cli", "duplicate", "duplicate.commands", "duplicate.commands.clickwords",
    "duplicate.commands.common", "duplicate.commands.helps", "duplicate.commands.lazy",
    "duplicate.errors", "duplicate.filecache", "duplicate.i18n", "duplicate.i18n.catalogue",
    "duplicate.limits", "duplicate.names", "engine", "engine.errors",
}
#: and ``guandan version``: its command and the engine's core, which it describes
VERSION = ROOT_GROUP | {
    "duplicate.commands.engine", "engine._native", "engine._native._core",
    "engine._native.sources", "engine.cards", "engine.combo", "engine.constants",
    "engine.core", "engine.ruleset", "engine.seat",
}
#: the modules beyond click's that ``--help`` and ``version`` may import in all (the
#: standard library's: json, csv, dataclasses, locale, shutil for the terminal's width…)
SHORT_BOUND = 60


@pytest.mark.parametrize("args,own", [(["--help"], ROOT_GROUP), (["version"], VERSION)],
                         ids=["help", "version"])
def test_a_short_command_imports_the_root_group_and_nothing_it_does_not_print(
        args: list[str], own: set[str], pycache: Path, click_modules: set[str]) -> None:
    modules = _guandan_imports(args, pycache)
    assert _own(modules) == own
    assert _heavy(modules) == []
    beyond = [m for m in modules if m not in click_modules]
    assert len(beyond) <= SHORT_BOUND, sorted(beyond)


def test_help_lists_every_command_without_importing_one(pycache: Path) -> None:
    run = _imported(["--help"], pycache)
    modules = run["modules"]
    assert isinstance(modules, list)
    targets = {entry.target.partition(":")[0] for entry in COMMANDS.values()}
    assert [m for m in modules if m in targets] == []
    assert _heavy(modules) == []
    listed = str(run["out"]).split("Commands:\n", 1)[1]
    for name in COMMANDS:
        assert f"\n  {name} " in f"\n{listed}", name


#: what no command's --help imports (the libraries a command needs when it runs)
SERVICES = ("sqlalchemy", "fastapi", "uvicorn", "starlette", "alembic", "jinja2", "babel")
#: the compiled modules of the layers above the engine and the solver: loaded (their
#: sources fingerprinted) by the commands that play or analyse, when they run
UPPER_NATIVE = ("duplicate.native", "duplicate._native", "duplicate.analysis._native",
                "duplicate.analysis.solver")
#: the modules beyond click's that a command's --help may import (the arena's: asyncio)
COMMAND_BOUND = 110


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_commands_help_imports_no_database_web_service_or_solver(
        name: str, pycache: Path, click_modules: set[str]) -> None:
    modules = _guandan_imports([name, "--help"], pycache)
    assert [m for m in modules if m.split(".")[0] in SERVICES] == []
    assert [m for m in modules if any(m == u or m.startswith(u + ".") for u in UPPER_NATIVE)] \
        == []
    assert ROOT_GROUP <= _own(modules)
    beyond = [m for m in modules if m not in click_modules]
    assert len(beyond) <= COMMAND_BOUND, sorted(beyond)


def test_the_import_scan_sees_a_module_imported_late(pycache: Path) -> None:
    """-X importtime reports a module imported inside a function too, as the commands
    import the library (the scan above would see one that crept in)."""
    modules = _import_order("def f():\n    import csv\nf()", pycache)
    assert "csv" in modules


def test_the_stored_lines_are_the_commands_own() -> None:
    """Each lazy entry names a command of that name, whose ``--help`` line (at any width)
    is the one the root lists before importing it."""
    for name, entry in COMMANDS.items():
        command = entry.load()
        assert command.name == name
        stand_in = click.Command(None, help=entry.short_help)
        for limit in (30, 45, 60, 80, 200):
            assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit), name


def test_help_is_the_same_before_and_after_the_commands_are_imported(pycache: Path) -> None:
    """The root's help from the stored lines is the help click makes from the commands."""
    fresh = _imported(["--help"], pycache)["out"]
    eager = click.Group("guandan", commands={n: e.load() for n, e in COMMANDS.items()},
                        params=main.params)
    with click.Context(eager, info_name="guandan") as ctx:
        want = eager.get_help(ctx).split("Commands:", 1)[1]
    got = str(fresh).split("Commands:", 1)[1]
    assert got.rstrip("\n") == want.rstrip("\n")


def test_a_command_imported_late_gets_what_every_command_gets() -> None:
    """``event table-cards`` is registered on the event group; integer options are bounded
    (``duplicate.limits``); helps print in the output's language."""
    from duplicate.commands.helps import HelpContext

    event = main.get_command(click.Context(main), "event")
    assert isinstance(event, click.Group) and "table-cards" in event.commands
    assert event.context_class is HelpContext
    create = event.commands["create"]
    assert create.context_class is HelpContext
    rounds = next(p for p in create.params if p.name == "rounds")
    assert isinstance(rounds.type, click.IntRange) and rounds.type.max == 2**31 - 1
    done = CliRunner().invoke(main, ["event", "create", "Cup", "--rounds", str(2**63)])
    assert done.exit_code == 2 and "2147483647" in done.output


def test_a_lazy_group_lists_without_importing_and_imports_on_lookup() -> None:
    loads: list[str] = []
    group = LazyGroup("g", lazy={"b": Lazy("cli:main", "Second."), "a": Lazy("cli:main", "First.")})
    group.on_load(lambda command: loads.append(command.name or ""))
    assert group.list_commands(click.Context(group)) == ["a", "b"] and loads == []
    assert "a" in group.commands and loads == []
    assert group.get_command(click.Context(group), "a") is main and loads == ["main"]
    assert group.get_command(click.Context(group), "nope") is None
    assert dict(group.commands.items()) == {"b": main, "a": main} and len(loads) == 2


def test_a_lazy_entry_that_is_not_a_command_is_refused() -> None:
    with pytest.raises(TypeError, match="not a click command"):
        Lazy("cli:COMMANDS", "x").load()


def test_the_capture_package_gives_each_name_from_its_module() -> None:
    """``duplicate.capture``'s names are imported from their modules when first used (so
    that ``table-sim`` imports no store): every name of ``__all__`` is there, the same
    object as its module's."""
    import importlib

    from duplicate import capture

    where = capture._WHERE
    assert sorted(where) == sorted(capture.__all__)
    for name, module in where.items():
        value = getattr(importlib.import_module(f"duplicate.capture.{module}"), name)
        assert getattr(capture, name) is value
    with pytest.raises(AttributeError):
        capture.nothing_of_that_name  # noqa: B018
