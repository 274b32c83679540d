"""A first session's steps: the demo's seed is 256 bits and stays out of the event's name,
``event create`` does not print its secret draw seed, the documented commands succeed as
written, and what the demo writes is ignored by git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main
from duplicate import events
from duplicate.demo import run_demo

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_demo_seed_is_256_bits_and_not_in_the_event_name(tmp_path: Path) -> None:
    lines: list[str] = []
    result = run_demo(f"sqlite:///{tmp_path}/d.sqlite", tmp_path / "site", echo=lines.append)
    assert re.fullmatch(r"[0-9a-f]{64}", result.seed)
    assert result.seed not in result.event and result.seed[:8] not in result.event
    assert all(result.seed[:8] not in line for line in lines)
    assert re.fullmatch(r"Demo [0-9a-f]{12}", result.event)
    # the same seed is the same demo: refused a second time, naming no seed
    with pytest.raises(Exception, match="already holds the demo of that seed"):
        run_demo(f"sqlite:///{tmp_path}/d.sqlite", tmp_path / "site2", seed=result.seed)


def test_demo_report_folder_is_not_overwritten(tmp_path: Path) -> None:
    site = tmp_path / "site"
    db = f"sqlite:///{tmp_path}/d.sqlite"
    assert run("demo", "--db", db, "--out", str(site), "--seed", "1f").exit_code == 0
    again = run("demo", "--db", db, "--out", str(site), "--seed", "2f")
    assert again.exit_code == 1 and "is not empty" in again.stderr
    assert run("demo", "--db", db, "--out", str(site), "--seed", "2f", "--force").exit_code == 0


def test_event_report_updates_its_own_folder_not_another_events(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/d.sqlite"
    one = run_demo(db, tmp_path / "one", seed="1f" * 32, echo=lambda _: None)
    two = run_demo(db, tmp_path / "two", seed="2f" * 32, echo=lambda _: None)
    # the same event's folder is brought up to date without --force
    same = run("event", "--db", db, "report", one.event, "--out", str(tmp_path / "one"))
    assert same.exit_code == 0, same.output
    # another event's report folder is not overwritten unasked
    other = run("event", "--db", db, "report", two.event, "--out", str(tmp_path / "one"))
    assert other.exit_code == 1 and "is not empty" in other.stderr
    assert one.event in (tmp_path / "one" / "index.html").read_text(encoding="utf-8")


def test_event_create_does_not_print_its_draw_seed(migrated_url: str) -> None:
    result = run("event", "--db", migrated_url, "create", "Cup")
    assert result.exit_code == 0, result.output
    from duplicate.db import make_engine

    engine = make_engine(migrated_url)
    try:
        (info,) = events.list_events(engine)
    finally:
        engine.dispose()
    assert len(info.seed) >= 32 and info.seed not in result.output
    assert "seed" not in result.output
    # nor does any listing, human or JSON
    for args in (["list"], ["list", "--json"]):
        listed = run("event", "--db", migrated_url, *args)
        assert listed.exit_code == 0 and info.seed not in listed.output, listed.output


def test_the_documented_import_with_set_succeeds(migrated_url: str, tmp_path: Path) -> None:
    """The command line reference's board-set example, as written: a set, its boards played (here by the
    bots), the records imported against the set."""
    seed = tmp_path / "cup.seed"
    db = ("--db", migrated_url)
    assert run("deals", "seed", str(seed)).exit_code == 0
    assert run("deals", *db, "generate", str(seed), "-n", "32",
               "--level-schedule", "cycle").exit_code == 0
    games = tmp_path / "games.gdn"
    simulated = run("simulate", "--seed-file", str(seed), "--level-schedule", "cycle",
                    "--boards", "4", "-o", str(games))
    assert simulated.exit_code == 0, simulated.output
    imported = run("import", *db, "--set", "cup", str(games))
    assert imported.exit_code == 0, imported.output
    assert imported.stdout.splitlines()[-1].startswith("8 deals: 8 stored")
    readme = (ROOT / "docs" / "reference" / "cli-records.md").read_text(encoding="utf-8")
    assert "guandan simulate --seed-file cup.seed --level-schedule cycle --boards 4 -o games.gdn" in readme
    assert "guandan import --set cup games.gdn" in readme


def test_gitignore_covers_what_the_demo_writes() -> None:
    ignore = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert "guandan-demo-report/" in ignore and "guandan*.sqlite" in ignore
    if (ROOT / ".git").exists():
        checked = subprocess.run(
            ["git", "check-ignore", "guandan-demo-report/index.html", "guandan-demo.sqlite"],
            cwd=ROOT, capture_output=True, text=True,
        )
        assert checked.stdout.split() == ["guandan-demo-report/index.html", "guandan-demo.sqlite"]
