"""Click's own words (usage errors, the usage line, "Try … for help.") in the command
line's language: Chinese with no English left for ``--lang zh`` and $GUANDAN_LANG=zh, even
when the error comes before ``--lang`` is parsed; English as click writes it; and a
catalogue that holds every msgid of the installed click."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli import main
from duplicate.commands.clickwords import click_gettext, click_msgids, keys
from duplicate.i18n import check_catalogue, messages

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env, prog_name="guandan")
    return result.exit_code, result.output


def english_left(text: str, typed: tuple[str, ...] = ()) -> list[str]:
    """The English words of a Chinese output: what is left once quoted tokens, option
    names, metavars (FILES...), the command's path (``guandan event``), numbers' ranges and
    what the user typed are taken out."""
    for word in typed:
        text = text.replace(word, " ")
    text = re.sub(r"'[^']*'|“[^”]*”|\"[^\"]*\"|--?[\w-]+|\b[A-Z_]{2,}\b|\d\S*", " ", text)
    text = re.sub(r"\bguandan(?: [a-z][\w-]*)*", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def english_runs(text: str, typed: tuple[str, ...] = ()) -> list[str]:
    """Two or more English words in a row (the issue's measure), quoted tokens, the
    command's path and what the user typed aside."""
    for word in typed:
        text = text.replace(word, " ")
    text = re.sub(r"'[^']*'|--?[\w-]+|\bguandan(?: [a-z][\w-]*)*", " ", text)
    return re.findall(r"[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})+", text)


#: a usage error a Chinese user meets -> words its Chinese must hold
CASES = [
    (["replay"], "错误：缺少参数 'FILES...'。"),
    (["replay", "--bogus"], "错误：没有选项 '--bogus'。是不是想用 '--jobs'？"),
    (["bogus"], "错误：没有命令 'bogus'。"),
    (["replya"], "（是不是想用其中之一：'read', 'replay'？）"),
    (["simulate", "--boards", "x"], "'--boards' 的值无效：'x' 不是有效的整数。"),
    (["simulate", "--boards", "0"], "0 不在范围 1<=x<=2147483647 内。"),
    (["simulate", "--boards"], "错误：选项 '--boards' 需要一个值。"),
    (["version", "extra", "more"], "错误：多余的参数（extra more）"),
    (["--lang=de"], "'de' 不是 'en', 'zh' 之一。"),
    (["replay", "/"], "错误：'FILES...' 的值无效：文件 '/' 是文件夹。"),
]


@pytest.mark.parametrize(("args", "words"), CASES)
def test_usage_errors_in_chinese(args: list[str], words: str) -> None:
    code, out = run("--lang", "zh", *args)
    assert code == 2, out
    assert words in out
    if "requires" not in run(*args)[1]:  # click shows no usage with that one
        assert out.startswith("用法：guandan") and " --help' 查看帮助。\n" in out
    assert english_left(out, tuple(args)) == [], out
    assert english_runs(out, tuple(args)) == [], out


def test_environment_language_before_any_option_is_parsed() -> None:
    """A bad option of the root, before --lang could be processed: $GUANDAN_LANG, and
    a --lang that comes after it on the line."""
    for args, env in ((["--bogus"], {"GUANDAN_LANG": "zh"}), (["--bogus", "--lang", "zh"], {})):
        code, out = run(*args, env=env)
        assert code == 2
        assert out.splitlines()[:2] == ["用法：guandan [选项] 命令 [参数]...",
                                        "用 'guandan --help' 查看帮助。"]
        assert out.rstrip().endswith("错误：没有选项 '--bogus'。"), out
    code, out = run("replay", "--bogus", "--lang", "zh")  # the option is the root's
    assert "错误：没有选项 '--bogus'。" in out and english_left(out) == []


def test_english_is_clicks_own() -> None:
    code, out = run("replay")
    assert (code, out) == (2, "Usage: guandan replay [OPTIONS] FILES...\n"
                              "Try 'guandan replay --help' for help.\n\n"
                              "Error: Missing argument 'FILES...'.\n")
    code, out = run("--lang", "en", "simulate", "--boards", "x", env={"GUANDAN_LANG": "zh"})
    assert out.endswith("Error: Invalid value for '--boards': 'x' is not a valid integer "
                        "range.\n")
    code, out = run("replay", "/")
    assert out.endswith("Error: Invalid value for 'FILES...': File '/' is a directory.\n")
    code, out = run("replya")
    assert out.endswith("Error: No such command 'replya'. "
                        "(Did you mean one of: 'read', 'replay'?)\n")


def test_chinese_then_english_in_one_process() -> None:
    """Nothing of a Chinese command line stays for the next one (a help option click
    made and keeps, a noun)."""
    assert run("--lang", "zh", "replay", "--help")[0] == 0
    assert run("--lang", "zh", "replay")[0] == 2
    code, out = run("replay", "--help")
    assert "Show this message and exit." in out and not re.search(r"[\u4e00-\u9fff]", out)
    code, out = run("replay", "/")
    assert "File '/' is a directory." in out


def test_aborted_and_the_words_outside_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    assert click.core._("Aborted!") == "Aborted!"  # type: ignore[attr-defined]
    monkeypatch.setenv("GUANDAN_LANG", "zh")
    assert click.core._("Aborted!") == "已中止！"  # type: ignore[attr-defined]
    assert click_gettext("Usage:") == "用法："
    # an option's help that click makes once and keeps stays English (helps.py words it)
    assert click_gettext("Show this message and exit.") == "Show this message and exit."


def test_abort_in_chinese() -> None:
    """Ctrl-C at a prompt: click's "Aborted!" in the command line's language."""

    @click.command()
    def ask() -> None:
        click.prompt("x")

    group = type(main)(commands={"ask": ask})
    result = CliRunner().invoke(group, ["ask"], input="", env={"GUANDAN_LANG": "zh"})
    assert result.exit_code == 1 and "已中止！\n" in result.output
    assert "Aborted" not in result.output
    result = CliRunner().invoke(group, ["ask"], input="")
    assert "Aborted!\n" in result.output


@pytest.mark.parametrize(("args", "env", "words"), [
    (["--lang", "zh", "replay"], {}, "错误：缺少参数 'FILES...'。"),
    (["--bogus"], {"GUANDAN_LANG": "zh"}, "错误：没有选项 '--bogus'。"),
    (["--lang", "zh", "simulate", "--boards", "x"], {}, "'x' 不是有效的整数。"),
])
def test_a_real_process_in_chinese(args: list[str], env: dict[str, str], words: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "GUANDAN_LANG": "", **env}, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert words in done.stderr
    assert english_left(done.stderr.replace("cli.py", "guandan")) == [], done.stderr


def test_a_real_process_in_english() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "replay"], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "GUANDAN_LANG": ""}, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.endswith("Try 'cli.py replay --help' for help.\n\n"
                                "Error: Missing argument 'FILES...'.\n")


def test_the_catalogue_holds_every_msgid_of_the_installed_click() -> None:
    missing = [m for m in click_msgids() if m not in keys()]
    assert missing == [], f"run tools/click_catalogue.py and translate: {missing}"
    assert {"Error: {message}", "Try '{command} {option}' for help.", "Aborted!",
            "integer", "option"} <= set(keys())
    assert [p for p in check_catalogue() if p.startswith("click.")] == []
    assert all(set(messages()[k]) == {"en", "zh"} for k in keys().values())


def test_the_tool_finds_the_catalogue_up_to_date() -> None:
    done = subprocess.run([sys.executable, "tools/click_catalogue.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("args", "chinese", "english"), [
    (["simulate", "--boards", "1"], "错误：--seed HEX 和 --seed-file FILE 须给出其中一个，且只给一个",
     "Error: give exactly one of --seed HEX and --seed-file FILE"),
    (["read"], "错误：缺少参数 'CARDS...'。", "Error: Missing argument 'CARDS...'."),
])
def test_the_commands_own_usage_errors(args: list[str], chinese: str, english: str) -> None:
    code, zh = run("--lang", "zh", *args)
    assert code == 2 and zh.rstrip().endswith(chinese), zh
    assert english_left(zh, tuple(args)) == [], zh
    code, en = run(*args)
    assert code == 2 and en.rstrip().endswith(english), en


def test_serve_without_a_password_in_both_languages() -> None:
    env = {"GUANDAN_DIRECTOR_PASSWORD": ""}
    code, zh = run("--lang", "zh", "serve", env=env)
    assert code == 2 and "错误：需要裁判密码：请给出 --director-password 或设置 " \
        "$GUANDAN_DIRECTOR_PASSWORD（至少8个字符" in zh
    assert english_left(zh) == [], zh
    code, en = run("serve", env=env)
    assert code == 2 and "Error: the director's password is needed: give --director-password" \
        " or set $GUANDAN_DIRECTOR_PASSWORD (at least 8 characters; the desk and the " \
        "director's API use it)" in en


def test_an_options_engine_error_in_both_languages() -> None:
    code, zh = run("--lang", "zh", "plays", "--level", "2", "--hand", "S2 XX")
    assert code == 1 and zh.startswith("错误：--hand：牌“XX”无效：")
    code, en = run("plays", "--level", "2", "--hand", "S2 XX")
    assert code == 1 and en.startswith("Error: --hand: invalid card 'XX': a card is a suit")
