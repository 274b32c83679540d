"""The message catalogue: every human-facing string in English and Chinese (zh-CN).

Messages live in ``duplicate/locale/*.toml``, one file an area (``core.toml``,
``report.toml``, ``service.toml`` ...), each a table of keys with an ``en`` and a ``zh``
text; placeholders are ``{name}`` (``str.format``). Every key must have both languages
with the same placeholders: :func:`check_catalogue` says which do not, and a test runs it.

    >>> t = translator("zh")
    >>> t("lang.name")
    '中文'
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

#: The languages every page and every human output speaks; the first is the default.
LANGUAGES: tuple[str, ...] = ("en", "zh")
DEFAULT_LANGUAGE = "en"


class CatalogueError(ValueError):
    """A catalogue file that cannot be read, or a key asked for that does not exist."""


@lru_cache(maxsize=1)
def catalogue() -> Mapping[str, Mapping[str, str]]:
    """Every message: key -> {language -> text}, from all ``locale/*.toml`` files."""
    merged: dict[str, dict[str, str]] = {}
    folder = resources.files("duplicate").joinpath("locale")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise CatalogueError(f"locale/{entry.name}: {exc}") from exc
        for key, texts in _flatten(data):
            if key in merged:
                raise CatalogueError(f"locale/{entry.name}: key {key!r} is defined twice")
            merged[key] = texts
    return merged


def _flatten(data: Mapping[str, Any], prefix: str = "") -> list[tuple[str, dict[str, str]]]:
    """TOML tables to dotted keys: a table whose values are all strings is one message."""
    out: list[tuple[str, dict[str, str]]] = []
    for name, value in data.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()):
            out.append((key, dict(value)))
        elif isinstance(value, dict):
            out.extend(_flatten(value, key + "."))
        else:
            raise CatalogueError(f"{key!r}: expected a table of en/zh texts")
    return out


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def check_catalogue() -> list[str]:
    """Every problem of the catalogue: a key missing a language, or whose languages do not
    have the same placeholders. Empty when the catalogue is whole."""
    problems = []
    for key, texts in sorted(catalogue().items()):
        missing = [lang for lang in LANGUAGES if not texts.get(lang)]
        if missing:
            problems.append(f"{key}: no text in {', '.join(missing)}")
            continue
        fields = {lang: _fields(texts[lang]) for lang in LANGUAGES}
        if len({frozenset(f) for f in fields.values()}) > 1:
            problems.append(f"{key}: placeholders differ: {fields}")
    return problems


@lru_cache(maxsize=256)
def normalise_language(lang: str | None) -> str:
    """``zh``, ``zh-CN``, ``zh_Hans`` -> ``zh``; ``en-GB`` -> ``en``; unknown -> default."""
    if not lang:
        return DEFAULT_LANGUAGE
    base = lang.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def negotiate(accept_language: str | None) -> str:
    """The language to answer an HTTP ``Accept-Language`` header with (RFC 9110 q-values)."""
    best, best_q = DEFAULT_LANGUAGE, -1.0
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        base = tag.strip().split("-")[0].lower()
        if base in LANGUAGES and q > best_q and q > 0:
            best, best_q = base, q - position * 1e-6
    return best


def gettext(lang: str, key: str, **values: Any) -> str:
    """The text of ``key`` in ``lang`` (English where the key has no such language),
    with ``values`` filled in. An unknown key is an error, never a silent blank."""
    texts = catalogue().get(key)
    if texts is None:
        raise CatalogueError(f"no message {key!r} in the catalogue")
    text = texts.get(normalise_language(lang)) or texts[DEFAULT_LANGUAGE]
    return text.format(**values) if values else text


@lru_cache(maxsize=64)
def translator(lang: str | None) -> Callable[..., str]:
    """``t(key, **values)`` for one language, as templates and commands use it."""
    code = normalise_language(lang)

    def t(key: str, **values: Any) -> str:
        return gettext(code, key, **values)

    return t


class Phrase:
    """A message of the catalogue with its values, put into words only when a language is
    known: a library refusal raised as ``HallError(phrase("hall.err.…", where=…))`` reads
    in English as ``str()`` and in the asker's language as ``text(lang)``. A value that is
    itself a ``Phrase`` (a place, a state) is put into the same language."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, values: Mapping[str, Any]) -> None:
        self.key = key
        self.values = dict(values)

    def text(self, lang: str | None = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang``."""
        return gettext(
            normalise_language(lang),
            self.key,
            **{k: v.text(lang) if isinstance(v, Phrase) else v for k, v in self.values.items()},
        )

    def __str__(self) -> str:
        return self.text(DEFAULT_LANGUAGE)

    def __repr__(self) -> str:
        return f"Phrase({self.key!r}, {self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.key, self.values) == (other.key, other.values)

    __hash__ = None  # type: ignore[assignment]


def phrase(key: str, **values: Any) -> Phrase:
    """``Phrase(key, values)``; the key must be in the catalogue."""
    if key not in catalogue():
        raise CatalogueError(f"no message {key!r} in the catalogue")
    return Phrase(key, values)
