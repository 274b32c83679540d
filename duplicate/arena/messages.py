"""The arena's human lines, from the project's message catalogue (``duplicate/locale``,
domain ``arena``, keys ``arena.NAME``): :func:`text` gives one language, :func:`both` the
two side by side, as the arena prints them (its operators and the agents' authors read
either); :func:`said` the language the command line chose (:func:`use_language`), as the
server's log lines take it."""

from __future__ import annotations

from duplicate.i18n import Worded, gettext

#: the language of the arena's human lines (log lines), set by the command line
_language = {"lang": "en"}


def use_language(lang: str) -> None:
    """Say the arena's human lines (:func:`said`) in ``lang`` from now on."""
    _language["lang"] = lang


def language() -> str:
    """The language of the arena's human lines (:func:`use_language`)."""
    return _language["lang"]


def said(key: str, **values: object) -> str:
    """The catalogue's message ``arena.<key>`` in the language chosen (:func:`use_language`)."""
    return text(key, _language["lang"], **values)


def text(key: str, lang: str = "en", **values: object) -> str:
    """The catalogue's message ``arena.<key>`` in ``lang``, formatted; a value that is
    itself worded (a phrase, a term) is put into ``lang`` too."""
    return gettext(lang, f"arena.{key}",
                   **{k: v.text(lang) if isinstance(v, Worded) else v for k, v in values.items()})


def both(key: str, **values: object) -> str:
    """The English and the Chinese message on one line: ``en / zh``."""
    return f"{text(key, 'en', **values)} / {text(key, 'zh', **values)}"
