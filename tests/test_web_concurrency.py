"""Concurrency on PostgreSQL: ``guandan serve`` with 2 workers; the same board
reported from two phones at once, two different reports of a board at once, and North's
confirmation racing the director's correction, on every board of every room: nothing
lost, nothing duplicated, the log complete.

PostgreSQL only (``GUANDAN_TEST_DATABASE_URL``; ``.ci/run`` sets it): SQLite serialises
writers, which is not the race under test.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers.hall import BEARER, EV, EVENT
from test_web_serve import served, setup_over_http

from duplicate import events, hall
from duplicate.db import make_engine

pytestmark = pytest.mark.skipif(
    not os.environ.get("GUANDAN_TEST_DATABASE_URL"),
    reason="PostgreSQL only: set GUANDAN_TEST_DATABASE_URL (.ci/run does)",
)

BOARDS = 8
ROOMS = [(t, room) for t in (1, 2) for room in ("open", "closed")]


def at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Run the calls in threads released together (a barrier); their answers in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], httpx.Response]) -> httpx.Response:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.mark.parametrize("db_backend", ["postgresql"])  # the fixture's backend: PG only
def test_races_lose_nothing_and_duplicate_nothing(migrated_url: str, tmp_path: Path) -> None:
    with served(migrated_url, 2, tmp_path / "serve.log") as base:
        # one connection pool per phone: the two requests of a race go out on their own
        phones = [httpx.Client(base_url=base, timeout=30) for _ in range(3)]
        try:
            run_races(phones, migrated_url)
        finally:
            for p in phones:
                p.close()


def run_races(phones: list[httpx.Client], url: str) -> None:
    west_a, west_b, desk = phones
    cards = {(c["table"], c["room"]): c for c in setup_over_http(desk, boards=BOARDS)}

    def report(phone: httpx.Client, table: int, room: str, board: int, **body: Any) -> Any:
        token = cards[(table, room)]["report_token"]
        return lambda: phone.post(f"/api/table/{token}/reports", json={"board": board, **body})

    live: dict[tuple[int, str, int], dict[str, Any]] = {}
    # 1. the same report from two phones at once: stored once, both told so
    took: list[float] = []  # how long a race of two reports takes here, now
    for table, room in ROOMS[:2]:
        for board in range(1, BOARDS + 1):
            started = time.monotonic()
            a, b = at_once(report(west_a, table, room, board, finish="N E S"),
                           report(west_b, table, room, board, finish="N E S"))
            assert sorted((a.status_code, b.status_code)) == [200, 201], (a.text, b.text)
            assert a.json()["id"] == b.json()["id"]
            took.append(time.monotonic() - started)
            live[(table, room, board)] = a.json()
    # 2. two different reports at once: one stored, the other refused (never merged)
    for table, room in ROOMS[2:]:
        for board in range(1, BOARDS + 1):
            a, b = at_once(report(west_a, table, room, board, finish="N S"),
                           report(west_b, table, room, board, finish="E W"))
            assert sorted((a.status_code, b.status_code)) == [201, 409], (a.text, b.text)
            winner = a if a.status_code == 201 else b
            live[(table, room, board)] = winner.json()
    # 3. North confirms while the director corrects the same board and room (boards 1-4),
    # or while West sends a correction (boards 5-8). The other side sets off 0 to 1.5
    # times a report's round trip later (measured above: the machine may be busy), so
    # that either may come first.
    step = 0.5 * sorted(took)[len(took) // 2]
    outcomes: dict[tuple[int, str, int], tuple[int, int]] = {}
    for i, ((table, room, board), rep) in enumerate(sorted(live.items())):
        delay = ((board + i // BOARDS) % 4) * step  # every step in each half
        confirm_token = cards[(table, room)]["confirm_token"]
        report_token = cards[(table, room)]["report_token"]

        def north(t: str = confirm_token, r: dict[str, Any] = rep) -> Any:
            return west_a.post(f"/api/table/{t}/reports/{r['id']}/confirm")

        def director(t: int = table, r: str = room, b: int = board, d: float = delay) -> Any:
            time.sleep(d)
            return desk.post(f"/api/events/{EV}/rounds/1/corrections", headers=BEARER, json={
                "table": t, "board": b, "room": r, "ns_result": -1, "reason": f"race {t}{r}{b}",
            })

        def west(t: str = report_token, b: int = board, d: float = delay) -> Any:
            time.sleep(d)
            return west_b.post(f"/api/table/{t}/reports", json={
                "board": b, "finish": "W N E", "correction": "tapped the wrong seats",
            })

        confirm, other = at_once(north, director if board <= BOARDS // 2 else west)
        assert confirm.status_code in (200, 404, 409), confirm.text
        assert other.status_code in (200, 201), other.text
        outcomes[(table, room, board)] = (confirm.status_code, other.status_code)
    # both orders happened, against the director and against West
    for half in (range(1, BOARDS // 2 + 1), range(BOARDS // 2 + 1, BOARDS + 1)):
        seen = {c == 200 for (_, _, b), (c, _) in outcomes.items() if b in half}
        assert seen == {True, False}, outcomes
    check_store(url, live, outcomes)


def check_store(
    url: str,
    live: dict[tuple[int, str, int], dict[str, Any]],
    outcomes: dict[tuple[int, str, int], tuple[int, int]],
) -> None:
    """Every board and room (read from the server's database): each change in the log
    once, who made it, and the result that counts being the log's last word; West's
    correction waiting for North as the one live report."""
    engine = make_engine(url)
    try:
        status = {(r.table, r.room): r for r in hall.round_status(engine, EVENT, 1)}
        corrections = events.list_corrections(engine, EVENT)
        for (table, room, board), rep in live.items():
            history = events.room_history(engine, EVENT, 1, table, board, room)
            actions = [(c.by, c.reason, c.new.ns_result) for c in history]
            confirmed = outcomes[(table, room, board)][0] == 200
            by_table = [c for c in history if c.by != "director"]
            by_director = [c for c in history if c.by == "director"]
            # North's confirmation wrote West's result once, first; never when refused
            assert len(by_table) == (1 if confirmed else 0), actions
            if confirmed:
                assert history[0] is by_table[0] and history[0].new.ns_result == rep["ns_result"]
            row = next(r for r in events.match_boards(engine, EVENT, 1, table) if r.board == board)
            counted = row.open_ns if room == "open" else row.closed_ns
            live_report = next(b for b in status[(table, room)].boards if b.board == board).report
            listed = [c for c in corrections
                      if (c["table"], c["board"], c["room"]) == (table, board, room)]
            if board <= BOARDS // 2:  # the director's correction: once, and it stands
                assert len(by_director) == 1 and len(listed) == 1, actions
                assert history[-1] is by_director[0] and counted == -1, actions
            else:  # West's correction: the one live report, waiting for North
                assert by_director == [] and listed == [], actions
                assert live_report is not None and live_report.id != rep["id"]
                assert live_report.state == "reported" and live_report.ns_result == -2
                assert counted == (rep["ns_result"] if confirmed else None), actions
            if history:
                assert counted == history[-1].new.ns_result, actions
    finally:
        engine.dispose()
