"""The house's own rules about its text: code says what it does, not who asked for it.

No tracked Python file cites the issue tracker (``issue 10``, ``item 4``, a tester's
``(H4)``), and no test file is named after who found a bug (tester, newcomer, defects): a
test file is named after the behaviour it keeps.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: the tracker's ways of being cited: "issue 9", "issues 9 and 10", "item 4", "items 6 to 9",
#: "#12", a hall tester's "(H4)" or "H3's"
TRACKER = re.compile(r"\b[Ii]ssues? #?\d+|\b[Ii]tems? \d+|\(H\d+\)|\bH\d+'s\b")
WHO = re.compile(r"tester|newcomer|defect", re.I)


def tracked_python() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / line for line in out.splitlines() if (ROOT / line).exists()]


def citations(text: str) -> list[str]:
    return [m.group(0) for m in TRACKER.finditer(text)]


@pytest.mark.parametrize(("text", "found"), [
    ('"""The desk (issue 10 item 4): pages."""', ["issue 10", "item 4"]),
    ("# releasing a board (issue 9 item 1), (item 15)", ["issue 9", "item 1", "item 15"]),
    ("for pages in (table, desk):  # H3's table pages, H4's desk", ["H3's", "H4's"]),
    ('"""a printable card (H4)"""', ["(H4)"]),
    ("Straight 3 S3 H4 C5 D6 H7; the wild H7 (a 7)", []),
    ("RULES.md §4, item of a list; 4 items; the first 3 issues", []),
])
def test_a_citation_of_the_tracker_is_found(text: str, found: list[str]) -> None:
    assert citations(text) == found


def test_no_python_file_cites_the_tracker() -> None:
    files = tracked_python()
    assert len(files) > 100
    cited = [f"{p.relative_to(ROOT)}:{n}: {c}"
             for p in files if p.name != Path(__file__).name
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for c in citations(line)]
    assert cited == []


def test_test_files_and_tests_are_named_after_behaviour() -> None:
    named = [p.name for p in tracked_python()
             if p.parent.name == "tests" and WHO.search(p.name)]
    assert named == []
    tests = [f"{p.name}::{m.group(1)}" for p in tracked_python() if p.parent.name == "tests"
             for m in re.finditer(r"^\s*def (test_\w+)", p.read_text(encoding="utf-8"), re.M)
             if WHO.search(m.group(1)) or re.search(r"_(issue|item)_?\d", m.group(1))]
    assert tests == []
