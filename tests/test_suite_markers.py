"""The suite's own bookkeeping: every file conftest.py marks slow exists (a renamed file
would silently join the fast loop), and ``slow`` is a registered marker."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SLOW_FILES

TESTS = Path(__file__).resolve().parent


def test_every_slow_file_exists() -> None:
    assert sorted(n for n in SLOW_FILES if not (TESTS / n).is_file()) == []


def test_slow_is_a_registered_marker(pytestconfig: pytest.Config) -> None:
    assert any(m.startswith("slow:") for m in pytestconfig.getini("markers"))
