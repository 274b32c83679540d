"""The solver (analysis.solver) against separate reference searches (tests/solver_reference).

Exactness: >= 2,000 random positions with at most 3 cards a hand, at every level, wild
hearts dealt often, players already out and 接风 pending (positions are played forward at
random), under the competition rules and the variants. Each is checked against a plain
minimax over the engine's Deal (no pruning, no table); the rare position whose plain tree
is over a node cap is checked against the memoised minimax instead, and their number is
bounded so that the plain minimax does the bulk.
"""

from __future__ import annotations

import random

import pytest
from solver_reference import TooBig, brute_value, memo_value, random_position

from duplicate.analysis.solver import Solver, children
from duplicate.analysis.state import from_deal, rotate
from engine.cards import parse_cards
from engine.combo import Combo, ComboType
from engine.deal import Deal
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

VARIANTS = {
    "competition": COMPETITION,
    "jiefeng_next": Ruleset(jiefeng_next=True),
    "double_down_plus4": Ruleset(double_down_plus4=True),
    "small_bombs_no_joker_pair": Ruleset(bomb_max=5, joker_pair_in_full_house=False),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_exact_against_brute_force(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(f"solver-{name}")
    checked = memo_checked = out_seen = jiefeng_seen = wild_seen = 0
    levels = set()
    while checked < 500:
        deal = random_position(rng, 3, rules, max_total=9)
        pos = from_deal(deal)
        try:
            expected = brute_value(deal.copy(), [3000])
            checked += 1
        except TooBig:
            expected = memo_value(deal.copy())
            memo_checked += 1
        got = Solver(deal.level, rules).value(pos)
        assert got == expected, deal.position()
        levels.add(deal.level)
        out_seen += pos.out != 0
        jiefeng_seen += pos.last >= 0 and not pos.hands[pos.last]
        wild_seen += any((h >> (3 * (4 * deal.level + 1))) & 7 for h in pos.hands)
    assert memo_checked <= 50
    assert len(levels) >= 10 and out_seen >= 100 and jiefeng_seen >= 10 and wild_seen >= 100


def _hands(*texts: str) -> list[int]:
    return [parse_cards(t) for t in texts]


def test_known_positions() -> None:
    # N leads a pair and goes out; S then holds the lead by 接风 and goes out: double down.
    d = Deal(_hands("S5 C5", "D9", "S3", "C4"), 0, Seat.N)
    assert Solver(0).value(from_deal(d)) == 3
    assert Solver(0, Ruleset(double_down_plus4=True)).value(from_deal(d)) == 4
    # under jiefeng_next the lead after N goes to E, who goes out second: N-S +2
    d = Deal(_hands("S5 C5", "D9", "S3", "C4"), 0, Seat.N, Ruleset(jiefeng_next=True))
    assert Solver(0, Ruleset(jiefeng_next=True)).value(from_deal(d)) == 2 == brute_value(d)
    # E holds the joker bomb and a single: E bombs anything and wins
    d = Deal(_hands("S5 D7", "SB SB HR HR S3", "D9 DT", "C4 C6"), 0, Seat.N)
    assert Solver(0).value(from_deal(d)) < 0
    assert Solver(0).value(from_deal(d)) == brute_value(d)


def test_budget_is_enforced() -> None:
    from duplicate.analysis.solver import BudgetExceeded

    rng = random.Random(7)
    deal = random_position(rng, 9, COMPETITION, wild_bias=False)
    solver = Solver(deal.level, max_nodes=50)
    with pytest.raises(BudgetExceeded):
        solver.value(from_deal(deal))


def test_children_cover_every_play_class() -> None:
    d = Deal(_hands("S5 C5 H5 D6", "S3 S4", "D9", "C4"), 10, Seat.N)
    kids = children(from_deal(d), Solver(10))
    combos = [c for c, _ in kids if c is not None]
    # at level Q the three 5s differ only in suits that cannot matter: one single 5
    kinds = {(c.type, c.rank) for c in combos}
    assert (ComboType.SINGLE, 3) in kinds and (ComboType.TRIPS, 3) in kinds
    assert len([c for c in combos if c.type == ComboType.SINGLE and c.rank == 3]) == 1
    assert all(isinstance(c, Combo) for c in combos)


def test_rotation_examples() -> None:
    rng = random.Random(11)
    for _ in range(150):
        rules = rng.choice(list(VARIANTS.values()))
        deal = random_position(rng, 3, rules)
        pos = from_deal(deal)
        v = Solver(deal.level, rules).value(pos)
        assert Solver(deal.level, rules).value(rotate(pos, 1)) == -v
        assert Solver(deal.level, rules).value(rotate(pos, 2)) == v
        assert Solver(deal.level, rules).value(rotate(pos, 3)) == -v
