"""RULES.md §8 as revised: whose level a deal is, passing A and failing at A when both
sides are at A, and the end of a match at a deal limit (one more deal, variant
``limit_draw``).

§8: "Each next deal is played at the level the last winning side has reached: the deal's
level belongs to that side (the first deal's to both). When both sides are at A, the deal
is the last winner's A, and only that side can pass A in it; the other side, winning it,
stays at A and plays its own A in the next deal." A failure at A is "a deal played at the
side's own level A after which the side has not passed A". At a deal limit "with equal
levels one more deal is played and decides (seeds/000, 七、胜负 1: 可加打一副牌决出胜负).
Variant ``limit_draw``: equal levels are a draw."

The Match scenarios play tiny hands. After the first deals every tribute is resisted (抗贡,
§9: the payers hold both big jokers), so each deal's hands stay as dealt and the previous
1st leads, which keeps each script short and readable. Scripts are ``"N:S3 E:- S:HR"``: a
seat, then the cards it plays (``+`` joins cards) or ``-`` for a pass; each step checks the
turn.
"""

from __future__ import annotations

import itertools

import pytest

from engine.cards import RANK_A, Cards, parse_cards, parse_level
from engine.deal import Deal, DealResult
from engine.errors import GameOverError, GuandanError
from engine.match import Match, level_up
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
NS, EW = Side.NS, Side.EW
A = RANK_A
FIVE, EIGHT, JACK = parse_level("5"), parse_level("8"), parse_level("J")


def c(text: str) -> Cards:
    return parse_cards(text)


def result(order: str) -> DealResult:
    """The competition result of a deal that ended in ``order`` (``"N E S W"``), §6–7."""
    seats = tuple(Seat.parse(t) for t in order.split())
    place = seats.index(seats[0].partner) + 1
    gain = {2: 3, 3: 2, 4: 1}[place]
    return DealResult(seats, seats[0].side, gain, place == 2)  # type: ignore[arg-type]


def run(deal: Deal, script: str) -> None:
    for step in script.split():
        who, _, what = step.partition(":")
        seat = Seat.parse(who)
        if what == "-":
            deal.pass_(seat)
        else:
            deal.play_cards(c(what.replace("+", " ")), seat=seat)


# --- the deals the scenarios are made of ----------------------------------------------------
# Each entry: (hands N, E, S, W), the leader it expects, the script, the finishing order.

#: N–S double down, W leading (the first deal, or after this same deal: W's S4 goes to N
#: and comes back, E's S3 goes to S and comes back, and W, who paid the 1st, leads).
NS_DD_W = ([c("SB"), c("S3"), c("HR"), c("S4 S4")], W, "W:S4 N:SB E:- S:HR", "N S")
#: After N 1st, S 2nd: E and W hold both big jokers (抗贡), N leads; E–W double down.
EW_DD_AFTER_N = ([c("S3 S5"), c("HR"), c("S6 S7"), c("HR")], N, "N:S3 E:HR S:- W:- N:- W:HR", "E W")
#: After E 1st, W 2nd: N and S hold both big jokers, E leads; E–W double down again.
EW_DD_AFTER_E = ([c("HR S5"), c("S3"), c("HR S6"), c("S4")], E, "E:S3 S:- W:- N:- W:S4", "E W")
#: After E 1st, W 2nd: E leads; N–S double down (S 1st, N 2nd).
NS_DD_AFTER_E = ([c("HR"), c("S3 S5"), c("HR"), c("S6")], E, "E:S3 S:HR W:- N:- E:- N:HR", "S N")
#: After E 1st, W 2nd: E leads; S 1st, E 2nd, W 3rd, N 4th: N–S +1.
NS_PLUS1_AFTER_E = (
    [c("HR S4"), c("S3 S5"), c("HR"), c("S6")],
    E,
    "E:S3 S:HR W:- N:- E:- N:S4 E:S5 W:- N:- W:S6",
    "S E W N",
)
#: After E 1st, W 2nd: E leads; E 1st, S 2nd, W 3rd: E–W +2.
EW_PLUS2_AFTER_E = (
    [c("HR S5 S6"), c("S3"), c("HR"), c("S4 S7")],
    E,
    "E:S3 S:- W:- N:- W:S4 N:S6 S:HR W:- N:- N:S5 W:S7",
    "E S W N",
)
#: After E 1st, W 2nd: E leads; E 1st, N 2nd, S 3rd, W 4th: E–W +1.
EW_PLUS1_AFTER_E = (
    [c("HR"), c("S3"), c("HR"), c("S4 S6")], E, "E:S3 S:- W:- N:- W:S4 N:HR S:- W:- S:HR", "E N S W"
)
#: After S 1st, N 2nd: E and W hold both big jokers, S leads; E–W double down (W 1st).
EW_DD_AFTER_S = ([c("S6 S7"), c("HR"), c("S3 S5"), c("HR")], S, "S:S3 W:HR N:- E:- S:- E:HR", "W E")
#: After W 1st, E 2nd: N and S hold both big jokers, W leads; E–W double down (W 1st).
EW_DD_AFTER_W = ([c("HR S5"), c("S4"), c("HR S6"), c("S3")], W, "W:S3 N:- E:- S:- E:S4", "W E")


def play(m: Match, deal: tuple[list[Cards], Seat, str, str]) -> Deal:
    """Deal, play and finish one deal of ``m``; check its leader and finishing order."""
    hands, leader, script, finish = deal
    d = m.start_deal(hands)
    assert d.leader == leader, (d.leader, leader)
    run(d, script)
    assert d.result().finish_tag.startswith(finish), d.result().finish_tag
    m.finish_deal()
    return d


def both_at_a(rules: Ruleset = COMPETITION, max_deals: int | None = None) -> Match:
    """A match in which N–S reach A (4 double downs), fail once at their A (E–W win it),
    and E–W climb to A (3 more double downs): both sides at A, the next deal E–W's A."""
    m = Match(rules, first_leader=W, max_deals=max_deals)
    assert m.deal_owner is None  # §8: the first deal's level is both sides'
    for _ in range(4):  # 2 → 5 → 8 → J → A
        play(m, NS_DD_W)
    assert m.history[0].owner is None and [r.owner for r in m.history[1:]] == [NS] * 3
    assert m.levels == (A, 0) and m.deal_owner == NS and m.deal_level == A
    play(m, EW_DD_AFTER_N)  # at N–S's A: their first failure
    assert m.levels == (A, FIVE) and m.a_failures == (1, 0) and m.deal_owner == EW
    for want in (EIGHT, JACK, A):
        play(m, EW_DD_AFTER_E)
        assert m.levels == (A, want) and m.deal_owner == EW
    assert m.a_failures == (1, 0)  # deals at E–W's level are no failure for N–S
    assert m.deal_level == A
    return m


# --- both sides at A, through the Match --------------------------------------------------


def test_the_other_side_winning_at_the_last_winners_a_does_not_pass_a() -> None:
    m = both_at_a()
    # The deal is E–W's A. N–S win it with the partner 2nd: they stay at A and do not pass
    # (today's engine let them pass A and end the match here).
    d = play(m, NS_DD_AFTER_E)
    assert d.level == A and m.history[-1].owner == EW
    assert not m.is_over and m.winner is None and m.end_reason == ""
    assert m.levels == (A, A)
    assert m.a_failures == (1, 1)  # E–W failed at their own A; N–S did not play theirs
    assert m.deal_owner == NS and m.deal_level == A  # N–S play their own A next
    # E–W win N–S's A with the partner 2nd: no pass for them either.
    play(m, EW_DD_AFTER_S)
    assert not m.is_over and m.levels == (A, A)
    assert m.a_failures == (2, 1) and m.deal_owner == EW
    # E–W win their own A with the partner 2nd: they pass A and win the match.
    play(m, EW_DD_AFTER_W)
    assert m.is_over and m.winner == EW and m.end_reason == "passed A"
    assert m.history[-1].owner == EW and m.history[-1].level == A
    assert m.deals_played == 11
    with pytest.raises(GameOverError):
        m.start_deal(EW_DD_AFTER_W[0])


def test_partner_fourth_at_the_other_sides_a_is_a_failure_of_that_side_only() -> None:
    m = both_at_a()
    play(m, NS_PLUS1_AFTER_E)  # N–S +1 (S 1st, N 4th) at E–W's A
    assert not m.is_over and m.levels == (A, A)
    assert m.a_failures == (1, 1)  # only E–W, whose A it was, failed
    assert m.deal_owner == NS


@pytest.mark.parametrize(
    ("deal", "fails"), [(EW_PLUS2_AFTER_E, (1, 0)), (EW_PLUS1_AFTER_E, (1, 1))]
)
def test_the_owner_at_its_own_a(deal: tuple[list[Cards], Seat, str, str], fails: tuple[int, int]) -> None:
    m = both_at_a()
    play(m, deal)
    if fails == (1, 0):  # partner 3rd at its own A: passed (the failure count is left as it was)
        assert m.is_over and m.winner == EW and m.end_reason == "passed A"
    else:  # partner 4th: no pass, a failure of E–W; they play their A again
        assert not m.is_over and m.deal_owner == EW and m.levels == (A, A)
    assert m.a_failures == fails


def test_a_fail_limit_counts_only_the_owners_failures() -> None:
    m = both_at_a(Ruleset(a_fail_limit=2))
    assert m.a_failures == (1, 0)
    play(m, NS_DD_AFTER_E)  # E–W's A, N–S win: E–W's first failure, none for N–S
    assert m.levels == (A, A) and m.a_failures == (1, 1)
    play(m, EW_DD_AFTER_S)  # N–S's A, E–W win: N–S's second failure → back to 2
    assert m.levels == (0, A) and m.a_failures == (0, 1)
    assert m.deal_owner == EW and m.deal_level == A and not m.is_over


# --- level_up: every finish with both sides at A ---------------------------------------------

ORDERS = [" ".join(p) for p in itertools.permutations("NESW")]


@pytest.mark.parametrize("owner", [NS, EW])
@pytest.mark.parametrize("order", ORDERS)
def test_level_up_both_at_a_every_finish(owner: Side, order: str) -> None:
    res = result(order)
    up = level_up((A, A), (1, 1), owner, res)
    owner_passes = res.winner == owner and res.partner_place in (2, 3)
    assert up.passed_a is owner_passes
    if owner_passes:
        assert up.levels == (A, A) and up.a_failures == (1, 1)
        return
    fails = [1, 1]
    fails[owner] += 1  # only the side whose A it was has failed
    assert up.levels == (A, A) and up.a_failures == (fails[0], fails[1])
    assert up.next_owner == res.winner and up.next_level == A


def test_level_up_first_deal_belongs_to_both_and_bad_owner_is_refused() -> None:
    up = level_up((0, 0), (0, 0), None, result("E W N S"))
    assert up.levels == (0, 3) and up.next_owner == EW and up.next_level == 3
    with pytest.raises(GuandanError, match="owner"):
        level_up((0, 0), (0, 0), A, result("E W N S"))  # type: ignore[arg-type]
    with pytest.raises(GuandanError, match="both sides"):
        level_up((A, 5), (0, 0), None, result("E W N S"))


def test_level_up_at_a_with_the_other_side_below_a() -> None:
    # N–S at K win a deal at E–W's A: they climb to A without passing; E–W fail.
    up = level_up((parse_level("K"), A), (0, 0), EW, result("N S E W"))
    assert up.levels == (A, A) and not up.passed_a and up.a_failures == (0, 1)
    assert up.next_owner == NS
    # N–S at A win E–W's 5 with the partner 2nd: not their own level, no pass, no failure.
    up = level_up((A, FIVE), (0, 0), EW, result("N S E W"))
    assert up.levels == (A, FIVE) and not up.passed_a and up.a_failures == (0, 0)


# --- a deal limit with equal levels ----------------------------------------------------------


def test_equal_levels_at_the_deal_limit_play_one_more_deal() -> None:
    m = Match(first_leader=W, max_deals=2)
    play(m, NS_DD_W)
    play(m, EW_DD_AFTER_N)
    # 5 all after the limit: one more deal (today's engine called it a draw)
    assert m.levels == (FIVE, FIVE) and not m.is_over and m.extra_deal
    assert m.deal_owner == EW and m.deal_level == FIVE
    assert "extra deal" in m.describe()
    play(m, EW_DD_AFTER_E)
    assert m.is_over and m.deals_played == 3 and not m.extra_deal
    assert m.winner == EW and m.margin == EIGHT - FIVE and m.end_reason == "levels"


def test_limit_draw_variant_ends_equal_levels_as_a_draw() -> None:
    m = Match(Ruleset(limit_draw=True), first_leader=W, max_deals=2)
    play(m, NS_DD_W)
    play(m, EW_DD_AFTER_N)
    assert m.is_over and m.winner is None and m.margin == 0 and m.end_reason == "levels"
    assert not m.extra_deal and m.deals_played == 2
    assert "over (levels): draw" in m.describe()


def test_unequal_levels_at_the_limit_end_at_once_under_both_rules() -> None:
    for rules in (COMPETITION, Ruleset(limit_draw=True)):
        m = Match(rules, first_leader=W, max_deals=1)
        play(m, NS_DD_W)
        assert m.is_over and m.winner == NS and m.margin == 3 and not m.extra_deal


def test_extra_deal_at_a_that_leaves_levels_equal_is_won_by_its_winner() -> None:
    # Both at A at the limit: the extra deal is E–W's A. N–S win it without passing A
    # (it is not their A): levels still equal, and the extra deal decides: N–S win by 0.
    m = both_at_a(max_deals=8)
    assert m.deals_played == 8 and m.extra_deal and not m.is_over
    play(m, NS_DD_AFTER_E)
    assert m.is_over and m.winner == NS and m.margin == 0 and m.end_reason == "extra deal"
    assert m.levels == (A, A) and m.deals_played == 9
    assert "over (extra deal): NS" in m.describe()


def test_extra_deal_at_a_owner_passes_or_fails() -> None:
    m = both_at_a(max_deals=8)
    play(m, EW_PLUS2_AFTER_E)  # E–W pass their own A in the extra deal
    assert m.is_over and m.winner == EW and m.end_reason == "passed A"
    m = both_at_a(max_deals=8)
    play(m, EW_PLUS1_AFTER_E)  # E–W win it 1st + 4th: no pass, levels equal, E–W win it
    assert m.is_over and m.winner == EW and m.margin == 0 and m.end_reason == "extra deal"
    m = both_at_a(Ruleset(limit_draw=True), max_deals=8)
    assert m.is_over and m.winner is None and m.deals_played == 8  # the variant: a draw


def test_extra_deal_decided_by_levels_after_a_demotion() -> None:
    # a_fail_limit 2, N–S have failed at A once. The limit comes with both at A; the extra
    # deal is N–S's A, E–W win it: N–S's second failure sends them back to 2, the levels
    # are no longer equal and decide as at the limit: E–W, by 12 levels.
    m = both_at_a(Ruleset(a_fail_limit=2), max_deals=9)
    play(m, NS_DD_AFTER_E)  # deal 9 (the limit): E–W's A, N–S win: levels equal → extra
    assert m.extra_deal and m.deal_owner == NS and m.a_failures == (1, 1)
    play(m, EW_DD_AFTER_S)  # the extra deal: N–S's A, E–W win: N–S's second failure
    assert m.levels == (0, A)
    assert m.is_over and m.winner == EW and m.margin == A and m.end_reason == "levels"


def test_end_by_levels_with_equal_levels_waits_for_the_extra_deal() -> None:
    m = Match(first_leader=W)
    assert m.end_by_levels() is False  # 2 all, no deal played yet: one more deal
    assert m.extra_deal and not m.is_over
    assert m.end_by_levels() is False  # asked again: still the extra deal to play
    play(m, NS_DD_W)
    assert m.is_over and m.winner == NS and m.margin == 3 and m.deals_played == 1
    draw = Match(Ruleset(limit_draw=True))
    assert draw.end_by_levels() is True
    assert draw.is_over and draw.winner is None and draw.margin == 0
    ahead = Match(first_leader=W)
    play(ahead, NS_DD_W)
    assert ahead.end_by_levels() is True and ahead.winner == NS and ahead.margin == 3


def test_end_by_levels_during_a_deal_is_refused() -> None:
    m = Match(first_leader=W)
    m.start_deal(NS_DD_W[0])
    with pytest.raises(GuandanError, match="finish it before ending the match"):
        m.end_by_levels()


def test_limit_draw_is_a_named_variant_of_the_rule_set() -> None:
    assert COMPETITION.limit_draw is False  # the competition rule: one more deal decides
    draw = Ruleset(limit_draw=True)
    assert draw.to_dict()["limit_draw"] is True
    assert Ruleset.from_dict(draw.to_dict()) == draw
    assert COMPETITION.to_dict()["limit_draw"] is False
    assert Ruleset.from_dict({"limit_draw": False}) == COMPETITION
