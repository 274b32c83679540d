"""``kill -9`` at random points of ``import`` and ``event import`` (20 times each, small
files, bounded in time), on every backend: the database is left whole (no half file, no
orphan record, every log chain whole) and the same import then completes."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from sqlalchemy import Engine, text
from store_race import CTX, check_store, count
from test_event_import_fixes import make_round

from duplicate import events, gdn, models, records
from duplicate.db import make_engine

EXAMPLE = Path(__file__).parent / "golden" / "gdn" / "openguandan-26-deals.gdn"
KILLS = 20
#: The most a kill suite may take (seconds): the kills left are skipped past it.
BUDGET = 12.0
DEALS = 4


def _killed(url: str, run: object, delay: float) -> None:
    """Run ``run(engine)`` in a forked process and ``kill -9`` it after ``delay`` seconds."""

    def child() -> None:
        engine = make_engine(url)
        try:
            run(engine)  # type: ignore[operator]
        finally:
            os._exit(0)

    proc = CTX.Process(target=child)
    proc.start()
    proc.join(delay)  # done sooner: nothing to kill
    if proc.pid is not None and proc.is_alive():
        os.kill(proc.pid, signal.SIGKILL)
    proc.join(30)
    assert proc.exitcode is not None


def _timed(url: str, run: object) -> float:
    """How long ``run`` takes in a process of its own (what the kills are spread over)."""
    start = time.monotonic()
    _killed(url, run, 60.0)
    return time.monotonic() - start


def _file(tmp_path: Path, i: int) -> Path:
    """A file of the example's first deals as event ``K{i}``: other keys each time."""
    recs = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))[:DEALS]
    for r in recs:
        r.tags = {"Event": f"K{i}", **{k: v for k, v in r.tags.items() if k != "Event"}}
    path = tmp_path / f"k{i}.gdn"
    path.write_text(gdn.dumps(recs), encoding="utf-8")
    return path


def test_a_killed_import_leaves_no_half_file_and_completes_again(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path
) -> None:
    rng = random.Random(19)
    migrated_engine.dispose()
    span = _timed(migrated_url, lambda e: list(records.import_files(e, [_file(tmp_path, 0)])))
    began = time.monotonic()
    for i in range(1, KILLS + 1):
        if time.monotonic() - began > BUDGET:
            break
        path = _file(tmp_path, i)
        per = "file" if i % 4 else "deal"
        _killed(migrated_url, lambda e, p=path, m=per: list(records.import_files(e, [p], per=m)),
                rng.uniform(0.0, span))  # fmt: skip
        stored = count(migrated_engine, models.RoomResult, models.RoomResult.event == f"K{i}")
        if per == "file":
            assert stored in (0, DEALS), f"kill {i}: {stored} of {DEALS} deals: half a file"
        check_store(migrated_engine)
        outs = list(records.import_files(migrated_engine, [path]))
        assert {o.status for o in outs} <= {"stored", "unchanged"}, outs
        assert {o.version for o in outs} == {1}  # a killed run left no version behind
        assert count(migrated_engine, models.RoomResult,
                     models.RoomResult.event == f"K{i}") == DEALS  # fmt: skip
        migrated_engine.dispose()
    check_store(migrated_engine)
    assert count(migrated_engine, models.PlayRecord) == count(migrated_engine, models.RoomResult)


def test_a_killed_event_import_leaves_no_half_file_and_completes_again(
    migrated_url: str, migrated_engine: Engine
) -> None:
    rng = random.Random(19)
    texts = make_round(migrated_engine)
    rooms = sum(len(gdn.loads(t)) for t in texts)
    migrated_engine.dispose()

    def run(engine: Engine) -> None:
        events.import_texts(engine, "Cup", texts)

    span = _timed(migrated_url, run)
    began = time.monotonic()
    for i in range(KILLS):
        if time.monotonic() - began > BUDGET:
            break
        with migrated_engine.begin() as conn:  # the round empty again: the store's rows
            conn.execute(text("DELETE FROM room_results"))
        _killed(migrated_url, run, rng.uniform(0.0, span))
        per_table = [
            count(migrated_engine, models.RoomResult, models.RoomResult.table_key == str(t))
            for t in (1, 2)
        ]
        assert all(n in (0, rooms // 2) for n in per_table), f"kill {i}: {per_table}: half a file"
        check_store(migrated_engine)
        done = events.import_texts(migrated_engine, "Cup", texts)
        assert (done.added + done.unchanged, done.added) == (rooms, rooms - sum(per_table))
        assert count(migrated_engine, models.PlayRecord) == rooms
        migrated_engine.dispose()
    check_store(migrated_engine)
