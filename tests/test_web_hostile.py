"""Hostile input against the hall service.

* HTML and JavaScript in every field people type (event, team, player, dispute note,
  ruling reason, settlement reason, unfinished reason, a language, a token, an unknown
  event) end up escaped on every page: the public pages, West's and North's table pages,
  the director's desk. Each field is shown somewhere (its marker is on a page), never as
  markup (no raw payload, no event-handler attribute or ``javascript:`` URL or script the
  payload made, read by an HTML parser).
* Oversized bodies are refused with 413 before they are read (an ASGI call whose body may
  not be read), chunked ones as soon as they pass the limit, a play record over 256 KiB
  too; nothing is stored.
* Path traversal on ``/static`` and event names holding ``/``, ``..``, ``%2e`` are refused
  or harmless (no file outside the static folders, no server error, other events intact).
* SQL injection strings in every parameter are stored literally or refused, on SQLite and
  PostgreSQL; every table is still there afterwards.
* Table tokens are stored hashed (the plaintext is in no row), compared with
  ``hmac.compare_digest`` on their hash (spied), the director's password likewise; neither
  ever appears in the log of a real ``guandan serve`` (its access log is read).
* The benchmark's result counting (``bench/bench_hall.py``) finds lost, wrong, duplicated
  and unexpected results; its ``--quick`` run finds none (PostgreSQL only).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from helpers.servers import free_port, running
from sqlalchemy import MetaData, inspect, select

from duplicate import db, events, hall
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.web.app import create_app
from duplicate.web.settings import MAX_BODY, MAX_RECORD, Settings

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "hostile-director-password"
SECRET = "hostile-secret-key-0123456789"
BEARER = {"Authorization": f"Bearer {PASSWORD}"}
SEED_HEX = "ab" * 32
SEED_TEXT = seed_file_bytes(bytes.fromhex(SEED_HEX)).decode("ascii")

#: One payload a field; each holds a marker ``xss-…`` that the page must show as text.
#: The event's has no ``/`` (a name in a path cannot hold one: see the traversal tests).
XSS = {
    "event": "<img src=x onerror=alert(\"xss-event\")>'\"",
    "team": "'\"><img src=x onerror=alert(\"xss-team\")>",
    "team2": "<svg onload=alert(\"xss-teamtwo\")>",
    "player": "<script>alert(\"xss-player\")</script>",
    "note": "</textarea><script>alert(\"xss-note\")</script>",
    "ruling": "<iframe src=\"javascript:alert('xss-ruling')\"></iframe>",
    "settle": "<body onload=alert(\"xss-settle\")>",
    "unfinished": "\"><a href=\"javascript:alert('xss-unfinished')\">x</a>",
}
#: The fields that must be shown on at least one page (a ruling's reason may stay on the
#: desk, a settlement's in the log: they are checked for escaping wherever they appear).
SHOWN = ("event", "team", "team2", "player", "note", "ruling", "unfinished")

SQLI = [
    "x'; DROP TABLE events; --",
    "' OR '1'='1",
    "1; DELETE FROM event_teams",
    "\") OR 1=1 --",
    "%' OR 1=1 --",
    "Robert'); DROP TABLE room_results;--",
]


# --- helpers ------------------------------------------------------------------------------


def settings(url: str) -> Settings:
    return Settings(db_url=url, director_password=PASSWORD, secret_key=SECRET)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/hall.sqlite"
    engine = db.make_engine(url)
    try:
        db.upgrade(engine)
    finally:
        engine.dispose()
    return url


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(settings(sqlite_url)), raise_server_exceptions=False) as c:
        yield c


def q(text: str) -> str:
    """A path segment."""
    return quote(text, safe="")


def team_names(base: str, n: int) -> list[str]:
    return [base] + [f"Team {i}" for i in range(2, n + 1)]


def make_event(
    c: TestClient, name: str, teams: list[str], players: Callable[[str, int], str] | None = None
) -> list[dict[str, Any]]:
    """Through the director's API: the event, its teams, round 1 paired, its boards, its
    cards (returned), the clock started."""
    who = players or (lambda team, i: f"{team[:20]} p{i}")
    body = {
        "name": name, "rounds": 2, "boards_per_round": 4, "seed": "ab12",
        "teams": [{"name": t, "players": [who(t, i) for i in range(1, 5)]} for t in teams],
    }
    r = c.post("/api/events", headers=BEARER, json=body)
    assert r.status_code == 201, r.text
    ev = q(name)
    r = c.post(f"/api/events/{ev}/rounds", headers=BEARER)
    assert r.status_code == 201, r.text
    r = c.post(f"/api/events/{ev}/rounds/1/boards", headers=BEARER, json={"seed_file": SEED_TEXT})
    assert r.status_code == 200, r.text
    r = c.post(f"/api/events/{ev}/rounds/1/cards", headers=BEARER)
    assert r.status_code == 201, r.text
    cards: list[dict[str, Any]] = r.json()
    r = c.post(f"/api/events/{ev}/rounds/1/start", headers=BEARER)
    assert r.status_code == 200, r.text
    return cards


def card_of(cards: list[dict[str, Any]], table: int, room: str) -> dict[str, Any]:
    return next(c for c in cards if c["table"] == table and c["room"] == room)


def login(c: TestClient) -> None:
    r = c.post("/desk/login", data={"password": PASSWORD}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert "guandan_desk" in c.cookies


class _Scan(HTMLParser):
    """Markup a payload made: an ``on…`` attribute, a ``javascript:`` URL or a script
    holding a marker."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._script = tag == "script"
        for name, value in attrs:
            v = (value or "").lower()
            if "xss" in v and (name.startswith("on") or v.strip().startswith("javascript:")):
                self.found.append(f"<{tag} {name}={value!r}>")
            if name.startswith("on") and "xss" in name:
                self.found.append(f"<{tag} {name}>")

    def handle_endtag(self, tag: str) -> None:
        self._script = False

    def handle_data(self, data: str) -> None:
        if self._script and 'alert("xss' in data:
            self.found.append(f"<script>{data[:80]}")


def assert_escaped(path: str, body: str, payloads: dict[str, str] = XSS) -> None:
    """No payload raw in ``body``, no markup made of one."""
    for field, payload in payloads.items():
        assert payload not in body, f"{path}: the {field} payload is in the page unescaped"
    scan = _Scan()
    scan.feed(body)
    assert not scan.found, f"{path}: markup made of input: {scan.found}"


# --- escaping on every page ---------------------------------------------------------------


def hostile_hall(c: TestClient) -> tuple[str, list[dict[str, Any]]]:
    """An event whose every name is a payload, with a dispute, an unfinished board, a
    ruling and a settled dispute in round 1."""
    teams = [XSS["team"], XSS["team2"], "Plain Three", "Plain Four"]
    cards = make_event(
        c, XSS["event"], teams,
        players=lambda t, i: XSS["player"] if (t, i) == (XSS["team"], 1) else f"{t[:12]} p{i}",
    )
    ev = q(XSS["event"])
    mine = next(c["table"] for c in cards if XSS["team"] in (c["team_ns"], c["team_ew"]))
    other_table = next(c["table"] for c in cards if c["table"] != mine)
    west = north = card_of(cards, mine, "open")  # one card: West's token and North's
    # board 1: reported, disputed with the note (left open: the desk lists it)
    r = c.post(f"/api/table/{west['report_token']}/reports", json={"board": 1, "finish": "N S E"})
    assert r.status_code == 201, r.text
    r = c.post(f"/api/table/{north['confirm_token']}/reports/{r.json()['id']}/dispute",
               json={"note": XSS["note"]})
    assert r.status_code == 200, r.text
    # board 2: unfinished, with the reason
    r = c.post(f"/api/table/{west['report_token']}/reports",
               json={"board": 2, "unfinished": XSS["unfinished"]})
    assert r.status_code == 201, r.text
    # the other table's closed room, board 1: disputed, then settled with a reason
    other = card_of(cards, other_table, "closed")
    r = c.post(f"/api/table/{other['report_token']}/reports", json={"board": 1, "finish": "E W"})
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    r = c.post(f"/api/table/{other['confirm_token']}/reports/{rid}/dispute", json={"note": "x"})
    assert r.status_code == 200, r.text
    r = c.post(f"/api/events/{ev}/disputes/{rid}/settle", headers=BEARER,
               json={"reason": XSS["settle"], "finish": "E W"})
    assert r.status_code == 200, r.text
    # a warning with the reason; a check-in
    r = c.post(f"/api/events/{ev}/rounds/1/rulings", headers=BEARER, json={
        "table": mine, "category": "warning", "effect": "none", "reason": XSS["ruling"],
        "team": XSS["team"]})
    assert r.status_code == 201, r.text
    r = c.post(f"/api/events/{ev}/rounds/1/checkins", headers=BEARER, json={"team": XSS["team"]})
    assert r.status_code == 200, r.text
    return ev, cards


def test_names_escaped_on_every_page(client: TestClient) -> None:
    ev, cards = hostile_hall(client)
    mine = next(c["table"] for c in cards if XSS["team"] in (c["team_ns"], c["team_ew"]))
    west = north = card_of(cards, mine, "open")
    public = [
        "/", f"/e/{ev}", f"/e/{ev}/round/1", f"/e/{ev}/round/1/table/1",
        f"/e/{ev}/round/1/table/2",
    ]
    table = [f"/t/{west['report_token']}", f"/t/{north['confirm_token']}",
             f"/t/{card_of(cards, 3 - mine, 'closed')['confirm_token']}"]
    desk = ["/desk", f"/desk/e/{ev}", f"/desk/e/{ev}/round/1", f"/desk/e/{ev}/round/1/cards"]
    shown: dict[str, list[str]] = {f: [] for f in XSS}

    def visit(path: str, ok: tuple[int, ...] = (200,)) -> None:
        r = client.get(path)
        assert r.status_code in ok, f"{path}: {r.status_code} {r.text[:300]}"
        assert r.headers["content-type"].startswith("text/html"), path
        assert_escaped(path, r.text)
        for field, payload in XSS.items():
            marker = payload.split("xss-")[1].split("'")[0].split('"')[0]
            if f"xss-{marker}" in r.text:
                shown[field].append(path)

    for path in public + table:
        visit(path)
    visit(f"/e/{ev}/round/1/board/1", ok=(200, 403))  # not every table has it in: 403
    login(client)
    for path in desk:
        visit(path)
    for field in SHOWN:
        assert shown[field], f"the {field} is on no page: the test would prove nothing"


def test_reflected_input_escaped(client: TestClient) -> None:
    """What a request carries and a page repeats (an unknown event, a bad token, the
    language, the login's ``next``) is escaped too."""
    payloads = {
        "unknown": "<img src=x onerror=alert(\"xss-unknown\")>",
        "token": "\"><img src=x onerror=alert(\"xss-token\")>",
        "lang": "\"><img src=x onerror=alert(\"xss-lang\")>",
    }
    make_event(client, "Plain Cup", ["A", "B"])
    for path in (
        f"/e/{q(payloads['unknown'])}", f"/e/{q(payloads['unknown'])}/round/1",
        f"/t/{q(payloads['token'])}", f"/?lang={q(payloads['lang'])}",
        f"/e/Plain%20Cup?lang={q(payloads['lang'])}",
        f"/desk/login?next={q(payloads['token'])}",
    ):
        r = client.get(path)
        assert r.status_code < 500, f"{path}: {r.status_code}"
        assert_escaped(path, r.text, payloads)
    login(client)
    for path in (f"/desk/e/{q(payloads['unknown'])}", f"/desk/e/Plain%20Cup?lang={q(payloads['lang'])}"):
        r = client.get(path)
        assert r.status_code < 500, f"{path}: {r.status_code}"
        assert_escaped(path, r.text, payloads)


@pytest.mark.parametrize("target", ["javascript:alert('xss')", "//evil.example/", "https://evil.example/",
                                    "/\\evil.example", "/desk\r\nSet-Cookie: x=1"])
def test_login_never_sends_elsewhere(client: TestClient, target: str) -> None:
    r = client.post("/desk/login", data={"password": PASSWORD, "next": target},
                    follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/desk"


# --- oversized bodies ---------------------------------------------------------------------


def table_state(c: TestClient, token: str) -> list[tuple[int, str]]:
    r = c.get(f"/api/table/{token}")
    assert r.status_code == 200, r.text
    return [(b["board"], b["state"]) for b in r.json()["boards"]]


def test_oversized_bodies_refused_and_nothing_stored(client: TestClient) -> None:
    cards = make_event(client, "Big Cup", ["A", "B"])
    west = card_of(cards, 1, "open")["report_token"]
    before = table_state(client, west)
    huge = json.dumps({"board": 1, "finish": "N S E", "pad": "x" * (MAX_BODY + 10)})
    r = client.post(f"/api/table/{west}/reports", content=huge,
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused once past the limit
        yield b'{"board": 1, "finish": "N S E", "pad": "'
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"y" * 65536
        yield b'"}'

    r = client.post(f"/api/table/{west}/reports", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text
    record = "x" * (MAX_RECORD + 1)  # under the body limit, over the record's
    r = client.post(f"/api/table/{west}/reports",
                    json={"board": 1, "finish": "N S E", "record": record})
    assert r.status_code == 413, r.text
    assert table_state(client, west) == before
    assert all(state == "not_in" for _, state in before)
    # the phone page's upload: over 256 KiB refused, nothing stored
    r = client.post(f"/t/{west}/report", data={"board": "1", "finish": "N S E"},
                    files={"record": ("board1.gdn", b"x" * (MAX_RECORD + 1), "text/plain")},
                    follow_redirects=False)
    assert r.status_code == 413, r.status_code
    assert table_state(client, west) == before
    # the director's API and the login
    r = client.post("/api/events", headers={**BEARER, "Content-Type": "application/json"},
                    content=json.dumps({"name": "Huge", "pad": "z" * (MAX_BODY + 1)}))
    assert r.status_code == 413
    assert [e["name"] for e in client.get("/api/events").json()] == ["Big Cup"]
    r = client.post("/desk/login", content=b"password=" + b"p" * (MAX_BODY + 1),
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_oversized_body_refused_before_it_is_read(sqlite_url: str) -> None:
    """From ``Content-Length`` alone: the application never reads the body."""
    app = create_app(settings(sqlite_url))

    async def call(path: str, length: int) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            raise AssertionError("the body was read")

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "server": ("testserver", 80),
            "client": ("127.0.0.1", 5000),
            "headers": [(b"content-type", b"application/json"),
                        (b"content-length", str(length).encode())],
        }
        await app(scope, receive, send)
        return sent

    for path in ("/api/table/sometoken/reports", "/t/sometoken/report", "/desk/login",
                 "/api/events"):
        sent = asyncio.run(call(path, 50 * MAX_BODY))
        assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413, path


# --- path traversal -----------------------------------------------------------------------

TRAVERSALS = [
    "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%2f..%2fpyproject.toml",
    "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
    "/static/%2e%2e/templates/base.html",
    "/static/hall/%2e%2e/%2e%2e/cli.py",
    "/static/hall/%2e%2e/app.py",
    "/static/..%5c..%5cpyproject.toml",
    "/static/%252e%252e/%252e%252e/pyproject.toml",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/hall/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/t/%2e%2e/%2e%2e/etc/passwd",
    "/e/%2e%2e/%2e%2e/etc/passwd",
]
SECRETS_OF_FILES = ("root:x:", "[project]", "def create_app", "{% block", "import click")


def test_static_traversal_refused(client: TestClient) -> None:
    assert client.get("/static/guandan.css").status_code == 200  # the folder is served
    for path in TRAVERSALS:
        r = client.get(path)
        assert r.status_code in (400, 403, 404, 405), f"{path}: {r.status_code}"
        for text in SECRETS_OF_FILES:
            assert text not in r.text, f"{path} served a file outside the static folders"


@pytest.mark.parametrize(
    "name", ["a/b", "..", ".", "%2e%2e", "../../etc/passwd", "..%2f..%2fetc", "\\..\\x", "%00"]
)
def test_event_names_with_paths_harmless(client: TestClient, name: str) -> None:
    make_event(client, "Plain Cup", ["A", "B"])
    r = client.post("/api/events", headers=BEARER, json={"name": name, "teams": []})
    assert r.status_code in (201, 400, 422), r.text
    if r.status_code == 201:
        listed = [e["name"] for e in client.get("/api/events").json()]
        assert name in listed  # stored as written
    for path in (f"/api/events/{q(name)}", f"/e/{q(name)}", f"/api/events/{q(name)}/standings",
                 f"/e/{q(name)}/round/1"):
        r = client.get(path)
        assert r.status_code < 500, f"{path}: {r.status_code} {r.text[:200]}"
        for text in SECRETS_OF_FILES:
            assert text not in r.text
    # the other event is intact
    r = client.get("/api/events/Plain%20Cup")
    assert r.status_code == 200 and [t["name"] for t in r.json()["teams"]] == ["A", "B"]


# --- SQL injection ------------------------------------------------------------------------


def test_sql_injection_harmless(migrated_url: str) -> None:
    engine = db.make_engine(migrated_url)
    tables_before = set(inspect(engine).get_table_names())
    try:
        with TestClient(create_app(settings(migrated_url)), raise_server_exceptions=False) as c:
            cards = make_event(c, "Cup", ["A", "B"])
            west = north = card_of(cards, 1, "open")
            for i, s in enumerate(SQLI):
                # names: stored literally (or refused), never run
                r = c.post("/api/events", headers=BEARER, json={
                    "name": s, "teams": [{"name": f"{s} {j}", "players": [f"{s} p{j}{k}" for k in range(4)]}
                                         for j in range(2)]})
                assert r.status_code in (201, 400, 422), r.text
                if r.status_code == 201:
                    got = c.get(f"/api/events/{q(s)}").json()
                    assert got["name"] == s
                    assert [t["name"] for t in got["teams"]] == [f"{s} 0", f"{s} 1"]
                    assert got["teams"][0]["players"][0] == f"{s} p00"
                # every kind of parameter: path, query, token, body text
                for method, path, body in (
                    ("GET", f"/api/events/{q(s)}/standings", None),
                    ("GET", f"/api/events/{q(s + 'x')}", None),
                    ("GET", f"/api/events/Cup/rounds/{q(s)}/draw", None),
                    ("GET", f"/api/events/Cup/rounds/1/tables/{q(s)}", None),
                    ("GET", f"/api/table/{q(s)}", None),
                    ("GET", f"/api/table/{west['report_token']}/preview?finish={q(s)}", None),
                    ("GET", f"/e/{q(s + 'x')}", None),
                    ("GET", f"/e/Cup?lang={q(s)}", None),
                    ("GET", f"/api/events/Cup/disputes?round={q(s)}", None),
                    ("POST", "/api/events/Cup/rounds/1/checkins", {"team": s}),
                    ("POST", f"/api/table/{west['report_token']}/reports",
                     {"board": 1, "finish": s}),
                    ("POST", f"/api/table/{west['report_token']}/reports/{q(s)}/confirm", None),
                ):
                    r = c.request(method, path, json=body, headers=BEARER)
                    assert r.status_code < 500, f"{method} {path}: {r.status_code} {r.text[:200]}"
                    assert r.status_code != 200 or method == "GET", f"{method} {path} accepted"
                # free text: stored literally
                r = c.post(f"/api/table/{west['report_token']}/reports",
                           json={"board": 1 + i % 4, "unfinished": s})
                assert r.status_code in (200, 201, 409), r.text
                if r.status_code == 201:
                    assert r.json()["unfinished"] == s
                r = c.post("/api/events/Cup/rounds/1/rulings", headers=BEARER, json={
                    "table": 1, "category": "warning", "effect": "none", "reason": s})
                assert r.status_code == 201 and r.json()["reason"] == s, r.text
            # a dispute note stored literally
            r = c.get(f"/api/table/{north['confirm_token']}")
            rid = next(b["report"]["id"] for b in r.json()["boards"] if b["report"])
            r = c.post(f"/api/table/{north['confirm_token']}/reports/{rid}/dispute",
                       json={"note": SQLI[0]})
            assert r.status_code == 200 and r.json()["dispute_note"] == SQLI[0], r.text
            reasons = [x["reason"] for x in c.get("/api/events/Cup/rulings", headers=BEARER).json()]
            assert reasons == SQLI
            assert [t["name"] for t in c.get("/api/events/Cup").json()["teams"]] == ["A", "B"]
        assert set(inspect(engine).get_table_names()) == tables_before
    finally:
        engine.dispose()


# --- tokens: hashed, constant time, never logged ------------------------------------------


def _library_event(url: str, name: str = "Token Cup") -> list[hall.TableCard]:
    engine = db.make_engine(url)
    try:
        events.create_event(engine, name, seed="ab12", rounds=1, boards_per_round=2)
        events.add_team(engine, name, "A", ["a1", "a2", "a3", "a4"])
        events.add_team(engine, name, "B", ["b1", "b2", "b3", "b4"])
        events.pair_round(engine, name)
        events.assign_boards(engine, name, 1, seed=parse_seed_file(SEED_TEXT.encode()))
        cards = hall.issue_tokens(engine, name, 1, by="director")
        hall.start_round(engine, name, 1, by="director")
        return cards
    finally:
        engine.dispose()


def test_tokens_stored_only_as_hashes(sqlite_url: str) -> None:
    cards = _library_event(sqlite_url)
    tokens = [t for c in cards for t in (c.report_token, c.confirm_token)]
    assert len(set(tokens)) == len(tokens) == 4 and all(len(t) >= 32 for t in tokens)
    engine = db.make_engine(sqlite_url)
    try:
        meta = MetaData()
        meta.reflect(engine)
        cells: list[str] = []
        with engine.connect() as conn:
            for table in meta.sorted_tables:
                for row in conn.execute(select(table)):
                    cells.extend(str(v) for v in row if v is not None)
        blob = "\n".join(cells)
    finally:
        engine.dispose()
    for token in tokens:
        assert token not in blob, "a table token is stored in clear"
        assert hashlib.sha256(token.encode()).hexdigest() in blob, "its hash is not stored"


def test_secrets_compared_in_constant_time(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = make_event(client, "Cup", ["A", "B"])
    token = card_of(cards, 1, "open")["report_token"]
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    for module in list(sys.modules.values()):  # modules holding the function by name
        name = getattr(module, "__name__", "")
        if name.startswith(("duplicate.hall", "web.")) and getattr(
            module, "compare_digest", None
        ) is real:
            monkeypatch.setattr(module, "compare_digest", spy)

    assert client.get(f"/api/table/{token}").status_code == 200
    digest = hashlib.sha256(token.encode()).hexdigest()
    flat = {x.decode() if isinstance(x, bytes) else x for pair in calls for x in pair}
    assert digest in flat, "the token's hash is not compared with hmac.compare_digest"
    assert token not in flat, "the plaintext token is compared, not its hash"
    # a token differing in its last character only: refused like any other
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/api/table/{forged}").status_code == 403
    calls.clear()
    assert client.get("/api/events/Cup/rounds/1/arrivals", headers=BEARER).status_code == 200
    assert any(PASSWORD in (x.decode() if isinstance(x, bytes) else x)
               for pair in calls for x in pair), "the password is not compared in constant time"
    calls.clear()
    r = client.post("/desk/login", data={"password": PASSWORD[:-1] + "X"}, follow_redirects=False)
    assert r.status_code == 401 and calls


def test_tokens_never_in_the_access_log(sqlite_url: str, tmp_path: Path) -> None:
    """A real ``guandan serve``: its whole output (uvicorn's access log at info) holds the
    table paths, never a token nor the director's password."""
    cards = _library_event(sqlite_url)
    west, north = cards[0].report_token, cards[0].confirm_token
    port = free_port()
    log = tmp_path / "serve.log"
    cmd = [sys.executable, str(ROOT / "cli.py"), "serve", "--db", sqlite_url,
           "--port", str(port), "--log-level", "info"]
    env = {"GUANDAN_DIRECTOR_PASSWORD": PASSWORD, "GUANDAN_SECRET_KEY": SECRET}
    with running(cmd, port, log, cwd=ROOT, env=env) as base, httpx.Client(base_url=base) as h:
        assert h.get(f"/api/table/{west}").status_code == 200
        assert h.get(f"/api/table/{west}/preview", params={"finish": "N S E"}).status_code == 200
        r = h.post(f"/api/table/{west}/reports", json={"board": 1, "finish": "N S E"})
        assert r.status_code == 201, r.text
        assert h.post(f"/api/table/{north}/reports/{r.json()['id']}/confirm").status_code == 200
        h.get(f"/t/{west}")
        h.get(f"/t/{north}?lang=zh")
        assert h.get(f"/api/table/{west}x").status_code == 403
        assert h.get(f"/api/table/{north}/reports").status_code in (404, 405)
        h.get("/api/events/Token%20Cup/rounds/1/arrivals",
              headers={"Authorization": f"Bearer {PASSWORD}"})
        h.post("/desk/login", data={"password": PASSWORD})
    text = log.read_text(errors="replace")
    assert "/api/table/" in text and "/t/" in text, f"no access log to check:\n{text[-2000:]}"
    for secret in (west, north, west[:16], PASSWORD):
        assert secret not in text, "a token or the password is in the server's log"


# --- the benchmark's counting -------------------------------------------------------------


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_hall", ROOT / "bench" / "bench_hall.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_hall"] = module
    spec.loader.exec_module(module)
    return module


def test_bench_counts_lost_wrong_and_duplicated_results() -> None:
    bench = _bench()
    a, b, c, d, e = ((1, 1, "open", n) for n in range(1, 6))
    expected = {a: 2, b: -1, c: 3, d: 1}
    stored = [(a, 2), (b, 1), (c, 3), (c, 3), ((2, 9, "closed", 1), 4)]
    changes = {a: 1, b: 1, c: 2}
    confirmed = {a: 1, b: 1, c: 1}
    tally = bench.count_results(expected, stored, changes, confirmed, [a, b, c, d, e])
    assert tally.summary() == {
        "expected": 5, "ok": 1, "lost": 2, "wrong": 1, "duplicated": 1, "unexpected": 1,
    }
    assert any("never acknowledged" in x for x in tally.lost)  # e: the client got no answer
    assert not tally.clean
    # one change too many in the log is a duplicate, even with one row
    assert bench.count_results({a: 2}, [(a, 2)], {a: 2}, {a: 1}).duplicated
    # a result stored but never confirmed by North is lost
    assert bench.count_results({a: 2}, [(a, 2)], {a: 1}, {}).lost
    clean = bench.count_results({a: 2, b: -1}, [(a, 2), (b, -1)], {a: 1, b: 1}, {a: 1, b: 1})
    assert clean.clean and clean.ok == 2
    assert bench.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50) == 3.0
    assert bench.percentile([float(i) for i in range(1, 101)], 99) == 99.0


@pytest.mark.skipif(not os.environ.get("GUANDAN_TEST_DATABASE_URL"),
                    reason="the hall benchmark runs on PostgreSQL (GUANDAN_TEST_DATABASE_URL)")
def test_bench_quick_run_loses_nothing() -> None:
    """``bench/bench_hall.py --quick`` end to end (one worker: it starts faster; about 15 s
    on a quiet machine): every phase runs, every result stored once as sent, the round
    closed and published at the desk."""
    env = dict(os.environ, GUANDAN_BENCH_DATABASE_URL=os.environ["GUANDAN_TEST_DATABASE_URL"])
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_hall.py"), "--quick", "--workers", "1",
         "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout)
    assert [p["phase"] for p in result["phases"]] == [
        "peak", "saturated reports", "saturated confirmations", "table pages",
        "standings polls 304", "standings polls 200",
    ]
    assert result["phases"][1]["reports_per_s"] > 0 < result["phases"][2]["confirms_per_s"]
    # the server's CPU a request of each kind, and the goals on it
    kinds = ("report", "confirmation", "table page", "standings 304", "standings 200")
    assert all(result["cpu_ms"][k] >= 0 for k in kinds), result["cpu_ms"]
    polls = {r["endpoint"]: r["requests"] for r in result["phases"][4]["endpoints"]}
    assert polls == {"standings GET 304": 300}, polls
    assert any(g["goal"] == "server CPU a confirmation <= 2 ms" for g in result["goals"])
    assert result["results"]["expected"] == 2 * 4 * 2  # two rounds of 4 tables, 2 boards
    assert result["results"]["ok"] == result["results"]["expected"], result["result_problems"]
    assert all(p["errors"] == 0 for p in result["phases"]), result["phases"]
    # the round closed and published through the desk's forms, timed
    desk = result["director"]
    assert desk["desk close"]["ok"] and desk["desk publish"]["ok"], desk
    both = desk["desk close+publish"]["s"]
    assert both == pytest.approx(desk["desk close"]["s"] + desk["desk publish"]["s"])
    assert any(g["goal"].startswith("the desk's close and publish of a 2-match round")
               for g in result["goals"])
