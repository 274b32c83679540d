"""The jobs run in local processes (``concurrent.futures.ProcessPoolExecutor``): how the
embedded SQLite database analyses an event, and a worker's way on any database.

Each process computes (:func:`duplicate.jobs.work.compute_dict`, as a queue's worker does);
this process stores each result as it comes (:func:`duplicate.jobs.stored.store_result`,
one writer for SQLite), so an interrupted run keeps what was done and a second run does
only the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from sqlalchemy import Engine

from duplicate.jobs.stored import store_result, stored_keys
from duplicate.jobs.work import AnalysisJob, compute_dict


def run_local(engine: Engine, jobs: Sequence[AnalysisJob], processes: int = 1,
              done: Callable[[int], None] | None = None) -> int:
    """Compute and store the jobs not stored yet, in ``processes`` processes (1: in this
    one); ``done(n)`` after each stored. Returns how many were computed."""
    have = stored_keys(engine, (j.key for j in jobs))
    todo = [j for j in jobs if j.key not in have]
    if processes <= 1 or len(todo) <= 1:
        for job in todo:
            key, data, by = compute_dict(job.to_dict())
            store_result(engine, key, data, by)
            if done is not None:
                done(1)
        return len(todo)
    with ProcessPoolExecutor(max_workers=min(processes, len(todo))) as pool:
        futures = [pool.submit(compute_dict, job.to_dict()) for job in todo]
        for future in as_completed(futures):
            key, data, by = future.result()
            store_result(engine, key, data, by)
            if done is not None:
                done(1)
    return len(todo)
