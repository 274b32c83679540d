"""Rule tests for one deal (RULES.md §6–7): turns, passing, tricks, 接风, the end, results,
报牌, errors and undo. Hands are small so that each corner is easy to set up by hand."""

from __future__ import annotations

import pytest

from engine.cards import Cards, parse_cards, parse_rank
from engine.combo import Combo, ComboType
from engine.deal import Deal, DealNotOverError, DealResult
from engine.errors import (
    GameOverError,
    GuandanError,
    IllegalPlayError,
    OutOfTurnError,
)
from engine.ruleset import Ruleset
from engine.seat import Seat, Side

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
LEVEL_2 = 0


def c(text: str) -> Cards:
    return parse_cards(text)


def new_deal(n: str, e: str, s: str, w: str, leader: Seat = N, **rules: object) -> Deal:
    return Deal([c(n), c(e), c(s), c(w)], LEVEL_2, leader, Ruleset(**rules))  # type: ignore[arg-type]


def single(token: str) -> Combo:
    return Combo(ComboType.SINGLE, parse_rank(token[1:]), c(token))


def run(deal: Deal, script: str) -> None:
    """Play a script: ``S3`` plays that card (or cards joined by '+'), ``-`` passes."""
    for step in script.split():
        if step == "-":
            deal.pass_()
        else:
            deal.play_cards(c(step.replace("+", " ")))


# --- passing and turns ---------------------------------------------------------------------


def test_pass_when_leading_is_refused() -> None:
    d = new_deal("S3 S4", "S5", "S6", "S7")
    assert not d.can_pass()
    with pytest.raises(IllegalPlayError, match="N leads and may not pass"):
        d.pass_()
    assert d.actions == [] and d.turn == N


def test_turns_go_round_and_pass_is_legal_when_following() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    assert d.turn == N and d.to_beat is None
    d.play_cards(c("S3"))
    assert d.turn == E and d.to_beat == single("S3") and d.last_player == N
    assert d.can_pass()
    d.pass_()
    assert d.turn == S
    assert d.actions[1].is_pass and d.actions[1].cards_left == 2


def test_a_passer_may_play_later_in_the_trick() -> None:
    d = new_deal("S3 S4 S5", "S5 S9", "S6 S8", "S7 ST")
    run(d, "S3 - S6 - -")  # N leads, E passes, S plays, W and N pass
    assert d.turn == E and d.to_beat == single("S6")
    action = d.play_cards(c("S9"))  # E, who passed, plays in the same trick
    assert action.seat == E and d.to_beat == single("S9") and d.tricks == []


def test_trick_ends_when_all_others_pass_and_its_last_player_leads() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    run(d, "S3 S5 - -")  # N, E play; S, W pass: N still holds cards, so N must pass too
    assert d.to_beat == single("S5") and d.turn == N
    d.pass_()
    assert d.to_beat is None and d.last_player is None and d.turn == E
    (trick,) = d.tricks
    assert trick.leader == N and trick.winner == E
    assert [a.combo for a in trick.plays] == [single("S3"), single("S5")]
    assert (trick.start, trick.end) == (0, 5) and d.trick_leader == E


def test_out_of_turn_is_refused() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    with pytest.raises(OutOfTurnError, match="E acted out of turn: it is N's turn"):
        d.play_cards(c("S5"), seat=E)
    assert not d.can_play(single("S5"), E)
    with pytest.raises(OutOfTurnError):
        d.pass_(W)
    with pytest.raises(GuandanError, match="invalid seat 7"):
        d.pass_(7)  # type: ignore[arg-type]
    d.play_cards(c("S3"), seat=N)
    assert d.can_play(single("S5"), E)


def test_cards_not_held_are_named() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    with pytest.raises(IllegalPlayError, match="N does not hold S9") as info:
        d.verify_play(single("S9"))
    assert "position N:S3,S4" in str(info.value)
    with pytest.raises(IllegalPlayError, match="N does not hold S3 "):
        d.play_cards(c("S3 S3"))  # one S3 held, two played: the missing copy is named


def test_invalid_reading_and_not_beating_are_refused() -> None:
    d = new_deal("S3 S4 S4", "S5 S9", "S6 S8", "S7 ST")
    bad = Combo(ComboType.PAIR, parse_rank("3"), c("S3 S4"))
    with pytest.raises(IllegalPlayError, match="not a valid reading"):
        d.play(bad)
    with pytest.raises(IllegalPlayError, match="not a valid reading"):
        d.play_cards(c("S3 S4"), ComboType.PAIR, parse_rank("3"))
    with pytest.raises(IllegalPlayError, match="declares only its type"):
        d.play_cards(c("S4 S4"), ComboType.PAIR)
    d.play_cards(c("S4 S4"), ComboType.PAIR, parse_rank("4"))
    # E holds no pair: single S9 is not a pair, and does not beat it
    with pytest.raises(IllegalPlayError, match="does not beat N's Pair 4"):
        d.play(single("S9"))
    assert not d.can_play(single("S9"))


def test_equal_never_beats() -> None:
    d = new_deal("S5 S4", "C5 S9", "S6 S8", "S7 ST")
    d.play_cards(c("S5"))
    with pytest.raises(IllegalPlayError, match="does not beat"):
        d.play_cards(c("C5"))


def test_undeclared_play_uses_the_highest_legal_reading() -> None:
    # §5 via reading.choose_reading: at level 2 the wild H2 with S3 reads as a pair of 3s.
    d = new_deal("H2 S3 S9", "S5 S9", "S6 S8", "S7 ST")
    action = d.play_cards(c("H2 S3"))
    assert action.combo is not None and action.combo.type == ComboType.PAIR
    assert action.combo.rank == parse_rank("3")


# --- finishing, 接风 and the end -------------------------------------------------------------


def test_jiefeng_partner_leads_after_a_finished_player_wins() -> None:
    d = new_deal("S3", "S4 S9", "S5 S6", "S7 S8")
    d.play_cards(c("S3"))
    assert d.finish_order == [N] and d.turn == E
    run(d, "- - -")  # every other player holding cards passes, N's partner S too
    assert d.turn == S and d.to_beat is None  # 接风: the partner leads
    assert d.tricks[-1].winner == N


def test_jiefeng_next_variant_gives_the_lead_to_the_next_player() -> None:
    d = new_deal("S3", "S4 S9", "S5 S6", "S7 S8", jiefeng_next=True)
    run(d, "S3 - - -")
    assert d.turn == E


def test_jiefeng_next_skips_a_finished_next_player() -> None:
    # E finishes with the play that wins the trick; under the variant the lead goes to
    # E's 下家 S (not E's partner W).
    d = new_deal("S3 S5", "S4", "S6 S6", "S7 S8", jiefeng_next=True)
    run(d, "S3 S4")  # E finishes on N's lead
    assert d.finish_order == [E]
    run(d, "- - -")  # S, W, N pass: E won the trick; 下家 of E is S
    assert d.turn == S
    run(d, "S6 S7 -")  # S, W, N: N passes
    assert d.turn == S
    d.pass_()  # S passes: W's trick; W still holds cards, leads
    assert d.turn == W and d.to_beat is None


def test_finished_players_are_skipped_and_fewer_passes_end_the_trick() -> None:
    # N finishes; E beats it; only S and W still hold cards besides E: two passes end it.
    d = new_deal("S3", "S4 S9", "S5 S6", "S7 S8")
    run(d, "S3 S4")
    assert d.turn == S
    run(d, "- -")
    assert d.turn == E and d.to_beat is None  # E won the trick and leads
    d.play_cards(c("S9"))
    assert d.turn == S  # N (finished) is skipped: E → S


def test_partner_gets_the_lead_while_both_opponents_hold_cards() -> None:
    d = new_deal("S3", "S4 S9", "S5 S6", "S7 S8")
    run(d, "S3 - - -")
    assert d.hand(E) and d.hand(W) and d.turn == S
    d.play_cards(c("S6"))
    assert d.turn == W


def test_deal_ends_when_a_side_is_out_double_down() -> None:
    d = new_deal("S3", "S9 SA", "S4", "SK ST")
    run(d, "S3 - - -")  # N finishes, S leads (接风)
    assert not d.is_over
    d.play_cards(c("S4"))  # S finishes: N-S both out
    assert d.is_over and d.turn is None and d.to_beat == single("S4")
    assert d.finish_order[:2] == [N, S] and set(d.finish_order[2:]) == {E, W}
    res = d.result()
    assert res.winner == Side.NS and res.levels == 3 and res.double_down
    assert res.result_tag == "NS +3" and res.partner_place == 2
    assert res.score(Side.EW) == -3
    assert d.tricks[-1].winner == S and not d.can_pass()
    with pytest.raises(GameOverError, match="the deal is over"):
        d.play_cards(c("S9"))
    with pytest.raises(GameOverError):
        d.pass_()
    assert list(d.legal_plays()) == [] and d.legal_readings() == []


def test_double_down_plus4_variant() -> None:
    d = new_deal("S3", "S9 SA", "S4", "SK ST", double_down_plus4=True)
    run(d, "S3 - - - S4")
    assert d.result().levels == 4 and d.result().result_tag == "NS +4"


def test_partner_third_gains_two() -> None:
    d = new_deal("S3", "S5", "S4 ST", "S6 S7")
    run(d, "S3 S5 - -")  # N 1st, E 2nd; E won the trick: W leads (接风)
    assert d.turn == W
    run(d, "S6 ST -")  # W leads, S beats, W passes: S wins and leads
    assert d.turn == S
    d.play_cards(c("S4"))
    res = d.result()
    assert res.finish_order == (N, E, S, W) and res.finish_tag == "N E S W"
    assert res.levels == 2 and res.winner == Side.NS and not res.double_down
    assert res.place(W) == 4 and res.first == N


def test_partner_fourth_gains_one() -> None:
    d = new_deal("S3", "S5", "S4 S4", "S6")
    run(d, "S3 S5 - -")  # W leads by 接风
    d.play_cards(c("S6"))  # W finishes: E-W both out, S is 4th
    res = d.result()
    assert res.finish_order == (N, E, W, S)
    assert res.winner == Side.NS and res.levels == 1 and res.result_tag == "NS +1"


def test_result_before_the_end_is_refused() -> None:
    d = new_deal("S3", "S5", "S4 S4", "S6")
    with pytest.raises(DealNotOverError, match="not over"):
        d.result()


# --- 报牌 ---------------------------------------------------------------------------------


def test_report_at_ten_cards_once() -> None:
    d = new_deal("S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK C3", "HR", "SB", "HR")
    run(d, "S3 - - -")
    assert d.reported == {}  # 11 cards left
    run(d, "S4 - - -")
    assert d.reported == {N: 4}  # 10 cards left after action 4
    run(d, "S5 - - -")
    assert d.reported == {N: 4}  # once per deal
    d.undo()
    d.undo()
    d.undo()
    d.undo()
    d.undo()
    d.undo()
    d.undo()
    assert d.reported == {N: 4}
    d.undo()
    assert d.reported == {}


# --- undo, copy, equality ------------------------------------------------------------------


def test_undo_restores_every_state_exactly() -> None:
    d = new_deal("S3", "S5", "S4 ST", "S6 S7")
    keys = [d.state_key()]
    copies = [d.copy()]
    for step in "S3 S5 - - S6 ST - S4".split():
        run(d, step)
        keys.append(d.state_key())
        copies.append(d.copy())
    assert d.is_over
    for i in range(len(keys) - 1, 0, -1):
        assert d.state_key() == keys[i] and d == copies[i]
        d.undo()
    assert d.state_key() == keys[0] and d == copies[0]
    assert d.turn == N and d.finish_order == [] and d.tricks == [] and not d.is_over
    with pytest.raises(GuandanError, match="nothing to undo"):
        d.undo()


def test_copy_is_independent() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    d.play_cards(c("S3"))
    e = d.copy()
    assert e == d
    e.pass_()
    assert e != d and len(d.actions) == 1 and d.turn == E
    e.undo()
    assert e == d


def test_actions_record_lines() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    a = d.play_cards(c("S3"))
    b = d.pass_()
    assert a.record() == "N Single 3 S3" and b.record() == "E PASS"
    assert d.played == c("S3")


# --- construction --------------------------------------------------------------------------


def test_bad_hands_are_refused() -> None:
    with pytest.raises(GuandanError, match="4 hands"):
        Deal([c("S3")] * 3, LEVEL_2, N)
    with pytest.raises(GuandanError, match="hand of S holds S3, more copies"):
        Deal([c("S3"), c("S3"), c("S3"), c("S4")], LEVEL_2, N)
    with pytest.raises(GuandanError, match="hand of W is empty"):
        Deal([c("S3"), c("S4"), c("S5"), 0], LEVEL_2, N)
    with pytest.raises(GuandanError, match="invalid level"):
        Deal([c("S3"), c("S4"), c("S5"), c("S6")], 13, N)


def test_position_is_one_line_with_everything() -> None:
    d = new_deal("S3 S4", "S5 S9", "S6 S8", "S7 ST")
    d.play_cards(c("S4"))
    pos = d.position()
    assert "\n" not in pos
    assert pos == "N:S3 E:S5,S9 S:S6,S8 W:S7,ST level=2 turn=E beat=N:Single:4:S4 out=-"


def test_result_value_object() -> None:
    r = DealResult((S, W, N, E), Side.NS, 2, False)
    assert r.finish_tag == "S W N E" and r.result_tag == "NS +2" and r.partner_place == 3
