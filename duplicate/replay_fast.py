"""The fast path of ``guandan replay``: each file read once, canonical deals replayed natively.

A ``.gdn`` file is read in blocks of whole lines, once. Each deal written in the plain form
the writer gives (:func:`duplicate.gdn.dumps`: tag lines, ``[Play]``, one play a line,
``[Finish]``, ``[Result]``; no comments, escapes or control characters) is read here with
no intermediate objects (a play line already seen costs one dictionary look-up) and
replayed by :func:`engine.bulk.replay_log`, every play's seat checked, in the compiled core
when it is loaded. Its :class:`~duplicate.replay.DealReport` is the one
:func:`duplicate.replay.report` gives.

At the first deal that is not in that form, or that the engine or a tag refuses, the rest
of the file is read from that deal on by the reference reader (:func:`duplicate.gdn.iter_pieces`
from a line and byte offset): errors keep their file, line, seat and words exactly. A deal
is taken on the fast path only once the next line that is not blank is known to begin the
next deal, as the reference reader decides it (docs/FORMAT.md "Several deals").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, cast

from duplicate.dealing import deal_id
from duplicate.gdn import (
    _KNOWN_BY_LOWER,
    HAND_SIZE,
    MAX_LINE,
    MAX_TAG_VALUE,
    TRAILER_TAGS,
    GdnError,
    _parse_finish,
    _parse_hands,
    _parse_play,
    _parse_result,
)
from duplicate.names import clean_name
from duplicate.replay import DealReport
from engine.bulk import LogEntry, replay_log
from engine.cards import FULL_PACK, Cards, parse_level, size
from engine.errors import GuandanError
from engine.ruleset import Ruleset
from engine.seat import Seat, Side

__all__ = ["Resume", "fast_reports"]

#: Bytes read from a file at a time.
BLOCK = 1 << 20

#: A tag line in the plain form: a name, one space, a quoted value without escapes.
_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "([^"\\\]]*)"\]')
#: What the plain form never holds: comments, escapes, control characters.
_UNSAFE = re.compile(r"[{};\\\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]")
#: The bytes of ASCII text in the plain form (the same, for a block that is ASCII).
_SAFE_ASCII = bytes(c for c in range(32, 127) if chr(c) not in "{};\\") + b"\t\n"
#: The header tags read into typed values.
_TYPED = frozenset({"Level", "Leader", "Deal"})
#: Tags that never begin a deal: a second one is an error of the deal it follows.
_NOT_A_START = frozenset(n.lower() for n in (*TRAILER_TAGS, "Play"))

#: A play line -> its logged action, and -> its seat as one byte; the lines of a file
#: repeat a great deal (both kept in step, so a line is in both or in neither).
_ENTRIES: dict[str, LogEntry] = {}
_SEATS: dict[str, bytes] = {}
_PLAYS_MOST = 200_000
#: A tag line -> its name and value (None: not a tag in the plain form).
_TAG_LINES: dict[str, tuple[str, object] | None] = {}
#: A Deal tag's value -> the four hands (each board's hands stand in both rooms' records).
_HANDS: dict[str, tuple[Cards, Cards, Cards, Cards]] = {}


@dataclass(frozen=True, slots=True)
class Resume:
    """Where the reference reader takes over a file: its line number and byte offset."""

    line: int
    offset: int


def _play(line: str) -> bool:
    """Learn the logged action and seat of a play line; False when the reference must
    read it."""
    if not line.strip():
        return False
    try:
        play = _parse_play(line.strip(), 0)
    except GdnError:
        return False
    _ENTRIES[line] = None if play.is_pass else (play.cards, play.type, play.rank)
    _SEATS[line] = bytes((play.seat,))
    return True


def _tag(line: str) -> tuple[str, object] | None:
    """A header tag line in the plain form, read: ``(name, value)`` with the value of
    Level, Leader and Deal parsed (the hands) and any other value in NFC; None when the
    reference must read it (not the plain form, a name not in its canonical case, a
    Finish or Result, a value too long or that the engine refuses)."""
    try:
        return _TAG_LINES[line]
    except KeyError:
        pass
    m = _TAG.fullmatch(line)
    found: tuple[str, object] | None = None
    if m is not None:
        name, value = m.group(1), m.group(2)
        known = _KNOWN_BY_LOWER.get(name.lower())
        if (known is None or known == name) and name not in TRAILER_TAGS and (
                len(value) <= MAX_TAG_VALUE):
            try:
                if name == "Level":
                    found = (name, parse_level(value))
                elif name == "Leader":
                    found = (name, Seat.parse(value))
                elif name == "Deal":
                    hands = _hands(value)
                    found = (name, hands) if hands is not None else None
                else:
                    found = (name, clean_name(value))
            except GuandanError:
                found = None
    if len(_TAG_LINES) >= _PLAYS_MOST:
        _TAG_LINES.clear()
    _TAG_LINES[line] = found
    return found


def _hands(value: str) -> tuple[Cards, Cards, Cards, Cards] | None:
    hands = _HANDS.get(value)
    if hands is None:
        try:
            hands = _parse_hands(value)
        except GdnError:
            return None
        if any(size(h) != HAND_SIZE for h in hands) or sum(hands) != FULL_PACK:
            return None
        if len(_HANDS) >= 4096:
            _HANDS.clear()
        _HANDS[value] = hands
    return hands


def _starts_deal(line: str) -> bool:
    """Whether ``line``, after a blank line and a whole deal, begins the next deal."""
    m = _TAG.fullmatch(line)
    return m is not None and m.group(1).lower() not in _NOT_A_START


def deal_report(
    lines: list[str], start: int, file: str | None, rules: Ruleset
) -> DealReport | None:
    """The report of one deal in the plain form (``lines``, the first numbered ``start``),
    or None when anything about it needs the reference reader."""
    if len(_SEATS) >= _PLAYS_MOST:  # never while a deal is read: its lines stay learnt
        _SEATS.clear()
        _ENTRIES.clear()
    tags: dict[str, str] = {}
    typed: dict[str, object] = {}
    n = len(lines)
    i = 0
    while i < n:
        text = lines[i]
        if text == "[Play]":
            break
        tag = _tag(text)
        if tag is None:
            return None
        name, value = tag
        if name in tags or name in typed:
            return None
        if name in _TYPED:
            typed[name] = value
        else:
            tags[name] = value  # type: ignore[assignment]
        i += 1
    level = cast("int | None", typed.get("Level"))
    leader = cast("Seat | None", typed.get("Leader"))
    hands = cast("tuple[Cards, Cards, Cards, Cards] | None", typed.get("Deal"))
    if level is None or leader is None or hands is None:
        return None
    log: list[LogEntry] = []
    seats = b""
    plays: int | None = None
    finish: tuple[Seat, ...] | None = None
    result: tuple[Side, int] | None = None
    if i < n:  # [Play], the plays, then the trailer tags
        j = n
        while j > i + 1 and lines[j - 1].startswith("["):
            j -= 1
        body = lines[i + 1 : j]
        if body and max(map(len, body)) > MAX_LINE:
            return None
        try:
            seats = b"".join(map(_SEATS.__getitem__, body))
        except KeyError:
            if not all(line in _SEATS or _play(line) for line in body):
                return None
            seats = b"".join(map(_SEATS.__getitem__, body))
        log = list(map(_ENTRIES.__getitem__, body))
        plays = len(log)
        seen: set[str] = set()
        for text in lines[j:]:
            m = _TAG.fullmatch(text)
            if m is None or m.group(1) not in TRAILER_TAGS or m.group(1) in seen:
                return None
            seen.add(m.group(1))
            try:
                if m.group(1) == "Finish":
                    finish = _parse_finish(m.group(2))
                else:
                    result = _parse_result(m.group(2))
            except GdnError:
                return None
    try:
        summary = replay_log(hands, level, leader, log, rules, seats)
    except GuandanError:
        return None
    stated = tags.get("DealId")
    if stated is not None and stated.strip() not in ("", "?") and (
            stated.strip().lower() != deal_id(hands)):
        return None
    found_finish = found_result = None
    if plays is None:
        status = "hand record"
    elif not summary.over:
        if finish is not None or result is not None:
            return None
        status = "unfinished"
    else:
        order = summary.finish_order
        winner = order[0].side
        if finish is not None and not _finish_agrees(finish, order, summary.double_down):
            return None
        if result is not None and result != (winner, summary.levels):
            return None
        found_finish = finish_text_of(order, summary.double_down)
        found_result = f"{winner.name} +{summary.levels}"
        status = "ok"
    return DealReport(file, start, tags.get("Board"), tags.get("Room"), plays or 0,
                      found_finish, found_result, status, None)


def _finish_agrees(finish: tuple[Seat, ...], order: tuple[Seat, ...], double_down: bool) -> bool:
    """:func:`duplicate.replay.finish_agrees` on a replay's finishing order."""
    if double_down:
        if len(finish) == 2:
            return finish == order[:2]
        return len(finish) == 4 and finish[:2] == order[:2] and set(finish[2:]) == set(order[2:])
    return len(finish) >= 3 and finish == order[: len(finish)]


def finish_text_of(order: tuple[Seat, ...], double_down: bool) -> str:
    """:func:`duplicate.replay.finish_text` of a replay's finishing order."""
    return " ".join(s.name for s in (order[:2] if double_down else order))


def _block_reports(
    text: str, first: int, follower: str | None, file: str | None, rules: Ruleset
) -> tuple[list[DealReport], int | None]:
    """The reports of the deals of ``text`` (its first line numbered ``first``) up to the
    first that needs the reference reader, and that deal's first line (None: every deal
    done). ``follower`` is the line after the block (None at the end of the file)."""
    reports: list[DealReport] = []
    chunks = text.split("\n\n")
    line = first
    for k, chunk in enumerate(chunks):
        start, line = line, line + chunk.count("\n") + 2
        if not chunk or chunk == "\n":
            continue
        lines = chunk.split("\n")
        if not lines[-1]:
            lines.pop()
        m = k + 1
        while m < len(chunks) and not chunks[m].strip():
            m += 1
        after = chunks[m].lstrip("\n").split("\n", 1)[0] if m < len(chunks) else follower
        if lines[0] == "":
            lines.pop(0)
            start += 1
        if after is not None and not _starts_deal(after):
            return reports, start
        report = deal_report(lines, start, file, rules)
        if report is None:
            return reports, start
        reports.append(report)
    return reports, None


def fast_reports(
    fp: IO[bytes], file: str, rules: Ruleset
) -> Iterator[list[DealReport] | Resume | int]:
    """Read the open file ``fp`` once: lists of reports of the deals in the plain form and,
    after each block, the bytes read so far (an ``int``, for progress); then, unless every
    deal was read here, one :class:`Resume` where the reference reader must take over."""
    line = 1  # the number of the first line of the next block
    offset = 0  # its byte offset in the file
    carry = b""
    while True:
        data = fp.read(BLOCK)
        buf = carry + data if carry else data
        if not buf:
            return
        if len(data) == BLOCK:  # cut before the last deal after a blank line: its end is not read
            cut = buf.rfind(b"\n\n[") + 2
            if cut == 1:
                if len(buf) > 8 * BLOCK:  # no deal begins in sight: not the plain form
                    yield Resume(line, offset)
                    return
                carry = buf
                continue
            block, carry = buf[:cut], buf[cut:]
        else:
            block, carry = buf, b""
        head = carry[: carry.find(b"\n")] if carry else b""
        try:
            text = block.decode("utf-8")
            follower = head.decode("utf-8") if carry else None
        except UnicodeDecodeError:
            yield Resume(line, offset)
            return
        if block.isascii() and head.isascii():  # most files: checked a thousand times faster
            unsafe = bool(block.translate(None, _SAFE_ASCII) or head.translate(None, _SAFE_ASCII))
        else:
            unsafe = _UNSAFE.search(text) is not None or (
                follower is not None and _UNSAFE.search(follower) is not None)
        if unsafe:
            yield Resume(line, offset)
            return
        reports, stop = _block_reports(text, line, follower, file, rules)
        if reports:
            yield reports
        if stop is not None:
            before = stop - line  # lines of the block before the deal the reference reads
            cut = 0
            for _ in range(before):
                cut = text.index("\n", cut) + 1
            yield Resume(stop, offset + len(text[:cut].encode("utf-8")))
            return
        line += text.count("\n") + (0 if text.endswith("\n") else 1)
        offset += len(block)
        yield offset
        if len(data) < BLOCK:
            return
