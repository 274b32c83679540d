"""Comparing the rooms of a board (duplicate.compare; DUPLICATE.md, "Comparing").

The crafted board below is small enough to check every figure by hand. Level 7, N leads:
N holds S3 H4 C5 D6 H7 SK (H7 is the wild heart), E S9 C9 D9 H9 D4, S SA, W ST CT S2.

Open room: N plays the straight 3-7 (H7 as itself), E bombs with four nines, all pass; E
leads D4 and is out (1st); S plays SA and is out (2nd); W and N pass, so N leads by 接风
and plays SK: N–S are both out, E 1st and W 4th: E–W +1, N–S −1.

Closed room: after the same straight E passes (the first divergence, action index 1), N
wins the trick, plays SK and is out (1st); E bombs, leads D4 and is out (2nd); S plays SA
and is out (3rd): N–S +2. Swing for the open room's N–S team: −1 − 2 = −3.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.compare import (
    BoardComparison,
    CompareError,
    card_uses,
    compare_board,
    compare_records,
    describe_combo,
    group_boards,
    headline,
    wild_uses,
)
from duplicate.gdn import DealRecord, Play, loads
from duplicate.simulate import simulate_boards, simulation_key
from engine.cards import parse_cards, parse_level, parse_rank, size
from engine.combo import Combo, ComboType
from engine.seat import Seat

# the repository copy of shared/examples (tests/test_examples.py checks it equals the original)
EXAMPLES = Path(__file__).resolve().parent / "golden" / "gdn" / "openguandan-26-deals.gdn"
L7 = parse_level("7")
T = ComboType

HANDS = ("S3 H4 C5 D6 H7 SK", "S9 C9 D9 H9 D4", "SA", "ST CT S2")
OPEN = [
    "N Straight 3 S3 H4 C5 D6 H7",
    "E Bomb 9 S9 C9 D9 H9",
    "S PASS",
    "W PASS",
    "N PASS",
    "E Single 4 D4",
    "S Single A SA",
    "W PASS",
    "N PASS",
    "N Single K SK",
]
CLOSED = [
    "N Straight 3 S3 H4 C5 D6 H7",
    "E PASS",
    "S PASS",
    "W PASS",
    "N Single K SK",
    "E Bomb 9 S9 C9 D9 H9",
    "S PASS",
    "W PASS",
    "E Single 4 D4",
    "S Single A SA",
]


def play(line: str) -> Play:
    """A play list line (``N Straight 3 S3 ...`` or ``W PASS``) as a gdn ``Play``."""
    seat, *rest = line.split()
    if rest == ["PASS"]:
        return Play(Seat.parse(seat))
    return Play(Seat.parse(seat), parse_cards(rest[2:]), T.from_name(rest[0]), parse_rank(rest[1]))


def record(
    room: str,
    lines: list[str],
    *,
    hands: tuple[str, ...] = HANDS,
    board: str = "3",
    names: tuple[str, str, str, str] = ("n", "e", "s", "w"),
    leader: Seat = Seat.N,
) -> DealRecord:
    """A record of the crafted board (hands smaller than 27 cards: the engine allows it)."""
    h = tuple(parse_cards(x) for x in hands)
    tags = {"Event": "Cup", "Round": "1", "Board": board, "Room": room}
    tags |= dict(zip(("North", "East", "South", "West"), names, strict=True))
    return DealRecord(
        tags=tags,
        hands=(h[0], h[1], h[2], h[3]),
        level=L7,
        leader=leader,
        plays=[play(x) for x in lines],
    )


def combo(t: ComboType, rank: str, cards: str) -> Combo:
    return Combo(t, parse_rank(rank), parse_cards(cards))


# --- what wild hearts stood for --------------------------------------------------------


@pytest.mark.parametrize(
    ("t", "rank", "cards", "level", "expected"),
    [
        (T.STRAIGHT, "3", "S3 H4 C5 D6 H7", "7", ["H7 as itself"]),
        (T.BOMB, "9", "S9 C9 D9 H7", "7", ["H7 as 9"]),
        (T.STRAIGHT_FLUSH, "3", "S3 S4 S5 S6 H7", "7", ["H7 as S7"]),
        (T.STRAIGHT_FLUSH, "3", "H3 H4 H5 H6 H7", "7", ["H7 as itself"]),
        (T.STRAIGHT_FLUSH, "T", "H2 HT HQ HK HA", "2", ["H2 as HJ"]),
        (T.STRAIGHT, "A", "SA S2 H7 S4 S5", "7", ["H7 as 3"]),
        (T.THREE_WITH_TWO, "5", "S5 C5 H7 S9 C9", "7", ["H7 as 5"]),
        (T.THREE_WITH_TWO, "5", "S5 C5 D5 S9 H7", "7", ["H7 as 9"]),
        (T.THREE_WITH_TWO, "5", "S5 C5 D5 H7 H7", "7", ["H7 as itself", "H7 as itself"]),
        (T.THREE_PAIR, "Q", "SQ CQ SK H7 SA CA", "7", ["H7 as K"]),
        (T.TWO_TRIPS, "A", "SA CA DA S2 C2 H7", "7", ["H7 as 2"]),
        (T.PAIR, "7", "H7 H7", "7", ["H7 as itself", "H7 as itself"]),
        (T.PAIR, "9", "S9 H7", "7", ["H7 as 9"]),
        (T.SINGLE, "7", "H7", "7", ["H7 as itself"]),
        (T.BOMB, "7", "S7 C7 D7 H7 H7", "7", ["H7 as itself", "H7 as itself"]),
        (T.BOMB, "9", "S9 C9 D9 H9", "7", []),
    ],
)
def test_wild_substitution(t: ComboType, rank: str, cards: str, level: str, expected: list[str]) -> None:
    lv = parse_level(level)
    c = combo(t, rank, cards)
    assert [u.describe(lv) for u in wild_uses(c, lv)] == expected


def test_card_uses_cover_every_card() -> None:
    c = combo(T.STRAIGHT_FLUSH, "3", "S3 S4 S5 S6 H7")
    uses = card_uses(c, L7)
    assert len(uses) == 5
    # every card counts as a spade 3..7: the wild heart fills the 7
    assert sorted((u.rank, u.suit) for u in uses) == [(r, 0) for r in range(1, 6)]
    assert [u.describe(L7) for u in uses if not u.is_wild(L7)] == ["S3", "S4", "S5", "S6"]


@pytest.mark.parametrize(
    ("t", "rank", "cards", "message"),
    [
        (T.STRAIGHT, "3", "S3 S4 S5 S6 S9", "S9 has no place"),
        (T.STRAIGHT, "3", "S3 S4 S5 S6", "4 cards"),
        (T.BOMB, "9", "S9 C9 D9 S8", "S8 has no place"),
        (T.STRAIGHT_FLUSH, "3", "S3 S4 S5 C6 H7", "of several"),
    ],
)
def test_card_uses_refuses_cards_that_are_not_the_combination(
    t: ComboType, rank: str, cards: str, message: str
) -> None:
    with pytest.raises(CompareError, match=message):
        card_uses(combo(t, rank, cards), L7)


def test_describe_combo_writes_sequences_in_natural_order() -> None:
    assert describe_combo(combo(T.STRAIGHT, "3", "H7 S3 H4 C5 D6"), L7) == (
        "Straight 3 S3 H4 C5 D6 H7"
    )
    # level order for the others: the level rank 7 above the ace
    assert describe_combo(combo(T.PAIR, "7", "S7 H7"), L7) == "Pair 7 S7 H7"
    assert describe_combo(combo(T.SINGLE, "A", "SA"), L7) == "Single A SA"


# --- the crafted board, checked by hand ------------------------------------------------


@pytest.fixture(scope="module")
def crafted() -> BoardComparison:
    return compare_board([record("Open", OPEN), record("Closed", CLOSED, names=("a", "b", "c", "d"))])


def test_results_and_swing(crafted: BoardComparison) -> None:
    op, cl = crafted.rooms
    assert (op.room, cl.room) == ("Open", "Closed")
    assert op.finish == (Seat.E, Seat.S, Seat.N, Seat.W) and op.result_ns == -1
    assert cl.finish == (Seat.N, Seat.E, Seat.S, Seat.W) and cl.result_ns == 2
    assert crafted.swing == -3
    assert (crafted.board, crafted.event, crafted.round) == ("3", "Cup", "1")


def test_per_seat_figures_open_room(crafted: BoardComparison) -> None:
    n, e, s, w = crafted.rooms[0].seats
    assert (n.player, n.place, n.plays, n.passes, n.tricks_won, n.leads) == ("n", 3, 2, 2, 1, 2)
    assert (e.place, e.plays, e.passes, e.tricks_won, e.leads, e.bombs) == (1, 2, 0, 1, 1, 1)
    assert (s.place, s.plays, s.passes, s.tricks_won, s.leads) == (2, 1, 1, 1, 0)
    assert (w.place, w.plays, w.passes, w.tricks_won, w.leads) == (4, 0, 2, 0, 0)
    # 接风: S won trick 2 with its last card, N led the next trick
    assert (s.jiefeng_given, n.jiefeng_received) == (1, 1)
    assert sum(x.jiefeng_given + x.jiefeng_received for x in (e, w)) == 0
    assert [(x.use.describe(L7), x.index, x.play) for x in n.wilds] == [
        ("H7 as itself", 0, "Straight 3 S3 H4 C5 D6 H7")
    ]
    assert w.cards_left == parse_cards("ST CT S2") and n.cards_left == 0
    assert n.bombs == n.straight_flushes == n.joker_bombs == 0


def test_per_seat_figures_closed_room(crafted: BoardComparison) -> None:
    n, e, s, w = crafted.rooms[1].seats
    assert (n.player, n.place, n.plays, n.passes, n.tricks_won, n.leads) == ("a", 1, 2, 0, 1, 2)
    assert (e.place, e.plays, e.passes, e.tricks_won, e.leads, e.bombs) == (2, 2, 1, 1, 1, 1)
    assert (s.place, s.plays, s.passes, s.tricks_won, s.leads) == (3, 1, 2, 1, 0)
    assert (w.place, w.plays, w.passes) == (4, 0, 2)
    assert all(x.jiefeng_given == x.jiefeng_received == 0 for x in (n, e, s, w))


def test_tricks(crafted: BoardComparison) -> None:
    op = [(t.leader, t.winner, t.complete, t.jiefeng, len(t.steps)) for t in crafted.rooms[0].tricks]
    assert op == [
        (Seat.N, Seat.E, True, False, 5),
        (Seat.E, Seat.S, True, True, 4),
        (Seat.N, Seat.N, False, False, 1),
    ]
    cl = [(t.leader, t.winner, len(t.steps)) for t in crafted.rooms[1].tricks]
    assert cl == [(Seat.N, Seat.N, 4), (Seat.N, Seat.E, 4), (Seat.E, Seat.S, 2)]
    assert [len(t.plays) for t in crafted.rooms[1].tricks] == [1, 2, 2]


def test_first_divergence(crafted: BoardComparison) -> None:
    d = crafted.divergence
    assert d is not None
    assert d.index == 1 and d.turn == Seat.E
    assert d.to_beat == combo(T.STRAIGHT, "3", "S3 H4 C5 D6 H7") and d.to_beat_by == Seat.N
    assert d.hands == (
        parse_cards("SK"),
        parse_cards("S9 C9 D9 H9 D4"),
        parse_cards("SA"),
        parse_cards("ST CT S2"),
    )
    op, cl = d.moves
    assert op is not None and cl is not None
    assert op.text(L7) == "Bomb 9 S9 H9 C9 D9" and cl.is_pass
    assert "turn=E" in d.position and "N:SK" in d.position


def test_alignment(crafted: BoardComparison) -> None:
    rows = crafted.alignment
    assert [r.number for r in rows] == [1, 2, 3]
    assert all(len(r.tricks) == 2 for r in rows)
    assert not any(r.same for r in rows)  # the rooms parted in the first trick


def test_alignment_pads_the_room_with_fewer_tricks() -> None:
    # Closed: N's straight wins, then N plays SK and is out; E bombs and goes on alone.
    comp = compare_board([record("Open", CLOSED[:5]), record("Closed", CLOSED)])
    assert [len(r.tricks) for r in comp.rooms] == [2, 3]
    assert comp.alignment[2].tricks[0] is None and comp.alignment[2].tricks[1] is not None
    assert comp.alignment[0].same and not comp.alignment[1].same
    assert comp.divergence is not None and comp.divergence.index == 5
    assert comp.divergence.moves[0] is None  # the open record stops there
    # an unfinished deal has no result, so no swing and no places beyond the first out
    assert comp.rooms[0].result_ns is None and comp.swing is None
    assert [s.place for s in comp.rooms[0].seats] == [1, None, None, None]


def test_json_form(crafted: BoardComparison) -> None:
    d = crafted.to_dict()
    assert d["level"] == "7" and d["leader"] == "N" and d["swing"] == -3
    assert d["hands"]["W"] == ["S2", "ST", "CT"]  # level order: 2 below 10 at level 7
    assert d["divergence"]["actions"][1] == {"index": 1, "seat": "E", "play": "PASS"}
    assert d["divergence"]["actions"][0]["cards"] == ["S9", "H9", "C9", "D9"]
    seat_n = d["rooms"][0]["seats"][0]
    assert seat_n["wilds"] == [
        {"index": 0, "play": "Straight 3 S3 H4 C5 D6 H7", "card": "H7", "as": "itself"}
    ]
    assert [t["jiefeng"] for t in d["rooms"][0]["tricks"]] == [False, True, False]


def test_seat_rows_and_headline(crafted: BoardComparison) -> None:
    rows = crafted.seat_rows()
    assert len(rows) == 8
    assert rows[0]["room"] == "Open" and rows[0]["wilds"] == "H7=itself"
    assert rows[6]["cards_left"] == "" and rows[7]["cards_left"] == "S2 ST CT"
    text = "\n".join(headline(crafted))
    assert "Open N–S -1 (E S N W), Closed N–S +2 (N E S W); swing -3" in text
    assert "first divergence at action 2: E to beat Straight 3 S3 H4 C5 D6 H7 (N)" in text
    assert "Closed: E PASS" in text


# --- identical rooms, several rooms, refusals ------------------------------------------


def test_identical_rooms_do_not_diverge() -> None:
    comp = compare_board([record("Open", OPEN), record("Closed", OPEN)])
    assert comp.divergence is None and comp.swing == 0
    assert all(r.same for r in comp.alignment)
    assert comp.rooms[0].seats == comp.rooms[1].seats
    assert "the rooms made exactly the same plays" in headline(comp)[1]


def test_three_rooms() -> None:
    comp = compare_board([record("Open", OPEN), record("Closed", CLOSED), record("Third", OPEN)])
    assert comp.swing is None  # a swing is between two rooms
    assert comp.divergence is not None and len(comp.divergence.moves) == 3
    assert all(len(r.tricks) == 3 for r in comp.alignment)


def test_refuses_a_different_board() -> None:
    other = record("Closed", OPEN, hands=("S3 H4 C5 D6 H7 SQ", "S9 C9 D9 H9 D4", "SA", "ST CT S2"))
    with pytest.raises(CompareError, match="the hands differ"):
        compare_board([record("Open", OPEN), other])
    moved = dataclasses.replace(record("Closed", OPEN), leader=Seat.E)
    with pytest.raises(CompareError, match="the first leader differ"):
        compare_board([record("Open", OPEN), moved])
    with pytest.raises(CompareError, match="at least two rooms"):
        compare_board([record("Open", OPEN)])


def test_refuses_a_record_that_does_not_replay() -> None:
    bad = record("Closed", ["N Straight 3 S3 H4 C5 D6 H7", "E Single 4 D4"])
    with pytest.raises(CompareError, match="board 3, room Closed"):
        compare_board([record("Open", OPEN), bad])


def test_grouping_by_board_orders_open_first() -> None:
    recs = [
        record("Closed", CLOSED),
        record("Open", OPEN, board="4"),
        record("Open", OPEN),
        record("Closed", OPEN, board="4"),
    ]
    groups = group_boards(recs)
    assert [[(r.board, r.room) for r in g] for g in groups] == [
        [("3", "Open"), ("3", "Closed")],
        [("4", "Open"), ("4", "Closed")],
    ]
    comps = compare_records(recs, board="4")
    assert len(comps) == 1 and comps[0].board == "4" and comps[0].swing == 0
    with pytest.raises(CompareError, match="no record of board 9"):
        compare_records(recs, board="9")
    no_board = record("Open", OPEN)
    del no_board.tags["Board"]
    with pytest.raises(CompareError, match="no Board tag"):
        group_boards([no_board])


# --- every deal of the example file, against itself -------------------------------------


def test_example_deals_against_themselves() -> None:
    records = loads(EXAMPLES.read_text(encoding="utf-8"), file=str(EXAMPLES))
    assert len(records) == 26
    for rec in records:
        twin = dataclasses.replace(rec, tags={**rec.tags, "Room": "Closed"})
        comp = compare_board([dataclasses.replace(rec, tags={**rec.tags, "Room": "Open"}), twin])
        assert comp.divergence is None and comp.swing == 0
        room = comp.rooms[0]
        assert room.result_ns is not None and rec.result is not None
        side, levels = rec.result
        assert room.result_ns == (levels if side.name == "NS" else -levels)
        n_actions = len(rec.plays or [])
        assert sum(s.plays + s.passes for s in room.seats) == n_actions
        assert sum(s.tricks_won for s in room.seats) == len(room.tricks)
        assert sum(s.leads for s in room.seats) == len(room.tricks)
        given = sum(s.jiefeng_given for s in room.seats)
        assert given == sum(s.jiefeng_received for s in room.seats)
        for s in room.seats:
            played = sum(m.combo.size for m in room.moves if m.seat == s.seat and m.combo)
            assert played + size(s.cards_left) == size(rec.hands[s.seat])
            # only the seats that never went out hold cards: the 4th, or a double down's two
            assert s.place in ((None, 4) if s.cards_left else (1, 2, 3))


# --- simulated two-room matches: invariants that any comparison must keep ---------------


@settings(max_examples=8, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), x=st.sampled_from(["random", "heuristic"]))
def test_simulated_boards(seed: bytes, x: str) -> None:
    for outcome in simulate_boards(simulation_key(seed), 2, x, "random"):
        comp = compare_board([outcome.open, outcome.closed])
        # the swing agrees with the simulator's own scoring of the two rooms
        assert [r.result_ns for r in comp.rooms] == [outcome.open_ns, outcome.closed_ns]
        assert comp.swing == outcome.swing
        d = comp.divergence
        op, cl = comp.rooms
        if d is None:
            assert op.moves == cl.moves and comp.swing == 0
            continue
        # identical up to the divergence, different there; the position is the common one
        assert all(a.same_action(b) for a, b in zip(op.moves[: d.index], cl.moves[: d.index], strict=True))
        a, b = d.moves
        assert a is not None and b is not None  # both deals go on past a real divergence
        assert not a.same_action(b) and d.turn == a.seat == b.seat
        assert sum(size(h) for h in d.hands) + sum(
            m.combo.size for m in op.moves[: d.index] if m.combo is not None
        ) == sum(size(h) for h in comp.hands)
        for room in comp.rooms:
            assert sum(s.plays + s.passes for s in room.seats) == len(room.moves)
            assert sum(len(t.steps) for t in room.tricks) == len(room.moves)
            assert sum(s.tricks_won for s in room.seats) == len(room.tricks)
            assert [t.number for t in room.tricks] == list(range(1, len(room.tricks) + 1))
        assert len(comp.alignment) == max(len(r.tricks) for r in comp.rooms)
