"""The arena's text from the compiled core is the Python's, byte for byte.

* ``act_options``: at every action of random deals (all 13 levels, both rule sets that
  change readings), the native ``actionList`` text and options equal the pure-Python ones.
* ``native_index``: at every ``act play`` of heuristic duplicate matches, the agent's
  native answer is the index the Python path (``split_act`` + ``choose``) gives; on
  thousands of corrupted messages it either declines (-1) or agrees, and never crashes.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from helpers.implementations import PY, C

from duplicate.arena.agent import AgentStats, choose, split_act
from duplicate.arena.client import SilentClient
from duplicate.arena.duplicate_match import play_duplicate_match
from duplicate.arena.protocol import act_text, legal_options
from duplicate.arena.server import Limits, Table
from duplicate.dealing import LevelSchedule, generate_boards
from duplicate.policies import make_player
from duplicate.simulate import simulation_key
from engine import bulk, core
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

RULES = [COMPETITION, Ruleset(joker_pair_in_full_house=True)]


def python_text(hand: int, level: int, to_beat: Any, rules: Ruleset) -> tuple[list[Any], str]:
    """The options and their text as the Python writes them, twice: the reference
    ``act_options`` and the message's own writer (``act_text``) must agree."""
    options = legal_options(hand, level, to_beat, rules)
    text = act_text("{}", options)  # '{,"actionList":[...],"indexRange":n}'
    text = text[len('{,"actionList":['):text.rindex('],"indexRange":')]
    ref_options, ref_text = PY.act_options(hand, level, to_beat, rules)
    assert (list(ref_options), ref_text) == (options, text)
    return options, text


@pytest.mark.parametrize("seed", range(26))
def test_action_list_text_is_the_pythons_at_every_action(seed: int) -> None:
    rules = RULES[seed % 2]
    level = seed % 13
    hands, log, _, _ = bulk.random_deal_log(seed, level, rules)
    deal = Deal(hands, level, Seat.N, rules)
    for entry in log:
        seat = deal.turn
        assert seat is not None
        hand, to_beat = deal.hand(seat), deal.to_beat
        options, text = C.act_options(hand, level, to_beat, rules)
        want_options, want_text = python_text(hand, level, to_beat, rules)
        assert text == want_text
        assert list(options) == want_options and len(options) == len(want_options)
        assert json.loads(f"[{text}]")  # and it is JSON
        if entry is None:
            deal.pass_()
        else:
            deal.play(entry)


def test_options_index_like_a_list() -> None:
    deal = Deal(bulk.random_deal_log(3, 5)[0], 5, Seat.N)
    deal.play(next(iter(deal.legal_plays())))
    options, _ = C.act_options(deal.hand(deal.turn), 5, deal.to_beat)  # type: ignore[arg-type]
    want = legal_options(deal.hand(deal.turn), 5, deal.to_beat)  # type: ignore[arg-type]
    assert options[0] is None and options[-1] == want[-1] and options[1:3] == want[1:3]
    with pytest.raises(IndexError):
        options[len(want)]




def python_answer(data: bytes, pos: int) -> int | str:
    """What the agent's Python path answers (as arena.agent._session reads a message)."""
    player, stats = make_player("heuristic", "0"), AgentStats()
    try:
        split = split_act(data)
        if split is not None:
            return choose(player, split[0], pos, stats, split[1])
        msg = json.loads(data)
        if isinstance(msg, dict) and msg.get("type") == "act":
            return choose(player, msg, pos, stats)
        return "no answer"
    except Exception as exc:  # noqa: BLE001 - compared, not hidden
        return f"raises {type(exc).__name__}"


class _CheckingTable(Table):
    """Every act is answered by both agent paths, which must agree; the messages are kept."""

    acts: list[tuple[bytes, int]]

    async def ask(self, pos: int, message: Any, limit: float, index_range: int | None = None,
                  fallback: Any = None) -> int:
        data = message.encode()
        self.acts.append((data, pos))
        fast = C.native_index(make_player("heuristic", "0"), data, pos)
        assert fast >= 0, data[:200]
        assert python_answer(data, pos) == fast
        return fast


@pytest.fixture(scope="module")
def acts() -> list[tuple[bytes, int]]:
    table = _CheckingTable([SilentClient(p) for p in range(4)], Limits())  # type: ignore[list-item]
    table.acts = []
    boards = list(generate_boards(simulation_key(b"\x07"), 6, LevelSchedule.parse("cycle")))
    asyncio.run(play_duplicate_match(table, boards, ("a", "b")))
    assert len(table.acts) > 500
    return table.acts


def test_native_agent_answers_every_act_as_the_python_path(acts: list[tuple[bytes, int]]) -> None:
    assert acts  # the fixture's table compared every act


_BYTES = b'",[]{}:09-1 \\nulSHTBRJOKEPA\xff\xc3'


def test_corrupted_acts_are_declined_or_answered_alike(acts: list[tuple[bytes, int]]) -> None:
    rng = random.Random(5)
    player = make_player("heuristic", "0")
    declined = 0
    for n in range(4000):
        data, pos = acts[rng.randrange(len(acts))]
        buf = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(buf))
            how = rng.randrange(3)
            if how == 0:
                buf[at] = _BYTES[rng.randrange(len(_BYTES))]
            elif how == 1:
                del buf[at:at + rng.randint(1, 8)]
            else:
                buf[at:at] = buf[rng.randrange(len(buf)):][:rng.randint(1, 12)]
        corrupted = bytes(buf)
        fast = C.native_index(player, corrupted, (pos + n) % 4 if n % 7 == 0 else pos)
        if fast < 0:
            declined += 1
            continue
        assert python_answer(corrupted, (pos + n) % 4 if n % 7 == 0 else pos) == fast, corrupted
    assert 500 < declined < 3500, declined


def test_other_writings_take_the_python_path(acts: list[tuple[bytes, int]]) -> None:
    player = make_player("heuristic", "0")
    data, pos = acts[0]
    spaced = json.dumps(json.loads(data)).encode()  # json.dumps' spacing
    assert C.native_index(player, spaced, pos) == -1
    assert C.native_index(make_player("random", "0"), data, pos) == -1
    assert PY.native_index(player, data, pos) == -1


_GREATER = [
    b'["Bomb","JOKER",["SB","SB","HR","HR"]]',  # the joker bomb as the arena writes it
    b'["FourKings","B",["SB","SB","HR","HR"]]',  # as records write it: the Python path reads it
    b'["StraightFlush","T",["HT","HJ","HQ","HK","HA"]]',
    b'["Single","R",["HR"]]',
    b'["Pair","B",["SB","SB"]]',
    b'["Single","2",["S3"]]',  # not a reading of its cards
    b'["PASS","PASS","PASS"]',
    b"[null,null,null]",
    b"null",
    b"[]",
]


def test_every_play_to_beat_and_its_seat_is_read_alike(acts: list[tuple[bytes, int]]) -> None:
    player = make_player("heuristic", "0")
    answered = 0
    for data, pos in acts[::25]:
        head, _, tail = data.partition(b',"greaterPos":')
        _, _, rest = tail.partition(b',"actionList":[')
        for by in (-1, 0, 1, 2, 3):
            for greater in _GREATER:
                msg = (head + b',"greaterPos":' + str(by).encode() + b',"greaterAction":'
                       + greater + b',"actionList":[' + rest)
                fast = C.native_index(player, msg, pos)
                if fast >= 0:
                    answered += 1
                    assert python_answer(msg, pos) == fast, msg
    assert answered > 100
