"""A sweep of the whole command line: help on every command, and bad input.

Every bad input must end in one clear line naming what and where, exit code 1 (usage
errors 2), never a Python traceback (``result.exception`` is the ``SystemExit`` of click),
and leave the database and the disk as they were.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from cli import main

EXAMPLE = Path(__file__).parent / "golden" / "gdn" / "openguandan-26-deals.gdn"
HAND = "S2 S2 H3 C4 D5 S6 H7 H7 S9 ST CJ DQ SK SA SB HR"


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command path under ``group`` (groups included), depth first."""
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None
        yield (*path, name)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


def _run(*args: str, env: dict[str, str] | None = None) -> Result:
    """Invoke ``guandan ARGS``; any exception other than click's exit is a traceback."""
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"traceback for {args}: {result.exception!r}"
    )
    return result


def _fails(code: int, *args: str) -> str:
    """Run a command expected to fail with ``code``; its stderr, one ``Error:`` line."""
    result = _run(*args)
    assert result.exit_code == code, (result.exit_code, result.output)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.stderr
    assert "Traceback" not in result.output
    return errors[0]


ALL_COMMANDS = list(_commands(main))


def test_the_sweep_sees_every_command() -> None:
    names = {" ".join(p) for p in ALL_COMMANDS}
    assert {"read", "plays", "db upgrade", "deals verify", "replay", "import", "simulate",
            "compare", "event create", "event team add", "event report", "demo"} <= names


@pytest.mark.parametrize("path", ALL_COMMANDS, ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    result = _run(*path, "--help")
    assert result.exit_code == 0
    assert result.output.startswith(f"Usage: main {' '.join(path)}") or "Usage:" in result.output
    ctx = click.Context(main)
    cmd: click.Command | None = main
    for name in path:
        assert isinstance(cmd, click.Group)
        cmd = cmd.get_command(ctx, name)
    assert cmd is not None and (cmd.help or "").strip(), f"{' '.join(path)} has no help text"
    for param in cmd.params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"{' '.join(path)} {param.opts[0]} has no help text"


# --- engine commands ------------------------------------------------------------------


@pytest.mark.parametrize("level", ["1", "Z", "B"])
def test_a_bad_level_names_the_option(level: str) -> None:
    line = _fails(1, "plays", "--level", level, "--hand", HAND)
    assert f"--level: invalid rank {level!r}" in line and "2-9, T, J, Q, K or A" in line
    assert "--level" in _fails(1, "read", "--level", level, "S5")


def test_a_hand_of_28_cards_or_a_card_three_times_is_refused() -> None:
    line = _fails(1, "plays", "--level", "7", "--hand", HAND + " S3 S4 S5 S7 S8 S9 ST SJ SQ SK SA S3")
    assert line == "Error: --hand: 28 cards, but a hand holds at most 27"
    assert "--hand: card 'S5' appears more than twice" in _fails(
        1, "plays", "--level", "7", "--hand", "S5 S5 S5"
    )
    assert "--hand: no cards given" in _fails(2, "plays", "--level", "7", "--hand", " ")
    assert "CARDS: no cards given" in _fails(2, "read", "--level", "7", "")


def test_follow_that_is_not_what_it_says_names_the_option() -> None:
    line = _fails(1, "plays", "--level", "7", "--hand", HAND, "--follow", "Pair 3 S4 S5")
    assert line == "Error: --follow: S4 S5 is not Pair 3 at level 7: it is no combination"


# --- files: empty, not UTF-8, a folder, missing, unwritable ------------------------------


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.gdn"
    path.write_bytes(b"")
    return path


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A migrated SQLite database in its own folder."""
    url = f"sqlite:///{tmp_path / 'g.sqlite'}"
    assert _run("db", "--db", url, "upgrade").exit_code == 0
    return url


def test_an_empty_file_is_an_error_everywhere(empty: Path, db: str) -> None:
    result = _run("replay", str(empty))
    assert result.exit_code == 1
    assert "no deal in the file" in result.stderr and str(empty) in result.stderr
    result = _run("replay", "--json", str(empty))
    assert result.exit_code == 1 and json.loads(result.stdout)[0]["status"] == "error"
    result = _run("import", "--db", db, str(empty))
    assert result.exit_code == 1 and "not stored; first:" in result.stderr
    assert "no deal in the file" in _fails(1, "compare", str(empty))
    _run("event", "--db", db, "create", "Cup")
    assert "no deal in the file" in _fails(1, "event", "--db", db, "import", "Cup", str(empty))


def test_a_failed_deal_is_named_on_stderr_and_the_summary_stays_last(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace("S2", "X9", 1)
    bad = tmp_path / "bad.gdn"
    bad.write_text(text, encoding="utf-8")
    result = _run("replay", str(bad))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: 1 of 26 deals not replayed; first: ")
    assert f"{bad}:" in result.stderr and "invalid card 'X9'" in result.stderr
    assert result.stdout.splitlines()[-1] == "26 deals: 25 replayed, 1 failed"


def test_files_that_are_not_utf8(tmp_path: Path) -> None:
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Tigers: Zhou, Wu, Zheng, Wang caf\xe9\n".encode("latin-1"))
    seed = tmp_path / "cup.seed"
    assert _run("deals", "seed", str(seed)).exit_code == 0
    line = _fails(1, "deals", "verify", str(seed), "--gdn", str(latin))
    assert f"{latin}: not UTF-8 text" in line
    line = _fails(1, "event", "--db", f"sqlite:///{tmp_path / 'x.sqlite'}", "create", "C",
                  "--teams-file", str(latin))
    assert f"teams file '{latin}' is not UTF-8 text" in line


def test_a_folder_or_missing_file(tmp_path: Path) -> None:
    assert "is a directory" in _fails(2, "replay", str(tmp_path))
    assert "cannot read seed file" in _fails(
        1, "deals", "generate", str(tmp_path / "none.seed"), "-n", "2", "--no-store"
    )
    result = _run("replay", str(tmp_path / "none.gdn"))
    assert result.exit_code == 1 and "No such file or directory" in result.stderr


def test_unwritable_outputs_are_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "plain-file"  # a file where a folder is expected: fails even as root
    blocker.write_text("x", encoding="utf-8")
    out = blocker / "x.gdn"
    line = _fails(1, "simulate", "--seed", "1f", "--boards", "1", "-o", str(out))
    assert line == f"Error: cannot write {str(out)!r}: Not a directory"
    match = tmp_path / "match.gdn"
    assert _run("simulate", "--seed", "1f", "--boards", "1", "-o", str(match)).exit_code == 0
    line = _fails(1, "compare", str(match), "--html", str(blocker / "h"))
    assert line.startswith("Error: --html: ") and str(blocker / "h") in line


def test_an_unwritable_export_and_report(db: str, tmp_path: Path) -> None:
    seed = tmp_path / "cup.seed"
    _run("deals", "seed", str(seed))
    assert _run("deals", "--db", db, "generate", str(seed), "-n", "2").exit_code == 0
    blocker = tmp_path / "plain-file"
    blocker.write_text("x", encoding="utf-8")
    line = _fails(1, "deals", "--db", db, "export", "cup", "-f", "html", "-o", str(blocker / "c"))
    assert "cannot write" in line and "Not a directory" in line
    _run("event", "--db", db, "create", "Cup")
    line = _fails(1, "event", "--db", db, "report", "Cup", "--out", str(blocker / "site"))
    assert str(blocker / "site") in line


# --- databases ---------------------------------------------------------------------------


def test_an_unmigrated_database_is_refused_and_not_created(tmp_path: Path) -> None:
    path = tmp_path / "never.sqlite"
    url = f"sqlite:///{path}"
    line = _fails(1, "import", "--db", url, str(EXAMPLE))
    assert "revision none (empty)" in line and "run 'guandan db upgrade'" in line
    assert "revision none" in _fails(1, "deals", "--db", url, "list")
    assert not path.exists()  # the refusal left the disk as it was


def test_a_database_that_cannot_be_opened(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/missing/dir/x.sqlite"
    for args in (("db", "--db", url, "upgrade"), ("db", "--db", url, "current")):
        assert "cannot open database" in _fails(1, *args)
    assert "invalid database URL" in _fails(1, "db", "--db", "nonsense", "upgrade")


def test_a_postgres_server_that_is_down() -> None:
    pytest.importorskip("psycopg")
    url = "postgresql://nobody@127.0.0.1:1/x"
    for args in (("db", "--db", url, "upgrade"), ("deals", "--db", url, "list")):
        line = _fails(1, *args)
        assert "cannot open database postgresql+psycopg://***@127.0.0.1:1/x" in line  # no user name


def test_a_duplicate_import_stores_once_and_names_nothing_on_stderr(db: str) -> None:
    first = _run("import", "--db", db, "--json", str(EXAMPLE))
    assert first.exit_code == 0
    again = _run("import", "--db", db, str(EXAMPLE))
    assert again.exit_code == 0 and again.stderr == ""
    assert again.stdout.splitlines()[-1].startswith("26 deals: 0 stored, 26 already stored")


# --- seeds, commitments, names, options -------------------------------------------------


def test_seed_files_commitments_and_unknown_names(db: str, tmp_path: Path) -> None:
    notseed = tmp_path / "n.seed"
    notseed.write_text("hello\n", encoding="utf-8")
    assert "not a seed file" in _fails(1, "deals", "generate", str(notseed), "-n", "1", "--no-store")
    seed = tmp_path / "s.seed"
    _run("deals", "seed", str(seed))
    assert "is not the commitment 00ff" in _fails(1, "deals", "reveal", str(seed),
                                                   "--commitment", "00ff")
    assert "no board set named 'nope'" in _fails(1, "deals", "--db", db, "show", "nope")
    assert "no event named 'nope'" in _fails(1, "event", "--db", db, "standings", "nope")


def test_usage_errors_exit_2() -> None:
    assert "0 is not in the range" in _fails(2, "simulate", "--seed", "1f", "--boards", "0")
    assert "exactly one of --seed" in _fails(2, "simulate", "--boards", "1")
    assert "--correction needs" in _fails(2, "import", "--correction", str(EXAMPLE))


def test_records_to_stdout_leave_no_room_for_a_listing() -> None:
    line = _fails(2, "simulate", "--seed", "1f", "--boards", "1", "-o", "-", "--json")
    assert "-o - writes the records to standard output: no room for --json" in line


def test_a_play_out_of_turn_names_file_line_and_seat(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n\n")[0].split("\n")
    lines[7] = "W ThreeWithTwo 2 H2 S2 D2 SQ SQ"  # S's play, written as W's
    bad = tmp_path / "turn.gdn"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = _run("replay", str(bad))
    assert result.exit_code == 1
    assert f"first: {bad}:8: seat W: W acted out of turn" in result.stderr
