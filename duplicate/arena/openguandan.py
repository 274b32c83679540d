"""Import an OpenGuanDan table's JSON-lines log into replay-checked ``.gdn`` records.

PROTOCOL.md gives the messages (dialect C, §4 and the examples of §8) but not the file
around them; this reading is documented in docs/ARENA.md ("Importing competition logs"):

* UTF-8 text, one JSON object a line; blank lines and lines starting with ``#`` are
  skipped. A line is a server message (``{"type": "notify", "stage": "play", ...}``), or a
  wrapper holding one under ``message``, ``msg`` or ``data`` (with the recipient under
  ``pos``, ``to`` or ``player``, not needed). Replies (``{"actIndex": i}``) and ``act``
  messages are skipped: the plays are read from ``notify play``.
* A broadcast logged once per recipient appears several times in a row: a ``notify``
  equal to the previous ``notify`` line is the same message and is read once.
* A deal runs to ``notify episodeOver``. Positions 0..3 are seats N E S W. The level is
  ``beginning``'s ``curRank`` (int 2..14), else an ``act``'s or ``episodeOver``'s
  (string); the leader is the seat of the deal's first ``notify play``.
* The hands when play began are rebuilt from the deal itself: each seat's played cards
  plus its ``restCards`` at ``episodeOver``. A ``beginning`` hand, moved by the
  ``notify tribute``/``back`` results, must agree with them.

* The arena's own log (``guandan arena duplicate --log``) has a line
  ``{"arena": {"tags": {...}, "turned": r}}`` before each room: the deal after it is read
  with those tags (board, room, agents, clients) and turned back ``r`` seats, so that
  position ``p`` is board seat ``p + r`` as in the arena's records.
* A log cut short (the arena stopped mid-deal) is refused, naming the deal it ends
  inside; with ``on_cut`` the deals finished before are read and ``on_cut`` is told
  where the log ends (a last line cut in the middle included).

Every deal is replayed by ``duplicate.replay`` (each play legal, the ``order`` of
``episodeOver`` the replay's finishing order) before it is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duplicate.arena.protocol import ProtocolError, cards_of, level_of, parse_action
from duplicate.arena.server import ArenaError
from duplicate.gdn import DealRecord, ErrorWords, Play
from duplicate.i18n import (
    DEFAULT_LANGUAGE,
    Phrase,
    Term,
    engine_phrase,
    normalise_language,
    os_reason,
    phrase,
)
from duplicate.i18n import game as vocab
from duplicate.replay import quick_replay
from engine.cards import KIND_BIT, TOKEN_KINDS, Cards, format_cards
from engine.seat import Seat

__all__ = ["LogError", "import_log", "read_log"]

EVENT = "Played by OpenGuanDan"


class LogError(ArenaError):
    """A log line that cannot be read, or a deal that does not replay; names file and line."""


@dataclass(frozen=True, slots=True)
class _Hand:
    """Cards in an error: in English as the log's tokens (``S5 HT``), in another language
    as its card faces (``5♠ 10♥``)."""

    cards: Cards
    level: int

    def text(self, lang: str | None = DEFAULT_LANGUAGE) -> str:
        code = normalise_language(lang)
        if code == DEFAULT_LANGUAGE:
            return format_cards(self.cards)
        return vocab.faces_text(vocab.hand_faces(self.cards, self.level, code))

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(slots=True)
class _Deal:
    line: int
    level: int | None = None
    dealt: dict[int, Cards] = field(default_factory=dict)
    moves: list[tuple[int, int, str]] = field(default_factory=list)  # tribute and back
    plays: list[tuple[int, Any, int]] = field(default_factory=list)  # pos, action, line
    order: list[int] = field(default_factory=list)
    rest: dict[int, Cards] = field(default_factory=dict)
    #: the arena's tags of this room and how far its positions are turned from board seats
    tags: dict[str, str] = field(default_factory=dict)
    turned: int = 0


#: a line the arena writes before a room: ``{"arena": {...}}``
_ARENA = "arena"


class _Cut(Exception):
    """The log's last line was cut in the middle (the writer stopped)."""


def _messages(text: str, file: str) -> Iterator[tuple[int, dict[str, Any]]]:
    previous: dict[str, Any] | None = None
    lines = text.splitlines()
    for n, raw in enumerate(lines, 1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if n == len(lines) and not text.endswith("\n"):
                raise _Cut from None
            raise LogError(phrase("rest.arena.log.not_json", where=f"{file}:{n}",
                                  why=Term(exc.msg, "rest.arena.log.json_why"))) from None
        if isinstance(obj, dict) and isinstance(obj.get(_ARENA), dict) and "type" not in obj:
            yield n, obj  # the arena's own line: a room's tags
            continue
        if not isinstance(obj, dict):
            raise LogError(phrase("rest.arena.log.not_object", where=f"{file}:{n}",
                                  kind=type(obj).__name__))
        for key in ("message", "msg", "data"):
            if isinstance(obj.get(key), dict) and "type" not in obj:
                obj = obj[key]
                break
        if obj.get("type") != "notify":
            continue  # act messages and replies: the plays come from notify play
        if obj == previous:
            continue  # one broadcast logged once per recipient
        previous = obj
        yield n, obj


def _protocol(where: str, exc: ProtocolError) -> LogError:
    """A protocol error met at ``where`` (file:line), worded by its key in the reader's
    language (``engine_phrase``), the engine's reason it quotes too."""
    return LogError(phrase("rest.arena.log.at", where=where, why=engine_phrase(exc)))


def _cards(tokens: Any, at: str, name: str) -> Cards:
    try:
        return cards_of(tokens, name)
    except ProtocolError as exc:
        raise _protocol(at, exc) from None


def _deals(text: str, file: str, on_cut: Callable[[Phrase], None] | None) -> Iterator[_Deal]:
    deal: _Deal | None = None
    room: dict[str, Any] = {}  # the arena's tags for the next deal
    messages = _messages(text, file)
    while True:
        try:
            n, msg = next(messages)
        except StopIteration:
            break
        except _Cut:
            where = f"{file}:{len(text.splitlines())}"
            if on_cut is None:
                raise LogError(phrase("arena.log.cut_line", where=where)) from None
            on_cut(phrase("arena.log.cut_line", where=where))
            break
        if _ARENA in msg:
            room = msg[_ARENA]
            if deal is not None and not deal.plays:
                deal = None  # a deal that never began play: the room's own line starts anew
            continue
        stage = msg.get("stage")
        at = f"{file}:{n}"
        if deal is None and room:
            deal = _room_deal(n, room, at)
            room = {}
        if stage == "beginning":
            if deal is None or deal.plays:
                deal = _Deal(n)
            pos = msg.get("myPos")
            if not isinstance(pos, int) or not 0 <= pos <= 3:
                raise LogError(phrase("rest.arena.log.no_my_pos", where=at))
            deal.dealt[pos] = _cards(msg.get("handCards"), at, "handCards")
            if "curRank" in msg:
                deal.level = _level(msg["curRank"], at)
            continue
        if deal is None:
            deal = _Deal(n)
        if stage in ("tribute", "back"):
            for item in msg.get("result") or []:
                try:
                    giver, receiver, card = item
                    deal.moves.append((int(giver), int(receiver), str(card)))
                except (TypeError, ValueError):
                    raise LogError(phrase("rest.arena.log.moves", where=at, stage=stage)) from None
        elif stage == "play":
            pos = msg.get("curPos")
            if not isinstance(pos, int) or not 0 <= pos <= 3:
                raise LogError(phrase("rest.arena.log.no_cur_pos", where=at))
            deal.plays.append((pos, msg.get("curAction"), n))
        elif stage == "episodeOver":
            if deal.level is None and "curRank" in msg:
                deal.level = _level(msg["curRank"], at)
            order = msg.get("order")
            if not isinstance(order, list) or sorted(order) != [0, 1, 2, 3]:
                raise LogError(phrase("rest.arena.log.no_order", where=at))
            deal.order = order
            for item in msg.get("restCards") or []:
                try:
                    pos, tokens = item
                except (TypeError, ValueError):
                    raise LogError(phrase("rest.arena.log.rest_cards", where=at)) from None
                deal.rest[int(pos)] = _cards(tokens, at, "restCards")
            yield deal
            deal = None
    if deal is not None and deal.plays:
        cut = phrase("rest.arena.log.ends_inside", where=f"{file}:{deal.line}")
        if on_cut is None:
            raise LogError(cut)
        on_cut(cut)


def _room_deal(n: int, room: dict[str, Any], at: str) -> _Deal:
    """A deal read with the arena's tags of its room (and its turn from board seats)."""
    tags, turned = room.get("tags"), room.get("turned", 0)
    if (not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values())
            or turned not in (0, 1, 2, 3)):
        raise LogError(phrase("arena.log.room_line", where=at))
    return _Deal(n, tags=dict(tags), turned=turned)


def _level(value: Any, at: str) -> int:
    try:
        return level_of(value)
    except ProtocolError as exc:
        raise _protocol(at, exc) from None


def _record(d: _Deal, number: int, file: str, event: str) -> DealRecord:
    at = f"{file}:{d.line}"
    if d.level is None:
        raise LogError(phrase("rest.arena.log.no_level", where=at, number=number))
    if not d.plays:
        raise LogError(phrase("rest.arena.log.no_play", where=at, number=number))
    plays: list[Play] = []
    held = dict(d.rest)

    def seat(pos: int) -> Seat:  # board seat of a position (turned back in a closed room)
        return Seat((pos + d.turned) & 3)

    for pos, action, n in d.plays:
        try:
            combo = parse_action(action, d.level)
        except ProtocolError as exc:
            raise _protocol(f"{file}:{n}", exc) from None
        if combo is None:
            plays.append(Play(seat(pos), line=n))
        else:
            plays.append(Play(seat(pos), combo.cards, combo.type, combo.rank, line=n))
            held[pos] = held.get(pos, 0) + combo.cards
    hands = tuple(held.get(p, 0) for p in range(4))
    for pos, dealt in d.dealt.items():
        for giver, receiver, card in d.moves:
            bit = KIND_BIT[TOKEN_KINDS[card]] if card in TOKEN_KINDS else 0
            dealt += bit if receiver == pos else 0
            dealt -= bit if giver == pos else 0
        if dealt != hands[pos]:
            raise LogError(phrase("rest.arena.log.hand", where=at, number=number, pos=pos,
                                  dealt=_Hand(dealt, d.level), kept=_Hand(hands[pos], d.level)))
    by_seat = [hands[(i - d.turned) & 3] for i in range(4)]  # position -> board seat
    record = DealRecord(
        tags=dict(d.tags) if d.tags else {"Event": event, "Board": str(number)},
        hands=(by_seat[0], by_seat[1], by_seat[2], by_seat[3]),
        level=d.level,
        leader=seat(d.plays[0][0]),
        plays=plays,
        finish=tuple(seat(p) for p in d.order),
        file=file,
        line=d.line,
    )
    checked = quick_replay(record)
    if checked.error is not None:
        raise LogError(phrase("rest.arena.log.deal", number=number,
                              why=ErrorWords(checked.error)))
    assert checked.result is not None
    res = checked.result
    record.finish = res.finish_order[:2] if res.double_down else res.finish_order
    record.result = (res.winner, res.levels)
    record.file, record.line = None, None
    for p in record.plays or ():
        p.line = None
    return record


def read_log(text: str, file: str = "<log>", event: str = EVENT,
             on_cut: Callable[[Phrase], None] | None = None) -> list[DealRecord]:
    """Every deal of a log as a replayed record (Board = its number in the log, or the
    arena's tags); ``on_cut``: read a log cut short up to its last finished deal, and say
    where it ends (else refused)."""
    records = [_record(d, i, file, event)
               for i, d in enumerate(_deals(text, file, on_cut), 1)]
    if not records:
        raise LogError(phrase("rest.arena.log.no_deal", file=file))
    return records


def import_log(path: str | Path, event: str = EVENT,
               on_cut: Callable[[Phrase], None] | None = None) -> list[DealRecord]:
    """:func:`read_log` of a file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(phrase("rest.arena.log.unreadable", path=repr(str(path)),
                              reason=os_reason(exc))) from None
    except UnicodeDecodeError:
        raise LogError(phrase("rest.arena.log.not_utf8", path=str(path))) from None
    return read_log(text, str(path), event, on_cut)
