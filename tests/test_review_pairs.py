"""A pairs session's page (``guandan pairs --html``): ranking and boards, in both languages."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from test_pairs import event_files  # noqa: F401  (the fixture)

from cli import main


def test_pairs_page(event_files: list[str], tmp_path: Path) -> None:  # noqa: F811
    page = tmp_path / "pairs.html"
    out = CliRunner().invoke(main, ["pairs", *event_files, "--html", str(page), "--lang", "zh"])
    assert out.exit_code == 0, out.output
    text = page.read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in text and '<meta name="viewport"' in text
    assert "南北方向" in text and "比赛分（诺伊贝格）" in text
    assert text.count('id="board-') == 3
    assert "A1 &amp; A2" in text and "70.83" in text
    assert "升2级" in text  # the results in Guandan's words
