"""Seats, sides and rooms as a Chinese player or director types them, read as the
library's letters and tags: a finishing order ``北 南``, ``北东南``, ``北家、南家`` is
``N S`` / ``N E S``; a result ``南北+2``, ``东西 +1``, ``南北升2级`` is ``NS +2`` / ``EW +1``;
a room ``开室`` / ``闭室`` is ``open`` / ``closed``. Text in letters passes as it is."""

from __future__ import annotations

import re

_SEATS = {"北": "N", "东": "E", "南": "S", "西": "W"}
_SIDES = {"南北": "NS", "北南": "NS", "东西": "EW", "西东": "EW"}
_ROOMS = {"开室": "open", "开": "open", "闭室": "closed", "闭": "closed"}
_SEPARATORS = re.compile(r"[，、,；;。\s]+")
_UP = re.compile(r"^(NS|EW)\s*升\s*([1-4])\s*级?$")


def finish_letters(text: str) -> str:
    """A finishing order with Chinese seats (``北 南``, ``北东南``, ``北家、东家``) as seat
    letters (``N S``, ``N E S``); an order in letters as it is."""
    if not any(ch in _SEATS for ch in text):
        return text
    spaced = "".join(f" {_SEATS[ch]} " if ch in _SEATS else ch for ch in text.replace("家", ""))
    return " ".join(p for p in _SEPARATORS.split(spaced) if p)


def result_letters(text: str) -> str:
    """A result with a Chinese side (``南北+2``, ``东西 +1``, ``南北升2级``) as records write
    it (``NS +2``); a result in letters as it is."""
    out = text.strip()
    for words, letters in _SIDES.items():
        out = out.replace(words, f"{letters} ")
    out = out.replace("＋", "+").strip()
    m = _UP.match(out.replace("  ", " "))
    if m:
        return f"{m[1]} +{m[2]}"
    return out if out != text.strip() else text


def room_tag(text: str) -> str:
    """A room as typed (``开室``, ``闭室``, ``open``) as the library's tag (``open``)."""
    return _ROOMS.get(text.strip(), text)
