"""Shared by the store's concurrency and kill tests: running library calls in separate
processes (forked, each with its own engine) released together, and checking what the
store holds afterwards: each thing once, every log chain whole, no orphan record."""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, func, select, text

from duplicate import models
from duplicate.db import make_engine

CTX = multiprocessing.get_context("fork")
#: The longest a race may take before the test fails (seconds).
TIMEOUT = 120


def _child(url: str, job: Callable[[Engine], Any], barrier: Any, out: Any, i: int) -> None:
    engine = make_engine(url)
    try:
        barrier.wait(TIMEOUT)
        try:
            result: Any = job(engine)
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            result = exc if _picklable(exc) else RuntimeError(traceback.format_exc())
        out.put((i, result))
    finally:
        engine.dispose()
        os._exit(0)  # no clean-up of what the fork inherited (the parent's connections)


def _picklable(exc: Exception) -> bool:
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001
        return False
    return True


def race(url: str, engine: Engine, jobs: list[Callable[[Engine], Any]]) -> list[Any]:
    """Run every job in its own process, all released at once; their results (or errors)
    in order. ``engine`` (the test's) lets go of its connections first."""
    engine.dispose()
    barrier = CTX.Barrier(len(jobs))
    out = CTX.SimpleQueue()
    procs = [
        CTX.Process(target=_child, args=(url, job, barrier, out, i))
        for i, job in enumerate(jobs)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(TIMEOUT)
    assert all(p.exitcode == 0 for p in procs), [p.exitcode for p in procs]
    results: list[Any] = [None] * len(jobs)
    for _ in jobs:
        i, result = out.get()
        results[i] = result
    return results


def count(engine: Engine, model: type[models.Base], *where: Any) -> int:
    with engine.connect() as conn:
        return int(conn.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def check_store(engine: Engine) -> dict[int, list[dict[str, Any]]]:
    """Assert the store whole: every room's changes numbered 1, 2, … with each "before" its
    predecessor's "after", every record a change rests on (no orphan), no room without a
    change, no record text twice in a room. Returns each room's changes, in order."""
    state = ("status", "ns_result", "note", "finish", "record_id")
    cols = ", ".join(
        ["id", "result_id", "seq", "action", *state, *(f"old_{c}" for c in state)]
    )
    rooms: dict[int, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for row in conn.execute(text(f"SELECT {cols} FROM result_changes ORDER BY result_id, seq")):
            rooms.setdefault(row.result_id, []).append(dict(row._mapping))
        orphans = conn.scalar(text(
            "SELECT COUNT(*) FROM play_records p WHERE NOT EXISTS (SELECT 1 FROM "
            "result_changes c WHERE c.record_id = p.id OR c.old_record_id = p.id)"
        ))  # fmt: skip
        empty = conn.scalar(text(
            "SELECT COUNT(*) FROM room_results r WHERE NOT EXISTS (SELECT 1 FROM "
            "result_changes c WHERE c.result_id = r.id)"
        ))  # fmt: skip
        twice = conn.scalar(text(
            "SELECT COUNT(*) FROM (SELECT result_id, content_hash FROM play_records "
            "GROUP BY result_id, content_hash HAVING COUNT(*) > 1) d"
        ))  # fmt: skip
    assert (orphans, empty, twice) == (0, 0, 0), "orphan records, empty rooms, doubled records"
    for rid, chain in rooms.items():
        assert [c["seq"] for c in chain] == list(range(1, len(chain) + 1)), (rid, chain)
        assert chain[0]["old_status"] is None, (rid, chain[0])
        for before, after in zip(chain, chain[1:], strict=False):
            was = tuple(before[c] for c in state)
            said = tuple(after[f"old_{c}"] for c in state)
            assert said == was, f"room {rid}: change {after['id']} says before {said}, was {was}"
    return rooms
