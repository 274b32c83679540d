"""A board the director decided by a ruling (conceded, or its match forfeited) takes no
report from the table (duplicate.hall.decided): the library, the table's API and West's
phone page refuse it in the transaction that would store it, with one line in the asker's
language, and the phones show the decision instead of the form. SQLite and PostgreSQL
(the race of a report with the ruling: PostgreSQL, whose transactions run side by side).
"""

from __future__ import annotations

import html
import re
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from helpers.hall import EVENT as API_EVENT
from helpers.hall import Hall, refused, snapshot
from sqlalchemy import Engine, func, select
from test_hall_support import EVENT, Cards, make_event

from duplicate import events, hall, models
from duplicate.db import session_scope
from duplicate.events import waiting
from duplicate.hall import HallError
from duplicate.hall import reports as hall_reports
from duplicate.hall.decided import guarded_insert


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


def teams(engine: Engine, event: str, table: int) -> tuple[str, str]:
    info = next(m for m in events.list_matches(engine, event, 1) if m.table == table)
    return info.team_x, info.team_y


def reports(engine: Engine) -> list[tuple[Any, ...]]:
    """Every stored report of the round: what a refused one must leave as it was."""
    h = models.HallReport
    with session_scope(engine) as session:
        return [tuple(r) for r in session.execute(
            select(h.id, h.table_no, h.room, h.board, h.state, h.live, h.finish).order_by(h.id))]


def refusal(call: Any) -> HallError:
    with pytest.raises(HallError) as exc:
        call()
    assert exc.value.kind == "conflict", exc.value
    return exc.value


# --- the library ---------------------------------------------------------------------------


def test_a_conceded_board_takes_no_report_in_either_room(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    _, late = teams(e, EVENT, 2)
    ruling = hall.record_ruling(e, EVENT, 1, 2, "late", "conceded", "director", "7 min late",
                                team=late, board=1)
    before = reports(e)
    for room in ("open", "closed"):
        card = cards[2, room]
        grant = hall.grant_for(e, card.report_token)
        for token in (card.report_token, grant):  # the API's path, the page's
            exc = refusal(lambda t=token: hall.west_report(e, t, 1, finish="N S"))
            assert str(exc) == (
                f"round 1, table 2, board 1, {room} room: the director decided this board "
                f"(ruling {ruling.id}: {late} concedes this board); a table's report is not taken"
            )
            assert exc.text("zh") == (
                f"第1轮第2桌{'开室' if room == 'open' else '闭室'}第1副：裁判已裁定这副牌"
                f"（第{ruling.id}号裁定：{late}判负这副牌），不再接受本桌的报分"
            )
            refusal(lambda t=token: hall.west_report(e, t, 1, unfinished="time"))
            refusal(lambda t=token: hall.west_report(e, t, 1, finish="E W", correction="typo"))
    assert reports(e) == before  # nothing stored
    # the phones and the desk show the decision, not a report waiting
    for status in hall.round_status(e, EVENT, 1)[2:4]:
        [b1] = [b for b in status.boards if b.board == 1]
        assert (b1.state, b1.report, b1.decision) == (
            "ruled", None, hall.Decision(ruling.id, "conceded", late))
        assert b1.to_dict()["decision"] == {
            "ruling": ruling.id, "effect": "conceded", "team": late,
            "text": f"ruling {ruling.id}: {late} concedes this board"}
    assert hall.pending_reports(e, EVENT) == []
    # the other boards of the table, and board 1 of the other table, still take reports
    assert hall.west_report(e, cards[2, "open"].report_token, 2, finish="N S")[1] is True
    assert hall.west_report(e, cards[1, "open"].report_token, 1, finish="N S")[1] is True


def test_a_forfeited_match_takes_no_report_not_even_a_correction(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    west = cards[1, "closed"].report_token
    first, _ = hall.west_report(e, west, 2, finish="N S")
    hall.north_confirm(e, cards[1, "closed"].confirm_token, 2, first.id)
    gone, _ = teams(e, EVENT, 1)
    ruling = hall.record_ruling(e, EVENT, 1, 1, "forfeit", "forfeit", "director",
                                "11 minutes late", team=gone)
    before = reports(e)
    for board in (1, 2, 3, 4):
        for room in ("open", "closed"):
            exc = refusal(lambda b=board, r=room: hall.west_report(
                e, cards[1, r].report_token, b, finish="E W", correction="wrong order"))
            assert f"(ruling {ruling.id}: {gone} forfeits the match)" in str(exc)
            assert f"第{ruling.id}号裁定：{gone}本场弃权" in exc.text("zh")
    # the confirmed report was not replaced by the refused correction: all undone
    assert reports(e) == before
    assert [s.boards[1].report.state for s in hall.round_status(e, EVENT, 1)[:2]
            if s.boards[1].report] == ["confirmed"]
    assert hall.west_report(e, cards[2, "open"].report_token, 1, finish="N S")[1] is True


def test_the_insert_itself_stores_nothing_on_a_decided_board(
    migrated_engine: Engine, cards: Cards
) -> None:
    """The refusal is the database's: the report's insert writes its row only if no
    ruling decides the board when it runs, whatever was read before it."""
    e = migrated_engine
    _, late = teams(e, EVENT, 2)
    columns = ("round_id", "table_no", "room", "board", "state", "live", "rev",
               "reported_by", "reported_at", "finish", "ns_result")
    insert = guarded_insert(models.HallReport, columns)
    with session_scope(e) as session:
        round_id = session.scalar(select(models.EventRound.id))

    def values(board: int) -> dict[str, Any]:
        return dict(round_id=round_id, table_no=2, room="open", board=board, state="reported",
                    live=True, rev=1, reported_by="table 2 open West",
                    reported_at=datetime.now(UTC), finish="N S", ns_result=3)

    hall.record_ruling(e, EVENT, 1, 2, "late", "conceded", "director", "late", team=late,
                       board=1)
    with session_scope(e) as session:
        assert session.connection().execute(insert, values(1)).first() is None
        stored = session.connection().execute(insert, values(2)).scalar()
        assert stored is not None
    with session_scope(e) as session:
        h = models.HallReport
        assert session.scalars(select(h.board).where(h.table_no == 2)).all() == [2]


def test_a_report_sent_during_the_ruling_waits_and_is_refused(
    migrated_engine: Engine, cards: Cards, db_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """West's report sent while the director's ruling of that board is being written waits
    for the ruling's commit (the table's advisory lock) and is then refused: it neither
    slips in unseen by the ruling nor waits for North on a decided board."""
    if db_backend != "postgresql":
        pytest.skip("SQLite runs one writer at a time: no report runs beside the ruling")
    e = migrated_engine
    _, late = teams(e, EVENT, 2)
    locked, go = threading.Event(), threading.Event()
    lock_table = waiting.lock_table

    def held(*args: Any, **kwargs: Any) -> None:
        lock_table(*args, **kwargs)
        if not kwargs.get("shared"):  # the ruling holds the table: let the report come
            locked.set()
            assert go.wait(10)

    monkeypatch.setattr(waiting, "lock_table", held)
    out: dict[str, Any] = {}

    def rule() -> None:
        out["ruling"] = hall.record_ruling(e, EVENT, 1, 2, "late", "conceded", "director",
                                           "late", team=late, board=1)

    def report() -> None:
        try:
            out["report"] = hall.west_report(e, cards[2, "open"].report_token, 1, finish="N S")
        except HallError as exc:
            out["refused"] = exc

    ruler, west = threading.Thread(target=rule), threading.Thread(target=report)
    ruler.start()
    try:
        assert locked.wait(10)
        west.start()
        time.sleep(0.5)
        waited = west.is_alive()  # it waits for the ruling
    finally:
        go.set()
        ruler.join(10)
        if west.ident is not None:
            west.join(10)
    assert waited, out
    assert "report" not in out, out
    assert out["refused"].kind == "conflict" and "decided this board" in str(out["refused"])
    with session_scope(e) as session:
        assert session.scalar(select(func.count()).select_from(models.HallReport)) == 0
    [b1] = [b for b in hall.round_status(e, EVENT, 1)[2].boards if b.board == 1]
    assert b1.state == "ruled" and b1.decision is not None


def test_a_ruling_during_a_report_waits_and_sets_it_aside(
    migrated_engine: Engine, cards: Cards, db_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other order: a ruling written while West's report is on its way (read, not yet
    stored) waits for the report's commit (the table's advisory lock), then sets it aside:
    no report of a decided board is left waiting for North."""
    if db_backend != "postgresql":
        pytest.skip("SQLite runs one writer at a time: no ruling runs beside the report")
    e = migrated_engine
    _, late = teams(e, EVENT, 2)
    read, go = threading.Event(), threading.Event()
    check_stored = hall_reports._check_stored

    def paused(*args: Any) -> None:  # West's report has read its rows and holds the lock
        read.set()
        assert go.wait(10)
        check_stored(*args)

    monkeypatch.setattr(hall_reports, "_check_stored", paused)
    out: dict[str, Any] = {}

    def report() -> None:
        out["report"] = hall.west_report(e, cards[2, "open"].report_token, 1, finish="N S")

    def rule() -> None:
        out["ruling"] = hall.record_ruling(e, EVENT, 1, 2, "late", "conceded", "director",
                                           "late", team=late, board=1)

    west, ruler = threading.Thread(target=report), threading.Thread(target=rule)
    west.start()
    try:
        assert read.wait(10)
        ruler.start()
        time.sleep(0.5)
        waited = ruler.is_alive()  # the ruling waits for the report
    finally:
        go.set()
        west.join(10)
        if ruler.ident is not None:
            ruler.join(10)
    assert waited, out
    report, created = out["report"]
    assert created and "ruling" in out
    h = models.HallReport
    with session_scope(e) as session:
        row = session.get(h, report.id)
        assert row is not None and (row.state, row.live) == ("replaced", None)
    [b1] = [b for b in hall.round_status(e, EVENT, 1)[2].boards if b.board == 1]
    assert (b1.state, b1.report) == ("ruled", None)
    assert hall.pending_reports(e, EVENT) == []


# --- the table's API and West's phone ------------------------------------------------------


def conceded(h: Hall, table: int = 1, board: int = 1) -> tuple[int, str]:
    """The director concedes ``board`` of ``table`` for its second team (the API): the
    ruling's id and the team."""
    _, team = teams(h.engine, API_EVENT, table)
    r = h.director("POST", "/rounds/1/rulings", json={
        "table": table, "category": "late", "effect": "conceded", "team": team,
        "board": board, "reason": "six minutes late"})
    assert r.status_code == 201, r.text
    return r.json()["id"], team


def test_the_api_refuses_a_report_of_a_decided_board(hall_round: Hall) -> None:
    h = hall_round
    ruling, team = conceded(h)
    before = snapshot(h.engine)
    body = refused(h.report(1, "open", 1, finish="N S"), 409)
    assert body == {"error": "conflict", "message": (
        f"round 1, table 1, board 1, open room: the director decided this board (ruling "
        f"{ruling}: {team} concedes this board); a table's report is not taken")}
    token = h.token(1, "closed", "report")
    zh = h.client.post(f"/api/table/{token}/reports?lang=zh", json={"board": 1, "finish": "E W"})
    assert refused(zh, 409)["message"] == (
        f"第1轮第1桌闭室第1副：裁判已裁定这副牌（第{ruling}号裁定：{team}判负这副牌），"
        f"不再接受本桌的报分")
    assert snapshot(h.engine) == before
    # the table's view says why: ruled, by that ruling; board 2 is still open to report
    for room in ("open", "closed"):
        for role in ("report", "confirm"):
            view = h.client.get(f"/api/table/{h.token(1, room, role)}").json()
            b1, b2 = view["boards"]
            assert (b1["state"], b1["report"]) == ("ruled", None)
            assert b1["decision"] == {"ruling": ruling, "effect": "conceded", "team": team}
            assert (b2["state"], b2["decision"]) == ("not_in", None)
    assert h.report(1, "open", 2, finish="N S").status_code == 201


def west_page(h: Hall, table: int, room: str, query: str = "") -> Any:
    return h.client.get(f"/t/{h.token(table, room, 'report')}{query}")


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_wests_phone_shows_the_decision_instead_of_the_form(hall_round: Hall) -> None:
    h = hall_round
    ruling, team = conceded(h)
    decided = (f"Board 1 was decided by the director (ruling {ruling}: {team} concedes this "
               f"board): there is nothing to report for it.")
    page = west_page(h, 1, "open", "?board=1")
    assert page.status_code == 200
    assert 'id="decided"' in page.text and 'id="report-form"' not in page.text
    assert decided in text_of(page.text)
    assert f'href="/t/{h.token(1, "open", "report")}?board=2"' in page.text
    zh = west_page(h, 1, "open", "?board=1&lang=zh")
    assert (f"第1副已由裁判裁定（第{ruling}号裁定：{team}判负这副牌），无需报分。"
            in text_of(zh.text)), text_of(zh.text)
    # the first board not in is board 2: the form, board 1 not to be picked
    page = west_page(h, 1, "open", "?lang=en")
    assert 'id="report-form"' in page.text and 'id="decided"' not in page.text
    assert re.search(r'<input type="radio" name="board" value="1" disabled required>', page.text)
    assert f"ruling {ruling}: {team} concedes this board" in text_of(page.text)  # the list
    # a report of it posted anyway (an old page): refused, the decision shown, nothing stored
    before = snapshot(h.engine)
    r = h.client.post(f"/t/{h.token(1, 'open', 'report')}/report",
                      data={"board": "1", "first": "N", "second": "S"}, follow_redirects=False)
    assert r.status_code == 409
    words = text_of(r.text)
    assert ("the director decided this board" in words and decided in words
            and 'id="report-form"' not in r.text), words
    assert snapshot(h.engine) == before
    # North's phone lists the decision too
    north = h.client.get(f"/t/{h.token(1, 'open', 'confirm')}")
    assert f"ruling {ruling}: {team} concedes this board" in text_of(north.text)
