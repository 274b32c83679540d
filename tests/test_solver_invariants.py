"""Invariants of the solver (hypothesis), and a slow check with up to 5 cards a hand
against the memoised reference search (tests/solver_reference)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_reference import memo_value, random_position

from duplicate.analysis.solver import Solver, step
from duplicate.analysis.state import from_deal, rotate
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Side

RULES = [COMPETITION, Ruleset(jiefeng_next=True), Ruleset(double_down_plus4=True)]


def _child_value(deal: Deal, solver: Solver) -> int:
    if deal.is_over:
        return deal.result().score(Side.NS)
    return solver.value(from_deal(deal))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULES))
def test_value_is_best_of_children(seed: int, rules: Ruleset) -> None:
    deal = random_position(random.Random(seed), 3, rules, max_total=10)
    solver = Solver(deal.level, rules)
    v = solver.value(from_deal(deal))
    kids = []
    for combo in list(deal.legal_plays()):
        deal.play(combo)
        kids.append(_child_value(deal, solver))
        deal.undo()
    if deal.can_pass():
        deal.pass_()
        kids.append(_child_value(deal, solver))
        deal.undo()
    assert deal.turn is not None
    assert v == (max(kids) if deal.turn.side == Side.NS else min(kids))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULES))
def test_rotation(seed: int, rules: Ruleset) -> None:
    deal = random_position(random.Random(seed), 4, rules, max_total=12)
    pos = from_deal(deal)
    v = Solver(deal.level, rules).value(pos)
    assert Solver(deal.level, rules).value(rotate(pos, 1)) == -v
    assert Solver(deal.level, rules).value(rotate(pos, 2)) == v
    assert rotate(rotate(pos, 1), 3) == pos


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULES))
def test_value_after_the_last_play_is_the_result(seed: int, rules: Ruleset) -> None:
    rng = random.Random(seed)
    deal = random_position(rng, 6, rules)
    while True:
        pos = from_deal(deal)
        plays = list(deal.legal_plays())
        if deal.can_pass() and (not plays or rng.random() < 0.3):
            combo = None
            deal.pass_()
        else:
            combo = rng.choice(plays)
            deal.play(combo)
        after = step(pos, combo, rules)
        if deal.is_over:
            assert after == deal.result().score(Side.NS)
            break
        assert after == from_deal(deal)


@pytest.mark.slow
def test_five_cards_against_memo_search() -> None:
    """<= 5 cards a hand against the memoised minimax (bounded to about 40 s)."""
    rng = random.Random("five-cards")
    started = time.perf_counter()
    done = 0
    for i in range(100):
        rules = RULES[i % 3]
        deal = random_position(rng, 5, rules, max_total=12)
        expected = memo_value(deal.copy())
        assert Solver(deal.level, rules).value(from_deal(deal)) == expected, deal.position()
        done += 1
    assert done == 100 and time.perf_counter() - started < 300
