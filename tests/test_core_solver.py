"""The exact solver's search in the compiled core against analysis.solver (docs/CORE.md):
the same values, the same grouped plays, the same budgets, garbage refused."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from helpers.implementations import PY, C
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.analysis import solver as solver_module
from duplicate.analysis.moves import grouped_plays
from duplicate.analysis.solver import BudgetExceeded, Solver
from duplicate.analysis.state import HandKeys, Position, from_deal
from engine import core
from engine.cards import from_ids
from engine.deal import Deal
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
RULESETS = [COMPETITION, Ruleset(jiefeng_next=True, double_down_plus4=True, bomb_max=6)]


def positions(seed: int, count: int, sizes: tuple[int, ...]) -> Iterator[tuple[Position, int, Ruleset]]:
    """Positions of small random deals, a few random actions in."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        k = rng.choice(sizes)
        level = rng.randrange(13)
        ids = rng.sample(range(108), 4 * k)
        rules = rng.choice(RULESETS)
        deal = Deal([from_ids(ids[k * i : k * i + k]) for i in range(4)], level,
                    Seat(rng.randrange(4)), rules)
        for _ in range(rng.randrange(0, 7)):
            if deal.is_over:
                break
            options = deal.legal_readings()
            if deal.to_beat is not None and (not options or rng.random() < 0.4):
                deal.pass_()
            else:
                deal.play(rng.choice(options))
        if not deal.is_over:
            made += 1
            yield from_deal(deal), level, rules


@pytest.mark.parametrize("seed", range(4))
def test_values_agree(seed: int) -> None:
    for pos, level, rules in positions(seed, 12, (2, 3, 4, 5)):
        got = [impl.solver_value(Solver(level, rules), pos) for impl in (PY, C)]
        assert got[0] == got[1], pos


def fresh_deals(seed: int, count: int, k: int) -> Iterator[tuple[Position, int, Ruleset]]:
    """Random deals of ``k`` cards a hand, nobody out: 4k cards in hand, so the search
    uses both of the core's tables (the near one, and the big one from 12 cards up)."""
    rng = random.Random(seed)
    for _ in range(count):
        ids = rng.sample(range(108), 4 * k)
        hands = tuple(from_ids(ids[k * i : k * i + k]) for i in range(4))
        yield (Position((hands[0], hands[1], hands[2], hands[3]), rng.randrange(4), None, -1, 0,
                        -1, 0), rng.randrange(13), rng.choice(RULESETS))


def test_values_agree_on_fresh_deals() -> None:
    for pos, level, rules in fresh_deals(11, 6, 4):
        got = [impl.solver_value(Solver(level, rules), pos) for impl in (PY, C)]
        assert got[0] == got[1], pos


def following_positions(seed: int, count: int, k: int) -> Iterator[tuple[Position, int, Ruleset]]:
    """Deals of ``k`` cards a hand, nobody out, the leader's random play made: the seat to
    act follows (where the core's search also bounds a follower's walkover)."""
    rng = random.Random(seed)
    for _ in range(count):
        level = rng.randrange(13)
        ids = rng.sample(range(108), 4 * k)
        rules = rng.choice(RULESETS)
        deal = Deal([from_ids(ids[k * i : k * i + k]) for i in range(4)], level,
                    Seat(rng.randrange(4)), rules)
        deal.play(rng.choice(deal.legal_readings()))
        yield from_deal(deal), level, rules


def test_values_agree_when_following() -> None:
    """Following positions: the same values as the reference, which has no follower's
    walkover bound; the bound is in use (the core visits fewer nodes in all)."""
    nodes = {"python": 0, "native": 0}
    for pos, level, rules in following_positions(21, 24, 5):
        got = []
        for impl in (PY, C):
            solver = Solver(level, rules)
            got.append(impl.solver_value(solver, pos))
            nodes[impl.name] += solver.nodes
        assert got[0] == got[1], pos
    assert nodes["native"] < nodes["python"], nodes


def test_a_search_cut_by_its_budget_leaves_the_tables_sound() -> None:
    """Bounds are stored for finished searches only: after a budget stops one, the same
    solver (its tables kept) still finds the reference value."""
    for pos, level, rules in fresh_deals(12, 4, 4):
        want = Solver(level, rules).py_value(pos)
        solver = Solver(level, rules, max_nodes=300)
        for _ in range(3):
            try:
                solver.c_value(pos)
            except BudgetExceeded:
                pass
        solver.max_nodes = None
        assert solver.c_value(pos) == want, pos


def test_one_solver_keeps_its_tables_across_positions() -> None:
    """Values of successive positions from one solver (tables reused) agree too."""
    items = list(positions(9, 15, (3, 4)))
    by_level: dict[tuple[int, Ruleset], list[Position]] = {}
    for pos, level, rules in items:
        by_level.setdefault((level, rules), []).append(pos)
    for (level, rules), group in by_level.items():
        got = []
        for impl in (PY, C):
            solver = Solver(level, rules)
            got.append([impl.solver_value(solver, p) for p in group])
        assert got[0] == got[1]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 107), min_size=20, max_size=20, unique=True),
       st.integers(0, 12), st.sampled_from([4, 6, 8, 10]), st.data())
def test_grouped_plays_agree(ids: list[int], level: int, k: int, data: st.DataObject) -> None:
    hand, other = from_ids(ids[:k]), from_ids(ids[10:])
    targets = [None, *data.draw(st.lists(st.sampled_from(PY.legal_readings(other, level)),
                                         max_size=3))]
    native = solver_module.NATIVE.Solver(level, COMPETITION)  # type: ignore[union-attr]
    for tb in targets:
        ref = [(p.combo, p.left) for p in grouped_plays(hand, level, tb, COMPETITION,
                                                          HandKeys(level))]
        assert native.grouped(hand, tb) == ref


def test_node_budget_raises_and_counts() -> None:
    pos, level, rules = next(p for p in positions(3, 50, (6,)) if True)
    solver = Solver(level, rules, max_nodes=50)
    with pytest.raises(BudgetExceeded):
        solver.c_value(pos)
    assert 50 < solver.nodes <= 52


def test_garbage_positions_are_refused() -> None:
    native = solver_module.NATIVE.Solver(5, COMPETITION)  # type: ignore[union-attr]
    h = from_ids(range(0, 20))
    good = ((h, h + 1, 8, 64), 0, None, -1, 0, -1, 0, None, None)
    for i, bad in [(0, (h,)), (0, (h, -1, 8, 64)), (1, 4), (1, "N"), (3, 7), (4, 9), (5, 6),
                   (6, 99), (2, "Pair"), (7, -1), (8, "soon"), (6, 1), (3, 2)]:
        args = list(good)
        args[i] = bad
        with pytest.raises((GuandanError, TypeError)):
            native.value(*args)
    with pytest.raises(TypeError):
        native.value(*good[:5])
