"""Without the compiled core: the install still works and says so, the engine runs in pure
Python, and ``GUANDAN_CORE=native`` is a clear error (docs/CORE.md)."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: runs with the compiled core made unimportable, as on a machine without a compiler
PROBE = """
import sys
sys.modules["engine._native._core"] = None  # import of the core now fails
from engine import core
from engine.moves import legal_readings
from engine.cards import parse_cards
print(core.implementation())
print(core.describe())
print(len(legal_readings(parse_cards("S3 S3 H4 C5 D6 H7 SB"), 5)))
try:
    core.use("native")
except core.CoreUnavailableError as exc:
    print("refused:", exc)
"""


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, **env},
    )


def test_without_the_core_the_engine_runs_in_python_and_native_is_refused() -> None:
    got = _run(PROBE, GUANDAN_CORE="auto")
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert lines[0] == "python"
    assert "pure Python" in lines[1] and "not built" in lines[1]
    assert int(lines[2]) > 0
    assert lines[3].startswith("refused: GUANDAN_CORE=native but the compiled core is not available")


def test_forcing_native_without_the_core_fails_at_import() -> None:
    code = 'import sys; sys.modules["engine._native._core"] = None; import engine.moves'
    got = _run(code, GUANDAN_CORE="native")
    assert got.returncode != 0
    assert "CoreUnavailableError: GUANDAN_CORE=native but the compiled core is not available" in (
        got.stderr)


def test_forcing_python_uses_python_even_with_the_core() -> None:
    got = _run("from engine import core; print(core.implementation())", GUANDAN_CORE="python")
    assert got.stdout.strip() == "python"


def test_a_build_without_a_compiler_succeeds_and_says_so(tmp_path: Path) -> None:
    """``CC=false``: the wheel builds, holds no compiled core, and the log says why."""
    got = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "CC": "false"},
    )
    assert got.returncode == 0, got.stderr[-2000:]
    assert "the pure-Python core is used" in got.stdout + got.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "engine/core.py" in names
    assert not [n for n in names if n.startswith("engine/_native/_core")]


def test_a_stale_build_is_not_used() -> None:
    """A compiled core of another API version (built from older sources) is refused."""
    code = (
        "import engine._native._core as c; c.API_VERSION = -1\n"
        "from engine import core; print(core.implementation()); print(core.describe())"
    )
    got = _run(code, GUANDAN_CORE="auto")
    assert got.returncode == 0, got.stderr
    lines = got.stdout.splitlines()
    assert lines[0] == "python"
    assert "a stale build" in lines[1]
