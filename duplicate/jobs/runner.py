"""An event's analysis, run the way its database allows.

:func:`analyse_event` names the event's records (``duplicate.jobs.event``) as its
requested analyses, then, on PostgreSQL, puts the missing ones in the queue
(``duplicate.jobs.queue``: ``guandan worker`` processes take them) and, when asked to
wait, works the queue here too until every one is stored; on SQLite it computes them in
local processes (``duplicate.jobs.local``). Either way each record is computed by
``duplicate.jobs.work.compute`` and stored once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Engine

from duplicate.analysis.budget import Budget
from duplicate.jobs.event import event_jobs
from duplicate.jobs.local import run_local
from duplicate.jobs.stored import Progress, progress, request


@dataclass(frozen=True, slots=True)
class Outcome:
    """What :func:`analyse_event` did: the event's record keys, how many jobs it computed
    here (``computed``) or put in the queue (``deferred``; ``queued``: in the queue
    already), and the event's progress after it."""

    keys: tuple[str, ...]
    computed: int
    deferred: int
    queued: int
    progress: Progress
    queue: bool


def default_processes() -> int:
    """Local processes by default: one a core."""
    return max(1, os.cpu_count() or 1)


def analyse_event(engine: Engine, event: str, budget: Budget, *, processes: int = 1,
                  wait: bool = True, seen: Callable[[int], None] | None = None) -> Outcome:
    """Analyse every record of ``event`` within ``budget`` not analysed yet (see the
    module's docstring); ``seen(n)`` as analyses are stored."""
    jobs = event_jobs(engine, event, budget)
    keys = tuple(j.key for j in jobs)
    request(engine, event, keys, budget.to_dict())
    if engine.dialect.name != "postgresql":
        computed = run_local(engine, jobs, processes, seen)
        return Outcome(keys, computed, 0, 0, progress(engine, event), False)
    from duplicate.jobs import queue  # lazy: procrastinate, loaded on PostgreSQL only

    queue.ensure_schema(engine)
    done = queue.defer(engine, jobs)
    if wait and keys:
        queue.drain(engine, keys, seen=seen)
    return Outcome(keys, 0, done.deferred, done.queued, progress(engine, event), True)
