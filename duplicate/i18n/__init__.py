"""Every human word of the program, in English and Chinese (zh-CN), one module a kind:

* :mod:`duplicate.i18n.catalogue`: the message catalogue (gettext ``.po`` files in
  ``duplicate/locale``): keys, plural forms, phrases said later in the reader's language.
  Its names are this package's own (``from duplicate.i18n import phrase``).
* :mod:`duplicate.i18n.game`: the game in words: cards and plays drawn in one convention,
  seats, sides, results, places, levels, the rules (docs/GLOSSARY.md).
* :mod:`duplicate.i18n.stored`: the texts the store and the logs keep (coded phrases,
  the library's English descriptions of results and reasons), said in the reader's words.
* :mod:`duplicate.i18n.typed`: what a Chinese player or director types (seats, sides,
  rooms: ``北 南``, ``南北+2``, ``开室``), read as the library's letters.

The package is the bottom layer of ``duplicate``: it imports nothing of it, only the
engine (docs/DESIGN.md, "Layers"). The command line's own words (click's messages, ``--help``, table cells) stay
in :mod:`duplicate.commands`, the only layer that uses them.
"""

from __future__ import annotations

from duplicate.i18n.catalogue import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LOCALE_DIRS,
    CatalogueError,
    Message,
    Named,
    OsReason,
    Phrase,
    Term,
    Worded,
    catalogue,
    check_catalogue,
    engine_phrase,
    gettext,
    install,
    language_of,
    messages,
    negotiate,
    ngettext,
    normalise_language,
    os_phrase,
    os_reason,
    phrase,
    quoted,
    source_ids,
    translator,
)

__all__ = [
    "CatalogueError",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_DIRS",
    "Message",
    "Named",
    "OsReason",
    "Phrase",
    "Term",
    "Worded",
    "catalogue",
    "check_catalogue",
    "engine_phrase",
    "gettext",
    "install",
    "language_of",
    "messages",
    "negotiate",
    "ngettext",
    "normalise_language",
    "os_phrase",
    "os_reason",
    "phrase",
    "quoted",
    "source_ids",
    "translator",
]
