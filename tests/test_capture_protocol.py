"""The device protocol of docs/CAPTURE.md, spoken by a strict client written from that
page alone: it checks every answer's fields and types, and plays a legal deal without
the project's engine (a leader plays one card, a follower passes: always legal). Resends
are acknowledged again and stored once, a device that reconnects resumes after the last
acknowledged number, refusals carry their code and the next number, garbage is refused
and stores nothing. The server is the whole service (FastAPI's test client) on both
databases; only the set-up uses the library."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from conftest import DESK_PASSWORD
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.websockets import WebSocketDisconnect
from test_hall_support import EVENT, make_event

from duplicate import capture, events

SEATS = ("N", "E", "S", "W")
BEARER = {"Authorization": f"Bearer {DESK_PASSWORD}"}
STATES = ("not_started", "playing", "ended")
REFUSALS = ("not_recorder", "not_started", "cannot_start", "out_of_order", "resent_differs",
            "out_of_turn", "not_held", "illegal", "over", "bad_action", "undo")


def _keys(data: Any, keys: set[str]) -> dict[str, Any]:
    assert isinstance(data, dict), data
    assert set(data) == keys, (set(data) ^ keys)
    return data


def _seat(value: Any, nullable: bool = False) -> None:
    assert (nullable and value is None) or value in SEATS, value


def _cards(value: Any) -> list[str]:
    assert isinstance(value, list) and all(isinstance(c, str) and 2 <= len(c) <= 3
                                           for c in value), value
    return value


class Device:
    """A recorder's device as docs/CAPTURE.md describes it (no import of the project)."""

    def __init__(self, client: TestClient, token: str, lang: str = "en") -> None:
        self.client, self.token, self.lang = client, token, lang

    def url(self, path: str = "") -> str:
        return f"/api/capture/{self.token}{path}"

    def get(self, path: str = "") -> Any:
        return self.client.get(self.url(path), headers={"Accept-Language": self.lang})

    def post(self, path: str, body: Any = None) -> Any:
        return self.client.post(self.url(path), json=body,
                                headers={"Accept-Language": self.lang})

    def table(self) -> dict[str, Any]:
        r = self.get()
        assert r.status_code == 200, r.text
        data = _keys(r.json(), {"event", "round", "table", "room", "seats", "boards"})
        _keys(data["seats"], set(SEATS))
        for b in data["boards"]:
            _keys(b, {"board", "state", "last"})
            assert b["state"] in STATES and isinstance(b["last"], int) and b["last"] >= 0
        return data

    def state(self, board: int, start: bool = False) -> dict[str, Any]:
        r = self.post(f"/boards/{board}/start") if start else self.get(f"/boards/{board}")
        assert r.status_code == 200, r.text
        data = _keys(r.json(), {"event", "round", "table", "room", "board", "state", "level",
                                "leader", "turn", "last", "hands", "counts", "to_beat",
                                "actions", "finish", "result", "note"})
        assert data["state"] in ("playing", "ended")
        _seat(data["leader"])
        _seat(data["turn"], nullable=True)
        _keys(data["hands"], set(SEATS))
        _keys(data["counts"], set(SEATS))
        for s in SEATS:
            assert len(_cards(data["hands"][s])) == data["counts"][s]
        for i, a in enumerate(data["actions"], 1):
            _keys(a, {"seq", "seat", "cards", "type", "rank"})
            assert a["seq"] == i
            _seat(a["seat"])
            _cards(a["cards"])
        assert data["last"] == len(data["actions"])
        if data["to_beat"] is not None:
            _keys(data["to_beat"], {"seq", "seat", "cards", "type", "rank"})
        if data["state"] == "ended":
            assert data["turn"] is None and data["result"] is not None
            assert [s in SEATS for s in data["finish"]]
        return data

    def act(self, board: int, seq: int, seat: str, cards: list[str]) -> Any:
        return self.post(f"/boards/{board}/actions", {"seq": seq, "seat": seat, "cards": cards})

    def ack(self, board: int, seq: int, seat: str, cards: list[str]) -> dict[str, Any]:
        r = self.act(board, seq, seat, cards)
        assert r.status_code == 200, r.text
        data = _keys(r.json(), {"ack", "stored", "last", "turn", "over"})
        assert data["ack"] == seq and isinstance(data["stored"], bool)
        _seat(data["turn"], nullable=True)
        return data

    def refused(self, r: Any, status: int, code: str) -> dict[str, Any]:
        assert r.status_code == status, r.text
        data = _keys(r.json(), {"error", "message", "refusal", "next"})
        assert data["refusal"] == code and data["refusal"] in REFUSALS
        assert isinstance(data["message"], str) and data["message"]
        assert data["next"] is None or isinstance(data["next"], int)
        return data


def _next_move(state: dict[str, Any]) -> tuple[str, list[str]]:
    """A legal action without the rules engine: a leader plays its first card, a
    follower passes."""
    turn = state["turn"]
    if state["to_beat"] is None:
        return turn, [state["hands"][turn][0]]
    return turn, []


@pytest.fixture
def recorders(migrated_engine: Engine) -> dict[tuple[int, str], str]:
    make_event(migrated_engine, boards=2)
    cards = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")
    return {(c.table, c.room): c.token for c in cards}


def test_a_device_plays_a_board_with_resends_and_a_reconnect(
    client: TestClient, migrated_engine: Engine, recorders: dict[tuple[int, str], str]
) -> None:
    dev = Device(client, recorders[(1, "open")])
    table = dev.table()
    assert (table["table"], table["room"]) == (1, "open")
    assert [b["state"] for b in table["boards"]] == ["not_started", "not_started"]
    dev.refused(dev.get("/boards/1"), 409, "not_started")
    state = dev.state(1, start=True)
    assert state["last"] == 0 and state["turn"] == state["leader"]
    seq = 0
    resent = reconnected = 0
    while state["turn"] is not None:
        seat, cards = _next_move(state)
        seq += 1
        first = dev.ack(1, seq, seat, cards)
        assert first["stored"] is True and first["last"] == seq
        if seq % 7 == 0:  # the answer was lost: the device sends the action again
            again = dev.ack(1, seq, seat, cards)
            assert again == {**first, "stored": False}
            resent += 1
        if seq % 11 == 0:  # the connection dropped: a new device asks where it stands
            dev = Device(client, recorders[(1, "open")])
            assert next(b for b in dev.table()["boards"] if b["board"] == 1)["last"] == seq
            reconnected += 1
        state = dev.state(1)
        assert state["last"] == seq
    assert resent and reconnected
    assert state["state"] == "ended" and state["note"] == "counted"
    # the stored result is the captured one, with no report
    history = events.room_history(migrated_engine, EVENT, 1, 1, 1, "open")
    assert [(c.action, c.by) for c in history] == [("import", "table 1 open Recorder")]
    over = dev.refused(dev.act(1, seq + 1, state["leader"], []), 409, "over")
    assert over["next"] == seq + 1
    dev.refused(dev.post("/boards/1/undo", {"seq": seq}), 409, "undo")
    assert next(b for b in dev.table()["boards"] if b["board"] == 1)["state"] == "ended"


def test_refusals_carry_a_code_and_store_nothing(
    client: TestClient, recorders: dict[tuple[int, str], str]
) -> None:
    dev = Device(client, recorders[(2, "closed")], lang="zh")
    state = dev.state(2, start=True)
    seat, cards = _next_move(state)
    dev.ack(2, 1, seat, cards)
    state = dev.state(2)
    assert dev.refused(dev.act(2, 3, state["turn"], []), 409, "out_of_order")["next"] == 2
    dev.refused(dev.act(2, 1, seat, []), 409, "resent_differs")
    wrong = next(s for s in SEATS if s != state["turn"])
    said = dev.refused(dev.act(2, 2, wrong, []), 409, "out_of_turn")
    assert "轮到" in said["message"]  # in the device's language
    other = next(c for s in SEATS if s != state["turn"] for c in state["hands"][s]
                 if c not in state["hands"][state["turn"]])
    dev.refused(dev.act(2, 2, state["turn"], [other]), 409, "not_held")
    dev.refused(dev.post("/boards/2/actions", {"seq": 2, "seat": state["turn"],
                                               "cards": ["XX"]}), 422, "bad_action")
    # garbage the body's model refuses: JSON errors with no refusal code
    for body in ({"seq": 0, "seat": "N"}, {"seq": 2}, {"seq": "two", "seat": "N"},
                 {"seq": 2, "seat": "NN"}, [1, 2]):
        r = dev.post("/boards/2/actions", body)
        assert r.status_code == 422 and r.json()["error"] == "invalid", r.text
    r = client.post(f"/api/capture/{recorders[(2, 'closed')]}/boards/2/actions",
                    content=b"\xff{not json", headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 422) and r.json()["error"] == "invalid"
    assert dev.state(2)["last"] == 1
    # an unknown token, a report card
    bad = Device(client, "not-a-token")
    r = bad.get()
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    # undo: the last only; a resent undo is answered again
    dev.refused(dev.post("/boards/2/undo", {"seq": 5}), 409, "undo")
    r = dev.post("/boards/2/undo", {"seq": 1})
    assert r.status_code == 200 and _keys(r.json(), {"undone", "last"}) == {"undone": 1,
                                                                            "last": 0}
    assert dev.post("/boards/2/undo", {"seq": 1}).json() == {"undone": 1, "last": 0}
    assert dev.state(2)["actions"] == []


def test_the_director_issues_recorders_cards(client: TestClient, migrated_engine: Engine) -> None:
    make_event(migrated_engine, boards=2)
    url = f"/api/events/{quote(EVENT, safe='')}/rounds/1/recorder-cards"
    assert client.post(url).status_code == 401
    r = client.post(url, headers=BEARER)
    assert r.status_code == 201, r.text
    cards = r.json()
    assert [(c["table"], c["room"]) for c in cards] == [
        (1, "open"), (1, "closed"), (2, "open"), (2, "closed")]
    for c in cards:
        _keys(c, {"event", "round", "table", "room", "seats", "token", "url"})
        assert c["url"].endswith(f"/api/capture/{c['token']}")
    dev = Device(client, cards[0]["token"])
    assert dev.table()["table"] == 1
    again = client.post(url, headers=BEARER, json={"table": 1}).json()
    assert len(again) == 2
    assert dev.get().status_code == 403  # the earlier card of table 1 is void
    assert Device(client, cards[2]["token"]).table()["table"] == 2


def _ws_answer(ws: Any, op: str) -> dict[str, Any]:
    data = json.loads(ws.receive_text())
    assert isinstance(data, dict) and data.get("op") == op, data
    return data


def test_a_device_over_the_websocket_resends_and_reconnects(
    client: TestClient, recorders: dict[tuple[int, str], str]
) -> None:
    token = recorders[(2, "open")]
    seq = 0
    with client.websocket_connect(f"/api/capture/{token}/ws?lang=en") as ws:
        ws.send_text(json.dumps({"op": "table"}))
        table = _ws_answer(ws, "table")
        assert (table["table"], table["room"]) == (2, "open")
        ws.send_text(json.dumps({"op": "start", "board": 1}))
        state = _ws_answer(ws, "state")
        for _ in range(9):
            seat, cards = _next_move(state)
            seq += 1
            msg = json.dumps({"op": "action", "board": 1, "seq": seq, "seat": seat,
                              "cards": cards})
            ws.send_text(msg)
            ack = _keys(_ws_answer(ws, "ack"), {"op", "board", "ack", "stored", "last",
                                                 "turn", "over"})
            assert (ack["ack"], ack["stored"]) == (seq, True)
            ws.send_text(msg)  # resent: acknowledged again, stored once
            assert _ws_answer(ws, "ack")["stored"] is False
            ws.send_text(json.dumps({"op": "state", "board": 1}))
            state = _ws_answer(ws, "state")
        # garbage and refusals answer, and the connection stays
        for junk in ("{", "[1]", json.dumps({"op": "fly"}), json.dumps({"op": "state"})):
            ws.send_text(junk)
            bad = _keys(_ws_answer(ws, "refused"), {"op", "board", "seq", "error", "message",
                                                     "refusal", "next"})
            assert bad["refusal"] == "bad_action" and bad["error"] == "invalid"
        ws.send_bytes(b"\x00\x01")
        assert _ws_answer(ws, "refused")["refusal"] == "bad_action"
        ws.send_text(json.dumps({"op": "action", "board": 1, "seq": seq + 2, "seat": "N",
                                 "cards": []}))
        out = _ws_answer(ws, "refused")
        assert (out["refusal"], out["next"], out["error"]) == ("out_of_order", seq + 1,
                                                               "conflict")
    # the connection dropped: a new one asks where the board stands and resumes
    with client.websocket_connect(f"/api/capture/{token}/ws",
                                  headers={"Accept-Language": "zh"}) as ws:
        ws.send_text(json.dumps({"op": "table"}))
        line = next(b for b in _ws_answer(ws, "table")["boards"] if b["board"] == 1)
        assert line["last"] == seq
        ws.send_text(json.dumps({"op": "state", "board": 1}))
        state = _ws_answer(ws, "state")
        while state["turn"] is not None:
            seat, cards = _next_move(state)
            seq += 1
            ws.send_text(json.dumps({"op": "action", "board": 1, "seq": seq, "seat": seat,
                                     "cards": cards}))
            _ws_answer(ws, "ack")
            ws.send_text(json.dumps({"op": "state", "board": 1}))
            state = _ws_answer(ws, "state")
        assert state["state"] == "ended" and state["note"] == "counted"
        ws.send_text(json.dumps({"op": "undo", "board": 1, "seq": seq}))
        said = _ws_answer(ws, "refused")
        assert said["refusal"] == "undo" and "裁判" in said["message"]
    # the same board over HTTP says the same
    assert Device(client, token).state(1)["last"] == seq


def test_the_websocket_refuses_an_unknown_token(client: TestClient) -> None:
    with client.websocket_connect("/api/capture/nope/ws") as ws:
        out = _ws_answer(ws, "refused")
        assert out["error"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4403


def test_readings_answer_what_a_play_can_be(client: TestClient,
                                            recorders: dict[tuple[int, str], str]) -> None:
    dev = Device(client, recorders[(1, "closed")])
    state = dev.state(1, start=True)
    lead = state["turn"]
    r = dev.post("/boards/1/readings", {"seat": lead, "cards": state["hands"][lead][:1]})
    assert r.status_code == 200, r.text
    data = _keys(r.json(), {"readings"})
    assert len(data["readings"]) == 1
    reading = _keys(data["readings"][0], {"type", "rank"})
    assert reading["type"] == "Single"
    other = next(s for s in SEATS if s != lead)
    r = dev.post("/boards/1/readings", {"seat": other, "cards": state["hands"][other][:1]})
    assert r.json() == {"readings": []}
    assert dev.post("/boards/1/readings", {"seat": lead, "cards": []}).status_code == 422
    assert dev.state(1)["last"] == 0  # nothing stored
    with client.websocket_connect(f"/api/capture/{recorders[(1, 'closed')]}/ws") as ws:
        ws.send_text(json.dumps({"op": "readings", "board": 1, "seat": lead,
                                 "cards": state["hands"][lead][:1]}))
        assert _ws_answer(ws, "readings")["readings"] == data["readings"]
