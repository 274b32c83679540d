"""The hall service set up through the director's API, for the hall's and the web
service's tests: a round 1 of two tables (four rooms), boards 1 and 2, cards issued, the
clock started (:func:`open_hall`, the fixture ``hall_round``), and what those tests ask of
it (a refused request's error, the store's result of a room, a snapshot of everything a
refusal must leave as it was).

The fixture ``hall_round`` (tests/conftest.py) is :func:`open_hall` on a migrated
database; the rest is imported (``from helpers.hall import Hall, open_hall``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from fastapi.testclient import TestClient
from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.db import make_engine
from duplicate.dealing import seed_file_bytes
from duplicate.sessions import Throttle
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

PASSWORD = "the director's password"
SECRET = "a secret key for the tests, 32+ characters"
BEARER = {"Authorization": f"Bearer {PASSWORD}"}
EVENT = "Hall Cup"
EV = quote(EVENT, safe="")
SEED_FILE = seed_file_bytes(bytes(range(32))).decode("utf-8")
TEAMS = [
    (f"Team {c}", [f"{c}{i} Player" for i in range(1, 5)]) for c in ("A", "B", "C", "D")
]


@dataclass
class Hall:
    """A round 1 of two tables (four rooms), boards 1 and 2, cards issued, clock started."""

    client: TestClient
    engine: Engine
    cards: list[dict[str, Any]]

    def card(self, table: int, room: str) -> dict[str, Any]:
        return next(c for c in self.cards if c["table"] == table and c["room"] == room)

    def token(self, table: int, room: str, role: str) -> str:
        token: str = self.card(table, room)[f"{role}_token"]
        return token

    def report(self, table: int, room: str, board: int, **body: Any) -> Any:
        return self.client.post(
            f"/api/table/{self.token(table, room, 'report')}/reports",
            json={"board": board, **body},
        )

    def confirm(self, table: int, room: str, report_id: int, role: str = "confirm") -> Any:
        token = self.token(table, room, role)
        return self.client.post(f"/api/table/{token}/reports/{report_id}/confirm")

    def director(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.request(method, f"/api/events/{EV}{path}", headers=BEARER, **kwargs)


def make_client(url: str, public_url: str = "https://hall.example.org") -> TestClient:
    # these tests send wrong passwords on purpose, many: the throttle is tested elsewhere
    patient = Throttle(free=10_000, free_all=10_000)
    app = create_app(Settings(url, PASSWORD, SECRET, public_url, throttle=patient))
    return TestClient(app, base_url="https://testserver")  # the desk's cookie is Secure


def setup_round(
    client: TestClient, boards: int = 2, correction_minutes: int = 10, start: bool = True
) -> list[dict[str, Any]]:
    """The event, round 1 paired, boards given, cards issued (and the clock started),
    all through the director's API; the cards."""
    r = client.post("/api/events", headers=BEARER, json={
        "name": EVENT, "format": "rr", "rounds": 3, "boards_per_round": boards,
        "teams": [{"name": t, "players": p} for t, p in TEAMS],
    })
    assert r.status_code == 201, r.text
    r = client.post(f"/api/events/{EV}/rounds", headers=BEARER)
    assert r.status_code == 201, r.text
    r = client.post(f"/api/events/{EV}/rounds/1/boards", headers=BEARER,
                    json={"seed_file": SEED_FILE})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/events/{EV}/rounds/1/cards", headers=BEARER)
    assert r.status_code == 201, r.text
    cards: list[dict[str, Any]] = r.json()
    if start:
        r = client.post(f"/api/events/{EV}/rounds/1/start", headers=BEARER,
                        json={"correction_minutes": correction_minutes})
        assert r.status_code == 200, r.text
    return cards


def open_hall(url: str, correction_minutes: int = 10) -> Iterator[Hall]:
    """A :class:`Hall` on the database ``url`` (a fixture's body: ``yield from``)."""
    engine = make_engine(url)
    try:
        with make_client(url) as client:
            yield Hall(client, engine, setup_round(client, correction_minutes=correction_minutes))
    finally:
        engine.dispose()


def snapshot(engine: Engine) -> Any:
    """Everything a refused request must leave as it was: every room's result, every
    table's board states and live reports, the logs, the rulings, the clock."""
    rows = [
        [r.to_dict() for r in events.match_boards(engine, EVENT, 1, t)] for t in (1, 2)
    ]
    status = [r.to_dict() for r in hall.round_status(engine, EVENT, 1)]
    clock = hall.round_clock(engine, EVENT, 1).to_dict()
    clock.pop("seconds_left")
    return (
        rows, status, clock, events.admin_log(engine, EVENT),
        events.list_corrections(engine, EVENT), [x.to_dict() for x in hall.rulings(engine, EVENT)],
        hall.disputes(engine, EVENT),
    )


def room_result(engine: Engine, table: int, board: int, room: str) -> int | None:
    """The N-S result that counts in the store for a board and room (None: not in)."""
    row = next(r for r in events.match_boards(engine, EVENT, 1, table) if r.board == board)
    return row.open_ns if room == "open" else row.closed_ns


def refused(response: Any, status: int) -> dict[str, Any]:
    """The JSON error of a refused request (its status checked)."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"error", "message"} and body["message"], body
    return body


def finish_round(h: Hall) -> None:
    """Every board of every room reported and confirmed (N-S +1 on each)."""
    for table in (1, 2):
        for room in ("open", "closed"):
            for board in (1, 2):
                r = h.report(table, room, board, finish="N E W")
                assert r.status_code == 201, r.text
                assert h.confirm(table, room, r.json()["id"]).status_code == 200
