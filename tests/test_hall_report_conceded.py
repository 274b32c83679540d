"""A board conceded by a ruling (a team more than 5 minutes late, seeds/004 rule 5) in the
event's report and its corrections (SQLite and PostgreSQL): the report reads the board
rows every other output shows (``events.match_boards``: the hall's pages and API, ``event
boards``), so the conceded board is shown conceded with its swing, the match complete
with its match points (index, match page, cross-table), and the ruling listed with the
report's rulings and in ``event corrections``, in English and Chinese."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event, minutes, report_all

from cli import main
from duplicate import events, hall
from duplicate.events.site import event_data, write_event_site

TABLE = 2


def conceded_round(engine: Engine) -> str:
    """Round 1 with table 2's late team ruled to concede board 1, every other room
    reported and confirmed, the round closed and published; the late team."""
    cards = make_event(engine)
    late = next(m.team_y for m in events.list_matches(engine, EVENT, 1) if m.table == TABLE)
    hall.record_ruling(engine, EVENT, 1, TABLE, "late", "conceded", "director",
                       "7 minutes late", team=late, board=1, now=minutes(7))
    report_all(engine, cards, skip={(TABLE, "open", 1), (TABLE, "closed", 1)})
    hall.close_round(engine, EVENT, 1, "director")
    hall.publish_round(engine, EVENT, 1, "director")
    return late


def text(path: Path) -> str:
    """A page's visible words, tags away, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))


def test_the_report_shows_a_conceded_board_as_every_other_output(
    migrated_engine: Engine, migrated_url: str, tmp_path: Path
) -> None:
    e = migrated_engine
    late = conceded_round(e)
    rows = events.match_boards(e, EVENT, 1, TABLE)  # what event boards and the hall show
    assert rows[0].status == "conceded" and rows[0].swing == 3  # to X: Y conceded
    report = events.event_report(e, EVENT)
    m = next(m for m in report.matches if m.key == f"r1-t{TABLE}")
    assert [(ln.board, ln.status, ln.swing) for ln in m.boards] == [
        (str(r.board), r.status, r.swing) for r in rows]
    assert m.state == "" and m.margin == sum(ln.swing or 0 for ln in m.boards)
    assert m.points_x is not None and m.points_y is not None
    # the ruling is with the board, in the page's language
    data, _ = event_data(e, EVENT, "en")
    line = next(mm for mm in data.matches if mm.key == m.key).boards[0]
    [ruling] = [r for r in line.rulings if r.effect]
    assert (ruling.room, ruling.effect, ruling.team, ruling.by, ruling.reason) == (
        "", "conceded", late, "director", "7 minutes late")

    for lang, conceded, so_far, said in (
        ("en", "conceded (a ruling)", "so far",
         f"{late} concedes this board, the opponents +3"),
        ("zh", "判负（裁定）", "已交", f"{late}判负这副牌，对方+3"),
    ):
        out = tmp_path / lang
        write_event_site(e, EVENT, str(out), lang)
        match = text(out / f"match-r1-t{TABLE}.html")
        assert conceded in match and "+3" in match and said in match, match
        assert "not in yet" not in match and "尚未交齐" not in match, match
        index = text(out / "index.html")
        assert so_far not in index, index
        assert said in index, index  # the report's rulings
        points = f"{m.points_x:g}–{m.points_y:g}"
        assert points in index, index
        cross = (out / "crosstable.html").read_text(encoding="utf-8")
        assert f"{m.points_x:g}" in cross and f"{m.points_y:g}" in cross

    # event corrections lists it (the library, the command in both languages)
    [row] = [c for c in events.list_corrections(e, EVENT) if c["kind"] == "conceded"]
    assert (row["round"], row["table"], row["board"], row["room"], row["by"],
            row["reason"]) == (1, TABLE, 1, "", "director", "7 minutes late")
    assert row["after"] == f"{late} concedes board 1 (the opponents +3)"
    args = ["event", "--db", migrated_url, "corrections", EVENT]
    en = CliRunner().invoke(main, args)
    assert en.exit_code == 0 and f"{late} concedes board 1 (the opponents +3)" in en.output
    zh = CliRunner().invoke(main, ["--lang", "zh", *args])
    assert zh.exit_code == 0 and f"{late}判负第1副（对方+3）" in zh.output, zh.output
    listed = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert any(c.get("kind") == "conceded" and c["board"] == 1 for c in listed)


def test_a_forfeited_match_is_complete_in_the_report(migrated_engine: Engine,
                                                      tmp_path: Path) -> None:
    e = migrated_engine
    cards = make_event(e)
    gone = next(m.team_x for m in events.list_matches(e, EVENT, 1) if m.table == 1)
    hall.record_ruling(e, EVENT, 1, 1, "late", "forfeit", "director", "11 minutes late",
                       team=gone, now=minutes(11))
    report_all(e, cards, skip={(1, room, b) for room in ("open", "closed") for b in (1, 2, 3, 4)})
    m = next(m for m in events.event_report(e, EVENT).matches if m.key == "r1-t1")
    assert m.state == "" and m.points_x is not None and m.points_x < (m.points_y or 0)
    write_event_site(e, EVENT, str(tmp_path), "en")
    index = text(tmp_path / "index.html")
    assert f"Round 1, {m.team_x} – {m.team_y} : Ruling by director (11 minutes late): " \
           f"{gone} forfeits the match" in index, index
    [row] = [c for c in events.list_corrections(e, EVENT) if c["kind"] == "forfeit"]
    assert (row["board"], row["after"]) == (None, f"{gone} forfeits the match")


def test_a_correction_of_a_board_a_ruling_decided_is_refused(
    migrated_engine: Engine, migrated_url: str
) -> None:
    """A conceded board is scored from its ruling, not from its rooms: a director's result
    there would count for nothing while the log and the board's notes said it "counts".
    It is refused, in the asker's language, and nothing is written or logged."""
    e = migrated_engine
    late = conceded_round(e)
    before = events.result_log(e, EVENT, 1)
    swing = events.match_boards(e, EVENT, 1, TABLE)[0].swing
    args = ["event", "--db", migrated_url, "correct", EVENT, "--round", "1", "--table",
            str(TABLE), "--board", "1", "--room", "open", "--result", "NS +2", "--by", "TD",
            "--reason", "a result for the conceded board", "--chief"]
    en = CliRunner().invoke(main, args)
    assert en.exit_code == 1, en.output
    assert (f"round 1, table {TABLE}, board 1, open room: decided by a ruling ({late} concedes "
            "board 1 (the opponents +3)); a result there would not count") in en.output
    zh = CliRunner().invoke(main, ["--lang", "zh", *args])
    assert zh.exit_code == 1 and f"{late}判负第1副（对方+3）" in zh.output, zh.output
    assert events.result_log(e, EVENT, 1) == before
    assert events.match_boards(e, EVENT, 1, TABLE)[0].swing == swing


def test_marking_a_board_a_ruling_decided_unfinished_is_refused(
    migrated_engine: Engine, migrated_url: str
) -> None:
    """The same for ``event unfinished``: the conceded board stays scored from its ruling,
    so marking a room of it unfinished would be logged and change nothing."""
    e = migrated_engine
    late = conceded_round(e)
    before = events.result_log(e, EVENT, 1)
    args = ["event", "--db", migrated_url, "unfinished", EVENT, "--round", "1", "--table",
            str(TABLE), "--board", "1", "--room", "closed", "--by", "TD", "--reason", "time",
            "--chief"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 1, out.output
    assert (f"round 1, table {TABLE}, board 1, closed room: decided by a ruling ({late} "
            "concedes board 1 (the opponents +3)); a result there would not count") in out.output
    assert events.result_log(e, EVENT, 1) == before


def test_a_result_for_a_board_a_ruling_decided_is_refused(
    migrated_engine: Engine, migrated_url: str
) -> None:
    """``event result`` (a scorer typing a table's result) is refused for a conceded
    board as the table's own report is: it would be stored and never count."""
    e = migrated_engine
    late = conceded_round(e)
    before = events.result_log(e, EVENT, 1)
    args = ["event", "--db", migrated_url, "result", EVENT, "--round", "1", "--table",
            str(TABLE), "--board", "1", "--room", "closed", "--finish", "N S", "--by", "TD"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 1, out.output
    assert (f"round 1, table {TABLE}, board 1, closed room: decided by a ruling ({late} "
            "concedes board 1 (the opponents +3)); a result there would not count") in out.output
    assert events.result_log(e, EVENT, 1) == before
