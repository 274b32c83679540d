"""The analysis on the report's pages (duplicate.review.analysis): every board page of
``event report --analyse`` and ``compare --html --analyse`` carries each room's values,
marks, best line and graph; they are exactly ``guandan analyse --from action:1 --json``
for the same record and budget; the same build twice gives the same pages; a rebuild
after a ruling analyses nothing again; team and players pages sum the marks."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from cli import main
from duplicate import events
from duplicate.analysis.estimate import Budget
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events.export import export_event
from duplicate.events.site import write_event_site
from duplicate.gdn import loads
from duplicate.records import Correction
from duplicate.review import analysis as review_analysis
from engine.cards import parse_level

NAME = "Analysis Cup"
TEAMS = (
    ("龙队", ["张伟", "李娜", "王芳", "陈静"]),
    ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]),
)
BUDGET = Budget(nodes=4_000, playouts=2, seed=3)
SMALL = ["--nodes", "4000", "--playouts", "2", "--seed", "3"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> Path:
    """A 2-team event, round 1 of 2 boards played by the bots."""
    path = tmp_path_factory.mktemp("analysis") / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        events.create_event(engine, NAME, seed="a11", fmt="rr", rounds=1, boards_per_round=2)
        for team, players in TEAMS:
            events.add_team(engine, NAME, team, players)
        events.pair_round(engine, NAME)
        events.assign_boards(engine, NAME, 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
        events.import_texts(engine, NAME, events.bot_records(engine, NAME, 1), round_no=1)
    finally:
        engine.dispose()
    return path


@pytest.fixture
def engine(played: Path, tmp_path: Path) -> Iterator[Engine]:
    copy = tmp_path / "event.sqlite"
    shutil.copyfile(played, copy)
    e = make_engine(f"sqlite:///{copy}")
    yield e
    e.dispose()


def _movie(page: str) -> dict[str, object]:
    m = re.search(r'<script id="movie-data" type="application/json">(.*?)</script>', page, re.S)
    assert m
    data: dict[str, object] = json.loads(m.group(1))
    return data


def _stored(out: Path) -> list[dict[str, object]]:
    found = [json.loads(p.read_text(encoding="utf-8"))
             for p in sorted((out / "analysis").glob("*.json"))]
    return [d["annotation"] for d in found if "annotation" in d]  # not the divergence's options


def test_board_pages_carry_the_analysis_guandan_analyse_gives(engine: Engine, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    site = write_event_site(engine, NAME, str(out), "zh", BUDGET)
    assert site.boards_drawn == 2
    stored = _stored(out)
    assert len(stored) == 4  # two boards, two rooms each: one analysis a record
    # the same records through the command line, with the same budget
    gdn = tmp_path / "round.gdn"
    gdn.write_text(export_event(engine, NAME, 1), encoding="utf-8")
    for rec in loads(gdn.read_bytes()):
        res = CliRunner().invoke(main, ["analyse", str(gdn), "--board", str(rec.board), "--room",
                                        str(rec.room), "--from", "action:1", "--json", *SMALL])
        assert res.exit_code == 0, res.output
        doc = json.loads(res.output)
        assert doc["budget"] == {"nodes": 4000, "playouts": 2, "seed": 3, "seconds": None}
        assert doc["annotations"][0] in stored
    for page_path in sorted(out.glob("board-*.html")):
        page = page_path.read_text(encoding="utf-8")
        assert "复盘分析（四家明牌）" in page and "<svg" in page and (
            "四家明牌最优" in page or "计算量不够，未算出最优结果" in page)
        movie = _movie(page)
        board = page_path.stem.rsplit("-", 1)[1]
        for room in movie["rooms"]:  # type: ignore[attr-defined]
            marks = room["anl"]
            assert len(marks) == len(room["moves"]) and marks[-1] is not None
            ann = next(a for a in stored if (a["board"], a["room"]) == (board, room["name"]))
            # the movie shows exactly the stored analysis of this room's record
            assert marks == review_analysis.step_marks(ann, parse_level(ann["level"]), "zh",
                                                       room["players"])
            by_ply = {int(d["ply"]): d for d in ann["decisions"]}
            for ply, m in enumerate(marks):
                if m is not None and "m" in m:
                    d = by_ply[ply]
                    # the best play and its line are found from an exact value only
                    exact = d["before"]["kind"] == "exact"
                    assert m["m"] in ("?", "??") and bool(m["best"] and m["line"]) == exact
                    assert "南北" in m["v"] and "南北" in m["b"]
        words = " ".join(str(v) for v in movie["words"].values())  # type: ignore[attr-defined]
        assert "估值" in words and "Value" not in words
    players = (out / "players.html").read_text(encoding="utf-8")
    assert "丢级数" in players and "张伟" in players
    team = (out / "team-1.html").read_text(encoding="utf-8")
    assert "丢级数" in team


def test_marks_and_levels_lost_add_up(engine: Engine, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    write_event_site(engine, NAME, str(out), "en", BUDGET)
    stored = _stored(out)
    marked = [d for a in stored for d in a["decisions"] if d["mark"]]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    total = review_analysis.merge_figures(b["analysis"] for b in manifest["boards"].values())
    assert sum(f[0] for f in total.values()) == sum(len(a["decisions"]) for a in stored)
    assert sum(f[1] + f[2] for f in total.values()) == len(marked)
    assert sum(f[3] for f in total.values()) >= len(marked)  # each mark costs a level or more


def test_the_same_build_twice_gives_the_same_pages(engine: Engine, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    write_event_site(engine, NAME, str(a), "en", BUDGET)
    write_event_site(engine, NAME, str(b), "en", BUDGET)
    pages = sorted(p.name for p in a.glob("*.html"))
    assert any(p.startswith("board-") for p in pages)
    for name in pages:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_a_rebuild_analyses_nothing_again(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "rep"
    write_event_site(engine, NAME, str(out), "en", BUDGET)
    before = _stored(out)

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("a record was analysed again")

    monkeypatch.setattr(review_analysis, "annotate", refuse)
    # a ruling changes a board's result: its page is drawn again, from the stored analysis
    rows = events.match_boards(engine, NAME, 1, 1)
    ruled = 1 if rows[0].open_ns != 1 else -1
    events.correct_result(engine, NAME, 1, 1, 1, "open", ruled,
                          Correction(by="TD Wu", reason="revoke"))
    again = write_event_site(engine, NAME, str(out), "en", BUDGET)
    assert again.boards_drawn == 1
    assert "Analysis (all four hands known)" in (out / "board-r1-t1-1.html").read_text("utf-8")
    # another language draws every board page again, still without analysing
    zh = write_event_site(engine, NAME, str(out), "zh", BUDGET)
    assert zh.boards_drawn == 2 and _stored(out) == before
    # without --analyse the pages and the stored analyses go
    write_event_site(engine, NAME, str(out), "zh")
    assert not list((out / "analysis").glob("*.json"))
    assert "复盘分析" not in (out / "board-r1-t1-1.html").read_text("utf-8")


def test_event_report_and_compare_html_take_analyse(engine: Engine, tmp_path: Path) -> None:
    url = str(engine.url)
    runner = CliRunner()
    res = runner.invoke(main, ["--db", url, "event", "report", NAME, "--out", str(tmp_path / "r"),
                               "--analyse", *SMALL])
    assert res.exit_code == 0, res.output
    assert "Analysis (all four hands known)" in (tmp_path / "r" / "board-r1-t1-2.html").read_text("utf-8")
    gdn = tmp_path / "round.gdn"
    gdn.write_text(export_event(engine, NAME, 1), encoding="utf-8")
    res = runner.invoke(main, ["--lang", "zh", "compare", str(gdn), "--html", str(tmp_path / "c"),
                               "--analyse", *SMALL])
    assert res.exit_code == 0, res.output
    boards = sorted((tmp_path / "c").glob("board-*.html"))
    assert boards and all("复盘分析" in p.read_text("utf-8") for p in boards)
    assert "计算量：每个局面最多搜索4,000次" in res.output


def _team_on(out: Path, number: int) -> str:
    page = (out / f"team-{number}.html").read_text(encoding="utf-8")
    m = re.search(r"<h1>(.*?)</h1>", page)
    assert m
    return m.group(1)


def test_a_team_keeps_its_page_through_rulings_and_renames(engine: Engine, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    write_event_site(engine, NAME, str(out), "en")
    first = _team_on(out, 1)
    index = (out / "index.html").read_text(encoding="utf-8")
    leader = re.findall(r'<a href="team-(\d+).html">', index)[0]
    # the director's corrections hand every board to the team that trailed
    match = events.match_boards(engine, NAME, 1, 1)
    x_leads = leader == "1" if first == TEAMS[0][0] else leader == "2"
    for line in match:
        for room, ns in (("open", -3 if x_leads else 3), ("closed", 3 if x_leads else -3)):
            if (line.open_ns if room == "open" else line.closed_ns) == ns:
                continue  # already so: a correction that changes nothing is not one
            events.correct_result(engine, NAME, 1, 1, int(line.board), room, ns,
                                  Correction(by="TD Wu", reason="a ruling"))
    write_event_site(engine, NAME, str(out), "en")
    index = (out / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<a href="team-(\d+).html">', index)[0] != leader  # the order changed
    assert _team_on(out, 1) == first  # the address did not
    events.rename_team(engine, NAME, first, first + " B", by="TD Wu", reason="misspelt")
    write_event_site(engine, NAME, str(out), "en")
    assert _team_on(out, 1) == first + " B"


def _replayed_otherwise(text: str, seed: int) -> str:
    """The record of ``text`` played again from the same deal with random legal plays."""
    import dataclasses
    import random

    from duplicate.gdn import Play as GdnPlay
    from duplicate.gdn import format_record
    from engine.deal import Deal
    from engine.moves import legal_readings
    from engine.ruleset import COMPETITION

    rec = loads(text)[0]
    rng = random.Random(seed)
    deal = Deal(rec.hands, rec.level, rec.leader, COMPETITION)
    plays = []
    while deal.turn is not None:
        seat = deal.turn
        options: list[object] = list(legal_readings(deal.hands[seat], rec.level, deal.to_beat,
                                                    COMPETITION))
        if deal.to_beat is not None:
            options.append(None)
        choice = rng.choice(options)
        if choice is None:
            deal.pass_(seat)
            plays.append(GdnPlay(seat))
        else:
            deal.play_cards(choice.cards, choice.type, choice.rank, seat)  # type: ignore[attr-defined]
            plays.append(GdnPlay(seat, choice.cards, choice.type, choice.rank))  # type: ignore[attr-defined]
    return format_record(dataclasses.replace(rec, plays=plays, finish=None, result=None))


def test_a_correction_is_shown_with_who_when_why_before_and_after(
    engine: Engine, tmp_path: Path
) -> None:
    from duplicate.i18n.game import result_text

    exported = loads(export_event(engine, NAME, 1))
    original = next(r for r in exported if (r.board, r.room) == ("2", "Closed"))
    from duplicate.gdn import format_record

    before = events.match_boards(engine, NAME, 1, 1)[1].closed_ns
    for seed in range(50):
        text = _replayed_otherwise(format_record(original), seed)
        rec = loads(text)[0]
        if rec.result is not None:
            break
    summary = events.import_texts(engine, NAME, [text], round_no=1,
                                  correction=Correction(by="TD <Qian>", reason="scorer's slip"))
    assert summary is not None
    after = events.match_boards(engine, NAME, 1, 1)[1].closed_ns
    # the time in the event's zone (Asia/Shanghai, the default), with its offset
    for lang, words in (("en", ("Corrected by TD &lt;Qian&gt;", "scorer&#39;s slip", " (UTC+8)")),
                        ("zh", ("TD &lt;Qian&gt;更正", "scorer&#39;s slip", "（UTC+8）"))):
        out = tmp_path / lang
        write_event_site(engine, NAME, str(out), lang)
        for page in ("index.html", "match-r1-t1.html", "board-r1-t1-2.html"):
            text = (out / page).read_text(encoding="utf-8")
            for w in words:
                assert w in text, (lang, page, w)
            assert "→" in text
        board = (out / "board-r1-t1-2.html").read_text(encoding="utf-8")
        for value in (before, after):  # the result before and after, in words
            assert escape_html(result_text(value, lang)) in board
        assert not re.search(r"\d{2}:\d{2}:\d{2}\.\d+", (out / "index.html").read_text("utf-8"))


def escape_html(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))
