"""An event's analysis as jobs (duplicate.jobs, docs/ANALYSIS.md "Jobs and workers"):
each record stored once under its key, on SQLite by local processes and on PostgreSQL
through procrastinate's queue; the values are those of one process analysing the records
one by one (the report's own way); the report reads them from the database; deferring
twice makes one job; progress counts what is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import TEST_DB_ENV, _in_schema, _reset_postgres
from helpers.jobs import EVENT, played_url
from sqlalchemy import Engine, text

from cli import main
from duplicate.analysis.budget import Budget
from duplicate.db import make_engine
from duplicate.events.site import write_event_site
from duplicate.jobs.event import event_jobs
from duplicate.jobs.local import run_local
from duplicate.jobs.runner import analyse_event
from duplicate.jobs.stored import progress, store_result, stored_results
from duplicate.jobs.work import compute
from duplicate.review import analysis as review_analysis

BUDGET = Budget(nodes=4_000, playouts=2, seed=3)
SMALL = ["--nodes", "4000", "--playouts", "2", "--seed", "3"]

needs_postgres = pytest.mark.skipif(not __import__("os").environ.get(TEST_DB_ENV),
                                    reason="needs GUANDAN_TEST_DATABASE_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database on each backend holding a 4-team event, round 1 of 2 boards played."""
    if request.param == "sqlite":
        return played_url(f"sqlite:///{tmp_path}/jobs.sqlite", 4, 2)
    if not __import__("os").environ.get(TEST_DB_ENV):
        pytest.skip("needs GUANDAN_TEST_DATABASE_URL")
    database: str = request.getfixturevalue("_postgres_database")
    _reset_postgres(database, "analysis_jobs")
    return played_url(_in_schema(database, "analysis_jobs"), 4, 2)


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    e = make_engine(url)
    yield e
    e.dispose()


def _one_by_one(engine: Engine) -> dict[str, dict[str, object]]:
    """Each record's analysis as the report makes it, in this process, one by one."""
    return {job.key: compute(job) for job in event_jobs(engine, EVENT, BUDGET)}


def test_an_event_is_analysed_once_each_record_the_values_of_one_process(engine: Engine) -> None:
    expected = _one_by_one(engine)
    assert len(expected) == 8  # 2 matches x 2 boards x 2 rooms
    outcome = analyse_event(engine, EVENT, BUDGET, processes=2, wait=True)
    assert set(outcome.keys) == set(expected)
    assert stored_results(engine, expected) == expected
    assert progress(engine, EVENT).to_dict() == {"requested": 8, "analysed": 8, "pending": 0}
    again = analyse_event(engine, EVENT, BUDGET, processes=2, wait=True)
    assert (again.computed, again.deferred) == (0, 0)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM analyses")).scalar() == 8


def test_a_second_store_of_a_key_changes_nothing(engine: Engine) -> None:
    job = event_jobs(engine, EVENT, BUDGET)[0]
    data = compute(job)
    assert store_result(engine, job.key, data, "first") is True
    assert store_result(engine, job.key, {"format": 1, "annotation": None}, "second") is False
    assert stored_results(engine, [job.key]) == {job.key: data}


def test_the_report_shows_the_stored_analyses_as_the_folder_report_does(
        engine: Engine, url: str, tmp_path: Path) -> None:
    # the library's own report, analysing in this process into its folder
    write_event_site(engine, EVENT, str(tmp_path / "folder"), analyse=BUDGET, both=True)
    res = CliRunner().invoke(main, ["--db", url, "event", "report", EVENT, "--out",
                                    str(tmp_path / "db"), "--analyse", *SMALL, "--jobs", "2"])
    assert res.exit_code == 0, res.output
    pages = sorted(p.name for p in (tmp_path / "folder").glob("board-*.html"))
    assert pages
    for name in pages:
        assert (tmp_path / "db" / name).read_text("utf-8") == \
            (tmp_path / "folder" / name).read_text("utf-8")
    assert not (tmp_path / "db" / review_analysis.FOLDER).exists()
    stored = {p.stem: json.loads(p.read_text("utf-8"))
              for p in (tmp_path / "folder" / review_analysis.FOLDER).glob("*.json")}
    assert stored_results(engine, stored) == stored


def test_status_says_how_far_the_analysis_is(url: str, engine: Engine) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["--db", url, "event", "status", EVENT, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["analysis"] == {"requested": 0, "analysed": 0, "pending": 0}
    jobs = event_jobs(engine, EVENT, BUDGET)
    analyse_event(engine, EVENT, BUDGET, processes=1, wait=False)
    res = runner.invoke(main, ["--db", url, "event", "status", EVENT, "--json"])
    data = json.loads(res.output)
    if engine.dialect.name == "postgresql":  # queued, not computed: no worker ran
        assert data["analysis"] == {"requested": 8, "analysed": 0, "pending": 8}
        assert data["jobs"] == {"todo": 8}
    else:
        assert data["analysis"] == {"requested": 8, "analysed": 8, "pending": 0}
    run_local(engine, jobs, 1)
    res = runner.invoke(main, ["--lang", "zh", "--db", url, "event", "status", EVENT])
    assert res.exit_code == 0, res.output
    assert "已分析牌谱 8/8 份，待分析 0 份" in res.output


@needs_postgres
@pytest.mark.parametrize("url", ["postgresql"], indirect=True)
def test_deferring_twice_makes_one_job_and_a_worker_runs_it(engine: Engine, url: str) -> None:
    from duplicate.jobs import queue

    queue.ensure_schema(engine)
    jobs = event_jobs(engine, EVENT, BUDGET)
    first = queue.defer(engine, jobs)
    second = queue.defer(engine, jobs)
    assert (first.deferred, second.deferred, second.queued) == (8, 0, 8)
    # a concurrent deferrer that did not see the queue: procrastinate's queueing lock
    app = queue.make_app(engine)
    from procrastinate.exceptions import AlreadyEnqueued

    with app.open(), pytest.raises(AlreadyEnqueued):
        app.tasks[queue.TASK].configure(lock=jobs[0].key, queueing_lock=jobs[0].key) \
            .defer(**jobs[0].to_dict())
    assert queue.job_counts(engine) == {"todo": 8}
    queue.work(engine, once=True)
    assert queue.job_counts(engine) == {"succeeded": 8}
    assert stored_results(engine, [j.key for j in jobs]) == _one_by_one(engine)
    assert queue.defer(engine, jobs).deferred == 0  # analysed: nothing to queue


def test_worker_refuses_sqlite(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["--db", f"sqlite:///{tmp_path}/x.sqlite", "worker", "--once"])
    assert res.exit_code == 1
    assert "needs a PostgreSQL database" in res.output


def test_the_desk_shows_the_analysis_progress(url: str, engine: Engine) -> None:
    from fastapi.testclient import TestClient

    from duplicate.web.app import create_app
    from duplicate.web.settings import Settings

    app = create_app(Settings(db_url=url, director_password="desk-password-42",
                              secret_key="k" * 40))
    try:
        with TestClient(app) as client:
            r = client.post("/desk/login", data={"password": "desk-password-42",
                                                 "next": "/desk"}, follow_redirects=False)
            assert r.status_code == 303, r.text
            page = client.get(f"/desk/e/{EVENT}").text
            assert 'id="analysis-progress"' not in page  # nothing asked for yet
            jobs = event_jobs(engine, EVENT, BUDGET)
            analyse_event(engine, EVENT, BUDGET, processes=1, wait=False)
            run_local(engine, jobs[:3], 1)
            page = client.get(f"/desk/e/{EVENT}").text
            # SQLite computed them all; PostgreSQL queued them and 3 were computed here
            shown = "8 of 8 analysed, 0 pending" if engine.dialect.name == "sqlite" \
                else "3 of 8 analysed, 5 pending"
            assert shown in page
    finally:
        app.state.engine.dispose()


def test_a_job_whose_record_does_not_give_its_key_is_refused(engine: Engine) -> None:
    from dataclasses import replace

    from duplicate.errors import DuplicateError

    job = event_jobs(engine, EVENT, BUDGET)[0]
    with pytest.raises(DuplicateError, match="does not give its own key"):
        compute(replace(job, key="0" * 64))


@needs_postgres
@pytest.mark.parametrize("url", ["postgresql"], indirect=True)
def test_waiting_for_jobs_that_fail_every_try_stops_with_an_error(engine: Engine) -> None:
    from dataclasses import replace

    from duplicate.errors import DuplicateError
    from duplicate.jobs import queue

    queue.ensure_schema(engine)
    bad = replace(event_jobs(engine, EVENT, BUDGET)[0], key="0" * 64)
    queue.defer(engine, [bad])
    with pytest.raises(DuplicateError, match="failed every try"):
        queue.drain(engine, [bad.key], poll=0.2)
    assert queue.job_counts(engine) == {"failed": 1}


@needs_postgres
@pytest.mark.parametrize("url", ["postgresql"], indirect=True)
def test_the_workers_sweep_queues_the_boards_that_end_after_the_request(engine: Engine) -> None:
    from duplicate import events
    from duplicate.dealing import parse_seed_file, seed_file_bytes
    from duplicate.jobs import queue

    analyse_event(engine, EVENT, BUDGET, wait=False)  # round 1 asked for: 8 jobs
    queue.work(engine, once=True)
    assert queue.sweep_once(engine) == 0  # nothing new
    # round 2 is played: its boards end after the request
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, 2, seed=parse_seed_file(seed_file_bytes(bytes(32))))
    events.import_texts(engine, EVENT, events.bot_records(engine, EVENT, 2), round_no=2)
    assert queue.sweep_once(engine) == 8
    assert progress(engine, EVENT).to_dict() == {"requested": 16, "analysed": 8, "pending": 8}
    queue.work(engine, once=True)
    assert progress(engine, EVENT).pending == 0
