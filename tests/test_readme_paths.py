"""README and the documentation point only at paths a reader of a clone has: the
specifications are in ``docs/spec/``, the example records in ``tests/golden/gdn/``, and every
repository path README or a page names in backticks exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
#: the repository's top-level folders and files: a path beginning with one is the repository's
TOPS = ("engine/", "duplicate/", "docs/", "tests/", "bench/", "tools/", "migrations/", ".ci/",
        "mkdocs.yml", "pyproject.toml")
#: paths the pages name that a run makes (git-ignored), or that stand for a family of files
MADE = {"tests/artifacts/"}


def tracked(*patterns: str) -> list[Path]:
    """The repository's tracked files matching ``patterns`` (every file outside git)."""
    try:
        out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return [p for pat in patterns for p in ROOT.rglob(pat) if ".venv" not in p.parts]
    return [ROOT / line for line in out.splitlines()]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_path_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert re.findall(r"\.\./shared\S*", text) == []
    assert re.findall(r"/work/\S*", text) == []


def test_nothing_says_the_specifications_are_elsewhere() -> None:
    """The specifications are in ``docs/spec/``: no page, docstring or comment sends the
    reader to a folder beside the repository."""
    said = [f"{p.relative_to(ROOT)}: {m.group(0)!r}"
            for p in tracked("*.py", "*.md", "*.gdn")
            if "docs/spec/" not in p.as_posix() and p.name != Path(__file__).name
            for m in re.finditer(r"\.\./shared\b|shared specification|not in this repository",
                                 p.read_text(encoding="utf-8", errors="replace"))]
    assert said == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_path_a_page_names_exists(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    named = {re.split(r"::|#", tok)[0].strip("(),;:.")
             for span in re.findall(r"`([^`\n]+)`", text) if not span.startswith("guandan ")
             for tok in span.split()}
    paths = sorted(t for t in named if t.startswith(TOPS) and t not in MADE
                   and not re.search(r"[*{}<>…]|NAME|\bN\b", t))
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_readme_names_the_specifications_and_the_example() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for path in ("docs/spec/RULES.md", "docs/spec/PROTOCOL.md", "docs/spec/DUPLICATE.md",
                 "docs/spec/seeds/", "tests/golden/gdn/"):
        assert f"`{path}" in text, path
    assert (ROOT / "tests" / "golden" / "gdn" / "openguandan-26-deals.gdn").exists()


def test_readme_is_short() -> None:
    """README is a way in (what it is, two commands, a competition, the hall, links); the
    rest is the documentation site."""
    words = len((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert words <= 1000, words


def test_readme_hall_upgrades_the_database_before_serving() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    hall = text[text.index("## The hall"):]
    assert hall.index("guandan db upgrade") < hall.index("guandan serve")


def test_the_shared_example_replays_from_its_copy() -> None:
    """All 26 deals of the specification's example replay cleanly, from the path given."""
    from duplicate.gdn import load
    from duplicate.replay import replay

    path = ROOT / "tests" / "golden" / "gdn" / "openguandan-26-deals.gdn"
    with path.open(encoding="utf-8") as f:
        records = list(load(f))
    assert len(records) == 26 and all(replay(r).ok for r in records)


def headings(path: Path) -> list[str]:
    """A page's headings, and its lines: a paragraph may be what a reference names
    (``**The cliff.**``, ``Guandan tables with k = 6 (formula-derived):``)."""
    return [re.sub(r"^[#*\s]+", "", ln) for ln in path.read_text(encoding="utf-8").splitlines()]


def test_every_named_section_of_a_page_exists() -> None:
    """A reference such as ``docs/EVENTS.md "Times"`` names the start of a heading (or of a
    paragraph) of that page (of ``docs/`` or of ``docs/spec/``), so that the reader finds
    it."""
    pages = {p.name: [p] for p in (ROOT / "docs").glob("*.md")}
    for p in (ROOT / "docs" / "spec").glob("*.md"):
        pages.setdefault(p.name, []).append(p)
    missing = []
    for source in tracked("*.py", "*.md"):
        text = source.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r'\b([A-Z]+\.md),? "([^"\n]{3,60})"', text):
            name, title = m.group(1), m.group(2).rstrip(" .…")
            if name not in pages:
                missing.append(f"{source.relative_to(ROOT)}: {name} (no such page)")
            elif not any(h.lower().startswith(title.lower()) for p in pages[name]
                         for h in headings(p)):
                missing.append(f"{source.relative_to(ROOT)}: {name} \"{title}\"")
    assert missing == []
