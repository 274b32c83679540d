"""The compiled core against the pure-Python engine (docs/CORE.md): identical answers.

Hypothesis draws hands (1..27 cards, 0..2 wild hearts at a random level, both rule sets
that change readings) and asks both implementations for readings, legal plays leading and
following, one play per reading, play counts and ``is_legal``: the lists must be equal,
order included. Garbage at the boundary must raise the engine's own errors from both, never
crash. These tests are skipped when the core is not built (the fallback is tested in
tests/test_core_fallback.py).
"""

from __future__ import annotations

import pytest
from helpers.implementations import PY, C, both
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import core
from engine.cards import KIND_BIT, count, from_ids, wild_kind
from engine.combo import Combo, ComboType
from engine.errors import GuandanError, InvalidCardError, InvalidComboError
from engine.ruleset import COMPETITION, Ruleset

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RULESETS = [COMPETITION, Ruleset(joker_pair_in_full_house=False, bomb_max=6)]


@st.composite
def hands(draw: st.DrawFn, low: int = 1, high: int = 27) -> tuple[int, int]:
    """(hand, level): ``low..high`` cards, with 0, 1 or 2 wild hearts of the level."""
    level = draw(st.integers(0, 12))
    n = draw(st.integers(low, high))
    ids = draw(st.lists(st.integers(0, 107), min_size=n, max_size=n, unique=True))
    hand = from_ids(ids)
    wk = wild_kind(level)
    wilds = draw(st.integers(0, 2))
    hand += (wilds - count(hand, wk)) * KIND_BIT[wk]
    return hand, level


@SETTINGS
@given(hands(1, 10), st.sampled_from(RULESETS))
def test_readings_agree(hl: tuple[int, int], rules: Ruleset) -> None:
    hand, level = hl
    both(lambda i: i.readings(hand, level, rules))
    both(lambda i: i.reading_keys(hand, level, rules))


@SETTINGS
@given(hands(), st.sampled_from(RULESETS))
def test_leading_plays_agree(hl: tuple[int, int], rules: Ruleset) -> None:
    hand, level = hl
    plays = both(lambda i: list(i.legal_plays(hand, level, None, rules)))
    both(lambda i: i.legal_readings(hand, level, None, rules))
    both(lambda i: i.count_plays(hand, level, None, rules))
    both(lambda i: i.count_plays(hand, level, None, rules, concrete=False))
    both(lambda i: list(i.legal_play_list(hand, level, None, rules)))
    for p in plays[:: max(1, len(plays) // 40)]:
        both(lambda i, p=p: i.readings(p.cards, level, rules))


@SETTINGS
@given(hands(), hands(1, 27), st.sampled_from(RULESETS), st.data())
def test_following_plays_agree(
    hl: tuple[int, int], other: tuple[int, int], rules: Ruleset, data: st.DataObject
) -> None:
    hand, level = hl
    beatable = list(PY.legal_plays(other[0], level, None, rules))
    assume(beatable)
    picks = data.draw(st.lists(st.sampled_from(beatable), min_size=1, max_size=6))
    for tb in picks:
        plays = both(lambda i, tb=tb: list(i.legal_plays(hand, level, tb, rules)))
        both(lambda i, tb=tb: i.legal_readings(hand, level, tb, rules))
        both(lambda i, tb=tb: i.count_plays(hand, level, tb, rules))
        sample = plays[:20] + beatable[:: max(1, len(beatable) // 20)]
        both(lambda i, tb=tb, s=sample: [i.is_legal(hand, c, level, tb, rules) for c in s])


GARBAGE_CARDS: list[object] = [
    -1, 3, 1 << 162, 1 << 500, -(1 << 300), 4 << 3, (1 << 163) - 1, "S5", None, 1.5, [1], b"\x01",
]
GARBAGE_LEVELS: list[object] = [-1, 13, 1 << 70, "7", None, 7.0]


@pytest.mark.parametrize("bad", GARBAGE_CARDS)
def test_garbage_cards_raise_the_same_error(bad: object) -> None:
    for f in ("readings", "legal_readings", "count_plays"):
        with pytest.raises(InvalidCardError):
            both(lambda i, f=f: getattr(i, f)(bad, 5))
    with pytest.raises(InvalidCardError):
        both(lambda i: list(i.legal_plays(bad, 5)))  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", GARBAGE_LEVELS)
def test_garbage_levels_raise_the_same_error(bad: object) -> None:
    with pytest.raises(InvalidCardError):
        both(lambda i: i.legal_readings(1, bad))  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        both(lambda i: i.readings(1, bad))  # type: ignore[arg-type]


GOOD = Combo(ComboType.PAIR, 3, 2 * KIND_BIT[12])
GARBAGE_COMBOS: list[object] = [
    (ComboType.PAIR, 3, 2 * KIND_BIT[12]),
    Combo(1, 3, 2 * KIND_BIT[12]),  # type: ignore[arg-type]
    Combo(ComboType.PAIR, 99, 2 * KIND_BIT[12]),
    Combo(ComboType.STRAIGHT, 13, 2 * KIND_BIT[12]),
    Combo(ComboType.PAIR, 3, -5),
    Combo(ComboType.PAIR, 3, 1 << 400),
    tuple.__new__(Combo, (ComboType.PAIR, 3)),
    "Pair 5",
]


@pytest.mark.parametrize("bad", GARBAGE_COMBOS)
def test_garbage_plays_raise_the_same_error(bad: object) -> None:
    hand = from_ids(range(27))
    with pytest.raises((InvalidComboError, InvalidCardError)):
        both(lambda i: i.legal_readings(hand, 5, bad))  # type: ignore[arg-type]
    try:  # a play's rank is not checked by is_legal: a bad one is just no reading (False)
        assert both(lambda i: i.is_legal(hand, bad, 5)) is False  # type: ignore[arg-type]
    except (InvalidComboError, InvalidCardError):
        pass


def test_is_legal_with_a_nonsense_rank_is_false_on_both() -> None:
    hand = from_ids(range(27))
    for rank in (-3, 1 << 80, "x", None):
        combo = tuple.__new__(Combo, (ComboType.PAIR, rank, GOOD.cards))
        assert both(lambda i, c=combo: i.is_legal(hand, c, 5)) is False


def test_native_rejects_what_is_not_a_ruleset() -> None:
    for bad in (object(), None, 5):
        with pytest.raises(GuandanError):
            C.legal_readings(from_ids(range(27)), 5, None, bad)  # type: ignore[arg-type]


def test_native_plays_stay_packed_until_asked() -> None:
    hand = from_ids(range(0, 108, 4))
    plays = C.legal_play_list(hand, 5)
    assert type(plays).__name__ == "PlayList"
    assert len(plays) == len(list(C.legal_plays(hand, 5)))
    assert plays[0] == next(iter(C.legal_plays(hand, 5)))
    assert plays[-1] == list(C.legal_plays(hand, 5))[-1]
    with pytest.raises(IndexError):
        plays[len(plays)]


@pytest.mark.parametrize("level", range(13))
def test_full_hands_at_every_level_with_0_to_2_wilds_agree(level: int) -> None:
    """27-card hands (fixed shuffles) at every level with 0, 1 and 2 wild hearts: every
    concrete lead, and following each reading of another hand, agree."""
    wk = wild_kind(level)
    for wilds in (0, 1, 2):
        ids = sorted(range(108), key=lambda i: (i * 7919 + level * 104729 + wilds * 31) % 108)
        hand = from_ids(ids[:27])
        hand += (wilds - count(hand, wk)) * KIND_BIT[wk]
        other = from_ids(ids[27:54])
        both(lambda i, h=hand: list(i.legal_plays(h, level)))
        targets = PY.legal_readings(other, level)
        for tb in targets[::3]:
            both(lambda i, h=hand, tb=tb: list(i.legal_plays(h, level, tb)))
            both(lambda i, h=hand, tb=tb: i.legal_readings(h, level, tb))
