"""Messages of the Guandan AI competition protocol, dialect C (PROTOCOL.md §2–5).

Cards are the project's tokens (``S5``, ``HT``, ``SB``, ``HR``); an action is
``[type, rank, cards]`` with the type names of FORMAT.md, the rank as records write it
(the lowest rank of a sequence, ``B``/``R`` for joker singles and pairs) and the real cards,
wild hearts as themselves. Two differences from our records: the joker bomb is
``["Bomb", "JOKER", [...]]`` (we write ``FourKings``; both are read) and a pass is
``["PASS", "PASS", "PASS"]``.

:func:`action_list` is what the server offers the seat to act: every legal play of the
engine, one entry per distinct card choice (and reading), PASS first when following;
:func:`act_options` gives the same plays and the list's text, which the compiled core
writes when it is in use.
Everything here is pure: the server (:mod:`duplicate.arena.server`) and the agent
(:mod:`duplicate.arena.agent`) do the input and output.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any, overload

from duplicate.native import CHOSEN, PLAYERS
from engine.cards import (
    BIG_JOKER,
    KIND_TOKENS,
    RANK_A,
    RANK_CHARS,
    SMALL_JOKER,
    TOKEN_KINDS,
    Cards,
    level_value,
    parse_rank,
    rank_name,
)
from engine.combo import Combo, ComboType
from engine.errors import GuandanError, InvalidComboError, Part
from engine.moves import legal_plays
from engine.reading import read_declared
from engine.ruleset import COMPETITION, Ruleset

__all__ = [
    "NO_ACTION",
    "PASS",
    "ProtocolError",
    "Options",
    "act_options",
    "c_act_options",
    "py_act_options",
    "act_text",
    "action_json",
    "action_list",
    "action_of",
    "cards_of",
    "dumps",
    "find_action",
    "hand_tokens",
    "is_no_action",
    "legal_options",
    "level_int",
    "level_of",
    "level_str",
    "lowest_card_index",
    "parse_action",
    "parse_reply",
    "tokens",
]

#: the pass action
PASS: list[Any] = ["PASS", "PASS", "PASS"]
#: "no action" (a lead: no play to beat)
NO_ACTION: list[Any] = [None, None, None]
#: the rank the C dialect gives the joker bomb
JOKER_BOMB_RANK = "JOKER"


class ProtocolError(GuandanError):
    """A message that does not follow the protocol (bad JSON, an unknown card, ...)."""


@cache
def _field_tokens(rank: int, field: int) -> tuple[str, ...]:
    """The tokens of one rank's 12-bit field (4 suits × 3 bits of count)."""
    out: list[str] = []
    for suit in range(4):
        out += [KIND_TOKENS[4 * rank + suit]] * ((field >> (3 * suit)) & 7)
    return tuple(out)


def tokens(cards: Cards) -> list[str]:
    """The tokens of ``cards`` in natural order (rank, then suit S H C D; jokers last)."""
    out: list[str] = []
    for r in range(13):
        f = cards & 0xFFF
        if f:
            out += _field_tokens(r, f)
        cards >>= 12
        if not cards:
            return out
    out += ["SB"] * (cards & 7) + ["HR"] * ((cards >> 3) & 7)
    return out


def hand_tokens(cards: Cards, level: int) -> list[str]:
    """``handCards``: sorted by level order (the level rank after A, then SB, HR), suits S H C D."""
    natural = tokens(cards)
    mark = RANK_CHARS[level]
    lifted = [t for t in natural if t[1] == mark]
    if not lifted:
        return natural
    rest = [t for t in natural if t[1] != mark]
    jokers = 0
    while jokers < len(rest) and rest[-1 - jokers] in ("SB", "HR"):
        jokers += 1
    cut = len(rest) - jokers
    return rest[:cut] + lifted + rest[cut:]


def level_int(level: int) -> int:
    """A level as ``beginning`` writes it: an int 2..14 (14 = A)."""
    return level + 2


def level_str(level: int) -> str:
    """A level as ``act`` and ``episodeOver`` write it: ``"2"``..``"9"``, ``"T"``..``"A"``."""
    return rank_name(level)


def level_of(value: Any) -> int:
    """A level (rank index 0..12) from either form: the int 2..14 or the string."""
    if isinstance(value, bool):
        raise _bad_level(value)
    if isinstance(value, int):
        if 2 <= value <= 14:
            return value - 2
        raise ProtocolError(f"invalid level {value!r}: an int level is 2..14",
                            "arena.proto.level_int", value=repr(value))
    if isinstance(value, str):
        try:
            r = parse_rank(value)
        except GuandanError:
            raise _bad_level(value) from None
        if r <= RANK_A:
            return r
    raise _bad_level(value)


def _bad_level(value: Any) -> ProtocolError:
    return ProtocolError(f"invalid level {value!r}", "arena.proto.level", value=repr(value))


def action_of(combo: Combo | None) -> list[Any]:
    """The protocol action of a play (``None``: PASS). Do not change the list returned:
    actions are cached (the same plays come back act after act)."""
    if combo is None:
        return PASS
    return _action(combo)


@lru_cache(maxsize=1 << 16)
def _action(combo: Combo) -> list[Any]:
    if combo.type == ComboType.FOUR_KINGS:
        return ["Bomb", JOKER_BOMB_RANK, tokens(combo.cards)]
    return [combo.type.record_name, rank_name(combo.rank), tokens(combo.cards)]


def action_list(
    hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset = COMPETITION
) -> tuple[list[list[Any]], list[Combo | None]]:
    """The ``actionList`` of the seat to act and the plays its entries stand for.

    Every legal play of the engine (``engine.moves.legal_plays``: one entry per distinct
    card choice and reading; leading: singles first, weakest first), with PASS first when
    following. The second list holds the engine's play for each index (``None`` = PASS).
    """
    plays = legal_options(hand, level, to_beat, rules)
    return [action_of(p) for p in plays], plays


_PASS_JSON = json.dumps(PASS, separators=(",", ":"))
#: the JSON text of every play met so far (``None``: PASS): actionList entries come back act
#: after act, and a new one is built from cached pieces (:func:`_new_text`)
_TEXTS: dict[Combo | None, str] = {None: _PASS_JSON}
_TEXTS_MAX = 1 << 18


def action_json(combo: Combo | None) -> str:
    """The action of a play as compact JSON text (cached, like :func:`action_of`)."""
    return _TEXTS.get(combo) or _new_text(combo)


@cache
def _head(ctype: ComboType, rank: int) -> str:
    """``["Type","rank",[`` of an action (the joker bomb's rank is ``JOKER``)."""
    if ctype == ComboType.FOUR_KINGS:
        return f'["Bomb","{JOKER_BOMB_RANK}",['
    return f'["{ctype.record_name}","{rank_name(rank)}",['


@cache
def _field_json(key: int) -> str:
    """The quoted tokens of one 12-bit rank field (``key`` = rank << 12 | field), each
    followed by a comma; jokers for ``key`` >= 13 << 12."""
    if key >> 12 == 13:
        return '"SB",' * (key & 7) + '"HR",' * ((key >> 3) & 7)
    return "".join(f'"{t}",' for t in _field_tokens(key >> 12, key & 0xFFF))


def _new_text(combo: Combo | None) -> str:
    if combo is None:
        return _PASS_JSON
    cards = combo.cards
    parts = [_head(combo.type, combo.rank)]
    while cards:  # one turn a rank held, lowest first
        rank = ((cards & -cards).bit_length() - 1) // 12
        field = cards >> 12 * rank & 0xFFF
        parts.append(_field_json(rank << 12 | field))
        cards ^= field << 12 * rank
    text = "".join(parts)[:-1] + "]]"  # tokens are plain ASCII: no escaping to do
    if len(_TEXTS) >= _TEXTS_MAX:
        _TEXTS.clear()
        _TEXTS[None] = _PASS_JSON
    _TEXTS[combo] = text
    return text


def act_text(message: dict[str, Any] | str, plays: Sequence[Combo | None],
             listed: str | None = None) -> str:
    """An ``act`` message as JSON text: ``message``'s fields (or their compact JSON text),
    then ``actionList`` (the actions of ``plays``, encoded once per play and cached, or
    ``listed``, their text from :func:`act_options`) and ``indexRange``."""
    head = message if isinstance(message, str) else dumps(message)
    if listed is None:
        get = _TEXTS.get
        listed = ",".join([get(p) or _new_text(p) for p in plays])
    return f'{head[:-1]},"actionList":[{listed}],"indexRange":{len(plays) - 1}}}'


class Options(Sequence[Combo | None]):
    """The legal options of the seat to act kept packed by the compiled core: PASS
    (``None``) first when following, then the plays of a ``PlayList``; a ``Combo`` is made
    only for the item asked for (the one played)."""

    __slots__ = ("_plays", "_shift")

    def __init__(self, plays: Sequence[Combo], following: bool) -> None:
        self._plays = plays
        self._shift = 1 if following else 0

    def __len__(self) -> int:
        return len(self._plays) + self._shift

    @overload
    def __getitem__(self, i: int) -> Combo | None: ...

    @overload
    def __getitem__(self, i: slice) -> list[Combo | None]: ...

    def __getitem__(self, i: int | slice) -> Combo | None | list[Combo | None]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("option index out of range")
        if self._shift and i == 0:
            return None
        return self._plays[i - self._shift]


def py_act_options(
    hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset = COMPETITION
) -> tuple[Sequence[Combo | None], str]:
    """:func:`legal_options` and the JSON text of their ``actionList`` entries joined by
    commas (what :func:`act_text` writes between the brackets)."""
    options = legal_options(hand, level, to_beat, rules)
    get = _TEXTS.get
    return options, ",".join([get(p) or _new_text(p) for p in options])


def c_act_options(
    hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset = COMPETITION
) -> tuple[Sequence[Combo | None], str]:
    """:func:`py_act_options` in the compiled core: the text written from its packed plays,
    byte for byte as :func:`action_json` does, and no ``Combo`` made until one is asked
    for (:class:`Options`)."""
    plays, text = PLAYERS.action_list(hand, level, to_beat, rules)
    return Options(plays, to_beat is not None), text


#: bound once, to the implementation engine.core chose
act_options = c_act_options if CHOSEN else py_act_options


def legal_options(
    hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset = COMPETITION
) -> list[Combo | None]:
    """The engine's side of :func:`action_list`: PASS (``None``) first when following, then
    every legal play."""
    plays: list[Combo | None] = [None] if to_beat is not None else []
    plays.extend(legal_plays(hand, level, to_beat, rules))
    return plays


#: each card token's bit in ``Cards``
_TOKEN_BITS = {tok: 1 << (3 * kind) for tok, kind in TOKEN_KINDS.items()}


#: what :func:`cards_of` reads when its caller does not say: cards
CARDS = Part("cards", "arena.proto.what.cards")
_ACTION_CARDS = Part("action cards", "arena.proto.what.action_cards")


def cards_of(items: Any, what: str | Part = CARDS) -> Cards:
    """Parse a list of card tokens into ``Cards``; ``what`` names them in an error (a
    message's field, ``handCards``, or words with a key of their own)."""
    if not isinstance(items, list):
        raise ProtocolError(f"{what}: expected a list of card tokens, got {_shown(items)}",
                            "arena.proto.not_list", what=what, got=_shown(items))
    try:
        return sum(map(_TOKEN_BITS.__getitem__, items))  # every token known: the fast way
    except (KeyError, TypeError):
        pass  # the loop below names the bad token
    total = 0
    for tok in items:
        kind = TOKEN_KINDS.get(tok) if isinstance(tok, str) else None
        if kind is None:
            raise ProtocolError(f"{what}: {_shown(tok)} is not a card (S5, HT, SB, HR, ...)",
                                "arena.proto.not_card", what=what, token=_shown(tok))
        total += 1 << (3 * kind)
    return total


def is_no_action(action: Any) -> bool:
    """True for ``[null, null, null]``, ``null`` (J dialect) or an empty list."""
    return action is None or (isinstance(action, list) and all(a is None for a in action))


def parse_action(action: Any, level: int, rules: Ruleset = COMPETITION) -> Combo | None:
    """The engine's play of a protocol action (``None`` for PASS); checks the reading."""
    if not isinstance(action, list) or len(action) != 3:
        raise ProtocolError(f"an action is [type, rank, cards], not {_shown(action)}",
                            "arena.proto.action_shape", action=_shown(action))
    kind, rank, cards = action
    if kind == "PASS":
        return None
    if not isinstance(kind, str) or not isinstance(rank, str):
        raise ProtocolError(f"an action's type and rank are strings: {_shown(action)}",
                            "arena.proto.action_strings", action=_shown(action))
    held = cards_of(cards, _ACTION_CARDS)
    try:
        if rank.upper() == JOKER_BOMB_RANK or kind == "FourKings":
            ctype, r = ComboType.FOUR_KINGS, SMALL_JOKER
        else:
            ctype, r = ComboType.from_name(kind), parse_rank(rank)
        return read_declared(held, level, ctype, r, rules)
    except InvalidComboError as exc:  # the engine's reason, worded by its key (``from``)
        raise ProtocolError(f"action {_shown(action)} is not a play: {exc}",
                            "arena.proto.not_a_play", action=_shown(action), why=str(exc)) from exc
    except GuandanError as exc:
        raise ProtocolError(f"action {_shown(action)}: {exc}", "arena.proto.action",
                            action=_shown(action), why=str(exc)) from exc


def parse_reply(text: str | bytes, index_range: int) -> int:
    """The index of a client's reply ``{"actIndex": i}``; :class:`ProtocolError` otherwise."""
    if isinstance(text, str) and text.startswith('{"actIndex": ') and text[-1] == "}":
        digits = text[13:-1]  # as our agent and json.dumps write it: no JSON parser needed
        if digits.isascii() and digits.isdigit() and (digits[0] != "0" or digits == "0"):
            i = int(digits)
            if i <= index_range:
                return i
    try:
        obj = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"reply is not JSON: {_shown(text)}", "arena.proto.reply_json",
                            reply=_shown(text)) from None
    if not isinstance(obj, dict) or "actIndex" not in obj:
        raise ProtocolError(f'reply is not {{"actIndex": i}}: {_shown(text)}',
                            "arena.proto.reply_shape", reply=_shown(text))
    i = obj["actIndex"]
    if isinstance(i, bool) or not isinstance(i, int):
        raise ProtocolError(f"actIndex is not an integer: {_shown(i)}",
                            "arena.proto.index_type", index=_shown(i))
    if not 0 <= i <= index_range:
        raise ProtocolError(f"actIndex {i} is out of range 0..{index_range}",
                            "arena.proto.index_range", index=i, last=index_range)
    return i


def find_action(actions: Sequence[Any], combo: Combo | None) -> int:
    """The index of ``combo`` (``None``: PASS) in an ``actionList``; -1 when absent.

    Entries are matched by type, rank and cards (in any order), so any server's
    ``actionList`` works, not only ours (the joker bomb as ``Bomb JOKER`` or ``FourKings``).
    """
    if combo is None:
        for i, entry in enumerate(actions):
            if isinstance(entry, list) and entry and entry[0] == "PASS":
                return i
        return -1
    want = action_of(combo)
    names: list[tuple[Any, Any]] = [(want[0], want[1])]
    if combo.type == ComboType.FOUR_KINGS:
        names = [("Bomb", JOKER_BOMB_RANK), ("FourKings", "B")]
    want_cards = sorted(want[2])
    for i, entry in enumerate(actions):
        if (
            isinstance(entry, list)
            and len(entry) == 3
            and (entry[0], entry[1]) in names
            and isinstance(entry[2], list)
            and sorted(map(str, entry[2])) == want_cards
        ):
            return i
    return -1


def lowest_card_index(actions: Sequence[Any], level: int) -> int:
    """Among single-card ``tribute``/``back`` entries, the index of the lowest card in level
    order (the engine's default return), else 0."""
    best, best_i = None, 0
    for i, entry in enumerate(actions):
        try:
            kind = TOKEN_KINDS[entry[2][0]]
        except (TypeError, IndexError, KeyError):
            continue
        r = kind >> 2 if kind < 52 else (SMALL_JOKER if kind == 52 else BIG_JOKER)
        key = (level_value(r, level), kind & 3)
        if best is None or key < best:
            best, best_i = key, i
    return best_i


def dumps(message: dict[str, Any]) -> str:
    """A message as one compact JSON text frame."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _shown(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    if isinstance(value, bytes):
        text = repr(value[:limit])
    return text if len(text) <= limit else text[:limit] + "…"
