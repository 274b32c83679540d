"""The dress rehearsal of plays captured at the table: a round of 16 tables whose every
play comes from ``guandan table-sim`` (the device protocol over HTTP, as electronic tables
would send them), scored and reviewed with no report typed; the public review page of
every board at every table shows the movie of both rooms and where they diverged (the
rooms of a table played by differently seeded bots), and
the live page of every board holds its analysis once computed in the background."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest
from click.testing import CliRunner
from helpers.servers import serve_in_thread
from sqlalchemy import Engine, func, select
from test_hall_support import minutes

from cli import main
from duplicate import capture, events, hall, models
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

EVENT = "Rehearsal Cup"
TABLES = 16
T0 = minutes(0)


@pytest.fixture
def service(migrated_url: str) -> Iterator[str]:
    app = create_app(Settings(db_url=migrated_url, director_password="p" * 20,
                              secret_key="s" * 40))
    try:
        with serve_in_thread(app) as base:
            yield base
    finally:
        app.state.engine.dispose()


def test_a_round_of_16_tables_from_table_sim_is_scored_and_reviewed(
        migrated_engine: Engine, migrated_url: str, service: str) -> None:
    e = migrated_engine
    teams = [(f"Team {i:02d}", [f"P{i:02d}{s}" for s in "NESW"]) for i in range(1, 2 * TABLES + 1)]
    events.create_event(e, EVENT, seed="5eed", fmt="swiss", rounds=3, boards_per_round=1,
                        scale="vp20", teams=teams)
    events.pair_round(e, EVENT)
    events.assign_boards(e, EVENT, 1,
                         seed=parse_seed_file(seed_file_bytes(bytes(range(32)))))
    hall.start_round(e, EVENT, 1, "director", now=T0)
    tokens = [c.token for c in capture.issue_recorder_tokens(e, EVENT, 1, "director")]
    assert len(tokens) == 2 * TABLES
    if migrated_url.startswith("sqlite"):  # one writer at a time: a table after another
        batches = [(tokens[i:i + 2], f"t{i}") for i in range(0, len(tokens), 2)]
    else:  # every table at once, as in the hall
        batches = [(tokens, "table-sim")]
    for batch, seed in batches:
        run = CliRunner().invoke(main, ["table-sim", service, *batch, "--policy", "mixed",
                                        "--seed", seed])
        assert run.exit_code == 0, run.output
    with e.connect() as conn:
        assert conn.execute(select(func.count()).select_from(models.HallReport)).scalar() == 0
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    scored = events.score_event(e, EVENT, 1)
    assert len(scored) == TABLES and all(len(s.score.boards) == 1 for s in scored)
    board = events.get_round(e, EVENT, 1).boards[0]
    ev = quote(EVENT, safe="")
    diverged = 0
    with httpx.Client(base_url=service, timeout=60) as client:
        for table in range(1, TABLES + 1):
            page = client.get(f"/e/{ev}/round/1/board/{board}/table/{table}")
            assert page.status_code == 200, page.text
            data = json.loads(re.search(
                r'<script id="movie-data" type="application/json">(.*?)</script>',
                page.text, re.S).group(1))  # type: ignore[union-attr]
            assert len(data["rooms"]) == 2 and all(r["moves"] for r in data["rooms"])
            assert "divergence" in data
            diverged += data["divergence"] is not None
    assert diverged >= 1  # the bots of the two rooms do not always play alike
    capture.wait_idle()
    with httpx.Client(base_url=service, timeout=60) as client:
        for table in range(1, TABLES + 1):
            live = client.get(f"/e/{ev}/live/round/1/table/{table}/board/{board}")
            assert 'class="analysis"' in live.text, table
