"""``--help`` of every command in both languages: every command and option has its Chinese
in the catalogue (for the very English the code holds), ``guandan --lang zh … --help`` and
GUANDAN_LANG=zh print it with no untranslated word, and the English help is what click
itself prints.

A Latin word is allowed in the Chinese help when it is syntax the reader types: a command
or option name, a choice, a metavar, an environment variable, a file name or address, a
quoted text or a command line shown as an example; a single letter standing for a number
(第N副); or a word of the glossary's lists of Latin words allowed in Chinese text and in
the command line's help.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner
from test_i18n_words import GLOSSARY, TOKEN, allowed_latin

from cli import main
from duplicate.commands import helps
from duplicate.i18n import gettext, messages, source_ids


def commands() -> list[tuple[str, ...]]:
    """Every command's words after ``guandan`` (the root: ``()``)."""
    return [() if path == helps.ROOT else tuple(path.split("."))
            for path, command in helps.walk(main) if not command.hidden]


def help_words() -> set[str]:
    """The glossary's list of Latin words allowed in the command line's help."""
    text = GLOSSARY.read_text(encoding="utf-8")
    section = text.split("## Latin words allowed in the command line's help", 1)[1]
    return set(re.findall(r"`([A-Za-z]+)`", section.split("\n## ", 1)[0]))


def syntax_words() -> set[str]:
    """The words of what a reader types: command and option names, choices, metavars,
    default values."""
    words: set[str] = set()
    ctx = click.Context(main)
    for path, command in helps.walk(main):
        words |= set(re.findall(r"[A-Za-z]+", path))
        for param in [*command.params, command.get_help_option(ctx)]:
            if param is None:
                continue
            words |= set(re.findall(r"[A-Za-z]+", " ".join([*param.opts,
                                                             *param.secondary_opts])))
            words |= set(re.findall(r"[A-Za-z]+", param.make_metavar(ctx)))
            if isinstance(param.default, str):  # shown as it is: [default: …]
                words |= set(re.findall(r"[A-Za-z]+", param.default))
            if isinstance(param.type, click.Choice):
                words |= {w for c in param.type.choices for w in re.findall(r"[A-Za-z]+", str(c))}
    return words


def untranslated_help(text: str, allowed: set[str]) -> list[str]:
    """The Latin words of a Chinese help that are not syntax nor allowed."""
    text = re.sub(r"\"[^\"]{0,80}\"", " ", text)  # quoted (maybe wrapped): typed as it is
    text = re.sub(r"'[^']{0,80}'", " ", text)
    text = re.sub(r"(?:guandan|pip) [^\n（）。；，]*", " ", text)  # a command line shown
    text = re.sub(r"[!-~]*(?://|[:=/\[\]<>{}_$@~])[!-~]*|§[0-9.-]+", " ", text)  # NAME=VALUE
    text = re.sub(r"[!-~]+\.[A-Za-z]+\b", " ", text)  # file names: RULES.md, teams.txt
    bad = [m.group(0) for m in TOKEN.finditer(text)]
    for word in re.findall(r"[A-Za-z]+", text):
        if len(word) == 1 or word in allowed:
            continue
        bad.append(word)
    return sorted(set(bad))


@pytest.fixture(scope="module")
def allowed() -> set[str]:
    return allowed_latin() | help_words() | syntax_words()


def invoke(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False,
                               prog_name="guandan")
    assert result.exit_code == 0, (args, result.output)
    return result.output


def click_help(words: tuple[str, ...]) -> str:
    """The help click itself prints for a command (its own context and formatter)."""
    ctx = click.Context(main, info_name="guandan", terminal_width=80)
    for word in words:
        group = ctx.command
        assert isinstance(group, click.Group)
        ctx = click.Context(group.commands[word], info_name=word, parent=ctx)
    return click.Context.get_help(ctx)


def entries() -> Iterator[tuple[str, str]]:
    yield from helps.entries(main)


def test_every_command_and_option_has_its_chinese_help() -> None:
    found = list(entries())
    assert len(found) > 250 and ("help.event.create.--rounds", "Number of rounds.") in found
    missing = [key for key, english in found
               if key not in messages() or "zh" not in messages()[key]
               or source_ids()[key][0] != english]
    assert missing == [], f"no Chinese for this English (add it to help.po): {missing}"


def test_a_help_changed_in_the_code_is_shown_in_english_until_translated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rounds = next(p for p in main.commands["event"].commands["create"].params  # type: ignore[attr-defined]
                  if p.name == "rounds")
    assert "轮数（默认" in invoke("--lang", "zh", "event", "create", "--help")
    monkeypatch.setattr(rounds, "help", "How many rounds are played.")
    text = invoke("--lang", "zh", "event", "create", "--help")
    assert "How many rounds are played." in text and "轮数" not in text
    assert ("help.event.create.--rounds", "How many rounds are played.") in list(entries())


@pytest.mark.parametrize("words", commands(), ids=lambda w: " ".join(w) or "guandan")
def test_chinese_help_holds_no_untranslated_word(words: tuple[str, ...],
                                                 allowed: set[str]) -> None:
    text = invoke("--lang", "zh", *words, "--help")
    assert text == invoke(*words, "--help", env={"GUANDAN_LANG": "zh"})
    assert text.startswith("用法：") and "选项：" in text
    assert untranslated_help(text, allowed) == []
    english = invoke(*words, "--help", env={"GUANDAN_LANG": ""})
    assert english.rstrip("\n") == click_help(words)  # English: click's own help, unchanged
    assert "Usage:" in english and "Usage:" not in text


def test_click_words_and_lists_of_commands_in_chinese() -> None:
    text = invoke("--lang", "zh", "event", "--help")
    assert "命令：" in text and "Commands:" not in text
    assert re.search(r"\n  create +创建赛事 NAME", text)
    assert "--help" in text and gettext("zh", "help.--help") in text
    create = invoke("--lang", "zh", "event", "create", "--help")
    assert "（默认：3；1<=x<=2147483647）" in create and "default:" not in create
    assert "用法：guandan event create [选项] NAME" in create


def test_the_check_finds_english_words() -> None:
    allowed = allowed_latin() | help_words() | syntax_words()
    assert untranslated_help("显示本帮助 and exit。", allowed) == ["and", "exit"]
    assert untranslated_help("Options：--rounds N（第N副）RULES.md 'x y'", allowed) == [
        "Options"]
    assert untranslated_help("示例：guandan event create \"Huai'an Cup\" --rounds 3", allowed) == []
    assert untranslated_help("用 search:PLAYOUTS 或 jiefeng_next=true，当ST", allowed) == ["ST"]


def test_lang_after_help_on_the_root_still_chooses_chinese() -> None:
    text = invoke("--help", "--lang", "zh")
    assert text.startswith("用法：") and text == invoke("--lang", "zh", "--help")
    assert invoke("-h").startswith("Usage:")
