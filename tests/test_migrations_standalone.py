"""A migration carries what it needs: no revision imports the application's modules
(``duplicate``, ``engine``), whose code may change after the revision was written, so an old
migration would change its meaning. The words of a refusal come through
``migrations.losses``."""

from __future__ import annotations

import ast
from pathlib import Path

VERSIONS = Path(__file__).resolve().parent.parent / "migrations" / "versions"

#: Revisions still to be made standalone, each with the reason it is not yet.
NOT_YET = {
    # brings stored records to today's canonical form: replays each record with today's
    # gdn reader and writer (duplicate.records.canonical_form); to move out of the revisions
    # into a step run after upgrading
    "0009_canonical_records.py",
}


def _imported(path: Path) -> set[str]:
    """Every top-level package a file imports, at any depth of its code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def test_no_revision_imports_the_application() -> None:
    revisions = sorted(VERSIONS.glob("[0-9]*.py"))
    assert len(revisions) >= 14
    offenders = {p.name: sorted(_imported(p) & {"duplicate", "engine"}) for p in revisions}
    offenders = {name: mods for name, mods in offenders.items() if mods}
    assert set(offenders) == NOT_YET, offenders


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    sample = tmp_path / "0099_x.py"
    sample.write_text("def upgrade() -> None:\n    from duplicate.gdn import loads\n")
    assert "duplicate" in _imported(sample)
