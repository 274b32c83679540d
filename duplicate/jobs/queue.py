"""The analysis jobs on PostgreSQL: procrastinate's queue in the event's own database.

procrastinate (a task queue over PostgreSQL's tables, ``LISTEN/NOTIFY`` and row locks)
holds the jobs; ``guandan worker`` processes on any host that reaches the database take
them (:func:`work`), one at a time each. A job is one record (``duplicate.jobs.work``):

* deferred once (:func:`defer`): a record already analysed, or whose job is waiting or
  running, gets no new job; procrastinate's ``queueing_lock`` (the record's key) refuses
  a second waiting job to a concurrent deferrer too;
* run once at a time (``lock``: the key), stored once (``duplicate.jobs.stored``: the key
  is the table's primary key, so a job run again after its worker died stores nothing
  new, and its value is the same anyway: the budget counts work, not time);
* queued as boards end: every ``sweep`` seconds one worker (an advisory lock) queues
  the records that came since of each event whose analysis was asked for, within the
  budget asked (:func:`sweep`);
* never lost: each worker sends procrastinate a heartbeat; a job whose worker has sent
  none for ``stalled_after`` seconds (killed, host gone) is put back in the queue by the
  next worker that looks (:func:`retry_stalled`, every few seconds and at start-up); a
  job that raised is tried again up to :data:`ATTEMPTS` times.

procrastinate's schema (its tables and functions) is applied by ``guandan db upgrade``
(:func:`ensure_schema`), not by our migrations: it is procrastinate's, versioned with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import procrastinate
from procrastinate.exceptions import AlreadyEnqueued, ProcrastinateException
from procrastinate.schema import SchemaManager
from sqlalchemy import Engine, text

from duplicate.analysis.budget import Budget
from duplicate.errors import DuplicateError
from duplicate.i18n import phrase
from duplicate.jobs.event import event_jobs
from duplicate.jobs.stored import request, requested_budgets, store_result, stored_keys
from duplicate.jobs.work import AnalysisJob, compute, worker_name

#: The task's name in the queue and the queue's name.
TASK = "guandan.analyse_record"
QUEUE = "guandan_analysis"
#: Tries of a job that raised (a killed worker's job is retried apart from these).
ATTEMPTS = 3
#: The advisory lock that serialises applying procrastinate's schema.
_SCHEMA_LOCK = 0x6775616E  # "guan"
#: The advisory lock held by the one worker sweeping at a time.
_SWEEP_LOCK = _SCHEMA_LOCK + 1

log = logging.getLogger(__name__)


def is_postgresql(engine: Engine) -> bool:
    """Whether ``engine``'s database can hold the queue."""
    return engine.dialect.name == "postgresql"


def conninfo(engine: Engine) -> str:
    """The libpq URL of ``engine``'s database (procrastinate connects with psycopg)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def ensure_schema(engine: Engine) -> bool:
    """Apply procrastinate's schema to ``engine``'s database unless it is there (one
    transaction, under an advisory lock: two callers at once apply it once). True when
    it was applied now."""
    with engine.begin() as conn:
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK})
        if conn.execute(text("SELECT to_regclass('procrastinate_jobs')")).scalar() is not None:
            return False
        raw: Any = conn.connection.driver_connection
        raw.execute(SchemaManager.get_schema())
        return True


def has_schema(engine: Engine) -> bool:
    """Whether procrastinate's schema is in ``engine``'s database."""
    with engine.connect() as conn:
        return conn.execute(text("SELECT to_regclass('procrastinate_jobs')")).scalar() is not None


def run_job(engine: Engine, job: AnalysisJob) -> bool:
    """Compute and store ``job`` unless its key is stored; True when this run stored it."""
    if stored_keys(engine, [job.key]):
        return False
    return store_result(engine, job.key, compute(job), worker_name())


def make_app(engine: Engine) -> procrastinate.App:
    """A procrastinate app over ``engine``'s database, with the analysis task."""
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(
        conninfo=conninfo(engine), min_size=1, max_size=4))

    @app.task(name=TASK, queue=QUEUE, retry=procrastinate.RetryStrategy(
        max_attempts=ATTEMPTS, wait=1))
    def analyse_record(key: str, record: str, rules: dict[str, Any],
                       budget: dict[str, Any]) -> None:
        run_job(engine, AnalysisJob(key, record, rules, budget))

    return app


@dataclass(frozen=True, slots=True)
class Deferred:
    """What :func:`defer` did: jobs deferred now, records waiting or running already,
    records analysed already."""

    deferred: int
    queued: int
    analysed: int


def _open_keys(engine: Engine) -> set[str]:
    """The keys of the analysis jobs waiting or running."""
    with engine.connect() as conn:
        return set(conn.execute(text(
            "SELECT lock FROM procrastinate_jobs WHERE queue_name = :q "
            "AND status IN ('todo', 'doing')"), {"q": QUEUE}).scalars())


def defer(engine: Engine, jobs: Sequence[AnalysisJob]) -> Deferred:
    """Put in the queue one job a record of ``jobs`` not analysed and not queued."""
    have = stored_keys(engine, (j.key for j in jobs))
    queued = _open_keys(engine)
    todo = [j for j in jobs if j.key not in have and j.key not in queued]
    if not todo:
        return Deferred(0, len([j for j in jobs if j.key in queued]), len(have))
    n = 0
    app = make_app(engine)
    with app.open():
        task = app.tasks[TASK]
        for job in todo:
            try:
                task.configure(lock=job.key, queueing_lock=job.key).defer(**job.to_dict())
                n += 1
            except AlreadyEnqueued:  # a concurrent deferrer queued it first
                queued.add(job.key)
    return Deferred(n, len([j for j in jobs if j.key in queued]), len(have))


def job_counts(engine: Engine) -> dict[str, int]:
    """The analysis jobs by procrastinate's status (``todo``, ``doing``, ``succeeded``,
    ``failed``, ...)."""
    with engine.connect() as conn:
        return {str(s): int(n) for s, n in conn.execute(text(
            "SELECT status, COUNT(*) FROM procrastinate_jobs WHERE queue_name = :q "
            "GROUP BY status"), {"q": QUEUE})}


def sweep(engine: Engine) -> int:
    """Queue the records not analysed of every event whose analysis was asked for (the
    boards that ended since), within the budget asked; how many jobs were queued."""
    n = 0
    for event, budget in requested_budgets(engine):
        try:
            jobs = event_jobs(engine, event, Budget(**budget))
            request(engine, event, [j.key for j in jobs], budget)
        except DuplicateError:  # the event was deleted meanwhile
            continue
        n += defer(engine, jobs).deferred
    return n


def sweep_once(engine: Engine) -> int | None:
    """:func:`sweep` unless another worker is sweeping (``None`` then)."""
    with engine.connect() as conn:
        if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _SWEEP_LOCK}).scalar():
            return None
        try:
            return sweep(engine)
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _SWEEP_LOCK})


async def _sweep_loop(engine: Engine, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            n = await asyncio.to_thread(sweep_once, engine)
        except Exception:  # noqa: BLE001 - a failed sweep must not stop the worker
            log.exception("the sweep for new records failed; next try in %s s", every)
            continue
        if n:
            log.warning("%s new records queued for analysis", n)


async def retry_stalled(app: procrastinate.App, stalled_after: float) -> int:
    """Put back in the queue the jobs whose worker has sent no heartbeat for
    ``stalled_after`` seconds; how many."""
    n = 0
    for job in await app.job_manager.get_stalled_jobs(
            queue=QUEUE, seconds_since_heartbeat=stalled_after):
        try:
            await app.job_manager.retry_job(job)
            n += 1
            log.warning("job %s of a stalled worker is queued again", job.id)
        except ProcrastinateException:  # another worker retried it first
            continue
    return n


async def _retry_loop(app: procrastinate.App, stalled_after: float, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        with contextlib.suppress(ProcrastinateException, OSError):
            await retry_stalled(app, stalled_after)


def _worker_options(once: bool, heartbeat: float, stalled_after: float,
                    name: str | None, signals: bool) -> dict[str, Any]:
    return {"queues": [QUEUE], "wait": not once, "concurrency": 1,
            "name": name or worker_name(), "update_heartbeat_interval": heartbeat,
            "stalled_worker_timeout": stalled_after, "install_signal_handlers": signals,
            "fetch_job_polling_interval": 1.0}


def work(engine: Engine, *, once: bool = False, heartbeat: float = 10.0,
         stalled_after: float = 30.0, name: str | None = None, every: float = 60.0) -> None:
    """Run one worker: take the analysis jobs one at a time until stopped (SIGINT,
    SIGTERM: the running job ends first), or, with ``once``, until the queue is empty;
    every ``every`` seconds (0: never) :func:`sweep` for new records."""
    app = make_app(engine)

    async def main() -> None:
        async with app.open_async():
            await retry_stalled(app, stalled_after)
            loops = [asyncio.create_task(_retry_loop(app, stalled_after, max(heartbeat, 1.0)))]
            if every > 0 and not once:
                loops.append(asyncio.create_task(_sweep_loop(engine, every)))
            try:
                await app.run_worker_async(
                    **_worker_options(once, heartbeat, stalled_after, name, True))
            finally:
                for loop in loops:
                    loop.cancel()

    asyncio.run(main())


def drain(engine: Engine, keys: Iterable[str], *, stalled_after: float = 30.0,
          poll: float = 1.0, seen: Callable[[int], None] | None = None) -> None:
    """Work the queue in this process, and wait for the jobs other workers run, until
    every one of ``keys`` is stored; ``seen(n)`` with the number stored after each look.
    Raises :class:`DuplicateError` when some are neither stored nor in the queue (their
    jobs failed every try: ``guandan event status`` counts them)."""
    wanted = set(keys)
    app = make_app(engine)

    async def main() -> None:
        async with app.open_async():
            while True:
                await retry_stalled(app, stalled_after)
                await app.run_worker_async(
                    **_worker_options(True, 5.0, stalled_after, None, False))
                missing = wanted - stored_keys(engine, wanted)
                if seen is not None:
                    seen(len(wanted) - len(missing))
                if not missing:
                    return
                if not missing & _open_keys(engine):  # neither waiting nor running: failed
                    raise DuplicateError(phrase("jobs.failed", n=len(missing)))
                await asyncio.sleep(poll)

    asyncio.run(main())
