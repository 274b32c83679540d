"""The suite's own bookkeeping: every file and test conftest.py marks slow exists (a
renamed one would silently join the fast loop), and ``slow`` is a registered marker."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SLOW_FILES, SLOW_TESTS

TESTS = Path(__file__).resolve().parent


def test_every_slow_file_exists() -> None:
    assert sorted(n for n in SLOW_FILES if not (TESTS / n).is_file()) == []


def test_every_slow_test_exists() -> None:
    missing = []
    for name in SLOW_TESTS:
        file, _, test = name.partition("::")
        path = TESTS / file
        if not path.is_file() or f"def {test}(" not in path.read_text(encoding="utf-8"):
            missing.append(name)
    assert sorted(missing) == []


def test_slow_is_a_registered_marker(pytestconfig: pytest.Config) -> None:
    assert any(m.startswith("slow:") for m in pytestconfig.getini("markers"))
