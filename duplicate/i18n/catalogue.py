"""The message catalogue: every human-facing string in English and Chinese (zh-CN).

Messages live in gettext catalogues (``duplicate/locale``), one domain an area (``core``,
``report``, ``desk`` ...): a template ``locale/<area>.pot`` and one ``.po`` a language,
``locale/en/LC_MESSAGES/<area>.po`` and ``locale/zh_CN/LC_MESSAGES/<area>.po``, as
translators' tools (Poedit, Weblate) open them. Each message is named by its key, the
``msgctxt`` (``result.up``); its ``msgid`` is the English text, its ``msgstr`` the text in
the file's language; a message counted by ``n`` has plural forms (``msgid_plural``,
``msgstr[0]`` ...), chosen by the file's ``Plural-Forms`` (so "1 rounds" cannot happen).
Placeholders are ``{name}`` (``str.format``, flag ``python-brace-format``). A value the code
quotes as Python does (``repr(name)``: ``'Cup'``) is shown in the reader's quotation marks,
``“Cup”`` in Chinese (:func:`quoted`), by :func:`gettext` itself.

The ``.po`` files are read with Babel when first asked for (no compile step: an editable
install works as it is). Every key must have both languages with the same placeholders:
:func:`check_catalogue` says which do not, and a test runs it. The words follow
docs/GLOSSARY.md.

    >>> t = translator("zh")
    >>> t("lang.name")
    '中文'
    >>> translator("en")("count.rounds", n=1), translator("en")("count.rounds", n=2)
    ('1 round', '2 rounds')
"""

from __future__ import annotations

import ast
import errno as _errno
import gettext as _gettext_module
import marshal
import re
import string
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from duplicate import filecache

if TYPE_CHECKING:
    import jinja2
    from babel.messages.catalog import Catalog

#: The languages every page and every human output speaks; the first is the default.
LANGUAGES: tuple[str, ...] = ("en", "zh")
DEFAULT_LANGUAGE = "en"
#: Language -> the folder of its ``.po`` files (gettext's locale names).
LOCALE_DIRS: Mapping[str, str] = {"en": "en", "zh": "zh_CN"}


class CatalogueError(ValueError):
    """A catalogue file that cannot be read, or a key asked for that does not exist."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message in one language: its forms (one, or one a plural form) and the rule
    that picks a form for a count ``n``."""

    forms: tuple[str, ...]
    plural: Callable[[int], int] | None = None

    def text(self, n: Any = None) -> str:
        """The form for ``n`` (the only form of a message that has no plural)."""
        if self.plural is None:
            return self.forms[0]
        if not isinstance(n, int):
            raise CatalogueError(f"a counted message needs an integer n, not {n!r}")
        return self.forms[min(self.plural(n), len(self.forms) - 1)]


#: the catalogue's folder (the package's data, beside its modules)
LOCALE = Path(__file__).resolve().parent.parent / "locale"


def _domains() -> list[str]:
    folder = LOCALE
    return sorted(e.name[:-4] for e in folder.iterdir() if e.name.endswith(".pot"))


def _read(lang: str, domain: str) -> Catalog:
    from babel.messages.pofile import PoFileError, read_po  # lazy: start-up speed

    entry = LOCALE / LOCALE_DIRS[lang] / "LC_MESSAGES" / f"{domain}.po"
    try:
        with entry.open("rb") as f:
            return read_po(f, locale=LOCALE_DIRS[lang], domain=domain, abort_invalid=True)
    except (OSError, PoFileError, ValueError) as exc:
        raise CatalogueError(f"locale/{LOCALE_DIRS[lang]}/{domain}.po: {exc}") from exc


#: a message as :func:`_read_texts` keeps it: its forms, and its file's plural rule (a
#: ``Plural-Forms`` expression) when it is counted, else ``None``
_Text = tuple[tuple[str, ...], str | None]


def _po_files() -> list[Path]:
    """Every ``.po`` file of the catalogue."""
    return [LOCALE / LOCALE_DIRS[lang] / "LC_MESSAGES" / f"{domain}.po"
            for domain in _domains() for lang in LANGUAGES]


def _read_texts() -> tuple[dict[str, dict[str, _Text]], dict[str, tuple[str, ...]]]:
    """Every message (key -> {language -> text}) and every key's msgid (and msgid_plural),
    from all the domains' ``.po`` files. English falls back to the ``msgid`` where its
    ``msgstr`` is empty; a key with a language untranslated or fuzzy lacks that language."""
    merged: dict[str, dict[str, _Text]] = {}
    source: dict[str, tuple[str, ...]] = {}
    where: dict[str, str] = {}
    for domain in _domains():
        for lang in LANGUAGES:
            catalog = _read(lang, domain)
            seen: set[str] = set()
            for m in catalog:
                if not m.id:
                    continue
                key = m.context
                if not key:
                    raise CatalogueError(f"{domain}.po: message {m.id!r} has no msgctxt key")
                if where.setdefault(key, domain) != domain or key in seen:
                    raise CatalogueError(f"{domain}.po: key {key!r} is defined twice")
                seen.add(key)
                ids = tuple(str(i) for i in m.id) if isinstance(m.id, tuple) else (str(m.id),)
                strs = (tuple(str(s or "") for s in m.string) if isinstance(m.string, tuple)
                        else (str(m.string or ""),))
                if lang == DEFAULT_LANGUAGE:
                    source[key] = ids
                    if not any(strs):
                        strs = ids
                if m.fuzzy or not all(strs):
                    continue  # untranslated: check_catalogue names it
                rule = str(catalog.plural_expr) if isinstance(m.id, tuple) else None
                merged.setdefault(key, {})[lang] = (strs, rule)
            for key in [k for k, d in where.items() if d == domain and k not in merged]:
                merged[key] = {}
    return merged, source


def _packed_texts() -> tuple[dict[str, bytes], bytes]:
    """:func:`_read_texts`, each message and the msgids packed apart (:mod:`marshal`), so
    that a run unpacks only the messages it uses."""
    merged, source = _read_texts()
    return {key: marshal.dumps(texts) for key, texts in merged.items()}, marshal.dumps(source)


@lru_cache(maxsize=1)
def _texts() -> tuple[dict[str, bytes], bytes]:
    """:func:`_packed_texts`, kept from the last run while the ``.po`` files are the same
    (:mod:`duplicate.filecache`: parsing them costs more than a short command's start)."""
    texts: tuple[dict[str, bytes], bytes] = filecache.cached(
        _po_files(), LOCALE, "catalogue-packed", _packed_texts)
    return texts


@cache
def _plural_rule(expression: str) -> Callable[[int], int]:
    return _gettext_module.c2py(expression)


class _Messages(Mapping[str, Mapping[str, Message]]):
    """key -> {language -> Message}, each key's made when first asked for (a command
    uses a few of the catalogue's thousands)."""

    def __init__(self, texts: Mapping[str, bytes]) -> None:
        self._texts = texts
        self._made: dict[str, Mapping[str, Message]] = {}

    def __getitem__(self, key: str) -> Mapping[str, Message]:
        made = self._made.get(key)
        if made is None:
            texts: dict[str, _Text] = marshal.loads(self._texts[key])
            made = self._made[key] = {
                lang: Message(tuple(forms), _plural_rule(rule) if rule is not None else None)
                for lang, (forms, rule) in texts.items()
            }
        return made

    def __contains__(self, key: object) -> bool:
        return key in self._texts

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __len__(self) -> int:
        return len(self._texts)


@lru_cache(maxsize=1)
def messages() -> Mapping[str, Mapping[str, Message]]:
    """Every message: key -> {language -> Message}, from all the domains' ``.po`` files.
    English falls back to the ``msgid`` where its ``msgstr`` is empty."""
    return _Messages(_texts()[0])


def catalogue() -> Mapping[str, Mapping[str, str]]:
    """Every message: key -> {language -> text} (a counted message's first form)."""
    return _flat()


@lru_cache(maxsize=1)
def _flat() -> Mapping[str, Mapping[str, str]]:
    return {k: {lang: m.forms[0] for lang, m in v.items()} for k, v in messages().items()}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def check_catalogue() -> list[str]:
    """Every problem of the catalogue: a key missing a language (or left fuzzy), or whose
    languages (and plural forms) do not all have the same placeholders. Empty when the
    catalogue is whole."""
    problems = []
    for key, texts in sorted(messages().items()):
        missing = [lang for lang in LANGUAGES if lang not in texts]
        if missing:
            problems.append(f"{key}: no text in {', '.join(missing)}")
            continue
        fields = {f"{lang}[{i}]": _fields(form)
                  for lang in LANGUAGES for i, form in enumerate(texts[lang].forms)}
        if len({frozenset(f) for f in fields.values()}) > 1:
            problems.append(f"{key}: placeholders differ: {fields}")
        counted = {lang: texts[lang].plural is not None for lang in LANGUAGES}
        if len(set(counted.values())) > 1:
            problems.append(f"{key}: counted in some languages only: {counted}")
        elif all(counted.values()) and any("n" not in f for f in fields.values()):
            problems.append(f"{key}: a counted message must show its count {{n}}")
    return problems


def language_of(name: str | None) -> str | None:
    """The catalogue's language a language or locale name asks for, by its language:
    ``zh``, ``zh-CN``, ``zh_CN.UTF-8``, ``zh_Hans`` -> ``zh``; ``en_US`` -> ``en``;
    ``None`` for a name the catalogue does not speak (``fr``, ``C``) or none."""
    if not name:
        return None
    base = re.split(r"[-_.@]", name.strip(), maxsplit=1)[0].lower()
    return base if base in LANGUAGES else None


@lru_cache(maxsize=256)
def normalise_language(lang: str | None) -> str:
    """``zh``, ``zh-CN``, ``zh_Hans`` -> ``zh``; ``en-GB`` -> ``en``; unknown -> default."""
    return language_of(lang) or DEFAULT_LANGUAGE


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
    with ``values`` filled in; a counted message takes its form from ``n``. An unknown key
    is an error, never a silent blank."""
    texts = messages().get(key)
    if texts is None:
        raise CatalogueError(f"no message {key!r} in the catalogue")
    code = normalise_language(lang)
    message = texts.get(code) or texts[DEFAULT_LANGUAGE]
    text = message.text(values.get("n"))
    if not values:
        return text
    if code == DEFAULT_LANGUAGE:
        return text.format(**values)
    return _quote_space().sub("", text.format(**{k: quoted(v) for k, v in values.items()}))


#: the marks :func:`quoted` puts around a quoted value, and a space next to them that
#: touches Chinese text (``赛事 “Cup”`` -> ``赛事“Cup”``): taken out once the text is whole
_OPEN_MARK, _CLOSE_MARK = "\x02“", "”\x03"
_CJK_TEXT = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"


@cache
def _quote_space() -> re.Pattern[str]:
    """The space to take out and the marks, compiled when first needed (a class of the
    CJK ranges costs a third of the catalogue's import; English never needs it)."""
    return re.compile(
        f"(?<=[{_CJK_TEXT}]) (?=\x02|“)|(?<=\x03|”) (?=[{_CJK_TEXT}])|[\x02\x03]")


def quoted(value: Any) -> Any:
    """A value of a message in a language other than English: a name the code quoted as
    Python quotes it (``repr(name)``, ``f"{name!r}"``: ``'Cup'``, what English shows) in
    that language's quotation marks, ``“Cup”``; any other value as it is. Every message
    of every language goes through here (:func:`gettext`), so no call site can miss it."""
    if (isinstance(value, str) and len(value) >= 2 and value[0] == value[-1]
            and value[0] in "'\"" and "\n" not in value):
        try:
            inner = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return value
        if isinstance(inner, str) and repr(inner) == value:
            return f"{_OPEN_MARK}{inner}{_CLOSE_MARK}"
    return value


def ngettext(lang: str, key: str, n: int, **values: Any) -> str:
    """The counted message ``key`` for ``n`` in ``lang`` (``1 round``, ``2 rounds``,
    ``2轮``): the form the language's plural rule picks, ``{n}`` filled in."""
    return gettext(lang, key, n=n, **values)


@lru_cache(maxsize=64)
def translator(lang: str | None) -> Callable[..., str]:
    """``t(key, **values)`` for one language, as templates and commands use it."""
    code = normalise_language(lang)

    def t(key: str, **values: Any) -> str:
        return gettext(code, key, **values)

    return t


@runtime_checkable
class Worded(Protocol):
    """A value of a phrase that is put into words only when the language is known: a
    :class:`Phrase`, a :class:`Term`, a stored result (``duplicate.i18n.stored.StateText``)."""

    def text(self, lang: str | None = DEFAULT_LANGUAGE) -> str: ...


@dataclass(frozen=True, slots=True)
class Term:
    """A word English shows as the library writes it (a seat letter ``N``, a room tag
    ``open``) and another language takes from the catalogue's ``key`` (``seat.N``: 北)."""

    english: str
    key: str

    def text(self, lang: str | None = DEFAULT_LANGUAGE) -> str:
        code = normalise_language(lang)
        return self.english if code == DEFAULT_LANGUAGE else gettext(code, self.key)

    def __str__(self) -> str:
        return self.english


@dataclass(frozen=True, slots=True)
class OsReason:
    """The reason the operating system gave for an ``OSError``, put into words only when
    the language is known: in English as the system words it (``strerror``), in another
    language the catalogue's ``os.<errno name>`` (``os.ENOENT``: 文件或文件夹不存在), the
    system's words again for an error the catalogue does not name."""

    english: str
    errno: int | None = None

    def text(self, lang: str | None = DEFAULT_LANGUAGE) -> str:
        code = normalise_language(lang)
        name = _errno.errorcode.get(self.errno) if self.errno is not None else None
        if code == DEFAULT_LANGUAGE or name is None or f"os.{name}" not in messages():
            return self.english
        return gettext(code, f"os.{name}")

    def __str__(self) -> str:
        return self.english


def os_reason(exc: OSError) -> OsReason:
    """The system's reason for ``exc`` (its ``strerror``, else its text), worded in the
    reader's language when put into a phrase: ``phrase(…, reason=os_reason(exc))``."""
    return OsReason(exc.strerror or str(exc), exc.errno)


def os_phrase(exc: OSError) -> Phrase:
    """The system's reason for ``exc`` alone, as a phrase (an error's whole message)."""
    return phrase("os.reason", reason=os_reason(exc))


class Named:
    """A name as a value of a catalogue phrase: quoted as English ``repr`` quotes it
    (``'淮安队'``), in Chinese “淮安队”; ``cut`` when it is the start of a longer text
    (``'…'…``)."""

    __slots__ = ("cut", "name")

    def __init__(self, name: str, cut: bool = False) -> None:
        self.name = name
        self.cut = cut

    def text(self, lang: str | None = "en") -> str:
        shown = repr(self.name) if normalise_language(lang) == "en" else f"“{self.name}”"
        return shown + ("…" if self.cut else "")

    def __str__(self) -> str:
        return repr(self.name) + ("…" if self.cut else "")


class Phrase:
    """A message of the catalogue with its values, put into words only when a language is
    known: a library refusal raised as ``HallError(phrase("hall.err.…", where=…))`` reads
    in English as ``str()`` and in the asker's language as ``text(lang)``. A value that is
    itself :class:`Worded` (a phrase: a place, a state; a :class:`Term`) is put into the
    same language."""

    __slots__ = ("key", "values")

    def __init__(self, key: str, values: Mapping[str, Any]) -> None:
        self.key = key
        self.values = dict(values)

    def text(self, lang: str | None = DEFAULT_LANGUAGE) -> str:
        """The message in ``lang``."""
        return gettext(
            normalise_language(lang),
            self.key,
            **{k: v.text(lang) if isinstance(v, Worded) else v for k, v in self.values.items()},
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
    if key not in messages():
        raise CatalogueError(f"no message {key!r} in the catalogue")
    return Phrase(key, values)


def _template_gettext(context: Any, key: str, **values: Any) -> str:
    return gettext(context.get("lang") or DEFAULT_LANGUAGE, key, **values)


def _template_ngettext(context: Any, key: str, n: int, **values: Any) -> str:
    return gettext(context.get("lang") or DEFAULT_LANGUAGE, key, n=n, **values)


def _percent_style(text: str) -> str:
    """A catalogue text as a ``{% trans %}`` block formats it: ``{name}`` -> ``%(name)s``,
    a literal ``%`` doubled (a text without placeholders is used as it is)."""
    if not _fields(text):
        return text
    out = []
    for literal, name, _spec, _conv in string.Formatter().parse(text):
        out.append(literal.replace("%", "%%"))
        if name:
            out.append(f"%({name})s")
    return "".join(out)


def source_ids() -> Mapping[str, tuple[str, ...]]:
    """key -> its msgid (and msgid_plural): the English the templates' blocks hold."""
    return _source_ids()


@lru_cache(maxsize=1)
def _source_ids() -> Mapping[str, tuple[str, ...]]:
    ids: dict[str, tuple[str, ...]] = marshal.loads(_texts()[1])
    return ids


def _template_pgettext(context: Any, key: str, msgid: str) -> str:
    """``{% trans "key" %}English{% endtrans %}``: the text of ``key`` (msgctxt) in the
    page's language. The key decides; ``msgid``, the English the block holds, is for
    Babel's extractor and for translators (tests/test_i18n.py checks it is the
    catalogue's)."""
    lang = normalise_language(context.get("lang"))
    message = messages()[key].get(lang) or messages()[key][DEFAULT_LANGUAGE]
    return _percent_style(message.text())


def _template_npgettext(context: Any, key: str, singular: str, plural: str, n: int) -> str:
    """``{% trans "key" n=x %}{{ n }} board{% pluralize %}{{ n }} boards{% endtrans %}``."""
    lang = normalise_language(context.get("lang"))
    message = messages()[key].get(lang) or messages()[key][DEFAULT_LANGUAGE]
    return _percent_style(message.text(n))


def install(env: jinja2.Environment) -> None:
    """Jinja2's i18n extension on ``env``, its callables this catalogue's, in the page's
    ``lang``: ``{% trans "report.standings" %}Standings{% endtrans %}`` (the key as the
    block's context, the English as its text: what Babel's extractor reads), and
    ``{% trans "count.boards" n=x %}{{ n }} board{% pluralize %}{{ n }} boards{% endtrans %}``;
    ``_("key", **values)``, ``gettext(key, **values)``, ``ngettext(key, n, **values)`` for
    texts built in expressions; each is given the template's context (the page's ``lang``)."""
    from jinja2 import pass_context  # lazy: start-up speed (only pages need Jinja)

    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=pass_context(_template_gettext), ngettext=pass_context(_template_ngettext),
        newstyle=False, pgettext=pass_context(_template_pgettext),
        npgettext=pass_context(_template_npgettext),
    )


#: the values of an engine error that name a seat by its letter (N), worded as a Term (北)
_ENGINE_SEATS = frozenset({"seat", "turn", "last"})


def _engine_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """An engine error's values as the reader's language words them: a seat letter as a
    :class:`Term`; a part with a key of its own (``engine.errors.Part``: ``S5 or H5``,
    what is still owed) as its phrase, when the catalogue has its key."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        key, inner = getattr(v, "key", None), getattr(v, "values", None)
        if isinstance(key, str) and isinstance(inner, dict) and key in messages():
            out[k] = Phrase(key, _engine_values(inner))
        elif k in _ENGINE_SEATS and v in ("N", "E", "S", "W"):
            out[k] = Term(v, f"seat.{v}")
        else:
            out[k] = v
    return out


def engine_phrase(exc: BaseException) -> Phrase | str:
    """The engine error ``exc`` as the reader's language words it: a :class:`Phrase` of the
    ``engine`` catalogue domain from its ``key`` and ``values`` (a seat letter becomes its
    word, N: 北; a part with a key of its own, ``S5 or H5``, its phrase; the reason it
    quotes from the engine error it was raised from, ``why``, that error's phrase), or its English text when it has no key the catalogue knows. The
    phrase in English is the engine's message without the deal's ``[position …]``."""
    key = getattr(exc, "key", None)
    values = getattr(exc, "values", None)
    if not isinstance(key, str) or not isinstance(values, dict) or key not in messages():
        return str(exc)
    worded = _engine_values(values)
    cause = exc.__cause__
    if "why" in worded and cause is not None:  # the engine's own reason it quotes (``from``)
        why = engine_phrase(cause)
        if str(why) == worded["why"]:
            worded["why"] = why
    said = Phrase(key, worded)
    english, whole = str(said), str(exc)
    if whole != english and not whole.startswith(f"{english} [position "):
        return whole  # the catalogue's English is not the engine's: keep the engine's words
    return said
