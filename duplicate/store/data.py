"""The store's plain data and words: keys, slots, states, changes, who and why, rule
sets as stored."""

from __future__ import annotations

import functools
import getpass
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from duplicate import models
from duplicate.errors import DuplicateError
from duplicate.i18n import normalise_language, phrase, translator
from duplicate.i18n.game import describe_rules, rules_text
from duplicate.shapes import HIDDEN, IsoTime, Shaped
from engine.ruleset import COMPETITION, Ruleset

#: What a change did: a record ``import``\\ed into an empty room, a result ``report``\\ed
#: without a record, a record ``attach``\\ed to the result it agrees with, a board marked
#: ``unfinished``, a ``correction`` of a stored result, a director's ``ruling``.
ACTIONS = models.CHANGE_ACTIONS
#: The word a director's ruling leaves in ``note``.
RULING_NOTE = "director's ruling"


class StoreError(DuplicateError):
    """A change the store refuses: a disagreeing record or report, bad input."""


#: The variants every stored rule set names (those of migration 0004's text).
_STORED_VARIANTS = frozenset(
    {
        "a_fail_limit",
        "bomb_max",
        "double_down_plus4",
        "jiefeng_next",
        "joker_pair_in_full_house",
        "return_lower_at_ten",
        "return_max_rank",
    }
)


@functools.lru_cache(maxsize=256)
def rules_json(rules: Ruleset) -> str:
    """``rules`` as stored in a ``rules`` column: ``Ruleset.to_dict()`` as JSON, keys sorted.

    One rule set has one text, so that the column can be compared and be part of a key. A
    variant added to the engine later (``limit_draw``) is written only when it differs
    from the competition rule, so that the text of every rule set stored before it stays
    what it was (:func:`load_rules` gives a missing variant its default). Worked out once
    per process for each rule set (a ``Ruleset`` never changes).
    """
    base = COMPETITION.to_dict()
    data = {k: v for k, v in rules.to_dict().items() if k in _STORED_VARIANTS or v != base[k]}
    return json.dumps(data, sort_keys=True)


def load_rules(text: str, where: str) -> Ruleset:
    """The rule set of a stored ``rules`` column (``duplicate.records.load_rules`` checks
    input more closely; this reads what the store wrote)."""
    try:
        return Ruleset.from_dict(json.loads(text))
    except (ValueError, TypeError) as exc:
        raise StoreError(f"{where}: stored rules are not a rule set: {exc}") from None


_PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def canonical_finish(text: str | None) -> str | None:
    """A finishing order as the store keeps it (RULES.md §7): the seats' letters, one space
    apart, the first two for a double down (双下: the last two have no order), else the
    first three (the fourth is implied): a table's ``"n,e,s"`` and a record's ``Finish``
    ``"N E S W"`` are both ``"N E S"``. ``None`` stays ``None``; text that is no order of
    seats is kept as it is, stripped (an old row is shown, not judged)."""
    if text is None:
        return None
    seats = text.replace(",", " ").upper().split()
    if len(seats) < 2 or any(s not in _PARTNER for s in seats) or len(set(seats)) != len(seats):
        return text.strip() or None
    keep = 2 if _PARTNER[seats[0]] == seats[1] else 3
    return " ".join(seats[:keep])


def utc(when: datetime) -> datetime:
    """A stored time in UTC with its offset (SQLite gives it back without a time zone)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Author:
    """Who makes a change and why; ``correction`` allows it to replace a result that
    differs (DUPLICATE.md: every correction is kept with who and why)."""

    by: str
    reason: str
    correction: bool = False

    def __post_init__(self) -> None:
        if not self.by.strip() or len(self.by.strip()) > 200:
            raise StoreError(phrase("store.err.by", limit=200))
        if not self.reason.strip():
            raise StoreError(phrase("store.err.reason"))


def default_by() -> str:
    """Who makes a change when the caller does not say: the login name of this process."""
    try:
        return getpass.getuser() or "unknown"
    except (OSError, KeyError):
        return "unknown"


@dataclass(frozen=True, slots=True)
class ResultKey:
    """The key of a room result (see the module): DealId, event, round, table, room, rules."""

    deal_id: str
    event: str = ""
    round: str = ""
    table: str = ""
    room: str = ""
    rules: Ruleset = COMPETITION

    def describe(self) -> str:
        """The key in a few words, for errors."""
        parts = [f"DealId {self.deal_id[:12]}…"]
        parts += [
            f"{name} {value!r}"
            for name, value in zip(
                ("event", "round", "table", "room"),
                (self.event, self.round, self.table, self.room),
                strict=True,
            )
            if value
        ]
        if self.rules != COMPETITION:
            parts.append(f"rules {describe_rules(self.rules)}")
        return ", ".join(parts)

    def words(self) -> KeyWords:
        """The key in a few words, in the language of the phrase it is a value of (English:
        :meth:`describe`)."""
        return KeyWords(self)


class KeyWords:
    """A :class:`ResultKey` as a phrase's value: :meth:`ResultKey.describe` in English, the
    catalogue's words (``out.key.*``: 比赛、第2轮、1号桌、开室) in another language."""

    __slots__ = ("key",)

    def __init__(self, key: ResultKey) -> None:
        self.key = key

    def text(self, lang: str | None = "en") -> str:
        code = normalise_language(lang)
        if code == "en":
            return self.key.describe()
        t = translator(code)
        k = self.key
        parts = [t("out.key.deal", deal=k.deal_id[:12])]
        if k.event:
            parts.append(t("out.key.event", event=repr(k.event)))
        if k.round:
            parts.append(t("out.key.round", round=k.round))
        if k.table:
            parts.append(t("out.key.table", table=k.table))
        if k.room:
            room = k.room.lower()
            parts.append(t(f"out.key.room.{room}") if room in ("open", "closed")
                         else t("out.key.room", room=repr(k.room)))
        if k.rules != COMPETITION:
            parts.append(t("out.key.rules", rules=rules_text(k.rules, code)))
        return str(t("out.list.comma").join(parts))

    def __str__(self) -> str:
        return self.text("en")


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a result goes: its key, and the board (number, stored row) and match it is of."""

    key: ResultKey
    board: str = ""
    board_id: int | None = None
    match_id: int | None = None


@dataclass(frozen=True, slots=True)
class State:
    """A room's result: ``played`` with its N–S result, or ``unfinished`` (``note``: why);
    ``note`` also marks a ruling; ``record_id``/``record_hash`` the record it rests on."""

    status: str
    ns_result: int | None = None
    note: str | None = None
    record_id: int | None = None
    record_hash: str | None = None
    #: the finishing order the result was counted from (:func:`canonical_finish`): the
    #: table's, the record's, or the one a director gave; ``None`` when the result was set
    #: without one (a ruling of an N–S result) or the board is unfinished. Not compared:
    #: two states with the same result are the same result.
    finish: str | None = field(default=None, compare=False)
    #: the number of the change that left this state in its room's log (0: none), so
    #: that the next change is written as its successor (not compared)
    seq: int = field(default=0, compare=False)

    def same_result(self, other: State) -> bool:
        """Whether both say the same about the room (status and N–S result)."""
        return (self.status, self.ns_result) == (other.status, other.ns_result)

    def describe(self) -> str:
        """The result in a few words: ``NS +2 (record 0123456789ab)``, ``unfinished (time)``."""
        if self.status == "unfinished":
            return f"unfinished ({self.note or 'no reason given'})"
        assert self.ns_result is not None
        text = f"{'NS' if self.ns_result > 0 else 'EW'} +{abs(self.ns_result)}"
        if self.note:
            return f"{text} ({self.note}{', finish ' + self.finish if self.finish else ''})"
        if self.record_hash:
            return f"{text} (record {self.record_hash[:12]})"
        return f"{text} (reported{', finish ' + self.finish if self.finish else ''})"


@dataclass(frozen=True, slots=True)
class Change(Shaped):
    """One row of the log, as read back."""

    id: int
    result_id: int = field(metadata=HIDDEN)
    action: str
    by: str
    at: IsoTime
    reason: str
    old: State | None = field(metadata=HIDDEN)
    new: State = field(metadata=HIDDEN)

    JSON_COMPUTED = ("before", "after", "finish_before", "finish_after")

    @property
    def before(self) -> str:
        """The result before, in words (``no result``: none)."""
        return self.old.describe() if self.old else "no result"

    @property
    def after(self) -> str:
        """The result after, in words."""
        return self.new.describe()

    @property
    def finish_before(self) -> str | None:
        """The finishing order before (``None``: none)."""
        return self.old.finish if self.old else None

    @property
    def finish_after(self) -> str | None:
        """The finishing order after."""
        return self.new.finish


@dataclass(frozen=True, slots=True)
class CurrentResult:
    """A room's current result (its latest change), with its key and current record."""

    result_id: int
    key: ResultKey
    board: str
    match_id: int | None
    state: State
    record_text: str | None
