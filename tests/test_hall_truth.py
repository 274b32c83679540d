"""One truth for a room result, publishing that means something, every change logged as it
happened: through the whole application (FastAPI's test client), on each database.

* Whichever path sets a room's result (the table's report, a record with it, a dispute
  settled, a director's ruling, a director's correction), every view shows the one
  finishing order the store counted it from: the public board and match pages, the
  public API's board and match, the director's history, the export (records), the
  standings (a recount from the store).
* After publication (公示) a table's correction changes nothing: it is a request on the
  desk; the director accepts it (then it is shown publicly as a correction, and the
  standings say "corrected since") or dismisses it.
* The log names the table, room and seats and keeps the table's own typed reason.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.hall import (
    EV,
    EVENT,
    Hall,
    finish_round,
    open_hall,
    refused,
    room_result,
)
from sqlalchemy import select
from test_web_api_director import login

from duplicate import db, events, models, store
from duplicate.db import session_scope
from duplicate.events.site import write_event_site
from duplicate.gdn import loads, split_deals

PATHS = ("table", "record", "settlement", "ruling", "correction")


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def _record(h: Hall, table: int, room: str, board: int) -> tuple[str, str]:
    """A bot's play record of the board in that room, and its finishing order as the
    table would report it (two seats for a double down, else three)."""
    texts = events.bot_records(h.engine, EVENT, 1, "heuristic", "heuristic")
    tables = [m.table for m in events.list_matches(h.engine, EVENT, 1)]
    for _, text in split_deals(texts[tables.index(table)]):
        rec = loads(text)[0]
        if (rec.tags.get("Board"), rec.tags.get("Room", "").lower()) == (str(board), room):
            assert rec.finish is not None
            return text, store.canonical_finish(" ".join(s.name for s in rec.finish)) or ""
    raise AssertionError("no record of that room")


def _set_by(h: Hall, path: str) -> tuple[str | None, int]:
    """Table 1's open room of board 1 set by ``path``; the order and result expected."""
    if path == "record":
        text, finish = _record(h, 1, "open", 1)
        r = h.report(1, "open", 1, finish=finish, record=text)
        assert r.status_code == 201, r.text
        assert h.confirm(1, "open", r.json()["id"]).status_code == 200
        return finish, store.result_of_finish(finish)
    r = h.report(1, "open", 1, finish="E N W")  # E-W up 2
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    if path == "settlement":
        d = h.client.post(f"/api/table/{h.token(1, 'open', 'confirm')}/reports/{rid}/dispute",
                          json={"note": "North went out first"})
        assert d.status_code == 200, d.text
        s = h.director("POST", f"/disputes/{rid}/settle",
                       json={"reason": "both pairs agree", "finish": "N E S"})
        assert s.status_code == 200, s.text
        return "N E S", 2
    assert h.confirm(1, "open", rid).status_code == 200
    if path == "table":
        return "E N W", -2
    if path == "ruling":
        r = h.director("POST", "/rounds/1/rulings", json={
            "table": 1, "category": "foul", "effect": "assigned", "board": 1,
            "room": "open", "ns_result": 3, "reason": "revoke: offenders double down"})
        assert r.status_code == 201, r.text
        return None, 3  # an N-S result ruled without an order: no order shown
    r = h.director("POST", "/rounds/1/corrections", json={
        "table": 1, "board": 1, "room": "open", "finish": "W E", "reason": "sheet misread"})
    assert r.status_code == 200, r.text
    return "W E", -3


def _page_finish(html: str, table: int, room: str) -> tuple[str, str]:
    """(data-finish, data-ns) of a room on the public board page."""
    section = html.split(f'id="table-{table}"', 1)[1].split("</section>", 1)[0]
    part = section.split(f'room-{room}"', 1)[1]
    m = re.search(r'data-ns="([^"]*)" data-finish="([^"]*)"', part)
    assert m is not None, part[:400]
    return m.group(2), m.group(1)


def _rest(h: Hall) -> None:
    """Every other room of every board reported and confirmed (N E S: N-S up 2)."""
    for table in (1, 2):
        for room in ("open", "closed"):
            for board in (1, 2):
                if (table, room, board) == (1, "open", 1):
                    continue
                r = h.report(table, room, board, finish="N E S")
                assert r.status_code == 201, r.text
                assert h.confirm(table, room, r.json()["id"]).status_code == 200


@pytest.mark.parametrize("path", PATHS)
def test_every_view_shows_the_order_the_result_was_counted_from(
    h: Hall, path: str, tmp_path: Path
) -> None:
    finish, ns = _set_by(h, path)
    _rest(h)
    shown = finish or ""
    # the public board page: the store's order, never West's report ("E N W")
    page = h.client.get(f"/e/{EV}/round/1/board/1")
    assert page.status_code == 200
    assert _page_finish(page.text, 1, "open") == (shown, str(ns))
    if finish != "E N W":
        assert 'data-finish="E N W"' not in page.text
    # the public API's board and match
    board = h.client.get(f"/api/events/{EV}/rounds/1/boards/1").json()
    t1 = next(t for t in board["tables"] if t["table"] == 1)
    assert (t1["open_finish"], t1["open"]) == (finish, f"{ns:+d}")
    match = h.client.get(f"/api/events/{EV}/rounds/1/tables/1").json()
    assert (match["boards"][0]["open_finish"], match["boards"][0]["open_ns"]) == (finish, ns)
    # the public match page
    mpage = h.client.get(f"/e/{EV}/round/1/table/1").text
    row = mpage.split('data-board="1"', 1)[1].split("</tr>", 1)[0]
    assert f'data-finish="{shown}"' in row
    # the director's history: the last change of the room, with its order
    log = h.director("GET", "/log").json()["history"]
    last = [e for e in log if (e["table"], e["board"], e["room"]) == (1, 1, "open")][-1]
    assert last["finish_after"] == finish
    # the store itself, and the standings recounted from it
    (now,) = [c for c in store.current_results(h.engine, event=EVENT)
              if (c.key.table, c.board, c.key.room) == ("1", "1", "open")]
    assert (now.state.ns_result, now.state.finish) == (ns, finish)
    assert room_result(h.engine, 1, 1, "open") == ns
    standings = h.client.get(f"/api/events/{EV}/standings").json()
    rows, through = events.event_standings(h.engine, EVENT)
    assert standings["through"] == through == 1
    assert [(r["team"], r["points"]) for r in standings["rows"]] == [
        (r.team, r.points) for r in rows
    ]
    # the static report (guandan event report / the site): the match page's open cell
    write_event_site(h.engine, EVENT, str(tmp_path))
    report = (tmp_path / "match-r1-t1.html").read_text("utf-8")
    row = report.split("<tr><td>1</td>", 1)[1].split("</tr>", 1)[0]
    assert re.findall(r'data-finish="([^"]*)"', row)[0] == shown  # the open room
    # the export: a room with a record gives it, its order the one counted
    text = h.director("GET", "/rounds/1/export").text
    if path == "record":
        opened = [r for r in loads(text)  # table 1's is the only record of the round
                  if (r.tags.get("Board"), r.tags.get("Room", "").lower()) == ("1", "open")]
        assert len(opened) == 1 and opened[0].finish is not None
        assert store.canonical_finish(" ".join(s.name for s in opened[0].finish)) == finish


def _publish(h: Hall) -> None:
    finish_round(h)  # every room N-S +1 ("N E W")
    assert h.director("POST", "/rounds/1/close").status_code == 200
    assert h.director("POST", "/rounds/1/publish").status_code == 200


def test_a_table_correction_after_publication_is_a_request_on_the_desk(h: Hall) -> None:
    _publish(h)
    first = h.client.get(f"/api/events/{EV}/standings")
    etag, before = first.headers["etag"], first.json()
    assert before["provisional"] is False and before["corrected"] is False
    # within the table's window: West corrects, North confirms; the result stays
    r = h.report(1, "open", 1, finish="E W", correction="we misread the order")
    assert r.status_code == 201, r.text
    rid = r.json()["id"]
    assert r.json()["state"] == "requested"
    refused(h.confirm(1, "open", rid), 409)  # it waits for the director, not for North
    west = h.token(1, "closed", "report")  # West's phone page says so too
    r = h.client.post(f"/t/{west}/report", data={
        "board": "2", "first": "E", "second": "W", "third": "",
        "correction": "the phone's page"}, follow_redirects=True)
    assert r.status_code == 200 and "went to the director as a request" in r.text
    assert room_result(h.engine, 1, 2, "closed") == 1
    assert room_result(h.engine, 1, 1, "open") == 1
    assert h.client.get(f"/api/events/{EV}/standings",
                        headers={"If-None-Match": etag}).status_code == 304
    assert 'class="published corrected"' not in h.client.get(f"/e/{EV}").text
    waiting = h.director("GET", "/requests").json()
    assert [(w["id"], w["correction"]) for w in waiting][0] == (rid, "we misread the order")
    assert [w["correction"] for w in waiting][1:] == ["the phone's page"]
    status = h.director("GET", "/rounds/1/status").json()
    assert status[0]["boards"][0]["state"] == "requested"
    # the director accepts it: it counts, and is shown as a correction
    r = h.director("POST", f"/requests/{rid}/accept", json={"reason": "both pairs agree"})
    assert r.status_code == 200 and r.json()["state"] == "accepted", r.text
    assert room_result(h.engine, 1, 1, "open") == -3
    after = h.client.get(f"/api/events/{EV}/standings").json()
    assert after["provisional"] is False and after["corrected"] is True
    (c,) = after["corrections"]
    assert (c["table"], c["board"], c["room"]) == (1, 1, "open")
    assert (c["before"]["ns_result"], c["after"]["ns_result"], c["after"]["finish"]) == (
        1, -3, "E W")
    assert c["by"] == "director" and "we misread the order" in c["reason"]
    assert "both pairs agree" in c["reason"] and c["at"]
    assert "we misread the order" in c["reason_text"] and "@@" not in c["reason_text"]
    page = h.client.get(f"/e/{EV}").text
    assert 'data-corrected="1"' in page and "we misread the order" in page
    assert "published, 1 result corrected since" in page  # one result, not "result(s)"
    assert "已公示，其后更正 1 项成绩" in h.client.get(f"/e/{EV}?lang=zh").text
    match = h.client.get(f"/e/{EV}/round/1/table/1").text
    assert 'id="corrections"' in match and "we misread the order" in match
    assert "both pairs agree" in h.client.get(f"/e/{EV}/round/1/board/1").text
    assert "we misread the order" in h.client.get(f"/e/{EV}/round/1").text
    assert h.client.get(f"/api/events/{EV}/rounds/1/tables/1").json()["corrections"]
    # another request, dismissed: nothing changes, the dismissal is logged
    r = h.report(2, "closed", 2, finish="W E", correction="sure it was W E")
    rid2 = r.json()["id"]
    r = h.director("POST", f"/requests/{rid2}/dismiss", json={"reason": "the sheet says N E"})
    assert r.status_code == 200 and r.json()["state"] == "dismissed", r.text
    assert room_result(h.engine, 2, 2, "closed") == 1
    refused(h.director("POST", f"/requests/{rid2}/accept", json={"reason": "x"}), 409)
    log = h.director("GET", "/log").json()
    assert any(e["action"] == "hall dismiss" and e["reason"] == "the sheet says N E"
               for e in log["admin"])
    assert len(h.client.get(f"/api/events/{EV}/standings").json()["corrections"]) == 1
    # a director's own correction after publication is listed too
    r = h.director("POST", "/rounds/1/corrections", json={
        "table": 2, "board": 1, "room": "open", "ns_result": -1, "reason": "score slip"})
    assert r.status_code == 200, r.text
    listed = h.client.get(f"/api/events/{EV}/standings").json()["corrections"]
    assert [x["reason"] for x in listed][-1] == "score slip" and len(listed) == 2
    assert all("@@" not in x["reason_text"] for x in listed)


def test_the_log_names_the_table_and_keeps_its_typed_reason(h: Hall) -> None:
    r = h.report(1, "open", 1, finish="N E W")
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    r = h.report(1, "open", 1, finish="E W", correction="West miscounted the last trick")
    assert r.status_code == 201, r.text
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    log = h.director("GET", "/log").json()["history"]
    mine = [e for e in log if (e["table"], e["board"], e["room"]) == (1, 1, "open")]
    assert [(e["action"], e["reason"]) for e in mine][0] == (
        "report", "West's report, confirmed by North")
    assert [e["action"] for e in mine] == ["report", "correction"]
    fixed = mine[-1]
    assert fixed["by"] == "table 1 open West"  # the seat that reported it, not North
    assert fixed["reason"] == "West miscounted the last trick"
    assert (fixed["finish_before"], fixed["finish_after"]) == ("N E W", "E W")
    assert fixed["before"].startswith("NS +1") and fixed["after"].startswith("EW +3")
    # the desk shows it: who, why, before and after
    csrf = login(h)
    assert csrf
    desk = h.client.get(f"/desk/e/{EV}/round/1").text
    history = desk.split('id="history"', 1)[1].split("</section>", 1)[0]
    assert "West miscounted the last trick" in history
    assert "table 1 open room, West" in history  # who, said in the page's language


def test_migration_0011_fills_orders_and_maps_requests_back(h: Hall) -> None:
    text, finish = _record(h, 2, "open", 2)
    events.import_texts(h.engine, EVENT, [text], round_no=1)  # a record imported
    for table in (1, 2):
        for room in ("open", "closed"):
            for board in (1, 2):
                if (table, room, board) != (2, "open", 2):
                    r = h.report(table, room, board, finish="N E W")
                    assert h.confirm(table, room, r.json()["id"]).status_code == 200
    assert h.director("POST", "/rounds/1/close").status_code == 200
    assert h.director("POST", "/rounds/1/publish").status_code == 200
    rid = h.report(1, "open", 1, finish="E W", correction="asked after publication").json()["id"]

    def imported() -> tuple[str | None, int | None]:
        """The order and record of the room's latest change, read at any revision."""
        r, c = models.RoomResult, models.ResultChange
        with session_scope(h.engine) as session:
            found = session.execute(
                select(c.finish, c.record_id).join(r, r.id == c.result_id)
                .where(r.table_key == "2", r.board == "2", r.room == "open", r.event == EVENT)
                .order_by(c.id.desc()).limit(1)
            ).one()
            return found[0], found[1]

    def report() -> tuple[str, bool | None]:
        with session_scope(h.engine) as session:
            row = session.get(models.HallReport, rid)
            assert row is not None
            return row.state, row.live

    assert imported()[0] == finish and report() == ("requested", True)
    # revision 0008 has no time zones: an event in UTC loses none of its own by going there
    events.set_time_zone(h.engine, EVENT, "UTC", by="TD", reason="revision 0008 has no zones")
    db.downgrade(h.engine, "0008")  # revision 0008 kept no order for a record's result
    assert imported()[0] is None and report() == ("replaced", None)
    db.upgrade(h.engine)  # derived from the record again
    assert imported()[0] == finish and imported()[1] is not None
