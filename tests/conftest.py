"""Shared database fixtures: every database test runs on SQLite, and on PostgreSQL too when
``GUANDAN_TEST_DATABASE_URL`` names a server (``.ci/run`` sets it).

* ``db_url``: the URL of an **empty** database, parametrised over the backends. SQLite is
  a fresh file in the test's temporary directory; PostgreSQL is a database created for the
  test session, its ``public`` schema emptied before each test.
* ``db_engine``: an engine on ``db_url``, disposed after the test.
* ``migrated_url`` / ``migrated_engine``: a database migrated to the newest revision by the
  Alembic migrations (never ``create_all``), with no rows. The migrations run once per
  session: SQLite copies a migrated template file; PostgreSQL keeps a ``migrated`` schema
  beside ``public`` in the session database (connections get it as their search path) and
  truncates its tables before each test (migrating it again if a test left it at another
  revision).
* ``client``: the whole service (``duplicate.web.app.create_app``) on ``migrated_url`` through
  FastAPI's test client, the director's password :data:`DESK_PASSWORD` (the desk's and the
  hall's tests log in with it). A test module may define a ``client`` of its own instead.
* ``hall_round``: a round of the hall set up through the director's API
  (``tests/helpers/hall.py``), on ``migrated_url``.

The PostgreSQL database is uniquely named (process id and a random suffix), so concurrent
runs and xdist workers never collide, and is dropped at the end of the session.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from sqlalchemy import Engine, create_engine, inspect, make_url, text

from duplicate.arena import messages as arena_messages
from duplicate.db import (
    current_revision,
    head_revision,
    make_engine,
    temporary_database,
    upgrade,
)

if TYPE_CHECKING:
    from fastapi.testclient import TestClient
    from helpers.hall import Hall

#: The browser fixtures (Chromium through Playwright): tests/conftest_browser.py.
pytest_plugins = ("conftest_browser",)

#: Environment variable naming the PostgreSQL server for the tests (any database on it).
TEST_DB_ENV = "GUANDAN_TEST_DATABASE_URL"

# In CI (``CI=true``) property tests draw the same examples every run, so a submission is
# judged on its code, not on the luck of a draw; locally they explore new examples each run.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get(TEST_DB_ENV) else [])

#: Test files whose every test is ``slow``: deselected by the developer's fast loop,
#: ``python -m pytest -m "not slow"`` (docs/DESIGN.md, "Developing: the fast test loop"),
#: run by the whole suite and ``.ci/run``. A file belongs here when its tests drive
#: Chromium, serve over real sockets or subprocesses (the hall, the arena's matches and
#: tournaments), race threads or processes, or draw many property examples; a single slow
#: test of another file is named in :data:`SLOW_TESTS`.
SLOW_FILES = frozenset({
    # Chromium
    "test_browser_desk.py", "test_browser_desk_words.py", "test_browser_hall.py", "test_browser_marks.py",
    "test_browser_names.py", "test_browser_phone.py", "test_browser_public_phone.py",
    "test_browser_rehearsal.py", "test_browser_review.py", "test_browser_security.py",
    "test_browser_live.py",
    "test_browser_capture.py", "test_browser_public_standings.py", "test_browser_table_phone.py",
    "test_browser_board_phone.py", "test_browser_accessibility.py", "test_browser_hall_pages.py",
    "test_browser_side_labels.py",
    # the hall served by a subprocess or a thread, killed processes
    "test_web_serve.py", "test_web_hostile.py", "test_web_workers.py",
    "test_web_workers_restart.py", "test_demo_serve.py", "test_demo_then_serve.py",
    "test_memory_bounds.py", "test_migrations_kill.py", "test_store_kills.py",
    "test_capture_kill_worker.py", "test_capture_rehearsal.py",
    # analysis workers in subprocesses on PostgreSQL, one killed
    "test_analysis_workers.py",
    # the arena's matches over sockets, tournaments launching agents
    "test_arena_compat.py", "test_arena_tournament.py", "test_arena_faults.py",
    "test_arena_ordinary.py", "test_arena_bench.py", "test_arena_cli.py",
    "test_arena_outputs.py", "test_zh_arena_words.py",
    # races, whole events end to end, many examples
    "test_hall_concurrency.py", "test_store_concurrency.py", "test_web_concurrency.py",
    "test_event_e2e.py", "test_event_e2e_review.py", "test_review_event.py",
    "test_export_restore.py",
    "test_gdn_fuzz.py", "test_fairness.py", "test_perft.py", "test_hall_invariants.py",
    # the compiled core replaying whole deals against the Python reference
    "test_deal_native.py",
})

#: Single tests that are ``slow`` in files that are not (``file::test``, every parameter):
#: measured at 8 s or more each on a loaded 2-core machine.
SLOW_TESTS = frozenset({
    # an event's report, pages and listings on the 20-VP scale, both languages
    "test_victory_points_shown.py::test_every_page_and_listing_writes_victory_points_alike",
    # whole boards valued by the analysis
    "test_analyse.py::test_values_are_consistent_with_the_result",
    "test_analyse.py::test_rooms_from_divergence",
    "test_analyse.py::test_cli_compare_analyse",
    "test_analyse.py::test_the_global_language_reaches_analyse_and_compare",
    "test_analyse.py::test_cli_analyse",
    "test_analyse.py::test_json_actions_are_type_rank_cards",
    # the compiled core against the Python reference, many deals; memory over 10^6 calls
    "test_core_playout.py::test_native_playouts_equal_the_python_ones",
    "test_core_playout.py::test_whole_deals_and_every_point_of_them",
    "test_core_playout.py::test_memory_stays_flat",
    # two interpreters (GUANDAN_CORE=python and native), each searching twelve views
    "test_core_playout.py::test_the_search_decides_alike_on_either_core",
    "test_core_solver.py::test_values_agree",
    "test_core_solver.py::test_values_agree_when_following",
    "test_core_boundary.py::test_garbage_raises_never_crashes",
    "test_core_boundary.py::test_memory_stays_flat_over_a_million_calls",
    "test_core_fallback.py::test_a_build_without_a_compiler_succeeds_and_says_so",
    # an event's analysis as jobs: the service's desk, a second round swept, two reports
    "test_analysis_jobs.py::test_the_desk_shows_the_analysis_progress",
    "test_analysis_jobs.py::test_the_workers_sweep_queues_the_boards_that_end_after_the_request",
    "test_analysis_jobs.py::test_the_report_shows_the_stored_analyses_as_the_folder_report_does",
    # a match of our agent over the protocol; a whole event through the command line
    "test_arena.py::test_guandan_agent_plays_a_match",
    "test_cli_deals.py::test_whole_flow",
    # sweeps of the hall's refusals, each case a round set up through the API
    "test_hall_rulings.py::test_bad_rulings_are_refused_and_change_nothing",
    "test_hall_rulings.py::test_forfeit_scores_the_scale_maximum",
    "test_hall_director_limit.py::test_a_late_teams_ruling_past_the_limit_takes_the_chief_field",
    "test_hall_clock_limits.py::test_the_library_refuses_one_minute_more",
    "test_hall_i18n.py::test_bad_finishing_orders_in_both_languages",
    # a 50 MB import watched for memory; the solver against brute force on every variant
    "test_import_stream.py::test_import_memory_does_not_grow_with_the_file",
    "test_solver.py::test_exact_against_brute_force",
    # devices and table-sim playing whole boards into a served hall
    "test_capture_protocol.py::test_a_device_plays_a_board_with_resends_and_a_reconnect",
    "test_capture_protocol.py::test_a_device_over_the_websocket_resends_and_reconnects",
    "test_capture_library.py::test_the_record_is_the_result_and_the_round_scores",
    "test_capture_table_sim.py::test_a_round_played_by_table_sim_scores_with_no_report",
    # the desk's limits and requests, each a round set up through the API
    "test_web_desk_actions.py::test_past_the_directors_limit_only_the_chief_director_changes_a_result",
    "test_web_desk_actions.py::test_a_tables_request_accepted_or_dismissed_from_the_desk",
    "test_web_desk_actions.py::test_the_directors_limit_set_from_the_event_desk",
    "test_web_desk_actions.py::test_a_late_teams_ruling_past_the_limit_from_the_desk_takes_the_chief_box",
    "test_hall_rulings_and_corrections.py::test_a_late_ruling_takes_no_typed_minutes_and_logs_the_clocks",
    # a wheel built without a compiler; the fast replay against the reference, many records
    "test_core_fallback.py::test_a_build_without_a_compiler_says_so_once",
    "test_replay_fast.py::test_mutated_records_report_as_the_reference",
    "test_replay_fast.py::test_quick_replay_gives_what_replay_gives",
    # every page and message rendered; whole arena matches and boards in Chinese
    "test_i18n_words.py::test_every_place_was_rendered",
    "test_zh_rest.py::test_arena_duplicate_speaks_chinese_only",
    "test_migrations.py::test_every_step_down_and_up_again",
    "test_cli_hints.py::test_no_library_message_names_a_flag_or_a_command",
})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of :data:`SLOW_FILES` and :data:`SLOW_TESTS` ``slow``."""
    for item in items:
        test = f"{item.path.name}::{item.originalname if isinstance(item, pytest.Function) else item.name}"
        if item.path.name in SLOW_FILES or test in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _arena_speaks_english() -> Iterator[None]:
    """The arena's human lines are in a process-wide language that a command run in Chinese
    sets (``duplicate.arena.messages.use_language``): each test starts in English, whatever
    test ran before it in the same process."""
    arena_messages.use_language("en")
    yield
    arena_messages.use_language("en")


@pytest.fixture(scope="session")
def _postgres_database() -> Iterator[str]:
    """A fresh, uniquely named PostgreSQL database for this session, dropped at the end."""
    with temporary_database(os.environ[TEST_DB_ENV], prefix="guandan_test") as url:
        yield url


def _in_schema(url: str, schema: str) -> str:
    """``url`` with every connection's search path set to ``schema`` (created if missing)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    finally:
        engine.dispose()
    with_path = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return with_path.render_as_string(hide_password=False)


def _reset_postgres(url: str, schema: str) -> None:
    """Empty ``schema`` of the PostgreSQL database at ``url`` (tables, types, sequences)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the newest revision once, copied by each test."""
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    return path


@pytest.fixture(params=BACKENDS)
def db_backend(request: pytest.FixtureRequest) -> str:
    """The database backend of this test: ``sqlite`` or ``postgresql``."""
    backend: str = request.param
    return backend


@pytest.fixture
def db_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database on each configured backend."""
    if db_backend == "sqlite":
        return f"sqlite:///{tmp_path}/test.sqlite"
    url: str = request.getfixturevalue("_postgres_database")
    _reset_postgres(url, "public")
    return url


@pytest.fixture
def db_engine(db_url: str) -> Iterator[Engine]:
    """An engine on the empty database ``db_url``."""
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def migrated_url(db_backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a database at the newest revision, with no rows."""
    if db_backend == "sqlite":
        path = tmp_path / "migrated.sqlite"
        shutil.copyfile(request.getfixturevalue("_sqlite_template"), path)
        return f"sqlite:///{path}"
    database: str = request.getfixturevalue("_postgres_database")
    url = _in_schema(database, "migrated")
    engine = make_engine(url)
    try:
        if current_revision(engine) != head_revision():
            _reset_postgres(database, "migrated")
            upgrade(engine)
        tables = [t for t in inspect(engine).get_table_names() if t != "alembic_version"]
        if tables:
            with engine.begin() as conn:
                names = ", ".join(f'"{t}"' for t in tables)
                conn.execute(text(f"TRUNCATE TABLE {names} RESTART IDENTITY CASCADE"))
    finally:
        engine.dispose()
    return url


@pytest.fixture
def migrated_engine(migrated_url: str) -> Iterator[Engine]:
    """An engine on the migrated database ``migrated_url``."""
    engine = make_engine(migrated_url)
    yield engine
    engine.dispose()


#: The director's password of the service the ``client`` fixture serves.
DESK_PASSWORD = "desk-password-42"


@pytest.fixture
def client(migrated_url: str) -> Iterator[TestClient]:
    """The whole service on the migrated database ``migrated_url`` through FastAPI's test
    client (its lifespan run), the director's password :data:`DESK_PASSWORD`; the
    service's engine disposed after."""
    from fastapi.testclient import TestClient

    from duplicate.web.app import create_app
    from duplicate.web.settings import Settings

    settings = Settings(db_url=migrated_url, director_password=DESK_PASSWORD,
                        secret_key="k" * 40)
    app = create_app(settings)
    with TestClient(app) as c:
        yield c
    app.state.engine.dispose()


@pytest.fixture
def hall_round(migrated_url: str) -> Iterator[Hall]:
    """A round of the hall set up through the director's API on a migrated database
    (``helpers.hall.open_hall``: two tables, boards 1 and 2, cards issued, clock started)."""
    # lazy: start-up speed (a session without the hall's tests does not import the service)
    from helpers.hall import open_hall

    yield from open_hall(migrated_url)
