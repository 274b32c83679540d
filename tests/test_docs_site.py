"""The documentation site builds with ``mkdocs build --strict``: no broken link or anchor,
no page outside the navigation, and the pages the README and the tutorials promise are
there (in both languages where players read them)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # a whole site, the command reference written from every command's help
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which(
        "mkdocs")
    assert mkdocs, "mkdocs is not installed: pip install -e '.[test]' brings it"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([mkdocs, "build", "--strict", "-d", str(tmp_path / "site")],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    log = built.stdout + built.stderr
    assert built.returncode == 0 and "WARNING" not in log, log
    site = tmp_path / "site"
    for page in ("index.html", "tutorials/director.html", "tutorials/player.html",
                 "tutorials/ai-team.html", "zh/tutorials/director.html",
                 "zh/tutorials/player.html", "reference/cli.html", "reference/commands.html",
                 "hall/api.html", "spec/RULES.html", "spec/PROTOCOL.html"):
        assert (site / page).is_file(), page
    commands = (site / "reference" / "commands.html").read_text(encoding="utf-8")
    assert "guandan event create" in commands and "--teams-file" in commands
