"""The language of the command line's human output: ``guandan --lang zh``
or $GUANDAN_LANG translates table headings and summaries from the catalogue, --json keeps
its field names, and an event has a language of its own, the default of its report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main
from duplicate.commands import events as event_commands
from duplicate.commands import records as record_commands
from duplicate.compare import SEAT_COLUMNS
from duplicate.i18n import catalogue


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def test_every_listing_column_has_both_languages() -> None:
    cols = {
        *event_commands._EVENT_MATCH_COLUMNS, *event_commands._EVENT_SCORE_COLUMNS,
        *event_commands._EVENT_STANDING_COLUMNS, *event_commands.EVENT_BOARD_COLUMNS,
        *record_commands._REPLAY_COLUMNS, *record_commands._IMPORT_COLUMNS, *SEAT_COLUMNS,
    }
    texts = catalogue()
    missing = sorted(c for c in cols if f"cli.col.{c}" not in texts)
    assert not missing, f"no cli.col heading for {missing}"


def test_lang_translates_headings_and_summaries_not_json(migrated_url: str) -> None:
    created = run("--lang", "zh", "event", "--db", migrated_url, "create", "Cup")
    assert created.exit_code == 0 and "赛事“Cup”" in created.output and "页面语言：中文" in created.output
    zh = run("event", "--db", migrated_url, "list", env={"GUANDAN_LANG": "zh"})
    assert zh.output.splitlines()[0].split() == ["名称", "赛制", "轮数", "每轮副数", "计分制",
                                                 "未完成", "时区", "名次排定", "规则"]
    en = run("event", "--db", migrated_url, "list", env={"GUANDAN_LANG": ""})
    assert en.output.splitlines()[0].split()[:2] == ["name", "format"]
    as_json = run("--lang", "zh", "event", "--db", migrated_url, "list", "--json")
    (row,) = json.loads(as_json.output)
    assert row["name"] == "Cup" and row["lang"] == "zh" and "boards_per_round" in row
    assert row["time_zone"] == "Asia/Shanghai"  # the default zone of a new event
    bad = CliRunner().invoke(main, ["--lang", "fr", "event", "list"])
    assert bad.exit_code == 2 and "fr" in bad.output


@pytest.mark.parametrize("given, expected", [(None, "zh"), ("en", "en")])
def test_event_language_is_its_reports_default(
    tmp_path: Path, given: str | None, expected: str
) -> None:
    db = f"sqlite:///{tmp_path}/d.sqlite"
    assert run("db", "--db", db, "upgrade").exit_code == 0
    made = run("event", "--db", db, "create", "Cup", "--language", "zh", "--rounds", "1",
               "--boards-per-round", "1", env={"GUANDAN_LANG": ""})
    assert made.exit_code == 0, made.output
    for team in ("A", "B"):
        players = [f"{team}{n}" for n in range(1, 5)]
        assert run("event", "--db", db, "team", "add", "Cup", team, *players).exit_code == 0
    args = ["event", "--db", db, "report", "Cup", "--out", str(tmp_path / "site")]
    result = run(*args, *(["--lang", given] if given else []), env={"GUANDAN_LANG": ""})
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "site" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["lang"] == expected
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert ('<html lang="zh-CN"' in page) == (expected == "zh")
