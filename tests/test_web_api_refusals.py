"""The hall service's JSON API, tables' part: everything but the right token
is refused and changes nothing: the other role's token, other tables' and rooms' tokens,
unknown, forged, missing and void tokens, a board the round does not play, a closed
round without a correction, an expired correction window, a record that does not fit.
The store, the reports, the rulings and the logs are compared before and after."""

from __future__ import annotations

from helpers.hall import (
    Hall,
    finish_round,
    make_client,
    refused,
    room_result,
    setup_round,
    snapshot,
)

from duplicate.db import make_engine

# --- everything else is refused and changes nothing -------------------------------------


def test_a_confirm_token_cannot_report_and_a_report_token_cannot_confirm(
    hall_round: Hall,
) -> None:
    h = hall_round
    before = snapshot(h.engine)
    token = h.token(1, "open", "confirm")
    refused(h.client.post(f"/api/table/{token}/reports", json={"board": 1, "finish": "N S"}),
            403)
    assert snapshot(h.engine) == before
    report = h.report(1, "open", 1, finish="N S").json()
    before = snapshot(h.engine)
    refused(h.confirm(1, "open", report["id"], role="report"), 403)
    token = h.token(1, "open", "report")
    refused(h.client.post(f"/api/table/{token}/reports/{report['id']}/dispute",
                          json={"note": "no"}), 403)
    assert snapshot(h.engine) == before


def test_the_tokens_of_other_tables_and_rooms_cannot_touch_a_report(hall_round: Hall) -> None:
    h = hall_round
    report = h.report(1, "open", 1, finish="N S").json()
    before = snapshot(h.engine)
    for table, room in ((1, "closed"), (2, "open"), (2, "closed")):
        token = h.token(table, room, "confirm")
        r = h.client.post(f"/api/table/{token}/reports/{report['id']}/confirm")
        assert r.status_code in (403, 404), r.text
        r = h.client.post(f"/api/table/{token}/reports/{report['id']}/dispute",
                          json={"note": "not ours"})
        assert r.status_code in (403, 404), r.text
    assert snapshot(h.engine) == before
    assert room_result(h.engine, 1, 1, "open") is None


def test_unknown_missing_and_malformed_tokens_are_refused(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    real = h.token(1, "open", "report")
    forged = real[:-1] + ("A" if real[-1] != "A" else "B")
    for bad in (forged, "x", "0" * 32, "a" * 129):
        refused(h.client.get(f"/api/table/{bad}"), 403)
        refused(h.client.post(f"/api/table/{bad}/reports", json={"board": 1, "finish": "N S"}),
                403)
    refused(h.client.post("/api/table//reports", json={"board": 1, "finish": "N S"}), 404)
    refused(h.client.post("/api/table/reports", json={"board": 1, "finish": "N S"}), 405)
    assert snapshot(h.engine) == before


def test_reissued_cards_void_the_old_tokens(hall_round: Hall) -> None:
    h = hall_round
    old = h.token(1, "open", "report")
    r = h.director("POST", "/rounds/1/cards")
    assert r.status_code == 201
    refused(h.client.get(f"/api/table/{old}"), 403)
    new = next(c for c in r.json() if c["table"] == 1 and c["room"] == "open")
    assert h.client.get(f"/api/table/{new['report_token']}").status_code == 200


def test_a_board_the_round_does_not_play_is_refused(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    for board in (3, 99):
        r = h.report(1, "open", board, finish="N S")
        assert r.status_code in (400, 404, 422), r.text
        assert r.json()["message"]
    refused(h.report(1, "open", 0, finish="N S"), 422)
    refused(h.report(1, "open", 1), 422)  # neither finish nor unfinished
    refused(h.report(1, "open", 1, finish="N S", unfinished="time"), 422)
    refused(h.report(1, "open", 1, finish="N X"), 422)
    assert snapshot(h.engine) == before


def test_a_closed_round_refuses_reports_without_a_correction(hall_round: Hall) -> None:
    h = hall_round
    finish_round(h)
    r = h.director("POST", "/rounds/1/close")
    assert r.status_code == 200, r.text
    assert r.json()["phase"] == "closed"
    before = snapshot(h.engine)
    refused(h.report(1, "open", 1, finish="N S"), 410)
    assert snapshot(h.engine) == before
    # within the correction window, the table corrects with a reason
    r = h.report(1, "open", 1, finish="N S", correction="North's 3rd was South's")
    assert r.status_code == 201, r.text
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    assert room_result(h.engine, 1, 1, "open") == 3


def test_an_expired_window_makes_every_token_dead(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        with make_client(migrated_url) as client:
            h = Hall(client, engine, setup_round(client, correction_minutes=0))
            finish_round(h)
            assert h.director("POST", "/rounds/1/close").status_code == 200
            before = snapshot(engine)
            for card in h.cards:
                refused(client.get(f"/api/table/{card['report_token']}"), 410)
                refused(client.post(f"/api/table/{card['report_token']}/reports",
                                    json={"board": 1, "finish": "E W", "correction": "late"}),
                        410)
                refused(client.post(f"/api/table/{card['confirm_token']}/reports/1/confirm"),
                        410)
                refused(client.post(f"/api/table/{card['confirm_token']}/reports/1/dispute",
                                    json={"note": "too late"}), 410)
                refused(client.get(f"/api/table/{card['report_token']}/preview",
                                   params={"finish": "N S"}), 410)
            assert snapshot(engine) == before
    finally:
        engine.dispose()


def test_a_record_that_does_not_fit_is_refused(hall_round: Hall) -> None:
    h = hall_round
    before = snapshot(h.engine)
    r = h.report(1, "open", 1, finish="N S", record='[Event "x"]\n1. nonsense\n')
    assert r.status_code in (400, 422), r.text
    big = "x" * (256 * 1024 + 1)
    refused(h.report(1, "open", 1, finish="N S", record=big), 413)
    assert snapshot(h.engine) == before


def test_confirm_with_the_board_named_checks_it(hall_round: Hall) -> None:
    h = hall_round
    report = h.report(1, "open", 2, finish="N S").json()
    token = h.token(1, "open", "confirm")
    before = snapshot(h.engine)
    url = f"/api/table/{token}/reports/{report['id']}"
    refused(h.client.post(f"{url}/confirm", params={"board": 1}), 422)  # not its board
    refused(h.client.post(f"{url}/dispute", json={"note": "x", "board": 1}), 422)
    other = h.token(2, "open", "confirm")
    refused(h.client.post(f"/api/table/{other}/reports/{report['id']}/confirm",
                          params={"board": 2}), 403)  # another table's report
    refused(h.client.post(f"/api/table/{h.token(1, 'open', 'report')}/reports/"
                          f"{report['id']}/confirm", params={"board": 2}), 403)  # West's card
    refused(h.client.post(f"/api/table/{token}/reports/999999/confirm",
                          params={"board": 2}), 404)
    assert snapshot(h.engine) == before
    r = h.client.post(f"{url}/confirm", params={"board": 2})
    assert r.status_code == 200 and r.json()["state"] == "confirmed"
    assert room_result(h.engine, 1, 2, "open") == 3
