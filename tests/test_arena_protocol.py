"""The arena's protocol messages: actionList from the engine, tokens, levels, replies."""

from __future__ import annotations

import json

import pytest

from duplicate.arena.protocol import (
    ProtocolError,
    act_text,
    action_list,
    find_action,
    hand_tokens,
    level_int,
    level_of,
    level_str,
    parse_action,
    parse_reply,
)
from duplicate.dealing import generate_boards
from duplicate.simulate import simulation_key
from engine.cards import parse_cards
from engine.combo import Combo, ComboType
from engine.moves import legal_plays
from engine.reading import parse_play


def test_action_list_is_every_legal_play_pass_first_when_following() -> None:
    for board in generate_boards(simulation_key(b"\x51"), 3):
        hand = board.hands[0]
        lead, plays = action_list(hand, board.level, None)
        assert len(lead) == len(list(legal_plays(hand, board.level)))
        assert all(a[0] != "PASS" for a in lead)
        assert lead[0][0] == "Single"  # the weakest single: the default after a fault
        keys = {json.dumps([a[0], a[1], sorted(a[2])]) for a in lead}
        assert len(keys) == len(lead)  # one entry per distinct card choice and reading
        for action, combo in zip(lead, plays, strict=True):
            assert parse_action(action, board.level) == combo
            assert find_action(lead, combo) == lead.index(action)
        to_beat = parse_play("Single 5 S5", board.level)
        follow, plays = action_list(hand, board.level, to_beat)
        assert follow[0] == ["PASS", "PASS", "PASS"] and plays[0] is None
        assert len(follow) == 1 + len(list(legal_plays(hand, board.level, to_beat)))


def test_wild_hearts_as_themselves_and_the_joker_bomb() -> None:
    # at level 3 the heart 3 is wild: the bomb of tens holds it as H3
    hand = parse_cards("H3 ST CT DT SB SB HR HR")
    actions, _ = action_list(hand, 1, None)
    assert ["Bomb", "T", sorted(["H3", "ST", "CT", "DT"])] in [
        [a[0], a[1], sorted(a[2])] for a in actions]
    joker = ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]
    assert joker in actions
    combo = parse_action(joker, 1)
    assert combo is not None and combo.type == ComboType.FOUR_KINGS
    assert parse_action(["FourKings", "B", ["SB", "HR", "SB", "HR"]], 1) == combo


def test_tokens_levels_and_act_text() -> None:
    assert hand_tokens(parse_cards("HR S7 SB D2 SA H7 C3"), 5) == [
        "D2", "C3", "SA", "S7", "H7", "SB", "HR"]
    assert [level_int(0), level_str(8), level_of(14), level_of("T")] == [2, "T", 12, 8]
    with pytest.raises(ProtocolError):
        level_of("B")
    plays: list[Combo | None] = [None, parse_play("Pair 9 S9 D9", 0)]
    msg = json.loads(act_text({"type": "act", "stage": "play"}, plays))
    assert msg["actionList"] == [["PASS", "PASS", "PASS"], ["Pair", "9", ["S9", "D9"]]]
    assert msg["indexRange"] == 1 and msg["type"] == "act"


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("nope", "not JSON"),
        ('{"index": 1}', "actIndex"),
        ('{"actIndex": "1"}', "not an integer"),
        ('{"actIndex": true}', "not an integer"),
        ('{"actIndex": 7}', "out of range"),
        ('{"actIndex": -1}', "out of range"),
        ("[1]", "actIndex"),
        ('{"actIndex": 03}', "not JSON"),  # what the JSON parser refuses, the fast path too
        ('{"actIndex": \u00b2}', "not JSON"),
        ('{"actIndex": 1.0}', "not an integer"),
    ],
)
def test_bad_replies(reply: str, error: str) -> None:
    with pytest.raises(ProtocolError, match=error):
        parse_reply(reply, 3)
    assert parse_reply('{"actIndex": 3}', 3) == 3
    assert parse_reply('{"actIndex": 0}', 3) == parse_reply(b'{ "actIndex" : 0 }', 3) == 0


def test_bad_actions() -> None:
    for action in (["Single", "5"], ["Pair", "5", ["S5", "S6"]], ["Single", "5", ["X5"]],
                   "PASS", ["Straight", "3", ["S3"]]):
        with pytest.raises(ProtocolError):
            parse_action(action, 0)


def test_every_arena_message_has_both_languages_with_the_same_fields() -> None:
    """The arena's lines are the catalogue's domain ``arena``: each key in English and
    in Chinese (check_catalogue compares their fields), and the helpers read them."""
    from duplicate.arena.messages import both, text
    from duplicate.i18n import check_catalogue, messages

    keys = [k for k in messages() if k.startswith("arena.")]
    assert len(keys) >= 15
    assert [p for p in check_catalogue() if p.startswith("arena.")] == []
    for key in keys:
        zh = messages()[key]["zh"].forms[0]
        assert any("\u4e00" <= ch <= "\u9fff" for ch in zh), key
    assert text("records", "zh", path="x.gdn") == "牌谱已写入 x.gdn"
    assert both("abandoned", why="w") == "match abandoned: w / 比赛中止：w"


def test_client_ids_from_urls_and_agents_from_ids() -> None:
    from duplicate.arena.seating import ClientPath, agent_of, parse_path

    assert parse_path("/game/client1") == ClientPath("client1", False)
    assert parse_path("/game/gd/client0") == ClientPath("client0", False)  # online platform
    assert parse_path("/game/mine-1?notices=fault") == ClientPath("mine-1", True)
    assert parse_path("/game/mine-1?notices=other") == ClientPath("mine-1", False)
    for bad in ("/lobby", "/game/", "/game/a%0Ab", "/game/" + "x" * 65, "/game/a/b"):
        assert not isinstance(parse_path(bad), ClientPath), bad  # the reason refused
    assert agent_of("mine-1", ["mine", "theirs"]) == "mine"
    assert agent_of("mine", ["mine", "theirs"]) == "mine"
    assert agent_of("bot2-1", ["bot", "bot2"]) == "bot2"  # the longest name that fits
    assert agent_of("bot-1", ["bot", "bot2"]) == "bot"
    assert agent_of("client1", ["mine", "theirs"]) is None
    assert agent_of("mine1", ["mine", "theirs"]) is None  # a name, then '-'
