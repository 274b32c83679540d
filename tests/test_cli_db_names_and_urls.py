"""The command line's shared conventions: ``--db`` anywhere, names cleaned on the way in
and escaped on the way out, tables that line up with Chinese names, a missing file said as
such by ``replay``, a password with '@' never shown, ``verify --gdn`` of an incomplete set
refused."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Engine, update

from cli import main
from duplicate import events, models
from duplicate.commands.common import emit_rows
from duplicate.db import make_engine
from duplicate.errors import DatabaseUrlError
from duplicate.names import display_width

GOLDEN = Path(__file__).parent / "golden"
EXAMPLE = GOLDEN / "gdn" / "openguandan-26-deals.gdn"
BOARDS = GOLDEN / "boards_gd-sha256ctr-fy-1_cycle.gdn"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def fails(result: Result, message: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("Error: ") and message in result.stderr, result.stderr


def url_of(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


# --- 10: --db at the top level and after any command -----------------------------------


def test_db_anywhere_on_the_line(migrated_engine: Engine) -> None:
    url = url_of(migrated_engine)
    events.create_event(migrated_engine, "Cup", seed="ab")
    for args in (
        ("--db", url, "event", "list", "--json"),
        ("event", "list", "--db", url, "--json"),
        ("event", "--db", url, "list", "--json"),
    ):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
        assert [e["name"] for e in json.loads(result.stdout)] == ["Cup"], args
    imported = run("import", "--db", url, str(EXAMPLE))
    assert imported.exit_code == 0 and "26 stored" in imported.stdout
    again = run("--db", url, "import", str(EXAMPLE))
    assert again.exit_code == 0 and "26 already stored" in again.stdout


def test_the_db_nearest_the_command_wins(migrated_engine: Engine, tmp_path: Path) -> None:
    url = url_of(migrated_engine)
    events.create_event(migrated_engine, "Cup", seed="ab")
    missing = f"sqlite:///{tmp_path}/missing.sqlite"
    result = run("--db", missing, "event", "list", "--db", url, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["name"] == "Cup"
    fails(run("--db", url, "event", "list", "--db", missing), "guandan db upgrade")


# --- 12: control characters, Unicode ---------------------------------------------------


def test_listings_escape_control_characters(capsys: pytest.CaptureFixture[str]) -> None:
    emit_rows([{"team": "Evil\x1b[2J\x1b]0;owned\x07", "n": 1}], "table")
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "Evil\\x1b[2J\\x1b]0;owned\\x07" in out
    emit_rows([{"team": "a\x9bb"}], "csv")
    assert "\x9b" not in capsys.readouterr().out
    emit_rows([{"team": "a\x1bb"}], "json")  # JSON escapes them itself
    assert json.loads(capsys.readouterr().out) == [{"team": "a\x1bb"}]


def test_team_listing_escapes_names_stored_earlier(migrated_engine: Engine) -> None:
    events.create_event(migrated_engine, "Cup", seed="ab")
    events.add_team(migrated_engine, "Cup", "Red", ["A1", "A2", "A3", "A4"])
    with migrated_engine.begin() as conn:  # as a version that did not refuse it stored it
        conn.execute(update(models.EventTeam).values(name="Red\x1b[31m"))
    result = run("event", "--db", url_of(migrated_engine), "team", "list", "Cup")
    assert result.exit_code == 0 and "\x1b" not in result.stdout
    assert "Red\\x1b[31m" in result.stdout


def test_event_names_are_cleaned_on_the_way_in(migrated_engine: Engine, tmp_path: Path) -> None:
    url = url_of(migrated_engine)
    nfd = unicodedata.normalize("NFD", "Zhāng Wěi")
    assert run("event", "--db", url, "create", unicodedata.normalize("NFD", "Huái Cup"),
               "--seed", "ab").exit_code == 0
    added = run("event", "--db", url, "team", "add", "Huái Cup", "Hé", nfd, "B", "C", "D")
    assert added.exit_code == 0, added.output
    teams = events.list_teams(migrated_engine, "Huái Cup")
    assert teams[0].name == "Hé" and teams[0].players[0] == "Zhāng Wěi"
    fails(run("event", "--db", url, "team", "add", "Huái Cup", "Bad\x00", "E", "F", "G", "H"),
          "control character U+0000")
    teams_file = tmp_path / "teams.txt"
    teams_file.write_text(f"{unicodedata.normalize('NFD', 'Lǜ')}: {nfd}2, P, Q, R\n")
    created = run("event", "--db", url, "create", "Two", "--seed", "ab",
                  "--teams-file", str(teams_file))
    assert created.exit_code == 0, created.output
    assert [t.name for t in events.list_teams(migrated_engine, "Two")] == ["Lǜ"]


def test_tables_align_by_display_width(capsys: pytest.CaptureFixture[str]) -> None:
    assert display_width("淮安") == 4 and display_width("ab") == 2
    assert display_width(unicodedata.normalize("NFD", "é")) == 1
    emit_rows([{"team": "淮安队", "points": 2}, {"team": "Tigers", "points": 10}], "table")
    lines = capsys.readouterr().out.splitlines()
    # the second column starts at the same terminal column on every line
    starts = {display_width(line[: line.rindex(" ") + 1]) for line in lines}
    assert len(starts) == 1, lines


# --- 13: smaller ------------------------------------------------------------------------


def test_replay_of_a_missing_file_is_a_file_error(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "missing.gdn"))
    fails(result, "missing.gdn")
    assert "No such file" in result.stderr and "replayed" not in result.output
    result = run("replay", str(EXAMPLE), str(tmp_path / "missing.gdn"))
    fails(result, "missing.gdn")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://director:s3cr@t-pa55@127.0.0.1:5/cup",
        "postgresql://director:s3cr@t-pa55@@127.0.0.1:5/cup",
        "postgresql+psycopg://director:s3cr@t-pa55@no-such-host.invalid/cup",
    ],
)
def test_a_password_with_an_at_sign_never_leaks(url: str) -> None:
    with pytest.raises(DatabaseUrlError) as info:
        make_engine(url)
    message = str(info.value)
    assert "s3cr" not in message and "t-pa55" not in message and "director" not in message
    assert "%40" in message  # says how to write it
    result = run("--db", url, "event", "list")
    assert result.exit_code == 1 and "s3cr" not in result.output and "pa55" not in result.output


def test_masking_keeps_the_rest_of_the_url() -> None:
    with pytest.raises(DatabaseUrlError, match=r"postgresql\+psycopg://\*\*\*@db\.example/cup"):
        make_engine("postgresql://u:p@q@db.example/cup")
    # a well-formed URL is untouched, an @ in a SQLite path is no userinfo
    assert make_engine("postgresql://u:p%40q@db.example/cup").url.password == "p@q"
    assert make_engine("sqlite:////tmp/a@b/c.sqlite").url.database == "/tmp/a@b/c.sqlite"


def test_verify_gdn_checks_every_board_once(tmp_path: Path) -> None:
    from duplicate.dealing import seed_file_bytes

    seed = tmp_path / "golden.seed"
    seed.write_bytes(seed_file_bytes(bytes(range(32))))
    seed.chmod(0o600)
    text = BOARDS.read_text(encoding="utf-8")
    deals = text.split("\n\n")
    assert len(deals) == 16
    base = ("deals", "verify", str(seed), "--level-schedule", "cycle", "--gdn")
    assert run(*base, str(BOARDS)).exit_code == 0
    assert run(*base, str(BOARDS), "--boards", "16").exit_code == 0
    fails(run(*base, str(BOARDS), "--boards", "17"), "board 17 is missing")
    missing = tmp_path / "missing.gdn"
    missing.write_text("\n\n".join(deals[:2] + deals[3:]), encoding="utf-8")
    fails(run(*base, str(missing)), "board 3 is missing")
    repeated = tmp_path / "repeated.gdn"
    repeated.write_text("\n\n".join(deals + deals[4:5]), encoding="utf-8")
    fails(run(*base, str(repeated)), "board 5 appears twice")
    short = tmp_path / "short.gdn"
    short.write_text("\n\n".join(deals[:4]), encoding="utf-8")
    assert run(*base, str(short)).exit_code == 0  # boards 1 to 4, all there
    fails(run(*base, str(short), "--boards", "16"), "board 5 is missing")
    fails(run(*base, str(BOARDS), "--boards", "4"), "board 5 is not one of boards 1 to 4")
