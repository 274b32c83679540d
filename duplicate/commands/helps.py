"""``--help`` in the output's language: the English help stays in the code (click's
``help=`` and the commands' docstrings); the Chinese comes from the catalogue (domain
``help``), looked up when the help is printed, in the language of ``guandan --lang`` or
$GUANDAN_LANG.

Keys: ``help.<command path>`` for a command (``help.event.create``; the root is
``help.guandan``) and ``help.<command path>.<option>`` for an option
(``help.event.create.--rounds``); an option that many commands share through one helper
(``--db``, ``--json``, ``--help``) has one key ``help.<option>``. A translation is used
only while its ``msgid`` is the English the code holds, so a help changed in the code
shows in English until its Chinese is brought up to date (a test finds it). Click's own
words ("Usage:", "Options", "Commands", "[default: …]") are the catalogue's
``help.click.*``, put in by :class:`HelpFormatter` (click asks the process-wide
:mod:`gettext` domain for them, which one command line cannot switch per language).
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import click

from duplicate.commands.common import line_lang
from duplicate.commands.lazy import LazyGroup, loaded_commands

ROOT = "guandan"


def help_lang(ctx: click.Context) -> str:
    """The language of the help: ``guandan --lang`` (given before the command; before it
    is parsed, the ``--lang`` of the command line), else $GUANDAN_LANG, else English."""
    return line_lang(ctx)


def command_path(ctx: click.Context) -> str:
    """``event.create`` for ``guandan event create`` (whatever the program is called);
    ``guandan`` for the root."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or ctx.command.name or "")
        ctx = ctx.parent
    return ".".join(reversed(names)) or ROOT


def option_name(param: click.Parameter) -> str:
    """An option's name in its keys: its first long name (``--rounds``), else its first."""
    names = [*param.opts, *param.secondary_opts]
    return next((n for n in names if n.startswith("--")), names[0] if names else "")


def english(text: str | None) -> str:
    """A help as click shows it: indentation removed, up to a form feed."""
    return inspect.cleandoc(text or "").partition("\f")[0].strip()


def walk(command: click.Command, path: str = ROOT) -> Iterator[tuple[str, click.Command]]:
    """Every command of the tree with its path, the root first."""
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from walk(sub, name if path == ROOT else f"{path}.{name}")


def entries(root: click.Command) -> Iterator[tuple[str, str]]:
    """``(key, English)`` of every help the tree shows: each command's and each visible
    option's, shared options under their one key (each once)."""
    seen = set()
    plain = click.Command("plain")  # click's help option, not cached on a command of ours
    help_option = plain.get_help_option(click.Context(plain))
    for path, command in walk(root):
        if not command.hidden and english(command.help):
            yield f"help.{path}", english(command.help)
        for param in [*command.params, *([help_option] if command.add_help_option else [])]:
            if not isinstance(param, click.Option) or param.hidden or not param.help:
                continue
            key = option_key(path, param)
            if key not in seen:
                seen.add(key)
                yield key, english(param.help)


def option_key(path: str, param: click.Option) -> str:
    """The key of an option's help: its command's, or the shared one when the catalogue
    has that key for this very English."""
    shared = f"help.{option_name(param)}"
    from duplicate.i18n import source_ids

    if source_ids().get(shared, ("",))[0] == english(param.help):
        return shared
    return f"help.{path}.{option_name(param)}"


def translated(key: str, text: str | None, lang: str) -> str | None:
    """The help of ``key`` in ``lang`` when the catalogue holds it for this English
    ``text``; else ``text`` as it is."""
    if lang == "en" or not text:
        return text
    from duplicate.i18n import gettext, messages, source_ids

    if key not in messages() or source_ids()[key][0] != english(text):
        return text
    return gettext(lang, key)


def short_help(text: str, limit: int) -> str:
    """A command's line in a list of commands: its first sentence, cut to ``limit``
    terminal columns."""
    from duplicate.names import display_width

    first = re.split(r"(?<=[。！？])|\n\n", text.strip(), maxsplit=1)[0].replace("\n", "")
    first = first.rstrip("。")
    if display_width(first) <= limit:
        return first
    out = ""
    for ch in first:
        if display_width(out + ch + "…") > limit:
            break
        out += ch
    return out + "…"


def in_language(command: click.Command, ctx: click.Context, lang: str) -> click.Command:
    """A copy of ``command`` whose helps (its own, its options', its subcommands' lines)
    are in ``lang``; the command itself is left as it is."""
    path = command_path(ctx)
    out = copy.copy(command)
    out.help = translated(f"help.{path}", command.help, lang)
    out.options_metavar = _click_word("help.click.options_metavar", lang)
    out.params = [_option_in(path, p, lang) for p in command.params]
    help_option = command.get_help_option(ctx)
    out._help_option = _option_in(path, help_option, lang) if help_option else None  # type: ignore[assignment]
    if isinstance(command, click.Group) and isinstance(out, click.Group):
        out.subcommand_metavar = _click_word("help.click.subcommand_metavar", lang)
        out.commands = {}
        names = [n for n, sub in command.commands.items() if not sub.hidden]
        limit = ctx.make_formatter().width - 6 - max(map(len, names), default=0)
        for name, sub in command.commands.items():
            line = copy.copy(sub)
            sub_path = name if path == ROOT else f"{path}.{name}"
            text = translated(f"help.{sub_path}", sub.help, lang)
            if text != sub.help and text:
                line.short_help = short_help(english(text), limit)
            out.commands[name] = line
    return out


def _option_in(path: str, param: click.Parameter, lang: str) -> click.Parameter:
    if not isinstance(param, click.Option) or not param.help:
        return param
    out = copy.copy(param)
    out.help = translated(option_key(path, param), param.help, lang)
    return out


def _click_word(key: str, lang: str) -> str:
    from duplicate.i18n import gettext

    return gettext(lang, key)


# --- click's own words, and Chinese text wrapped by terminal columns -------------------

_SECTIONS = {"Options": "help.click.options", "Commands": "help.click.commands",
             "Positional arguments": "help.click.arguments"}
_EXTRA = re.compile(r"  \[([^\[\]]*)\]$")
#: a bracketed aside of a Chinese help (``（默认：wdl）``, ``（必填）``): kept on one line
_ASIDE = re.compile(r"（[^（）\n]*）")
_TOKEN = re.compile(r"[\x21-\x7e]+|\s+|.")


def _tokens(words: str) -> list[str]:
    """The pieces a line of Chinese help may break between: a Latin word, a space, a
    Chinese character, and a bracketed aside as one piece (:data:`_ASIDE`)."""
    out: list[str] = []
    at = 0
    for m in _ASIDE.finditer(words):
        out += _TOKEN.findall(words[at:m.start()])
        out.append(m.group(0))
        at = m.end()
    return out + _TOKEN.findall(words[at:])


@lru_cache(maxsize=1)
def _command_line() -> re.Pattern[str]:
    """A line showing a command (``示例：guandan event create …``: the command line ends
    it), compiled when a help is wrapped: its class of the CJK ranges costs more than the
    rest of this module's import."""
    return re.compile(r"guandan [^\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]*$")


def wrap(text: str, width: int, indent: str = "") -> str:
    """``text`` wrapped to ``width`` terminal columns (a Chinese character takes two,
    and a line may break between any two of them, never inside a bracketed aside such as
    ``（默认：wdl）`` that fits on a line): paragraphs kept, a ``\\b`` paragraph and a
    command line shown as an example as they are written."""
    from duplicate.names import display_width

    lines: list[str] = []
    for n, para in enumerate(re.split(r"\n\s*\n", text.strip())):
        if n:
            lines.append("")
        rows = para.splitlines()
        if para.startswith("\b") or _command_line().search(rows[0]) and all(
                "guandan " in line or line.startswith(" ") for line in rows[1:]):
            # as written: a \b paragraph, and examples (one command line a line)
            lines += [indent + line.rstrip() for line in para.lstrip("\b").strip("\n").splitlines()]
            continue
        words = re.sub(r"(?<=[^\x00-\x7f])\n(?=[^\x00-\x7f])", "", para)
        words = re.sub(r"\s*\n\s*", " ", words).strip()
        line = indent
        start = len(line)
        tokens = _tokens(words)
        while tokens:
            token = tokens.pop(0)
            if len(token) > 1 and _ASIDE.fullmatch(token) and \
                    display_width(indent + token) > width:  # wider than a line: it breaks
                tokens[:0] = _TOKEN.findall(token)
                continue
            if token.isspace():
                if len(line) > start:
                    line += " "
                continue
            if display_width(line + token) > width and len(line.rstrip()) > start \
                    and token not in "，。；：、）！？”":
                carried = line[-1] if line[-1] in "（“§" else ""  # an opening bracket goes along
                lines.append(line[:len(line) - len(carried)].rstrip())
                line = indent + carried
                start = len(indent)
            line += token
        lines.append(line.rstrip())
    return "\n".join(lines)


class HelpFormatter(click.HelpFormatter):
    """Click's formatter, in the language of the help: click's words from the catalogue,
    Chinese wrapped by terminal columns."""

    lang = "en"

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if prefix is None and self.lang != "en":
            prefix = _click_word("help.click.usage", self.lang)
        super().write_usage(prog, args, prefix)

    def section(self, name: str) -> Any:
        key = _SECTIONS.get(name)
        return super().section(_click_word(key, self.lang) if key and self.lang != "en" else name)

    def write_heading(self, heading: str) -> None:
        if self.lang == "en":
            return super().write_heading(heading)
        self.write(f"{'':>{self.current_indent}}{heading}：\n")

    def write_text(self, text: str) -> None:
        if self.lang == "en":
            return super().write_text(text)
        indent = " " * self.current_indent
        self.write(wrap(text, self.width, indent) + "\n")

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        if self.lang == "en":
            return super().write_dl(rows, col_max, col_spacing)
        from duplicate.names import display_width as term_len

        rows = [(a, self._extras(b)) for a, b in rows]
        first_col = min(max((term_len(a) for a, _ in rows), default=0), col_max) + col_spacing
        for term, text in rows:
            self.write(f"{'':>{self.current_indent}}{term}")
            if not text:
                self.write("\n")
                continue
            if term_len(term) <= first_col - col_spacing:
                self.write(" " * (first_col - term_len(term)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            indent = " " * (first_col + self.current_indent)
            width = max(self.width - first_col - 2, 10) + len(indent)
            self.write(wrap(text, width, indent).lstrip(" ") + "\n")

    def _extras(self, text: str) -> str:
        """An option's ``[default: x; required]`` in the help's language."""
        def words(m: re.Match[str]) -> str:
            items = []
            for item in m.group(1).split("; "):
                name, sep, value = item.partition(": ")
                key = {"default": "help.click.default", "env var": "help.click.env_var",
                       "required": "help.click.required"}.get(name)
                word = _click_word(key, self.lang) if key else name
                items.append(f"{word}：{value}" if sep and key else word + sep + value)
            return "（" + "；".join(items) + "）"

        text = _EXTRA.sub(words, text)
        return re.sub(r"。(（[^（）]*）)$", r"\1。", text)  # the sentence's stop after them


class HelpContext(click.Context):
    """A context whose help is printed in the output's language."""

    formatter_class = HelpFormatter

    def make_formatter(self) -> click.HelpFormatter:
        formatter = super().make_formatter()
        if isinstance(formatter, HelpFormatter):
            formatter.lang = help_lang(self)
        return formatter

    def get_help(self) -> str:
        lang = help_lang(self)
        if lang == "en":
            return super().get_help()
        return in_language(self.command, self, lang).get_help(self)

    def get_usage(self) -> str:
        lang = help_lang(self)
        if lang == "en":
            return super().get_usage()
        return in_language(self.command, self, lang).get_usage(self)


def install(root: click.Command) -> None:
    """Print the help of ``root`` and every command under it in the output's language
    (a command of a lazy group when it is imported)."""
    root.context_class = HelpContext
    if isinstance(root, click.Group):
        for sub in loaded_commands(root).values():
            install(sub)
    if isinstance(root, LazyGroup):
        root.on_load(install)
