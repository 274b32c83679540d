"""Property tests: random legal playouts of whole deals and whole matches (RULES.md §6–9).

Each example deals four random hands from a hypothesis-drawn seed and plays, at every
turn, a random choice among ``Deal.legal_plays()`` and (when following) a pass. The
invariants: a valid finishing order and the right level gain, the 108 cards conserved,
undo restoring every state exactly, record replay reproducing the deal, and whole matches
(with tribute) ending with a valid winner.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import FULL_PACK, RANK_A, Cards, from_ids, size
from engine.combo import Combo
from engine.deal import REPORT_LIMIT, Deal
from engine.match import Match, level_up, play_match
from engine.ruleset import Ruleset
from engine.seat import Seat, Side

seeds = st.integers(min_value=0, max_value=2**32 - 1)
levels = st.integers(min_value=0, max_value=RANK_A)
seats = st.sampled_from(list(Seat))
deal_rules = st.builds(Ruleset, jiefeng_next=st.booleans(), double_down_plus4=st.booleans())


def shuffled_hands(rng: random.Random) -> list[Cards]:
    ids = list(range(108))
    rng.shuffle(ids)
    return [from_ids(ids[27 * i : 27 * (i + 1)]) for i in range(4)]


def random_choice(deal: Deal, rng: random.Random) -> Combo | None:
    """A uniformly random legal action: one of the legal plays, or a pass when following."""
    options: list[Combo | None] = list(deal.legal_plays())
    if deal.to_beat is not None:
        options.append(None)
    assert options, f"no legal action in {deal.position()}"
    return options[rng.randrange(len(options))]


def play_out(deal: Deal, rng: random.Random) -> None:
    while not deal.is_over:
        choice = random_choice(deal, rng)
        if choice is None:
            deal.pass_()
        else:
            deal.play(choice)


def check_finished_deal(deal: Deal) -> None:
    """The invariants of a finished deal (§6–7)."""
    res = deal.result()
    order = res.finish_order
    assert sorted(order) == list(Seat) and list(order) == deal.finish_order
    # The seats that emptied their hands did so in finishing order.
    emptied = [a.seat for a in deal.actions if a.combo is not None and a.cards_left == 0]
    assert emptied == list(order[: len(emptied)])
    first = order[0]
    out_side = emptied[-1].side
    assert {s for s in emptied if s.side == out_side} == set(out_side.seats)  # a side is out
    assert all(deal.hand(s) == 0 for s in emptied)
    assert all(deal.hand(s) != 0 for s in order[len(emptied) :])
    place = order.index(first.partner) + 1
    gain = {2: 4 if deal.rules.double_down_plus4 else 3, 3: 2, 4: 1}[place]
    assert res.winner == first.side and res.levels == gain
    assert res.double_down == (place == 2) and res.result_tag == f"{first.side.name} +{gain}"
    assert deal.turn is None


@settings(max_examples=40, deadline=None)
@given(seed=seeds, level=levels, leader=seats, rules=deal_rules)
def test_random_deals_end_validly_and_conserve_cards(
    seed: int, level: int, leader: Seat, rules: Ruleset
) -> None:
    rng = random.Random(seed)
    deal = Deal(shuffled_hands(rng), level, leader, rules)
    played: Cards = 0
    while not deal.is_over:
        turn = deal.turn
        assert turn is not None and deal.hand(turn) != 0  # finished players are skipped
        choice = random_choice(deal, rng)
        before = deal.to_beat
        if choice is None:
            deal.pass_()
        else:
            assert before is None or choice.beats(before, level)
            deal.play(choice)
            played += choice.cards
        # conservation: the hands and the cards played are the 108 cards
        assert sum(deal.hands) + played == FULL_PACK
        assert deal.card_counts == tuple(size(h) for h in deal.hands)
    assert deal.played == played
    check_finished_deal(deal)
    # 报牌: each seat once, at its first play leaving it at 10 cards or fewer
    for seat in Seat:
        first_low = next(
            (
                i
                for i, a in enumerate(deal.actions)
                if a.seat == seat and a.combo is not None and a.cards_left <= REPORT_LIMIT
            ),
            None,
        )
        assert deal.reported.get(seat) == first_low
    # tricks cover the actions in order, each won by its last player
    tricks = deal.tricks
    assert tricks[0].start == 0 and tricks[-1].end == len(deal.actions)
    for t, nxt in zip(tricks, tricks[1:], strict=False):
        assert t.end == nxt.start
    for t in tricks:
        assert t.plays and t.plays[0].seat == t.leader and t.plays[-1].seat == t.winner


@settings(max_examples=20, deadline=None)
@given(seed=seeds, level=levels, leader=seats, rules=deal_rules)
def test_undo_of_every_action_restores_the_exact_state(
    seed: int, level: int, leader: Seat, rules: Ruleset
) -> None:
    rng = random.Random(seed)
    deal = Deal(shuffled_hands(rng), level, leader, rules)
    keys = [deal.state_key()]
    positions = [deal.position()]
    while not deal.is_over:
        choice = random_choice(deal, rng)
        if choice is None:
            deal.pass_()
        else:
            deal.play(choice)
        keys.append(deal.state_key())
        positions.append(deal.position())
    snapshot = deal.copy()
    while deal.actions:
        assert deal.state_key() == keys[len(deal.actions)]
        assert deal.position() == positions[len(deal.actions)]
        deal.undo()
    assert deal.state_key() == keys[0]
    assert deal == Deal(deal.initial_hands, level, leader, rules)
    assert snapshot.is_over and len(snapshot.actions) == len(keys) - 1  # the copy kept its own


@settings(max_examples=20, deadline=None)
@given(seed=seeds, level=levels, leader=seats)
def test_replaying_the_record_reproduces_the_deal(seed: int, level: int, leader: Seat) -> None:
    rng = random.Random(seed)
    deal = Deal(shuffled_hands(rng), level, leader)
    play_out(deal, rng)
    again = Deal(deal.initial_hands, level, leader)
    for action in deal.actions:
        if action.combo is None:
            again.pass_(action.seat)
        else:
            combo = action.combo
            again.play_cards(combo.cards, combo.type, combo.rank, seat=action.seat)
    assert again == deal and again.result() == deal.result()


@settings(max_examples=6, deadline=None)
@given(
    seed=seeds, leader=seats, a_fail_limit=st.sampled_from([0, 2, 3]), limit_draw=st.booleans()
)
def test_whole_matches_end_with_a_valid_winner(
    seed: int, leader: Seat, a_fail_limit: int, limit_draw: bool
) -> None:
    rng = random.Random(seed)
    rules = Ruleset(a_fail_limit=a_fail_limit, limit_draw=limit_draw)

    def choose(seat: Seat, options: list[int]) -> int:
        return options[rng.randrange(len(options))]

    match = play_match(
        lambda deal: random_choice(deal, rng),
        lambda _: shuffled_hands(rng),
        rules,
        leader,
        max_deals=60,
        choose_tribute=choose,
        choose_return=choose,
    )
    assert match.is_over
    history = match.history
    assert history and len(history) <= 61  # 60, and one more deal at equal levels (§8)
    levels, fails, deal_level = (0, 0), (0, 0), 0
    owner: Side | None = None  # §8: the first deal's level is both sides'
    for i, record in enumerate(history):
        # every deal is played at the last winner's level, led as §9–10 say
        assert record.level == deal_level == record.deal.level and record.owner == owner
        if i == 0:
            assert record.tribute is None and record.leader == leader
        else:
            phase = record.tribute
            assert phase is not None and phase.is_complete and record.leader == phase.leader
            assert sum(phase.hands) == FULL_PACK and all(size(h) == 27 for h in phase.hands)
            assert record.deal.initial_hands == phase.hands
        update = level_up(levels, fails, owner, record.result, rules)
        assert record.levels_after == update.levels
        levels, fails, deal_level = update.levels, update.a_failures, update.next_level
        owner = record.result.winner
        check_finished_deal(record.deal)
        if update.passed_a:
            assert i == len(history) - 1
    last = history[-1]
    ns, ew = match.levels
    if match.end_reason == "passed A":
        assert match.winner == last.result.winner and last.level == RANK_A
        assert last.owner == last.result.winner and last.result.partner_place in (2, 3)
    elif len(history) == 60:  # the limit: the higher level wins; equal only under limit_draw
        assert match.end_reason == "levels" and (ns != ew or limit_draw)
        assert match.margin == abs(ns - ew)
        assert match.winner == (None if ns == ew else (Side.NS if ns > ew else Side.EW))
    else:  # one more deal after equal levels at the limit (§8): it decides
        assert len(history) == 61 and not limit_draw
        assert history[-2].levels_after[0] == history[-2].levels_after[1]
        assert match.margin == abs(ns - ew) and match.winner is not None
        if ns == ew:  # still equal (both at A): the extra deal's winner wins the match
            assert match.end_reason == "extra deal" and match.winner == last.result.winner
        else:
            assert match.end_reason == "levels"
            assert match.winner == (Side.NS if ns > ew else Side.EW)
    assert isinstance(match, Match)
