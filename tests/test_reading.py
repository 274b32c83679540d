"""Readings of a set of cards (RULES.md §2–3), declared readings and the §5 choice.

Unit tests per combination type and per wild-card corner; the independent golden table
(``tests/test_golden_readings.py``) checks the same API from RULES.md alone.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import Cards, iter_kinds, parse_cards, parse_level, parse_rank, size, wild_kind
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


# --- an independent oracle: substitute every wild by every non-joker card ---------------

SEQ = [12, *range(13)]  # natural order with A low first and A high last (RULES.md §2)


def natural_readings(kinds: list[int], rules: Ruleset) -> set[tuple[ComboType, int]]:
    """Readings of cards with no wild in them, straight from the table of RULES.md §3."""
    n = len(kinds)
    ranks = sorted(k >> 2 if k < 52 else (13 if k == 52 else 14) for k in kinds)
    by_rank = {r: ranks.count(r) for r in set(ranks)}
    jokers = [r for r in ranks if r >= 13]
    out: set[tuple[ComboType, int]] = set()
    if len(by_rank) == 1:
        r = ranks[0]
        if n == 1:
            out.add((T.SINGLE, r))
        elif n == 2:
            out.add((T.PAIR, r))
        elif n == 3 and r < 13:
            out.add((T.TRIPS, r))
        elif 4 <= n <= rules.bomb_max and r < 13:
            out.add((T.BOMB, r))
    if n == 4 and ranks == [13, 13, 14, 14]:
        out.add((T.FOUR_KINGS, 13))
    if n == 5 and len(by_rank) == 2:
        for t, p in itertools.permutations(by_rank, 2):
            if by_rank[t] == 3 and by_rank[p] == 2 and t < 13:
                if p < 13 or rules.joker_pair_in_full_house:
                    out.add((T.THREE_WITH_TWO, t))
    if not jokers:
        for length, per, ctype in ((5, 1, T.STRAIGHT), (3, 2, T.THREE_PAIR), (2, 3, T.TWO_TRIPS)):
            if n != length * per:
                continue
            for i in range(len(SEQ) - length + 1):
                window = SEQ[i : i + length]
                if all(by_rank.get(r, 0) == per for r in window):
                    out.add((ctype, window[0]))
                    if ctype == T.STRAIGHT and len({k & 3 for k in kinds}) == 1:
                        out.add((T.STRAIGHT_FLUSH, window[0]))
    return out


def oracle(cards: Cards, level: int, rules: Ruleset) -> set[tuple[ComboType, int]]:
    kinds = list(iter_kinds(cards))
    wk = wild_kind(level)
    natural = [k for k in kinds if k != wk]
    wilds = len(kinds) - len(natural)
    if not natural:  # wild hearts alone are level cards (§2)
        return natural_readings(kinds, rules)
    out: set[tuple[ComboType, int]] = set()
    for stand_for in itertools.combinations_with_replacement(range(52), wilds):
        out |= natural_readings(natural + list(stand_for), rules)
    return out


@st.composite
def card_sets(draw: st.DrawFn) -> tuple[Cards, int, Ruleset]:
    """Card sets shaped like combinations: a few (often consecutive) ranks with a few cards
    each, 0-2 wild hearts, sometimes jokers."""
    level = draw(st.integers(0, 12))
    low = draw(st.one_of(st.just(12), st.integers(0, 12)))  # A-low sequences are a corner
    width = draw(st.integers(1, 5))
    cards = 0
    for r in {(low + i) % 13 for i in range(width)}:
        for _ in range(draw(st.sampled_from([1, 1, 2, 3, 0, 4]))):
            k = 4 * r + draw(st.integers(0, 3))
            if k != wild_kind(level) and (cards >> (3 * k)) & 7 < 2:
                cards += 1 << (3 * k)
    cards += draw(st.integers(0, 2)) << (3 * wild_kind(level))
    if draw(st.integers(0, 3)) == 0:
        cards += draw(st.integers(0, 2)) << (3 * 52)
        cards += draw(st.integers(0, 2)) << (3 * 53)
    assume(0 < size(cards) <= 10)
    rules = Ruleset(
        joker_pair_in_full_house=draw(st.booleans()), bomb_max=draw(st.sampled_from([10, 8, 5]))
    )
    return cards, level, rules


@settings(max_examples=300, deadline=None)
@given(card_sets())
def test_readings_agree_with_wild_substitution_oracle(case: tuple[Cards, int, Ruleset]) -> None:
    cards, level, rules = case
    got = [(c.type, c.rank) for c in readings(cards, level, rules)]
    assert len(got) == len(set(got))
    assert set(got) == oracle(cards, level, rules)
