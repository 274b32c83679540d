"""Statistical evidence that the dealing is fair (DUPLICATE.md "Fair dealing").

Deterministic (fixed seeds) and quick (a few thousand boards). A chi-square statistic is
turned into a z-score with the Wilson–Hilferty approximation and must lie within ±Z_MAX:
too large means bias, too small means deals more regular than chance (a rigged or
round-robin dealer). Each test also shows that it catches an unfair dealer, so that it
asserts something that could fail.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence

import pytest

from duplicate.dealing import (
    GENERATOR_ID,
    GENERATORS,
    LevelSchedule,
    derive_key,
    generate_board,
    generate_boards,
    stream_words,
)
from engine.cards import count, wild_kind

BOARDS = 4000
Z_MAX = 4.0
KEY = derive_key(hashlib.sha256(b"fairness tests").digest())
SHUFFLE = GENERATORS[GENERATOR_ID].shuffle

Dealer = Callable[[bytes, int], list[int]]


def wilson_hilferty(statistic: float, df: int) -> float:
    """The z-score of a chi-square ``statistic`` with ``df`` degrees of freedom."""
    return ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))


def chi_square(observed: Iterable[float], expected: Iterable[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))


def deals(dealer: Dealer, boards: int = BOARDS) -> list[list[int]]:
    return [dealer(KEY, n) for n in range(1, boards + 1)]


def card_seat_z(shuffles: Sequence[list[int]]) -> float:
    """Each of the 108 cards in each of the 4 seats a quarter of the time: z of chi-square."""
    table = [[0] * 4 for _ in range(108)]
    for ids in shuffles:
        for position, card in enumerate(ids):
            table[card][position // 27] += 1
    expected = len(shuffles) / 4
    stat = chi_square((x for row in table for x in row), [expected] * (108 * 4))
    return wilson_hilferty(stat, 108 * 3)


def card_position_z(shuffles: Sequence[list[int]]) -> float:
    """Each card at each of the 108 positions equally often (both margins fixed)."""
    table = [[0] * 108 for _ in range(108)]
    for ids in shuffles:
        for position, card in enumerate(ids):
            table[card][position] += 1
    expected = len(shuffles) / 108
    stat = chi_square((x for row in table for x in row), [expected] * (108 * 108))
    return wilson_hilferty(stat, 107 * 107)


def naive_shuffle(key: bytes, number: int) -> list[int]:
    """The classic mistake: swap with any position, not only the unshuffled ones."""
    words = stream_words(key, b"", number)
    ids = list(range(108))
    for i in range(107, -1, -1):
        j = next(words) % 108
        ids[i], ids[j] = ids[j], ids[i]
    return ids


def jokers_to_north(key: bytes, number: int) -> list[int]:
    """A rigged dealer: a fair shuffle, then big jokers dealt to S are swapped into N."""
    ids = SHUFFLE(key, number)
    for position in range(54, 81):
        if ids[position] >> 1 == 53:
            ids[position], ids[position - 54] = ids[position - 54], ids[position]
    return ids


def round_robin(key: bytes, number: int) -> list[int]:
    """Too regular: card c always to seat c mod 4, only the order within seats varies."""
    ids = SHUFFLE(key, number)
    by_seat: list[list[int]] = [sorted(range(s, 108, 4), key=ids.index) for s in range(4)]
    return [c for hand in by_seat for c in hand]


@pytest.fixture(scope="module")
def fair() -> list[list[int]]:
    return deals(SHUFFLE)


def test_each_card_in_each_seat_a_quarter_of_the_time(fair: list[list[int]]) -> None:
    assert abs(card_seat_z(fair)) < Z_MAX


def test_each_card_at_each_position_equally_often(fair: list[list[int]]) -> None:
    assert abs(card_position_z(fair)) < Z_MAX


@pytest.mark.parametrize("dealer", [naive_shuffle, jokers_to_north, round_robin])
def test_unfair_dealers_are_caught(dealer: Dealer) -> None:
    shuffles = deals(dealer, 2000)
    assert abs(card_seat_z(shuffles)) > Z_MAX or abs(card_position_z(shuffles)) > Z_MAX


def hypergeometric(k: int) -> float:
    """P(a 27-card hand holds k of the 2 wild hearts), drawing from 108 cards."""
    return math.comb(2, k) * math.comb(106, 27 - k) / math.comb(108, 27)


def wild_counts(boards: Iterable[tuple[int, int]]) -> list[int]:
    """How many hands (one per board) hold 0, 1 and 2 wild hearts."""
    counts = [0, 0, 0]
    for hand, level in boards:
        counts[count(hand, wild_kind(level))] += 1
    return counts


def test_wild_hearts_per_hand_follow_the_hypergeometric_law() -> None:
    # 81·80, 2·27·81 and 27·26 over 108·107: 6480, 4374 and 702 in 11556
    assert [round(hypergeometric(k) * 11556, 9) for k in range(3)] == [6480, 4374, 702]
    boards = generate_boards(KEY, BOARDS, LevelSchedule.parse("cycle"))
    # one hand per board (the seats in turn), so the hands counted are independent
    counts = wild_counts((b.hands[b.number % 4], b.level) for b in boards)
    expected = [BOARDS * hypergeometric(k) for k in range(3)]
    assert chi_square(counts, expected) < 13.82  # chi-square, 2 df, p = 0.001
    # a dealer that never gives anyone both wild hearts fails the same test
    rigged = [counts[0], counts[1] + counts[2], 0]
    assert chi_square(rigged, expected) > 13.82


def test_random_levels_are_uniform() -> None:
    levels = [0] * 13
    for board in generate_boards(KEY, 2600, LevelSchedule.parse("random")):
        levels[board.level] += 1
    assert chi_square(levels, [200] * 13) < 32.91  # chi-square, 12 df, p = 0.001


def _same_seat(a: list[int], b: list[int]) -> int:
    """How many of the 108 physical cards two deals put in the same seat."""
    seat_a = {card: p // 27 for p, card in enumerate(a)}
    return sum(seat_a[card] == p // 27 for p, card in enumerate(b))


@pytest.mark.parametrize(
    "neighbours",
    [
        # secrets that differ by one
        lambda k: (
            derive_key(k.to_bytes(32, "big")),
            1,
            derive_key((k + 1).to_bytes(32, "big")),
            1,
        ),
        # one secret, delayed values that differ by one digit
        lambda k: (derive_key(bytes(32), f"{k}.0"), 1, derive_key(bytes(32), f"{k}.1"), 1),
        # one key, consecutive board numbers
        lambda k: (KEY, k + 1, KEY, k + 2),
    ],
    ids=["secrets", "delayed", "boards"],
)
def test_neighbouring_seeds_share_nothing(
    neighbours: Callable[[int], tuple[bytes, int, bytes, int]],
) -> None:
    pairs = 300
    same = []
    ids = set()
    for k in range(pairs):
        key_a, number_a, key_b, number_b = neighbours(k)
        a, b = SHUFFLE(key_a, number_a), SHUFFLE(key_b, number_b)
        same.append(_same_seat(a, b))
        ids.add(generate_board(key_a, number_a).deal_id)
        ids.add(generate_board(key_b, number_b).deal_id)
    # independent deals put a card in the same seat a quarter of the time: 27 of 108
    mean = sum(same) / pairs
    assert abs(mean - 27) < 5 * 4.5 / math.sqrt(pairs)
    assert max(same) < 60
    assert len(ids) >= pairs + 1  # no board repeated (pairs overlap only for "boards")


def test_neighbouring_secrets_give_unrelated_keys() -> None:
    distances = [
        int.from_bytes(derive_key(k.to_bytes(32, "big")), "big")
        ^ int.from_bytes(derive_key((k + 1).to_bytes(32, "big")), "big")
        for k in range(400)
    ]
    mean = sum(d.bit_count() for d in distances) / len(distances)
    assert abs(mean - 128) < 5 * 8 / math.sqrt(len(distances))  # half of 256 bits differ
