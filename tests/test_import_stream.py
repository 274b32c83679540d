"""``guandan import`` reads a file deal by deal (bounded memory),
its progress advances per deal, and a file that breaks off part-way is reported as such."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from duplicate import gdn
from duplicate.gdn import DealRecord
from duplicate.records import import_files, import_records, stored_records

GOLDEN = Path(__file__).parent / "golden" / "gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"


def test_progress_advances_per_deal(migrated_engine: Engine) -> None:
    steps: list[int] = []
    outcomes = list(import_files(migrated_engine, [EXAMPLE], progress=steps.append))
    assert len(outcomes) == 26 and all(o.status == "stored" for o in outcomes)
    assert len(steps) >= 26  # not one step for the whole file
    assert sum(steps) == EXAMPLE.stat().st_size  # in bytes: the bar ends at 100%


def test_records_are_taken_one_at_a_time(migrated_engine: Engine) -> None:
    taken: list[int] = []
    records = gdn.loads(EXAMPLE.read_bytes(), file="ex.gdn")

    def lazily() -> Iterator[DealRecord]:
        for i, rec in enumerate(records):
            taken.append(i)
            yield rec

    outcomes = import_records(migrated_engine, lazily(), per="deal")
    assert [o.status for o in outcomes] == ["stored"] * 26 and taken == list(range(26))
    assert len(stored_records(migrated_engine)) == 26


def _many(tmp_path: Path, copies: int) -> Path:
    """A file of ``copies`` × 26 distinct records (the examples under other Event tags)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert text.count('[Event "Played by OpenGuanDan"]') == 26
    path = tmp_path / f"many{copies}.gdn"
    with path.open("w", encoding="utf-8") as f:
        for i in range(copies):
            f.write(text.replace('[Event "Played by OpenGuanDan', f'[Event "{copies}-{i}') + "\n")
    return path


def test_import_memory_does_not_grow_with_the_file(
    migrated_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the file is read in blocks: make them smaller than the files compared (200, 800 kB)
    monkeypatch.setattr(gdn, "_BLOCK", 64 * 1024)
    assert len(list(import_files(migrated_engine, [_many(tmp_path, 1)]))) == 26  # warm caches
    peaks = []
    for copies in (4, 16):
        path = _many(tmp_path, copies)
        tracemalloc.start()
        outcomes = import_files(migrated_engine, [path], per="file")
        statuses = {o.status for o in outcomes}
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert statuses == {"stored"}
    # four times the deals, not four times the memory (the whole file was read at once, and
    # the transaction held every row it stored)
    assert peaks[1] < 1.5 * peaks[0], peaks


def test_a_file_that_breaks_off_stores_nothing_per_file(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "broken.gdn"
    path.write_bytes(EXAMPLE.read_bytes() + b'\n[Event "caf\xe9"]\n')
    outcomes = list(import_files(migrated_engine, [path]))
    assert outcomes[-1].status == "error" and "not UTF-8" in (outcomes[-1].error or "")
    assert "broken.gdn:" in (outcomes[-1].error or "")
    assert all(not o.ok for o in outcomes)
    assert stored_records(migrated_engine) == []
    per_deal = list(import_files(migrated_engine, [path], per="deal"))
    assert [o.status for o in per_deal] == ["stored"] * 26 + ["error"]
    assert len(stored_records(migrated_engine)) == 26
