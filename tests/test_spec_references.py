"""Every section reference in the code, the tests and the docs resolves inside a clone.

The specifications are in ``docs/spec/`` (RULES.md, DUPLICATE.md, PROTOCOL.md, FORMAT.md),
their sections numbered in their headings (``## 6. Playing a deal``, ``## 8b. The clients in
the field``). A reference ``RULES.md §6`` (or ``PROTOCOL.md §8b``, a range ``§6–7``, an item
``§4.2`` of a section's numbered list) must name a heading of that file; a bare ``§6`` in
the code means RULES.md, the authority (or PROTOCOL.md: the arena's modules cite both), and
must name a heading of one of them. RFC sections (``RFC 6455 §5.2``) are not ours to check.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "docs" / "spec"
NAMES = ("RULES", "DUPLICATE", "PROTOCOL", "FORMAT")
REF = re.compile(
    r"(?:\b(?P<file>RULES|DUPLICATE|PROTOCOL|FORMAT)\.md(?:(?!\.md)[^§\n]){0,40}?)?"
    r"§ ?(?P<sec>\d+[a-z]?)(?:\.(?P<item>\d+))?(?:\s*[–-]\s*(?P<to>\d+[a-z]?))?")


def sections(name: str) -> dict[str, set[int]]:
    """The numbered headings of a specification, each with the numbers of its list items."""
    found: dict[str, set[int]] = {}
    current: set[int] | None = None
    for line in (SPEC / f"{name}.md").read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#+\s+(\d+[a-z]?)\.\s", line)
        if heading:
            current = found.setdefault(heading.group(1), set())
        elif line.startswith("#"):
            current = None
        elif current is not None and (item := re.match(r"(\d+)\.\s", line)):
            current.add(int(item.group(1)))
    return found


HEADINGS = {name: sections(name) for name in NAMES}


def sources() -> list[Path]:
    """The tracked .py and .md files outside the specifications themselves."""
    try:
        out = subprocess.run(["git", "ls-files", "*.py", "*.md"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        files = [ROOT / line for line in out.splitlines()]
    except (OSError, subprocess.CalledProcessError):
        files = [p for pat in ("*.py", "*.md") for p in ROOT.rglob(pat)
                 if not {".venv", ".venv-ci", "build"} & set(p.parts)]
    return [p for p in files  # this file's own examples of bad references left out
            if SPEC not in p.parents and p.exists() and p.name != Path(__file__).name]


def unresolved(text: str) -> list[str]:
    """The references of ``text`` that name no heading of their specification."""
    bad = []
    for m in REF.finditer(text):
        before = text[max(0, m.start() - 20):m.start()]
        if "RFC" in before:
            continue
        named = m.group("file")
        candidates = [named] if named else ["RULES", "PROTOCOL"]
        for sec in filter(None, (m.group("sec"), m.group("to"))):
            item = m.group("item") if sec == m.group("sec") else None
            ok = any(sec in HEADINGS[n] and (item is None or int(item) in HEADINGS[n][sec])
                     for n in candidates)
            if not ok:
                bad.append(m.group(0))
    return bad


def test_the_specifications_have_numbered_sections() -> None:
    assert set(HEADINGS["RULES"]) == {str(n) for n in range(1, 12)}
    assert {"1", "8", "8b", "9"} <= set(HEADINGS["PROTOCOL"])
    assert {1, 2, 3, 4} <= HEADINGS["RULES"]["4"]


@pytest.mark.parametrize(("text", "bad"), [
    ("RULES.md §6: the trick", []),
    ("as RULES.md says (§9–10)", []),
    ("RULES.md §4.2", []),
    ("PROTOCOL.md §8b", []),
    ("RFC 6455 §5.2", []),
    ("RULES.md §12", ["RULES.md §12"]),
    ("RULES.md §8b", ["RULES.md §8b"]),
    ("RULES.md §4.9", ["RULES.md §4.9"]),
    ("DUPLICATE.md §3", ["DUPLICATE.md §3"]),
    ("a bare §14", ["§14"]),
    ("§6–13", ["§6–13"]),
])
def test_a_reference_is_checked_against_its_file(text: str, bad: list[str]) -> None:
    assert unresolved(text) == bad


def test_every_section_reference_resolves() -> None:
    files = sources()
    assert len(files) > 100
    found = [f"{p.relative_to(ROOT)}: {ref}" for p in files
             for ref in unresolved(p.read_text(encoding="utf-8", errors="replace"))]
    assert found == []
