"""``guandan worker`` processes on PostgreSQL (duplicate.jobs.queue): two workers analyse a
round, every record once, with the values of one process; a worker killed (SIGKILL) in
the middle of a job: the job is queued again once its heartbeat is stale, another worker
runs it, and every record is analysed exactly once with the same values."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from conftest import TEST_DB_ENV, _in_schema, _reset_postgres
from helpers.jobs import EVENT, played_url
from sqlalchemy import Engine, text

from duplicate.analysis.budget import Budget
from duplicate.db import make_engine
from duplicate.jobs import queue
from duplicate.jobs.event import event_jobs
from duplicate.jobs.stored import computed_by, stored_results
from duplicate.jobs.work import compute

pytestmark = pytest.mark.skipif(not os.environ.get(TEST_DB_ENV),
                                reason="needs GUANDAN_TEST_DATABASE_URL")

#: enough work a record (about a second) for a worker to be killed in the middle of one
BUDGET = Budget(nodes=60_000, playouts=6, seed=1)
WAIT = 300.0  # seconds at most for the workers to finish (a guard, not a measure)


@pytest.fixture
def url(request: pytest.FixtureRequest) -> str:
    database: str = request.getfixturevalue("_postgres_database")
    _reset_postgres(database, "analysis_workers")
    return played_url(_in_schema(database, "analysis_workers"), 4, 2)


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    e = make_engine(url)
    yield e
    e.dispose()


def _worker(url: str, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "--db", url, "worker", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _until(check: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting for {what}")
        time.sleep(0.1)


def _doing(engine: Engine) -> int:
    return queue.job_counts(engine).get("doing", 0)


def test_two_workers_analyse_a_round_as_one_process_does(engine: Engine, url: str) -> None:
    queue.ensure_schema(engine)
    jobs = event_jobs(engine, EVENT, BUDGET)
    assert queue.defer(engine, jobs).deferred == len(jobs) == 8
    workers = [_worker(url, "--once"), _worker(url, "--once")]
    try:
        for w in workers:
            assert w.wait(timeout=WAIT) == 0, w.stderr.read() if w.stderr else ""
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
    assert queue.job_counts(engine) == {"succeeded": 8}
    keys = [j.key for j in jobs]
    assert stored_results(engine, keys) == {j.key: compute(j) for j in jobs}
    who = set(computed_by(engine, keys).values())
    assert who <= {f"{os.uname().nodename}:{w.pid}" for w in workers}


def test_a_killed_workers_job_is_retried_and_done_once(engine: Engine, url: str) -> None:
    queue.ensure_schema(engine)
    jobs = event_jobs(engine, EVENT, BUDGET)
    queue.defer(engine, jobs)
    fast = ("--heartbeat", "0.5", "--stalled-after", "3")
    doomed = _worker(url, *fast)
    rescuer = None
    try:
        _until(lambda: _doing(engine) == 1, "the first worker's job")
        with engine.connect() as conn:
            job_id = conn.execute(text(
                "SELECT id FROM procrastinate_jobs WHERE status = 'doing'")).scalar_one()
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(timeout=WAIT)
        with engine.connect() as conn:  # killed mid-job: its job is left running
            assert conn.execute(text("SELECT status FROM procrastinate_jobs WHERE id = :i"),
                                {"i": job_id}).scalar_one() == "doing"
        rescuer = _worker(url, *fast)
        _until(lambda: queue.job_counts(engine) == {"succeeded": 8}, "every job done")
    finally:
        for w in (doomed, rescuer):
            if w is not None and w.poll() is None:
                w.terminate()
                w.wait(timeout=WAIT)
    keys = [j.key for j in jobs]
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM analyses")).scalar_one() == 8
        # the killed job was put back in the queue and started again
        started = conn.execute(text(
            "SELECT COUNT(*) FROM procrastinate_events WHERE job_id = :i AND type = 'started'"),
            {"i": job_id}).scalar_one()
        assert started == 2
    assert stored_results(engine, keys) == {j.key: compute(j) for j in jobs}
