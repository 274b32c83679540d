"""The heuristic bot's plan in the compiled core against duplicate.bots (docs/CORE.md):
the same plan for random hands, and the same deals when four heuristic bots play."""

from __future__ import annotations

import pytest
from helpers.implementations import PY, C
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.boards import generate_set
from duplicate.bots import View
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.native import PLAYERS
from duplicate.simulate import play_deal
from engine import core
from engine.cards import KIND_BIT, count, from_ids, wild_kind
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")


def plans(hand: int, level: int, bomb_max: int) -> tuple[object, object]:
    return PY.plan_hand(hand, level, bomb_max), C.plan_hand(hand, level, bomb_max)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 107), min_size=1, max_size=27, unique=True),
    st.integers(0, 12),
    st.integers(0, 2),
    st.sampled_from([10, 8, 6, 4]),
)
def test_plans_agree(ids: list[int], level: int, wilds: int, bomb_max: int) -> None:
    hand = from_ids(ids)
    wk = wild_kind(level)
    hand += (wilds - count(hand, wk)) * KIND_BIT[wk]
    py, nat = plans(hand, level, bomb_max)
    assert py == nat


def test_full_hands_plans_agree_at_every_level() -> None:
    for level in range(13):
        for seed in range(12):
            ids = sorted(range(108), key=lambda i, s=seed: (i * 7919 + s * 104729 + level) % 107)
            for k in range(4):
                hand = from_ids(ids[27 * k : 27 * (k + 1)])
                py, nat = plans(hand, level, 10)
                assert py == nat


def test_bad_input_to_the_native_plan_is_refused() -> None:
    native = PLAYERS
    for args in ((-1, 5, 10), (1, 13, 10), (1, 5, 11), ("S5", 5, 10), (1, 5, None)):
        with pytest.raises(GuandanError):
            native.plan_hand(*args)


@pytest.mark.parametrize("rules", [COMPETITION, Ruleset(bomb_max=6, jiefeng_next=True)])
def test_heuristic_bots_play_the_same_deals(rules: Ruleset) -> None:
    boards = generate_set(parse_seed_file(seed_file_bytes(bytes(range(32)))), 6, "core").boards
    for board in boards:
        records = []
        for impl in (PY, C):
            players = [impl.Heuristic() for _ in range(4)]
            records.append(play_deal(board, players, rules))
        assert records[0] == records[1]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 107), min_size=2, max_size=40, unique=True),
    st.integers(0, 12),
    st.integers(0, 2),
    st.integers(0, 3),
    st.lists(st.integers(0, 27), min_size=4, max_size=4),
    st.sampled_from([COMPETITION, Ruleset(bomb_max=6, joker_pair_in_full_house=False)]),
    st.data(),
)
def test_heuristic_choices_agree(
    ids: list[int], level: int, wilds: int, seat: int, counts: list[int], rules: Ruleset,
    data: st.DataObject,
) -> None:
    """The bot's choice on random views: leading, following an opponent or the partner."""
    cut = data.draw(st.integers(1, len(ids) - 1))
    hand = from_ids(ids[:cut])
    wk = wild_kind(level)
    hand += (wilds - count(hand, wk)) * KIND_BIT[wk]
    if not hand:
        return
    beatable = PY.legal_readings(from_ids(ids[cut:]), level, None, rules) if cut < len(ids) else []
    to_beat = data.draw(st.sampled_from(beatable)) if beatable and data.draw(st.booleans()) else None
    by = None if to_beat is None else Seat(data.draw(st.sampled_from([s for s in range(4) if s != seat])))
    counts[seat] = 27  # the seat to act holds cards
    view = View(Seat(seat), hand, level, to_beat, by, (counts[0], counts[1], counts[2], counts[3]), rules)
    assert PY.Heuristic().act(view) == C.Heuristic().act(view)
