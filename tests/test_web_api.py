"""The hall service's JSON API, tables' part: with FastAPI's test client on a
migrated database (SQLite, and PostgreSQL when configured).

Every table endpoint: the right token does its one thing, and the result counts only
once North confirms (everything else is refused: test_web_api_refusals.py). The event
set up through the director's API is tests/helpers/hall.py's (fixture ``hall_round``).
"""

from __future__ import annotations

from helpers.hall import (
    EVENT,
    Hall,
    refused,
    room_result,
    snapshot,
)

from duplicate import events, hall

# --- the right token does its one thing ------------------------------------------------


def test_table_view_shows_the_tokens_table_and_room(hall_round: Hall) -> None:
    for card in hall_round.cards:
        for role in ("report", "confirm"):
            r = hall_round.client.get(f"/api/table/{card[f'{role}_token']}")
            assert r.status_code == 200, r.text
            view = r.json()
            assert view["grant"] == {
                "event": EVENT, "round_no": 1, "table": card["table"], "room": card["room"],
                "role": role,
            }
            assert view["team_ns"] == card["team_ns"] and view["team_ew"] == card["team_ew"]
            assert view["seats"] == {
                "north": card["seats"]["N"], "east": card["seats"]["E"],
                "south": card["seats"]["S"], "west": card["seats"]["W"],
            }
            assert [b["board"] for b in view["boards"]] == [1, 2]
            assert all(b["state"] == "not_in" for b in view["boards"])
            assert view["clock"]["phase"] == "running"


def test_cards_name_four_rooms_with_urls_of_their_tokens(hall_round: Hall) -> None:
    cards = hall_round.cards
    assert sorted((c["table"], c["room"]) for c in cards) == [
        (1, "closed"), (1, "open"), (2, "closed"), (2, "open")
    ]
    tokens = [c[k] for c in cards for k in ("report_token", "confirm_token")]
    assert len(set(tokens)) == 8 and all(len(t) >= 32 for t in tokens)
    for c in cards:
        assert c["report_url"] == f"https://hall.example.org/t/{c['report_token']}"
        assert c["confirm_url"] == f"https://hall.example.org/t/{c['confirm_token']}"


def test_preview_gives_the_result_of_a_finishing_order(hall_round: Hall) -> None:
    token = hall_round.token(1, "open", "report")
    r = hall_round.client.get(f"/api/table/{token}/preview", params={"finish": "N S"})
    assert r.status_code == 200, r.text
    assert r.json() == {"ns_result": 3, "side": "NS", "levels": 3, "double_down": True}
    r = hall_round.client.get(f"/api/table/{token}/preview", params={"finish": "E N W"})
    assert r.json()["ns_result"] == -2 and r.json()["side"] == "EW"
    refused(hall_round.client.get(f"/api/table/{token}/preview",
                                  params={"finish": "N N E"}), 422)


def test_west_reports_north_confirms_and_the_result_counts(hall_round: Hall) -> None:
    h = hall_round
    r = h.report(1, "open", 1, finish="N E S")
    assert r.status_code == 201, r.text
    report = r.json()
    assert report["state"] == "reported" and report["ns_result"] == 2
    assert report["board"] == 1 and report["table"] == 1 and report["room"] == "open"
    assert room_result(h.engine, 1, 1, "open") is None  # not before North confirms
    # a double tap (or a retry) stores it once
    again = h.report(1, "open", 1, finish="N E S")
    assert again.status_code == 200 and again.json()["id"] == report["id"]
    r = h.confirm(1, "open", report["id"])
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "confirmed"
    assert room_result(h.engine, 1, 1, "open") == 2
    # confirming again changes nothing
    before = snapshot(h.engine)
    assert h.confirm(1, "open", report["id"]).json()["state"] == "confirmed"
    assert snapshot(h.engine) == before
    view = h.client.get(f"/api/table/{h.token(1, 'open', 'confirm')}").json()
    assert view["boards"][0]["state"] == "confirmed" and view["boards"][0]["ns_result"] == 2


def test_unfinished_board_reported_and_confirmed(hall_round: Hall) -> None:
    h = hall_round
    r = h.report(2, "closed", 2, unfinished="time")
    assert r.status_code == 201, r.text
    assert r.json()["unfinished"] == "time" and r.json()["finish"] is None
    assert h.confirm(2, "closed", r.json()["id"]).status_code == 200
    last = events.room_history(h.engine, EVENT, 1, 2, 2, "closed")[-1]
    assert last.new.status == "unfinished" and last.new.note == "time"
    assert room_result(h.engine, 2, 2, "closed") is None


def test_north_disputes_and_the_dispute_goes_to_the_director(hall_round: Hall) -> None:
    h = hall_round
    report = h.report(1, "closed", 2, finish="E W").json()
    token = h.token(1, "closed", "confirm")
    r = h.client.post(f"/api/table/{token}/reports/{report['id']}/dispute",
                      json={"note": "West entered the wrong order"})
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "disputed"
    assert r.json()["dispute_note"] == "West entered the wrong order"
    assert room_result(h.engine, 1, 2, "closed") is None
    listed = h.director("GET", "/disputes").json()
    assert [d["id"] for d in listed] == [report["id"]]


def test_a_different_report_is_refused_unless_a_correction(hall_round: Hall) -> None:
    h = hall_round
    first = h.report(2, "open", 1, finish="N S").json()
    before = snapshot(h.engine)
    refused(h.report(2, "open", 1, finish="E W"), 409)
    assert snapshot(h.engine) == before
    r = h.report(2, "open", 1, finish="E W", correction="tapped the wrong seats")
    assert r.status_code == 201, r.text
    assert r.json()["id"] != first["id"] and r.json()["state"] == "reported"
    states = {x.id: x.state for x in hall.disputes(h.engine, EVENT)}
    assert states == {}
    view = h.client.get(f"/api/table/{h.token(2, 'open', 'report')}").json()
    assert view["boards"][0]["report"]["id"] == r.json()["id"]
    assert view["boards"][0]["report"]["ns_result"] == -3


def test_a_play_record_comes_with_the_report_and_counts(hall_round: Hall) -> None:
    from duplicate.events import prepare_text

    h = hall_round
    texts = events.bot_records(h.engine, EVENT, 1)
    prepared = prepare_text(texts[0], "table1.gdn")
    rec = next(p for p in prepared if p.tags["Board"] == "1" and p.tags["Room"].lower() == "open")
    assert rec.ns_result is not None and rec.finish is not None
    order = {3: "N S", 2: "N E S", 1: "N E W", -1: "E N S", -2: "E N W", -3: "E W"}
    finish, wrong = order[rec.ns_result], order[-rec.ns_result]
    before = snapshot(h.engine)
    refused(h.report(1, "open", 1, finish=wrong, record=rec.text), 422)  # says another result
    refused(h.report(1, "closed", 1, finish=finish, record=rec.text), 422)  # another room
    assert snapshot(h.engine) == before
    r = h.report(1, "open", 1, finish=finish, record=rec.text)
    assert r.status_code == 201, r.text
    assert r.json()["has_record"] is True
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    assert room_result(h.engine, 1, 1, "open") == rec.ns_result
    last = events.room_history(h.engine, EVENT, 1, 1, 1, "open")[-1]
    assert last.new.record_hash is not None
