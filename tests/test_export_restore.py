"""An event's whole export holds everything its standings count, and makes the event again
in an empty database (``guandan event restore``): a director's day through the API (five
teams on the 20-VP scale, the friendly tie-breaks, a bye worth 11.5; round 1 reported from
the phones, a late team conceding a board, a board unfinished for time, a correction after
publication, a team withdrawn; round 2 from play records, a ruling on one of them, a match
forfeited), its
export from the API, restored through the command line: the standings (every column) and
every match's points are the original's, on SQLite and PostgreSQL. Each tag the standings
depend on matters: the export without it is refused or counts otherwise."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from helpers.hall import BEARER, EV, EVENT, SEED_FILE, make_client

from cli import main
from duplicate import db, events

TEAMS = [(f"Team {c}", [f"{c}{i} Player" for i in range(1, 5)]) for c in "ABCDE"]


@dataclass
class Day:
    url: str
    export: str


def _ok(r: Any, *codes: int) -> Any:
    assert r.status_code in (codes or (200, 201)), r.text
    return r.json() if r.headers.get("content-type", "").startswith("application/json") else r


def _api(client: TestClient, method: str, path: str, **kw: Any) -> Any:
    return _ok(client.request(method, f"/api/events/{EV}{path}", headers=BEARER, **kw))


def _phones(client: TestClient, cards: list[dict[str, Any]], skip: set[tuple[int, int]],
            unfinished: set[tuple[int, str, int]], boards: tuple[int, ...]) -> None:
    """West reports every board of every room (a finishing order, or unfinished for time),
    North confirms; ``skip``: (table, board) not played."""
    orders = ["N E W", "E N S", "S N", "W S E", "N S", "E W N"]
    for i, card in enumerate(sorted(cards, key=lambda c: (c["table"], c["room"]))):
        for j, board in enumerate(boards):
            if (card["table"], board) in skip:
                continue
            body: dict[str, Any] = {"board": board}
            if (card["table"], card["room"], board) in unfinished:
                body["unfinished"] = "time"
            else:
                body["finish"] = orders[(i + j) % len(orders)]
            r = _ok(client.post(f"/api/table/{card['report_token']}/reports", json=body))
            _ok(client.post(f"/api/table/{card['confirm_token']}/reports/{r['id']}/confirm"))


def _round(client: TestClient, n: int) -> tuple[list[dict[str, Any]], tuple[int, ...]]:
    rnd = _api(client, "POST", "/rounds")
    assert rnd["number"] == n
    rnd = _api(client, "POST", f"/rounds/{n}/boards", json={"seed_file": SEED_FILE})
    cards = _api(client, "POST", f"/rounds/{n}/cards")
    _api(client, "POST", f"/rounds/{n}/start", json={"correction_minutes": 10})
    return cards, tuple(rnd["boards"])


@pytest.fixture
def day(migrated_url: str) -> Iterator[Day]:
    """The director's day, through the API; its whole export (the API's)."""
    with make_client(migrated_url) as client:
        _ok(client.post("/api/events", headers=BEARER, json={
            "name": EVENT, "format": "swiss", "rounds": 3, "boards_per_round": 2,
            "scale": "vp20", "bye_points": 11.5, "tiebreaks": "friendly", "seed": "5eed" * 4,
            "teams": [{"name": t, "players": p} for t, p in TEAMS]}))
        cards, boards = _round(client, 1)
        engine = client.app.state.engine  # type: ignore[attr-defined]
        match2 = next(m for m in events.list_matches(engine, EVENT, 1) if m.table == 2)
        late = match2.team_y
        _api(client, "POST", "/rounds/1/rulings", json={
            "table": 2, "category": "late", "effect": "conceded", "team": late,
            "board": boards[0], "reason": "7 minutes late"})
        _phones(client, cards, skip={(2, boards[0])}, unfinished={(1, "closed", boards[1])},
                boards=boards)
        _api(client, "POST", "/rounds/1/close")
        _api(client, "POST", "/rounds/1/publish")
        _api(client, "POST", "/rounds/1/corrections", json={
            "table": 1, "board": boards[0], "room": "open", "finish": "E W",
            "reason": "the scorer misread the sheet"})
        bye = events.get_round(engine, EVENT, 1).bye
        assert bye is not None
        gone = next(t for t, _ in TEAMS if t not in (bye, late))
        _api(client, "POST", "/withdrawals", json={"team": gone, "reason": "went home"})
        cards, boards = _round(client, 2)
        texts = events.bot_records(engine, EVENT, 2, "heuristic", "heuristic")
        _api(client, "POST", "/import", json={"texts": texts})
        _api(client, "POST", "/rounds/2/corrections", json={
            "table": 1, "board": boards[1], "room": "closed", "ns_result": 1,
            "reason": "a revoke"})
        quit_ = next(m for m in events.list_matches(engine, EVENT, 2) if m.table == 2).team_x
        _api(client, "POST", "/rounds/2/rulings", json={
            "table": 2, "category": "forfeit", "effect": "forfeit", "team": quit_,
            "reason": "left the hall"})
        _api(client, "POST", "/rounds/2/close")
        _api(client, "POST", "/rounds/2/publish")
        export = _ok(client.get(f"/api/events/{EV}/export", headers=BEARER)).text
    yield Day(migrated_url, export)


def _cli(url: str, *args: str) -> str:
    r = CliRunner().invoke(main, ["event", "--db", url, *args])
    assert r.exit_code == 0, r.output
    return r.output


def _counts(url: str) -> tuple[Any, Any]:
    """The standings (every column) and every match's and bye's points."""
    return (json.loads(_cli(url, "standings", EVENT, "--json")),
            json.loads(_cli(url, "score", EVENT, "--json")))


def _restore(url: str, text: str, tmp: Path) -> None:
    path = tmp / "export.gdn"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["db", "upgrade", "--db", url])
    assert r.exit_code == 0, r.output
    _cli(url, "restore", str(path), "--by", "TD Wu")


def test_the_whole_export_makes_the_event_again(day: Day, db_url: str, tmp_path: Path) -> None:
    text = day.export
    for tag in ("EventSeed", "EventByePoints", "EventTiebreaks", "Team5", "ReportedResult",
                "ReportedFinish", "Conceded", "Forfeited", "Bye", "Withdrawn", "Ruling",
                "Unfinished"):
        assert f"[{tag} " in text, tag
    _restore(db_url, text, tmp_path)
    standings, scores = _counts(day.url)
    assert standings and any(r["withdrawn"] for r in standings)
    assert any(s.get("bye") for s in scores)
    again = _counts(db_url)
    assert again == (standings, scores)
    # the same settings, teams and seating
    fresh = db.make_engine(db_url)
    orig = db.make_engine(day.url)
    try:
        a, b = events.get_event(orig, EVENT).to_dict(), events.get_event(fresh, EVENT).to_dict()
        a.pop("created_at"), b.pop("created_at")
        assert a == b
        assert [t.to_dict() for t in events.list_teams(orig, EVENT)] == [
            t.to_dict() for t in events.list_teams(fresh, EVENT)]
        assert [m.to_dict() for m in events.list_matches(orig, EVENT)] == [
            m.to_dict() for m in events.list_matches(fresh, EVENT)]
        assert events.withdrawals(fresh, EVENT) == events.withdrawals(orig, EVENT)
        # the export imported into its own event: every record there already, the rooms'
        # results (no record) passed by
        back = events.import_texts(orig, EVENT, [text], by="TD Wu")
        assert back.added == 0 and back.unchanged == back.records > 0
        # restored once: a second time is refused, the event is there
        with pytest.raises(events.EventError):
            events.restore_event(fresh, text, "TD Wu")
    finally:
        fresh.dispose()
        orig.dispose()


#: The tags the standings depend on: the export without one of them is refused or counts
#: otherwise.
REMOVED = ("ReportedResult", "Conceded", "Forfeited", "Bye", "Withdrawn", "Ruling",
           "EventByePoints", "EventTiebreaks", "EventSeed", "Team1")


def test_an_export_without_a_tag_does_not_recount_the_standings(
    day: Day, tmp_path: Path
) -> None:
    counted = _counts(day.url)
    for tag in REMOVED:
        text = re.sub(rf"^\[{tag} [^\n]*\n", "", day.export, flags=re.M)
        assert text != day.export, tag
        url = f"sqlite:///{tmp_path / f'without-{tag}.sqlite'}"
        path = tmp_path / f"without-{tag}.gdn"
        path.write_text(text, encoding="utf-8")
        assert CliRunner().invoke(main, ["db", "upgrade", "--db", url]).exit_code == 0
        r = CliRunner().invoke(main, ["event", "--db", url, "restore", str(path), "--by", "TD"])
        if r.exit_code != 0:
            assert "Error" in r.output, (tag, r.output)
            engine = db.make_engine(url)
            try:  # refused whole: nothing of the event is left
                assert events.list_events(engine) == [], tag
            finally:
                engine.dispose()
            continue
        standings = CliRunner().invoke(main, ["event", "--db", url, "standings", EVENT,
                                              "--json"])
        score = CliRunner().invoke(main, ["event", "--db", url, "score", EVENT, "--json"])
        if standings.exit_code or score.exit_code:  # no standings: a result is missing
            continue
        assert (json.loads(standings.output), json.loads(score.output)) != counted, tag
