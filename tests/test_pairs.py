"""Pairs events (duplicate.pairs, ``guandan pairs``): a small event scored by hand.

The records are real deals: boards from the project's generator played by random bots
(``duplicate.simulate.play_deal``), picked by their N–S result so that each table of the
event has the result the hand calculation below needs. Every record replays.

The event (a Mitchell movement: N–S pairs A, B, C stay; E–W pairs D, E, F move):

    board 1:  A–D +2   B–E −1   C–F +2
    board 2:  A–E +1   B–F +3   C–D −3
    board 3:  A–F +1   B–D −2   (not played at C–E's table)
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate.dealing import generate_boards
from duplicate.gdn import DealRecord, dumps, loads
from duplicate.pairs import (
    PairsError,
    PairsResult,
    parse_method,
    score_pairs_event,
    score_pairs_files,
)
from duplicate.policies import make_player
from duplicate.replay import ReplayError, replay
from duplicate.scoring import PairsMethod, UnfinishedRule
from duplicate.simulate import play_deal
from engine.seat import Side

KEY = bytes.fromhex("5ea1" * 16)
BOARDS = list(generate_boards(KEY, 3))

#: Pair letter → its two players (N then S, or E then W).
PAIRS = {p: (f"{p}1", f"{p}2") for p in "ABCDEF"}

#: (board, N–S pair, E–W pair, N–S result) of every table.
TWO_BOARDS = [
    (1, "A", "D", 2),
    (1, "B", "E", -1),
    (1, "C", "F", 2),
    (2, "A", "E", 1),
    (2, "B", "F", 3),
    (2, "C", "D", -3),
]
THIRD_BOARD = [(3, "A", "F", 1), (3, "B", "D", -2)]


@cache
def _pool(board: int) -> dict[int, DealRecord]:
    """One bot-played record of ``board`` for each N–S result ±1..±3 (seeded: always the same)."""
    found: dict[int, DealRecord] = {}
    for i in range(500):
        players = [make_player("random", f"pairs/{board}/{i}/{s}") for s in range(4)]
        rec = play_deal(BOARDS[board - 1], players)
        assert rec.result is not None
        ns = deal_result_ns_of(rec)
        found.setdefault(ns, rec)
        if len(found) == 6:
            return found
    raise AssertionError(f"board {board}: bots gave only the results {sorted(found)}")


def deal_result_ns_of(rec: DealRecord) -> int:
    """The record's N–S result (+levels if N–S won, −levels if E–W did)."""
    assert rec.result is not None
    side, levels = rec.result
    return levels if side is Side.NS else -levels


def table(board: int, ns: str, ew: str, result: int) -> DealRecord:
    """A record of ``board`` with N–S result ``result``, pair ``ns`` N–S and ``ew`` E–W."""
    rec = _pool(board)[result]
    tags = dict(rec.tags)
    tags.update(
        {"North": PAIRS[ns][0], "South": PAIRS[ns][1], "East": PAIRS[ew][0], "West": PAIRS[ew][1]}
    )
    return dataclasses.replace(rec, tags=tags, plays=list(rec.plays or []))


def event(rows: Sequence[tuple[int, str, str, int]]) -> list[DealRecord]:
    """The records of the tables ``rows``."""
    return [table(*row) for row in rows]


def by_pair(result: PairsResult) -> dict[str, tuple[int, bool, float, float | None]]:
    """``{pair letter: (rank, tied, total, percentage)}`` of a result's ranking."""
    out = {}
    for p in result.ranking:
        out[p.pair[0]] = (p.rank, p.tied, round(p.total, 6), _round6(p.percentage))
    return out


def _round6(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def board_scores(result: PairsResult, board: str) -> dict[str, float | None]:
    """``{pair letter: score}`` on one board."""
    return {d.pair[0]: d.score for d in result.detail if d.board == board}


# --- the records are what the calculation assumes ---------------------------------------


def test_the_tables_have_the_intended_results() -> None:
    for rec, (board, _, _, result) in zip(
        event(TWO_BOARDS + THIRD_BOARD), TWO_BOARDS + THIRD_BOARD, strict=True
    ):
        assert rec.board == str(board)
        assert deal_result_ns_of(rec) == result
        assert replay(rec).ok


# --- matchpoints ----------------------------------------------------------------------------


def test_matchpoints_by_hand() -> None:
    res = score_pairs_event(event(TWO_BOARDS), "mp")
    assert res.method is PairsMethod.MATCHPOINTS
    assert res.tables == 3
    # board 1, N–S +2 −1 +2: A beats B and ties C = 3, B 0, C 3; E–W: top 4 − N–S
    assert board_scores(res, "1") == {"A": 3, "B": 0, "C": 3, "D": 1, "E": 4, "F": 1}
    # board 2, N–S +1 +3 −3: A 2, B 4, C 0
    assert board_scores(res, "2") == {"A": 2, "B": 4, "C": 0, "E": 2, "F": 0, "D": 4}
    # Mitchell: each direction ranked on its own; percentages of 2 tops of 4
    assert by_pair(res) == {
        "A": (1, False, 5.0, 62.5),
        "B": (2, False, 4.0, 50.0),
        "C": (3, False, 3.0, 37.5),
        "E": (1, False, 6.0, 75.0),
        "D": (2, False, 5.0, 62.5),
        "F": (3, False, 1.0, 12.5),
    }
    assert [p.field for p in res.ranking] == ["NS"] * 3 + ["EW"] * 3
    assert {p.direction for p in res.ranking} == {"NS", "EW"}


def test_neuberg_for_a_board_played_at_fewer_tables() -> None:
    res = score_pairs_event(event(TWO_BOARDS + THIRD_BOARD), "mp")
    assert res.tables == 3
    summary = {b.board: (b.played, b.finished, b.top) for b in res.boards}
    assert summary == {"1": (3, 3, 4.0), "2": (3, 3, 4.0), "3": (2, 2, 4.0)}
    # board 3 at 2 tables: A beats B, 2 of a top of 2; Neuberg (M + 1)·E/A − 1 to E = 3:
    # A (2 + 1)·3/2 − 1 = 3.5, B (0 + 1)·3/2 − 1 = 0.5; E–W the rest of the top of 4.
    assert board_scores(res, "3") == {"A": 3.5, "B": 0.5, "F": 0.5, "D": 3.5}
    ranks = by_pair(res)
    # A 8.5 of 12, B 4.5 of 12 = C 3 of 8 = 37.5%: B and C tie for second
    assert ranks["A"] == (1, False, 8.5, round(100 * 8.5 / 12, 6))
    assert ranks["B"] == (2, True, 4.5, 37.5)
    assert ranks["C"] == (2, True, 3.0, 37.5)
    assert ranks["E"] == (1, False, 6.0, 75.0)
    assert ranks["D"] == (2, False, 8.5, round(100 * 8.5 / 12, 6))
    assert ranks["F"] == (3, False, 1.5, 12.5)
    boards_played = {p.pair[0]: p.boards for p in res.ranking}
    assert boards_played == {"A": 3, "B": 3, "C": 2, "D": 3, "E": 2, "F": 3}


def test_tables_override_scales_every_board() -> None:
    res = score_pairs_event(event(TWO_BOARDS), "mp", tables=4)
    # top 6; board 1 A had 3 of a top of 4 at 3 tables: (3 + 1)·4/3 − 1 = 13/3
    assert board_scores(res, "1")["A"] == pytest.approx(13 / 3)
    assert board_scores(res, "1")["D"] == pytest.approx(6 - 13 / 3)
    with pytest.raises(PairsError, match="at least 3"):
        score_pairs_event(event(TWO_BOARDS), "mp", tables=2)


# --- swings ---------------------------------------------------------------------------------


def test_cross_swings_by_hand() -> None:
    res = score_pairs_event(event(TWO_BOARDS + THIRD_BOARD), "xswing")
    # board 1 (+2 −1 +2, Σ 3): (3·s − 3)/2 → A 1.5, B −3, C 1.5
    assert board_scores(res, "1") == {"A": 1.5, "B": -3, "C": 1.5, "D": -1.5, "E": 3, "F": -1.5}
    # board 2 (+1 +3 −3, Σ 1): A 1, B 4, C −5
    assert board_scores(res, "2") == {"A": 1, "B": 4, "C": -5, "E": -1, "F": -4, "D": 5}
    # board 3 (+1 −2): A +3, B −3 (no Neuberg for swings)
    assert board_scores(res, "3") == {"A": 3, "B": -3, "F": -3, "D": 3}
    ranks = by_pair(res)
    assert {k: v[2] for k, v in ranks.items()} == {
        "A": 5.5,
        "B": -2.0,
        "C": -3.5,
        "D": 6.5,
        "E": 2.0,
        "F": -8.5,
    }
    # swings rank by the average per board: E (2 over 2 boards = 1.0) is below D (2.17)
    order = [(p.pair[0], p.rank) for p in res.ranking]
    assert order == [("A", 1), ("B", 2), ("C", 3), ("D", 1), ("E", 2), ("F", 3)]
    assert all(p.percentage is None for p in res.ranking)
    average = {p.pair[0]: p.average for p in res.ranking}
    assert average["C"] == pytest.approx(-1.75)
    assert average["A"] == pytest.approx(5.5 / 3)


def test_butler_by_hand() -> None:
    res = score_pairs_event(event(TWO_BOARDS + THIRD_BOARD), "butler")
    datum = {b.board: b.datum for b in res.boards}
    # 3 results: the middle one; 2 results: nothing dropped, the mean
    assert datum == {"1": 2.0, "2": 1.0, "3": -0.5}
    assert board_scores(res, "1") == {"A": 0, "B": -3, "C": 0, "D": 0, "E": 3, "F": 0}
    assert board_scores(res, "2") == {"A": 0, "B": 2, "C": -4, "E": 0, "F": -2, "D": 4}
    assert board_scores(res, "3") == {"A": 1.5, "B": -1.5, "F": -1.5, "D": 1.5}
    e_w_datum = {d.pair[0]: d.datum for d in res.detail if d.board == "1"}
    assert e_w_datum["A"] == 2.0 and e_w_datum["D"] == -2.0
    assert {k: v[2] for k, v in by_pair(res).items()} == {
        "A": 1.5,
        "B": -2.5,
        "C": -4.0,
        "D": 5.5,
        "E": 3.0,
        "F": -3.5,
    }


def test_equal_scores_share_a_rank() -> None:
    rows = [(1, "A", "D", 2), (1, "B", "E", 2)]
    res = score_pairs_event(event(rows), "mp")
    assert [(p.pair[0], p.rank, p.tied, p.total) for p in res.ranking] == [
        ("A", 1, True, 1.0),
        ("B", 1, True, 1.0),
        ("D", 1, True, 1.0),
        ("E", 1, True, 1.0),
    ]


def test_a_howell_pair_sitting_both_ways_makes_one_field() -> None:
    # A sits N–S on board 1 and E–W on board 2
    rows = [(1, "A", "D", 2), (1, "B", "E", -1), (2, "D", "A", 1), (2, "B", "E", 3)]
    res = score_pairs_event(event(rows), "mp")
    assert {p.field for p in res.ranking} == {"all"}
    direction = {p.pair[0]: p.direction for p in res.ranking}
    assert direction == {"A": "NS+EW", "B": "NS", "D": "NS+EW", "E": "EW"}
    # board 1 (top 2): A 2, B 0, D 0, E 2; board 2: D (N–S +1) 0, B 2, A 2, E 0
    assert {p.pair[0]: (p.rank, p.total) for p in res.ranking} == {
        "A": (1, 4.0),
        "B": (2, 2.0),
        "E": (2, 2.0),
        "D": (4, 0.0),
    }


# --- unfinished deals -------------------------------------------------------------------------


def unfinished(rec: DealRecord) -> DealRecord:
    """``rec`` with its play list cut after five plays and no Finish or Result."""
    return dataclasses.replace(rec, plays=list(rec.plays or [])[:5], finish=None, result=None)


def test_an_unfinished_deal_is_scored_by_the_event_rule() -> None:
    records = event(TWO_BOARDS)
    records[2] = unfinished(records[2])  # board 1 at C–F's table
    res = score_pairs_event(records, "mp")
    # A, B finished (A beats B): Neuberg 2 → 3 tables: A 3.5, B 0.5; C and F the average, 2
    assert board_scores(res, "1") == {"A": 3.5, "B": 0.5, "C": 2.0, "D": 0.5, "E": 3.5, "F": 2.0}
    assert next(b for b in res.boards if b.board == "1").finished == 2
    assert next(d for d in res.detail if d.pair.startswith("C") and d.board == "1").result is None
    res = score_pairs_event(records, "mp", unfinished=UnfinishedRule.NOT_SCORED)
    assert board_scores(res, "1")["C"] is None
    assert {p.pair[0]: p.boards for p in res.ranking}["C"] == 1


# --- refusals -------------------------------------------------------------------------------------


def named(records: list[DealRecord], file: str = "event.gdn") -> list[DealRecord]:
    """The records written and read back as ``file`` (so that errors name file and line)."""
    return loads(dumps(records), file=file)


def test_conflicting_hands_are_refused_naming_both_records() -> None:
    records = event(TWO_BOARDS)
    stray = table(2, "C", "F", 1)
    stray.tags["Board"] = "1"  # board 2's cards under board 1's number
    records[2] = stray
    records = named(records)
    with pytest.raises(PairsError) as err:
        score_pairs_event(records)
    msg = str(err.value)
    assert "board 1" in msg and "hands differ" in msg
    assert f"event.gdn:{records[2].line}" in msg and f"event.gdn:{records[0].line}" in msg


def test_a_record_that_does_not_replay_is_an_error_naming_file_and_line() -> None:
    records = named(event(TWO_BOARDS))
    bad = records[4]
    assert bad.result is not None
    side, levels = bad.result
    bad.result = (side.other, levels)  # the record claims the other side won
    with pytest.raises(ReplayError, match=rf"event\.gdn:{bad.lines['Result']}: .*Result"):
        score_pairs_event(records)


def test_a_hand_record_is_not_a_played_deal() -> None:
    records = event(TWO_BOARDS)
    records[1] = dataclasses.replace(records[1], plays=None, finish=None, result=None)
    with pytest.raises(PairsError, match="hand record"):
        score_pairs_event(records)


def test_a_missing_player_name_is_an_error() -> None:
    records = named(event(TWO_BOARDS))
    del records[3].tags["West"]
    with pytest.raises(PairsError, match=rf"event\.gdn:{records[3].line}: board 2 has no West"):
        score_pairs_event(records)
    records[3].tags["West"] = "?"
    with pytest.raises(PairsError, match="no West"):
        score_pairs_event(records)


def test_pairs_and_players_are_consistent() -> None:
    twice = event([(1, "A", "D", 2), (1, "A", "E", -1)])
    with pytest.raises(PairsError, match="pair A1 & A2 plays it twice"):
        score_pairs_event(twice)
    switched = event(TWO_BOARDS)
    switched[3].tags["South"] = "B2"  # A1 partners B2 on board 2
    with pytest.raises(PairsError, match="'A1' plays in two pairs"):
        score_pairs_event(switched)
    seated_twice = event(TWO_BOARDS)
    seated_twice[0].tags["East"] = "A1"
    with pytest.raises(PairsError, match="'A1' sits at two seats"):
        score_pairs_event(seated_twice)


def test_methods_and_empty_input() -> None:
    assert parse_method("mp") is PairsMethod.MATCHPOINTS
    assert parse_method("XSWING") is PairsMethod.CROSS_SWINGS
    assert parse_method("butler") is PairsMethod.BUTLER
    assert parse_method("cross_swings") is PairsMethod.CROSS_SWINGS
    with pytest.raises(PairsError, match="unknown pairs scoring method 'imps'"):
        parse_method("imps")
    with pytest.raises(PairsError, match="no records"):
        score_pairs_event([])


def test_files_are_read_and_a_missing_one_named(tmp_path: Path) -> None:
    records = event(TWO_BOARDS)
    (tmp_path / "t1.gdn").write_text(dumps(records[:3]), encoding="utf-8")
    (tmp_path / "t2.gdn").write_text(dumps(records[3:]), encoding="utf-8")
    res = score_pairs_files([tmp_path / "t1.gdn", tmp_path / "t2.gdn"], "mp")
    assert by_pair(res)["E"] == (1, False, 6.0, 75.0)
    assert res.detail[0].where == f"{tmp_path / 't1.gdn'}:1"
    with pytest.raises(PairsError, match="cannot read .*nope.gdn"):
        score_pairs_files([tmp_path / "nope.gdn"])


# --- the command ------------------------------------------------------------------------------


@pytest.fixture
def event_files(tmp_path: Path) -> list[str]:
    """The three-board event in two files (boards 1–2, board 3)."""
    first, second = tmp_path / "boards12.gdn", tmp_path / "board3.gdn"
    first.write_text(dumps(event(TWO_BOARDS)), encoding="utf-8")
    second.write_text(dumps(event(THIRD_BOARD)), encoding="utf-8")
    return [str(first), str(second)]


def test_cli_json_ranking(event_files: list[str]) -> None:
    out = CliRunner().invoke(main, ["pairs", *event_files, "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["method"] == "mp" and doc["tables"] == 3
    assert "detail" not in doc
    assert doc["ranking"][:3] == [
        {
            "rank": 1,
            "tied": False,
            "field": "NS",
            "pair": "A1 & A2",
            "players": ["A1", "A2"],
            "direction": "NS",
            "boards": 3,
            "score": 8.5,
            "average": 2.83,
            "percent": 70.83,
        },
        {
            "rank": 2,
            "tied": True,
            "field": "NS",
            "pair": "B1 & B2",
            "players": ["B1", "B2"],
            "direction": "NS",
            "boards": 3,
            "score": 4.5,
            "average": 1.5,
            "percent": 37.5,
        },
        {
            "rank": 2,
            "tied": True,
            "field": "NS",
            "pair": "C1 & C2",
            "players": ["C1", "C2"],
            "direction": "NS",
            "boards": 2,
            "score": 3.0,
            "average": 1.5,
            "percent": 37.5,
        },
    ]
    assert [r["pair"] for r in doc["ranking"][3:]] == ["E1 & E2", "D1 & D2", "F1 & F2"]


def test_cli_json_by_board_butler(event_files: list[str]) -> None:
    out = CliRunner().invoke(
        main, ["pairs", *event_files, "--method", "butler", "--by-board", "--json"]
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["method"] == "butler"
    assert doc["boards"][2] == {
        "board": "3",
        "played": 2,
        "finished": 2,
        "top": None,
        "datum": -0.5,
    }
    assert doc["detail"][0] == {
        "board": "1",
        "pair": "A1 & A2",
        "direction": "NS",
        "opponents": "D1 & D2",
        "result": 2,
        "score": 0.0,
        "top": None,
        "datum": 2.0,
    }
    assert doc["detail"][1]["pair"] == "D1 & D2" and doc["detail"][1]["result"] == -2
    assert len(doc["detail"]) == 2 * 8


def test_cli_table_and_csv(event_files: list[str]) -> None:
    out = CliRunner().invoke(main, ["pairs", *event_files])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].split() == [
        "rank",
        "pair",
        "direction",
        "boards",
        "score",
        "average",
        "percent",
    ]
    assert lines[2].split() == ["1", "A1", "&", "A2", "NS", "3", "8.5", "2.83", "70.83"]
    assert lines[3].split()[0] == "2=" and lines[4].split()[0] == "2="
    out = CliRunner().invoke(
        main, ["pairs", *event_files, "--method", "xswing", "--by-board", "--csv"]
    )
    assert out.exit_code == 0, out.output
    rows = out.output.splitlines()
    assert rows[0] == "board,pair,direction,opponents,result,score"
    assert rows[1] == "1,A1 & A2,NS,D1 & D2,2,1.5"
    assert len(rows) == 1 + 16
    out = CliRunner().invoke(main, ["pairs", *event_files, "--by-board"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[8] == "6 pairs, 3 boards, each due at 3 tables; scored by mp"
    assert lines[9] == ""
    assert lines[10].split() == [
        "board",
        "pair",
        "direction",
        "opponents",
        "result",
        "score",
        "top",
    ]
    assert lines[12].split()[:9] == ["1", "A1", "&", "A2", "NS", "D1", "&", "D2", "2"]
    assert lines[12].split()[9:] == ["3", "4"]  # points as the pages write them


def test_cli_errors_are_one_line(tmp_path: Path, event_files: list[str]) -> None:
    records = event(TWO_BOARDS)
    del records[0].tags["North"]
    bad = tmp_path / "bad.gdn"
    bad.write_text(dumps(records), encoding="utf-8")
    out = CliRunner().invoke(main, ["pairs", str(bad)])
    assert out.exit_code == 1
    assert (
        out.output == f"Error: {bad}:1: board 1 has no North tag naming the player; "
        "a pairs event identifies each pair by its two players' names\n"
    )
    out = CliRunner().invoke(main, ["pairs", str(tmp_path / "missing.gdn")])
    assert out.exit_code == 1 and out.output.startswith("Error: cannot read")
    out = CliRunner().invoke(main, ["pairs", *event_files, "--method", "imps"])
    assert out.exit_code == 2
