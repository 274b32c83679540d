"""The director's full set of actions, from the desk (HTML forms) and the director API:
reports that wait for North confirmed or dismissed, boards unfinished and released, one
table's cards issued again, the clock paused, resumed and moved, a late team's forfeit
after its conceded board, teams and players renamed, substituted, withdrawn, records
imported, board sets listed, a seed made, an event deleted, a table's request after
publication accepted or dismissed, the directors' limit after publication set and (past
it) overridden only as the chief director; every form Post/Redirect/Get (a reload
repeats nothing), every action logged with who and why; the round's export gives the
results when the tables reported finishing orders only. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, update
from test_web_desk import (
    EV,
    EVQ,
    PASSWORD,
    engine_of,
    flash_of,
    login,
    make_event,
    post,
    snapshot,
    tokens_of,
    unwrap_sides,
)

from duplicate import events, hall, models
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file
from duplicate.gdn import loads
from duplicate.i18n.game import result_text

BEARER = {"Authorization": f"Bearer {PASSWORD}"}
BASE = f"/desk/e/{EVQ}/round/1"
API = f"/api/events/{EVQ}"


def started(
    client: TestClient, csrf: str, minutes_ago: float = 0
) -> dict[tuple[int, str], tuple[str, str]]:
    """The event made at the desk, cards issued, the clock started ``minutes_ago``;
    the tokens of the printed cards."""
    make_event(client, csrf)
    r = client.post(f"{BASE}/cards", data={"csrf": csrf})  # (Post/Redirect/Get: its test)
    tokens = tokens_of(r.text)
    assert len(tokens) == 4
    status, _, msg = post(client, f"{BASE}/start", csrf=csrf, minutes="50",
                          warning_minutes="5", correction_minutes="10")
    assert msg == "Round 1: the clock is running.", msg
    if minutes_ago:
        at = datetime.now(UTC) - timedelta(minutes=minutes_ago)
        with session_scope(engine_of(client)) as session:
            session.execute(update(models.HallRound).values(started_at=at))
    return tokens


def west(client: TestClient, tokens: Any, table: int, room: str, board: int, finish: str) -> int:
    """West reports a board through the library (the phone's path); the report's id."""
    engine = engine_of(client)
    report, _ = hall.west_report(engine, tokens[table, room][0], board, finish=finish)
    return report.id


def state(client: TestClient) -> Any:
    """:func:`test_web_desk.snapshot`, a paused clock's moving end left out."""
    snap = snapshot(engine_of(client))
    for name in snap["events"]:
        for clock in snap[name]["clocks"]:
            if clock.get("paused_at"):
                clock.pop("ends_at")
                clock.pop("warning_at")
    return snap


def reload_repeats_nothing(client: TestClient, location: str) -> None:
    """GET ``location`` again (a reload): the store, logs and clocks are unchanged."""
    before = state(client)
    assert client.get(location).status_code == 200
    assert state(client) == before


def form(client: TestClient, path: str, **data: Any) -> tuple[str, str]:
    """POST a desk form, which must redirect (303); a reload of where it leads repeats
    nothing. (the page, its message)"""
    r = client.post(path, data=data, follow_redirects=False)
    assert r.status_code == 303, (path, r.status_code, r.text[:300])
    location = r.headers["location"]
    page = client.get(location)
    assert page.status_code == 200
    reload_repeats_nothing(client, location)
    return page.text, flash_of(page.text)


def admin(client: TestClient, action: str) -> list[dict[str, Any]]:
    return [e for e in events.admin_log(engine_of(client), EV) if e["action"] == action]


# --- reports that wait for North -------------------------------------------------------------


def test_a_waiting_report_no_longer_blocks_the_round(client: TestClient) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    rid = west(client, tokens, 1, "open", 1, "N S")
    page = client.get(BASE).text
    assert f'data-report="{rid}"' in page and "Reports waiting for North" in page
    # closing is refused while it waits
    _, msg = form(client, f"{BASE}/close", csrf=csrf)
    assert "waits for North" in msg or "North" in msg, msg
    # a reason is needed; then the director confirms it from the desk: it counts
    _, msg = form(client, f"{BASE}/reports/{rid}/confirm", csrf=csrf, reason="")
    assert "Reason" in msg
    _, msg = form(client, f"{BASE}/reports/{rid}/confirm", csrf=csrf,
                  reason="North left the hall")
    assert msg == "Table 1, board 1: the report counts (confirmed by the director).", msg
    row = next(r for r in events.match_boards(engine, EV, 1, 1) if r.board == 1)
    assert row.open_ns == 3  # N S: E-W double down (双下), N-S +3
    entry = admin(client, "hall confirm")[0]
    assert entry["by"] == "director" and entry["reason"] == "North left the hall"
    # again: refused clearly or unchanged, never counted twice
    form(client, f"{BASE}/reports/{rid}/confirm", csrf=csrf, reason="again")
    assert len(admin(client, "hall confirm")) == 1
    # the API: another report confirmed, a third dismissed (the board free again)
    rid2 = west(client, tokens, 1, "closed", 1, "E W")
    rid3 = west(client, tokens, 2, "open", 1, "S N")
    pending = client.get(f"{API}/rounds/1/pending", headers=BEARER).json()
    assert {p["id"] for p in pending} == {rid2, rid3}
    r = client.post(f"{API}/reports/{rid2}/confirm", headers=BEARER, json={"reason": "by phone"})
    assert r.status_code == 200 and r.json()["state"] == "confirmed", r.text
    r = client.post(f"{API}/reports/{rid3}/dismiss", headers=BEARER, json={"reason": "wrong"})
    assert r.status_code == 200 and r.json()["state"] == "replaced", r.text
    assert client.post(f"{API}/reports/{rid3}/dismiss", headers=BEARER,
                       json={"reason": "wrong"}).status_code == 409
    assert client.post(f"{API}/reports/{rid3}/confirm", headers=BEARER,
                       json={}).status_code == 422
    assert hall.pending_reports(engine, EV, 1) == []
    # the table reports the dismissed board again, the desk dismisses that from the form
    rid4 = west(client, tokens, 2, "open", 1, "W E")
    _, msg = form(client, f"{BASE}/reports/{rid4}/dismiss", csrf=csrf, reason="duplicate")
    assert msg.startswith("Table 2, board 1: the report was dismissed"), msg
    assert [e["reason"] for e in admin(client, "hall dismiss")] == ["wrong", "duplicate"]


def test_a_disputed_report_can_be_dismissed(client: TestClient) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    rid = west(client, tokens, 1, "open", 2, "E S W")
    hall.north_dispute(engine, hall.grant_for(engine, tokens[1, "open"][1]), 2, rid, "wrong")
    assert f'action="{BASE}/reports/{rid}/dismiss"' in client.get(BASE).text
    _, msg = form(client, f"{BASE}/reports/{rid}/dismiss", csrf=csrf, reason="replayed")
    assert "dismissed" in msg and hall.disputes(engine, EV, 1) == []


# --- boards: unfinished, released ----------------------------------------------------------


def test_a_board_unfinished_with_its_reason_from_the_desk_and_the_api(client: TestClient) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    # a result in: the director's unfinished replaces it (a correction must be ±1..±3 no more)
    rid = west(client, tokens, 1, "open", 1, "N S")
    hall.north_confirm(engine, hall.grant_for(engine, tokens[1, "open"][1]), 1, rid)
    _, msg = form(client, f"{BASE}/unfinished", csrf=csrf, table="1", board="1", room="both",
                  reason="time")
    assert msg == "Table 1, board 1: recorded as unfinished.", msg
    row = next(r for r in events.match_boards(engine, EV, 1, 1) if r.board == 1)
    assert (row.open_ns, row.closed_ns, row.status) == (None, None, "unfinished")
    changes = [c for c in events.list_corrections(engine, EV) if c.get("by") == "director"]
    assert changes and all(c["reason"] == "time" for c in changes)
    _, msg = form(client, f"{BASE}/unfinished", csrf=csrf, table="1", board="9", room="open",
                  reason="time")
    assert "board 9" in msg or "9" in msg
    r = client.post(f"{API}/rounds/1/unfinished", headers=BEARER,
                    json={"table": 2, "board": 2, "room": "closed", "reason": "a player fell ill"})
    assert r.status_code == 200 and r.json() == {"round": 1, "table": 2, "board": 2, "rooms": 1}
    row = next(r for r in events.match_boards(engine, EV, 1, 2) if r.board == 2)
    assert row.status == "unfinished" or row.closed_ns is None


def test_a_board_released_from_the_desk_and_the_api(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    assert events.released_boards(engine, EV, 1) == frozenset()
    _, msg = form(client, f"{BASE}/release", csrf=csrf, board="1", reason="table 2 withdrew")
    assert msg == "Board 1 released to the players.", msg
    assert events.released_boards(engine, EV, 1) == {1}
    r = client.post(f"{API}/rounds/1/release", headers=BEARER, json={"board": 2, "reason": "lost"})
    assert r.status_code == 200 and events.released_boards(engine, EV, 1) == {1, 2}
    again = client.post(f"{API}/rounds/1/release", headers=BEARER,
                        json={"board": 2, "reason": "again"})
    assert again.status_code == 400 and "already released" in again.json()["message"]
    assert [e["by"] for e in admin(client, "release board")] == ["director", "director"]


# --- table cards ----------------------------------------------------------------------------


def test_reloading_the_printed_cards_issues_nothing(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    r = client.post(f"{BASE}/cards", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("/round/1/cards/printed")
    cookie = next(c for c in r.headers.get_list("set-cookie")
                  if c.startswith("guandan_desk_cards="))
    for part in ("HttpOnly", "Max-Age=1800", "Path=/desk", "SameSite=strict"):
        assert part.lower() in cookie.lower(), cookie
    first = client.get(r.headers["location"])
    tokens = tokens_of(first.text)
    assert len(tokens) == 4
    issued = len(admin(client, "hall tokens"))
    for _ in range(3):  # reloads: the same cards, nothing issued, nothing voided
        again = client.get(r.headers["location"])
        assert again.status_code == 200 and tokens_of(again.text) == tokens
        assert again.headers["cache-control"] == "no-store"
    assert len(admin(client, "hall tokens")) == issued
    for west_token, north_token in tokens.values():
        assert hall.grant_for(engine, west_token).role == "report"
        assert hall.grant_for(engine, north_token).role == "confirm"
    # without the desk's cookie (another browser): no cards, back to the page that issues
    other = TestClient(client.app)
    login(other)
    gone = other.get(r.headers["location"], follow_redirects=False)
    assert gone.status_code == 303 and gone.headers["location"].endswith("/round/1/cards")


def test_one_tables_cards_issued_again(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    status, page, _ = post(client, f"{BASE}/cards", csrf=csrf)
    old = tokens_of(page)
    ask = client.get(f"{BASE}/cards").text
    assert 'id="issue-one-card"' in ask
    status, page, _ = post(client, f"{BASE}/cards", csrf=csrf, table="2")
    assert "round 1, table 2: 2 cards" in admin(client, "hall tokens")[-1]["detail"]
    assert flash_of(client.get(BASE).text).startswith("Round 1: new cards for table 2")
    new = tokens_of(page)
    assert set(new) == {(2, "open"), (2, "closed")}
    for room in ("open", "closed"):
        assert hall.grant_for(engine, old[1, room][0]).table == 1  # table 1's stay valid
        for token in old[2, room]:
            try:
                hall.grant_for(engine, token)
                raise AssertionError("a void card still works")
            except hall.HallError as exc:
                assert exc.kind == "forbidden"
        assert hall.grant_for(engine, new[2, room][1]).role == "confirm"
    # the API: table 1 only
    r = client.post(f"{API}/rounds/1/cards", headers=BEARER, json={"table": 1})
    assert r.status_code == 201 and {c["table"] for c in r.json()} == {1}
    assert hall.grant_for(engine, new[2, "open"][0]).table == 2
    assert client.post(f"{API}/rounds/1/cards", headers=BEARER,
                       json={"table": 7}).status_code == 404


# --- the clock ------------------------------------------------------------------------------


def test_the_clock_paused_resumed_and_moved(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    ends = hall.round_clock(engine, EV, 1).ends_at
    assert ends is not None
    page, msg = form(client, f"{BASE}/clock/pause", csrf=csrf, reason="fire alarm")
    assert msg == "Round 1: the clock is paused." and 'id="paused"' in page
    clock = hall.round_clock(engine, EV, 1)
    assert clock.paused_at is not None
    _, msg = form(client, f"{BASE}/clock/resume", csrf=csrf, reason="all clear")
    assert msg == "Round 1: the clock runs again."
    resumed = hall.round_clock(engine, EV, 1)
    assert resumed.paused_at is None and resumed.ends_at is not None
    assert resumed.ends_at >= ends
    _, msg = form(client, f"{BASE}/clock/move", csrf=csrf, minutes="5", reason="late start")
    assert msg == "The round's end moved by +5 minutes.", msg
    moved = hall.round_clock(engine, EV, 1).ends_at
    assert moved is not None and moved - resumed.ends_at == timedelta(minutes=5)
    _, msg = form(client, f"{BASE}/clock/move", csrf=csrf, minutes="0", reason="x")
    assert "not 0" in msg
    r = client.post(f"{API}/rounds/1/clock/pause", headers=BEARER, json={"reason": "noise"})
    assert r.status_code == 200 and r.json()["paused_at"] is not None
    r = client.post(f"{API}/rounds/1/clock/resume", headers=BEARER, json={"reason": "quiet"})
    assert r.status_code == 200 and r.json()["paused_at"] is None
    r = client.post(f"{API}/rounds/1/clock/move", headers=BEARER,
                    json={"minutes": -3, "reason": "catch up"})
    assert r.status_code == 200, r.text
    assert [e["reason"] for e in events.admin_log(engine, EV)
            if e["action"].startswith(("hall pause", "hall resume", "hall move"))] == [
        "fire alarm", "all clear", "late start", "noise", "quiet", "catch up"]


# --- a late team ----------------------------------------------------------------------------


def back_in_time(engine: Any, minutes: float) -> None:
    """The round's start and every check-in ``minutes`` earlier (time passes)."""
    back = timedelta(minutes=minutes)
    with session_scope(engine) as session:
        for row in session.scalars(select(models.HallRound)):
            row.started_at = row.started_at - back
        for c in session.scalars(select(models.HallCheckin)):
            c.checked_in_at = c.checked_in_at - back


def test_the_forfeit_appears_for_a_team_already_ruled_late(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    match = events.get_round(engine, EV, 1).matches[0]
    team = match.team_y
    for other in {t for m in events.get_round(engine, EV, 1).matches
                  for t in (m.team_x, m.team_y)} - {team}:
        hall.check_in(engine, EV, 1, other, "director")
    back_in_time(engine, 6)  # six minutes on: the others were on time, the team is not in
    page = client.get(BASE).text
    assert page.count('class="danger rule-late"') == 1
    assert "Rule: concedes the first board" in page and "Rule: forfeit" not in page
    # the director rules the conceded board (the round's ruling form)
    _, msg = form(client, f"{BASE}/rulings", csrf=csrf, table=str(match.table),
                  category="late", effect="conceded", team=team, reason="late")
    assert "rule-late" not in client.get(BASE).text
    # five minutes on: more than 10 minutes late, the forfeit is due and offered
    back_in_time(engine, 5)
    page = client.get(BASE).text
    assert "Rule: forfeit" in page and page.count('class="danger rule-late"') == 1
    assert client.get(f"{API}/rounds/1/late", headers=BEARER).json() == {team: "forfeit"}
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=team)
    assert msg == f"{team} forfeits the round (late).", msg
    assert "rule-late" not in client.get(BASE).text
    assert client.post(f"{API}/rounds/1/late", headers=BEARER,
                       json={"team": team}).status_code == 409
    effects = [r.effect for r in hall.rulings(engine, EV, 1) if r.team == team]
    assert effects == ["conceded", "forfeit"]
    # the export says so: a recount from it alone knows the board and the match ruled
    first = events.get_round(engine, EV, 1).boards[0]
    text = client.get(f"{API}/rounds/1/export", headers=BEARER,
                      params={"unreleased": "true", "reason": "the rulings' check"}).text
    t = match.table
    assert f"; table {t}: {match.team_x} v {match.team_y}\n" \
           f"; table {t}: forfeited by {team} (a ruling)\n" \
           f"; table {t}, board {first}: conceded by {team} (a ruling)\n" in text, text


def test_the_late_ruling_in_one_click_from_the_desk_and_the_api(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    late = [m.team_y for m in events.get_round(engine, EV, 1).matches]
    for m in events.get_round(engine, EV, 1).matches:
        hall.check_in(engine, EV, 1, m.team_x, "director")
    back_in_time(engine, 6)
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=late[0])
    assert msg == f"{late[0]} concedes the first board (late).", msg
    r = client.post(f"{API}/rounds/1/late", headers=BEARER, json={"team": late[1]})
    assert r.status_code == 201 and r.json()["effect"] == "conceded", r.text
    on_time = events.get_round(engine, EV, 1).matches[0].team_x
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=on_time)
    assert "no ruling is due" in msg, msg
    assert {r.team for r in hall.rulings(engine, EV, 1)} == set(late)


# --- teams and players ----------------------------------------------------------------------


def test_teams_and_players_changed_from_the_desk_and_the_api(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    url = f"/desk/e/{EVQ}/team-change"
    _, msg = form(client, url, csrf=csrf, what="rename_team", team="Tigers", new="Snow Tigers",
                  reason="spelling")
    assert msg == "Team Tigers is now Snow Tigers.", msg
    _, msg = form(client, url, csrf=csrf, what="rename_player", old="Li Wei", new="Li Wei Jr",
                  reason="spelling")
    assert msg == "Player Li Wei is now Li Wei Jr.", msg
    _, msg = form(client, url, csrf=csrf, what="substitute", team="Dragons", old="Zhao Lei",
                  new="Qian Bo", reason="ill")
    assert "Qian Bo plays in place of Zhao Lei" in msg, msg
    _, msg = form(client, url, csrf=csrf, what="withdraw", team="Pandas", reason="")
    assert "Reason" in msg
    names = [t.name for t in events.list_teams(engine, EV)]
    assert "Snow Tigers" in names and "Tigers" not in names
    r = client.post(f"{API}/teams/rename", headers=BEARER,
                    json={"old": "Snow Tigers", "new": "Tigers", "reason": "back"})
    assert r.status_code == 200 and r.json()["by"] == "director", r.text
    r = client.post(f"{API}/players/rename", headers=BEARER,
                    json={"old": "Li Wei Jr", "new": "Li Wei", "reason": "back"})
    assert r.status_code == 200, r.text
    r = client.post(f"{API}/substitutions", headers=BEARER,
                    json={"team": "Cranes", "out": "He Ping", "new": "Fang Yi", "reason": "x"})
    assert r.status_code == 200, r.text
    r = client.post(f"{API}/withdrawals", headers=BEARER, json={"team": "Pandas", "reason": "left"})
    assert r.status_code == 200, r.text
    assert client.post(f"{API}/withdrawals", headers=BEARER,
                       json={"team": "Nobody", "reason": "x"}).status_code == 404
    log = events.admin_log(engine, EV)
    actions = [e["action"] for e in log]
    for action in ("rename team", "rename player", "substitute", "withdraw team"):
        assert action in actions, actions
    assert all(e["by"] == "director" for e in log if e["action"] in
               ("rename team", "rename player", "substitute", "withdraw team"))


# --- records imported, export ---------------------------------------------------------------


def test_gdn_records_imported_from_the_desk_and_the_api(client: TestClient, tmp_path: Any) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    out = tmp_path / "round1.gdn"
    events.play_bots(engine, EV, 1, out=str(out))
    text = out.read_text(encoding="utf-8")
    r = client.post(f"/desk/e/{EVQ}/import", data={"csrf": csrf},
                    files=[("files", ("round1.gdn", text.encode(), "text/plain"))],
                    follow_redirects=False)
    assert r.status_code == 303
    msg = flash_of(client.get(r.headers["location"]).text)
    assert msg == "1 file(s), 8 records: 0 added, 8 unchanged, 0 corrected.", msg
    before = snapshot(engine)
    r = client.post(f"/desk/e/{EVQ}/import", data={"csrf": csrf},
                    files=[("files", ("bad.gdn", b"[Event \"x\"]\n1. nonsense", "text/plain"))],
                    follow_redirects=False)
    assert r.status_code == 303 and flash_of(client.get(r.headers["location"]).text)
    assert snapshot(engine) == before
    r = client.post(f"{API}/import", headers=BEARER, json={"texts": [text]})
    assert r.status_code == 200 and r.json()["unchanged"] == 8, r.text


def test_the_round_export_gives_the_results_when_tables_reported_orders_only(
    client: TestClient,
) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    for (table, room), (_, north) in tokens.items():
        for board in (1, 2):
            order = "N S" if (table + board) % 2 else "E S W"
            report, _ = hall.west_report(engine, tokens[table, room][0], board, finish=order)
            hall.north_confirm(engine, hall.grant_for(engine, north), board, report.id)
    r = client.get(f"{API}/rounds/1/export", headers=BEARER)
    assert r.status_code == 200
    text = r.text
    assert text.strip(), "the export is empty"
    assert "without" in text or "not given by a play record" in text
    lines = [line for line in text.splitlines() if re.match(r"; table \d+, board", line)]
    assert len(lines) == 8
    # whose results they are: each table's match before its lines (X N-S in the open room)
    draw = {m.table: f"{m.team_x} v {m.team_y}" for m in events.get_round(engine, EV, 1).matches}
    matches = re.findall(r"^; table (\d+): (.+)$", text, re.MULTILINE)
    assert [(int(t), m) for t, m in matches] == sorted(draw.items())
    for table, match in draw.items():
        after = text.split(f"; table {table}: {match}\n", 1)[1].splitlines()
        assert after[0].startswith(f"; table {table}, board 1, open room: "), after[0]
    assert "; table 1, board 1, open room: E S W  NS " in text or \
        "; table 1, board 1, open room: N S  NS " in text
    for line in lines:
        assert re.search(r"room: (N S|E S W)  NS [+-]\d$", line), line


def test_the_command_line_export_gives_the_results_as_the_desk_does(
    client: TestClient, migrated_url: str,
) -> None:
    from click.testing import CliRunner

    from cli import main

    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    for (table, _room), (report, north) in tokens.items():
        for board in (1, 2):
            order = "N S" if (table + board) % 2 else "E S W"
            done, _ = hall.west_report(engine, report, board, finish=order)
            hall.north_confirm(engine, hall.grant_for(engine, north), board, done.id)
    api = client.get(f"{API}/rounds/1/export", headers=BEARER).text
    for where in (["--round", "1"], []):
        res = CliRunner().invoke(main, ["event", "--db", migrated_url, "export", EV, *where])
        assert res.exit_code == 0, res.output
        lines = [line for line in res.stdout.splitlines() if line.startswith("; table")
                 and " room: " in line]  # the results, after each table's "X v Y" line
        assert len(lines) == 8, res.stdout
        for line in lines:
            assert re.search(r"room: (N S|E S W)  NS [+-]\d$", line), line
        assert "not given by a play record" in res.stdout or "without" in res.stdout
        comments = [line for line in res.stdout.splitlines() if line.startswith(";")]
        assert sum(" v " in line for line in comments) == 2  # two matches
        if where:  # a round's export: no record was played, comment lines only
            assert all(line.startswith(";") for line in res.stdout.splitlines()
                       if line.strip())
            assert res.stdout.strip() == api.strip()
        else:  # the whole event's: each room also a record of its result (no play)
            recs = loads(res.stdout)
            assert len(recs) == 8 and all(r.plays == [] for r in recs)
            assert {r.tags["ReportedFinish"] for r in recs} == {"N S", "E S W"}
            assert comments == [line for line in api.splitlines() if line.startswith(";")]


# --- after publication: the tables' requests, the directors' limit ------------------------


def published(client: TestClient, csrf: str) -> dict[tuple[int, str], tuple[str, str]]:
    """Round 1 started, every board reported and confirmed, closed and published from the
    desk; the tokens (the tables' window, from the close, is still open)."""
    tokens = started(client, csrf)
    engine = engine_of(client)
    for report, north in tokens.values():
        for board in (1, 2):
            done, _ = hall.west_report(engine, report, board, finish="N E W")  # N-S +1
            hall.north_confirm(engine, hall.grant_for(engine, north), board, done.id)
    _, msg = form(client, f"{BASE}/close", csrf=csrf)
    assert msg == "Round 1 closed and scored.", msg
    form(client, f"{BASE}/publish", csrf=csrf)
    assert hall.round_clock(engine, EV, 1).phase == "published"
    return tokens


def request_of(client: TestClient, tokens: Any, table: int, room: str, board: int,
               finish: str) -> int:
    report, _ = hall.west_report(engine_of(client), tokens[table, room][0], board,
                                 finish=finish, correction="we swapped two seats")
    assert report.state == "requested"
    return report.id


def ns(client: TestClient, table: int, board: int, room: str) -> int | None:
    row = next(r for r in events.match_boards(engine_of(client), EV, 1, table)
               if r.board == board)
    return row.open_ns if room == "open" else row.closed_ns


def test_a_tables_request_accepted_or_dismissed_from_the_desk(client: TestClient) -> None:
    csrf = login(client)
    tokens = published(client, csrf)
    first = request_of(client, tokens, 1, "open", 1, "E N W")  # E-W up 2
    second = request_of(client, tokens, 2, "closed", 2, "N S")
    page = client.get(BASE).text
    section = page.split('id="requests"', 1)[1].split("</section>", 1)[0]
    for rid in (first, second):
        assert f'action="{BASE}/requests/{rid}/accept"' in section
        assert f'action="{BASE}/requests/{rid}/dismiss"' in section
    assert section.count('name="chief"') == 2 and "we swapped two seats" in section
    assert "Accept (counts)" in section and "Dismiss (the result stands)" in section
    # each request shows the result asked for and the one that counts now
    for rid, (table, room, board) in ((first, (1, "open", 1)), (second, (2, "closed", 2))):
        item = unwrap_sides(section.split(f'data-report="{rid}"', 1)[1].split("</li>", 1)[0])
        now = result_text(ns(client, table, board, room), "en")
        assert f"What counts now: {now}" in item, item
    # accepted with no note: the catalogue's words are the reason; the result changes once
    text, msg = form(client, f"{BASE}/requests/{first}/accept", csrf=csrf, note="")
    assert msg == ("Table 1, board 1: the table's request was accepted; it counts as the "
                   "director's correction."), msg
    assert ns(client, 1, 1, "open") == -2
    entry = admin(client, "hall accept")
    assert len(entry) == 1 and entry[0]["by"] == "director"
    assert entry[0]["reason"] == "accepted as the table asked"
    assert f'data-accept="{first}"' not in text  # no longer waiting
    _, msg = form(client, f"{BASE}/requests/{first}/accept", csrf=csrf, note="again")
    assert "not waiting" in msg or "accepted" in msg, msg
    assert len(admin(client, "hall accept")) == 1 and ns(client, 1, 1, "open") == -2
    # dismissed: a reason is needed; the published result stands
    before = state(client)
    _, msg = form(client, f"{BASE}/requests/{second}/dismiss", csrf=csrf, reason=" ")
    assert "Reason" in msg and state(client) == before
    _, msg = form(client, f"{BASE}/requests/{second}/dismiss", csrf=csrf,
                  reason="the scoresheet says N E W")
    assert msg.startswith("Table 2, board 2: the table's request was dismissed"), msg
    assert ns(client, 2, 2, "closed") == 1 and hall.table_requests(engine_of(client), EV) == []
    assert [e["reason"] for e in admin(client, "hall dismiss")] == ["the scoresheet says N E W"]
    # in Chinese: the buttons, the note, the message
    third = request_of(client, tokens, 2, "open", 1, "E S W")
    client.cookies.set("lang", "zh")
    section = client.get(BASE).text.split('id="requests"', 1)[1].split("</section>", 1)[0]
    for words in ("接受（计入）", "驳回（成绩不变）", "以裁判长身份", "说明（可选，记录在案）"):
        assert words in section, words
    _, msg = form(client, f"{BASE}/requests/{third}/accept", csrf=csrf, note="")
    assert msg == "第2桌第1副：已接受该桌的更正申请，作为裁判更正计入成绩。", msg
    # the note is kept as the catalogue's phrase: each reader's language says it
    assert admin(client, "hall accept")[-1]["reason"] == "accepted as the table asked"
    zh = [e for e in events.admin_log(engine_of(client), EV, "zh") if e["action"] == "hall accept"]
    assert zh[-1]["reason"] == "按该桌申请更正"


def age(client: TestClient, minutes: float) -> None:
    """The round's publication ``minutes`` earlier (time passes)."""
    with session_scope(engine_of(client)) as session:
        for row in session.scalars(select(models.HallRound)):
            assert row.published_at is not None
            row.published_at = row.published_at - timedelta(minutes=minutes)


def test_past_the_directors_limit_only_the_chief_director_changes_a_result(
    client: TestClient,
) -> None:
    csrf = login(client)
    tokens = published(client, csrf)
    rid = request_of(client, tokens, 1, "closed", 2, "E N W")
    page = client.get(BASE).text
    assert 'name="chief"' in page.split('id="correct"', 1)[1]  # published: the box is there
    age(client, 21)  # the default limit: 20 minutes after publication
    before = state(client)
    correction = {"table": "1", "board": "1", "room": "open", "result": "NS +3",
                  "reason": "scorer's slip"}
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, **correction)
    assert "after that only the chief director can" in msg and "\n" not in msg, msg
    _, msg = form(client, f"{BASE}/requests/{rid}/accept", csrf=csrf, note="agreed")
    assert "only the chief director" in msg, msg
    _, msg = form(client, f"{BASE}/unfinished", csrf=csrf, table="1", board="1", room="open",
                  reason="time")
    assert "only the chief director" in msg, msg
    client.cookies.set("lang", "zh")
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, **correction)
    assert "此后只有裁判长可以更正" in msg, msg
    client.cookies.set("lang", "en")
    assert state(client) == before
    # as the chief director: allowed, and logged as overriding the limit
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, chief="1", **correction)
    assert msg == "Result corrected: table 1, board 1.", msg
    _, msg = form(client, f"{BASE}/requests/{rid}/accept", csrf=csrf, note="agreed", chief="1")
    assert "accepted" in msg, msg
    assert ns(client, 1, 1, "open") == 3 and ns(client, 1, 2, "closed") == -2
    log = admin(client, "chief override")
    assert [(e["by"], e["reason"]) for e in log] == [("director", "scorer's slip"),
                                                     ("director", "agreed")]
    assert all("after the directors' limit" in e["detail"] for e in log)


def test_a_late_teams_ruling_past_the_limit_from_the_desk_takes_the_chief_box(
    client: TestClient,
) -> None:
    csrf = login(client)
    published(client, csrf)
    engine = engine_of(client)
    team = events.get_round(engine, EV, 1).matches[0].team_y
    back_in_time(engine, 60)  # nobody checked in: every team an hour late
    age(client, 21)
    page = client.get(BASE).text
    row = page.split(f'data-team="{team}"', 1)[1].split("</tr>", 1)[0]
    assert 'class="danger rule-late"' in row and 'name="chief"' in row
    before = state(client)
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=team)
    assert "after that only the chief director can" in msg and "\n" not in msg, msg
    assert state(client) == before
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=team, chief="1")
    assert msg == f"{team} forfeits the round (late).", msg
    assert [e["by"] for e in admin(client, "chief override")] == ["director"]


def test_the_directors_limit_set_from_the_event_desk(client: TestClient) -> None:
    csrf = login(client)
    published(client, csrf)
    url = f"/desk/e/{EVQ}"
    page = client.get(url).text
    assert 'id="limit-form"' in page and "for 20 minutes after" in page
    before = state(client)
    for minutes, reason, words in (("soon", "x", "whole number"), ("-1", "x", "whole minutes"),
                                   ("30", "", "Reason")):
        _, msg = form(client, f"{url}/director-limit", csrf=csrf, minutes=minutes,
                      reason=reason)
        assert words in msg, (minutes, msg)
    assert state(client) == before
    page, msg = form(client, f"{url}/director-limit", csrf=csrf, minutes="30",
                     reason="a long day")
    assert msg == ("The directors may now change a published result for 30 minutes after "
                   "its round's publication."), msg
    assert events.director_minutes(engine_of(client), EV) == 30 and 'value="30"' in page
    age(client, 25)  # within 30 minutes: no box needed
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, table="2", board="1", room="open",
                  result="-1", reason="misread")
    assert msg == "Result corrected: table 2, board 1.", msg
    _, msg = form(client, f"{url}/director-limit", csrf=csrf, minutes="", reason="no limit")
    assert "at any time (no limit)" in msg
    assert events.director_minutes(engine_of(client), EV) is None
    age(client, 24 * 60)
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, table="2", board="1", room="open",
                  result="+2", reason="a day later")
    assert msg == "Result corrected: table 2, board 1.", msg
    assert admin(client, "chief override") == []
    assert [e["detail"] for e in admin(client, "director limit")] == [
        "directors' limit after publication: 20 min -> 30 min",
        "directors' limit after publication: 30 min -> none"]


# --- an event deleted; board sets and seeds -------------------------------------------------


def test_an_event_deleted_after_its_name_is_typed_again(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    ask = client.get(f"/desk/e/{EVQ}/delete")
    assert ask.status_code == 200 and 'name="confirm"' in ask.text
    _, msg = form(client, f"/desk/e/{EVQ}/delete", csrf=csrf, confirm="Spring", reason="test")
    assert msg == f"Type the event's name exactly ({EV}) to delete it.", msg
    assert [e.name for e in events.list_events(engine)] == [EV]
    r = client.post(f"/desk/e/{EVQ}/delete", data={"csrf": csrf, "confirm": EV,
                                                   "reason": "a test event"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/desk"
    assert flash_of(client.get("/desk").text) == f"Event {EV} deleted."
    assert events.list_events(engine) == []
    assert client.get(f"/desk/e/{EVQ}").status_code == 404
    # the API: the name again, or nothing happens
    make_event(client, csrf)
    assert client.post(f"{API}/delete", headers=BEARER,
                       json={"confirm": "x", "reason": "y"}).status_code == 422
    r = client.post(f"{API}/delete", headers=BEARER, json={"confirm": EV, "reason": "gone"})
    assert r.status_code == 200 and events.list_events(engine) == []


def test_board_sets_listed_and_a_seed_made_at_the_desk(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    page = client.get("/desk/sets").text
    assert f'data-set="{EV}"' in page and "seed-download" not in page
    r = client.post("/desk/seed", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/desk/sets"
    page = client.get("/desk/sets").text
    commitment = re.search(r'<code id="commitment">([0-9a-f]+)</code>', page)
    assert commitment is not None
    assert flash_of(page).startswith(f"A new secret seed (commitment {commitment[1][:16]}")
    again = client.get("/desk/sets").text  # a reload: the same seed, none drawn
    assert commitment[1] in again
    seed = client.get("/desk/seed/file")
    assert seed.status_code == 200 and "attachment" in seed.headers["content-disposition"]
    assert parse_seed_file(seed.content).commitment == commitment[1]
    assert client.post("/desk/seed", data={}, follow_redirects=False).status_code == 403
    # the API
    sets = client.get("/api/board-sets", headers=BEARER).json()
    assert [s["name"] for s in sets] == [EV] and "secret" not in str(sets)
    made = client.post("/api/seeds", headers=BEARER).json()
    assert parse_seed_file(made["seed_file"].encode()).commitment == made["commitment"]
    assert TestClient(client.app).post("/api/seeds").status_code == 401


# --- every new form: login, CSRF ------------------------------------------------------------

NEW_FORMS = [
    f"{BASE}/reports/1/confirm", f"{BASE}/reports/1/dismiss", f"{BASE}/unfinished",
    f"{BASE}/release", f"{BASE}/clock/pause", f"{BASE}/clock/resume", f"{BASE}/clock/move",
    f"{BASE}/late", f"/desk/e/{EVQ}/team-change", f"/desk/e/{EVQ}/import",
    f"/desk/e/{EVQ}/delete", "/desk/seed", f"{BASE}/requests/1/accept",
    f"{BASE}/requests/1/dismiss", f"/desk/e/{EVQ}/director-limit",
]


def test_every_new_form_needs_the_director_and_a_csrf_token(client: TestClient) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    west(client, tokens, 1, "open", 1, "N S")
    before = snapshot(engine_of(client))
    data = {"reason": "x", "team": "Tigers", "board": "1", "table": "1", "minutes": "5",
            "what": "withdraw", "confirm": EV}
    for path in NEW_FORMS:
        for token in (None, "forged"):
            body = dict(data) if token is None else {**data, "csrf": token}
            r = client.post(path, data=body, follow_redirects=False)
            assert r.status_code == 403, path
    stranger = TestClient(client.app)
    for path in NEW_FORMS:
        r = stranger.post(path, data={**data, "csrf": csrf}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/desk/login"), path
    for path in ("/desk/sets", f"/desk/e/{EVQ}/delete", f"{BASE}/cards/printed"):
        r = stranger.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/desk/login"), path
    assert snapshot(engine_of(client)) == before


# --- words: stored phrases in the page's language ------------------------------------------


def rulings_rows(page: str) -> list[list[str]]:
    """The cells of the rulings table (text only)."""
    rows = re.findall(r'<tr data-ruling="\d+">(.*?)</tr>', page, re.S)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", r, re.S)]
            for r in rows]


def test_stored_phrases_are_said_in_the_pages_language(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    match = events.get_round(engine, EV, 1).matches[0]
    team = match.team_y
    for m in events.get_round(engine, EV, 1).matches:
        hall.check_in(engine, EV, 1, m.team_x, "director")
    back_in_time(engine, 6)
    form(client, f"{BASE}/late", csrf=csrf, team=team)  # stored as a code and its values
    # a row stored before codes were: the English sentence the desk used to store
    hall.record_ruling(engine, EV, 1, match.table, "warning", "none", "director",
                       f"{match.team_x} arrived 5.7 minutes late", team=match.team_x)
    hall.record_ruling(engine, EV, 1, match.table, "warning", "none", "Chief Wang",
                       "slow play")  # a person's own words stay as typed
    english = rulings_rows(client.get(BASE).text)
    late = re.compile(r"^(.+) not checked in (\d+\.\d) minutes after the start "
                      r"\(by the round clock\)$")
    assert late.match(english[0][7]) and english[0][8] == "director"
    assert english[1][7] == f"{match.team_x} arrived 5.7 minutes late"
    assert english[2][7:9] == ["slow play", "Chief Wang"]
    client.cookies.set("lang", "zh")
    chinese = rulings_rows(client.get(BASE).text)
    minutes = late.match(english[0][7])[2]  # type: ignore[index]
    assert chinese[0][7] == f"{team}开赛{minutes}分钟后仍未签到（按本轮计时）"
    assert chinese[0][8] == "裁判"
    assert chinese[1][7] == f"{match.team_x}迟到5.7分钟"
    assert chinese[2][7:9] == ["slow play", "Chief Wang"]
    for row in chinese:
        assert "arrived" not in " ".join(row) and "director" not in " ".join(row)
    stored = [r.reason for r in hall.rulings(engine, EV, 1)]
    assert stored[0].startswith("@@hall.reason.late_out ") and "arrived" not in stored[0]
    api = client.get(f"{API}/rulings", headers=BEARER).json()
    assert [r["reason_text"] for r in api] == [english[0][7], english[1][7], "slow play"]
    assert api[0]["reason"] == stored[0]


def test_english_pages_use_english_headings(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    page = client.get(f"/e/{EVQ}").text
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", page)]
    assert "Progressive score (累进分)" in heads and "Swing (级差分)" in heads, heads
    for h in heads:  # a Chinese term only as a gloss after the English words
        assert not re.match(r"^[\u4e00-\u9fff]", h), h
