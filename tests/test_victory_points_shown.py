"""Victory points are written one way wherever a person reads them: two decimals, as the
WBF writes them (``7.20–12.80``, ``11.48``, ``10.00–10.00``, a bye's ``12.50``), on the
report, the desk's and the public standings, the public round page and the command line's
listings, in both languages; match points (2/1/0) stay as they are (``2``, ``1``); JSON
keeps numbers as numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from conftest import DESK_PASSWORD
from fastapi.testclient import TestClient

from cli import main
from duplicate import events
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.i18n.game import points_text

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
EV = "VP Cup"
TEAMS = [(f"Team {c}", [f"{c}{i}" for i in range(1, 5)]) for c in "ABC"]


def test_points_text_writes_victory_points_with_two_decimals() -> None:
    assert [points_text(v, vp=True) for v in (7.2, 12.8, 11.48, 10, 20.0, 0, -0.0, 12.5)] == [
        "7.20", "12.80", "11.48", "10.00", "20.00", "0.00", "0.00", "12.50"]
    assert [points_text(v) for v in (2.0, 1, 0.0, 12.5)] == ["2", "1", "0", "12.5"]
    assert points_text(None, vp=True) == ""


@pytest.fixture
def vp_event(client: TestClient) -> TestClient:
    """Three teams on the 20-VP scale, a bye worth 12.5, round 1 played by the bots."""
    engine = client.app.state.engine  # type: ignore[attr-defined]
    events.create_event(engine, EV, seed="5eed" * 4, rounds=2, boards_per_round=2,
                        scale="vp20", bye_points=12.5, teams=TEAMS)
    events.pair_round(engine, EV)
    events.assign_boards(engine, EV, 1, seed=SEED)
    events.play_bots(engine, EV, 1)
    return client


def _numbers(text: str) -> list[str]:
    """Every decimal number of a text."""
    return re.findall(r"(?<![\d.])\d+\.\d+(?![\d.])", text)


def test_every_page_and_listing_writes_victory_points_alike(
    vp_event: TestClient, tmp_path: Path
) -> None:
    client = vp_event
    engine = client.app.state.engine  # type: ignore[attr-defined]
    url = str(engine.url.render_as_string(hide_password=False))
    [bye] = events.round_byes(engine, EV, 1)
    [match] = events.score_event(engine, EV, 1)
    shown = [points_text(p, vp=True)
             for p in (match.score.points_x, match.score.points_y, bye.points)]
    assert shown[2] == "12.50"

    # the report, both languages: the match's VP, the bye's, the standings
    for lang in ("en", "zh"):
        out = tmp_path / lang
        res = CliRunner().invoke(main, ["--lang", lang, "event", "--db", url, "report", EV,
                                        "--out", str(out), "--lang", lang])
        assert res.exit_code == 0, res.output
        text = (out / "index.html").read_text(encoding="utf-8")
        assert f"{shown[0]}–{shown[1]}" in text, text
        assert "12.50" in text
        cross = (out / "crosstable.html").read_text(encoding="utf-8")
        assert "12.50" in cross and shown[0] in cross
        for page in (text, cross):
            assert all(len(n.split(".")[1]) == 2 for n in _numbers(
                re.sub(r"<(style|script)[^>]*>.*?</\1>", "", page, flags=re.S))), page

    # the public standings and round page, the desk's standings
    standings = client.get(f"/e/{quote(EV)}").text
    assert re.search(r'data-team="' + re.escape(bye.team) + r'">.*?<td class="num">12\.50</td>',
                     standings), standings
    assert 'data-vp="true"' in standings  # standings.js redraws them alike
    rnd = client.get(f"/e/{quote(EV)}/round/1").text
    assert "12.50" in rnd
    r = client.post("/desk/login", data={"password": DESK_PASSWORD, "next": "/desk"},
                    follow_redirects=False)
    assert r.status_code == 303
    desk = client.get(f"/desk/e/{quote(EV)}/standings").text
    assert '<td class="num">12.50</td>' in desk, desk

    # the command line: tables in both languages; JSON numbers as they are
    runner = CliRunner()
    for lang in ("en", "zh"):
        for cmd in ("standings", "score"):
            res = runner.invoke(main, ["--lang", lang, "event", "--db", url, cmd, EV])
            assert res.exit_code == 0, res.output
            assert "12.50" in res.output and shown[0] in res.output, res.output
    res = runner.invoke(main, ["event", "--db", url, "standings", EV, "--json"])
    rows = json.loads(res.output)
    assert {r["team"]: r["points"] for r in rows}[bye.team] == 12.5


def test_match_points_stay_whole_numbers(client: TestClient) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    events.create_event(engine, EV, seed="5eed" * 4, rounds=2, boards_per_round=2,
                        scale="wdl", teams=TEAMS)
    events.pair_round(engine, EV)
    events.assign_boards(engine, EV, 1, seed=SEED)
    events.play_bots(engine, EV, 1)
    page = client.get(f"/e/{quote(EV)}").text
    cells = re.findall(r'<td class="num">([\d.]+)</td>', page)
    assert cells and not any("." in c for c in cells), cells
