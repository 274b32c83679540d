"""``guandan compare`` through click's CliRunner: table, --json, --csv, --board, --html, errors.

The records are full 27-card deals: the first deals of the OpenGuanDan example file as the
open room, and a closed room that follows the same plays up to a chosen action, then does
something else and goes on with a plain policy (pass when allowed, else the first legal
play), all through the engine, so every record replays.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate.compare import SEAT_COLUMNS
from duplicate.gdn import DealRecord, Play, dumps, loads
from duplicate.replay import replay, start
from engine.combo import Combo

# the repository copy of shared/examples (tests/test_examples.py checks it equals the original)
EXAMPLES = Path(__file__).resolve().parent / "golden" / "gdn" / "openguandan-26-deals.gdn"


def diverted(rec: DealRecord, at: int) -> DealRecord:
    """``rec`` replayed up to action ``at``, another action there, then a plain policy."""
    deal = start(rec)
    plays: list[Play] = []

    def act(combo: Combo | None) -> None:
        seat = deal.turn
        assert seat is not None
        if combo is None:
            deal.pass_()
            plays.append(Play(seat))
        else:
            deal.play(combo)
            plays.append(Play(seat, combo.cards, combo.type, combo.rank))

    for p in (rec.plays or [])[:at]:
        seat = deal.turn
        assert seat is not None
        action = deal.pass_() if p.is_pass else deal.play_cards(p.cards, p.type, p.rank)
        plays.append(Play(seat) if action.combo is None else Play(seat, p.cards, p.type, p.rank))
    original = (rec.plays or [])[at]
    if not original.is_pass and deal.can_pass():
        act(None)
    else:
        act(next(c for c in deal.legal_plays() if c.cards != original.cards))
    while not deal.is_over:
        act(None if deal.can_pass() else next(deal.legal_plays()))
    tags = {**rec.tags, "Room": "Closed", "North": "Chen <Jie>", "East": "b", "South": "c", "West": "d"}
    return dataclasses.replace(rec, tags=tags, plays=plays, finish=None, result=None)


def rooms_of(rec: DealRecord, at: int, board: str) -> list[DealRecord]:
    tags = {**rec.tags, "Board": board, "Room": "Open", "North": "n", "East": "e", "South": "s", "West": "w"}
    opened = dataclasses.replace(rec, tags=tags)
    return [opened, diverted(opened, at)]


@pytest.fixture(scope="module")
def match_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = loads(EXAMPLES.read_text(encoding="utf-8"), file=str(EXAMPLES))
    path = tmp_path_factory.mktemp("cmp") / "match.gdn"
    path.write_text(dumps(rooms_of(records[0], 4, "1") + rooms_of(records[1], 0, "2")), encoding="utf-8")
    return path


def results(path: Path, board: str) -> tuple[int, int]:
    """The two rooms' N–S results, replayed independently of duplicate.compare."""
    out = []
    for rec in loads(path.read_text(encoding="utf-8")):
        if rec.board == board:
            r = replay(rec).raise_for_error().result
            assert r is not None
            out.append(r.levels if r.winner.name == "NS" else -r.levels)
    return out[0], out[1]


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["compare", *args])
    return res.exit_code, res.output


def test_table_lists_every_board(match_file: Path) -> None:
    code, out = run(str(match_file))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0].split() == [
        "board", "level", "leader", "rooms", "first_ns", "second_ns", "swing", "diverge_action", "tricks"
    ]
    (o1, c1), (o2, c2) = results(match_file, "1"), results(match_file, "2")
    # the first action that differs, counted from 1 as "first divergence at action N" says
    assert lines[2].split()[:8] == ["1", "2", "E", "Open/Closed", str(o1), str(c1), str(o1 - c1), "5"]
    assert lines[3].split()[:8] == ["2", "3", "S", "Open/Closed", str(o2), str(c2), str(o2 - c2), "1"]
    assert lines[4] == f"2 boards; total swing {o1 - c1 + o2 - c2:+d}"
    assert "first divergence" not in out  # details only for one board, or with --detail
    code, detailed = run(str(match_file), "--detail")
    assert code == 0 and detailed.count("first divergence at action") == 2
    assert "first divergence at action 5:" in detailed and "at action 1:" in detailed
    assert detailed.count("wilds: the wild hearts (the level's heart, 逢人配) the seat "
                          "played, each as the card it stood for") == 1


def test_one_board_shows_the_divergence_and_seats(match_file: Path) -> None:
    code, out = run(str(match_file), "--board", "1")
    assert code == 0, out
    assert "1 board;" in out
    assert "first divergence at action 5" in out
    assert "Chen <Jie>" in out  # the closed room's North, in the seat table
    assert out.count("\nOpen ") == 4 and out.count("\nClosed ") == 4


def test_json_fields(match_file: Path) -> None:
    code, out = run(str(match_file), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert [d["board"] for d in data] == ["1", "2"]
    first = data[0]
    assert set(first) == {
        "event", "round", "table", "board", "level", "leader", "hands", "rooms", "swing", "forfeited_by",
        "divergence"
    }
    o1, c1 = results(match_file, "1")
    assert [r["result_ns"] for r in first["rooms"]] == [o1, c1] and first["swing"] == o1 - c1
    assert first["divergence"]["index"] == 4
    assert [len(first["hands"][s]) for s in "NESW"] == [27, 27, 27, 27]
    seat = first["rooms"][1]["seats"][0]
    assert set(seat) == {
        "seat", "player", "place", "plays", "passes", "tricks_won", "leads", "bombs",
        "straight_flushes", "joker_bombs", "wilds", "cards_left", "jiefeng_given",
        "jiefeng_received",
    }
    assert seat["seat"] == "N" and seat["player"] == "Chen <Jie>"
    room = first["rooms"][0]
    actions = sum(len(t["steps"]) for t in room["tricks"])
    assert actions == sum(s["plays"] + s["passes"] for s in room["seats"])


def test_csv_rows(match_file: Path) -> None:
    code, out = run(str(match_file), "--csv", "--board", "2")
    assert code == 0, out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == SEAT_COLUMNS
    assert [(r["room"], r["seat"]) for r in rows] == [
        (room, seat) for room in ("Open", "Closed") for seat in "NESW"
    ]
    _, js = run(str(match_file), "--json", "--board", "2")
    seats = [s for room in json.loads(js)[0]["rooms"] for s in room["seats"]]
    for row, seat in zip(rows, seats, strict=True):
        assert row["player"] == seat["player"]
        assert int(row["plays"]) == seat["plays"] and int(row["passes"]) == seat["passes"]
        assert int(row["tricks_won"]) == seat["tricks_won"]
        assert row["cards_left"].split() == seat["cards_left"]
        assert row["place"] == ("" if seat["place"] is None else str(seat["place"]))


def test_html_report(match_file: Path, tmp_path: Path) -> None:
    code, out = run(str(match_file), "--html", str(tmp_path / "site"))
    assert code == 0, out
    names = sorted(p.name for p in (tmp_path / "site").iterdir())
    assert "index.html" in names and "guandan.css" in names
    assert sum(n.startswith("board-") for n in names) == 2
    board = next((tmp_path / "site").glob("board-*-1.html")).read_text(encoding="utf-8")
    assert "Chen &lt;Jie&gt;" in board and "Chen <Jie>" not in board


def test_errors_are_one_line(match_file: Path, tmp_path: Path) -> None:
    code, out = run(str(match_file), "--board", "9")
    assert code == 1 and out.strip() == "Error: no record of board 9"
    code, out = run(str(tmp_path / "missing.gdn"))
    assert code == 1 and "cannot read" in out and len(out.strip().splitlines()) == 1
    bad = tmp_path / "bad.gdn"
    bad.write_text(match_file.read_text(encoding="utf-8").replace("[Play]\n", "[Play]\nN Single 3 XX\n", 1))
    code, out = run(str(bad))
    assert code == 1 and "bad.gdn" in out and "XX" in out
    single = tmp_path / "single.gdn"
    single.write_text(dumps(loads(match_file.read_text(encoding="utf-8"))[:1]), encoding="utf-8")
    code, out = run(str(single))
    assert code == 1 and "at least two rooms" in out


def test_help() -> None:
    res = CliRunner().invoke(main, ["compare", "--help"])
    assert res.exit_code == 0
    for option in ("--board", "--json", "--csv", "--html", "--detail"):
        assert option in res.output
