"""Text that comes from people (names, tags, comments): one form in, safe to print out.

* :func:`clean_name`: names are stored and compared in Unicode NFC, so that "Zhāng Wěi"
  typed with a combining accent (NFD, as some systems do) is the same name as the
  precomposed one.
* :func:`control_character`: the first control character of a text (C0 but tab, DEL, C1).
  A NUL is stored by SQLite but refused by PostgreSQL, and an escape sequence in a name
  would drive the terminal of whoever lists it: the readers refuse them everywhere alike.
* :func:`display_text`: a text with its control characters written as escapes (``\\x1b``),
  for printing what the database already holds; :func:`display_width`: the width of a text
  in terminal columns (East Asian wide and fullwidth characters take two, combining marks
  none), so that tables of Chinese names line up.
"""

from __future__ import annotations

import re
import unicodedata

from duplicate.errors import DuplicateError

__all__ = [
    "NameTextError",
    "clean_name",
    "control_character",
    "describe_character",
    "display_text",
    "display_width",
]

#: C0 controls but tab, DEL, and the C1 controls (U+0080..U+009F, e.g. CSI U+009B).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def clean_name(text: str) -> str:
    """``text`` in Unicode NFC (ASCII text is returned as it is, at no cost)."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


class NameTextError(DuplicateError):
    """A name that holds a control character."""


def control_character(text: str) -> str | None:
    """The first control character of ``text`` (see the module), or ``None``."""
    m = _CONTROL_RE.search(text)
    return m.group() if m else None


def describe_character(char: str) -> str:
    """``U+001B (ESC)``-style name of a character for an error message."""
    names = {0: "NUL", 9: "TAB", 10: "LF", 13: "CR", 27: "ESC", 127: "DEL", 0x9B: "CSI"}
    code = ord(char)
    return f"U+{code:04X}" + (f" ({names[code]})" if code in names else "")


def display_text(text: str) -> str:
    """``text`` with each control character written as a Python escape (``\\x1b``)."""
    if _CONTROL_RE.search(text) is None:
        return text
    return _CONTROL_RE.sub(lambda m: repr(m.group())[1:-1], text)


def display_width(text: str) -> int:
    """Terminal columns of ``text``: 2 for East Asian wide or fullwidth, 0 for combining
    marks, 1 otherwise."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width
