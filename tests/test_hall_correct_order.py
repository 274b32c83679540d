"""A director's correction from a finishing order, and a correction that changes nothing
(SQLite and PostgreSQL): the desk and ``guandan event correct`` take the order the result
is counted from, as the API does, and keep it in the log; an N–S result that a room
already counts (from no order, or from the order it holds) is refused as not a
correction, in the asker's language, and nothing is written or logged."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner
from fastapi.testclient import TestClient
from test_web_desk import EV, engine_of
from test_web_desk_actions import API, BASE, BEARER, form, login, ns, published, state

from cli import main
from duplicate import events

NOTHING_EN = ("round 1, table 1, board 1, open room already counts NS +1 (reported, finish "
              "N E W): a correction that changes nothing is not one (give another result or "
              "finishing order)")
NOTHING_ZH = "没有任何改动，不算更正（请给出不同的结果或出完顺序）"


def orders(client: TestClient) -> list[tuple[Any, ...]]:
    """Every logged change of table 1, board 1, open room: action, results, orders."""
    return [(c["action"], c["after_ns"], c["finish_after"])
            for c in events.result_log(engine_of(client), EV, 1)
            if (c["table"], c["board"], c["room"]) == (1, 1, "open")]


def test_the_desk_refuses_a_correction_that_changes_no_number(client: TestClient) -> None:
    csrf = login(client)
    published(client, csrf)  # every room reported "N E W": N-S up 1
    before, log = state(client), orders(client)
    assert log[-1][1:] == (1, "N E W")
    same = {"table": "1", "board": "1", "room": "open", "reason": "checked", "chief": "1"}
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, result="NS +1", **same)
    assert msg.endswith(NOTHING_EN), msg
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, finish="N E W", **same)
    assert msg.endswith(NOTHING_EN), msg
    client.cookies.set("lang", "zh")
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, result="南北+1", **same)
    assert NOTHING_ZH in msg and "第1轮第1桌第1副开室已记为南北升1级" in msg, msg
    client.cookies.set("lang", "en")
    assert state(client) == before and orders(client) == log  # nothing written, nothing logged
    # the API says the same, and writes nothing either
    r = client.post(f"{API}/rounds/1/corrections", headers=BEARER, json={
        "table": 1, "board": 1, "room": "open", "ns_result": 1, "reason": "checked",
        "chief": True})
    assert r.status_code >= 400 and r.json()["message"] == NOTHING_EN, r.text
    assert state(client) == before


def test_the_desk_corrects_from_a_finishing_order(client: TestClient) -> None:
    csrf = login(client)
    published(client, csrf)
    page = client.get(BASE).text
    form_html = page.split('id="correct-form"', 1)[1].split("</form>", 1)[0]
    assert 'name="finish"' in form_html and 'name="result"' in form_html
    correction = {"table": "1", "board": "1", "room": "open", "reason": "wrong order",
                  "chief": "1"}
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, finish="E N W", **correction)
    assert msg == "Result corrected: table 1, board 1.", msg
    assert ns(client, 1, 1, "open") == -2
    assert orders(client)[-1] == ("ruling", -2, "E N W")
    # the order alone changed (the same result): a correction, the order kept
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, finish="W N E", **correction)
    assert msg == "Result corrected: table 1, board 1.", msg
    assert orders(client)[-1] == ("ruling", -2, "W N E")
    # an order and a result that disagree: refused
    _, msg = form(client, f"{BASE}/corrections", csrf=csrf, finish="N S", result="EW +1",
                  **correction)
    assert msg.endswith("the finishing order N S gives N–S +3, not -1"), msg
    assert orders(client)[-1] == ("ruling", -2, "W N E")


def test_event_correct_takes_a_finishing_order(client: TestClient, migrated_url: str) -> None:
    csrf = login(client)
    published(client, csrf)
    log = orders(client)
    args = ["event", "--db", migrated_url, "correct", EV, "--round", "1", "--table", "1",
            "--board", "1", "--room", "open", "--by", "Li", "--reason", "checked", "--chief"]
    same = CliRunner().invoke(main, [*args, "--result", "NS +1"])
    assert same.exit_code == 1 and NOTHING_EN in same.output, same.output
    zh = CliRunner().invoke(main, ["--lang", "zh", *args, "--finish", "北 东 西"])
    assert zh.exit_code == 1 and NOTHING_ZH in zh.output, zh.output
    assert orders(client) == log
    neither = CliRunner().invoke(main, args)
    assert neither.exit_code == 2 and "--finish" in neither.output
    done = CliRunner().invoke(main, [*args, "--finish", "东 北 西"])
    assert done.exit_code == 0, done.output
    assert "EW +2" in done.output or "E–W up 2" in done.output, done.output
    assert orders(client)[-1] == ("ruling", -2, "E N W")
    assert events.list_corrections(engine_of(client), EV)[-1]["by"] == "Li"
