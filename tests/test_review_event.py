"""The event report from the database (duplicate.review): no board given away mid-round,
rulings shown with who and why beside the record as played, export tags (Table, Match,
Ruling) and compare grouping by table, incremental rebuilds, hostile names escaped."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from duplicate import events
from duplicate.compare import compare_records
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events.export import export_event
from duplicate.events.site import event_data, write_event_site
from duplicate.gdn import loads
from duplicate.records import Correction
from duplicate.report import match_report
from duplicate.review.stats import merge
from duplicate.review.text import headline
from duplicate.review.visibility import board_visible

EVIL = "<script>alert(\"x\")</script> & 'Co'"
TEAMS = (
    (f"Dragons {EVIL}", ["Zhang <b>Wei</b>", "Li & Na", "Wang \"Fang\"", "Chen Jing"]),
    ("Tigers", ["Zhao Min", "Huang Tao", "Liu Yang", "Yang Lei"]),
    ("龙队", ["张伟", "李娜", "王芳", "陈静"]),
    ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]),
)
NAME = f"Cup {EVIL}"


@pytest.fixture(scope="module")
def half_round(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> tuple[Path, list[str]]:
    """A 4-team event, round 1 paired and dealt (4 boards); only table 1's records in."""
    path = tmp_path_factory.mktemp("review") / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        events.create_event(engine, NAME, seed="5eed", fmt="rr", rounds=3, boards_per_round=4)
        for team, players in TEAMS:
            events.add_team(engine, NAME, team, players)
        events.pair_round(engine, NAME)
        seed = parse_seed_file(seed_file_bytes(bytes(range(32))))
        events.assign_boards(engine, NAME, 1, seed=seed)
        texts = events.bot_records(engine, NAME, 1)
        events.import_texts(engine, NAME, texts[:1], round_no=1)
    finally:
        engine.dispose()
    return path, texts


@pytest.fixture
def engine(half_round: tuple[Path, list[str]], tmp_path: Path) -> Iterator[Engine]:
    copy = tmp_path / "event.sqlite"
    shutil.copyfile(half_round[0], copy)
    e = make_engine(f"sqlite:///{copy}")
    yield e
    e.dispose()


def _all_text(folder: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.html")))


def test_mid_round_report_gives_no_board_away(engine: Engine, tmp_path: Path) -> None:
    data, _ = event_data(engine, NAME)
    assert len(data.matches) == 2
    for line in data.matches[0].boards:  # table 1 has played, table 2 has not
        assert line.status == "played" and not board_visible(data.matches, line.board)
    site = write_event_site(engine, NAME, str(tmp_path / "rep"))
    names = {p.name for p in (tmp_path / "rep").iterdir()}
    assert not any(n.startswith("board-") for n in names) and site.boards_drawn == 0
    text = _all_text(tmp_path / "rep")
    # no hand, no play, no card of any board on any page
    assert 'class="card' not in text and "movie-data" not in text
    players = (tmp_path / "rep" / "players.html").read_text(encoding="utf-8")
    assert "No board to count yet." in players


def test_full_round_report_ruling_export_and_incremental(
    engine: Engine, half_round: tuple[Path, list[str]], tmp_path: Path
) -> None:
    texts = half_round[1]
    events.import_texts(engine, NAME, texts[1:], round_no=1)
    out = tmp_path / "rep"
    first = write_event_site(engine, NAME, str(out), "zh")
    assert first.boards_drawn == 8
    boards = sorted(p.name for p in out.glob("board-*.html"))
    assert len(boards) == 8
    # a ruling on table 1, board 2, open room
    rows = events.match_boards(engine, NAME, 1, 1)
    recorded = rows[1].open_ns
    assert recorded is not None
    ruled = 1 if recorded != 1 else -1
    events.correct_result(engine, NAME, 1, 1, 2, "open", ruled,
                          Correction(by="TD <Zhou>", reason="revoke & penalty"))
    second = write_event_site(engine, NAME, str(out), "zh")
    assert second.boards_drawn == 1  # only the ruled board is drawn again
    rewritten = {p.name for p in second.written}
    assert "board-r1-t1-2.html" in rewritten and "board-r1-t2-2.html" not in rewritten
    assert "match-r1-t1.html" in rewritten and "match-r1-t2.html" not in rewritten
    board = (out / "board-r1-t1-2.html").read_text(encoding="utf-8")
    assert "TD &lt;Zhou&gt;" in board and "revoke &amp; penalty" in board
    assert "原始记录" in board  # the record as played is kept in view
    match = (out / "match-r1-t1.html").read_text(encoding="utf-8")
    assert "TD &lt;Zhou&gt;" in match and "⚖" in match
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "裁定与更正" in index and "TD &lt;Zhou&gt;" in index
    # nothing changed: nothing written (the folder keeps its language without --lang)
    assert write_event_site(engine, NAME, str(out)).written == ()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["lang"] == "zh" and len(manifest["boards"]) == 8
    # per-player figures: every room of every board has one 头游, every player 2 rooms a board
    stats = merge(b["stats"] for b in manifest["boards"].values())
    assert sum(p.first for p in stats) == 16 and len(stats) == 16
    assert all(p.boards == 4 for p in stats) and sum(p.plays for p in stats) > 16 * 5
    players = (out / "players.html").read_text(encoding="utf-8")
    assert "Zhao Min" in players and "头游" in players
    # the export: Table and Match on every record, the ruling beside the record as played
    exported = export_event(engine, NAME, 1)
    records = loads(exported)
    assert len(records) == 16
    assert {r.tags["Table"] for r in records} == {"1", "2"}
    assert all(" v " in r.tags["Match"] for r in records)
    ruled_recs = [r for r in records if "Ruling" in r.tags]
    assert len(ruled_recs) == 1
    rec = ruled_recs[0]
    assert (rec.tags["Table"], rec.board, rec.room) == ("1", "2", "Open")
    assert rec.tags["Ruling"] == (f"NS +{ruled}" if ruled > 0 else f"EW +{-ruled}")
    assert rec.tags["RulingBy"] == "TD <Zhou>" and rec.tags["RulingReason"] == "revoke & penalty"
    assert rec.result is not None  # the record's own Result stays the play's
    # compare groups the two matches' rooms apart: 8 boards, every one with its swing
    comps = compare_records(records)
    assert len(comps) == 8 and all(c.swing is not None for c in comps)
    assert sorted({c.table for c in comps}) == ["1", "2"]
    # compared, the ruled room counts the ruling, and says who and why
    mine = next(c for c in comps if c.table == "1" and c.board == "2")
    assert mine.rooms[0].ruling is not None and mine.rooms[0].ruling.result_ns == ruled
    assert mine.rooms[0].result_ns == recorded  # the play's own result is kept
    line = match_report(comps).matches[0].boards[1]
    assert (line.board, line.open_ns, line.rulings[0].by) == ("2", ruled, "TD <Zhou>")
    assert line.swing == ruled - (line.closed_ns or 0)
    assert any("TD <Zhou> (revoke & penalty)" in text for text in headline(mine, "en"))
    assert any("TD <Zhou>裁定" in text for text in headline(mine, "zh"))


def test_every_page_escapes_hostile_names(
    engine: Engine, half_round: tuple[Path, list[str]], tmp_path: Path
) -> None:
    events.import_texts(engine, NAME, half_round[1][1:], round_no=1)
    for lang in ("en", "zh"):
        out = tmp_path / lang
        write_event_site(engine, NAME, str(out), lang)
        pages = sorted(out.glob("*.html"))
        assert len(pages) >= 1 + 1 + 1 + 4 + 2 + 8
        for page in pages:
            text = page.read_text(encoding="utf-8")
            assert "<script>alert" not in text, page.name
            assert "<b>Wei</b>" not in text, page.name
            scripts = re.findall(r"<script[^>]*>", text)
            assert all(s in ('<script id="movie-data" type="application/json">',
                             '<script src="movie.js">') for s in scripts), page.name
        team = (out / "team-1.html").read_text(encoding="utf-8")
        assert "&lt;script&gt;" in team


def test_event_boards_names_the_rulings(engine: Engine) -> None:
    from click.testing import CliRunner

    from cli import main
    from duplicate.i18n.game import result_text

    url = engine.url.render_as_string(hide_password=False)
    recorded = events.match_boards(engine, NAME, 1, 1)[2].closed_ns
    ruled = -1 if recorded != -1 else 1  # a ruling changes the number (else it is none)
    events.correct_result(engine, NAME, 1, 1, 3, "closed", ruled,
                          Correction(by="TD Li", reason="claim"))
    out = CliRunner().invoke(main, ["event", "boards", NAME, "1", "1", "--db", url])
    assert out.exit_code == 0, out.output
    assert re.fullmatch(
        r"board 3, closed room: Ruling by TD Li \(claim\): counts as "
        + re.escape(result_text(ruled)) + r" · "
        r"\d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d \(UTC\+8\); the record as played: "  # Asia/Shanghai
        + re.escape(result_text(recorded)),
        out.output.splitlines()[-1])


def test_chinese_pages_hold_no_english_page_text(
    engine: Engine, half_round: tuple[Path, list[str]], tmp_path: Path
) -> None:
    """Every word of a zh page comes from the catalogue's zh side: no English text of the
    catalogue (nor the templates' own) shows through."""
    from duplicate.i18n import catalogue

    events.import_texts(engine, NAME, half_round[1][1:], round_no=1)
    events.correct_result(engine, NAME, 1, 2, 1, "open", 2, Correction(by="Zhou", reason="x"))
    out = tmp_path / "zh"
    write_event_site(engine, NAME, str(out), "zh")
    english = {
        texts["en"].split("{")[0].strip()
        for key, texts in catalogue().items()
        if texts["en"] != texts["zh"] and not key.startswith("cli.val.")  # CLI words
        and len(texts["en"].split("{")[0].strip()) >= 5
    }
    for page in sorted(out.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        data = re.search(r'<script id="movie-data" type="application/json">(.*?)</script>', text, re.S)
        values = " ".join(_strings(json.loads(data.group(1)))) if data else ""
        visible = re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ", text, flags=re.S))
        visible += " " + values  # the movie's words, drawn by the script
        found = sorted(e for e in english if e in visible)
        assert found == [], f"{page.name}: {found}"


def _strings(value: object) -> list[str]:
    """Every string value inside JSON data (not the keys)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_incremental_build_equals_a_build_from_scratch(
    engine: Engine, half_round: tuple[Path, list[str]], tmp_path: Path, lang: str
) -> None:
    """After every kind of new result (a board released by the director, rooms coming in,
    the last room releasing a board at every table, a ruling, a ruling undone by a second
    one), the folder brought up to date holds byte for byte what a new folder gets."""
    from duplicate.gdn import format_record

    out = tmp_path / "live"
    recs = loads(half_round[1][1])  # table 2: 4 boards, 2 rooms each
    held = recs[-1]
    steps: list[tuple[str, Callable[[], object]]] = [
        ("mid-round", lambda: None),
        ("director releases board 1",
         lambda: events.release_board(engine, NAME, 1, 1, "TD", "table 2 slow")),
        ("table 2 but one room", lambda: events.import_texts(
            engine, NAME, ["\n\n".join(format_record(r) for r in recs[:-1]) + "\n"],
            round_no=1)),
        ("the last room", lambda: events.import_texts(
            engine, NAME, [format_record(held)], round_no=1)),
        ("a ruling", lambda: events.correct_result(
            engine, NAME, 1, 2, 3, "closed", 2, Correction(by="TD", reason="claim"))),
        ("another ruling on the same room", lambda: events.correct_result(
            engine, NAME, 1, 2, 3, "closed", -1, Correction(by="TD", reason="appeal"))),
    ]
    for n, (what, step) in enumerate(steps):
        step()
        live = write_event_site(engine, NAME, str(out), lang)
        fresh = tmp_path / f"fresh-{n}"
        scratch = write_event_site(engine, NAME, str(fresh), lang)
        assert _files(out) == _files(fresh), what
        assert live.boards_drawn <= scratch.boards_drawn, what
    assert write_event_site(engine, NAME, str(out), lang).written == ()
