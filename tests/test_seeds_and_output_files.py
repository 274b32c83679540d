"""Seeds and the files the commands write.

One seed makes one set; ``-o`` never overwrites without ``--force`` and never a seed file;
``deals verify --set`` checks without revealing; the SQLite file is created 0600 and a seed
file readable by others is read with a warning.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main
from duplicate.boards import generate_set, load_set, store_set, verify_set
from duplicate.dealing import is_seed_file, parse_seed_file, seed_file_bytes
from duplicate.errors import BoardExistsError

SECRET = bytes(range(32))


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def fails(result: Result, message: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("Error: ") and message in result.stderr, result.stderr


def private_seed(path: Path, secret: bytes = SECRET, delayed_info: str | None = None) -> Path:
    path.write_bytes(seed_file_bytes(secret, delayed_info=delayed_info))
    path.chmod(0o600)
    return path


# --- 6: one seed makes one set ----------------------------------------------------------


def test_one_seed_makes_one_set_library(migrated_engine: object) -> None:
    seed = parse_seed_file(seed_file_bytes(SECRET, delayed_info="index close"), "late.seed")
    store_set(migrated_engine, generate_set(seed, 3, "first", delayed="101.5"))  # type: ignore[arg-type]
    other = generate_set(seed, 3, "second", delayed="101.6")  # other boards, same commitment
    with pytest.raises(BoardExistsError, match="already made set 'first': one seed makes one set"):
        store_set(migrated_engine, other)  # type: ignore[arg-type]


def test_one_seed_makes_one_set_cli(migrated_url: str, tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "late.seed", delayed_info="index close")
    deals = ("deals", "--db", migrated_url)
    assert run(*deals, "generate", str(seed), "-n", "2", "--delayed", "1").exit_code == 0
    fails(
        run(*deals, "generate", str(seed), "-n", "2", "--delayed", "2", "--name", "other"),
        "one seed makes one set",
    )
    listing = json.loads(run(*deals, "list", "--json").stdout)
    assert [s["name"] for s in listing] == ["late"]


# --- 7: -o never overwrites without --force, never a seed file --------------------------


def test_is_seed_file_by_content(tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "renamed.gdn")
    plain = tmp_path / "plain.gdn"
    plain.write_text('[Event "x"]\n')
    assert is_seed_file(seed) and not is_seed_file(plain)
    assert not is_seed_file(tmp_path / "missing") and not is_seed_file(tmp_path)


def test_export_refuses_to_overwrite(migrated_url: str, tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "cup.seed")
    deals = ("deals", "--db", migrated_url)
    assert run(*deals, "generate", str(seed), "-n", "2").exit_code == 0
    data = seed.read_bytes()
    # the secret seed is never written over, not even with --force
    fails(run(*deals, "export", "cup", "-o", str(seed)), "is a seed file")
    fails(run(*deals, "export", "cup", "-o", str(seed), "--force"), "is a seed file")
    assert seed.read_bytes() == data
    out = tmp_path / "cup.gdn"
    out.write_text("keep me\n")
    fails(run(*deals, "export", "cup", "-o", str(out)), "already exists")
    assert out.read_text() == "keep me\n"
    assert run(*deals, "export", "cup", "-o", str(out), "--force").exit_code == 0
    assert out.read_text().count("[Board ") == 2
    fresh = tmp_path / "new.gdn"
    assert run(*deals, "export", "cup", "-o", str(fresh)).exit_code == 0 and fresh.is_file()


def test_generate_and_simulate_refuse_to_overwrite(tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "cup.seed")
    data = seed.read_bytes()
    base = ("deals", "generate", str(seed), "-n", "2", "--no-store")
    fails(run(*base, "-o", str(seed), "--force"), "is a seed file")
    sim = ("simulate", "--seed-file", str(seed), "--boards", "1", "--x", "random", "--y", "random")
    fails(run(*sim, "-o", str(seed)), "is a seed file")
    fails(run(*sim, "-o", str(seed), "--force"), "is a seed file")
    assert seed.read_bytes() == data
    out = tmp_path / "match.gdn"
    assert run(*sim, "-o", str(out)).exit_code == 0
    fails(run(*sim, "-o", str(out)), "already exists")
    assert run(*sim, "-o", str(out), "--force").exit_code == 0
    assert run(*sim, "-o", "-").exit_code == 0  # standard output is never "existing"


def test_compare_html_refuses_a_used_folder(tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "cup.seed")
    match = tmp_path / "match.gdn"
    sim = ("simulate", "--seed-file", str(seed), "--boards", "1", "--x", "random", "--y", "random")
    assert run(*sim, "-o", str(match)).exit_code == 0
    site = tmp_path / "site"
    assert run("compare", str(match), "--html", str(site)).exit_code == 0
    fails(run("compare", str(match), "--html", str(site)), "is not empty")
    assert run("compare", str(match), "--html", str(site), "--force").exit_code == 0
    private_seed(site / "index.html")  # a seed file where a page would go
    fails(run("compare", str(match), "--html", str(site), "--force"), "is a seed file")
    assert is_seed_file(site / "index.html")


def test_event_outputs_refuse_to_overwrite(migrated_url: str, tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "cup.seed")
    data = seed.read_bytes()
    ev = ("event", "--db", migrated_url)
    assert run(*ev, "create", "Cup", "--format", "rr", "--rounds", "1",
               "--boards-per-round", "1").exit_code == 0
    for team in ("A", "B"):
        players = [f"{team}{i}" for i in range(1, 5)]
        assert run(*ev, "team", "add", "Cup", team, *players).exit_code == 0
    assert run(*ev, "pair-round", "Cup").exit_code == 0
    assert run(*ev, "assign-boards", "Cup", "--round", "1", "--seed-file", str(seed)).exit_code == 0
    fails(run(*ev, "play-bots", "Cup", "--round", "1", "-o", str(seed), "--force"),
          "is a seed file")
    assert run(*ev, "play-bots", "Cup", "--round", "1").exit_code == 0
    fails(run(*ev, "export", "Cup", "-o", str(seed), "--force"), "is a seed file")
    assert seed.read_bytes() == data
    out = tmp_path / "cup.gdn"
    assert run(*ev, "export", "Cup", "-o", str(out)).exit_code == 0
    fails(run(*ev, "export", "Cup", "-o", str(out)), "already exists")


# --- 8: verifying is a check, revealing is 'deals reveal' -------------------------------


def test_verify_does_not_reveal(migrated_url: str, migrated_engine: object, tmp_path: Path) -> None:
    seed_path = private_seed(tmp_path / "cup.seed")
    deals = ("deals", "--db", migrated_url)
    assert run(*deals, "generate", str(seed_path), "-n", "3").exit_code == 0
    verified = run(*deals, "verify", str(seed_path), "--set", "cup", "--json")
    assert verified.exit_code == 0, verified.output
    report = json.loads(verified.stdout)
    assert report["ok"] is True and report["revealed"] is False
    assert report["revealed_seed"] is None
    secret = json.loads(seed_path.read_bytes())["secret"]
    assert secret not in run(*deals, "export", "cup", "-f", "json").stdout
    assert secret not in run(*deals, "show", "cup", "--json").stdout
    result = verify_set(migrated_engine, "cup", parse_seed_file(seed_path.read_bytes()))  # type: ignore[arg-type]
    assert result.info.revealed_seed is None
    assert load_set(migrated_engine, "cup").info.revealed_seed is None  # type: ignore[arg-type]
    assert run(*deals, "reveal", str(seed_path), "--set", "cup").exit_code == 0
    assert json.loads(run(*deals, "show", "cup", "--json").stdout)["revealed"] is True


# --- 9: file modes ----------------------------------------------------------------------


def test_sqlite_file_created_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = tmp_path / "new.sqlite"
        assert run("db", "--db", f"sqlite:///{path}", "upgrade").exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_seed_readable_by_others_warns(tmp_path: Path) -> None:
    seed = private_seed(tmp_path / "cup.seed")
    quiet = run("deals", "generate", str(seed), "-n", "1", "--no-store")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    seed.chmod(0o644)
    loud = run("deals", "generate", str(seed), "-n", "1", "--no-store")
    assert loud.exit_code == 0
    assert loud.stdout == quiet.stdout  # still read
    assert loud.stderr.startswith("Warning: ") and "readable by other users" in loud.stderr
    assert "chmod 600" in loud.stderr and loud.stderr.count("\n") == 1
    sim = run("simulate", "--seed-file", str(seed), "--boards", "1", "-o", "-")
    assert "readable by other users" in sim.stderr
