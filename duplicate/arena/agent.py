"""One of our bots as a protocol client: ``guandan agent --url ws://…/game/client1``.

It speaks dialect C (PROTOCOL.md) to any server of it, ours or the competition's: it
reads ``myPos`` from ``beginning``; on ``act play`` it builds the bot's
:class:`~duplicate.bots.View` from the message alone (``handCards``, ``curRank``, the
trick's ``greaterPos``/``greaterAction``, every seat's ``rest``), asks the bot, and answers
the index of that play in ``actionList`` (matched by type, rank and cards, so any server's
ordering works). On ``act tribute`` it pays the first card offered (all are the highest),
on ``act back`` it returns the lowest card in level order (the engine's default).
The heuristic bot's answer to an ``act play`` written as the arena writes it is read and
chosen in the compiled core when it is in use (:func:`native_index`: the same index).
Positions stand for seats: 0..3 are N E S W, which keeps partner and next player right.
The search policy also reads the notices (:class:`Public`: cards played, finishing order,
tribute and return cards), all public, to sample the hidden hands.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import InvalidHandshake, InvalidMessage, InvalidStatus, InvalidURI

from duplicate.arena.messages import said
from duplicate.arena.protocol import (
    ProtocolError,
    action_json,
    cards_of,
    find_action,
    is_no_action,
    level_of,
    lowest_card_index,
    parse_action,
)
from duplicate.arena.wsclient import ClosedInHandshake, WSClient
from duplicate.bots import HeuristicPlayer, Player, View
from duplicate.errors import PhrasedError
from duplicate.i18n import Phrase, engine_phrase, os_reason, phrase
from duplicate.native import CHOSEN, PLAYERS
from duplicate.policies import make_player
from engine.cards import KIND_BIT, Cards, count, is_subset, iter_kinds, size
from engine.combo import Combo
from engine.ruleset import COMPETITION
from engine.seat import Seat

__all__ = ["AgentStats", "Public", "c_native_index", "choose", "native_index", "play_agent",
           "py_native_index", "run_agent", "split_act"]

log = logging.getLogger("arena.agent")


class AgentConnectionError(PhrasedError, ConnectionError):
    """The agent cannot reach the server, or the server closed the connection: a
    catalogue phrase (``str()`` English, :meth:`text` another language)."""

#: how the arena writes a play notice (other servers' spacing just gets parsed)
_PLAY_NOTICE = b'{"type":"notify","stage":"play"'
#: how the arena writes an ``act play``: its fields, then ``actionList``, then ``indexRange``
_ACT_PLAY = b'{"type":"act","stage":"play",'
_ACTION_LIST = b',"actionList":['
_INDEX_RANGE = b'],"indexRange":'


@dataclass(slots=True)
class AgentStats:
    """What an agent saw: messages, actions asked, episodes, games, unmatched choices."""

    messages: int = 0
    acts: int = 0
    episodes: int = 0
    games: int = 0
    fallbacks: int = 0
    reconnects: int = 0


@dataclass(slots=True)
class Public:
    """What the notices of a deal made public, for a policy that reads more than the
    ``act`` message (the search): the cards played, the finishing order, and the cards
    each position is known to hold (a tribute or return card it has not played)."""

    played: Cards = 0
    finish: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=lambda: [27, 27, 27, 27])
    known: list[Cards] = field(default_factory=lambda: [0, 0, 0, 0])

    def notice(self, msg: dict[str, Any]) -> None:
        """Take in one ``notify`` message (``beginning``, ``tribute``, ``back``, ``play``)."""
        stage = msg.get("stage")
        try:
            if stage == "beginning":
                self.played, self.finish = 0, []
                self.left, self.known = [27, 27, 27, 27], [0, 0, 0, 0]
            elif stage in ("tribute", "back"):
                for giver, taker, card in msg.get("result") or []:
                    c = cards_of([card])
                    if is_subset(c, self.known[giver]):
                        self.known[giver] -= c
                    self.known[taker] += c
            elif stage == "play":
                action = msg.get("curAction")
                seat = msg.get("curPos")
                if (not isinstance(seat, int) or not 0 <= seat <= 3
                        or not isinstance(action, list) or is_no_action(action)
                        or action[0] == "PASS"):
                    return
                c = cards_of(action[2])
                self.played += c
                self.known[seat] -= min_cards(c, self.known[seat])
                self.left[seat] -= size(c)
                if self.left[seat] <= 0 and seat not in self.finish:
                    self.finish.append(seat)
        except (ProtocolError, TypeError, ValueError, IndexError, KeyError):
            log.warning("%s", said("agent.unread_notice", stage=stage))


def _handshake_said(exc: Exception) -> Phrase | str:
    """Why the opening handshake failed, as the catalogue words it (English: as
    ``websockets`` says it); an error it does not name as it is."""
    if isinstance(exc, ClosedInHandshake):
        return phrase("arena.agent.closed_in_handshake")
    if isinstance(exc, InvalidStatus):
        return phrase("arena.agent.rejected", status=exc.response.status_code)
    if isinstance(exc, InvalidMessage):
        return phrase("arena.agent.bad_response")
    return str(exc)

def min_cards(a: Cards, b: Cards) -> Cards:
    """The cards ``a`` and ``b`` have in common (as multisets)."""
    out = 0
    for k in set(iter_kinds(a)):
        out += min(count(a, k), count(b, k)) * KIND_BIT[k]
    return out


def _view(msg: dict[str, Any], pos: int, public: Public | None = None) -> View:
    """The bot's view from an ``act play`` message (and the notices before it)."""
    level = level_of(msg["curRank"])
    hand = cards_of(msg["handCards"], "handCards")
    counts = [0, 0, 0, 0]
    info = msg.get("publicInfo") or []
    for p in range(4):
        try:
            counts[p] = int(info[p]["rest"])
        except (IndexError, KeyError, TypeError, ValueError):
            counts[p] = 27
    counts[pos] = size(hand)
    greater_pos = msg.get("greaterPos", -1)
    greater = msg.get("greaterAction")
    to_beat = None
    by = None
    if (
        isinstance(greater_pos, int) and 0 <= greater_pos <= 3 and greater_pos != pos
        and not is_no_action(greater) and not (isinstance(greater, list) and greater[0] == "PASS")
    ):
        to_beat = parse_action(greater, level)
        by = Seat(greater_pos)
    four = (counts[0], counts[1], counts[2], counts[3])
    if public is None:
        return View(Seat(pos), hand, level, to_beat, by, four)
    played = public.played if size(public.played) + sum(four) == 108 else None
    k = public.known
    return View(Seat(pos), hand, level, to_beat, by, four, played=played,
                finish=tuple(Seat(s) for s in public.finish),
                known=(k[0], k[1], k[2], k[3]) if any(k) else None)


def split_act(data: bytes) -> tuple[dict[str, Any], bytes] | None:
    """An ``act play`` written as the arena writes it: its fields but ``actionList``
    (parsed) and ``actionList``'s JSON text, which :func:`choose` searches instead of
    parsing (the list is most of the message and was half the agent's JSON work); ``None``
    for any other message or writing (parsed whole)."""
    if not data.startswith(_ACT_PLAY):
        return None
    cut = data.find(_ACTION_LIST)
    end = data.rfind(_INDEX_RANGE)
    if cut < 0 or end < cut:
        return None
    try:
        msg = json.loads(data[:cut].decode() + "}")  # decoded first: json.loads(bytes) detects the encoding in Python
    except ValueError:
        return None
    return (msg, data[cut + len(_ACTION_LIST) - 1:end + 1]) if isinstance(msg, dict) else None


def _index_in(listed: bytes, combo: Combo | None) -> int:
    """The index of ``combo`` in the JSON text of an arena's ``actionList`` (-1: absent).
    Its entries are written as :func:`duplicate.arena.protocol.action_json` writes them, separated
    by ``],[`` (which nothing inside an entry contains)."""
    at = listed.find(action_json(combo).encode())
    if at >= 0:
        return listed.count(b"],[", 0, at + 1)  # the last one ends with the entry's "["
    try:
        actions = json.loads(listed)
    except ValueError:
        return -1
    return find_action(actions, combo) if isinstance(actions, list) else -1


def c_native_index(player: Player, data: bytes, pos: int) -> int:
    """The heuristic bot's index for an ``act play`` written as the arena writes it, read
    and chosen in the compiled core (no Python object per field or per play): the index
    :func:`choose` would give. -1 when it is not that case (another policy, another
    server's writing, a play not found): the Python path answers then."""
    if type(player) is not HeuristicPlayer:
        return -1
    return PLAYERS.agent_index(data, pos, COMPETITION)  # type: ignore[no-any-return]


def py_native_index(player: Player, data: bytes, pos: int) -> int:
    """-1: with the pure-Python core the Python path answers every ``act play``."""
    del player, data, pos
    return -1


#: bound once, to the implementation engine.core chose
native_index = c_native_index if CHOSEN else py_native_index


def choose(player: Player, msg: dict[str, Any], pos: int, stats: AgentStats,
           listed: bytes | None = None, public: Public | None = None) -> int:
    """The index to answer an ``act`` message with (``listed``: the JSON text of its
    ``actionList`` when ``msg`` comes from :func:`split_act`; ``public``: what the
    notices made public, for the search)."""
    actions = msg.get("actionList") or []
    stage = msg.get("stage")
    if stage == "tribute":
        return 0
    if stage == "back":
        try:
            return lowest_card_index(actions, level_of(msg["curRank"]))
        except (KeyError, ProtocolError):
            return 0
    try:
        combo = player.act(_view(msg, pos, public))
    except (ProtocolError, KeyError, ValueError) as exc:
        why = engine_phrase(exc) if isinstance(exc, ProtocolError) else str(exc)
        log.warning("%s", said("agent.unread_act", why=why))
        stats.fallbacks += 1
        return 0
    index = find_action(actions, combo) if listed is None else _index_in(listed, combo)
    if index < 0:
        stats.fallbacks += 1
        log.warning("%s", said("agent.not_listed"))
        return 0
    return index


#: close codes after which an agent asked to reconnect does so (dropped by the arena
#: after timeouts, or a connection lost)
RECONNECT_CODES = (4000, 1006)


def play_agent(
    url: str, policy: str = "heuristic", seed: str = "0", connect_timeout: float = 10.0,
    reconnect: int = 0,
) -> AgentStats:
    """Connect to ``url`` and play until the server closes the connection (blocking: one
    socket on websockets' Sans-I/O layer, :mod:`duplicate.arena.wsclient`, no event loop). Dropped
    by the arena (close 4000) or cut off before the game is over, it connects again with
    the same URL, up to ``reconnect`` times (the arena gives it its seat back)."""
    player = make_player(policy, seed)
    stats = AgentStats()
    while True:
        code, reason = _session(url, player, stats, connect_timeout)
        if code in (None, 1000, 1001):
            return stats
        if code in RECONNECT_CODES and stats.games == 0 and stats.reconnects < reconnect:
            stats.reconnects += 1
            log.warning("%s", said("agent.again", url=url, code=code, reason=reason))
            time.sleep(0.1)
            continue
        raise AgentConnectionError(phrase("rest.agent.closed", url=url, code=code,
                                          reason=reason))


def _session(url: str, player: Player, stats: AgentStats,
             connect_timeout: float) -> tuple[int | None, str]:
    """One connection, played until it closes: its close code and reason."""
    pos = 0
    # the search reads the notices (cards played, finishing order, tribute cards); the
    # other bots need only their act messages
    public = Public() if player.name == "search" else None
    try:
        conn = WSClient(url, max_size=16 * 1024 * 1024)
        conn.open(connect_timeout)
    except (OSError, InvalidHandshake, InvalidURI) as exc:
        why = os_reason(exc) if isinstance(exc, OSError) else _handshake_said(exc)
        raise AgentConnectionError(phrase("rest.agent.no_connect", url=url, why=why)) from None
    for data in conn.messages():
        stats.messages += 1
        if data.startswith(_PLAY_NOTICE) and public is None:
            continue  # the most frequent message; the bot reads its act messages only
        if public is None:
            index = native_index(player, data, pos)
            if index >= 0:
                stats.acts += 1
                conn.send_text(f'{{"actIndex": {index}}}')
                continue
        split = split_act(data)
        if split is not None:
            stats.acts += 1
            index = choose(player, split[0], pos, stats, split[1], public)
            conn.send_text(f'{{"actIndex": {index}}}')
            continue
        try:
            msg = json.loads(data)
        except ValueError:
            log.warning("%s", said("agent.not_json"))
            continue
        if not isinstance(msg, dict):
            continue
        stage = msg.get("stage")
        if public is not None and msg.get("type") == "notify":
            public.notice(msg)
        if msg.get("type") == "act":
            stats.acts += 1
            index = choose(player, msg, pos, stats, public=public)
            conn.send_text(f'{{"actIndex": {index}}}')
        elif stage == "beginning":
            mp = msg.get("myPos")
            pos = mp if isinstance(mp, int) and 0 <= mp <= 3 else pos
        elif stage == "episodeOver":
            stats.episodes += 1
        elif stage == "gameResult":
            stats.games += 1
    code = conn.close_code
    return code, conn.close_reason or ("lost" if code == 1006 else "")


async def run_agent(
    url: str, policy: str = "heuristic", seed: str = "0", connect_timeout: float = 10.0,
    reconnect: int = 0,
) -> AgentStats:
    """:func:`play_agent` in a worker thread, for callers inside an event loop."""
    return await asyncio.to_thread(play_agent, url, policy, seed, connect_timeout, reconnect)
