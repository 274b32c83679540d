"""The hall's public round page of a round run without the hall (from the command line:
boards played by the bots, the round scored, no clock ever started): it tells the round
as published (公示), never "not started", lists each match's result (margin and match
points, as ``guandan event score`` gives them), links every board and no longer says the
boards are withheld; a round the hall is still running says it is running and shows no
results."""

from __future__ import annotations

import html
from urllib.parse import quote

import pytest
from test_web_pages import app_client, setup_round

from duplicate import events, hall
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.i18n import translator
from duplicate.i18n.game import points_text

CUP = "Command Cup"


def _run_from_the_command_line(url: str) -> None:
    engine = make_engine(url)
    try:
        events.create_event(engine, CUP, seed="5eed", fmt="rr", rounds=3, boards_per_round=2,
                            teams=[(f"Team {c}", [f"{c}{i}" for i in range(1, 5)])
                                   for c in "ABCD"])
        events.pair_round(engine, CUP)
        events.assign_boards(engine, CUP, 1, seed=parse_seed_file(seed_file_bytes(bytes(range(32)))))
        events.play_bots(engine, CUP, 1)
        events.score_event(engine, CUP, 1)
    finally:
        engine.dispose()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_round_scored_from_the_command_line_is_published_with_its_results(
    migrated_url: str, lang: str
) -> None:
    _run_from_the_command_line(migrated_url)
    engine = make_engine(migrated_url)
    try:
        clock = hall.public_clock(engine, CUP, 1)
        assert clock.phase == "published" and clock.published_at is not None
        assert hall.round_clock(engine, CUP, 1).phase == "not_started"  # the desk's clock
        scored = events.score_event(engine, CUP, 1)
        rnd = events.get_round(engine, CUP, 1)
    finally:
        engine.dispose()
    t = translator(lang)
    with app_client(migrated_url) as client:
        page = html.unescape(client.get(f"/e/{quote(CUP)}/round/1?lang={lang}").text)
    assert t("web.clock.published") in page
    assert t("web.clock.not_started") not in page
    assert t("web.public.boards_help") not in page  # every board is there to open
    for b in rnd.boards:
        assert f"/round/1/board/{b}\"" in page
    assert t("web.public.round_results") in page
    results = page.split('id="results"', 1)[1].split("</ul>", 1)[0]
    for s in scored:
        line = results.split(f'<li data-table="{s.info.table}">', 1)[1].split("</li>", 1)[0]
        assert f"{s.info.team_x} – {s.info.team_y}" in line
        margin = f"{s.score.margin:+d}" if s.score.margin else "0"
        assert f'<b class="margin">{margin}</b>' in line
        assert s.score.points_x is not None and s.score.points_y is not None
        assert t("web.public.match_points", x=points_text(s.score.points_x),
                 y=points_text(s.score.points_y)) in line


def test_a_round_the_hall_runs_shows_no_results_yet(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        rnd = setup_round(engine)
        assert hall.public_clock(engine, rnd.event, 1).phase == "running"
    finally:
        engine.dispose()
    with app_client(migrated_url) as client:
        page = client.get(f"/e/{quote(rnd.event)}/round/1?lang=en").text
    assert 'id="results"' not in page
    assert html.escape(translator("en")("web.public.boards_help")) in page
