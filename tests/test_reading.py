"""Readings of a set of cards (RULES.md §2–3), declared readings and the §5 choice.

Unit tests per combination type and per wild-card corner; the independent golden table
(``tests/test_golden_readings.py``) checks the same API from RULES.md alone.
"""

from __future__ import annotations

import pytest

from engine.cards import parse_cards, parse_level, parse_rank
from engine.combo import Combo, ComboType
from engine.errors import IllegalPlayError, InvalidCardError, InvalidComboError
from engine.reading import choose_reading, parse_play, read_declared, readings
from engine.ruleset import COMPETITION, Ruleset

T = ComboType


def keys(cards: str, level: str, rules: Ruleset = COMPETITION) -> set[str]:
    """The readings of ``cards`` at ``level`` as ``"Type rank"`` strings."""
    return {c.describe() for c in readings(parse_cards(cards), parse_level(level), rules)}


def combo(t: ComboType, rank: str, cards: str) -> Combo:
    return Combo(t, parse_rank(rank), parse_cards(cards))


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        # singles: naturals, jokers, the level card, a wild alone (§2: read as itself)
        ("S5", "7", {"Single 5"}),
        ("SB", "7", {"Single B"}),
        ("HR", "7", {"Single R"}),
        ("S7", "7", {"Single 7"}),
        ("H7", "7", {"Single 7"}),
        # pairs: a wild completes any non-joker pair; never a joker one (§3)
        ("S5 D5", "7", {"Pair 5"}),
        ("S5 H7", "7", {"Pair 5"}),
        ("H7 H7", "7", {"Pair 7"}),
        ("S7 H7", "7", {"Pair 7"}),
        ("SB SB", "7", {"Pair B"}),
        ("HR HR", "7", {"Pair R"}),
        ("SB HR", "7", set()),
        ("SB H7", "7", set()),
        ("S5 S6", "7", set()),
        # trips
        ("S9 C9 D9", "7", {"Trips 9"}),
        ("S9 H7 H7", "7", {"Trips 9"}),
        ("S7 H7 H7", "7", {"Trips 7"}),
        ("SB SB H7", "7", set()),
        ("S9 C9 D8", "7", set()),
    ],
)
def test_small_groups(cards: str, level: str, expected: set[str]) -> None:
    assert keys(cards, level) == expected


def test_empty_and_oversized_sets_are_no_combination() -> None:
    assert readings(0, 5) == []
    seven_straight = "S3 H4 C5 D6 S7 S8 S9"
    assert keys(seven_straight, "2") == set()
    assert keys("S3 S3 S4 S4 S5 S5 S6 S6", "2") == set()  # four pairs: no such type


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("S8 C8 D8 S4 D4", "2", {"ThreeWithTwo 8"}),
        ("S8 C8 H2 S4 D4", "2", {"ThreeWithTwo 8", "ThreeWithTwo 4"}),
        ("S8 C8 D8 H2 S4", "2", {"ThreeWithTwo 8"}),
        # the pair may be a joker pair (variant joker_pair_in_full_house, default on)
        ("SA CA DA SB SB", "7", {"ThreeWithTwo A"}),
        ("SA CA H7 HR HR", "7", {"ThreeWithTwo A"}),
        ("SA CA DA SB HR", "7", set()),
        # triple and pair of one rank is a bomb, not a full house (§3)
        ("S5 S5 C5 D5 D5", "7", {"Bomb 5"}),
        # ...but with wilds that can be themselves (a pair of 7s), both readings
        ("S5 S5 C5 H7 H7", "7", {"ThreeWithTwo 5", "Bomb 5"}),
        ("S5 S5 C5 D5 H7", "7", {"Bomb 5"}),
    ],
)
def test_three_with_two(cards: str, level: str, expected: set[str]) -> None:
    assert keys(cards, level) == expected


def test_joker_pair_variant_off() -> None:
    off = Ruleset(joker_pair_in_full_house=False)
    assert keys("SA CA DA SB SB", "7", off) == set()
    assert keys("SA CA DA SK SK", "7", off) == {"ThreeWithTwo A"}


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("SA C2 D3 S4 H5", "7", {"Straight A"}),  # A low: the lowest straight
        ("ST CJ DQ SK HA", "7", {"Straight T"}),  # A high: the highest
        ("SQ CK DA S2 H3", "7", set()),  # no wrapping (§2)
        ("SK CA D2 S3 H4", "7", set()),
        ("S5 C6 D7 S8 H9", "7", {"Straight 5"}),  # level rank at its natural place
        ("H2 S3 C4 D5 S6", "2", {"Straight 2", "Straight 3"}),  # §5's example
        ("S3 C4 D5 H7 H7", "7", {"Straight A", "Straight 2", "Straight 3"}),
        ("SB C4 D5 S6 S7", "7", set()),  # jokers never join a sequence
        ("S3 C4 D5 S6 S6", "7", set()),
    ],
)
def test_straights(cards: str, level: str, expected: set[str]) -> None:
    assert keys(cards, level) == expected


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("H3 H4 H5 H6 H7", "2", {"Straight 3", "StraightFlush 3"}),
        # five hearts with the wild playing itself: straight and straight flush, two ranks
        ("H2 H3 H4 H5 H6", "2", {"Straight 2", "Straight 3", "StraightFlush 2", "StraightFlush 3"}),
        # a wild completes a spade straight flush (any suit)
        ("S9 ST SJ SQ H7", "7", {"Straight 8", "Straight 9", "StraightFlush 8", "StraightFlush 9"}),
        ("CT CJ CQ CK CA", "7", {"Straight T", "StraightFlush T"}),
        ("DA D2 D3 D4 D5", "7", {"Straight A", "StraightFlush A"}),
        ("S9 ST SJ SQ CK", "7", {"Straight 9"}),
    ],
)
def test_straight_flushes(cards: str, level: str, expected: set[str]) -> None:
    assert keys(cards, level) == expected


@pytest.mark.parametrize(
    ("cards", "level", "expected"),
    [
        ("SA DA S2 C2 S3 D3", "7", {"ThreePair A"}),  # AA2233: lowest tube
        ("SQ DQ SK CK SA DA", "7", {"ThreePair Q"}),  # QQKKAA: highest
        ("SK DK SA CA S2 D2", "7", set()),  # no wrapping
        ("S5 S5 S6 S6 H7 H7", "7", {"ThreePair 4", "ThreePair 5", "TwoTrips 5"}),
        ("SA SA CA S2 S2 C2", "7", {"TwoTrips A"}),  # AAA222: lowest plate
        ("SK SK DK SA SA CA", "7", {"TwoTrips K"}),  # KKKAAA: highest
        ("SK SK DK SA SA H7", "7", {"TwoTrips K"}),
        ("S9 S9 C9 ST ST CT", "9", {"TwoTrips 9"}),  # level rank at its natural place
        ("S9 S9 C9 SJ SJ CJ", "7", set()),
    ],
)
def test_tubes_and_plates(cards: str, level: str, expected: set[str]) -> None:
    assert keys(cards, level) == expected


def test_bombs() -> None:
    assert keys("S9 C9 D9 H9", "7") == {"Bomb 9"}
    assert keys("S7 C7 H7 H7", "7") == {"Bomb 7"}  # wilds as themselves, with level cards
    eight_aces_two_wilds = "SA SA HA HA CA CA DA DA H7 H7"
    assert keys(eight_aces_two_wilds, "7") == {"Bomb A"}
    assert keys(eight_aces_two_wilds, "7", Ruleset(bomb_max=8)) == set()
    assert keys("SA SA HA HA CA CA DA DA", "7", Ruleset(bomb_max=8)) == {"Bomb A"}
    assert keys("SB SB HR HR", "7") == {"FourKings B"}
    assert keys("SB SB HR H7", "7") == set()  # wilds never stand for jokers


def test_bomb_max_does_not_refuse_small_plays() -> None:
    small = Ruleset(bomb_max=4)
    assert keys("SA C2 D3 S4 H5", "7", small) == {"Straight A"}
    assert keys("S5 S5 C5 H7 H7", "7", small) == {"ThreeWithTwo 5"}


def test_readings_keep_the_given_cards() -> None:
    cards = parse_cards("H2 S3 C4 D5 S6")
    for c in readings(cards, parse_level("2")):
        assert c.cards == cards


def test_readings_ordered_by_type_then_strength() -> None:
    out = readings(parse_cards("S5 S5 S6 S6 H7 H7"), parse_level("7"))
    assert [c.describe() for c in out] == ["ThreePair 4", "ThreePair 5", "TwoTrips 5"]
    out = readings(parse_cards("SA CA H7 S7 S7"), parse_level("7"))
    assert [c.describe() for c in out] == ["ThreeWithTwo A", "ThreeWithTwo 7"]


def test_bad_input_raises_our_errors() -> None:
    with pytest.raises(InvalidCardError, match="not a valid Cards"):
        readings(-1, 5)
    with pytest.raises(InvalidCardError, match="not a valid Cards"):
        readings(3, 5)  # three of one kind
    with pytest.raises(InvalidCardError, match="invalid level"):
        readings(parse_cards("S5"), 13)


def test_read_declared() -> None:
    level = parse_level("7")
    cards = parse_cards("S3 H4 C5 D6 H7")
    assert read_declared(cards, level, T.STRAIGHT, parse_rank("3")) == Combo(
        T.STRAIGHT, parse_rank("3"), cards
    )
    with pytest.raises(InvalidComboError, match="is not Straight 4 at level 7: it reads as"):
        read_declared(cards, level, T.STRAIGHT, parse_rank("4"))
    bad = parse_cards("S3 H4 C5 D6 D8")
    with pytest.raises(
        InvalidComboError, match="S3 H4 C5 D6 D8 is not Straight 3 at level 7: it is no combination"
    ):
        read_declared(bad, level, T.STRAIGHT, parse_rank("3"))
    with pytest.raises(InvalidComboError, match="not a rank"):
        read_declared(cards, level, T.STRAIGHT, 15)


def test_choose_reading_leading_takes_the_highest() -> None:
    level = parse_level("2")
    got = choose_reading(parse_cards("H2 S3 C4 D5 S6"), level, None)
    assert got.describe() == "Straight 3"
    got = choose_reading(parse_cards("H2 H3 H4 H5 H6"), level, None)
    assert got.describe() == "StraightFlush 3"
    # 5-card bomb beats the full house reading (§4.3)
    assert choose_reading(parse_cards("S5 S5 C5 H7 H7"), 5, None).describe() == "Bomb 5"


def test_choose_reading_tie_rule_for_incomparable_types() -> None:
    # ThreePair and TwoTrips are not compared by §4: the later type wins (documented).
    got = choose_reading(parse_cards("S5 S5 S6 S6 H7 H7"), parse_level("7"), None)
    assert got.describe() == "TwoTrips 5"


def test_choose_reading_following() -> None:
    level = parse_level("2")
    cards = parse_cards("H2 S3 C4 D5 S6")
    low = combo(T.STRAIGHT, "2", "S2 S3 C4 D5 H6")
    assert choose_reading(cards, level, low).describe() == "Straight 3"
    with pytest.raises(IllegalPlayError, match="does not beat Straight 3"):
        choose_reading(cards, level, combo(T.STRAIGHT, "3", "S3 C4 D5 S6 D7"))
    with pytest.raises(IllegalPlayError):
        choose_reading(cards, level, combo(T.PAIR, "3", "S3 C3"))
    # following a straight, a straight-flush reading beats it as a bomb-class play
    flush = parse_cards("H2 H3 H4 H5 H6")
    high = combo(T.STRAIGHT, "T", "ST CJ DQ SK HA")
    assert choose_reading(flush, level, high).describe() == "StraightFlush 3"
    with pytest.raises(InvalidComboError, match="no combination"):
        choose_reading(parse_cards("S3 S5"), level, None)


def test_parse_play() -> None:
    level = parse_level("7")
    assert parse_play("Straight 3 S3 H4 C5 D6 H7", level).describe() == "Straight 3"
    assert parse_play("Bomb 10 ST CT DT HT", level).describe() == "Bomb T"
    # without type and rank: §5 picks the highest reading
    assert parse_play("S3 H4 C5 D6 H7", level).describe() == "Straight 3"
    with pytest.raises(InvalidComboError, match="is not Straight 4 at level 7"):
        parse_play("Straight 4 S3 H4 C5 D6 H7", level)
    with pytest.raises(InvalidComboError, match="unknown combination type 'Straigh'"):
        parse_play("Straigh 3 S3 H4 C5 D6 H7", level)
    with pytest.raises(InvalidComboError, match="a play is 'Type rank cards"):
        parse_play("Straight S3 H4 C5 D6 H7", level)
    with pytest.raises(InvalidCardError, match="'X5'"):
        parse_play("Pair 5 S5 X5", level)
    with pytest.raises(InvalidComboError, match="PASS"):
        parse_play("PASS", level)
    with pytest.raises(InvalidComboError, match="empty"):
        parse_play("  ", level)
