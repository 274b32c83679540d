"""The wheel installs only the design's top-level names: ``cli``, ``duplicate``, ``engine``
and ``migrations`` (and its ``.dist-info``), none that could collide with another project's
package in a user's environment (``web``, ``commands``, ``analysis``, ``arena``).

The wheel is built the ordinary way (``pip wheel``, with pyproject.toml's build backend)
from a clean copy of the sources, so that a stale ``build/`` folder of the checkout cannot
add or hide a name; ``CC=false`` skips compiling the C core, whose module lives inside
``engine`` whatever happens."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
#: what the build needs from the checkout (pyproject.toml's packages, setup.py's C core)
_SOURCES = ("pyproject.toml", "setup.py", "README.md", "cli.py", "engine", "duplicate",
            "migrations")
#: what a clean clone lacks inside them: build products and caches
_NOT_SOURCES = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info", "*.sqlite")


def top_level_names(wheel: Path) -> set[str]:
    """The first component of every path in ``wheel`` (a zip file)."""
    with zipfile.ZipFile(wheel) as archive:
        return {name.split("/", 1)[0] for name in archive.namelist()}


def test_the_wheel_installs_only_the_four_top_level_names(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in _SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=_NOT_SOURCES)
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path / "wheel"
    env = {**os.environ, "CC": "false", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    wheels = list(out.glob("guandan_duplicate-*.whl"))
    assert len(wheels) == 1, wheels
    names = top_level_names(wheels[0])
    dist_info = {n for n in names if n.endswith(".dist-info")}
    assert len(dist_info) == 1, names
    assert names - dist_info == {"cli.py", "duplicate", "engine", "migrations"}
    with zipfile.ZipFile(wheels[0]) as archive:  # the console script names the root group
        entry_points = archive.read(f"{dist_info.pop()}/entry_points.txt").decode()
    assert "guandan = cli:main" in entry_points
