"""Both implementations take the same inputs and refuse the same ones, with the same error
classes: logs, seeds, rule sets, impossible solver positions; the compiled core reads a
rule set's values at every call; its PlayList is a Sequence equal to the list of its plays;
the solver's single questions and budgets leave nothing behind (docs/CORE.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from helpers.implementations import PY, C

from duplicate.analysis import solver as solver_module
from duplicate.analysis.solver import BudgetExceeded, Solver, check_position
from duplicate.analysis.state import Position
from engine import core
from engine.bulk import SplitMix64, shuffled_hands
from engine.cards import FULL_PACK, from_ids, parse_cards
from engine.combo import Combo, ComboType
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

IMPLS = ["python", "native"] if core.available() else ["python"]
native_only = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
HANDS = shuffled_hands(SplitMix64(1))
BY_NAME = {"python": PY, "native": C}


def _outcome(impl: str, call: Callable[[Any], object]) -> str:
    try:
        call(BY_NAME[impl])
    except Exception as exc:  # noqa: BLE001 - the class is what is compared
        return type(exc).__name__
    return "answered"


def _gen() -> Iterator[None]:
    yield None


CALLS: dict[str, Callable[[Any], object]] = {
    "negative seed": lambda i: i.random_deal_log(-1, 0),
    "float seed": lambda i: i.random_deal_log(1.5, 0),  # type: ignore[arg-type]
    "negative seed, many": lambda i: i.random_deals(1, -1, 0),
    "no deals, bad level": lambda i: i.random_deals(0, 1, 13),
    "bad level": lambda i: i.random_deal_log(1, 13),
    "str log": lambda i: i.replay_log(HANDS, 0, Seat.N, "abc"),  # type: ignore[arg-type]
    "empty str log": lambda i: i.replay_log(HANDS, 0, Seat.N, ""),  # type: ignore[arg-type]
    "bytes log": lambda i: i.replay_log(HANDS, 0, Seat.N, b""),  # type: ignore[arg-type]
    "generator log": lambda i: i.replay_log(HANDS, 0, Seat.N, _gen()),  # type: ignore[arg-type]
    "dict log": lambda i: i.replay_log(HANDS, 0, Seat.N, {}),  # type: ignore[arg-type]
    "set log": lambda i: i.replay_log(HANDS, 0, Seat.N, set()),  # type: ignore[arg-type]
    "generator hands": lambda i: i.replay_log((h for h in HANDS), 0, Seat.N, []),  # type: ignore[arg-type]
    "range log": lambda i: i.replay_log(HANDS, 0, Seat.N, range(0)),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("name", list(CALLS))
def test_both_cores_take_and_refuse_the_same_inputs(name: str) -> None:
    got = {impl: _outcome(impl, CALLS[name]) for impl in IMPLS}
    assert len(set(got.values())) == 1, got
    assert got["python"] == ("answered" if name == "range log" else got["python"])
    if name != "range log":
        assert got["python"] != "answered"


@pytest.mark.parametrize("field,value", [("bomb_max", 5.0), ("bomb_max", True),
                                         ("jiefeng_next", 1), ("double_down_plus4", "yes")])
def test_a_rule_set_of_the_wrong_types_is_refused(field: str, value: Any) -> None:
    with pytest.raises(ValueError, match=field):
        Ruleset(**{field: value})


@native_only
def test_the_core_reads_a_rule_set_s_values_at_every_call() -> None:
    bomb6 = parse_cards("S5 H5 C5 D5 S5 H5")
    rules = Ruleset()
    assert (ComboType.BOMB, 3) in C.reading_keys(bomb6, 0, rules)
    object.__setattr__(rules, "bomb_max", 5)  # changed behind the frozen dataclass's back
    assert (ComboType.BOMB, 3) not in C.reading_keys(bomb6, 0, rules)
    assert (ComboType.BOMB, 3) not in PY.reading_keys(bomb6, 0, rules)


@native_only
def test_another_rules_object_is_read_by_its_attributes_at_every_call() -> None:
    bomb6 = parse_cards("S5 H5 C5 D5 S5 H5")
    rules = SimpleNamespace(joker_pair_in_full_house=True, bomb_max=10, jiefeng_next=False,
                            double_down_plus4=False)
    assert (ComboType.BOMB, 3) in C.reading_keys(bomb6, 0, rules)
    rules.bomb_max = 5
    assert (ComboType.BOMB, 3) not in C.reading_keys(bomb6, 0, rules)


@pytest.mark.parametrize("impl", IMPLS)
def test_a_play_list_is_a_sequence_equal_to_the_list_of_its_plays(impl: str) -> None:
    plays = BY_NAME[impl].legal_play_list(parse_cards("S3 S3 H4 C5 D6 H7 SB H9 H9"), 5)
    as_list = list(plays)
    assert isinstance(plays, Sequence)
    assert plays == as_list and not plays != as_list
    assert plays[1:4] == as_list[1:4] and plays[::-2] == as_list[::-2]
    assert plays[-1] == as_list[-1]
    assert plays.index(as_list[3]) == 3 and plays.count(as_list[2]) == 1
    assert list(reversed(plays)) == as_list[::-1]
    assert as_list[5] in plays
    assert plays != as_list[:-1]


def _position(seed: int, k: int = 5) -> Position:
    ids = random.Random(seed).sample(range(108), 4 * k)
    return Position(tuple(from_ids(ids[k * i : k * i + k]) for i in range(4)),  # type: ignore[arg-type]
                    0, None, -1, 0, -1, 0)


def _hard() -> Position:
    ids = random.Random(11).sample(range(108), 4 * 13)
    return Position(tuple(from_ids(ids[13 * i : 13 * i + 13]) for i in range(4)),  # type: ignore[arg-type]
                    0, None, -1, 0, -1, 0)


IMPOSSIBLE = {
    "a hand of 28 cards": lambda p: p._replace(hands=(from_ids(range(28)),) + p.hands[1:]),
    "three packs": lambda p: p._replace(hands=(from_ids(range(0, 54)), from_ids(range(0, 27)),
                                               from_ids(range(54, 81)), p.hands[3])),
    "a card three times": lambda p: p._replace(hands=(from_ids([0, 1]), from_ids([0]),
                                                      from_ids([5]), from_ids([6]))),
    "turn 4": lambda p: p._replace(turn=4),
    "an out seat with cards": lambda p: p._replace(out=1, first=0),
    "a play to beat by nobody": lambda p: p._replace(
        to_beat=Combo(ComboType.SINGLE, 3, from_ids([20]))),
    "a play to beat no reading": lambda p: p._replace(
        to_beat=Combo(ComboType.PAIR, 3, from_ids([20])), last=1),
    "not a Combo": lambda p: p._replace(to_beat=(1, 2, 3), last=1),
    "three hands": lambda p: p._replace(hands=p.hands[:3]),
    "bad cards": lambda p: p._replace(hands=(-1,) + p.hands[1:]),
}


@pytest.mark.parametrize("name", list(IMPOSSIBLE))
def test_both_searches_refuse_an_impossible_position_alike(name: str) -> None:
    pos = IMPOSSIBLE[name](_position(1))
    got = {}
    for impl in IMPLS:
        solver = Solver(0, max_nodes=10**5, max_seconds=1.0)
        with pytest.raises(GuandanError) as caught:
            BY_NAME[impl].solver_value(solver, pos)
        with pytest.raises(type(caught.value)):
            BY_NAME[impl].solver_test(solver, pos, 1)
        got[impl] = type(caught.value)
    assert len(set(got.values())) == 1, got
    with pytest.raises(GuandanError):
        check_position(pos, 0)


@native_only
def test_a_failed_single_question_leaves_the_next_value_sound() -> None:
    pos = _position(2)
    solver = Solver(0)
    want = solver.c_value(pos)
    with pytest.raises(GuandanError):
        solver.c_test(IMPOSSIBLE["turn 4"](pos), 1)
    with pytest.raises(GuandanError):
        solver._native.value(pos.hands, 9, None, -1, 0, -1, 0, None, None, 1)
    assert solver.c_value(pos) == want
    assert solver.c_test(pos, want) and not (want < 3 and solver.c_test(pos, 3))


@pytest.mark.parametrize("impl", IMPLS)
def test_a_time_budget_is_reported_as_time(impl: str) -> None:
    value, test = BY_NAME[impl].solver_value, BY_NAME[impl].solver_test
    solver = Solver(0, max_seconds=0.001)
    with pytest.raises(BudgetExceeded) as caught:
        value(solver, _hard())
    assert caught.value.by_time and "time budget of 0.001 s" in str(caught.value)
    with pytest.raises(BudgetExceeded) as caught:
        test(solver, _hard(), 1)
    assert caught.value.by_time
    solver = Solver(0, max_nodes=100)
    with pytest.raises(BudgetExceeded) as caught:
        test(solver, _hard(), 1)
    assert not caught.value.by_time and "node budget of 100" in str(caught.value)


@native_only
def test_grouped_refuses_a_hand_no_deal_has() -> None:
    solver = solver_module.NATIVE.Solver(0, COMPETITION)  # type: ignore[union-attr]
    with pytest.raises(GuandanError, match="at most 27"):
        solver.grouped(FULL_PACK, None)
