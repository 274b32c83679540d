"""$GUANDAN_LANG as a locale name: ``GUANDAN_LANG=zh_CN guandan event
list`` failed every command with "Invalid value for '--lang': 'zh_CN' is not one of 'en',
'zh'", though no --lang was typed. A locale name is taken by its language, in the
environment and in ``--lang`` alike; a language the catalogue does not speak in the
environment (``fr``) falls back to English with one warning line naming the variable; typed
after ``--lang`` it stays a usage error."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main

ZH_HEAD = ["名称", "赛制", "轮数", "每轮副数", "计分制", "未完成", "时区", "名次排定", "规则"]
EN_HEAD = ["name", "format", "rounds", "boards_per_round", "scale", "unfinished", "time_zone",
           "tiebreaks", "rules"]


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env={"GUANDAN_LANG": "", **(env or {})})


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/lang.sqlite"
    assert run("db", "--db", url, "upgrade").exit_code == 0
    return url


@pytest.mark.parametrize(("value", "head"), [
    ("zh_CN", ZH_HEAD), ("zh-CN", ZH_HEAD), ("zh_CN.UTF-8", ZH_HEAD), ("ZH_cn.utf8", ZH_HEAD),
    ("zh", ZH_HEAD), ("en_US", EN_HEAD), ("en_GB.UTF-8", EN_HEAD), ("en", EN_HEAD)])
def test_a_locale_name_in_the_environment_is_taken_by_its_language(
        db: str, value: str, head: list[str]) -> None:
    result = run("event", "list", "--db", db, env={"GUANDAN_LANG": value})
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # no warning for a language it speaks
    assert result.stdout.splitlines()[0].split() == head


@pytest.mark.parametrize("value", ["zh_CN", "zh-CN", "zh_CN.UTF-8"])
def test_a_locale_name_after_lang_too(db: str, value: str) -> None:
    result = run("--lang", value, "event", "list", "--db", db)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split() == ZH_HEAD
    # click's own words, before --lang is parsed, read the locale name as well
    result = run("--bogus", env={"GUANDAN_LANG": value})
    assert result.exit_code == 2 and "错误：没有选项 '--bogus'。" in result.output
    result = run("--bogus", "--lang", value)
    assert result.exit_code == 2 and "错误：没有选项 '--bogus'。" in result.output


@pytest.mark.parametrize("value", ["fr", "C", "de_DE.UTF-8"])
def test_an_unknown_language_in_the_environment_is_english_with_a_warning(
        db: str, value: str) -> None:
    result = run("event", "list", "--db", db, env={"GUANDAN_LANG": value})
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].split() == EN_HEAD
    assert result.stderr == (
        f"Warning: GUANDAN_LANG={value!r} is not a language guandan speaks (en, zh, or a "
        "locale name such as zh_CN.UTF-8): English is used\n")
    # --lang on the line wins, and the environment is not worth a warning then
    result = run("--lang", "zh", "event", "list", "--db", db, env={"GUANDAN_LANG": value})
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.splitlines()[0].split() == ZH_HEAD


def test_an_unknown_language_typed_is_a_usage_error() -> None:
    result = run("--lang", "fr", "event", "list")
    assert result.exit_code == 2
    assert "Invalid value for '--lang': 'fr' is not one of 'en', 'zh'." in result.output


def test_a_commands_own_lang_takes_a_locale_name(tmp_path: Path) -> None:
    """pairs, compare, deals export, event report, analyse and table-cards have a --lang of
    their own: one type, the same reading (commands.common.LANG_CHOICE)."""
    from test_pairs import THIRD_BOARD, TWO_BOARDS, event  # the pairs tests' records

    from duplicate.gdn import dumps

    records = tmp_path / "s.gdn"
    records.write_text(dumps(event(TWO_BOARDS + THIRD_BOARD)), encoding="utf-8")
    page = tmp_path / "p.html"
    result = run("pairs", str(records), "--html", str(page), "--lang", "zh_CN.UTF-8")
    assert result.exit_code == 0, result.output
    assert 'lang="zh-CN"' in page.read_text(encoding="utf-8")
    page.unlink()
    result = run("pairs", str(records), "--html", str(page), env={"GUANDAN_LANG": "zh-CN"})
    assert result.exit_code == 0, result.output
    assert 'lang="zh-CN"' in page.read_text(encoding="utf-8")
    assert result.stdout.splitlines()[0].split()[:2] == ["名次", "搭档组"]


def test_language_of() -> None:
    from duplicate.i18n import language_of

    names = ("zh", "zh_CN", "zh-Hans", "zh_TW.Big5", "zh@x", "en_US", "EN", "fr", "C", "",
             None, "zhx")
    assert [language_of(v) for v in names] == [
        "zh", "zh", "zh", "zh", "zh", "en", "en", None, None, None, None, None]
