"""What a program derives from data files is kept for the next run, and derived again as
soon as a file changes (duplicate.filecache; the catalogue read from the .po files)."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

from duplicate import filecache

#: the catalogue's module (the package's name ``catalogue`` is its function)
i18n = importlib.import_module("duplicate.i18n.catalogue")


@pytest.fixture
def writes_caches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Python writing bytecode (and so the caches), under a prefix of its own."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path / "prefix"))
    return tmp_path


def test_a_value_is_kept_until_a_file_changes(writes_caches: Path) -> None:
    data = writes_caches / "data"
    data.mkdir()
    a, b = data / "a.txt", data / "b.txt"
    a.write_text("one", encoding="utf-8")
    b.write_text("two", encoding="utf-8")
    calls: list[int] = []

    def derive() -> dict[str, str]:
        calls.append(1)
        return {"a": a.read_text(encoding="utf-8"), "b": b.read_text(encoding="utf-8")}

    assert filecache.cached([a, b], data, "both", derive) == {"a": "one", "b": "two"}
    assert filecache.cached([a, b], data, "both", derive) == {"a": "one", "b": "two"}
    assert len(calls) == 1  # the second run read the cache
    where = filecache.cache_path(data, "both")
    assert where.is_file() and str(where).startswith(sys.pycache_prefix or "")
    b.write_text("three", encoding="utf-8")
    os.utime(b, ns=(b.stat().st_atime_ns, b.stat().st_mtime_ns + 1_000_000))
    assert filecache.cached([a, b], data, "both", derive) == {"a": "one", "b": "three"}
    assert len(calls) == 2
    assert filecache.cached([a], data, "both", derive)["b"] == "three"  # a file fewer
    assert len(calls) == 3


def test_a_broken_cache_is_derived_again_and_replaced(writes_caches: Path) -> None:
    data = writes_caches / "data"
    data.mkdir()
    f = data / "f.txt"
    f.write_text("x", encoding="utf-8")
    where = filecache.cache_path(data, "f")
    where.parent.mkdir(parents=True)
    where.write_bytes(b"\x00not marshal")
    assert filecache.cached([f], data, "f", lambda: [1, 2]) == [1, 2]
    assert filecache.cached([f], data, "f", lambda: [3]) == [1, 2]  # replaced: read back


def test_nothing_is_written_where_python_writes_no_bytecode(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    f = tmp_path / "f.txt"
    f.write_text("x", encoding="utf-8")
    assert filecache.cached([f], tmp_path, "f", lambda: 7) == 7
    assert not (tmp_path / "__pycache__").exists()


def test_a_folder_that_cannot_be_written_still_gives_the_value(
        writes_caches: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = writes_caches / "f.txt"
    f.write_text("x", encoding="utf-8")
    blocker = writes_caches / "prefix"
    blocker.write_text("a file where the cache's folder would be", encoding="utf-8")
    assert filecache.cached([f], writes_caches, "f", lambda: "value") == "value"


def test_the_catalogue_from_its_cache_is_the_catalogue_read_from_the_po_files(
        writes_caches: Path) -> None:
    merged, source = i18n._read_texts()
    i18n._texts.cache_clear()
    i18n.messages.cache_clear()
    i18n._source_ids.cache_clear()
    try:
        i18n._texts()  # writes the cache
        i18n._texts.cache_clear()
        packed = i18n._texts()  # reads it back
        assert filecache.cache_path(i18n.LOCALE, "catalogue-packed").is_file()
        messages = i18n._Messages(packed[0])
        assert set(messages) == set(merged)
        for key, texts in merged.items():
            assert {lang: (m.forms, m.plural is not None) for lang, m in messages[key].items()} \
                == {lang: (tuple(forms), rule is not None) for lang, (forms, rule) in texts.items()}
        assert i18n.source_ids() == source
    finally:
        i18n._texts.cache_clear()
        i18n.messages.cache_clear()
        i18n._source_ids.cache_clear()
