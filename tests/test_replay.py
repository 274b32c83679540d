"""Replaying records: steps, the checks on every play and on Finish/Result, first failure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate import gdn
from duplicate.dealing import deal_id
from duplicate.replay import (
    Failure,
    ReplayError,
    check_text,
    finish_agrees,
    finish_text,
    replay,
    state_actions,
)
from engine.cards import from_ids, size
from engine.combo import ComboType
from engine.deal import Deal, DealResult
from engine.ruleset import Ruleset
from engine.seat import Seat, Side

GOLDEN = Path(__file__).parent / "golden" / "gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"


def _board1() -> list[str]:
    """The lines of the example's first deal (level 2, E leads, EW +3 double down)."""
    return EXAMPLE.read_text(encoding="utf-8").split("\n\n")[0].split("\n")


def _replace(lines: list[str], number: int, new: str) -> str:
    out = list(lines)
    out[number - 1] = new
    return "\n".join(out) + "\n"


def _one(text: str) -> gdn.DealRecord:
    (rec,) = gdn.loads(text, file="b.gdn")
    return rec


def test_state_actions_steps_through_every_play() -> None:
    rec = _one("\n".join(_board1()) + "\n")
    assert rec.plays is not None
    steps = list(state_actions(rec))
    assert len(steps) == len(rec.plays) == 120
    first = steps[0].position
    assert first.ply == 0 and first.turn == Seat.E and first.to_beat is None
    assert first.hands == rec.hands and first.finished == ()
    for i, (step, play) in enumerate(zip(steps, rec.plays, strict=True)):
        position, action = step
        assert position.ply == i
        assert position.turn == action.seat == play.seat
        if play.is_pass:
            assert action.is_pass and position.to_beat is not None
        else:
            assert action.combo is not None and action.combo.cards == play.cards
            assert (action.combo.type, action.combo.rank) == (play.type, play.rank)
            assert action.cards_left == size(position.hands[play.seat]) - size(play.cards)
    # E goes out first (the last play of E), then W: a double down
    assert steps[-1].position.finished == (Seat.E,)


def test_replay_result_of_a_clean_record() -> None:
    rec = _one("\n".join(_board1()) + "\n")
    res = replay(rec)
    assert res.ok and res.finished and res.raise_for_error() is res
    assert res.result == DealResult((Seat.E, Seat.W, Seat.N, Seat.S), Side.EW, 3, True)
    assert finish_text(res.result) == "E W"  # a double down: no order between N and S
    single = DealResult((Seat.S, Seat.E, Seat.W, Seat.N), Side.NS, 1, False)
    assert finish_text(single) == "S E W N"
    assert len(res.actions) == 120
    assert res.record is rec  # nothing to complete: every play was declared


def test_untyped_plays_are_read_by_rule_5_and_written_canonically() -> None:
    """Plays without type and rank replay; the completed record is the canonical form.

    One play differs from the example's declaration: at level 3, ``H8 DK DK H3 H3`` was
    declared ThreeWithTwo 8 (the two wild H3 join H8); undeclared, RULES.md §5 takes the
    highest legal reading, ThreeWithTwo K (one wild joins DK DK, the other H8).
    """
    records = gdn.loads((GOLDEN / "untyped.gdn").read_text(encoding="utf-8"))
    results = [replay(r) for r in records]
    assert all(r.ok for r in results)
    expected = (GOLDEN / "untyped.expected.gdn").read_text(encoding="utf-8")
    assert gdn.dumps([r.record for r in results]) == expected
    declared = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))[:3]
    differ = [
        (a.line, a.type, a.rank)
        for rec, got in zip(declared, results, strict=True)
        for a, b in zip(rec.plays or [], got.record.plays or [], strict=True)
        if (a.type, a.rank) != (b.type, b.rank)
    ]
    assert differ == [(captured_line(), ComboType.THREE_WITH_TWO, 6)]  # rank index 6 = "8"


def captured_line() -> int:
    """The example file's line of ``E ThreeWithTwo 8 H3 H3 H8 DK DK``."""
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n")
    return lines.index("E ThreeWithTwo 8 H3 H3 H8 DK DK") + 1


@pytest.mark.parametrize(
    ("number", "line", "seat", "reason"),
    [
        (8, "W ThreeWithTwo 2 H2 S2 D2 SQ SQ", Seat.W, "W acted out of turn: it is S's turn"),
        (7, "E Single R HR", Seat.E, "E does not hold HR"),
        (7, "E Pair 7 S7 C8", Seat.E, "not a valid reading"),
        (7, "E ThreeWithTwo A H5 D5 H5 SA SA", Seat.E, "is not ThreeWithTwo A"),
        (8, "S Single 3 S3", Seat.S, "does not beat E's ThreeWithTwo 5"),
        (7, "E PASS", Seat.E, "E leads and may not pass"),
        (7, "E H5 S7", Seat.E, "cannot play"),
    ],
)
def test_illegal_plays_are_reported_at_their_line(
    number: int, line: str, seat: Seat, reason: str
) -> None:
    rec = _one(_replace(_board1(), number, line))
    res = replay(rec)
    assert not res.ok and res.result is None
    err = res.error
    assert isinstance(err, ReplayError)
    assert (err.file, err.line, err.seat) == ("b.gdn", number, seat)
    assert reason in err.reason and "[position" not in err.reason
    assert err.position.startswith("N:") and " turn=" in err.position
    assert str(err).startswith(f"b.gdn:{number}: seat {seat.name}: ")
    assert str(err).endswith(f"[position {err.position}]")
    assert len(res.actions) == number - 7  # the actions before the failure
    with pytest.raises(ReplayError):
        list(state_actions(rec))
    with pytest.raises(ReplayError):
        res.raise_for_error()


def test_a_play_after_the_end_of_the_deal() -> None:
    lines = _board1()
    lines.insert(lines.index('[Finish "E W"]'), "N PASS")
    res = replay(_one("\n".join(lines) + "\n"))
    assert res.error is not None and "after the end of the deal" in res.error.reason
    assert res.error.line == 127 and res.error.seat == Seat.N


@pytest.mark.parametrize(
    ("tag", "value", "reason"),
    [
        ("Finish", "W E", "Finish 'W E' does not match the replay: E W N S (double down)"),
        ("Finish", "E W S", "does not match"),
        ("Result", "EW +2", "Result 'EW +2' does not match the replay: EW +3"),
        ("Result", "NS +3", "does not match"),
    ],
)
def test_finish_and_result_must_match(tag: str, value: str, reason: str) -> None:
    lines = _board1()
    number = next(i for i, x in enumerate(lines, 1) if x.startswith(f"[{tag} "))
    res = replay(_one(_replace(lines, number, f'[{tag} "{value}"]')))
    assert res.error is not None and reason in res.error.reason
    assert res.error.line == number
    assert res.result is not None  # the deal itself replayed


def test_unfinished_deals() -> None:
    lines = _board1()
    del lines[lines.index('[Finish "E W"]') - 1]  # W's last play
    res = replay(_one("\n".join(lines) + "\n"))
    assert res.error is not None and "ends before the deal does, but Finish" in res.error.reason
    assert res.error.line == 126
    without_tags = [x for x in lines if not x.startswith(("[Finish", "[Result"))]
    res = replay(_one("\n".join(without_tags) + "\n"))
    assert res.ok and not res.finished and res.result is None and len(res.actions) == 119


def test_hand_record_and_read_errors() -> None:
    lines = _board1()
    board = lines[: lines.index("[Play]")]
    res = replay(_one("\n".join(board) + "\n"))
    assert res.ok and res.actions == [] and res.result is None
    (bad,) = gdn.loads("\n".join(board) + "\n[Play]\nE Single 5 Q5\n", strict=False)
    res = replay(bad)
    assert res.error is bad.errors[0] and "invalid card" in res.error.reason


def test_deal_id_must_name_the_hands() -> None:
    lines = _board1()
    rec = _one("\n".join(lines) + "\n")
    good = deal_id(rec.hands)
    lines.insert(1, f'[DealId "{good}"]')
    assert replay(_one("\n".join(lines) + "\n")).ok
    lines[1] = f'[DealId "{good[::-1]}"]'
    res = replay(_one("\n".join(lines) + "\n"))
    assert res.error is not None and res.error.line == 2
    assert f"their DealId is {good}" in res.error.reason


def test_rules_variant_changes_the_replay() -> None:
    """Board 1 ends with E's partner W leading after E went out (接风, §6); with the variant
    ``jiefeng_next`` the lead goes to E's next player, so the record no longer replays."""
    rec = _one("\n".join(_board1()) + "\n")
    assert replay(rec).ok
    res = replay(rec, Ruleset(jiefeng_next=True))
    assert res.error is not None and "out of turn" in res.error.reason


def _with_deal_id(lines: list[str], value: str) -> str:
    return "\n".join([lines[0], f'[DealId "{value}"]', *lines[1:]]) + "\n"


#: Board 1 spoilt in each way a record can fail, and the kind of failure it is: a read or a
#: board error no rule variant causes; a refused play and a disagreeing tag one can.
FAILURES = [
    ("malformed Deal", lambda ls: _replace(ls, 5, '[Deal "N:H3 XX"]'), Failure.READ, False),
    ("hand of 26", lambda ls: _replace(ls, 5, ls[4].replace("N:H3 ", "N:")), Failure.READ, False),
    ("bad Level", lambda ls: _replace(ls, 3, '[Level "Z"]'), Failure.READ, False),
    ("wrong DealId", lambda ls: _with_deal_id(ls, "00"), Failure.BOARD, False),
    ("out of turn", lambda ls: _replace(ls, 8, "W ThreeWithTwo 2 H2 S2 D2 SQ SQ"),
     Failure.PLAY, True),
    ("play after the end", lambda ls: "\n".join([*ls[:126], "N PASS", *ls[126:]]) + "\n",
     Failure.PLAY, True),
    ("Result", lambda ls: _replace(ls, 128, '[Result "EW +4"]'), Failure.TAGS, True),
    ("Finish", lambda ls: _replace(ls, 127, '[Finish "W E"]'), Failure.TAGS, True),
    ("ends early", lambda ls: "\n".join([*ls[:20], *ls[126:]]) + "\n", Failure.TAGS, True),
]


@pytest.mark.parametrize(("name", "spoil", "kind", "rules"), FAILURES,
                         ids=[f[0] for f in FAILURES])
def test_a_failure_says_its_kind(name: str, spoil: Any, kind: Failure, rules: bool) -> None:
    """The report of a failed deal says what kind of failure it is, so that ``guandan
    replay`` can tell a record a rule variant may explain from one no variant can."""
    text = spoil(_board1())
    (rec,) = gdn.loads(text, file="b.gdn", strict=False)  # read leniently, as replay reads
    res = replay(rec)
    assert res.error is not None and res.failure is kind, (name, res.error)
    (rep,) = check_text(text, file="b.gdn")
    assert rep.status == "error" and rep.failure is kind and rep.to_dict()["failure"] == kind
    assert kind.rules_may_cause is rules
    assert replay(_one("\n".join(_board1()) + "\n")).failure is None


def test_the_rules_variant_failure_and_an_unreadable_file() -> None:
    rec = _one("\n".join(_board1()) + "\n")
    assert replay(rec, Ruleset(jiefeng_next=True)).failure is Failure.PLAY
    (rep,) = check_text(b"\xff\xfe[Event]", file="x.gdn")
    assert rep.failure is Failure.READ and not rep.failure.rules_may_cause


@pytest.mark.parametrize(
    ("finish", "ok"),
    [
        ((Seat.E, Seat.W), True),
        ((Seat.E, Seat.W, Seat.S, Seat.N), True),
        ((Seat.E, Seat.W, Seat.N, Seat.S), True),
        ((Seat.E, Seat.W, Seat.N), False),
        ((Seat.W, Seat.E), False),
    ],
)
def test_finish_of_a_double_down(finish: tuple[Seat, ...], ok: bool) -> None:
    result = DealResult((Seat.E, Seat.W, Seat.N, Seat.S), Side.EW, 3, True)
    assert finish_agrees(finish, result) is ok


@pytest.mark.parametrize(
    ("finish", "ok"),
    [
        ((Seat.S, Seat.E, Seat.W, Seat.N), True),
        ((Seat.S, Seat.E, Seat.W), True),
        ((Seat.S, Seat.E), False),
        ((Seat.S, Seat.E, Seat.N, Seat.W), False),
    ],
)
def test_finish_of_a_single_down(finish: tuple[Seat, ...], ok: bool) -> None:
    result = DealResult((Seat.S, Seat.E, Seat.W, Seat.N), Side.NS, 1, False)
    assert finish_agrees(finish, result) is ok


def test_check_files_counts_reports_and_progress(tmp_path: Path) -> None:
    from duplicate.replay_files import check_files

    lines = _board1()
    bad = tmp_path / "bad.gdn"
    bad.write_text(_replace(lines, 7, "E PASS"), encoding="utf-8")
    check = check_files([EXAMPLE, bad, EXAMPLE], jobs=1)
    size = 2 * EXAMPLE.stat().st_size + bad.stat().st_size
    assert check.total == size and check.jobs == 1
    ticks: list[int] = []  # progress by bytes read: each file read once
    reports = list(check.reports(ticks.append))
    assert len(reports) == 53 and sum(ticks) == size
    assert [r.status for r in reports].count("error") == 1 and reports[26].line == 1
    assert reports[26].error is not None and reports[26].error.startswith(f"{bad}:7: seat E:")
    strict = list(check_files([EXAMPLE, bad, EXAMPLE], strict=True).reports())
    assert len(strict) == 27 and not strict[-1].ok


@st.composite
def played_records(draw: st.DrawFn) -> gdn.DealRecord:
    """A whole deal played by random legal choices (leads and follows, passes sometimes)."""
    ids = draw(st.permutations(range(108)))
    hands = tuple(from_ids(ids[27 * i : 27 * (i + 1)]) for i in range(4))
    level = draw(st.integers(0, 12))
    leader = draw(st.sampled_from(list(Seat)))
    deal = Deal(hands, level, leader)
    plays: list[gdn.Play] = []
    while not deal.is_over:
        seat = deal.turn
        assert seat is not None
        options = deal.legal_readings()
        if deal.to_beat is not None and (not options or draw(st.booleans())):
            deal.pass_()
            plays.append(gdn.Play(seat, 0))
            continue
        combo = options[draw(st.integers(0, len(options) - 1))]
        deal.play(combo)
        plays.append(gdn.Play(seat, combo.cards, combo.type, combo.rank))
    result = deal.result()
    return gdn.DealRecord(
        tags={"Board": "1"},
        hands=hands,  # type: ignore[arg-type]
        level=level,
        leader=leader,
        plays=plays,
        finish=result.finish_order[:2] if result.double_down else result.finish_order,
        result=(result.winner, result.levels),
    )


@settings(max_examples=30, deadline=None)
@given(played_records())
def test_any_legally_played_deal_round_trips_and_replays(rec: gdn.DealRecord) -> None:
    (back,) = gdn.loads(gdn.dumps(rec), file="p.gdn")
    res = replay(back)
    assert res.ok, str(res.error)
    assert res.result is not None and (res.result.winner, res.result.levels) == rec.result
    steps = list(state_actions(back))
    assert [s.action.seat for s in steps] == [p.seat for p in rec.plays or []]
    assert [s.position.ply for s in steps] == list(range(len(steps)))


@pytest.mark.parametrize(
    ("tag", "value", "zh"),
    [
        ("Finish", "W E", "记录的出完顺序“W E”与复盘不符：复盘为 E W N S（双下）"),
        ("Result", "EW +2", "记录的结果“EW +2”与复盘不符：复盘为 EW +3"),
    ],
)
def test_a_record_that_does_not_replay_says_why_in_chinese(tag: str, value: str, zh: str) -> None:
    lines = _board1()
    number = next(i for i, x in enumerate(lines, 1) if x.startswith(f"[{tag} "))
    res = replay(_one(_replace(lines, number, f'[{tag} "{value}"]')))
    assert res.error is not None
    said = res.error.text("zh")
    assert zh in said and "does not" not in said and "replay" not in said
    late = _board1()
    del late[late.index('[Finish "E W"]') - 1]
    res = replay(_one("\n".join(late) + "\n"))
    assert res.error is not None
    assert "出牌记录在牌局结束前就停了，却写了结果标签 Finish" in res.error.text("zh")
    after = _board1()
    after.insert(after.index('[Finish "E W"]'), "N PASS")
    res = replay(_one("\n".join(after) + "\n"))
    assert res.error is not None and "牌局已经结束" in res.error.text("zh")
