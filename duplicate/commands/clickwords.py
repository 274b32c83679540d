"""Click's own words in the language of the command line: its usage errors ("Error:
Missing argument 'NAME'.", "No such option: --x", "'x' is not a valid integer."), the
"Usage:" line, "Try 'guandan replay --help' for help.", "Aborted!".

Click words these with :func:`gettext.gettext` and :func:`gettext.ngettext`, bound as
``_`` and ``ngettext`` in each of its modules when they are imported. :func:`install`
binds those names to functions of this module instead: in English they call gettext's
own (so English is click's, byte for byte); in another language they take the text from
the catalogue's domain ``click`` (``duplicate/locale/click.pot``), whose messages are
click's msgids, each under a key ``click.…``. ``tools/click_catalogue.py`` collects the
msgids from the installed click (:func:`click_msgids`) and adds the new ones to the
catalogue; a test fails while the installed click has a msgid the catalogue lacks.

The language is the command line's (:func:`duplicate.commands.common.line_lang`): ``--lang`` once
parsed, before that the ``--lang`` the command line holds, else $GUANDAN_LANG; so a usage
error found before the ``--lang`` option is processed speaks the same language.
"""

from __future__ import annotations

import gettext as _gettext
import importlib.util
import re
import sys
from collections.abc import Iterator, Mapping
from functools import lru_cache
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

import click

#: click's modules that word messages (each binds ``_`` and maybe ``ngettext``)
MODULES = (
    "click.core", "click.exceptions", "click.parser", "click.types", "click.decorators",
    "click.termui", "click.formatting", "click.utils", "click._termui_impl",
    "click.shell_completion",
)

#: msgids click words once, when a command is made (an option's help), and keeps: they
#: stay English here (a command made during a Chinese command line would keep Chinese
#: for the next one); duplicate.commands.helps words them when a help is printed
STORED = frozenset({
    "Show this message and exit.", "Show the version and exit.",
    "Confirm the action without prompting.",
})

#: msgids click passes to ``_`` through a variable, which no extractor sees
INDIRECT = ("required",)

#: placeholders whose value is one of click's own words (a type's name ``integer``, a
#: Path's noun ``File``), put into the message's language with it
_WORD_VALUES = ("number_type", "param_type")



@lru_cache(maxsize=1)
def _cjk() -> re.Pattern[str]:
    """Chinese text, compiled when first needed (its class costs more than the rest of
    this module's import, and English never needs it)."""
    return re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def click_msgids() -> list[str]:
    """Every msgid of the installed click: the texts its modules give ``_`` and
    ``ngettext`` (both forms of a counted one), :data:`INDIRECT`, and the names of its
    parameter types and kinds (``integer``, ``option``), which its messages quote."""
    from babel.messages.extract import extract

    found: dict[str, None] = {}
    for path in sorted(Path(click.__file__).parent.glob("*.py")):
        with path.open("rb") as f:
            for _line, message, _comments, _context in extract(
                    "python", f, keywords={"_": None, "ngettext": (1, 2)}):
                for text in (message if isinstance(message, tuple) else (message,)):
                    found.setdefault(str(text), None)
    for text in INDIRECT:
        found.setdefault(text, None)
    for name in _type_names():
        found.setdefault(name, None)
    return list(found)


def _type_names() -> Iterator[str]:
    """The names of click's parameter types (``integer``) and kinds of parameter
    (``option``), which its messages quote (``{number_type}``, ``{param_type}``)."""
    for module, attr, base in ((click.types, "name", click.ParamType),
                               (click.core, "param_type_name", click.Parameter)):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, base):
                name = value.__dict__.get(attr)
                if isinstance(name, str) and name:
                    yield name


@lru_cache(maxsize=1)
def keys() -> Mapping[str, str]:
    """click's msgid -> its key in the catalogue (domain ``click``)."""
    from duplicate.i18n import source_ids

    return {ids[0]: key for key, ids in source_ids().items() if key.startswith("click.")}


class _Text(str):
    """A click message in another language, whose ``format`` also words the values that
    are click's own words and ends a Chinese sentence with its own stop."""

    lang = "en"

    def format(self, *args: Any, **values: Any) -> str:  # noqa: A003 - str.format's name
        for name, value in values.items():
            path_noun = name == "name" and "{filename!r}" in self
            if isinstance(value, str) and (name in _WORD_VALUES or path_noun):
                values[name] = word(self.lang, value.lower() if path_noun else value)
            elif name == "message" and isinstance(value, str):
                values[name] = full_stops(value)
        return str.format(self, *args, **values)


def full_stops(text: str) -> str:
    """A Chinese message's English full stops (click adds one after the words it looks
    up: ``缺少参数 'NAME'.``) as ``。``; an abbreviation's stops (``e.g. 1f2e``) stay."""
    if not _cjk().search(text):
        return text
    text = re.sub(r"(?<![A-Za-z]\.[A-Za-z])\.\s+(?=\S)", "。", text)
    text = re.sub(r"(?<=[。？！]) +", "", text)
    return text[:-1] + "。" if text.endswith(".") and not text.endswith("..") else text


def word(lang: str, msgid: str) -> str:
    """click's ``msgid`` in ``lang`` (as it is when the catalogue lacks it)."""
    key = keys().get(msgid)
    if key is None:
        return msgid
    from duplicate.i18n import gettext

    text = _Text(gettext(lang, key))
    text.lang = lang
    return text


def _lang() -> str:
    from duplicate.commands.common import line_lang

    return line_lang()


def click_gettext(message: str) -> str:
    """``_`` of click's modules: gettext's own in English, else the catalogue's."""
    lang = _lang()
    if lang == "en" or message in STORED:
        return _gettext.gettext(message)
    return word(lang, message)


def click_ngettext(singular: str, plural: str, n: int) -> str:
    """``ngettext`` of click's modules: gettext's own in English, else the catalogue's
    text of the form gettext would pick in English (each form is a message of its own)."""
    lang = _lang()
    if lang == "en":
        return _gettext.ngettext(singular, plural, n)
    return word(lang, singular if n == 1 else plural)


def install() -> None:
    """Bind ``_`` and ``ngettext`` of click's modules to :func:`click_gettext` and
    :func:`click_ngettext`: now for those click has imported, and for the others (the
    terminal's helpers, shell completion: a few ms of every start, used by few commands)
    as they are imported (:class:`_WhenImported`)."""
    later = set()
    for name in MODULES:
        module = sys.modules.get(name)
        if module is None:
            later.add(name)
        else:
            _bind(module)
    if later and not any(isinstance(f, _WhenImported) for f in sys.meta_path):
        sys.meta_path.insert(0, _WhenImported(later))


def _bind(module: ModuleType) -> None:
    """Click's ``_`` and ``ngettext`` of ``module`` bound to this module's."""
    if getattr(module, "_", None) is _gettext.gettext:
        module._ = click_gettext  # type: ignore[attr-defined]
    if getattr(module, "ngettext", None) is _gettext.ngettext:
        module.ngettext = click_ngettext  # type: ignore[attr-defined]


class _WhenImported:
    """An import hook (``sys.meta_path``) that binds click's words in the modules of
    ``names`` once each is executed, and then leaves the import system alone."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        """The spec the other finders give ``name``, its loader binding the words after
        the module runs; None (not this hook's) for any other module."""
        if name not in self.names:
            return None
        self.names.discard(name)
        if not self.names:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = spec.loader if spec is not None else None
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _bind(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec
