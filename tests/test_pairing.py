"""Tests for duplicate.pairing: seeded draws, Swiss rounds, round robins, match seating."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.pairing import (
    MatchSeating,
    Pairing,
    PairingError,
    SeatingError,
    TeamId,
    draw_key,
    first_round,
    has_perfect_matching,
    round_robin,
    seat_match,
    seeded_order,
    swiss_round,
    validate_seating,
)
from engine.errors import GuandanError
from engine.seat import Seat

# --- draws ----------------------------------------------------------------------------


def test_draw_key_is_sha256_of_seed_and_team() -> None:
    want = hashlib.sha256(b"guandan-duplicate/draw\0s3cret\0T7").digest()
    assert draw_key("s3cret", "T7") == want
    assert draw_key(b"s3cret", "T7") == want


def test_seeded_order_is_deterministic_and_input_order_free() -> None:
    teams = [f"T{i}" for i in range(12)]
    a = seeded_order(teams, "seed-1")
    assert a == seeded_order(list(reversed(teams)), "seed-1")
    assert sorted(a) == sorted(teams)
    assert a != seeded_order(teams, "seed-2")  # 1 chance in 12! of a false failure


def test_seeded_order_rejects_duplicates() -> None:
    with pytest.raises(PairingError, match="appears twice"):
        seeded_order([1, "1"], "s")
    assert issubclass(PairingError, GuandanError)


def test_first_round_pairs_lots_and_gives_the_bye_to_the_last_lot() -> None:
    teams = list(range(1, 8))
    order = seeded_order(teams, "event", "round1")
    p = first_round(teams, "event")
    assert p.bye == order[-1]
    assert p.tables == ((order[0], order[1]), (order[2], order[3]), (order[4], order[5]))
    assert p == first_round(teams, "event")


# --- matching --------------------------------------------------------------------------


def _brute_force_perfect(n: int, allowed: list[list[bool]]) -> bool:
    def rec(left: list[int]) -> bool:
        if not left:
            return True
        a = left[0]
        return any(allowed[a][b] and rec([v for v in left[1:] if v != b]) for b in left[1:])

    return rec(list(range(n)))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5).flatmap(lambda h: st.tuples(
    st.just(2 * h), st.lists(st.booleans(), min_size=4 * h * h, max_size=4 * h * h))))  # fmt: skip
def test_blossom_agrees_with_brute_force(case: tuple[int, list[bool]]) -> None:
    n, bits = case
    allowed = [[False] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            allowed[i][j] = allowed[j][i] = bits[i * n + j]
    assert has_perfect_matching(n, allowed) == _brute_force_perfect(n, allowed)


def test_odd_cycle_needs_a_blossom() -> None:
    # Two triangles joined by one edge: a perfect matching exists only through the bridge.
    n = 6
    allowed = [[False] * n for _ in range(n)]
    for a, b in [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)]:
        allowed[a][b] = allowed[b][a] = True
    assert has_perfect_matching(n, allowed)
    allowed[2][3] = allowed[3][2] = False
    assert not has_perfect_matching(n, allowed)


# --- Swiss -----------------------------------------------------------------------------


def test_swiss_high_against_high() -> None:
    p = swiss_round(["A", "B", "C", "D", "E", "F"])
    assert p.tables == (("A", "B"), ("C", "D"), ("E", "F")) and p.bye is None


def test_swiss_avoids_repeats_with_the_next_best() -> None:
    p = swiss_round(["A", "B", "C", "D"], played=[("A", "B")])
    assert p.tables == (("A", "C"), ("B", "D"))


def test_swiss_backtracks_when_greedy_would_strand_teams() -> None:
    # Greedy A-B, C-D would leave E-F, who have met; C-E would leave D-F, who have met
    # too: the pairing keeps A-B and gives C its third choice.
    played = [("E", "F"), ("D", "F")]
    p = swiss_round(["A", "B", "C", "D", "E", "F"], played)
    assert p.tables == (("A", "B"), ("C", "F"), ("D", "E"))
    # When A-B itself makes the rest impossible (C has met D, E, F), A takes C.
    played2 = [("C", "D"), ("C", "E"), ("C", "F")]
    p2 = swiss_round(["A", "B", "C", "D", "E", "F"], played2)
    assert p2.tables == (("A", "C"), ("B", "D"), ("E", "F"))


def test_swiss_impossible_pairing_is_an_error() -> None:
    with pytest.raises(PairingError, match="no pairing of these 4 teams"):
        swiss_round(["A", "B", "C", "D"], played=[("A", "B"), ("A", "C"), ("A", "D")])


def test_swiss_bye_goes_to_lowest_without_one() -> None:
    teams = ["A", "B", "C", "D", "E"]
    assert swiss_round(teams).bye == "E"
    assert swiss_round(teams, byes=["E"]).bye == "D"
    assert swiss_round(teams, byes=["E", "D", "C", "B", "A"]).bye == "E"


def test_swiss_bye_skips_a_team_whose_bye_makes_pairing_impossible() -> None:
    # If E sits out, A must meet someone new among B, C, D: all met. So D gets the bye.
    teams = ["A", "B", "C", "D", "E"]
    p = swiss_round(teams, played=[("A", "B"), ("A", "C"), ("A", "D")])
    assert p.bye == "D" and ("A", "E") in p.tables


def _run_swiss(n: int, rounds: int, rng: random.Random) -> list[Pairing]:
    """Play a Swiss event with random results; stop early when no pairing is possible."""
    teams: list[TeamId] = [f"T{i:02d}" for i in range(n)]
    points = Counter[TeamId]()
    played: list[tuple[TeamId, TeamId]] = []
    byes: list[TeamId] = []
    out: list[Pairing] = []
    for r in range(rounds):
        standing = sorted(teams, key=lambda t: (-points[t], t))
        if r == 0:
            p = first_round(teams, f"seed-{n}")
        else:
            try:
                p = swiss_round(standing, played, byes)
            except PairingError:
                assert not _possible(standing, played)
                break
        out.append(p)
        if p.bye is not None:
            # bye fairness: a team with fewer byes (or a lower one with as many) was passed
            # over only because the rest could not then be paired
            rank = standing.index(p.bye)
            for i, t in enumerate(standing):
                fewer = byes.count(t) < byes.count(p.bye)
                lower_same = byes.count(t) == byes.count(p.bye) and i > rank
                if r > 0 and (fewer or lower_same):
                    assert not _pairable(standing, played, t)
        for x, y in p.tables:
            played.append((x, y))
            res = rng.choice([(2, 0), (1, 1), (0, 2)])
            points[x] += res[0]
            points[y] += res[1]
        if p.bye is not None:
            byes.append(p.bye)
            points[p.bye] += 2
    return out


def _pairable(
    teams: list[TeamId], played: list[tuple[TeamId, TeamId]], out: TeamId | None = None
) -> bool:
    """Independent check: can ``teams`` minus ``out`` be paired without a repeat?"""
    met = {frozenset(p) for p in played}
    rest = [t for t in teams if t != out]
    allowed = [[a != b and frozenset((a, b)) not in met for b in rest] for a in rest]
    return has_perfect_matching(len(rest), allowed)


def _possible(teams: list[TeamId], played: list[tuple[TeamId, TeamId]]) -> bool:
    """Can the field (minus any one bye, when odd) be paired without repeats?"""
    if len(teams) % 2 == 0:
        return _pairable(teams, played)
    return any(_pairable(teams, played, t) for t in teams)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.integers(1, 12), st.integers(0, 2**32))
def test_swiss_never_repeats_and_everyone_plays(n: int, rounds: int, seed: int) -> None:
    pairings = _run_swiss(n, rounds, random.Random(seed))
    met: set[frozenset[TeamId]] = set()
    byes = Counter[TeamId]()
    for p in pairings:
        teams = p.teams()
        assert len(teams) == n == len(set(teams))
        assert (p.bye is None) == (n % 2 == 0)
        for x, y in p.tables:
            assert frozenset((x, y)) not in met
            met.add(frozenset((x, y)))
        if p.bye is not None:
            byes[p.bye] += 1
    # byes are spread: usually nobody has a second bye while another has none
    if byes:
        assert max(byes.values()) <= min(byes[t] for t in pairings[0].teams()) + 2


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 10))
def test_swiss_runs_until_truly_stuck(n: int) -> None:
    # Many rounds: the loop stops only when the independent check agrees it is impossible.
    pairings = _run_swiss(n, n + 2, random.Random(n))
    assert 1 <= len(pairings) <= n


def test_swiss_is_deterministic() -> None:
    a = _run_swiss(17, 6, random.Random(5))
    b = _run_swiss(17, 6, random.Random(5))
    assert a == b


# --- round robin -----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 15))
def test_round_robin_everyone_meets_once(n: int) -> None:
    teams = list(range(n))
    rounds = round_robin(teams)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(t) for p in rounds for t in p.tables)
    assert set(meetings) == {frozenset(c) for c in itertools.combinations(teams, 2)}
    assert set(meetings.values()) == {1}
    for p in rounds:
        assert sorted(p.teams()) == teams
    if n % 2:
        assert sorted(p.bye for p in rounds if p.bye is not None) == teams
    x_count = Counter(x for p in rounds for x, _ in p.tables)
    for t in teams:
        assert abs(2 * x_count[t] - (n - 1)) <= 1  # X (open-room N-S) about half the time


def test_round_robin_needs_two_teams() -> None:
    with pytest.raises(PairingError):
        round_robin(["solo"])


# --- seating ---------------------------------------------------------------------------

X = (("x1", "x2"), ("x3", "x4"))
Y = (("y1", "y2"), ("y3", "y4"))


def test_seat_match_swaps_sides_between_rooms() -> None:
    s = seat_match(X, Y)
    assert s.open_room == {Seat.N: "x1", Seat.S: "x2", Seat.E: "y1", Seat.W: "y2"}
    assert s.closed_room == {Seat.N: "y3", Seat.S: "y4", Seat.E: "x3", Seat.W: "x4"}


def test_validator_refuses_a_broken_swap() -> None:
    xs, ys = ["x1", "x2", "x3", "x4"], ["y1", "y2", "y3", "y4"]
    bad = MatchSeating(
        open_room={Seat.N: "x1", Seat.S: "x2", Seat.E: "y1", Seat.W: "y2"},
        closed_room={Seat.N: "x3", Seat.S: "x4", Seat.E: "y3", Seat.W: "y4"},
    )
    with pytest.raises(SeatingError, match="closed room, seat N: x3 of team X may not sit N–S"):
        validate_seating(bad, xs, ys)
    twice = MatchSeating(
        open_room={Seat.N: "x1", Seat.S: "x2", Seat.E: "y1", Seat.W: "y2"},
        closed_room={Seat.N: "y3", Seat.S: "y4", Seat.E: "x1", Seat.W: "x4"},
    )
    with pytest.raises(SeatingError, match="x1 already sits in open room N"):
        validate_seating(twice, xs, ys)
    stranger = MatchSeating(
        open_room={Seat.N: "x1", Seat.S: "zz", Seat.E: "y1", Seat.W: "y2"},
        closed_room={Seat.N: "y3", Seat.S: "y4", Seat.E: "x3", Seat.W: "x4"},
    )
    with pytest.raises(SeatingError, match="zz is in neither team"):
        validate_seating(stranger, xs, ys)
    with pytest.raises(SeatingError, match="both teams"):
        seat_match(X, (("x1", "y2"), ("y3", "y4")))
