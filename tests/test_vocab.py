"""Guandan in words (duplicate.i18n.game): one card convention, Guandan's own vocabulary."""

from __future__ import annotations

from duplicate.i18n.game import (
    describe_play,
    faces_text,
    finish_text,
    hand_faces,
    level_text,
    play_faces,
    play_text,
    result_text,
    wild_use_text,
)
from engine.cards import parse_cards, parse_level
from engine.combo import Combo, ComboType
from engine.reading import choose_reading
from engine.seat import Seat
from engine.uses import card_uses

L2 = parse_level("2")


def test_ten_is_10_and_jokers_are_named() -> None:
    faces = hand_faces(parse_cards("ST HT SB HR"), parse_level("7"), "zh")
    assert [f.text for f in faces] == ["10♠", "10♥", "小王", "大王"]
    en = hand_faces(parse_cards("SB HR"), parse_level("7"), "en")
    assert [f.title for f in en] == ["Black Joker", "Red Joker"]
    assert level_text(parse_level("T"), "zh") == "打10"


def test_a_wild_heart_is_drawn_where_it_stands() -> None:
    # at level 2, the straight 2-3-4-5-6 with the wild H2 standing for the 6
    straight = Combo(ComboType.STRAIGHT, 0, parse_cards("S2 C3 D4 S5 H2"))
    faces = play_faces(straight, L2, "en")
    assert [f.text for f in faces] == ["2♠", "3♣", "4♦", "5♠", "2♥"]
    assert [f.wild for f in faces] == [False, False, False, False, True]
    assert faces[-1].stands_for == "6" and "wild" in faces[-1].classes()
    # a 3-4-5-6-7 with the wild heart as the 4: drawn second, not last
    mid = Combo(ComboType.STRAIGHT, 1, parse_cards("S3 H2 D5 S6 C7"))
    assert faces_text(play_faces(mid, L2, "en")) == "3♠ 2♥(=4) 5♦ 6♠ 7♣"


def test_plays_results_and_finishes_in_guandan_words() -> None:
    plate = Combo(ComboType.TWO_TRIPS, 8, parse_cards("ST CT DT SJ HJ CJ"))
    assert describe_play(plate, L2, "zh") == "钢板101010-JJJ"  # as seeds/000 write 333444
    assert describe_play(plate, L2, "en") == "plate 101010-JJJ"
    bomb = Combo(ComboType.BOMB, 7, parse_cards("S9 C9 D9 H9 S9"))
    assert describe_play(bomb, L2, "zh") == "五个9（炸弹）"
    kings = Combo(ComboType.FOUR_KINGS, 13, parse_cards("SB SB HR HR"))
    assert describe_play(kings, L2, "zh") == "天王炸"
    assert describe_play(None, L2, "zh") == "过"
    assert play_text(plate, L2, "zh").startswith("钢板101010-JJJ  10♠")
    assert result_text(-3, "zh") == "东西升3级（南北双下）"
    assert result_text(2, "en") == "N–S up 2"
    assert result_text(1, "en", ns="Dragons", ew="Tigers") == "Dragons up 1"
    order = (Seat.E, Seat.W, Seat.N, Seat.S)
    assert finish_text(order, "zh", double_down=True) == "头游东、二游西，南北双下"
    assert finish_text(order[:3], "en") == "1st out East, 2nd out West, 3rd out North"


def test_a_wild_heart_is_said_with_what_it_stood_for() -> None:

    straight = choose_reading(parse_cards("S2 C3 D4 S5 H2"), L2, None)
    assert straight is not None and straight.type == ComboType.STRAIGHT
    pair = Combo(ComboType.PAIR, L2, parse_cards("H2 S2"))
    wild_in_straight = [u for u in card_uses(straight, L2) if u.is_wild(L2)]
    wild_as_itself = [u for u in card_uses(pair, L2) if u.is_wild(L2)]
    assert [wild_use_text(u, L2, "zh") for u in wild_in_straight] == ["红桃2当6"]
    assert [wild_use_text(u, L2, "zh") for u in wild_as_itself] == ["红桃2当本身"]
    assert [wild_use_text(u, L2, "en") for u in wild_as_itself] == ["♥2 as itself"]
