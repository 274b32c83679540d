"""The store's log in a person's language: what the library keeps in English in a change
(a result described as ``NS +2 (record 0123456789ab)``, ``unfinished (time)``; a reason
it wrote itself, ``imported from FILE:LINE: board 2, room Open``) in a player's words, as
docs/GLOSSARY.md writes them. English, and any text a person typed, stay as they are.
(A reason the library wrote, ``imported from FILE``, is :func:`duplicate.logtext.reason_words`.)"""

from __future__ import annotations

import re

from duplicate import vocab
from duplicate.i18n import normalise_language, translator
from duplicate.logtext import unfinished_said

__all__ = ["StateText", "state_words"]


_STATE = re.compile(r"^(NS|EW) \+(\d)(?: \((.*)\))?$")
_UNFINISHED = re.compile(r"^unfinished \((.*)\)$")
_RECORD = re.compile(r"^record ([0-9a-f]+)$")


class StateText:
    """A stored result as the library describes it (``State.describe()``), a value of a
    catalogue phrase: English as it is, another language in a player's words
    (:func:`state_words`)."""

    __slots__ = ("english",)

    def __init__(self, english: str) -> None:
        self.english = english

    def text(self, lang: str | None = "en") -> str:
        return state_words(self.english, normalise_language(lang)) or self.english

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"StateText({self.english!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StateText) and other.english == self.english

    def __hash__(self) -> int:
        return hash(self.english)


def state_words(text: str | None, lang: str) -> str | None:
    """A stored result as the library describes it (``NS +2 (record 0123456789ab)``,
    ``EW +3 (director's ruling)``, ``unfinished (time)``) in a player's words in ``lang``:
    ``南北升2级（牌谱 0123456789ab）``. English, and any other text, stay as they are."""
    if lang == "en" or not text:
        return text
    t = translator(lang)
    if text == "no result":
        return t("cli.no_result")
    m = _UNFINISHED.match(text)
    if m:
        return t("cli.state.unfinished", note=unfinished_said(m.group(1), lang))
    m = _STATE.match(text)
    if not m:
        return text
    ns = int(m.group(2)) * (1 if m.group(1) == "NS" else -1)
    words = vocab.result_text(ns, lang)
    note = m.group(3)
    if note is None:
        return words
    rec = _RECORD.match(note)
    if rec:
        note = t("cli.state.record", record=rec.group(1))
    elif note == "director's ruling" or note.startswith("director's ruling, finish "):
        note = t("cli.val.ruling")
    elif note.startswith("reported"):
        note = t("cli.val.report")
    return t("cli.state.noted", result=words, note=note)
