"""Legal plays (engine.moves): properties against the reading rules, and a brute force.

The brute force enumerates every sub-multiset of a small hand, classifies it with
:func:`engine.reading.readings`, and must find exactly the plays :func:`legal_plays`
generates: this ties the fast generator to the plain definition of a play (RULES.md §3-5).
"""

from __future__ import annotations

import hashlib
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import (
    FIELD,
    KIND_BIT,
    NUM_KINDS,
    Cards,
    count,
    from_ids,
    is_subset,
    parse_cards,
    parse_level,
    parse_rank,
    wild_kind,
)
from engine.combo import Combo, ComboType
from engine.errors import InvalidCardError, InvalidComboError
from engine.moves import count_plays, is_legal, legal_plays, legal_readings
from engine.reading import read_declared, readings
from engine.ruleset import COMPETITION, Ruleset

T = ComboType
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def sub_multisets(hand: Cards) -> list[Cards]:
    """Every non-empty sub-multiset of ``hand``."""
    kinds = [(k, count(hand, k)) for k in range(NUM_KINDS) if count(hand, k)]
    out = []
    for take in itertools.product(*(range(c + 1) for _, c in kinds)):
        s = sum(t * KIND_BIT[k] for (k, _), t in zip(kinds, take, strict=True))
        if s:
            out.append(s)
    return out


def brute_plays(hand: Cards, level: int, to_beat: Combo | None, rules: Ruleset) -> set[Combo]:
    """Every play by the definition: a reading of a sub-multiset that beats ``to_beat``."""
    return {
        c
        for s in sub_multisets(hand)
        for c in readings(s, level, rules)
        if to_beat is None or c.beats(to_beat, level)
    }


def reading_key(c: Combo) -> tuple[ComboType, int, int]:
    """What legal_readings keeps one of: type, rank and (for bombs) size."""
    return (c.type, c.rank, c.size)


def wilds_in(c: Combo, level: int) -> int:
    return count(c.cards, wild_kind(level))


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[Cards, int, Ruleset]:
    """A hand of up to 9 cards over a few ranks (so that combinations form), a level whose
    wild hearts are often in it, and a rule set with the variants drawn."""
    level = draw(st.integers(0, 12))
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=5, unique=True))
    pool = [i for i in range(108) if (i >> 1) >= 52 or (i >> 3) in ranks]
    pool += [2 * wild_kind(level), 2 * wild_kind(level) + 1]
    ids = draw(st.lists(st.sampled_from(sorted(set(pool))), min_size=1, max_size=9, unique=True))
    rules = Ruleset(
        joker_pair_in_full_house=draw(st.booleans()), bomb_max=draw(st.sampled_from([10, 8, 5, 4]))
    )
    return from_ids(ids), level, rules


@SETTINGS
@given(small_hands(), st.data())
def test_brute_force_leading_and_following(
    hr: tuple[Cards, int, Ruleset], data: st.DataObject
) -> None:
    hand, level, rules = hr
    expected = brute_plays(hand, level, None, rules)
    got = list(legal_plays(hand, level, None, rules))
    assert len(got) == len(set(got)), "duplicate plays"
    assert set(got) == expected
    if expected:
        to_beat = data.draw(st.sampled_from(sorted(expected)))
        expected = brute_plays(hand, level, to_beat, rules)
        got = list(legal_plays(hand, level, to_beat, rules))
        assert len(got) == len(set(got))
        assert set(got) == expected
        lr = legal_readings(hand, level, to_beat, rules)
        assert len({reading_key(c) for c in lr}) == len(lr)
        assert {reading_key(c) for c in lr} == {reading_key(c) for c in expected}


def test_brute_force_big_bombs() -> None:
    # 8 natural aces and two wilds: bombs of 4..10 cards, cut by bomb_max
    hand = parse_cards("SA SA HA HA CA CA DA DA H7 H7 S5")
    level = parse_level("7")
    for rules in (COMPETITION, Ruleset(bomb_max=8)):
        got = list(legal_plays(hand, level, None, rules))
        assert len(got) == len(set(got))
        assert set(got) == brute_plays(hand, level, None, rules)
    sizes = {c.size for c in legal_plays(hand, level) if c.type == T.BOMB}
    assert sizes == set(range(4, 11))
    sizes = {
        c.size for c in legal_plays(hand, level, None, Ruleset(bomb_max=8)) if c.type == T.BOMB
    }
    assert sizes == set(range(4, 9))


def deal_hand(seed: int) -> tuple[Cards, int]:
    """A deterministic 27-card hand (hash-sorted card ids) and a level."""
    ids = sorted(range(108), key=lambda i: hashlib.sha256(f"moves:{seed}:{i}".encode()).digest())
    return from_ids(ids[:27]), seed % 13


#: plays to follow, valid readings at every level (no hearts, so no wilds in them)
FOLLOWS = [
    Combo(T.SINGLE, parse_rank("9"), parse_cards("S9")),
    Combo(T.PAIR, parse_rank("5"), parse_cards("S5 C5")),
    Combo(T.TRIPS, parse_rank("J"), parse_cards("SJ CJ DJ")),
    Combo(T.THREE_WITH_TWO, parse_rank("8"), parse_cards("S8 C8 D8 S3 C3")),
    Combo(T.STRAIGHT, parse_rank("4"), parse_cards("S4 C5 D6 S7 C8")),
    Combo(T.THREE_PAIR, parse_rank("6"), parse_cards("S6 C6 S7 C7 S8 C8")),
    Combo(T.TWO_TRIPS, parse_rank("3"), parse_cards("S3 C3 D3 S4 C4 D4")),
    Combo(T.STRAIGHT_FLUSH, parse_rank("5"), parse_cards("S5 S6 S7 S8 S9")),
    Combo(T.BOMB, parse_rank("6"), parse_cards("S6 C6 D6 D6")),
    Combo(T.BOMB, parse_rank("2"), parse_cards("S2 S2 C2 C2 D2 D2")),
    Combo(T.SINGLE, parse_rank("R"), parse_cards("HR")),
]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([None, *FOLLOWS]))
def test_generated_plays_read_back_and_beat(seed: int, to_beat: Combo | None) -> None:
    hand, level = deal_hand(seed)
    plays = list(legal_plays(hand, level, to_beat))
    assert len(plays) == len(set(plays))
    for c in plays:
        assert is_subset(c.cards, hand)
        assert read_declared(c.cards, level, c.type, c.rank) == c
        assert to_beat is None or c.beats(to_beat, level)
        assert is_legal(hand, c, level, to_beat)
    lr = legal_readings(hand, level, to_beat)
    keys = [reading_key(c) for c in lr]
    assert len(keys) == len(set(keys))
    assert set(keys) == {reading_key(c) for c in plays}
    # canonical choice: no play of the same reading needs fewer wild hearts
    fewest: dict[tuple[ComboType, int, int], int] = {}
    for c in plays:
        k = reading_key(c)
        fewest[k] = min(fewest.get(k, 9), wilds_in(c, level))
    for c in lr:
        assert c in set(plays)
        assert wilds_in(c, level) == fewest[reading_key(c)]
    counts = count_plays(hand, level, to_beat)
    assert sum(counts.values()) == len(plays)
    assert count_plays(hand, level, to_beat, concrete=False) == {
        t: n for t in ComboType if (n := sum(1 for c in lr if c.type == t))
    }


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.data())
def test_is_legal_agrees_with_generation(seed: int, data: st.DataObject) -> None:
    hand, level = deal_hand(seed)
    to_beat = data.draw(st.sampled_from([None, *FOLLOWS]))
    plays = set(legal_plays(hand, level, to_beat))
    ids = data.draw(st.lists(st.integers(0, 107), min_size=1, max_size=6, unique=True))
    # half the time a subset of the hand, otherwise any cards
    if data.draw(st.booleans()):
        held = [k for k in range(NUM_KINDS) for _ in range(count(hand, k))]
        cards = sum(KIND_BIT[held[i % len(held)]] for i in set(i % len(held) for i in ids))
    else:
        cards = from_ids(ids)
    for c in readings(cards, level):
        assert is_legal(hand, c, level, to_beat) == (c in plays)
    ctype = data.draw(st.sampled_from(list(ComboType)))
    rank = data.draw(st.integers(0, 14))
    declared = Combo(ctype, rank, cards)
    assert is_legal(hand, declared, level, to_beat) == (declared in plays)


def test_wild_hearts_alone_are_level_cards() -> None:
    level = parse_level("7")
    hand = parse_cards("H7 H7 S5")
    got = {(c.describe(), c.cards) for c in legal_plays(hand, level)}
    assert ("Single 7", parse_cards("H7")) in got
    assert ("Pair 7", parse_cards("H7 H7")) in got
    assert ("Pair 5", parse_cards("S5 H7")) in got
    assert ("Trips 5", parse_cards("S5 H7 H7")) in got
    assert ("Single 5", parse_cards("H7")) not in got
    assert ("Pair 5", parse_cards("H7 H7")) not in got
    assert len(got) == 5  # Single 5, Single 7 (a wild), Pair 5, Pair 7 (wilds), Trips 5


def test_full_house_with_two_wild_pair_once() -> None:
    level = parse_level("7")
    hand = parse_cards("S5 S5 C5 H7 H7 S9")
    fh = [c for c in legal_plays(hand, level) if c.type == T.THREE_WITH_TWO]
    cards = [c.cards for c in fh]
    assert len(fh) == len(set(fh))
    assert cards.count(parse_cards("S5 S5 C5 H7 H7")) == 1  # a pair of wilds (any rank): once
    assert parse_cards("S5 S5 C5 S9 H7") in cards
    assert {c.rank for c in fh} == {parse_rank("5"), parse_rank("9")}  # 9 9 9 + 5 5 too


def test_joker_pairs_in_full_house_variant() -> None:
    level = parse_level("7")
    hand = parse_cards("S5 S5 C5 SB SB")
    assert [c.describe() for c in legal_plays(hand, level) if c.type == T.THREE_WITH_TWO] == [
        "ThreeWithTwo 5"
    ]
    off = Ruleset(joker_pair_in_full_house=False)
    assert not [c for c in legal_plays(hand, level, None, off) if c.type == T.THREE_WITH_TWO]


def test_following_bomb_classes() -> None:
    level = parse_level("7")
    hand = parse_cards("S3 S4 S5 S6 S7 D9 D9 C9 S9 SB SB HR HR")
    fk = Combo(T.FOUR_KINGS, 13, parse_cards("SB SB HR HR"))
    assert list(legal_plays(hand, level, fk)) == []
    six = FOLLOWS[9]  # a 6-card bomb: only the joker bomb beats it here
    assert [c.type for c in legal_plays(hand, level, six)] == [T.FOUR_KINGS]
    four = FOLLOWS[8]  # Bomb 6 of 4: bomb 9, the straight flush, the joker bomb
    got = {c.describe() for c in legal_plays(hand, level, four)}
    assert got == {"Bomb 9", "StraightFlush 3", "FourKings B"}
    sf = Combo(T.STRAIGHT_FLUSH, parse_rank("2"), parse_cards("C2 C3 C4 C5 C6"))
    assert {c.describe() for c in legal_plays(hand, level, sf)} == {
        "StraightFlush 3",
        "FourKings B",
    }


def test_following_same_type_higher_rank() -> None:
    level = parse_level("7")
    hand = parse_cards("S3 S7 CA SB")
    single_a = Combo(T.SINGLE, parse_rank("A"), parse_cards("DA"))
    assert [c.describe() for c in legal_plays(hand, level, single_a)] == ["Single 7", "Single B"]
    assert [c.describe() for c in legal_readings(hand, level)] == [
        "Single 3",
        "Single A",
        "Single 7",
        "Single B",
    ]


def test_legal_readings_canonical_choice() -> None:
    level = parse_level("2")
    hand = parse_cards("H2 S3 S4 C5 S6 S7 D8 D8 SK SK HA")
    lr = {c.describe(): c.cards for c in legal_readings(hand, level)}
    assert lr["Straight 3"] == parse_cards("S3 S4 C5 S6 S7")  # natural before wild
    assert lr["StraightFlush 3"] == parse_cards("S3 S4 H2 S6 S7")  # wild fills the club
    assert lr["ThreeWithTwo 8"] == parse_cards("D8 D8 H2 SK SK")
    assert lr["ThreeWithTwo K"] == parse_cards("SK SK H2 D8 D8")
    assert lr["Pair A"] == parse_cards("HA H2")


def test_bad_input() -> None:
    with pytest.raises(InvalidCardError, match="hand"):
        list(legal_plays(-5, 3))
    with pytest.raises(InvalidCardError, match="hand"):
        legal_plays(7 << (FIELD * 10), 3)  # error raised at the call, not when iterated
    with pytest.raises(InvalidCardError, match="level"):
        legal_readings(parse_cards("S3"), 13)
    with pytest.raises(InvalidComboError, match="play to beat"):
        legal_readings(parse_cards("S3"), 3, "Single 3")  # type: ignore[arg-type]
    with pytest.raises(InvalidComboError, match="no valid rank for Straight"):
        legal_readings(parse_cards("S3"), 3, Combo(T.STRAIGHT, 13, parse_cards("S3")))
    with pytest.raises(InvalidComboError, match="no valid rank for Single"):
        list(legal_plays(parse_cards("S3"), 3, Combo(T.SINGLE, 15, parse_cards("S3"))))
    s3 = parse_cards("S3")
    assert is_legal(s3, Combo(T.SINGLE, parse_rank("3"), s3), 3)
    assert not is_legal(s3, Combo(T.SINGLE, parse_rank("4"), s3), 3)  # not its reading
    assert not is_legal(s3, Combo(T.SINGLE, parse_rank("4"), parse_cards("S4")), 3)  # not held
    with pytest.raises(InvalidComboError, match="play"):
        is_legal(s3, (T.SINGLE, 1, s3), 3)  # type: ignore[arg-type]
