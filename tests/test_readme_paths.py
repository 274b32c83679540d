"""README and docs/ point only at paths a reader of the repository has (a newcomer's report):
``../shared/RULES.md`` and ``../shared/examples/openguandan-26-deals.gdn`` did not exist
from a clone. The shared specification is named as such (not in this repository); its
example records are read from their copy in ``tests/golden/gdn/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: the repository's top-level folders: a path beginning with one is the repository's
TOPS = ("engine/", "duplicate/", "docs/", "tests/", "bench/", "tools/",         "web/", "analysis/", "migrations/", ".ci/")
#: paths README names that a run makes (git-ignored), not the repository's
MADE = {"tests/artifacts/"}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_path_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    assert re.findall(r"\.\./shared\S*", text) == []
    assert re.findall(r"/work/\S*", text) == []


def test_every_repository_path_readme_names_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = {tok.strip("(),;:") for span in re.findall(r"`([^`\n]+)`", text)
             for tok in span.split()}
    paths = sorted(t for t in named if t.startswith(TOPS) and t not in MADE)
    assert "tests/golden/gdn/openguandan-26-deals.gdn" in paths
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_the_shared_example_replays_from_its_copy() -> None:
    """README: all 26 deals of the example replay cleanly, from the path it gives."""
    from duplicate.gdn import load
    from duplicate.replay import replay

    path = ROOT / "tests" / "golden" / "gdn" / "openguandan-26-deals.gdn"
    with path.open(encoding="utf-8") as f:
        records = list(load(f))
    assert len(records) == 26 and all(replay(r).ok for r in records)
