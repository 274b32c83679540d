"""The hall's rulings and corrections under pressure: a late team's ruling takes
no typed minutes (the round clock measures lateness, and the log says so); the director
API refuses a field its schema does not list (a ``by``: the author is the logged-in
director); a correction that changes nothing logs nothing (command line, API, desk); a
board the director rules leaves no report of it waiting for North, and takes none after
the ruling (the phone and the desk say the same); a replay of a record of a rule variant names ``--variant``. SQLite
and PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select
from test_variants_events import JIEFENG, make_event
from test_web_desk import EV, PASSWORD, engine_of, login
from test_web_desk_actions import API, BASE, back_in_time, form, started, west

from cli import main
from duplicate import events, hall, models
from duplicate.boards import generate_set, store_set
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes

BEARER = {"Authorization": f"Bearer {PASSWORD}"}


def logged(client: TestClient) -> Any:
    """Everything a director's action may write: the admin log, the store's changes, the
    rulings, the reports."""
    engine = engine_of(client)
    return (events.admin_log(engine, EV), events.list_corrections(engine, EV),
            events.result_log(engine, EV), [r.to_dict() for r in hall.rulings(engine, EV)],
            [r.to_dict() for r in hall.pending_reports(engine, EV)])


# --- a correction that changes nothing ------------------------------------------------------


def test_the_same_correction_again_logs_nothing_on_api_and_desk(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    body = {"table": 1, "board": 1, "room": "open", "ns_result": 2, "reason": "sheet misread"}
    r = client.post(f"{API}/rounds/1/corrections", headers=BEARER, json=body)
    assert r.status_code == 200 and r.json()["changed"] is True, r.text
    before = logged(client)
    assert len(before[1]) == 1
    again = client.post(f"{API}/rounds/1/corrections", headers=BEARER,
                        json={**body, "reason": "once more"})
    assert again.status_code == 200 and again.json()["changed"] is False, again.text
    assert logged(client) == before
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, table="1", board="1", room="open",
                  result="NS +2", reason="and again")
    assert msg == "Nothing changed: table 1, board 1 already has that result by a ruling.", msg
    assert logged(client) == before
    # a different result is a change: logged
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, table="1", board="1", room="open",
                  result="NS +3", reason="recounted")
    assert msg == "Result corrected: table 1, board 1.", msg
    assert len(events.list_corrections(engine_of(client), EV)) == 2


def test_the_same_correction_twice_on_the_command_line(client: TestClient,
                                                       migrated_url: str) -> None:
    csrf = login(client)
    started(client, csrf)
    args = ["event", "--db", migrated_url, "correct", EV, "--round", "1", "--table", "1",
            "--board", "2", "--room", "closed", "--result", "EW +1", "--by", "TD Wu",
            "--reason", "misread"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    before = logged(client)
    second = CliRunner().invoke(main, args)
    assert second.exit_code == 0, second.output
    assert second.output.strip().count("\n") == 0 and "nothing changed" in second.output, \
        second.output
    assert logged(client) == before
    assert [c["by"] for c in events.list_corrections(engine_of(client), EV)] == ["TD Wu"]


# --- who corrects: the logged-in director, never a name in the body -------------------------


def test_a_by_in_the_body_is_refused_not_ignored(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    before = logged(client)
    body = {"table": 1, "board": 1, "room": "open", "ns_result": 2, "reason": "misread",
            "by": "Chief Li"}
    r = client.post(f"{API}/rounds/1/corrections", headers=BEARER, json=body)
    assert r.status_code == 422, r.text
    message = r.json()["message"]
    assert "body.by" in message and "\n" not in message, message
    zh = client.post(f"{API}/rounds/1/corrections", json=body,
                     headers={**BEARER, "Accept-Language": "zh-CN"})
    assert zh.status_code == 422 and "不是此请求的字段" in zh.json()["message"], zh.text
    assert logged(client) == before
    # the schema says what it takes: no "by", and nothing else either
    schema = client.get("/api/openapi.json").json()["components"]["schemas"]["CorrectionIn"]
    assert "by" not in schema["properties"] and schema["additionalProperties"] is False
    del body["by"]
    r = client.post(f"{API}/rounds/1/corrections", headers=BEARER, json=body)
    assert r.status_code == 200 and r.json()["by"] == "director", r.text
    fixed = events.list_corrections(engine_of(client), EV)
    assert [(c["by"], c["reason"]) for c in fixed] == [("director", "misread")]


# --- a late team: the round clock's minutes, never typed ones -------------------------------

LATE_TYPED = ("Lateness is the round clock's, from the start to the team's check-in: "
              "minutes cannot be typed.")


def test_a_late_ruling_takes_no_typed_minutes_and_logs_the_clocks(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    first, second = events.get_round(engine, EV, 1).matches
    hall.check_in(engine, EV, 1, first.team_x, "director")
    back_in_time(engine, 6)
    hall.check_in(engine, EV, 1, first.team_y, "director")  # 6 minutes after the start
    assert hall.late_rulings_due(engine, EV, 1)[first.team_y] == "conceded"
    before = logged(client)
    for bad in ("-3", "5.9", "100000", "x"):
        _, msg = form(client, f"{BASE}/late", csrf=csrf, team=first.team_y, minutes=bad)
        assert msg == LATE_TYPED, msg
    r = client.post(f"{API}/rounds/1/late", headers=BEARER,
                    json={"team": first.team_y, "minutes": -3})
    assert r.status_code == 422 and "body.minutes" in r.json()["message"], r.text
    assert logged(client) == before
    # without minutes: the ruling, its reason the clock's number and which one it is
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=first.team_y)
    arrival = next(a for a in hall.arrivals(engine, EV, 1) if a.team == first.team_y)
    assert arrival.checked_in_at is not None and 6 <= arrival.minutes_late < 6.1
    r = client.post(f"{API}/rounds/1/late", headers=BEARER, json={"team": second.team_x})
    assert r.status_code == 201, r.text
    said = [x["reason_text"] for x in client.get(f"{API}/rulings", headers=BEARER).json()]
    assert said[0] == (f"{first.team_y} checked in {arrival.minutes_late:.1f} minutes after "
                       "the start (by the round clock)"), said
    assert said[1].startswith(f"{second.team_x} not checked in 6."), said
    assert said[1].endswith(" minutes after the start (by the round clock)"), said
    client.cookies.set("lang", "zh")
    page = client.get(BASE).text
    assert f"{first.team_y}开赛后{arrival.minutes_late:.1f}分钟签到（按本轮计时）" in page



def test_a_late_ruling_is_the_one_the_page_showed_or_none(client: TestClient) -> None:
    csrf = login(client)
    started(client, csrf)
    engine = engine_of(client)
    first = events.get_round(engine, EV, 1).matches[0]
    hall.check_in(engine, EV, 1, first.team_x, "director")
    back_in_time(engine, 6)
    page = client.get(BASE).text
    assert '<input type="hidden" name="effect" value="conceded">' in page
    back_in_time(engine, 5)  # the page is out of date: the forfeit is due now
    assert hall.late_rulings_due(engine, EV, 1)[first.team_y] == "forfeit"
    before = logged(client)
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=first.team_y, effect="conceded")
    assert "now calls for a forfeited match, not the conceded board" in msg, msg
    assert "nothing was recorded" in msg and "\n" not in msg
    r = client.post(f"{API}/rounds/1/late", headers=BEARER,
                    json={"team": first.team_y, "effect": "conceded"})
    assert r.status_code == 409, r.text
    assert logged(client) == before
    r = client.post(f"{API}/rounds/1/late", headers=BEARER,
                    json={"team": first.team_y, "effect": "forfeit"})
    assert r.status_code == 201 and r.json()["effect"] == "forfeit", r.text

# --- a board the director decides: no report of it waits, on the desk or the phones ----------


def views_agree(client: TestClient, tokens: Any) -> dict[tuple[int, str, int], str]:
    """Every board's state as North's phone shows it, checked against the desk: a board
    is *waiting for North* on the phone exactly when the desk lists its report as
    waiting (API and page). The phones' states."""
    phones: dict[tuple[int, str, int], str] = {}
    for (table, room), (_, confirm) in tokens.items():
        view = client.get(f"/api/table/{confirm}").json()
        for b in view["boards"]:
            phones[table, room, b["board"]] = b["state"]
    pending = client.get(f"{API}/rounds/1/pending", headers=BEARER).json()
    desk = {(r["table"], r["room"], r["board"]) for r in pending}
    assert desk == {k for k, v in phones.items() if v == "reported"}, (desk, phones)
    page = client.get(BASE).text
    for r in pending:
        assert f'data-report="{r["id"]}"' in page
    return phones


def test_a_ruled_board_leaves_no_report_waiting_for_north(client: TestClient) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    first = events.get_round(engine, EV, 1).matches[0]
    table = first.table
    waiting = west(client, tokens, table, "closed", 1, "N S")  # North has not confirmed
    other = west(client, tokens, table, "open", 2, "E W")
    assert views_agree(client, tokens)[table, "closed", 1] == "reported"
    # the late team concedes the first board: the report of it is set aside, visibly
    hall.check_in(engine, EV, 1, first.team_x, "director")
    back_in_time(engine, 6)
    _, msg = form(client, f"{BASE}/late", csrf=csrf, team=first.team_y)
    phones = views_agree(client, tokens)
    assert phones[table, "closed", 1] == "ruled" and phones[table, "open", 1] == "ruled"
    assert phones[table, "open", 2] == "reported"
    dismissed = [e for e in events.admin_log(engine, EV) if e["action"] == "hall dismiss"]
    assert len(dismissed) == 1 and dismissed[0]["by"] == "director", dismissed
    assert "report set aside by the director's decision" in dismissed[0]["detail"]
    assert f"table {table}, board 1, closed room" in dismissed[0]["detail"]
    # North's late confirmation of it changes nothing
    before = logged(client)
    r = client.post(f"/api/table/{tokens[table, 'closed'][1]}/reports/{waiting}/confirm")
    assert r.status_code == 404 and "no report" in r.json()["message"], r.text
    assert logged(client) == before
    # a correction of board 2's open room sets its waiting report aside too
    r = client.post(f"{API}/rounds/1/corrections", headers=BEARER, json={
        "table": table, "board": 2, "room": "open", "ns_result": 1, "reason": "sheet"})
    assert r.status_code == 200, r.text
    assert views_agree(client, tokens)[table, "open", 2] == "ruled"
    r = client.post(f"/api/table/{tokens[table, 'open'][1]}/reports/{other}/confirm")
    assert r.status_code == 404, r.text
    row = next(x for x in events.match_boards(engine, EV, 1, table) if x.board == 2)
    assert row.open_ns == 1  # the director's result stands
    with session_scope(engine) as session:
        rows = {r.id: r for r in session.scalars(select(models.HallReport))}
        for rid, why in ((waiting, first.team_y), (other, "sheet")):
            assert (rows[rid].state, rows[rid].live, rows[rid].settled_by) == (
                "replaced", None, "director")
            assert why in (rows[rid].settled_reason or "")


def test_a_report_sent_after_the_ruling_is_refused_and_both_views_say_ruled(
    client: TestClient,
) -> None:
    csrf = login(client)
    tokens = started(client, csrf)
    engine = engine_of(client)
    first = events.get_round(engine, EV, 1).matches[0]
    hall.record_ruling(engine, EV, 1, first.table, "late", "conceded", "director", "late",
                       team=first.team_y)
    assert views_agree(client, tokens)[first.table, "open", 1] == "ruled"
    before = logged(client)
    with pytest.raises(hall.HallError) as exc:  # West reports the conceded board
        west(client, tokens, first.table, "open", 1, "N S")
    assert exc.value.kind == "conflict" and "the director decided this board" in str(exc.value)
    assert views_agree(client, tokens)[first.table, "open", 1] == "ruled"  # not waiting
    assert logged(client) == before


# --- a replay of a record played under a rule variant --------------------------------------

VARIANT_HINT = ("A record does not say the rules it was played under: one played under a "
                "rule variant of RULES.md replays only with it, e.g. --variant "
                "jiefeng_next=true ('guandan event list' shows an event's rules).")


def test_replay_of_a_variant_events_bots_names_variant(migrated_engine: Engine,
                                                      tmp_path: Path) -> None:
    seed = parse_seed_file(seed_file_bytes(bytes(range(32))))
    store_set(migrated_engine, generate_set(seed, 8, "S", "fixed", None))
    make_event(migrated_engine, "Folk", JIEFENG)
    out = tmp_path / "folk.gdn"
    events.play_bots(migrated_engine, "Folk", 1, out=out)  # 接风 to the 下家
    plain = CliRunner().invoke(main, ["replay", str(out)])
    assert plain.exit_code == 1, plain.output
    assert "out of turn" in plain.stderr and VARIANT_HINT in plain.stderr, plain.stderr
    zh = CliRunner().invoke(main, ["--lang", "zh", "replay", str(out)])
    assert zh.exit_code == 1 and "不该出牌" in zh.stderr, zh.stderr
    assert "须加该变体才能复盘，如 --variant jiefeng_next=true" in zh.stderr, zh.stderr
    given = CliRunner().invoke(main, ["replay", "--variant", "jiefeng_next=true", str(out)])
    assert given.exit_code == 0 and "--variant" not in given.stderr, given.output
