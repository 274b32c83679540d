"""``guandan demo``: the newcomer's first command, end to end on a fresh SQLite file."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main


class _Links(HTMLParser):
    """Collects the ``href`` of every link of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links.extend(v for k, v in attrs if k == "href" and v)


def test_demo_plays_scores_prints_and_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)  # the newcomer runs it in some directory
    result = runner.invoke(main, ["demo", "--seed", "1f"])
    assert result.exit_code == 0, result.output
    assert Path("guandan-demo.sqlite").is_file()  # the default database, here
    lines = result.output.splitlines()
    head = lines.index("board  level  leader  open  closed  swing  status")
    rows = [line.split() for line in lines[head + 2 : head + 10]]
    assert [int(r[0]) for r in rows] == list(range(1, 9))
    assert [r[2] for r in rows] == ["N", "E", "S", "W"] * 2  # leaders rotate
    margin = 0
    for r in rows:
        open_ns, closed_ns, swing = int(r[3]), int(r[4]), int(r[5])
        assert 1 <= abs(open_ns) <= 3 and 1 <= abs(closed_ns) <= 3
        assert swing == open_ns - closed_ns  # X's swing: open N–S − closed N–S
        margin += swing
    assert f"margin {margin:+d} to East Lake" in result.output
    assert "open room:   N Zhang Wei, E Chen Jing, S Li Na, W Yang Lei" in result.output
    assert ("the bots played 8 boards at 1 table, in the open and the closed room: 16 records, "
            "replayed and stored") in result.output
    report = Path(lines[-1].removeprefix("report: "))
    assert report == Path("guandan-demo-report") / "index.html" and report.is_file()
    parser = _Links()
    parser.feed(report.read_text(encoding="utf-8"))
    match_page = report.parent / next(a for a in parser.links if a.startswith("match-"))
    assert match_page.is_file()
    parser = _Links()
    parser.feed(match_page.read_text(encoding="utf-8"))
    boards = [link for link in parser.links if link.startswith("board-")]
    assert len(boards) == 8 and all((report.parent / b).is_file() for b in boards)

    again = runner.invoke(main, ["demo", "--seed", "1f", "--force"])
    assert again.exit_code == 1
    assert "already holds the demo of that seed" in again.output


def test_demo_is_reproducible_and_checks_its_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    # in a folder of its own: README's 'guandan demo' leaves guandan-demo-report in the
    # checkout, which the bad seed's run (default --out) must not meet first
    monkeypatch.chdir(tmp_path)
    outputs = []
    for name in ("a", "b"):
        db = f"sqlite:///{os.fspath(tmp_path)}/{name}.sqlite"
        out = tmp_path / f"rep-{name}"
        result = runner.invoke(main, ["demo", "--db", db, "--out", str(out), "--seed", "abcd"])
        assert result.exit_code == 0, result.output
        outputs.append(result.output.split("\n\n", 1)[1].replace(str(out), "OUT"))
    assert outputs[0] == outputs[1]  # same seed, same boards, same play
    bad = runner.invoke(main, ["demo", "--db", f"sqlite:///{tmp_path}/c.sqlite", "--seed", "xyz"])
    assert bad.exit_code == 1
    assert bad.output.strip() == (
        "Error: the seed must be hexadecimal, at most 64 digits (e.g. 1f2e), not 'xyz'"
    )
