"""What a Chinese reader read on the review pages and in the command line, fixed through the
catalogue: the movie's and the report's separators in the page's language, who made a
ruling in words (裁判, never ``director``), Guandan's own terms (一圈牌 for a trick, 级差 for
a board's swing, 开室/闭室 for a room), counts that say boards and rooms right, no English
left in a Chinese line, lists joined with 、, names in “”, one number format, help that
does not break a Chinese word. English stays as it was."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], lang: str = "zh", **kw: object) -> Result:
    return CliRunner().invoke(main, ["--lang", lang, *args], **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """A demo event of 4 boards with a director's ruling on board 1's open room, its
    database URL and its name."""
    where = tmp_path_factory.mktemp("demo")
    old = os.getcwd()
    os.chdir(where)
    try:
        url = f"sqlite:///{where / 'd.sqlite'}"
        r = run(["demo", "--seed", "2f", "--boards", "4", "--db", url], "en")
        assert r.exit_code == 0, r.output
        event = re.search(r"event '([^']+)'", r.output, re.I)
        assert event is not None, r.output
        name = event.group(1)
        r = run(["event", "correct", name, "--round", "1", "--table", "1", "--board", "1",
                 "--room", "open", "--result", "NS +2", "--by", "director", "--reason", "笔误",
                 "--chief", "--db", url], "en")
        assert r.exit_code == 0, r.output
        yield where, url, name
    finally:
        os.chdir(old)


def report(demo: tuple[Path, str, str], lang: str, analyse: bool = False) -> Path:
    where, url, name = demo
    out = where / f"rep-{lang}-{int(analyse)}"
    if not out.exists():
        extra = ["--analyse", "--nodes", "2000", "--playouts", "2"] if analyse else []
        r = run(["event", "report", name, "--out", str(out), "--db", url, *extra], lang)
        assert r.exit_code == 0, r.output
    return out


def movie_words(page: Path) -> dict[str, str]:
    text = page.read_text(encoding="utf-8")
    found = re.search(r'id="movie-data" type="application/json">(.*?)</script>', text, re.S)
    assert found is not None
    words: dict[str, str] = json.loads(found.group(1))["words"]
    return words


# 1. the movie's separators ----------------------------------------------------------


def test_movie_script_types_no_separator_of_its_own() -> None:
    script = (ROOT / "duplicate" / "static" / "movie.js").read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines()
                     if not line.lstrip().startswith(("*", "/*", "//")))
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)
    assert [s for s in literals if re.search(r"[:;,]( |$)|[()]", s)] == []
    for word in ("W.colon", "W.open", "W.close", "W.list_sep", "W.said_sep"):
        assert word in code


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_movie_separators_in_the_pages_language(demo: tuple[Path, str, str],
                                                lang: str) -> None:
    words = movie_words(report(demo, lang, analyse=True) / "board-r1-t1-1.html")
    got = {k: words[k] for k in ("colon", "open", "close", "list_sep", "said_sep", "from_to")}
    if lang == "zh":
        assert got == {"colon": "：", "open": "（", "close": "）", "list_sep": "，",
                       "said_sep": "；", "from_to": "此前"}
    else:
        assert got == {"colon": ": ", "open": " (", "close": ")", "list_sep": ", ",
                       "said_sep": "; ", "from_to": "before"}


# 2. the static report's separators ----------------------------------------------------


def test_static_report_separators_in_chinese(demo: tuple[Path, str, str]) -> None:
    out = report(demo, "zh", analyse=True)
    board = (out / "board-r1-t1-1.html").read_text(encoding="utf-8")
    assert re.search(r"<li>开室：标准结果 [+-]\d（自第\d+手起", board), board
    assert 'aria-label="开室：价值由 ' in board
    assert "开室: " not in board
    index = (out / "index.html").read_text(encoding="utf-8")
    assert re.search(r"East Lake – West Hill</a>\n<span class=\"margin\">[+-]\d+</span>（2–0）",
                     index), index
    cross = (out / "crosstable.html").read_text(encoding="utf-8")
    assert re.search(r"#2 [+-]\d+（2）", cross), cross


def test_static_report_separators_in_english(demo: tuple[Path, str, str]) -> None:
    out = report(demo, "en", analyse=True)
    board = (out / "board-r1-t1-1.html").read_text(encoding="utf-8")
    assert re.search(r"<li>Open room: par [+-]\d", board, re.I), board
    assert re.search(r"#2 [+-]\d+ \(2\)", (out / "crosstable.html").read_text(encoding="utf-8"))
    assert " (2–0)" in (out / "index.html").read_text(encoding="utf-8")


# 3. who made a ruling -------------------------------------------------------------------


def test_ruling_by_the_director_in_words(demo: tuple[Path, str, str]) -> None:
    out = report(demo, "zh")
    for page in ("board-r1-t1-1.html", "match-r1-t1.html", "index.html"):
        text = (out / page).read_text(encoding="utf-8")
        assert "裁判裁定（笔误）：按南北升2级计" in text, page
        assert "director" not in text, page
    _, url, name = demo
    r = run(["event", "corrections", name, "--db", url])
    assert r.exit_code == 0, r.output
    assert "director" not in r.output and "  裁判  " in r.output
    r = run(["event", "corrections", name, "--db", url], "en")
    assert "director" in r.output
