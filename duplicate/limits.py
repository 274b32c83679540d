"""The bounds of what the store holds, checked in the library before any query, so that
the command line, the API and the desk refuse alike and both databases behave the same.

* Numbers: every integer column is a signed 32-bit ``INTEGER`` on PostgreSQL (SQLite holds
  64 bits): :func:`check_int` refuses a round, table, board or count outside
  :data:`INT_MIN`..:data:`INT_MAX` with a one-line :class:`LimitError` naming it, and
  :func:`guard_engine` makes any query given such a number fail with the same error (never
  SQLite's ``OverflowError`` or PostgreSQL's "integer out of range").
* Names and texts: one length limit per kind (:data:`TEXT_LIMITS`), whatever the column
  would take: :func:`check_text` gives the stored form (NFC, stripped) or refuses;
  :func:`checked_name` is the check of a name where a person types it.
* Event names: the hall service addresses an event by its name as one path segment, so
  ``.`` and ``..`` (which browsers and HTTP clients resolve away before sending) are
  refused; a ``/`` is sent encoded (``%2F``) and reaches the event (``duplicate.web.app``).
* Errors quote at most a short prefix of what they refuse (:func:`shown`), and speak the
  asker's language (catalogue ``duplicate/locale/limits.toml``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from duplicate.errors import DuplicateError
from duplicate.i18n import Phrase, phrase
from duplicate.names import clean_name, control_character, describe_character

if TYPE_CHECKING:
    from sqlalchemy import Engine

__all__ = [
    "INT_MAX",
    "INT_MIN",
    "TEXT_LIMITS",
    "LimitError",
    "TextKind",
    "check_int",
    "check_text",
    "checked_name",
    "guard_engine",
    "shown",
    "tag_number",
]

#: The range of an ``INTEGER`` column on PostgreSQL (SQLite's is wider): what any
#: number given to the store must fit.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

TextKind = Literal["event", "team", "player", "set", "by", "reason", "note", "label"]

#: The longest text of each kind, in characters (after NFC and stripping):
#: names of events, teams, players and board sets; who makes a change (``--by``); why
#: (a reason: a correction's, a ruling's, an unfinished board's); a director's note; and a
#: record's Round, Board, Table or Room label (``room_results`` keeps them).
TEXT_LIMITS: Mapping[TextKind, int] = {
    "event": 200,
    "team": 200,
    "player": 200,
    "set": 200,
    "by": 200,
    "reason": 500,
    "note": 1000,
    "label": 50,
}

#: The most characters of a refused text an error quotes.
SHOWN = 40
#: Names that cannot be one segment of a URL path.
_UNREACHABLE = frozenset({".", ".."})


class LimitError(DuplicateError):
    """A number or text out of the store's bounds (a request's 422 on the API)."""

    kind = "invalid"


def shown(text: str, most: int = SHOWN) -> str:
    """``text`` quoted for an error: ``repr`` (control characters escaped once), cut to
    ``most`` characters with its length said after it."""
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}… ({len(text):,} characters)"


def check_text(text: str, kind: TextKind) -> str:
    """``text`` as stored (Unicode NFC, stripped), refused (:class:`LimitError`) when empty,
    longer than ``TEXT_LIMITS[kind]``, holding a control character, or (an event name)
    ``.`` or ``..``; the error names the kind (``an event name``, ``比赛名称``)."""
    what = phrase(f"limits.what.{kind}")
    if not isinstance(text, str):
        raise LimitError(phrase("limits.err.not_text", what=what))
    most = TEXT_LIMITS[kind]
    if len(text) > 4 * most:  # not even normalised: NFC of a huge text is work for nothing
        raise LimitError(phrase("limits.err.too_long", what=what, most=most,
                                count=f"{len(text):,}", shown=shown(text)))
    value = clean_name(text).strip()
    if not value:
        raise LimitError(phrase("limits.err.empty", what=what))
    if len(value) > most:
        raise LimitError(phrase("limits.err.too_long", what=what, most=most,
                                count=f"{len(value):,}", shown=shown(value)))
    bad = control_character(value)
    if bad is not None:
        raise LimitError(phrase("limits.err.control", what=what, shown=shown(value),
                                char=describe_character(bad)))
    if kind == "event" and value in _UNREACHABLE:
        raise LimitError(phrase("limits.err.unreachable", what=what, name=repr(value)))
    return value


def check_int(value: int, what: str, low: int = 1, high: int = INT_MAX) -> int:
    """``value`` when ``low <= value <= high`` (``high`` at most :data:`INT_MAX`), else a
    :class:`LimitError` naming ``what`` and the range."""
    high = min(high, INT_MAX)
    low = max(low, INT_MIN)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LimitError(phrase("limits.err.whole", what=what, shown=shown(str(value))))
    if not low <= value <= high:
        raise LimitError(phrase("limits.err.range", what=what, low=low, high=high,
                                value=_number(value)))
    return value


def tag_number(value: str | None, tag: str, high: int = INT_MAX) -> int | None:
    """A record's numeric tag (``Round``, ``Board``): ``None`` when absent or blank, the
    number when it is 1 to ``high`` written in ASCII digits, else a :class:`LimitError`
    ("Round tag '-1' is not a number from 1 to 2147483647")."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    high = min(high, INT_MAX)
    if text.isascii() and text.isdigit() and len(text) <= len(str(high)):
        number = int(text)
        if 1 <= number <= high:
            return number
    raise LimitError(phrase("limits.err.tag", tag=tag, shown=shown(text), high=high))


def _number(value: int) -> str | Phrase:
    """``value`` written out, or its count of digits when that is long."""
    if -(10**30) < value < 10**30:
        return str(value)
    return phrase("limits.err.digits", digits=f"{len(str(abs(value))):,}")


# --- the engine's guard ------------------------------------------------------------------


def _bad_int(parameters: Any) -> int | None:
    """The first integer of a statement's parameters out of the 32-bit range, or ``None``."""
    rows: Iterable[Any] = parameters if isinstance(parameters, list) else (parameters,)
    for row in rows:
        values = row.values() if isinstance(row, Mapping) else row
        if not isinstance(values, Iterable) or isinstance(values, str | bytes):
            continue
        for value in values:
            if type(value) is int and not INT_MIN <= value <= INT_MAX:
                return value
    return None


def _before_execute(
    conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool
) -> None:
    bad = _bad_int(parameters)
    if bad is not None:
        raise LimitError(phrase("limits.err.store_range", value=_number(bad), low=INT_MIN,
                                high=INT_MAX))


def guard_engine(engine: Engine) -> Engine:
    """Make ``engine`` refuse, before sending it, any statement given an integer outside
    the 32-bit range (:class:`LimitError`), on either database. Returns ``engine``."""
    from sqlalchemy import event  # lazy: start-up speed (the command line's names need no database)

    if not event.contains(engine, "before_cursor_execute", _before_execute):
        event.listen(engine, "before_cursor_execute", _before_execute)
    return engine


#: What a caller calls a name -> its kind of text (``duplicate.limits.TEXT_LIMITS``).
_KINDS: dict[str, TextKind] = {
    "team": "team", "player": "player", "the event name": "event", "event": "event",
    "set": "set", "the board set name": "set",
}


def checked_name(text: str, what: str = "a name", kind: TextKind | None = None) -> str:
    """``text`` in NFC, stripped, for the names people type (teams, players, events) where
    they enter the program: refused (:class:`~duplicate.limits.LimitError`) when it holds a
    control character or is longer than its kind's limit (``kind``, else the kind ``what``
    names; a player's by default). A blank text is given back for the caller to refuse in
    its own words."""
    if not text.strip():
        return clean_name(text)
    return check_text(text, kind or _KINDS.get(what, "player"))
