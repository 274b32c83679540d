"""The ``.gdn`` deal record format (Guandan Deal Notation): data classes, reader, writer, JSON.

The grammar is in ``docs/FORMAT.md`` (its core in the shared ``FORMAT.md``). The API is the
json module's: :func:`load`/:func:`loads` read, :func:`dump`/:func:`dumps` write, and
:func:`to_json`/:func:`from_json` convert one deal to and from its JSON object.

**Strict on write, lenient on read.** The writer gives every tag in one fixed order, hands
and plays in one card order and every play with its type and rank, so that load then dump
is byte-identical on a canonical file. The reader accepts a byte-order mark, CRLF, ``;`` and
``{…}`` comments, tags in any order, extra blank lines, plays without type and rank and
unknown tags (kept and written back). Errors carry file, line, seat and reason; a strict
reader raises the first, a lenient one records it in :attr:`DealRecord.errors` and goes on
with the next deal. Checking that the plays are legal is :mod:`duplicate.replay`'s job.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from duplicate.errors import DuplicateError
from duplicate.i18n import (
    Phrase,
    Term,
    engine_phrase,
    gettext,
    normalise_language,
    os_reason,
    phrase,
)
from duplicate.names import clean_name, control_character, describe_character
from engine.cards import (
    FULL_PACK,
    GUARD_BITS,
    KIND_BIT,
    LOW_BITS,
    RANK_NAMES,
    TOKEN_KINDS,
    Cards,
    parse_cards,
    parse_level,
    rank_name,
    size,
    to_tokens,
)
from engine.combo import ComboType
from engine.errors import GuandanError
from engine.seat import Seat, Side

__all__ = [
    "HEADER_TAGS",
    "DealRecord",
    "NotUtf8",
    "GdnError",
    "Play",
    "dump",
    "dumps",
    "dumps_json",
    "format_record",
    "decode",
    "from_json",
    "iter_file",
    "iter_records",
    "load",
    "loads",
    "loads_json",
    "not_utf8",
    "split_deals",
    "count_deals",
    "iter_pieces",
    "to_json",
]

#: Tags written before ``[Play]``, in this order (docs/FORMAT.md "Tags"); unknown tags follow.
HEADER_TAGS: tuple[str, ...] = (
    "Event",
    "Date",
    "Round",
    "Table",
    "Board",
    "Room",
    "North",
    "East",
    "South",
    "West",
    "Level",
    "Leader",
    "Generator",
    "DealId",
    "Deal",
)
#: Tags written after the play list, in this order.
TRAILER_TAGS: tuple[str, ...] = ("Finish", "Result")
#: Tags held in typed fields of :class:`DealRecord` rather than in :attr:`DealRecord.tags`.
_TYPED_TAGS = frozenset({"Level", "Leader", "Deal", "Finish", "Result"})
#: Every tag this module knows, by lower-case name (tag names are read case-insensitively).
_KNOWN_BY_LOWER = {t.lower(): t for t in (*HEADER_TAGS, *TRAILER_TAGS, "Play")}
#: The canonical number of cards in each hand of a board (RULES.md §1).
HAND_SIZE = 27
#: The longest line read, in characters: a deal's longest line (its Deal tag) has about
#: 340; a longer line is an error naming the file, the line and this limit.
MAX_LINE = 10_000
#: The longest tag value read, in characters (the Deal tag's value has about 330).
MAX_TAG_VALUE = 1_000
#: The most characters one deal may span (its lines together): reading holds one deal at a
#: time, so this bounds the memory of reading any file.
MAX_DEAL_CHARS = 1_000_000
#: Tag values meaning "unknown" (PGN's and PBN's habit): a Finish or Result with one of these
#: is read as absent.
_UNKNOWN_VALUES = frozenset({"", "?", "*", "-"})


class GdnError(DuplicateError):
    """A record that cannot be read or does not replay, with where and why.

    Attributes:
        reason: what is wrong, in one line (English).
        worded: the reason as raised: a catalogue :class:`~duplicate.i18n.Phrase` (said in
            the reader's language by :meth:`text`; an engine error's by its key), or English
            text.
        file: the file name (``None`` for a string read without a name).
        line: the 1-based line number in that file (``None`` when unknown, e.g. JSON).
        seat: the seat whose play or hand is at fault, if any.
    """

    def __init__(
        self,
        reason: str | Phrase,
        *,
        file: str | None = None,
        line: int | None = None,
        seat: Seat | None = None,
    ) -> None:
        self.reason = str(reason)
        self.worded = reason
        self.file = file
        self.line = line
        self.seat = seat
        super().__init__(self._phrase())

    def _where(self) -> str:
        where = self.file if self.file is not None else "<record>"
        return where if self.line is None else f"{where}:{self.line}"

    def _phrase(self) -> Phrase:
        """The whole message as a phrase: where (file:line as it is), the seat, the reason."""
        if self.seat is None:
            return phrase("gdn.at", where=self._where(), reason=self.worded)
        return phrase("gdn.at_seat", where=self._where(), reason=self.worded,
                      seat=_seat(self.seat))

    def _text(self) -> str:
        seat = f" seat {self.seat.name}:" if self.seat is not None else ""
        return f"{self._where()}:{seat} {self.reason}"

    def __str__(self) -> str:
        return self._text()

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments need help to cross a process boundary (``--jobs``).
        return (_rebuild_error, (type(self), self.__dict__.copy()))


@dataclass(frozen=True)
class ErrorWords:
    """A record error as the value of another phrase: in English its whole ``str()`` (a
    replay's ``[position …]`` included, as it always read), in another language its
    :meth:`GdnError.text`."""

    error: GdnError

    def text(self, lang: str | None = "en") -> str:
        """The error in ``lang``."""
        code = normalise_language(lang)
        return str(self.error) if code == "en" else self.error.text(code)

    def __str__(self) -> str:
        return str(self.error)


def _seat(seat: Seat) -> Term:
    """A seat in an error: its letter in English (``N``), its word in another language (北)."""
    return Term(seat.name, f"seat.{seat.name}")


@dataclass(frozen=True, slots=True)
class _Seats:
    """Seats listed in an error: ``N, E`` in English, 北、东 in Chinese."""

    names: tuple[str, ...]

    def text(self, lang: str | None = "en") -> str:
        if normalise_language(lang) == "en":
            return ", ".join(self.names)
        return "、".join(gettext(normalise_language(lang), f"seat.{n}") for n in self.names)


def _rebuild_error(cls: type[GdnError], state: dict[str, Any]) -> GdnError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    Exception.__init__(err, err._text())
    return err


@dataclass(slots=True)
class Play:
    """One line of the play list: a seat's play or pass, as written.

    ``cards`` is ``0`` for a pass. ``type`` and ``rank`` are the declared reading (FORMAT.md:
    the rank is the triple's for ThreeWithTwo, the lowest for sequences); either may be
    ``None`` when the record left it out, and the replay then reads the play by RULES.md §5.
    """

    seat: Seat
    cards: Cards = 0
    type: ComboType | None = None
    rank: int | None = None
    line: int | None = None
    comments: list[str] = field(default_factory=list)

    @property
    def is_pass(self) -> bool:
        """True for ``<seat> PASS``."""
        return self.cards == 0

    def text(self) -> str:
        """The canonical play text (without comments); raises when type or rank is missing."""
        if self.is_pass:
            return f"{self.seat.name} PASS"
        if self.type is None or self.rank is None:
            raise GdnError(
                phrase("gdn.err.play_untyped"),
                line=self.line,
                seat=self.seat,
            )
        cards = " ".join(to_tokens(self.cards))
        return f"{self.seat.name} {self.type.record_name} {rank_name(self.rank)} {cards}"


@dataclass(slots=True)
class DealRecord:
    """One board or played deal of a ``.gdn`` file.

    Attributes:
        tags: the text tags (Event, Date, Round, Board, Room, player names, Generator, DealId)
            and every unknown tag, in read order; Level, Leader, Deal, Finish and Result are
            the typed fields below.
        hands: the four hands when play began, indexed by ``Seat`` (N, E, S, W).
        level: the deal's level as a rank index 0..12 (``engine.cards``).
        leader: the first leader.
        plays: the play list; ``None`` for a hand record (no ``[Play]`` section).
        finish: the recorded finishing order (2 to 4 seats), ``None`` when absent.
        result: the recorded result: the winning side and its levels gained.
        comments: comments outside the play list, in order.
        file: the file the record came from, if any.
        line: the line of its first tag.
        lines: the line of each tag (and of ``[Play]``) by tag name, for error messages.
        errors: what went wrong reading it (lenient reading only); a record with errors is
            incomplete and must never be stored.
    """

    tags: dict[str, str] = field(default_factory=dict)
    hands: tuple[Cards, Cards, Cards, Cards] = (0, 0, 0, 0)
    level: int = 0
    leader: Seat = Seat.N
    plays: list[Play] | None = None
    finish: tuple[Seat, ...] | None = None
    result: tuple[Side, int] | None = None
    comments: list[str] = field(default_factory=list)
    file: str | None = None
    line: int | None = None
    lines: dict[str, int] = field(default_factory=dict)
    errors: list[GdnError] = field(default_factory=list)

    @property
    def board(self) -> str | None:
        """The ``Board`` tag, if any."""
        return self.tags.get("Board")

    @property
    def room(self) -> str | None:
        """The ``Room`` tag, if any."""
        return self.tags.get("Room")

    @property
    def ok(self) -> bool:
        """True when the record was read without error."""
        return not self.errors

    def error(self, reason: str | Phrase, *, tag: str | None = None, seat: Seat | None = None) -> GdnError:
        """A :class:`GdnError` located at ``tag``'s line (or the record's first line)."""
        line = self.lines.get(tag, self.line) if tag is not None else self.line
        return GdnError(reason, file=self.file, line=line, seat=seat)


# --- reading ----------------------------------------------------------------------

#: A tag name, then (after optional spaces) the rest of the tag's inside; see :func:`_parse_tag`.
_TAG_NAME_PREFIX_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_QUOTED_RE = re.compile(r'"((?:[^"\\]|\\.)*+)"')
_UNESCAPE_RE = re.compile(r"\\(.)")
_TYPES_BY_LOWER = {t.record_name.lower(): t for t in ComboType}
_SEATS = {s.name: s for s in Seat} | {s.name.lower(): s for s in Seat}
_RANKS = {c: i for i, c in enumerate(RANK_NAMES)} | {"10": 8}
_RANKS |= {c.lower(): i for c, i in list(_RANKS.items()) if c.isalpha()}
_TOKEN_BIT = {tok: KIND_BIT[k] for tok, k in TOKEN_KINDS.items()}
_SIDES = {"NS": Side.NS, "N-S": Side.NS, "EW": Side.EW, "E-W": Side.EW}
# possessive quantifiers: no backtracking over long runs of spaces (hostile input)
_RESULT_RE = re.compile(r"\s*+(N-?S|E-?W)\s*+([+-]?)\s*+(\d++)\s*+", re.IGNORECASE)
#: More digits than this in a Result's levels is out of range anyway (and ``int`` refuses
#: strings of more than 4300 digits).
_MAX_LEVEL_DIGITS = 6
_HAND_RE = re.compile(r"([NESWnesw])\s*:")


#: Longest piece of the input quoted in an error message (a hostile line may be megabytes).
_SHOWN_MAX = 40


def _shown(text: str) -> str:
    """``repr`` of a piece of input for an error message, cut short when it is long."""
    if len(text) <= _SHOWN_MAX:
        return repr(text)
    return repr(text[:_SHOWN_MAX]) + f"… ({len(text)} characters)"


def _parse_cards_fast(tokens: list[str]) -> Cards:
    """``Cards`` of card tokens; raises ``InvalidCardError`` naming a bad token."""
    cards = 0
    try:
        for tok in tokens:
            cards += _TOKEN_BIT[tok]
    except KeyError:
        # raises with the engine's message for the bad token; a long token (no card token
        # has more than 3 characters) is cut short so that the message stays one clear line
        return parse_cards(t if len(t) <= _SHOWN_MAX else t[:_SHOWN_MAX] + "…" for t in tokens)
    # a field of 3 (bits 0 and 1) or 4+ (guard bit) means a card present too often
    if (cards & (cards >> 1) & LOW_BITS) or (cards & GUARD_BITS):
        return parse_cards(tokens)  # raises naming the card
    return cards


def _split_comments(text: str, line: int) -> tuple[str, list[str]]:
    """Split a line into its content and its ``;`` / ``{…}`` comments (outside quotes)."""
    if "\r" in text:
        # a lone CR is a line break to Python's text files (universal newlines) but not to
        # bytes read here, and no writer can put it back: refused rather than kept
        raise GdnError(phrase("gdn.err.cr"), line=line)
    bad = control_character(text)
    if bad is not None:
        # a NUL is stored by SQLite and refused by PostgreSQL, an ESC drives terminals:
        # refused on read, in tags, plays and comments alike
        raise GdnError(
            phrase("gdn.err.control", char=describe_character(bad)),
            line=line,
        )
    if ";" not in text and "{" not in text:
        return text, []
    content: list[str] = []
    comments: list[str] = []
    i, n, quoted = 0, len(text), False
    while i < n:
        ch = text[i]
        if quoted:
            if ch == "\\" and i + 1 < n:
                content.append(text[i : i + 2])
                i += 2
                continue
            if ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == ";":
            comments.append(text[i + 1 :].strip())
            break
        elif ch == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise GdnError(
                    phrase("gdn.err.unclosed", brace="'{'", comment="{…}"), line=line
                )
            comments.append(text[i + 1 : end].strip())
            content.append(" ")
            i = end + 1
            continue
        content.append(ch)
        i += 1
    return "".join(content), comments


def _parse_tag(text: str, line: int) -> tuple[str, str] | None:
    """``(name, value)`` of a tag line, the known names in canonical case; None if no tag."""
    # Parsed step by step rather than by one regular expression: a pattern with several
    # optional-space parts backtracks in cubic time on a long line of spaces (fuzzing found
    # a 2,000-character line taking 9 s). The language is the same: '[', a name, then a
    # quoted value, a bare value (no '"' or ']') or nothing, then ']', spaces anywhere.
    text = text.strip()
    if len(text) < 2 or text[0] != "[" or text[-1] != "]":
        return None
    inner = text[1:-1].strip()
    m = _TAG_NAME_PREFIX_RE.match(inner)
    if m is None:
        return None
    name = _KNOWN_BY_LOWER.get(m.group().lower(), m.group())
    rest = inner[m.end() :].lstrip()
    if rest.startswith('"'):
        quoted = _QUOTED_RE.fullmatch(rest)
        if quoted is None:
            return None
        return name, _UNESCAPE_RE.sub(r"\1", quoted.group(1))
    if '"' in rest or "]" in rest:
        return None
    return name, rest  # lenient: an unquoted value (already stripped)


def _parse_hands(value: str) -> tuple[Cards, Cards, Cards, Cards]:
    """The four hands of a ``Deal`` tag: ``N:<cards> E:<cards> S:<cards> W:<cards>``."""
    parts = _HAND_RE.split(value.strip())
    if parts[0].strip():
        raise GdnError(phrase("gdn.err.deal_start", shown=_shown(parts[0].split()[0])))
    hands: list[Cards | None] = [None, None, None, None]
    for i in range(1, len(parts), 2):
        seat = _SEATS[parts[i]]
        if hands[seat] is not None:
            raise GdnError(phrase("gdn.err.hand_twice", seat=_seat(seat)), seat=seat)
        try:
            hands[seat] = _parse_cards_fast(parts[i + 1].split())
        except GuandanError as e:
            raise GdnError(phrase("gdn.err.in_hand", seat=_seat(seat), error=engine_phrase(e)), seat=seat) from None
    missing = [s.name for s in Seat if hands[s] is None]
    if missing:
        raise GdnError(phrase("gdn.err.no_hand", seats=_Seats(tuple(missing))))
    north, east, south, west = (h or 0 for h in hands)
    return (north, east, south, west)


def _parse_finish(value: str) -> tuple[Seat, ...] | None:
    if value.strip() in _UNKNOWN_VALUES:
        return None
    toks = value.replace(",", " ").replace("-", " ").split()
    seats: list[Seat] = []
    for tok in toks:
        seat = _SEATS.get(tok)
        if seat is None:
            raise GdnError(phrase("gdn.err.finish_seat", shown=_shown(tok)))
        if seat in seats:
            raise GdnError(phrase("gdn.err.finish_twice", seat=_seat(seat)))
        seats.append(seat)
    if len(seats) < 2:
        raise GdnError(phrase("gdn.err.finish_short"))
    return tuple(seats)


def _parse_result(value: str) -> tuple[Side, int] | None:
    if value.strip() in _UNKNOWN_VALUES:
        return None
    m = _RESULT_RE.fullmatch(value)
    if m is None:
        raise GdnError(phrase("gdn.err.result_syntax", shown=_shown(value)))
    side = _SIDES[m.group(1).upper()]
    digits = m.group(3)
    # the sign and the digits are taken apart: int() refuses "+\t2" and over 4300 digits
    levels = int(digits) if len(digits) <= _MAX_LEVEL_DIGITS else 10**_MAX_LEVEL_DIGITS
    if m.group(2) == "-":
        levels = -levels
    if levels < 0:  # lenient: "NS -2" is "EW +2"
        side, levels = side.other, -levels
    if not 1 <= levels <= 4:
        raise GdnError(phrase("gdn.err.result_levels", shown=_shown(value)))
    return side, levels


def _parse_play(content: str, line: int) -> Play:
    toks = content.split()
    seat = _SEATS.get(toks[0])
    if seat is None:
        raise GdnError(phrase("gdn.err.play_seat", shown=_shown(toks[0])), line=line)
    if len(toks) > 1 and toks[1].upper() == "PASS":
        if len(toks) > 2:
            raise GdnError(phrase("gdn.err.pass_more", shown=_shown(toks[2])), line=line, seat=seat)
        return Play(seat, 0, line=line)
    i = 1
    ctype = _TYPES_BY_LOWER.get(toks[1].lower()) if len(toks) > 1 else None
    if ctype is not None:
        i = 2
    rank = _RANKS.get(toks[i]) if len(toks) > i else None
    if rank is not None:
        if ctype is None:
            raise GdnError(
                phrase("gdn.err.rank_alone", shown=_shown(toks[i])), line=line, seat=seat
            )
        i += 1
    elif ctype is not None:
        raise GdnError(
            phrase("gdn.err.type_alone", type=ctype.record_name),
            line=line,
            seat=seat,
        )
    if len(toks) == i:
        raise GdnError(phrase("gdn.err.no_cards"), line=line, seat=seat)
    try:
        cards = _parse_cards_fast(toks[i:])
    except GuandanError as e:
        if ctype is None and len(toks) > 1 and toks[1][:1].isalpha() and len(toks[1]) > 3:
            raise GdnError(
                phrase("gdn.err.unknown_type", shown=_shown(toks[1])), line=line, seat=seat
            ) from None
        raise GdnError(engine_phrase(e), line=line, seat=seat) from None
    return Play(seat, cards, ctype, rank, line)


class _Reader:
    """Line-by-line state machine that turns ``.gdn`` text into :class:`DealRecord` s."""

    def __init__(
        self,
        text: str | Iterable[str],
        file: str | None,
        strict: bool,
        first_line: int = 1,
        scan: bool = False,
    ) -> None:
        if isinstance(text, str):
            if text.startswith("\ufeff"):
                text = text[1:]
            self.lines: Iterable[str] = text.split("\n")
        else:
            self.lines = text  # one line at a time, without its "\n" (iter_file)
        self.file = file
        self.strict = strict
        self.first_line = first_line
        # scan only: find where deals begin (same rules as reading), parse nothing else
        self.scan = scan
        # line number -> why it cannot be read (iter_file: bytes that are not UTF-8)
        self.bad_lines: dict[int, str | Phrase] = {}

    def records(self) -> Iterator[DealRecord]:
        rec: DealRecord | None = None
        seen: set[str] = set()
        in_play = False
        skipping = False  # after an error (lenient): ignore the rest of this deal
        blank_before = False
        last_play: Play | None = None
        size = 0  # characters of the current deal so far
        substance = False  # the current deal has a line that is not a comment

        for number, raw in enumerate(self.lines, start=self.first_line):
            if len(raw) > MAX_LINE:
                # like any line that cannot be split: an error of the deal, never a tag, so
                # that the deal boundaries stay those of split_deals
                if rec is None:
                    rec = DealRecord(file=self.file, line=number)
                if not skipping:
                    self._fail(rec, GdnError(_TOO_LONG, file=self.file, line=number))
                skipping = substance = True
                blank_before = False
                continue
            bad = self.bad_lines.pop(number, None) if self.bad_lines else None
            text = raw.rstrip("\r \t")
            if not text.strip():
                blank_before = True
                continue
            if self.scan and "{" not in text and text.lstrip()[0] != "[":
                # a play or comment line cannot begin a deal: only its effect on state counts
                blank_before = False
                substance = substance or not text.lstrip().startswith(";")
                if rec is None:
                    rec = DealRecord(file=self.file, line=number)
                continue
            try:
                content, comments = _split_comments(text, number)
            except GdnError as e:
                if rec is None:
                    rec = DealRecord(file=self.file, line=number)
                if not skipping:  # only a deal's first error counts (lenient reading)
                    self._fail(rec, GdnError(e.worded, file=self.file, line=number))
                skipping = substance = True
                blank_before = False  # as for any other line that is not blank (split_deals)
                continue
            content = content.strip()
            tag = _parse_tag(content, number) if content.startswith("[") else None

            if (
                tag is not None
                and rec is not None
                and self._starts_new(tag[0], rec, seen, in_play, blank_before)
            ):
                yield self._finish(rec, skipping)
                rec, seen, in_play, skipping, last_play = None, set(), False, False, None
                size, substance = 0, False
            blank_before = False
            size += len(raw) + 1
            substance = substance or bool(content)
            if rec is None:
                if not content and comments:
                    # comments before the first tag belong to the next deal
                    rec = DealRecord(file=self.file, line=number)
                    rec.comments.extend(comments)
                    if bad is not None and not self.scan:
                        self._fail(rec, GdnError(bad, file=self.file, line=number))
                        skipping = substance = True
                    continue
                rec = DealRecord(file=self.file, line=number)
            second_play = False
            if tag is not None:
                # deal boundaries depend on tags only, never on errors (see split_deals)
                seen.add(tag[0])
                if tag[0] == "Play":
                    second_play, in_play = in_play, True
            if skipping or self.scan:
                continue
            try:
                if bad is not None:
                    raise GdnError(bad, line=number)
                if size > MAX_DEAL_CHARS:
                    raise GdnError(
                        phrase("gdn.err.deal_long", most=f"{MAX_DEAL_CHARS:,}"), line=number
                    )
                if tag is not None:
                    if tag[0] in TRAILER_TAGS and tag[0] in rec.lines:
                        raise GdnError(
                            phrase("gdn.err.second_trailer", name=tag[0],
                                   first=rec.lines[tag[0]]),
                            line=number,
                        )
                    if tag[0] == "Play":
                        if second_play:
                            raise GdnError(phrase("gdn.err.second_play"), line=number)
                        if tag[1]:
                            raise GdnError(
                                phrase("gdn.err.play_value", shown=_shown(tag[1])), line=number
                            )
                        rec.plays = []
                        rec.lines["Play"] = number
                    else:
                        self._set_tag(rec, tag[0], tag[1], number)
                    self._comment(rec, last_play, comments)
                elif not content:
                    self._comment(rec, last_play, comments)
                elif content.startswith("["):
                    raise GdnError(phrase("gdn.err.bad_tag", shown=_shown(content)), line=number)
                elif not in_play:
                    raise GdnError(
                        phrase("gdn.err.before_play", shown=_shown(content.split()[0])),
                        line=number,
                    )
                else:
                    ended = [rec.lines[t] for t in TRAILER_TAGS if t in rec.lines]
                    if ended:  # the tag out of place is named: a play may well be in place
                        first = min(ended)
                        name = next(t for t in TRAILER_TAGS if rec.lines.get(t) == first)
                        raise GdnError(phrase("gdn.err.after_trailer", name=name, first=first),
                                       line=number)
                    last_play = _parse_play(content, number)
                    last_play.comments.extend(comments)
                    assert rec.plays is not None
                    rec.plays.append(last_play)
            except GdnError as e:
                if e.file is None:
                    e = GdnError(e.worded, file=self.file, line=e.line or number, seat=e.seat)
                self._fail(rec, e)
                skipping = True
        if rec is not None and substance:
            # comment lines with no tag after them are no deal (a file of comments only)
            yield self._finish(rec, skipping)

    @staticmethod
    def _starts_new(
        name: str, rec: DealRecord, seen: set[str], in_play: bool, blank_before: bool
    ) -> bool:
        """Whether tag ``name`` begins the next deal (docs/FORMAT.md "Several deals")."""
        if not seen or name == "Play":
            return False  # only comments so far; a second [Play] is an error of this deal
        if name in TRAILER_TAGS:
            # never a deal's start, even a second one (an error of this deal): a Finish or
            # Result out of place must not make the deal's own one begin a phantom deal
            # that swallows the next deal's header and so on to the end of the file
            return False
        if name in seen:
            return True
        if in_play:
            return name in _KNOWN_BY_LOWER.values() or blank_before
        # a deal that has its board, or that has ended (a Finish or Result: the rest of a
        # deal cut in two by a header tag out of place), ends at a blank line
        return blank_before and ("Deal" in seen or not seen.isdisjoint(TRAILER_TAGS))

    @staticmethod
    def _comment(rec: DealRecord, last_play: Play | None, comments: list[str]) -> None:
        if not comments:
            return
        if last_play is not None and rec.plays:
            last_play.comments.extend(comments)
        else:
            rec.comments.extend(comments)

    def _set_tag(self, rec: DealRecord, name: str, value: str, number: int) -> None:
        rec.lines[name] = number
        if len(value) > MAX_TAG_VALUE:
            raise GdnError(
                phrase("gdn.err.tag_long", name=name, count=f"{len(value):,}",
                       most=f"{MAX_TAG_VALUE:,}"),
                file=self.file,
                line=number,
            )
        try:
            if name == "Level":
                rec.level = parse_level(_cut(value))
            elif name == "Leader":
                rec.leader = Seat.parse(_cut(value))
            elif name == "Deal":
                rec.hands = _parse_hands(value)
            elif name == "Finish":
                rec.finish = _parse_finish(value)
            elif name == "Result":
                rec.result = _parse_result(value)
            else:
                rec.tags[name] = clean_name(value)  # names compare equal in any Unicode form
        except GdnError as e:
            raise GdnError(e.worded, file=self.file, line=number, seat=e.seat) from None
        except GuandanError as e:
            raise GdnError(phrase("gdn.err.tag_error", name=name, error=engine_phrase(e)), file=self.file, line=number) from None

    def _fail(self, rec: DealRecord, err: GdnError) -> None:
        if self.strict:
            raise err
        rec.errors.append(err)

    def _finish(self, rec: DealRecord, skipping: bool) -> DealRecord:
        """Check what one deal needs as a whole: the three board tags and 4 × 27 cards."""
        if skipping or self.scan:
            return rec
        for name in ("Level", "Leader", "Deal"):
            if name not in rec.lines:
                self._fail(rec, rec.error(phrase("gdn.err.no_tag", name=name)))
                return rec
        for seat in Seat:
            n = size(rec.hands[seat])
            if n != HAND_SIZE:
                self._fail(
                    rec,
                    rec.error(
                        phrase("gdn.err.hand_size", seat=_seat(seat), count=n, size=HAND_SIZE),
                        tag="Deal",
                        seat=seat,
                    ),
                )
                return rec
        if sum(rec.hands) != FULL_PACK:
            self._fail(
                rec, rec.error(phrase("gdn.err.not_packs"), tag="Deal")
            )
        return rec


_TOO_LONG = Phrase("gdn.err.line_long", {"most": f"{MAX_LINE:,}"})

#: the UTF-8 codec's reasons -> their catalogue keys (any other: ``gdn.utf8.other``)
_UTF8_REASONS = {
    "invalid start byte": "gdn.utf8.start",
    "invalid continuation byte": "gdn.utf8.continuation",
    "unexpected end of data": "gdn.utf8.end",
}


@dataclass(frozen=True, slots=True)
class NotUtf8:
    """Why bytes are not UTF-8, a value of a phrase: in English as the codec says it
    (``invalid start byte``), in another language the catalogue's words naming the byte
    (``0xFF不能作为字符的开头``), never the codec's English."""

    english: str
    value: int

    def text(self, lang: str | None = "en") -> str:
        """The reason in ``lang``."""
        code = normalise_language(lang)
        if code == "en":
            return self.english
        key = _UTF8_REASONS.get(self.english, "gdn.utf8.other")
        return gettext(code, key, value=f"0x{self.value:02X}")

    def __str__(self) -> str:
        return self.english


def utf8_reason(exc: UnicodeDecodeError) -> NotUtf8:
    """Why the bytes of ``exc`` are not UTF-8, said in the reader's language."""
    value = exc.object[exc.start] if exc.start < len(exc.object) else 0
    return NotUtf8(exc.reason, value)


def not_utf8(exc: UnicodeDecodeError, offset: int = 0) -> Phrase:
    """``not UTF-8 text: <reason> at byte <n>`` for ``exc``, the byte counted from
    ``offset`` (where the bytes decoded begin in the file)."""
    return phrase("gdn.err.not_utf8", reason=utf8_reason(exc), byte=offset + exc.start)


def decode(data: str | bytes, file: str | None = None) -> str:
    """``.gdn`` text from bytes (UTF-8) or str, the byte-order mark(s) at its start skipped."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            # utf-8-sig counts from after a byte-order mark: the offset is the file's
            raise GdnError(not_utf8(e, len(data) - len(e.object)), file=file) from None
    # every byte-order mark at the start, not just one: split_deals hands on text whose BOM
    # is gone, and a piece must read as the whole (two BOMs read as one, or as a line error,
    # depending on how often the text was decoded)
    return data.lstrip("\ufeff")


def iter_records(
    text: str | bytes, *, file: str | None = None, strict: bool = True, first_line: int = 1
) -> Iterator[DealRecord]:
    """Read the deals of ``.gdn`` text one at a time (for big files and progress bars).

    Strict (default): the first error raises :class:`GdnError`. Lenient: each deal's first
    error goes to its :attr:`DealRecord.errors` and reading goes on with the next deal.
    ``first_line`` is the line number of the text's first line (for a piece of a file).
    """
    return _Reader(decode(text, file), file, strict, first_line).records()


def split_deals(text: str | bytes, *, file: str | None = None) -> list[tuple[int, str]]:
    """Cut ``.gdn`` text into its deals without parsing them: ``(first line, text)`` pairs.

    The cuts are where :func:`iter_records` begins each deal (the same rules, run on tags
    alone), so reading each piece with its ``first_line`` gives the same records and errors
    as reading the whole; this is how big inputs are spread over processes.
    """
    lines = decode(text, file).split("\n")
    reader = _Reader(lines, file, False, scan=True)
    starts = [r.line or 1 for r in reader.records()]
    ends = [*starts[1:], len(lines) + 1] if starts else []  # an empty text has no deals
    return [(a, "\n".join(lines[a - 1 : b - 1])) for a, b in zip(starts, ends, strict=True)]


#: Bytes of one line beyond which :func:`iter_file` stops holding it: a line of
#: :data:`MAX_LINE` characters has at most four bytes a character.
_LINE_BYTES = 4 * MAX_LINE + 1


def _file_text_lines(fp: IO[bytes], name: str, offset: int = 0) -> Iterator[str]:
    """The lines of an open ``.gdn`` file as :func:`decode` reads them whole (LF removed,
    byte-order marks at the start skipped), one at a time, from byte ``offset`` (the start
    of a line) on: a line longer than any line may be is handed on as one the reader
    refuses as too long, without holding it; bytes that are not UTF-8 raise
    :class:`GdnError` as :func:`decode` does for the whole."""
    if offset:
        fp.seek(offset)
    first = offset == 0
    while True:
        raw = fp.readline(_LINE_BYTES + 1)
        if not raw:
            return
        if not raw.endswith(b"\n") and len(raw) > _LINE_BYTES:
            while raw and not raw.endswith(b"\n"):  # skip to its end
                offset += len(raw)
                raw = fp.readline(_LINE_BYTES + 1)
            offset += len(raw)
            yield "\ufffd" * (MAX_LINE + 1)
            continue
        body = raw[:-1] if raw.endswith(b"\n") else raw
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as e:
            raise GdnError(not_utf8(e, offset), file=name) from None
        if first:
            text, first = text.lstrip("\ufeff"), False
        offset += len(raw)
        yield text


def _open_lines(path: str | os.PathLike[str], file: str | None) -> tuple[IO[bytes], str]:
    """The file at ``path`` open for :func:`_file_text_lines`, and its name for errors;
    :class:`OSError` when it cannot be opened."""
    return open(path, "rb"), (file if file is not None else os.fspath(path))


def count_deals(path: str | os.PathLike[str], *, file: str | None = None) -> int:
    """How many deals the ``.gdn`` file at ``path`` holds (where :func:`iter_records`
    begins each), read in bounded memory. :class:`OSError` when it cannot be opened,
    :class:`GdnError` when it is not UTF-8 text."""
    fp, name = _open_lines(path, file)
    with fp:
        return sum(1 for _ in _Reader(_file_text_lines(fp, name), name, False, scan=True).records())


def iter_pieces(
    path: str | os.PathLike[str], deals: int, *, file: str | None = None, line: int = 1,
    offset: int = 0,
) -> Iterator[tuple[int, str]]:
    """:func:`split_deals` of the ``.gdn`` file at ``path`` in bounded memory: pieces of
    ``deals`` whole deals (the last may hold fewer) as ``(first line, text)``, read one at
    a time; each reads with its ``first_line`` as that part of the whole does. Errors as
    :func:`count_deals`. ``line`` and ``offset`` start the reading at that line, at that
    byte of the file: where a deal begins (after a blank line that ends the one before)."""
    fp, name = _open_lines(path, file)
    buf: list[str] = []  # the lines read and not yet handed on, the first numbered base
    base = line

    def tee() -> Iterator[str]:
        for text in _file_text_lines(fp, name, offset):
            buf.append(text)
            yield text

    with fp:
        start: int | None = None  # the first line of the piece being gathered
        count = 0  # its deals so far
        for rec in _Reader(tee(), name, False, line, scan=True).records():
            at = rec.line or 1
            if start is None:
                start = at
            elif count == deals:
                yield start, "\n".join(buf[start - base : at - base])
                start, count = at, 0
            del buf[: start - base]  # the lines before the piece: handed on, or no deal's
            base = start
            count += 1
        if start is not None:
            yield start, "\n".join(buf[start - base :])


def iter_file(
    path: str | os.PathLike[str],
    *,
    file: str | None = None,
    strict: bool = True,
    progress: Callable[[int], object] | None = None,
) -> Iterator[DealRecord]:
    """Read the deals of the ``.gdn`` file at ``path`` one at a time, in bounded memory.

    The same records, line numbers and errors as :func:`iter_records` on the whole file,
    but only one deal (and one line of at most :data:`MAX_LINE` characters) is held at a
    time, so that a file of any size can be imported. ``file`` names the file in errors
    (default: ``path``). ``progress(n)`` is called with the bytes read since its last call,
    once before each deal is yielded and once at the end (the calls add up to the file's
    size). A file that cannot be opened raises :class:`GdnError`; a line that is not UTF-8
    is an error of the deal that holds it (raised when strict), as a line that is too long.
    """
    name = file if file is not None else os.fspath(path)
    try:
        fp = open(path, "rb")  # closed by the generator below
    except OSError as exc:
        raise GdnError(phrase("gdn.err.unreadable", reason=os_reason(exc)), file=name) from None
    return _iter_open_file(fp, name, strict, progress)


#: Bytes read from the file at a time by :func:`iter_file`.
_BLOCK = 1 << 20


def _iter_open_file(
    fp: IO[bytes], name: str, strict: bool, progress: Callable[[int], object] | None
) -> Iterator[DealRecord]:
    # characters of the lines handed to the reader, and what of it was reported: progress
    # goes by characters as deals are read (no more than their bytes), topped up to the
    # file's bytes at the end
    done = [0, 0]
    read = [0]  # bytes read from the file

    def block() -> bytes:
        data = fp.read(_BLOCK)
        read[0] += len(data)
        return data

    def decoded(data: bytes, first: int, base: int) -> list[str]:
        """The lines of ``data`` (whole lines, LF removed), the first numbered ``first`` at
        byte ``base`` of the file; a line that is not UTF-8 is read with U+FFFD and noted
        as an error of its deal (the line still tells where deals begin)."""
        try:
            return data.decode("utf-8").split("\n")
        except UnicodeDecodeError:
            pass
        out = []
        for number, raw in enumerate(data.split(b"\n"), start=first):
            try:
                out.append(raw.decode("utf-8"))
            except UnicodeDecodeError as e:
                reader.bad_lines[number] = not_utf8(e, base)
                out.append(raw.decode("utf-8", "replace"))
            base += len(raw) + 1
        return out

    def lines() -> Iterator[str]:
        number = 0  # lines handed on
        carry = b""  # the start of a line whose end is not read yet
        base = 0  # byte offset of carry in the file
        while True:
            more = block()
            data = carry + more if carry else more
            if not data:
                return
            cut = data.rfind(b"\n") + 1 if more else len(data) + 1
            if cut == 0:  # no line end in sight
                if len(data) <= _LINE_BYTES:
                    carry = data
                    continue
                # longer than any line may be: skip to its end and hand on a line that the
                # reader refuses as too long (the same error as for text read whole)
                while more and b"\n" not in more:
                    more = block()
                carry = more[more.find(b"\n") + 1 :] if more else b""
                base = read[0] - len(carry)
                number += 1
                done[0] += MAX_LINE + 2
                yield "\ufffd" * (MAX_LINE + 1)
                continue
            pieces = decoded(data[: cut - 1], number + 1, base)
            carry = data[cut:]
            base = read[0] - len(carry)
            if number == 0 and pieces:
                pieces[0] = pieces[0].lstrip("\ufeff")
            for piece in pieces:
                number += 1
                done[0] += len(piece) + 1
                yield piece
            if not more:
                return

    def report(final: bool = False) -> None:
        total = read[0] if final else min(done[0], read[0])
        if progress is not None and total > done[1]:
            progress(total - done[1])
            done[1] = total

    reader = _Reader(lines(), name, strict)
    with fp:
        for rec in reader.records():
            report()
            yield rec
        report(final=True)


def loads(
    text: str | bytes, *, file: str | None = None, strict: bool = True, first_line: int = 1
) -> list[DealRecord]:
    """Every deal of ``.gdn`` text (see :func:`iter_records` for the arguments)."""
    return list(iter_records(text, file=file, strict=strict, first_line=first_line))


def load(
    fp: IO[str] | IO[bytes], *, file: str | None = None, strict: bool = True
) -> list[DealRecord]:
    """Every deal of an open ``.gdn`` file; errors name ``file`` (default: ``fp.name``)."""
    name = file if file is not None else getattr(fp, "name", None)
    return loads(fp.read(), file=str(name) if name is not None else None, strict=strict)


# --- writing ----------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _tag(name: str, value: str) -> str:
    # NFC, as the reader gives it: what is written reads back byte for byte
    return f'[{name} "{_escape(clean_name(value))}"]'


def _play_line(play: Play) -> list[str]:
    """The canonical line of a play, with its ``{…}`` comments (``;`` lines when they hold '}')."""
    head = play.text()
    lines: list[str] = []
    for i, c in enumerate(play.comments):
        if "}" in c:
            lines.extend(f"; {x}".rstrip() for x in play.comments[i:])
            break
        head += f" {{{c}}}"
    return [head, *lines]


def format_hands(hands: tuple[Cards, ...]) -> str:
    """The ``Deal`` tag value: each seat's hand in natural order (``engine.cards.to_tokens``)."""
    return " ".join(f"{s.name}:{' '.join(to_tokens(hands[s]))}" for s in Seat)


def format_result(result: tuple[Side, int]) -> str:
    """``NS +2``."""
    return f"{result[0].name} +{result[1]}"


_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _check_writable(rec: DealRecord) -> None:
    """Refuse what the canonical text cannot hold (strict on write): bad tag names, tags
    that are typed fields, line breaks in values and comments, plays without type and rank."""

    def fail(reason: Phrase, line: int | None = None, seat: Seat | None = None) -> GdnError:
        return GdnError(phrase("rest.gdn.write", reason=reason), file=rec.file, line=line,
                        seat=seat)

    for name, value in rec.tags.items():
        if not _TAG_NAME_RE.fullmatch(name):
            raise fail(phrase("rest.gdn.tag_name", name=repr(name)))
        if _KNOWN_BY_LOWER.get(name.lower()) in _TYPED_TAGS or name.lower() == "play":
            raise fail(phrase("rest.gdn.tag_field", name=name))
        if "\n" in value or "\r" in value:
            raise fail(phrase("rest.gdn.tag_break", name=name))
        bad = control_character(value)
        if bad is not None:  # the reader would refuse it
            raise fail(phrase("rest.gdn.tag_control", name=name, char=describe_character(bad)))
    texts: list[tuple[str, int | None, Seat | None]] = [(c, None, None) for c in rec.comments]
    for play in rec.plays or ():
        if not play.is_pass and (play.type is None or play.rank is None):
            raise fail(phrase("rest.gdn.untyped"), play.line, play.seat)
        texts.extend((c, play.line, play.seat) for c in play.comments)
    for text, line, seat in texts:
        if "\n" in text or "\r" in text:
            raise fail(phrase("rest.gdn.comment_break", text=repr(text)), line, seat)
        bad = control_character(text)
        if bad is not None:
            raise fail(phrase("rest.gdn.comment_control", char=describe_character(bad)), line,
                       seat)


def format_record(rec: DealRecord) -> str:
    """The canonical text of one deal, without a trailing newline."""
    if rec.errors:
        raise rec.errors[0]
    _check_writable(rec)
    out: list[str] = []
    for name in HEADER_TAGS:
        if name == "Level":
            out.append(_tag(name, rank_name(rec.level)))
        elif name == "Leader":
            out.append(_tag(name, rec.leader.name))
        elif name == "Deal":
            out.append(_tag(name, format_hands(rec.hands)))
        elif name in rec.tags:
            out.append(_tag(name, rec.tags[name]))
    out.extend(_tag(k, v) for k, v in rec.tags.items() if k not in _KNOWN_BY_LOWER.values())
    # deal comments go after the header tags, where no reader can take them for the previous
    # deal's (docs/FORMAT.md "Lines")
    out.extend(f"; {c}".rstrip() for c in rec.comments)
    if rec.plays is not None:
        out.append("[Play]")
        for play in rec.plays:
            out.extend(_play_line(play))
    if rec.finish is not None:
        out.append(_tag("Finish", " ".join(s.name for s in rec.finish)))
    if rec.result is not None:
        out.append(_tag("Result", format_result(rec.result)))
    return "\n".join(out)


def dumps(records: DealRecord | Iterable[DealRecord]) -> str:
    """Canonical ``.gdn`` text of one deal or several (one blank line between deals).

    Raises :class:`GdnError` for a record read with errors or a play without type and rank
    (replay the record first: :func:`duplicate.replay.replay` fills them in).
    """
    recs = [records] if isinstance(records, DealRecord) else list(records)
    return "".join(
        format_record(r) + "\n" + ("\n" if i < len(recs) - 1 else "") for i, r in enumerate(recs)
    )


def dump(records: DealRecord | Iterable[DealRecord], fp: IO[str]) -> None:
    """Write :func:`dumps` of ``records`` to the open text file ``fp``."""
    fp.write(dumps(records))


# --- the JSON form ----------------------------------------------------------------


def to_json(rec: DealRecord) -> dict[str, Any]:
    """The JSON object of one deal, with exactly the content of its canonical ``.gdn`` text."""
    if rec.errors:
        raise rec.errors[0]
    _check_writable(rec)
    obj: dict[str, Any] = {
        "tags": {k: clean_name(rec.tags[k]) for k in HEADER_TAGS if k in rec.tags}
        | {k: clean_name(v) for k, v in rec.tags.items() if k not in _KNOWN_BY_LOWER.values()},
        "level": rank_name(rec.level),
        "leader": rec.leader.name,
        "hands": {s.name: to_tokens(rec.hands[s]) for s in Seat},
        "plays": None,
        "finish": [s.name for s in rec.finish] if rec.finish is not None else None,
        "result": (
            {"side": rec.result[0].name, "levels": rec.result[1]}
            if rec.result is not None
            else None
        ),
        "comments": list(rec.comments),
    }
    if rec.plays is not None:
        plays: list[dict[str, Any]] = []
        for p in rec.plays:
            if p.is_pass:
                item: dict[str, Any] = {"seat": p.seat.name, "pass": True}
            else:
                text = p.text().split()  # raises without type and rank
                item = {"seat": p.seat.name, "type": text[1], "rank": text[2], "cards": text[3:]}
            if p.comments:
                item["comments"] = list(p.comments)
            plays.append(item)
        obj["plays"] = plays
    return obj


def dumps_json(records: DealRecord | Iterable[DealRecord]) -> str:
    """The JSON form of a file: an array of :func:`to_json` objects, one per deal."""
    recs = [records] if isinstance(records, DealRecord) else list(records)
    return json.dumps([to_json(r) for r in recs], ensure_ascii=False, indent=1) + "\n"


def loads_json(text: str | bytes, *, file: str | None = None) -> list[DealRecord]:
    """The deals of a JSON array written by :func:`dumps_json` (or one deal object)."""
    try:
        data = json.loads(text)
    except ValueError as e:
        line = getattr(e, "lineno", None)
        raise GdnError(_json_phrase(_not_json(e)), file=file, line=line) from None
    except RecursionError:  # json's decoder recurses once per level of nesting
        raise GdnError(_json_phrase(phrase("gdn.json.nested")), file=file) from None
    objs = data if isinstance(data, list) else [data]
    return [from_json(o, file=file) for o in objs]


#: json's reasons for text that is no JSON -> their catalogue keys (others stay English)
_JSON_REASONS = {
    "Expecting value": "gdn.json.msg.value",
    "Extra data": "gdn.json.msg.extra",
    "Expecting property name enclosed in double quotes": "gdn.json.msg.name",
    "Expecting ',' delimiter": "gdn.json.msg.comma",
    "Expecting ':' delimiter": "gdn.json.msg.colon",
    "Unterminated string starting at": "gdn.json.msg.unterminated",
    "Invalid control character at": "gdn.json.msg.control",
    "Invalid \\escape": "gdn.json.msg.escape",
}


def _json_phrase(reason: str | Phrase) -> Phrase:
    """``JSON: <reason>``: a refusal of the JSON form of a record."""
    return phrase("gdn.json.at", reason=reason)


def _not_json(e: ValueError) -> Phrase:
    """Why text is not JSON, json's own reason worded when the catalogue knows it."""
    if isinstance(e, json.JSONDecodeError):
        key = _JSON_REASONS.get(e.msg)
        return phrase("gdn.json.decode", msg=Term(e.msg, key) if key else e.msg,
                      line=e.lineno, column=e.colno, pos=e.pos)
    return phrase("gdn.json.invalid", error=str(e))


def _key_names(keys: Iterable[object]) -> str:
    """Unknown JSON keys for a one-line message: as they are, or quoted when they hold
    something that is not printable (a newline would break the message's line)."""
    return ", ".join(sorted(str(k) if str(k).isprintable() else repr(str(k)) for k in keys))


def from_json(obj: Any, *, file: str | None = None) -> DealRecord:
    """The :class:`DealRecord` of a JSON object made by :func:`to_json` (validated)."""

    def fail(reason: str | Phrase, seat: Seat | None = None) -> GdnError:
        return GdnError(_json_phrase(reason), file=file, seat=seat)

    if not isinstance(obj, dict):
        raise fail(phrase("gdn.json.not_object"))
    unknown = set(obj) - {
        "tags",
        "level",
        "leader",
        "hands",
        "plays",
        "finish",
        "result",
        "comments",
    }
    if unknown:
        # str(): a dict made in Python (not parsed from JSON text) may have other keys
        raise fail(phrase("gdn.json.unknown_keys", keys=_key_names(unknown)))
    rec = DealRecord(file=file)
    try:
        tags = obj.get("tags", {})
        if not isinstance(tags, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in tags.items()
        ):
            raise fail(phrase("gdn.json.tags"))
        for k, v in tags.items():
            _json_tag(k, v, fail)
        rec.tags = {k: clean_name(v) for k, v in tags.items()}
        rec.level = parse_level(_cut(_need_str(obj, "level", fail)))
        rec.leader = Seat.parse(_cut(_need_str(obj, "leader", fail)))
        hands = obj.get("hands")
        if not isinstance(hands, dict) or set(hands) != {s.name for s in Seat}:
            raise fail(phrase("gdn.json.hands"))
        rec.hands = tuple(_json_cards(hands[s.name], s, fail) for s in Seat)  # type: ignore[assignment]
        plays = obj.get("plays")
        if plays is not None:
            if not isinstance(plays, list):
                raise fail(phrase("gdn.json.plays"))
            rec.plays = [_json_play(p, i, fail) for i, p in enumerate(plays, start=1)]
        finish = obj.get("finish")
        if finish is not None:
            # one seat per item: "N E" or "N-E" in one string would be read as two seats
            if not isinstance(finish, list) or not all(
                isinstance(s, str) and len(s.replace(",", " ").replace("-", " ").split()) == 1
                for s in finish
            ):
                raise fail(phrase("gdn.json.finish"))
            rec.finish = _parse_finish(" ".join(finish))
        result = obj.get("result")
        if result is not None:
            # exactly the canonical content: not .gdn's lenient "NS -2" (for "EW +2") or
            # "N-S", nor a bool (an int in Python), nor extra keys
            levels = result.get("levels") if isinstance(result, dict) else None
            if (
                not isinstance(result, dict)
                or set(result) != {"side", "levels"}
                or not isinstance(levels, int)
                or isinstance(levels, bool)
            ):
                raise fail(phrase("gdn.json.result", ns='"NS"', ew='"EW"'))
            side = result["side"]
            if side not in ("NS", "EW"):
                raise fail(phrase("gdn.json.result_side", shown=_shown(str(side))))
            if not 1 <= levels <= 4:
                raise fail(phrase("gdn.json.result_levels", levels=levels))
            rec.result = (Side[side], levels)
        comments = obj.get("comments", [])
        if not isinstance(comments, list) or not all(isinstance(c, str) for c in comments):
            raise fail(phrase("gdn.json.comments"))
        for c in comments:
            _json_text(c, phrase("gdn.json.what_comment"), fail)
        rec.comments = list(comments)
    except GdnError as e:
        if e.reason.startswith("JSON: "):
            raise
        raise fail(e.worded, e.seat) from None
    except GuandanError as e:
        raise fail(engine_phrase(e)) from None
    for seat in Seat:
        if size(rec.hands[seat]) != HAND_SIZE:
            raise fail(phrase("gdn.err.hand_size", seat=_seat(seat),
                              count=size(rec.hands[seat]), size=HAND_SIZE), seat)
    if sum(rec.hands) != FULL_PACK:
        raise fail(phrase("gdn.err.not_packs"))
    return rec


def _cut(text: str) -> str:
    """``text`` stripped, cut short when long (for the engine's parsers, which quote their
    input whole in their messages; no valid level, seat or rank is longer than 2)."""
    text = text.strip()
    return text if len(text) <= _SHOWN_MAX else text[:_SHOWN_MAX] + "…"


def _json_tag(name: str, value: str, fail: Any) -> None:
    """Refuse a JSON tag that the ``.gdn`` text could not hold or would read back as
    another: a bad name, a typed tag, a known tag in another case, a line break."""
    known = _KNOWN_BY_LOWER.get(name.lower())
    if known == "Play":
        raise fail(phrase("gdn.json.play_tag"))
    if known in _TYPED_TAGS:
        raise fail(phrase("gdn.json.typed_tag", name=known))
    if not _TAG_NAME_RE.fullmatch(name):
        raise fail(phrase("gdn.json.tag_name", shown=_shown(name)))
    if known is not None and known != name:
        raise fail(phrase("gdn.json.tag_case", name=repr(name), known=repr(known)))
    if "\n" in value or "\r" in value:
        raise fail(phrase("gdn.json.tag_break", name=name))
    _json_text(value, phrase("gdn.json.what_tag", name=name), fail, tag=True)


def _json_text(value: str, what: Phrase, fail: Any, *, tag: bool = False) -> None:
    """Refuse in JSON what the ``.gdn`` reader refuses: control characters, long values
    (``what``: a comment, the value of a tag)."""
    bad = control_character(value)
    if bad is not None:
        raise fail(phrase("gdn.json.control", what=what, char=describe_character(bad)))
    if len(value) > MAX_TAG_VALUE and tag:
        raise fail(phrase("gdn.json.value_long", what=what, count=f"{len(value):,}",
                          most=f"{MAX_TAG_VALUE:,}"))
    if len(value) > MAX_LINE:
        raise fail(phrase("gdn.json.text_long", what=what, most=f"{MAX_LINE:,}"))


def _need_str(obj: dict[str, Any], key: str, fail: Any) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise fail(phrase("gdn.json.need_str", name=key))
    return value


def _json_cards(value: Any, seat: Seat | None, fail: Any) -> Cards:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise fail(phrase("gdn.json.cards"), seat)
    try:
        return _parse_cards_fast(value)
    except GuandanError as e:
        raise fail(engine_phrase(e), seat) from None


def _json_play(item: Any, index: int, fail: Any) -> Play:
    if not isinstance(item, dict) or not isinstance(item.get("seat"), str):
        raise fail(phrase("gdn.json.play_object", index=index))
    unknown = set(item) - {"seat", "pass", "type", "rank", "cards", "comments"}
    if unknown:
        raise fail(phrase("gdn.json.play_keys", index=index, keys=_key_names(unknown)))
    if not isinstance(item.get("pass", False), bool):
        raise fail(phrase("gdn.json.play_pass", index=index))
    try:
        seat = Seat.parse(item["seat"])
    except GuandanError as e:
        raise fail(phrase("gdn.json.play_error", index=index, error=engine_phrase(e))) from None
    comments = item.get("comments", [])
    if not isinstance(comments, list) or not all(isinstance(c, str) for c in comments):
        raise fail(phrase("gdn.json.play_comments", index=index), seat)
    for c in comments:
        _json_text(c, phrase("gdn.json.what_play_comment", index=index), fail)
    if item.get("pass") is True:
        if "cards" in item or "type" in item or "rank" in item:
            raise fail(phrase("gdn.json.pass_cards", index=index), seat)
        return Play(seat, 0, comments=list(comments))
    ctype = rank = None
    if item.get("type") is not None:
        ctype = _TYPES_BY_LOWER.get(str(item["type"]).lower())
        if ctype is None:
            raise fail(phrase("gdn.json.play_type", index=index,
                              shown=_shown(str(item["type"]))), seat)
    if item.get("rank") is not None:
        rank = _RANKS.get(str(item["rank"]))
        if rank is None:
            raise fail(phrase("gdn.json.play_rank", index=index,
                              shown=_shown(str(item["rank"]))), seat)
    if (ctype is None) != (rank is None):
        raise fail(phrase("gdn.json.type_rank", index=index), seat)
    cards = _json_cards(item.get("cards"), seat, fail)
    if cards == 0:
        raise fail(phrase("gdn.json.play_no_cards", index=index), seat)
    return Play(seat, cards, ctype, rank, comments=list(comments))
