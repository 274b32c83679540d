"""``guandan serve`` really serves: a subprocess on 127.0.0.1 and a free port
(2 workers on PostgreSQL when the tests have one, 1 on SQLite) answers, shares the
director's session between its workers, keeps tokens out of its log, and stops when the
test stops it; it refuses to start without a director password or on an old schema.
``guandan event table-cards`` writes cards whose QR codes hold URLs of working tokens.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from helpers.hall import BEARER, EV, EVENT, PASSWORD, SEED_FILE, TEAMS
from helpers.servers import free_port, running

from cli import main
from duplicate import hall
from duplicate.db import make_engine
from duplicate.web.cards import qr_svg


@contextmanager
def served(url: str, workers: int, log: Path, extra: tuple[str, ...] = ()) -> Iterator[str]:
    """``guandan serve`` on ``url`` in a subprocess; its base URL while it runs. Stopped
    (SIGINT, as Ctrl-C) and waited for at the end; its output goes to ``log``."""
    port = free_port()
    with running([sys.executable, "-m", "cli", "--db", url, "serve", "--host", "127.0.0.1",
                  "--port", str(port), "--workers", str(workers), *extra], port, log) as base:
        yield base


def setup_over_http(client: httpx.Client, boards: int = 2) -> list[dict[str, Any]]:
    """The test event's round 1 set up through the live API; its cards."""
    r = client.post("/api/events", headers=BEARER, json={
        "name": EVENT, "format": "rr", "rounds": 3, "boards_per_round": boards,
        "teams": [{"name": t, "players": p} for t, p in TEAMS],
    })
    assert r.status_code == 201, r.text
    assert client.post(f"/api/events/{EV}/rounds", headers=BEARER).status_code == 201
    r = client.post(f"/api/events/{EV}/rounds/1/boards", headers=BEARER,
                    json={"seed_file": SEED_FILE})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/events/{EV}/rounds/1/cards", headers=BEARER)
    assert r.status_code == 201, r.text
    assert client.post(f"/api/events/{EV}/rounds/1/start", headers=BEARER).status_code == 200
    cards: list[dict[str, Any]] = r.json()
    return cards


def test_serve_answers_shares_sessions_and_hides_tokens(
    migrated_url: str, db_backend: str, tmp_path: Path
) -> None:
    workers = 2 if db_backend == "postgresql" else 1
    log = tmp_path / "serve.log"
    with served(migrated_url, workers, log) as base, httpx.Client(base_url=base) as client:
        doc = client.get("/api/openapi.json").json()
        assert "/api/table/{token}/reports" in doc["paths"]
        cards = setup_over_http(client)
        token = cards[0]["report_token"]
        r = client.post(f"/api/table/{token}/reports", json={"board": 1, "finish": "N S"})
        assert r.status_code == 201, r.text
        # the desk's cookie is honoured by every worker (one secret key for all)
        r = client.post("/desk/login", data={"password": PASSWORD}, follow_redirects=False)
        assert r.status_code == 303
        for _ in range(20):
            assert client.get(f"/api/events/{EV}/rounds/1/status").status_code == 200
        assert client.get(f"{base}/").status_code == 200  # the public pages too
    text = log.read_text()
    assert "/api/table/…/reports" in text
    assert all(c["report_token"] not in text and c["confirm_token"] not in text for c in cards)
    assert PASSWORD not in text


def test_serve_refuses_without_a_password(migrated_url: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GUANDAN_DIRECTOR_PASSWORD"}
    r = subprocess.run(
        [sys.executable, "-m", "cli", "--db", migrated_url, "serve", "--port", str(free_port())],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert r.returncode == 2
    assert "--director-password" in r.stderr and "GUANDAN_DIRECTOR_PASSWORD" in r.stderr


def test_serve_refuses_an_unmigrated_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/empty.sqlite"
    r = CliRunner().invoke(main, ["--db", url, "serve", "--director-password", PASSWORD])
    assert r.exit_code == 1
    assert "guandan db upgrade" in r.output
    assert not (tmp_path / "empty.sqlite").exists()


def test_table_cards_hold_qr_codes_of_working_tokens(migrated_url: str, tmp_path: Path) -> None:
    from helpers.hall import make_client, setup_round

    with make_client(migrated_url) as client:
        old = setup_round(client, start=False)
    out = tmp_path / "cards.html"
    r = CliRunner().invoke(main, [
        "event", "table-cards", EVENT, "--round", "1", "--out", str(out),
        "--public-url", "https://hall.example.org/", "--by", "TD Wu", "--db", migrated_url,
    ])
    assert r.exit_code == 0, r.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # it holds the tokens
    html = out.read_text(encoding="utf-8")
    urls = sorted(set(re.findall(r"https://hall\.example\.org/t/[A-Za-z0-9_-]+", html)))
    assert len(urls) == 8  # 2 tables x 2 rooms x (West, North)
    engine = make_engine(migrated_url)
    try:
        roles = []
        for url in urls:
            assert str(qr_svg(url)) in html  # the QR code of exactly that URL
            grant = hall.grant_for(engine, url.rsplit("/", 1)[1])
            assert grant.event == EVENT and grant.round_no == 1
            roles.append((grant.table, grant.room, grant.role))
        assert sorted(roles) == sorted(
            (t, room, role) for t in (1, 2) for room in ("open", "closed")
            for role in ("report", "confirm")
        )
        for card in old:  # the cards issued before are void
            with pytest.raises(hall.HallError):
                hall.grant_for(engine, card["report_token"])
    finally:
        engine.dispose()
    for card in old:
        assert card["report_token"] not in html
    again = CliRunner().invoke(main, [
        "event", "table-cards", EVENT, "--round", "1", "--out", str(out),
        "--public-url", "https://hall.example.org", "--db", migrated_url,
    ])
    assert again.exit_code == 1 and "--force" in again.output


def test_demo_serve_opens_the_demo_in_the_hall(tmp_path: Path) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "cli", "demo", "--serve", "--port", str(port),
           "--db", f"sqlite:///{tmp_path}/demo.sqlite", "--out", str(tmp_path / "report")]
    with running(cmd, port, tmp_path / "demo.log", cwd=tmp_path) as base:
        listed = httpx.get(f"{base}/api/events").json()
        assert len(listed) == 1 and listed[0]["name"].startswith("Demo ")
        name = listed[0]["name"]
        standings = httpx.get(f"{base}/api/events/{name}/standings").json()
        assert {r["team"] for r in standings["rows"]} == {
            "East Lake", "West Hill", "South Gate", "North Bridge"}
        board = httpx.get(f"{base}/api/events/{name}/rounds/1/boards/1")
        assert board.status_code == 200  # every table has played it: released
        clocks = [httpx.get(f"{base}/api/events/{name}/rounds/{n}/clock").json()["phase"]
                  for n in (1, 2)]
        assert clocks == ["published", "running"]  # the hall alive: round 2 is on
    text = (tmp_path / "demo.log").read_text()
    assert f"http://127.0.0.1:{port}/desk" in text and PASSWORD not in text


def test_demo_serve_checks_the_password_before_the_demo_runs(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    result = CliRunner().invoke(main, [
        "demo", "--serve", "--db", f"sqlite:///{db}", "--out", str(tmp_path / "report"),
        "--director-password", "short",
    ])
    assert result.exit_code == 2 and "at least 8 characters" in result.output
    assert not (tmp_path / "report").exists() and not db.exists()  # nothing made first


def test_a_stopped_service_closes_its_database_connections(migrated_url: str) -> None:
    """The service's pool is closed when the application stops (its lifespan's end), not
    when the garbage collector gets to the engine: ten services started and stopped in one
    process leave no connection open behind them."""
    from helpers.hall import make_client
    from sqlalchemy import text

    if not migrated_url.startswith("postgresql"):
        pytest.skip("PostgreSQL counts its connections; SQLite has none to leave open")
    probe = make_engine(migrated_url)
    try:
        def open_now() -> int:
            with probe.connect() as conn:
                return int(conn.execute(text(
                    "select count(*) from pg_stat_activity where datname = current_database()"
                )).scalar_one())

        before = open_now()
        for _ in range(10):
            with make_client(migrated_url) as client:
                assert client.get(f"/api/events/{EV}/standings").status_code in (200, 404)
        assert open_now() == before
    finally:
        probe.dispose()
