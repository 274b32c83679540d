"""A Guandan AI protocol client written from ../shared/PROTOCOL.md alone, for the arena tests.

It shares no code with ``arena/``: it speaks dialect C over the ``websockets`` client,
checks that every server message has the fields PROTOCOL.md §4 gives it, answers each
``act`` with an index (a seeded random one by default, or per a ``mode`` that misbehaves
on purpose) and keeps what it saw: its position, its hands, every ``notify play`` and
``episodeOver``, and any ``fault`` notice.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

CARD_RANKS = "23456789TJQKA"
TYPES = {"Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight",
         "StraightFlush", "Bomb", "PASS", "tribute", "back"}


def is_card(tok: Any) -> bool:
    """A card token per PROTOCOL.md §2."""
    if tok in ("SB", "HR"):
        return True
    return isinstance(tok, str) and len(tok) == 2 and tok[0] in "SHCD" and tok[1] in CARD_RANKS


@dataclass
class Episode:
    """One episode as a client saw it."""

    pos: int
    hand: list[str]
    cur_rank: int
    plays: list[tuple[int, list[Any]]] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    rest: list[Any] = field(default_factory=list)


@dataclass
class Seen:
    """Everything one client saw."""

    episodes: list[Episode] = field(default_factory=list)
    acts: int = 0
    faults: list[dict[str, Any]] = field(default_factory=list)
    game_over: bool = False
    game_result: dict[str, Any] | None = None
    problems: list[str] = field(default_factory=list)
    closed_code: int | None = None


def check_act(msg: dict[str, Any], seen: Seen) -> None:
    """The fields of an ``act`` message (PROTOCOL.md §4)."""
    actions = msg.get("actionList")
    if not isinstance(actions, list) or not actions:
        seen.problems.append(f"act without actionList: {msg}")
        return
    if msg.get("indexRange") != len(actions) - 1:
        seen.problems.append("indexRange is not len(actionList) - 1")
    for a in actions:
        if not (isinstance(a, list) and len(a) == 3 and a[0] in TYPES):
            seen.problems.append(f"bad action {a}")
        elif a[0] != "PASS" and not all(is_card(c) for c in a[2]):
            seen.problems.append(f"bad cards in {a}")
    if msg.get("stage") == "play":
        leading = msg.get("greaterPos") == -1
        if leading == (actions[0][0] == "PASS"):
            seen.problems.append("PASS must come first exactly when following")
        if any(a[0] == "PASS" for a in actions[1:]):
            seen.problems.append("PASS after the first entry")
        for key in ("handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos",
                    "curAction", "greaterPos", "greaterAction"):
            if key not in msg:
                seen.problems.append(f"act play without {key}")
        if len(msg.get("publicInfo", [])) != 4:
            seen.problems.append("publicInfo is not 4 entries")
        keys = [json.dumps([a[0], a[1], sorted(a[2])]) for a in actions]
        if len(set(keys)) != len(keys):
            seen.problems.append("an actionList entry appears twice")


async def play_client(
    url: str,
    seed: int = 0,
    mode: str = "random",
    after: int = 0,
    connected: asyncio.Event | None = None,
) -> Seen:
    """Connect and play until the server closes. ``mode``: ``random`` (a random index),
    ``first`` (always 0), ``range`` (an index past indexRange from the ``after``-th act on),
    ``garbage`` (not JSON), ``silent`` (never answers), ``chatty`` (answers, and also
    sends a reply after every notify), ``drop`` (closes the socket at the first act after
    the ``after``-th that follows a play: mid-trick)."""
    rng = random.Random(seed)
    seen = Seen()
    episode: Episode | None = None
    async with connect(url, compression=None, ping_interval=None, max_size=2**24) as ws:
        if connected is not None:
            connected.set()
        try:
            async for text in ws:
                msg = json.loads(text)
                kind, stage = msg.get("type"), msg.get("stage")
                if kind == "act":
                    seen.acts += 1
                    check_act(msg, seen)
                    n = msg["indexRange"]
                    misbehave = seen.acts > after
                    if mode == "drop" and misbehave and msg.get("greaterPos", -1) != -1:
                        await ws.close()  # mid-trick: there is a play to beat
                        break
                    if mode == "silent" and misbehave:
                        continue
                    if mode == "garbage" and misbehave:
                        await ws.send("this is not JSON {")
                        continue
                    if mode == "range" and misbehave:
                        await ws.send(json.dumps({"actIndex": n + 5}))
                        continue
                    index = 0 if mode == "first" else rng.randint(0, n)
                    await ws.send(json.dumps({"actIndex": index}))
                elif stage == "beginning":
                    hand = msg["handCards"]
                    if len(hand) != 27 or not all(is_card(c) for c in hand):
                        seen.problems.append("beginning hand is not 27 cards")
                    if not isinstance(msg["curRank"], int):
                        seen.problems.append("beginning curRank is not an int")
                    episode = Episode(msg["myPos"], hand, msg["curRank"])
                    seen.episodes.append(episode)
                elif stage == "play" and kind == "notify":
                    if episode is None:
                        seen.problems.append("notify play before beginning")
                        continue
                    episode.plays.append((msg["curPos"], msg["curAction"]))
                    if mode == "chatty":
                        await ws.send(json.dumps({"actIndex": 0}))
                elif stage == "episodeOver":
                    if episode is None:
                        seen.problems.append("episodeOver before beginning")
                        continue
                    episode.order = msg["order"]
                    episode.rest = msg["restCards"]
                    if sorted(msg["order"]) != [0, 1, 2, 3]:
                        seen.problems.append(f"bad order {msg['order']}")
                elif stage == "fault":
                    seen.faults.append(msg)
                elif stage == "gameOver":
                    seen.game_over = True
                elif stage == "gameResult":
                    seen.game_result = msg
        except ConnectionClosed:
            pass
        seen.closed_code = ws.close_code
    return seen


async def play_four(url: str, modes: list[str] | None = None, seeds: list[int] | None = None,
                    after: int = 0, stagger: float = 0.05, prefix: str = "client") -> list[Seen]:
    """Four clients connecting in position order: each waits for the one before it to be
    connected (and a small pause, as the agents' launch scripts do)."""
    modes = modes or ["random"] * 4
    seeds = seeds or [1, 2, 3, 4]
    tasks = []
    for i in range(4):
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(
            play_client(f"{url}{prefix}{i + 1}", seeds[i], modes[i], after, ready)))
        await asyncio.wait_for(ready.wait(), 20)
        await asyncio.sleep(stagger)
    return list(await asyncio.gather(*tasks))
