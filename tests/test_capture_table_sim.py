"""``guandan table-sim`` against the hall served on a free port (uvicorn in a thread), on
both databases: a round of two tables whose plays come from the command, through the
device protocol over real HTTP; the round is scored with no report typed, and the
review's comparison of the rooms finds where they played differently."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from helpers.servers import serve_in_thread
from sqlalchemy import Engine, func, select
from test_hall_support import EVENT, make_event, minutes

from cli import main
from duplicate import capture, events, hall, models
from duplicate.events.export import event_report
from duplicate.web.app import create_app
from duplicate.web.settings import Settings


@pytest.fixture
def service(migrated_url: str) -> Iterator[str]:
    app = create_app(Settings(db_url=migrated_url, director_password="p" * 20,
                              secret_key="s" * 40))
    try:
        with serve_in_thread(app) as base:
            yield base
    finally:
        app.state.engine.dispose()


def test_a_round_played_by_table_sim_scores_with_no_report(
    migrated_engine: Engine, service: str
) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    tokens = [c.token for c in capture.issue_recorder_tokens(e, EVENT, 1, "director")]
    # one room's device first (the closed rooms are then played on another run)
    runner = CliRunner()
    first = runner.invoke(main, ["table-sim", service, tokens[0], "--policy", "mixed",
                                 "--resend-every", "4"])
    assert first.exit_code == 0, first.output
    assert "2 boards ended" in first.output and "resent" in first.output
    # the same device again: nothing left to play, nothing stored twice
    with e.connect() as conn:
        stored = conn.execute(select(func.count()).select_from(models.CaptureAction)).scalar()
    again = runner.invoke(main, ["table-sim", service, tokens[0]])
    assert again.exit_code == 0 and "0 boards ended" in again.output
    result = runner.invoke(main, ["table-sim", service, *tokens[1:], "--policy", "mixed"])
    assert result.exit_code == 0, result.output
    with e.connect() as conn:
        assert conn.execute(select(func.count()).select_from(models.HallReport)).scalar() == 0
        assert conn.execute(
            select(func.count()).select_from(models.CaptureAction)).scalar() > stored
    clock = hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    assert clock.phase == "closed"
    scored = events.score_event(e, EVENT, 1)
    assert [len(s.score.boards) for s in scored] == [2, 2]
    # the review compares the rooms of every board and finds where they diverged
    report = event_report(e, EVENT)
    lines = [b for m in report.matches for b in m.boards]
    assert len(lines) == 4 and all(b.comparison is not None for b in lines)
    assert any(b.comparison.divergence is not None for b in lines  # type: ignore[union-attr]
               )


def test_table_sim_says_why_it_stops(service: str) -> None:
    result = CliRunner().invoke(main, ["--lang", "zh", "table-sim", service, "nope"])
    assert result.exit_code == 1
    assert "无效" in result.output


def test_the_director_prints_recorders_cards(migrated_engine: Engine, migrated_url: str) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    args = ["event", "recorder-cards", EVENT, "--round", "1", "--public-url",
            "https://hall.example.org/", "--db", migrated_url]
    out = CliRunner().invoke(main, ["--lang", "zh", *args])
    assert out.exit_code == 0, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 4 and lines[0].startswith("第1桌")
    tokens = [line.rsplit("/api/capture/", 1)[1] for line in lines]
    assert all(f"https://hall.example.org/r/{t}" in line for t, line in zip(tokens, lines,
                                                                          strict=True))
    seen = [(t.table, t.room) for t in (capture.table_capture(e, x) for x in tokens)]
    assert seen == [(1, "open"), (1, "closed"), (2, "open"), (2, "closed")]
    bad = CliRunner().invoke(main, [*args[:-4], "--public-url", "hall", "--db", migrated_url])
    assert bad.exit_code == 2
