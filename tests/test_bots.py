"""Self-play bots (duplicate/bots.py): the PRNG, the hand plan, each policy's choices."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.bots import (
    BotError,
    HeuristicPlayer,
    RandomPlayer,
    View,
    XorShift64,
    plan_hand,
    seed_bytes,
    weakness,
)
from duplicate.dealing import LevelSchedule, derive_key, generate_board
from duplicate.policies import make_player
from engine.cards import parse_cards, parse_level, parse_rank
from engine.combo import Combo, ComboType
from engine.moves import is_legal, legal_readings
from engine.reading import read_declared
from engine.seat import Seat

T = ComboType
L2 = parse_level("2")


def c(t: ComboType, rank: str, cards: str) -> Combo:
    return Combo(t, parse_rank(rank), parse_cards(cards))


def view(
    hand: str,
    to_beat: Combo | None = None,
    by: Seat | None = None,
    counts: tuple[int, int, int, int] = (27, 27, 27, 27),
    level: int = L2,
    seat: Seat = Seat.N,
) -> View:
    return View(seat, parse_cards(hand), level, to_beat, by, counts)


# --- PRNG -------------------------------------------------------------------------


def test_xorshift_stream_is_pinned() -> None:
    # Pinned outputs: the self-play records of a seed must never change.
    rng = XorShift64(b"golden")
    assert [rng.next64() for _ in range(3)] == [
        15726297341073998329,
        11844718251898572177,
        14543789540628632497,
    ]
    rng = XorShift64(7)
    assert [rng.below(10) for _ in range(10)] == [0, 5, 6, 7, 4, 0, 9, 4, 6, 0]


def test_xorshift_seeds_are_canonical_and_checked() -> None:
    assert XorShift64(7).next64() == XorShift64("7").next64() == XorShift64(b"7").next64()
    assert XorShift64(7).next64() != XorShift64(8).next64()
    with pytest.raises(BotError, match="seed"):
        seed_bytes(1.5)  # type: ignore[arg-type]
    with pytest.raises(BotError, match="0 options"):
        XorShift64(1).below(0)


def test_below_is_roughly_uniform() -> None:
    rng = XorShift64(b"uniform")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < n < 1150 for n in counts), counts


# --- the plan -----------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(number=st.integers(1, 10_000), seed=st.binary(min_size=1, max_size=8))
def test_plan_covers_the_hand_with_valid_readings(number: int, seed: bytes) -> None:
    board = generate_board(derive_key(seed.ljust(32, b"\0")), number, LevelSchedule("random"))
    for hand in board.hands:
        plan = plan_hand(hand, board.level)
        total = 0
        for combo in plan.bombs + plan.others:
            total += combo.cards
            assert read_declared(combo.cards, board.level, combo.type, combo.rank) == combo
        assert total == hand
        assert all(b.is_bomb_class for b in plan.bombs)
        assert not any(o.is_bomb_class for o in plan.others)
        # leading order: weakest first
        weak = [weakness(o, board.level) for o in plan.others]
        assert weak == sorted(weak)


def test_plan_keeps_bombs_and_joker_bomb_aside() -> None:
    plan = plan_hand(parse_cards("SB SB HR HR S9 H9 C9 D9 S3 H4 C5 D6 S7"), L2)
    assert [b.type for b in plan.bombs] == [T.BOMB, T.FOUR_KINGS]
    assert plan.others == (c(T.STRAIGHT, "3", "S3 H4 C5 D6 S7"),)


def test_plan_wild_completes_the_strongest_triple_into_a_bomb() -> None:
    level = parse_level("7")
    plan = plan_hand(parse_cards("H7 S4 H4 C4 SK HK CK D9"), level)
    assert plan.bombs == (c(T.BOMB, "K", "SK HK CK H7"),)
    assert c(T.TRIPS, "4", "S4 H4 C4") in plan.others


def test_plan_wild_without_triple_stays_a_level_card() -> None:
    level = parse_level("7")
    plan = plan_hand(parse_cards("H7 S7 S4 C9"), level)
    assert plan.bombs == ()
    assert c(T.PAIR, "7", "H7 S7") in plan.others


def test_plan_full_house_takes_the_smallest_pair_and_tubes_form() -> None:
    plan = plan_hand(parse_cards("S8 H8 C8 SQ HQ S3 H3 S5 H5 C6 D6 S7 D7"), L2)
    assert c(T.THREE_WITH_TWO, "8", "S8 H8 C8 S3 H3") in plan.others
    assert c(T.THREE_PAIR, "5", "S5 H5 C6 D6 S7 D7") in plan.others
    assert c(T.PAIR, "Q", "SQ HQ") in plan.others
    assert plan.plays == 3


def test_plan_straight_flush_is_kept_aside() -> None:
    plan = plan_hand(parse_cards("S3 S4 S5 S6 S7 DK"), L2)
    assert plan.bombs == (c(T.STRAIGHT_FLUSH, "3", "S3 S4 S5 S6 S7"),)
    assert plan.others == (c(T.SINGLE, "K", "DK"),)
    # a wild heart completes a straight flush four of whose cards are held (before a triple)
    level = parse_level("Q")
    plan = plan_hand(parse_cards("HQ C9 CT CJ CK D3 D3 S3"), level)
    assert plan.bombs == (c(T.STRAIGHT_FLUSH, "9", "C9 CT CJ HQ CK"),)
    assert plan.others == (c(T.TRIPS, "3", "D3 D3 S3"),)


# --- the heuristic player -----------------------------------------------------------

H = HeuristicPlayer()


def test_heuristic_leads_the_weakest_combination_with_most_cards() -> None:
    v = view("S3 H4 C5 D6 S7 SA HA S9")
    assert H.act(v) == c(T.STRAIGHT, "3", "S3 H4 C5 D6 S7")


def test_heuristic_follows_cheaply_and_never_breaks_a_bomb() -> None:
    tb = c(T.SINGLE, "5", "D5")
    v = view("S9 H9 C9 D9 S8 SK", tb, Seat.W)
    assert H.act(v) == c(T.SINGLE, "8", "S8")
    v = view("S9 H9 C9 D9 S3 D4", tb, Seat.W)
    assert H.act(v) is None  # only the bomb's nines beat it; opponents are far from out


def test_heuristic_leaves_the_partners_play_alone() -> None:
    v = view("S8 SK SA", c(T.SINGLE, "5", "D5"), Seat.S)
    assert H.act(v) is None
    # ... unless one play empties the hand
    v = view("SK", c(T.SINGLE, "5", "D5"), Seat.S)
    assert H.act(v) == c(T.SINGLE, "K", "SK")


def test_heuristic_bombs_only_when_it_matters() -> None:
    tb = c(T.PAIR, "A", "SA HA")
    hand = "S9 H9 C9 D9 S3 H4 C6 D8 ST SJ"
    bomb = c(T.BOMB, "9", "S9 H9 C9 D9")
    # W played: N answers first, the partner S may still answer after E
    assert H.act(view(hand, tb, Seat.W)) is None
    close = view(hand, tb, Seat.W, counts=(10, 27, 27, 4))
    assert H.act(close) == bomb
    # the bomb wins the trick and the last combination then goes out
    last = view("S9 H9 C9 D9 S3", tb, Seat.W)
    assert H.act(last) == bomb
    # E played and S and W passed: N is the last to answer (不惜火)
    assert H.act(view(hand, tb, Seat.E)) == bomb
    # ... and so is N when W played and E and S are out
    assert H.act(view(hand, tb, Seat.W, counts=(10, 0, 0, 20))) == bomb
    # a bomb that does not beat is no answer
    big = c(T.BOMB, "K", "SK HK CK DK DK")
    assert H.act(view(hand, big, Seat.E, counts=(10, 3, 27, 27))) is None


def test_heuristic_breaks_a_combination_only_cheaply() -> None:
    tb = c(T.SINGLE, "9", "D9")
    # a pair of queens broken for a single: one more play later, accepted
    assert H.act(view("SQ HQ S3 H3 C5", tb, Seat.W)) == c(T.SINGLE, "Q", "SQ")
    # a straight broken for its ten: three more plays later, refused ...
    straight = "S6 H7 C8 D9 ST S3 S3"
    assert H.act(view(straight, tb, Seat.W)) is None
    # ... unless an opponent is close to finishing
    assert H.act(view(straight, tb, Seat.W, counts=(7, 27, 27, 2))) == c(T.SINGLE, "T", "ST")


def test_heuristic_helps_a_partner_with_one_card_and_starves_an_opponent() -> None:
    hand = "S3 H3 S5 SK"
    partner_one = view(hand, counts=(4, 20, 1, 20))
    assert H.act(partner_one) == c(T.SINGLE, "5", "S5")
    opponent_one = view(hand, counts=(4, 1, 20, 20))
    assert H.act(opponent_one) == c(T.PAIR, "3", "S3 H3")
    singles_only = view("S5 SK", counts=(2, 1, 20, 20))
    assert H.act(singles_only) == c(T.SINGLE, "K", "SK")


def test_heuristic_plays_are_legal_on_dealt_hands() -> None:
    board = generate_board(derive_key(bytes(32)), 3, LevelSchedule("cycle"))
    for hand in board.hands:
        lead = H.act(View(Seat.N, hand, board.level, None, None, (27, 27, 27, 27)))
        assert lead is not None and is_legal(hand, lead, board.level)
        for tb in (c(T.SINGLE, "3", "S3"), c(T.PAIR, "4", "S4 C4"), c(T.STRAIGHT, "A", "SA S2 S3 S4 D5")):
            answer = H.act(View(Seat.N, hand, board.level, tb, Seat.E, (27, 3, 27, 27)))
            assert answer is None or is_legal(hand, answer, board.level, tb)


# --- the random player ------------------------------------------------------------


def test_random_player_chooses_legal_actions_and_passes_sometimes() -> None:
    hand = parse_cards("S3 H4 C5 D6 S7 SA HA S9 C9 D9 H9")
    tb = c(T.SINGLE, "8", "D8")
    p = RandomPlayer(b"r")
    answers = [p.act(View(Seat.N, hand, L2, tb, Seat.W, (11, 27, 27, 27))) for _ in range(200)]
    options = legal_readings(hand, L2, tb)
    assert None in answers
    assert {a for a in answers if a is not None} == set(options)
    for _ in range(50):
        lead = p.act(View(Seat.N, hand, L2, None, None, (11, 27, 27, 27)))
        assert lead is not None and is_legal(hand, lead, L2)


def test_random_player_is_deterministic_from_its_seed() -> None:
    hand = parse_cards("S3 H4 C5 D6 S7 SA HA S9 C9 D9 H9 SK DK")
    v = View(Seat.N, hand, L2, None, None, (13, 27, 27, 27))
    a, b, other = RandomPlayer(5), RandomPlayer(5), RandomPlayer(6)
    first = [a.act(v) for _ in range(30)]
    assert first == [b.act(v) for _ in range(30)]
    assert first != [other.act(v) for _ in range(30)]


def test_make_player_by_name() -> None:
    assert make_player("random", 1).name == "random"
    assert make_player("heuristic").name == "heuristic"
    with pytest.raises(BotError, match="unknown bot policy 'clever'"):
        make_player("clever")
