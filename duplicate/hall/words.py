"""Phrases the hall stores as codes, said in each page's language.

A reason the desk writes for the director (a late team's ruling: "arrived 5.7 minutes
late") is stored as a catalogue key and its values (:func:`coded`), not as an English
sentence, so that a Chinese page says it in Chinese. :func:`decoded` reads it back: a
coded reason, or one of the English sentences stored before codes were (old rows), as a
key and values; anything else a person typed is said as typed (``None``).

Who did something (``by``, ``reported_by``) is stored as the hall names it: ``director``,
``table 3 open West``; :func:`who_key` gives the key and values to say it.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: What starts a coded phrase in a stored text.
MARK = "@@"

#: English sentences stored before codes were, with the key that says them.
_LEGACY = (
    (re.compile(r"^(?P<team>.+) arrived (?P<minutes>\d+(?:\.\d+)?) minutes late$"),
     "hall.reason.late"),
)
_TABLE = re.compile(r"^table (?P<table>\d+) (?P<room>open|closed) (?P<seat>North|West)$")


def coded(key: str, **values: Any) -> str:
    """A catalogue phrase as stored text (``@@key {"value": ...}``)."""
    return f"{MARK}{key} {json.dumps(values, ensure_ascii=False, sort_keys=True)}"


def decoded(text: str | None) -> tuple[str, dict[str, Any]] | None:
    """The key and values of a stored phrase (coded, or an old English sentence), or
    ``None`` when ``text`` is a person's own words."""
    if not text:
        return None
    if text.startswith(MARK):
        key, _, raw = text[len(MARK):].partition(" ")
        try:
            values = json.loads(raw) if raw else {}
        except ValueError:
            return None
        if key and isinstance(values, dict):
            return key, values
        return None
    for pattern, key in _LEGACY:
        m = pattern.match(text)
        if m:
            return key, m.groupdict()
    return None


def who_key(by: str | None) -> tuple[str, dict[str, Any]] | None:
    """The key and values that say who did something (``director``, a table's seat), or
    ``None`` for any other name (said as stored)."""
    if by == "director":
        return "hall.who.director", {}
    m = _TABLE.match(by or "")
    if m:
        return f"hall.who.{m['seat'].lower()}", {"table": int(m["table"]),
                                                  "room": f"hall.room.{m['room']}"}
    return None
