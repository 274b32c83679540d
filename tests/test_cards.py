"""Cards, kinds, tokens and the ``Cards`` multiset (RULES.md §1, FORMAT.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    FULL_PACK,
    KIND_HR,
    KIND_SB,
    KIND_TOKENS,
    count,
    format_cards,
    from_ids,
    is_subset,
    iter_kinds,
    level_value,
    parse_cards,
    parse_kind,
    parse_level,
    rank_counts,
    size,
    wild_kind,
)
from engine.errors import InvalidCardError


def test_tokens_round_trip() -> None:
    assert len(set(KIND_TOKENS)) == 54
    for k, tok in enumerate(KIND_TOKENS):
        assert parse_kind(tok) == k
    assert parse_kind("SB") == KIND_SB and parse_kind("HR") == KIND_HR
    assert parse_kind("H10") == parse_kind("HT")


@pytest.mark.parametrize("bad", ["S1", "X5", "SR", "HB", "", "S55", "BJ"])
def test_bad_token_named(bad: str) -> None:
    with pytest.raises(InvalidCardError, match=repr(bad).replace("[", r"\[")):
        parse_kind(bad)


def test_three_copies_refused() -> None:
    with pytest.raises(InvalidCardError, match="more than twice"):
        parse_cards("S5 S5 S5")


def test_full_pack() -> None:
    assert size(FULL_PACK) == 108
    assert from_ids(range(108)) == FULL_PACK
    assert rank_counts(FULL_PACK) == [8] * 13 + [2, 2]


def test_level_order() -> None:
    level = parse_level("7")
    order = sorted(range(15), key=lambda r: level_value(r, level))
    assert [r for r in order] == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 5, 13, 14]
    assert wild_kind(level) == parse_kind("H7")


def test_format_sorted_by_level() -> None:
    cards = parse_cards("HR S7 SA S2 SB")
    assert format_cards(cards) == "S2 S7 SA SB HR"
    assert format_cards(cards, parse_level("7")) == "S2 SA S7 SB HR"


kinds_lists = st.lists(st.integers(0, 53), max_size=40)


@given(kinds_lists, kinds_lists)
def test_subset_matches_counter(a: list[int], b: list[int]) -> None:
    a = [k for k in a if a.count(k) <= 2]
    b = [k for k in b if b.count(k) <= 2]
    ca, cb = parse_cards(KIND_TOKENS[k] for k in a), parse_cards(KIND_TOKENS[k] for k in b)
    expected = all(a.count(k) <= b.count(k) for k in set(a))
    assert is_subset(ca, cb) == expected
    if expected:
        rest = cb - ca
        assert size(rest) == len(b) - len(a)
        assert all(count(rest, k) == b.count(k) - a.count(k) for k in range(54))
    assert sorted(iter_kinds(ca)) == sorted(a)
