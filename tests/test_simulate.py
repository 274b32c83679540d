"""Self-play in two rooms (duplicate/simulate.py), its statistics and ``guandan simulate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from duplicate.boards import generate_set
from duplicate.bots import HeuristicPlayer, Player, RandomPlayer, View
from duplicate.dealing import (
    LevelSchedule,
    derive_key,
    generate_board,
    generate_boards,
    parse_seed_file,
    seed_file_bytes,
)
from duplicate.gdn import DealRecord, Play, dumps, loads
from duplicate.replay import replay
from duplicate.simulate import (
    REAL_PLAY,
    SimulateError,
    format_statistics,
    iter_match,
    play_deal,
    play_statistics,
    simulate_boards,
    simulate_match,
    simulation_key,
)
from engine.cards import parse_cards, parse_rank
from engine.combo import Combo, ComboType
from engine.seat import Seat

KEY = simulation_key(b"\x5e\x1f")
BOARDS = list(generate_boards(KEY, 6, LevelSchedule("cycle")))


def _check_replays(records: list[DealRecord]) -> None:
    for rec in records:
        res = replay(rec)
        assert res.ok, res.error
        assert res.result is not None
        # FORMAT.md: a double down's Finish names the first two only (RULES.md §6)
        order = res.result.finish_order
        assert rec.finish == (order[:2] if res.result.double_down else order)
        assert rec.result == (res.result.winner, res.result.levels)


def test_every_simulated_record_replays_with_its_finish_and_result() -> None:
    for x, y in (("heuristic", "random"), ("random", "heuristic")):
        records = simulate_match(BOARDS, x, y, b"replay")
        assert len(records) == 2 * len(BOARDS)
        _check_replays(records)
        # and through the text form, as `guandan replay` reads a file
        _check_replays(loads(dumps(records)))


def test_same_seed_same_bytes_other_seed_other_bytes() -> None:
    first = dumps(simulate_match(BOARDS, "random", "heuristic", b"one"))
    again = dumps(simulate_match(BOARDS, "random", "heuristic", b"one"))
    other = dumps(simulate_match(BOARDS, "random", "heuristic", b"two"))
    assert first == again
    assert first != other
    # a board's records do not depend on the boards played before it
    alone = dumps(simulate_match(BOARDS[3:4], "random", "heuristic", b"one"))
    assert alone in first


def test_a_stored_board_set_plays_like_its_boards() -> None:
    board_set = generate_set(parse_seed_file(seed_file_bytes(bytes(32))), 2, "selfplay")
    from_set = simulate_match(board_set, "random", "heuristic", b"set")
    assert dumps(from_set) == dumps(simulate_match(board_set.boards, "random", "heuristic", b"set"))
    assert [r.board for r in from_set] == ["1", "1", "2", "2"]


def test_two_rooms_hold_the_same_cards_and_swap_the_teams() -> None:
    for outcome in iter_match(BOARDS[:3], "heuristic", "random", b"rooms"):
        board = outcome.board
        assert outcome.open.hands == outcome.closed.hands == board.hands
        assert outcome.open.leader == outcome.closed.leader == board.leader
        assert outcome.open.level == outcome.closed.level == board.level
        assert outcome.open.room == "Open" and outcome.closed.room == "Closed"
        o, c = outcome.open.tags, outcome.closed.tags
        assert (o["North"], o["East"], o["South"], o["West"]) == (
            "X-heuristic-1", "Y-random-1", "X-heuristic-2", "Y-random-2",
        )
        assert (c["North"], c["East"], c["South"], c["West"]) == (
            "Y-random-3", "X-heuristic-3", "Y-random-4", "X-heuristic-4",
        )
        assert o["DealId"] == c["DealId"] == board.deal_id
        assert outcome.swing == outcome.open_ns - outcome.closed_ns


@settings(max_examples=15, deadline=None)
@given(seed=st.binary(min_size=1, max_size=16), number=st.integers(1, 500), level=st.integers(0, 12))
def test_bots_only_make_legal_plays(seed: bytes, number: int, level: int) -> None:
    # play_deal goes through Deal.play, which raises on any illegal play; replay checks again
    board = generate_board(simulation_key(seed), number, LevelSchedule("fixed", level))
    players: list[Player] = [
        RandomPlayer(seed + b"N"),
        HeuristicPlayer(),
        RandomPlayer(seed + b"S"),
        HeuristicPlayer(),
    ]
    record = play_deal(board, players)
    _check_replays([record])


def test_heuristic_beats_random_on_average() -> None:
    boards = list(generate_boards(simulation_key(b"contest"), 40))
    swings = [o.swing for o in iter_match(boards, "heuristic", "random", b"contest")]
    assert sum(swings) > 0
    assert sum(1 for s in swings if s > 0) > sum(1 for s in swings if s < 0)


def test_an_illegal_bot_play_is_reported_with_the_board_and_seat() -> None:
    class Cheat:
        name = "cheat"

        def act(self, view: View) -> Combo | None:
            # a joker bomb it does not hold
            return Combo(ComboType.FOUR_KINGS, 13, sum(1 << (3 * k) for k in (52, 52, 53, 53)))

    players: list[Player] = [Cheat(), Cheat(), Cheat(), Cheat()]
    with pytest.raises(SimulateError, match=r"board 1: the cheat bot at N made an illegal play"):
        play_deal(BOARDS[0], players)
    with pytest.raises(SimulateError, match="4 players"):
        play_deal(BOARDS[0], players[:3])


def test_simulation_key_and_board_count() -> None:
    secret = bytes(range(32))
    assert simulation_key(secret) == derive_key(secret)
    assert simulation_key(b"\x01") != simulation_key(b"\x02")
    with pytest.raises(SimulateError, match="empty"):
        simulation_key(b"")
    with pytest.raises(SimulateError, match="at least one"):
        list(simulate_boards(KEY, 0, "random", "random"))


# --- statistics -------------------------------------------------------------------

def _record(board: int, finish: str, plays: list[str]) -> DealRecord:
    """A record with the given play lines (``N Single 3 S3``, ``E PASS``); hands are not needed."""
    out: list[Play] = []
    for line in plays:
        seat, *rest = line.split()
        if rest == ["PASS"]:
            out.append(Play(Seat.parse(seat)))
        else:
            t, rank, *cards = rest
            out.append(
                Play(Seat.parse(seat), parse_cards(cards), ComboType.from_name(t), parse_rank(rank))
            )
    order = tuple(Seat.parse(x) for x in finish.split())
    return DealRecord(tags={"Board": str(board)}, plays=out, finish=order)


CRAFTED = [
    _record(
        1,
        "N S E W",
        [
            "N Single 3 S3", "E Single 4 H4", "S PASS", "W PASS", "N Bomb 9 S9 H9 C9 D9",
            "E PASS", "S PASS", "W PASS", "N Straight 3 S3 S4 S5 S6 S7",
        ],
    ),
    _record(
        2,
        "S N E W",
        ["E Pair 4 H4 S4", "S StraightFlush 3 C3 C4 C5 C6 C7", "W PASS", "N PASS", "E PASS"],
    ),
    DealRecord(tags={"Board": "3"}),  # a hand record: skipped
    DealRecord(tags={"Board": "4"}, plays=[]),  # unfinished (no Finish): skipped
]


def test_statistics_on_crafted_records() -> None:
    stats = play_statistics(CRAFTED)
    assert stats.deals == 2
    assert stats.plays_per_deal == (4, 2)
    assert stats.passes == 8
    assert stats.mean_plays == 3.0
    assert stats.plays_percentile(5) == 2 and stats.plays_percentile(95) == 4
    assert stats.type_counts[ComboType.SINGLE] == 2
    assert stats.bombs == 2 and stats.bombs_per_deal == 1.0
    assert stats.share(ComboType.SINGLE) == pytest.approx(100 * 2 / 6)
    assert stats.share("bombs") == pytest.approx(100 * 2 / 6)
    # deal 1: N (1st) 3 plays, S (2nd) 0, E (3rd) 1; deal 2: S (1st) 1, N 0, E (3rd) 1
    assert stats.place_plays == (4, 0, 2, 0)
    d = stats.to_dict()
    assert d["plays_per_deal"] == 3.0 and d["shares"]["Pair"] == pytest.approx(16.67)
    assert d["plays_by_place"] == [2.0, 0.0, 1.0, 0.0]
    empty = play_statistics([])
    assert empty.deals == 0 and empty.mean_plays == 0.0 and empty.share("bombs") == 0.0


def test_statistics_need_clean_typed_records() -> None:
    untyped = _record(5, "N S E W", ["N Single 3 S3"])
    assert untyped.plays is not None
    untyped.plays[0].type = None
    untyped.plays[0].line = 12
    with pytest.raises(SimulateError, match="board 5: line 12 has no type"):
        play_statistics([untyped])
    bad = loads('[Board "6"]\n[Deal "N:S3"]\n', strict=False)
    with pytest.raises(SimulateError, match="board 6: .*Deal tag"):
        play_statistics(bad)


def test_statistics_table_sits_beside_real_play() -> None:
    records = simulate_match(BOARDS[:2], "heuristic", "heuristic", b"table")
    stats = play_statistics(records)
    assert stats.deals == 4
    assert stats.total_plays == sum(
        1 for r in records for p in (r.plays or []) if not p.is_pass
    )
    text = format_statistics(stats)
    assert "plays per deal (mean)" in text and str(REAL_PLAY.plays_per_deal) in text
    assert "share: Single" in text and "41.7%" in text
    assert "30-50 (the middle 90%)" in text


# --- the command ------------------------------------------------------------------


def test_cli_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "sim.gdn"
    runner = CliRunner()
    args = ["simulate", "--seed", "1f", "--boards", "3", "--y", "random", "-o", str(out)]
    res = runner.invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "total swing" in res.output
    data = out.read_bytes()
    records = loads(data.decode())
    assert len(records) == 6
    _check_replays(records)
    # same seed, same bytes; and the library gives the same records
    res2 = runner.invoke(main, [*args[:-1], str(tmp_path / "again.gdn")])
    assert res2.exit_code == 0
    assert (tmp_path / "again.gdn").read_bytes() == data
    lib = simulate_match(
        generate_boards(simulation_key(b"\x1f"), 3), "heuristic", "random", simulation_key(b"\x1f")
    )
    assert dumps(lib).encode() == data


def test_cli_simulate_json_stats_and_stdout(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["simulate", "--seed", "2a", "--boards", "2", "--stats", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    assert [b["board"] for b in doc["boards"]] == [1, 2]
    assert doc["x_total_swing"] == sum(b["x_swing"] for b in doc["boards"])
    assert doc["stats"]["deals"] == 4
    res = runner.invoke(main, ["simulate", "--seed", "2a", "--boards", "1", "-o", "-"])
    assert res.exit_code == 0
    assert len(loads(res.output)) == 2


def test_cli_simulate_from_a_seed_file(tmp_path: Path) -> None:
    secret = bytes(range(32))
    path = tmp_path / "event.seed"
    path.write_bytes(seed_file_bytes(secret))
    path.chmod(0o600)  # a secret: read without a warning
    runner = CliRunner()
    by_file = runner.invoke(main, ["simulate", "--seed-file", str(path), "--boards", "1", "-o", "-"])
    by_hex = runner.invoke(main, ["simulate", "--seed", secret.hex(), "--boards", "1", "-o", "-"])
    assert by_file.exit_code == 0 and by_file.output == by_hex.output


def test_cli_simulate_bad_input() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["simulate", "--boards", "2"])
    assert res.exit_code == 2 and "exactly one of --seed" in res.output
    res = runner.invoke(main, ["simulate", "--seed", "zz", "--boards", "2"])
    assert res.exit_code == 2 and "not hexadecimal" in res.output
    res = runner.invoke(main, ["simulate", "--seed", "1f", "--boards", "1", "--x", "clever"])
    assert res.exit_code == 1 and "unknown bot policy 'clever'" in res.output
    res = runner.invoke(main, ["simulate", "--seed", "1f", "--boards", "1", "--level-schedule", "x"])
    assert res.exit_code == 1 and "invalid level schedule" in res.output
    res = runner.invoke(main, ["simulate", "--seed-file", "/nonexistent/seed", "--boards", "1"])
    assert res.exit_code == 1 and "cannot read seed file" in res.output
    res = runner.invoke(main, ["simulate", "--seed", "1f", "--boards", "1", "--stats", "--csv"])
    assert res.exit_code == 2
