"""``guandan demo --serve``: the newcomer finds the hall alive. Round 1 published, round 2
paired and running, the desk's address and password printed, a page of the demo's table
links (QR codes) written by the demo only, and a board reported from a table link and
confirmed from North's, as a phone would, through the service the command would run.
A one-round demo says "1 round", not "1 rounds".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from cli import main
from duplicate import events, hall
from duplicate.db import make_engine
from duplicate.web.app import create_app
from duplicate.web.settings import Settings


def test_demo_serve_leaves_round_two_running_and_a_phone_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    served: list[tuple[Settings, str, int]] = []

    def run_server(settings: Settings, host: str, port: int, workers: int, level: str) -> None:
        served.append((settings, host, port))  # the service is run below, in the test

    monkeypatch.setattr("duplicate.commands.serve.run_server", run_server)
    result = CliRunner().invoke(main, ["demo", "--serve", "--seed", "2f", "--boards", "4",
                                       "--port", "8765"])
    assert result.exit_code == 0, result.output
    out = result.output
    settings, host, port = served[0]
    assert (host, port) == ("127.0.0.1", 8765)
    password = re.search(r"director's desk: http://127\.0\.0\.1:8765/desk  \(password: (\S+)\)",
                         out)
    assert password is not None and password[1] == settings.director_password
    assert "round 2 is running: http://127.0.0.1:8765/desk/e/" in out
    assert "round 1 closed and published" in out
    tables = tmp_path / "guandan-demo-report" / "tables.html"
    assert f"table links (a QR code per table and seat, scan one with a phone): {tables.as_uri()}" in out
    assert tables.stat().st_mode & 0o077 == 0  # it holds the tokens: its owner's only
    page = tables.read_text(encoding="utf-8")
    assert page.count("<svg") == 8  # 2 tables x 2 rooms x (West, North)
    links = re.findall(r"http://127\.0\.0\.1:8765(/t/[A-Za-z0-9_-]+)", page)
    assert len(set(links)) == 8
    for link in set(links):
        assert link in out  # printed too

    engine = make_engine(settings.db_url)
    try:
        event = events.list_events(engine)[0].name
        assert hall.round_clock(engine, event, 1).phase == "published"
        assert hall.round_clock(engine, event, 2).phase == "running"
        assert len(hall.pending_reports(engine, event, 2)) == 1
        app = create_app(settings)
        with TestClient(app) as phone:
            _newcomer(phone, engine, event, page)
        app.state.engine.dispose()
    finally:
        engine.dispose()


def _newcomer(phone: TestClient, engine: Any, event: str, cards: str) -> None:
    """Table 2's West opens its link, reports a board; North confirms it: it counts."""
    card = re.search(r'<section class="tcard" data-table="2" data-room="open">(.*?)</section>',
                     cards, re.S)
    assert card is not None
    west, north = re.findall(r'<p class="url">[^<]*(/t/[A-Za-z0-9_-]+)</p>', card[1])
    view = phone.get(west)
    assert view.status_code == 200 and "not started" not in view.text.lower()
    board = events.get_round(engine, event, 2).boards[0]
    r = phone.post(f"{west}/report", data={"board": str(board), "first": "E", "second": "W"},
                   follow_redirects=False)
    assert r.status_code == 303, r.text[:500]
    report = next(b.report for room in hall.round_status(engine, event, 2)
                  for b in room.boards
                  if (room.table, room.room, b.board) == (2, "open", board))
    assert report is not None and report.state == "reported"
    r = phone.post(f"{north}/confirm/{report.id}", follow_redirects=False)
    assert r.status_code == 303
    state = next(b for room in hall.round_status(engine, event, 2) for b in room.boards
                 if (room.table, room.room, b.board) == (2, "open", board))
    assert state.state == "confirmed" and state.ns_result == -3  # E W: N-S double down
    assert phone.get(f"/e/{event}/round/2").status_code == 200


def test_a_one_round_demo_says_1_round(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["demo", "--seed", "3f", "--boards", "2"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "guandan-demo-report" / "tables.html").exists()  # demo --serve only
    settings = Settings(db_url=f"sqlite:///{tmp_path}/guandan-demo.sqlite",
                        director_password="p" * 12, secret_key="s" * 40)
    app = create_app(settings)
    with TestClient(app) as c:
        event = c.get("/api/events").json()[0]["name"]
        page = c.get(f"/e/{event}").text
        assert "1 round of 2 boards" in page and "1 rounds" not in page
        c.cookies.set("lang", "zh")
        assert "共1轮，每轮2副" in c.get(f"/e/{event}").text
    app.state.engine.dispose()
