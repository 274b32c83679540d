"""The ``guandan db`` and ``guandan deals`` commands, through click's CliRunner, on every
configured database: the whole commit / generate / reveal / verify flow, outputs, errors."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from cli import main
from duplicate.boards import hand_records
from duplicate.db import ENV_VAR, head_revision
from duplicate.dealing import LevelSchedule, derive_key, generate_boards, seed_file_bytes

GOLDEN = Path(__file__).parent / "golden"
SECRET = bytes(range(32))


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def fails(result: Result, message: str) -> None:
    """A library error: exit code 1 and one clear line on stderr, no traceback."""
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("Error: ")
    assert message in result.stderr, result.stderr


@pytest.fixture
def golden_seed(tmp_path: Path) -> Path:
    path = tmp_path / "golden.seed"
    path.write_bytes(seed_file_bytes(SECRET))
    path.chmod(0o600)  # a secret: read without a warning
    return path


def test_every_command_has_help() -> None:
    for group in ("db", "deals"):
        command = main.commands[group]
        assert isinstance(command, click.Group)
        assert command.help
        for name, sub in command.commands.items():
            assert sub.help, f"guandan {group} {name} has no help text"
            result = run(group, name, "--help")
            assert result.exit_code == 0 and "Usage:" in result.stdout


def test_db_upgrade_from_any_directory_uses_the_default_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.chdir(tmp_path)
    result = run("db", "upgrade")
    assert result.exit_code == 0, result.output
    head = head_revision()
    assert result.stdout == f"database sqlite:///guandan.sqlite at revision {head}\n"
    assert (tmp_path / "guandan.sqlite").is_file()
    assert run("db", "current").stdout == f"current: {head}\nnewest:  {head}\n"


def test_whole_flow(db_url: str, tmp_path: Path) -> None:
    assert run("db", "--db", db_url, "upgrade").exit_code == 0
    seed_path = tmp_path / "cup.seed"
    result = run("deals", "seed", str(seed_path))
    assert result.exit_code == 0, result.output
    data = seed_path.read_bytes()
    secret = json.loads(data)["secret"]
    commitment = hashlib.sha256(data).hexdigest()
    assert stat.S_IMODE(os.stat(seed_path).st_mode) == 0o600
    assert result.stdout.splitlines()[-1] == f"commitment (publish this now): {commitment}"

    deals = ("deals", "--db", db_url)
    result = run(*deals, "generate", str(seed_path), "-n", "12", "--level-schedule", "cycle")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"stored set 'cup': 12 boards, levels cycle, commitment {commitment}\n"
    assert result.stderr == ""  # no progress bar when stderr is not a terminal

    listing = json.loads(run(*deals, "list", "--json").stdout)
    assert [(s["name"], s["board_count"], s["revealed"]) for s in listing] == [("cup", 12, False)]
    shown = json.loads(run(*deals, "show", "cup", "--json").stdout)
    assert [b["level"] for b in shown["boards"]] == list("23456789TJQK")
    assert shown["commitment"] == commitment
    exported = run(*deals, "export", "cup").stdout
    html_path = tmp_path / "cup.html"
    assert run(*deals, "export", "cup", "-f", "html", "-o", str(html_path)).exit_code == 0
    html = html_path.read_text()
    assert html.count('<section class="hr-board"') == 12
    # before the reveal, the secret is in no output and not in the database
    for text in (result.stdout, json.dumps(listing), json.dumps(shown), exported, html):
        assert secret not in text

    fails(
        run(*deals, "generate", str(seed_path), "-n", "3", "--name", "again"),
        "already made set 'cup': one seed makes one set",
    )

    revealed = run(*deals, "reveal", str(seed_path), "--set", "cup", "--commitment", commitment)
    assert revealed.exit_code == 0 and revealed.stdout.encode() == data
    verified = run(*deals, "verify", str(seed_path), "--set", "cup", "--json")
    assert verified.exit_code == 0, verified.output
    report = json.loads(verified.stdout)
    assert report["ok"] is True and report["boards_checked"] == 12 and report["revealed"] is True
    text = run(*deals, "verify", str(seed_path), "--set", "cup").stdout
    assert text == f"set 'cup' verified: 12 boards match the seed file, commitment {commitment}\n"


def test_generate_to_stdout_is_the_golden_file(golden_seed: Path) -> None:
    result = run(
        "deals", "generate", str(golden_seed), "-n", "16", "--level-schedule", "cycle", "--no-store"
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.encode() == (GOLDEN / "boards_gd-sha256ctr-fy-1_cycle.gdn").read_bytes()


def test_generate_json_and_file(golden_seed: Path, tmp_path: Path) -> None:
    out = tmp_path / "boards.gdn"
    result = run(
        "deals",
        "generate",
        str(golden_seed),
        "-n",
        "3",
        "--no-store",
        "-o",
        str(out),
        "--event",
        "Cup",
    )
    assert result.exit_code == 0 and result.stdout == ""
    boards = list(generate_boards(derive_key(SECRET), 3, LevelSchedule.parse("fixed")))
    assert out.read_text() == hand_records(boards, "Cup")
    doc = json.loads(
        run("deals", "generate", str(golden_seed), "-n", "3", "--no-store", "--json").stdout
    )
    assert [b["deal_id"] for b in doc["boards"]] == [b.deal_id for b in boards]
    assert doc["boards"][1]["leader"] == "E" and len(doc["boards"][0]["hands"]["W"]) == 27


def test_show_selected_boards(migrated_url: str, golden_seed: Path) -> None:
    deals = ("deals", "--db", migrated_url)
    assert run(*deals, "generate", str(golden_seed), "-n", "6").exit_code == 0
    shown = run(*deals, "show", "golden", "-b", "5", "-b", "2").stdout
    assert shown.count("[Board ") == 2 and '[Board "2"]' in shown and '[Leader "N"]' in shown
    fails(run(*deals, "show", "golden", "-b", "9"), "set 'golden' has no board 9")
    fails(run(*deals, "show", "nope"), "no board set named 'nope'")


def test_delayed_information(migrated_url: str, tmp_path: Path) -> None:
    seed_path = tmp_path / "late.seed"
    assert run("deals", "seed", str(seed_path), "--delayed-info", "index close").exit_code == 0
    deals = ("deals", "--db", migrated_url)
    fails(run(*deals, "generate", str(seed_path), "-n", "2"), "announces delayed information")
    assert run(*deals, "generate", str(seed_path), "-n", "2", "--delayed", "42.5").exit_code == 0
    fails(
        run(*deals, "verify", str(seed_path), "--set", "late", "--delayed", "42.6"),
        "delayed value '42.5', not '42.6'",
    )
    assert run(*deals, "verify", str(seed_path), "--set", "late").exit_code == 0


def test_errors_are_one_line(db_url: str, tmp_path: Path, golden_seed: Path) -> None:
    deals = ("deals", "--db", db_url)
    fails(run(*deals, "list"), "run 'guandan db upgrade'")
    assert run("db", "--db", db_url, "upgrade").exit_code == 0
    fails(
        run(*deals, "generate", str(golden_seed), "-n", "2", "--level-schedule", "fixed:Z"),
        "invalid level schedule 'fixed:Z'",
    )
    fails(
        run(*deals, "generate", str(tmp_path / "missing.seed"), "-n", "2"), "cannot read seed file"
    )
    fails(run("deals", "seed", str(golden_seed)), "already exists")
    assert run(*deals, "generate", str(golden_seed), "-n", "2").exit_code == 0
    other = tmp_path / "other.seed"
    other.write_bytes(seed_file_bytes(bytes(32)))
    other.chmod(0o600)  # a secret: read without a warning
    fails(run(*deals, "verify", str(other), "--set", "golden"), "not the stored commitment")
    fails(run(*deals, "reveal", str(other), "--set", "golden"), "not the stored commitment")
    fails(run("deals", "reveal", str(other), "--commitment", "00"), "is not the commitment 00")
    fails(run("deals", "--db", "nonsense", "list"), "invalid database URL 'nonsense'")
    usage = run(*deals, "generate", str(golden_seed), "-n", "0")
    assert usage.exit_code == 2  # a usage error, reported by click


def test_verify_published_hand_records_without_a_database(golden_seed: Path) -> None:
    golden = str(GOLDEN / "boards_gd-sha256ctr-fy-1_cycle.gdn")
    result = run("deals", "verify", str(golden_seed), "--gdn", golden, "--level-schedule", "cycle")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{golden}: 16 boards match the seed file, commitment ")
    fails(
        run("deals", "verify", str(golden_seed), "--gdn", golden),
        "board 2: published level 3 is not the regenerated 2",
    )
    assert run("deals", "verify", str(golden_seed)).exit_code == 2  # neither --set nor --gdn
    assert run("deals", "verify", str(golden_seed), "--set", "x", "--gdn", golden).exit_code == 2
