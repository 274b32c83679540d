"""Rule tests for a match (RULES.md §7–10): levels, passing A, failures at A, tribute,
return, resisting tribute and who leads; the Match flow deal after deal."""

from __future__ import annotations

import pytest

from engine.cards import RANK_A, Cards, parse_cards, parse_kind, parse_level
from engine.deal import Deal, DealNotOverError, DealResult
from engine.errors import GameOverError, GuandanError, TributeError
from engine.match import Match, TributePhase, level_up
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
NS, EW = Side.NS, Side.EW
A = RANK_A
L2 = 0


def c(text: str) -> Cards:
    return parse_cards(text)


def k(token: str) -> int:
    return parse_kind(token)


def result(order: str, rules: Ruleset = COMPETITION) -> DealResult:
    """A DealResult for a finishing order such as ``"N E S W"``."""
    seats = tuple(Seat.parse(t) for t in order.split())
    assert len(seats) == 4
    place = seats.index(seats[0].partner) + 1
    gain = {2: 4 if rules.double_down_plus4 else 3, 3: 2, 4: 1}[place]
    return DealResult(seats, seats[0].side, gain, place == 2)  # type: ignore[arg-type]


def phase(order: str, hands: dict[Seat, str], level: str = "2", **rules: object) -> TributePhase:
    all_hands = [c(hands.get(s, "")) for s in (N, E, S, W)]
    return TributePhase(all_hands, parse_level(level), result(order), Ruleset(**rules))  # type: ignore[arg-type]


# --- levels (§7–8) -------------------------------------------------------------------------


def test_level_up_by_result_and_next_level_is_the_winners() -> None:
    up = level_up((0, 0), (0, 0), None, result("N S E W"))  # the first deal: both sides'
    assert up.levels == (3, 0) and up.next_level == 3 and not up.passed_a
    assert up.next_owner == NS
    up = level_up((3, 0), (0, 0), NS, result("E N W S"))
    assert up.levels == (3, 2) and up.next_level == 2 and up.next_owner == EW  # EW +2
    up = level_up((3, 2), (0, 0), EW, result("W N S E"))
    assert up.levels == (3, 3) and up.next_level == 3  # EW +1, partner 4th


def test_levels_are_capped_at_a() -> None:
    up = level_up((parse_level("Q"), 0), (0, 0), NS, result("S N W E"))
    assert up.levels == (A, 0) and not up.passed_a


def test_passing_a_with_partner_second_or_third() -> None:
    for order in ("N S E W", "S E N W"):
        up = level_up((A, 5), (0, 0), NS, result(order))
        assert up.passed_a and up.levels == (A, 5)


def test_first_and_fourth_at_a_does_not_pass_and_is_a_failure() -> None:
    up = level_up((A, 5), (0, 0), NS, result("N E W S"))
    assert not up.passed_a and up.levels == (A, 5) and up.a_failures == (1, 0)
    assert up.next_level == A


def test_winning_at_the_opponents_level_does_not_pass_a() -> None:
    # N-S are at A but the deal is played at E-W's level 5: no pass, no failure.
    up = level_up((A, 5), (0, 0), EW, result("N S E W"))
    assert not up.passed_a and up.levels == (A, 5) and up.a_failures == (0, 0)
    assert up.next_level == A


def test_losing_at_own_level_a_is_a_failure() -> None:
    up = level_up((A, 5), (1, 0), NS, result("E W N S"))
    assert up.levels == (A, 8) and up.a_failures == (2, 0) and up.next_level == 8


def test_default_rule_never_demotes() -> None:
    fails = (0, 0)
    levels = (A, 5)
    for _ in range(5):
        up = level_up(levels, fails, NS, result("N E W S"))
        levels, fails = up.levels, up.a_failures
    assert levels == (A, 5) and fails == (5, 0)


def test_a_fail_limit_demotes_to_two_at_the_limit() -> None:
    rules = Ruleset(a_fail_limit=3)
    up = level_up((A, 5), (1, 0), NS, result("N E W S"), rules)
    assert up.levels == (A, 5) and up.a_failures == (2, 0)
    up = level_up(up.levels, up.a_failures, NS, result("N E W S"), rules)
    assert up.levels == (0, 5) and up.a_failures == (0, 0) and up.next_level == 0


def test_a_fail_limit_demotes_a_losing_side_too() -> None:
    rules = Ruleset(a_fail_limit=3)
    up = level_up((A, 9), (2, 0), NS, result("E W N S"), rules)
    assert up.levels == (0, A) and up.a_failures == (0, 0) and up.next_level == A


def test_both_sides_at_a_only_the_owner_fails_or_passes() -> None:
    # §8: the deal is the last winner's A (here N–S's); E–W win it +1: no pass for them,
    # and only N–S, whose A it was, count a failure (tests/test_match_levels.py: all cases).
    up = level_up((A, A), (0, 0), NS, result("E N S W"))
    assert not up.passed_a and up.a_failures == (1, 0) and up.next_owner == EW
    up = level_up((A, A), (0, 0), NS, result("E W N S"))  # E–W +3 at N–S's A: no pass
    assert not up.passed_a and up.levels == (A, A) and up.a_failures == (1, 0)
    assert level_up((A, A), (0, 0), EW, result("E W N S")).passed_a


# --- tribute (§9) --------------------------------------------------------------------------


def test_single_down_fourth_pays_highest_first_returns_fourth_leads() -> None:
    p = phase("N E S W", {N: "S3 S4 SJ", W: "S5 DA SK C9", E: "S6", S: "S7"})
    assert p.pending_tributes() == [W] and not p.is_complete
    assert p.legal_tributes(W) == [k("DA")] and p.legal_tributes(E) == []
    with pytest.raises(
        TributeError, match="W cannot pay SK as tribute: the tribute is the highest"
    ):
        p.tribute(W, k("SK"))
    with pytest.raises(TributeError, match="E owes no tribute: only W pays"):
        p.tribute(E, k("S6"))
    with pytest.raises(TributeError, match="N cannot return yet: W owes a tribute"):
        p.give_return(N, k("S3"))  # nothing received yet
    with pytest.raises(TributeError, match="S owes no return card"):
        p.give_return(S, k("S7"))
    t = p.tribute(W, k("DA"))
    assert (t.what, t.giver, t.receiver, t.card) == ("tribute", W, N, k("DA"))
    assert t.describe() == "W pays DA to N"
    assert p.pending_returns() == [N]
    assert p.legal_returns(N) == [k("S3"), k("S4")]
    with pytest.raises(TributeError, match="N cannot return SJ: the return card is of rank T"):
        p.give_return(N, k("SJ"))
    with pytest.raises(TributeError, match="N cannot give S9 as return: not in their hand"):
        p.give_return(N, k("S9"))
    r = p.give_return(N, k("S4"))
    assert r.describe() == "N returns S4 to W"
    assert p.is_complete and p.leader == W
    assert p.hands[N] == c("S3 SJ DA") and p.hands[W] == c("S5 SK C9 S4")
    with pytest.raises(TributeError, match="already returned"):
        p.give_return(N, k("S3"))
    with pytest.raises(TributeError, match="already paid"):
        p.tribute(W, k("SK"))


def test_partner_tribute_at_plus_one() -> None:
    # N 1st, S (N's partner) 4th: the tribute and the return pass between partners.
    p = phase("N E W S", {N: "S3", S: "HR S8"})
    assert p.payers == (S,)
    p.tribute(S, k("HR"))
    p.give_return(N, k("S3"))
    assert p.leader == S and p.hands[N] == c("HR") and p.hands[S] == c("S3 S8")


def test_wild_hearts_are_never_demanded() -> None:
    # Level 7: H7 is wild and above A, but need not be paid; S7 (a level card) must be.
    p = phase("N E S W", {W: "H7 S7 SA S3", N: "S4"}, level="7")
    assert p.legal_tributes(W) == [k("S7")]
    with pytest.raises(TributeError, match="wild hearts are never demanded"):
        p.tribute(W, k("H7"))
    p2 = phase("N E S W", {W: "H7 H7 SA CA S3", N: "S4"}, level="7")
    assert p2.legal_tributes(W) == [k("SA"), k("CA")]  # equal highest: the giver picks
    assert p2.can_tribute(W, k("CA")) and p2.can_tribute(W, k("SA"))
    assert not p2.can_tribute(W, k("H7"))


def test_wild_heart_is_never_given_even_to_a_partner_by_choice() -> None:
    # §9: wild hearts are never given, not even by choice; at +1 the 4th is the 1st's
    # partner, who might like to give it: refused all the same.
    p = phase("N E W S", {S: "H7 H7 S8 S3", N: "S4"}, level="7")
    assert p.legal_tributes(S) == [k("S8")]
    assert not p.can_tribute(S, k("H7"))
    with pytest.raises(TributeError, match="wild hearts are never demanded"):
        p.tribute(S, k("H7"))


def test_a_wild_heart_may_be_returned() -> None:
    # §9 limits the return by rank only; seeds/000: 配牌虽然不允许进贡，但却可以回贡.
    p = phase("N E S W", {N: "H5 SK", W: "SA S3"}, level="5")
    p.tribute(W, k("SA"))
    assert p.legal_returns(N) == [k("H5")]
    p.give_return(N, k("H5"))
    assert p.hands[W] == c("S3 H5")


def test_lowest_return_is_in_level_order_not_natural_order() -> None:
    # Level Q, nothing of 10 or below: Q is a level card (above A), so the lowest is K.
    p = phase("N E S W", {N: "SQ HQ SK SB", W: "SA S3"}, level="Q")
    p.tribute(W, k("SA"))
    assert p.legal_returns(N) == [k("SK")]
    assert not p.can_return(N, k("SQ")) and not p.can_return(N, k("HQ"))


def test_jokers_are_paid_first() -> None:
    p = phase("N E S W", {W: "SB SA", N: "S4"})
    assert p.legal_tributes(W) == [k("SB")]


def test_return_lowest_card_when_none_at_ten_or_below() -> None:
    # Level 2; N holds only J and up after the tribute: the lowest card must be returned.
    p = phase("N E S W", {N: "SQ SJ CJ HR", W: "SA S3"})
    p.tribute(W, k("SA"))
    assert p.legal_returns(N) == [k("SJ"), k("CJ")]
    with pytest.raises(TributeError, match="may return SJ or CJ"):
        p.give_return(N, k("SQ"))
    p.give_return(N, k("CJ"))
    assert p.is_complete


def test_lowest_card_uses_level_order() -> None:
    # Level J: the jacks are level cards, above A; the lowest is then the queen.
    p = phase("N E S W", {N: "SJ SQ SK", W: "SA S3"}, level="J")
    p.tribute(W, k("SA"))
    assert p.legal_returns(N) == [k("SQ")]


def test_return_limit_variant_at_ten() -> None:
    hands = {N: "ST SK", W: "SA S3"}
    p = phase("N E S W", hands, level="T")
    p.tribute(W, k("SA"))
    assert p.legal_returns(N) == [k("ST")]  # default: 10 or below
    q = phase("N E S W", hands, level="T", return_lower_at_ten=True)
    q.tribute(W, k("SA"))
    # no 9 or below: the lowest card in level order, K (the level card T ranks above A)
    assert q.legal_returns(N) == [k("SK")]
    q2 = phase("N E S W", {N: "ST S9 SK", W: "SA S3"}, level="T", return_lower_at_ten=True)
    q2.tribute(W, k("SA"))
    assert q2.legal_returns(N) == [k("S9")]
    assert not q2.can_return(N, k("ST"))


def test_double_down_unequal_higher_to_first_payer_of_first_leads() -> None:
    p = phase("N S W E", {E: "SA S6", W: "SK S9", N: "S3 S4", S: "S7 S8"})
    assert set(p.pending_tributes()) == {W, E}
    with pytest.raises(TributeError, match="N cannot return yet"):
        p.give_return(N, k("S3"))
    first = p.tribute(W, k("SK"))
    assert first.receiver is None  # not known until both have paid
    p.tribute(E, k("SA"))
    assert [t.describe() for t in p.transfers] == ["W pays SK to S", "E pays SA to N"]
    assert set(p.pending_returns()) == {N, S}
    p.give_return(N, k("S3"))
    p.give_return(S, k("S7"))
    assert p.is_complete and p.leader == E  # E paid the 1st
    assert p.hands[E] == c("S6 S3") and p.hands[W] == c("S9 S7")
    assert p.hands[N] == c("S4 SA") and p.hands[S] == c("S8 SK")


def test_double_down_equal_tributes_pay_left_return_right() -> None:
    # 1st S, 2nd N. Equal tributes: each loser pays the winner just before them in play
    # order (贡左还右): E pays N (the 2nd), W pays S (the 1st); the 1st's 下家 W leads.
    p = phase("S N E W", {E: "SA S6", W: "CA S9", N: "S3 S4", S: "S7 S8"})
    p.tribute(E, k("SA"))
    p.tribute(W, k("CA"))
    assert p.equal_tributes
    assert [t.describe() for t in p.transfers] == ["E pays SA to N", "W pays CA to S"]
    p.give_return(N, k("S3"))
    p.give_return(S, k("S8"))
    assert p.leader == W
    assert p.hands[E] == c("S6 S3") and p.hands[W] == c("S9 S8")


def test_double_down_equal_uses_level_value_not_suit() -> None:
    # Unequal counterpart of the last case: the higher tribute goes to the 1st.
    p = phase("S N E W", {E: "SK S6", W: "CA S9", N: "S3 S4", S: "S7 S8"})
    p.tribute(E, k("SK"))
    p.tribute(W, k("CA"))
    assert not p.equal_tributes
    assert [t.describe() for t in p.transfers] == ["E pays SK to N", "W pays CA to S"]
    p.complete()
    assert p.leader == W  # W paid the 1st (S)


def test_resisting_single_down() -> None:
    p = phase("N E S W", {W: "HR HR S3", N: "S4"})
    assert p.resisted and p.is_complete and p.leader == N
    assert p.pending_tributes() == [] and p.legal_tributes(W) == []
    with pytest.raises(TributeError, match="resisted"):
        p.tribute(W, k("HR"))


def test_resisting_double_down_between_the_two_losers() -> None:
    p = phase("N S E W", {E: "HR S3", W: "HR S4", N: "S5", S: "S6"})
    assert p.resisted and p.leader == N
    q = phase("N S E W", {E: "HR S3", W: "SB S4", N: "HR", S: "S6"})
    assert not q.resisted  # one big joker is with the winners


def test_single_down_one_big_joker_is_no_resistance() -> None:
    p = phase("N E S W", {W: "HR S3", E: "HR", N: "S4"})
    assert not p.resisted and p.legal_tributes(W) == [k("HR")]


def test_leader_before_completion_is_refused() -> None:
    p = phase("N E S W", {W: "SA S3", N: "S4"})
    with pytest.raises(TributeError, match="W owes a tribute"):
        _ = p.leader


# --- the match flow ------------------------------------------------------------------------


def play_script(deal: Deal, script: str) -> None:
    for step in script.split():
        if step == "-":
            deal.pass_()
        else:
            deal.play_cards(c(step.replace("+", " ")))


def test_match_flow_with_tribute() -> None:
    m = Match(first_leader=N)
    assert m.deal_hands([c("S3"), c("S9 SA"), c("S4"), c("SK ST")]) is None  # first deal
    d1 = m.start_deal()
    assert d1.level == L2 and d1.leader == N
    with pytest.raises(DealNotOverError):
        m.finish_deal()
    play_script(d1, "S3 - - - S4")  # N, S out: EW double down
    res = m.finish_deal()
    assert res.result_tag == "NS +3" and m.levels == (3, 0) and m.deal_level == 3
    assert m.history[0].levels_after == (3, 0) and not m.is_over

    ph = m.deal_hands([c("S3 S4"), c("SA S6"), c("S7 S8"), c("SK S9")])
    assert ph is not None and m.tribute_phase is ph
    with pytest.raises(TributeError, match="not complete"):
        m.start_deal()
    assert m.legal_tributes(E) == [k("SA")] and m.legal_tributes(N) == []
    assert m.can_tribute(E, k("SA")) and not m.can_tribute(E, k("S6"))
    m.tribute(E, k("SA"))
    m.tribute(W, k("SK"))
    assert m.legal_returns(N) == [k("S3"), k("S4")]
    m.verify_return(N, k("S4"))
    m.give_return(N, k("S4"))
    assert m.can_return(S, k("S7"))
    m.give_return(S, k("S7"))
    d2 = m.start_deal()
    assert d2.level == 3 and d2.leader == E  # E paid the 1st
    assert d2.hands == (c("S3 SA"), c("S6 S4"), c("S8 SK"), c("S9 S7"))
    with pytest.raises(GuandanError, match="already under way"):
        m.deal_hands([c("S3"), c("S4"), c("S5"), c("S6")])


def test_start_deal_with_hands_completes_tribute_by_default() -> None:
    m = Match(first_leader=W)
    d1 = m.start_deal([c("S4"), c("S9 SA"), c("S5 S6"), c("S3")])
    assert d1.leader == W
    play_script(d1, "S3 - - -")  # W out; E leads by 接风
    assert d1.turn == E
    play_script(d1, "S9 - - SA")  # E wins the trick, leads again and goes out
    assert d1.is_over and d1.finish_order == [W, E, S, N]
    assert m.finish_deal().result_tag == "EW +3" and m.levels == (0, 3)
    d2 = m.start_deal([c("S3 S4"), c("SA S6"), c("S7 SK"), c("S8 S9")])
    # Double down: S pays SK (higher) to W (1st), N pays S4 to E (2nd); the default
    # returns are the lowest legal cards: W returns S8 to S, E returns S4 to N.
    assert d2.level == 3 and d2.leader == S  # S paid the 1st
    assert d2.hands == (c("S3 S4"), c("SA S6"), c("S7 S8"), c("S9 SK"))
    record = m.history[0]
    assert record.number == 1 and record.tribute is None and record.leader == W
    phase_2 = m.tribute_phase
    assert phase_2 is not None
    assert [t.describe() for t in phase_2.transfers] == [
        "S pays SK to W",
        "N pays S4 to E",
        "W returns S8 to S",
        "E returns S4 to N",
    ]


def test_match_ends_by_deal_limit_with_margin() -> None:
    m = Match(first_leader=N, max_deals=1)
    d = m.start_deal([c("S3"), c("S9 SA"), c("S4"), c("SK ST")])
    play_script(d, "S3 - - - S4")
    m.finish_deal()
    assert m.is_over and m.winner == NS and m.margin == 3 and m.end_reason == "levels"
    with pytest.raises(GameOverError, match="the match is over"):
        m.deal_hands([c("S3"), c("S4"), c("S5"), c("S6")])
    assert "over (levels): NS" in m.describe()


def test_end_by_levels_draw_and_bad_limits() -> None:
    m = Match(Ruleset(limit_draw=True))
    assert m.end_by_levels()
    assert m.is_over and m.winner is None and m.margin == 0
    m = Match()  # §8: equal levels play one more deal (tests/test_match_levels.py)
    assert not m.end_by_levels() and not m.is_over and m.extra_deal
    with pytest.raises(GuandanError, match="max_deals"):
        Match(max_deals=0)
    with pytest.raises(GuandanError, match="no hands dealt"):
        Match().start_deal()
    with pytest.raises(GuandanError, match="no deal is under way"):
        Match().finish_deal()
    with pytest.raises(TributeError, match="no tribute phase"):
        Match().tribute(N, k("S3"))
    bad = Match()
    with pytest.raises(GuandanError, match="hand of S holds S3, more copies"):
        bad.deal_hands([c("S3")] * 4)
    assert bad.current_deal is None and bad.start_deal([c("S3"), c("S4"), c("S5"), c("S6")])
