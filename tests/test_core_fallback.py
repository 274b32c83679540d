"""Without the compiled core: the install still works and says so, the engine runs in pure
Python, and ``GUANDAN_CORE=native`` is a clear error (docs/CORE.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from duplicate.analysis import solver as solver_module
from duplicate.native import PLAYERS
from engine import core
from engine._native.sources import header_text
from engine.combo import ComboType
from engine.deal import REPORT_LIMIT

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
    core.choose("native")
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
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


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


def test_a_build_without_a_compiler_says_so_once(tmp_path: Path) -> None:
    got = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "CC": "false"},
    )
    assert got.returncode == 0, got.stderr[-2000:]
    assert (got.stdout + got.stderr).count("the pure-Python core is used") == 1


def test_the_stale_check_compares_the_built_fingerprint_with_the_checkout() -> None:
    here = core.checkout_hash(ROOT / "engine" / "_native")
    assert here is not None and len(here) == 16
    assert core.stale_reason(core.API_VERSION, here, here, "x.so") == ""
    assert core.stale_reason(core.API_VERSION, "", here, "x.so") == ""  # a build by hand
    assert core.stale_reason(core.API_VERSION, "0" * 16, None, "x.so") == ""  # a wheel
    said = core.stale_reason(core.API_VERSION, "0" * 16, here, "x.so")
    assert "other sources" in said and "pip install -e ." in said
    assert "API" in core.stale_reason(core.API_VERSION - 1, here, here, "x.so")


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_a_core_built_from_other_sources_is_refused_naming_the_fix(tmp_path: Path) -> None:
    """A copy of the checkout whose shared constants changed after the build: the core is
    not used (auto: pure Python and a warning; native: one clear error), and ``guandan
    version`` says it is stale and how to rebuild."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "cli.py", tmp_path / "cli.py")
    constants = tmp_path / "engine" / "constants.py"  # a rule's number, shared with the C
    constants.write_text(constants.read_text().replace("REPORT_LIMIT = 10", "REPORT_LIMIT = 9"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    probe = "from engine import core; print(core.__file__); print(core.implementation())"
    auto = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env={**env, "GUANDAN_CORE": "auto"})
    assert auto.returncode == 0, auto.stderr
    assert auto.stdout.splitlines() == [str(tmp_path / "engine" / "core.py"), "python"]
    assert "StaleCoreWarning" in auto.stderr and "pip install -e ." in auto.stderr
    forced = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60, env={**env, "GUANDAN_CORE": "native"})
    assert forced.returncode != 0
    assert "other sources" in forced.stderr and "pip install -e ." in forced.stderr
    version = subprocess.run([sys.executable, "-W", "ignore", "-c", "import cli; cli.main()",
                              "version"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=60, env={**env, "GUANDAN_CORE": "auto"})
    assert version.returncode == 0, version.stderr
    assert "compiled core is stale" in version.stdout and "pip install -e ." in version.stdout


@pytest.mark.parametrize("setting", ["bogus", "native-without-core"])
def test_a_bad_core_setting_is_the_command_line_s_one_line_error(setting: str) -> None:
    hide = 'import sys; sys.modules["engine._native._core"] = None; ' if "without" in setting else ""
    got = subprocess.run(
        [sys.executable, "-c", hide + "import cli; cli.main()", "version"], cwd=ROOT,
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "GUANDAN_CORE": setting.split("-")[0]},
    )
    assert got.returncode == 1
    assert len(got.stderr.splitlines()) == 1, got.stderr
    assert got.stderr.startswith("Error: GUANDAN_CORE=")


def test_the_fingerprint_covers_the_c_sources_and_the_shared_constants(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    native_dir = tmp_path / "engine" / "_native"
    before = core.checkout_hash(native_dir)
    assert before == core.checkout_hash(ROOT / "engine" / "_native")
    header = native_dir / "core_deal.h"
    header.write_text(header.read_text() + "\n/* changed */\n")
    assert core.checkout_hash(native_dir) != before


def test_the_c_constants_are_generated_from_the_python_definitions() -> None:
    """One definition: the combination enum, its names and the shared numbers come from
    engine/constants.py; no C file writes them by hand."""
    text = header_text()
    for t in ComboType:
        assert f"T_{t.name} = {t.value}" in text
        assert f'"{t.record_name}"' in text
    assert f"#define REPORT_LIMIT {REPORT_LIMIT}" in text
    assert f"#define CORE_API_VERSION {core.API_VERSION}" in text
    for source in (ROOT / "engine" / "_native").glob("*.[ch]"):
        body = source.read_text()
        assert "#define REPORT_LIMIT" not in body and "enum { T_SINGLE" not in body, source


@pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
def test_the_engine_s_compiled_module_holds_the_rules_only() -> None:
    """The solver's C lives beside the solver (duplicate/analysis/_native), the bot's,
    playouts' and arena's in duplicate/_native, each its own extension; the engine's module
    and folder know nothing of them."""
    upper = ("Solver", "plan_hand", "heuristic_act", "heuristic_playout", "heuristic_playouts",
             "deal_unseen", "action_list", "agent_index")
    assert not [name for name in upper if hasattr(core._compiled, name)]
    for stem in ("core_solver", "core_plan", "core_playout", "core_arena"):
        assert not list((ROOT / "engine" / "_native").glob(stem + "*")), stem
    assert solver_module.NATIVE is not None and PLAYERS is not None
    assert solver_module.NATIVE.__name__ == "duplicate.analysis._native._solver"
    assert all(hasattr(PLAYERS, name) for name in upper[1:])
