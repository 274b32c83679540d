"""The arena's human lines, from the project's message catalogue (``duplicate/locale``,
domain ``arena``, keys ``arena.NAME``): :func:`text` gives one language, :func:`both` the
two side by side, as the arena prints them (its operators and the agents' authors read
either)."""

from __future__ import annotations

from duplicate.i18n import gettext


def text(key: str, lang: str = "en", **values: object) -> str:
    """The catalogue's message ``arena.<key>`` in ``lang``, formatted."""
    return gettext(lang, f"arena.{key}", **values)


def both(key: str, **values: object) -> str:
    """The English and the Chinese message on one line: ``en / zh``."""
    return f"{text(key, 'en', **values)} / {text(key, 'zh', **values)}"
