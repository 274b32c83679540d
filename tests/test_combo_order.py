"""Comparison of combinations (RULES.md §4), independent of reading."""

from __future__ import annotations

from engine.cards import parse_cards, parse_level, parse_rank
from engine.combo import Combo, ComboType

T = ComboType
L7 = parse_level("7")


def c(t: ComboType, rank: str, cards: str) -> Combo:
    return Combo(t, parse_rank(rank), parse_cards(cards))


def test_joker_bomb_beats_everything() -> None:
    fk = c(T.FOUR_KINGS, "B", "SB SB HR HR")
    assert fk.beats(c(T.BOMB, "A", "SA SA HA HA CA CA DA DA H7 H7"), L7)
    assert fk.beats(c(T.STRAIGHT_FLUSH, "T", "ST SJ SQ SK SA"), L7)


def test_bomb_sizes_and_straight_flush() -> None:
    b4 = c(T.BOMB, "A", "SA HA CA DA")
    b5 = c(T.BOMB, "2", "S2 H2 C2 D2 S2")
    b6 = c(T.BOMB, "2", "S2 H2 C2 D2 S2 H2")
    sf = c(T.STRAIGHT_FLUSH, "A", "SA S2 S3 S4 S5")
    assert b5.beats(b4, L7) and not b4.beats(b5, L7)
    assert sf.beats(b5, L7) and sf.beats(b4, L7)
    assert b6.beats(sf, L7) and not sf.beats(b6, L7)
    level_bomb = c(T.BOMB, "7", "S7 S7 C7 D7")
    assert level_bomb.beats(b4, L7)  # level rank above A at equal size


def test_equal_never_beats_and_types_must_match() -> None:
    s1 = c(T.STRAIGHT, "3", "S3 H4 C5 D6 H8")
    assert not s1.beats(s1, L7)
    assert not c(T.PAIR, "A", "SA HA").beats(c(T.SINGLE, "3", "S3"), L7)
    a_low = c(T.STRAIGHT, "A", "SA S2 H3 C4 D5")
    assert s1.beats(a_low, L7) and not a_low.beats(s1, L7)
    assert c(T.SINGLE, "7", "S7").beats(c(T.SINGLE, "A", "SA"), L7)
    assert c(T.SINGLE, "B", "SB").beats(c(T.SINGLE, "7", "S7"), L7)
