"""The dress rehearsal: a whole tournament day run only through the browser (Debian's
Chromium through Playwright) against the service (uvicorn on 127.0.0.1 in a thread).

A Swiss event of 16 teams, 3 rounds of 8 boards, on the 20-VP scale. The director, at a
desktop browser, logs in, creates the event with its teams, draws a seed and downloads
it, then for each round pairs it, assigns its boards, issues the table cards (the
phones' links are read off the printed cards), checks the teams in and starts the clock.
Every table's West reports every board from a 390-px phone page by tapping the seats,
every North confirms it on his; 8 matches × 2 rooms × 8 boards × 3 rounds = 384 room
reports and as many confirmations. On the way the desk settles a dispute (a North
disputes West's order), rules on a late team (its first board conceded), records a
ruling (a foul: an assigned room result), marks a board unfinished (time), corrects a
result before publication and one after; it closes and publishes each round.

At the end: the public standings page, read as a person reads it, equals an independent
recount (tests/rehearsal_recount.py, from DUPLICATE.md and SCORING.md, none of the
project's scoring code) of the rounds' exports downloaded at the desk; every public match
and board page shows the results and finishing orders the API gives. A screenshot of each
page type goes to ``$GUANDAN_ARTIFACTS`` (else artifacts/rehearsal/ in the repository).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import BACKENDS
from rehearsal_phones import PHONE, Room, play
from rehearsal_recount import Match, parse_export, room_result, standings, vp, vp_table
from rehearsal_recount import Room as RoomOf
from sqlalchemy import Engine, select, update

from duplicate import models
from duplicate.db import make_engine, session_scope

PASSWORD = "rehearsal-director-pw"
EVENT = "Rehearsal Cup"
EV = quote(EVENT, safe="")
ROUNDS, BOARDS = 3, 8
TEAMS = [f"Team {c}" for c in "ABCDEFGHIJKLMNOP"]
DESKTOP = {"width": 1280, "height": 900}
#: Finishing orders: two seats for a double down, three otherwise.
ORDERS = ["N S", "E N W", "N E S", "W S E", "S W N", "E W", "N W E", "S E N", "W N E",
          "E S W", "S N", "N E W"]
SHOTS = Path(os.environ.get("GUANDAN_ARTIFACTS") or
             Path(__file__).resolve().parent.parent / "artifacts" / "rehearsal")


def order_of(rnd: int, table: int, room: str, board: int) -> str:
    """The order a room reports (the rooms differ often: matches are won and lost)."""
    k = board * 5 + table * 3 + rnd * 7 + (0 if room == "open" else board * table + rnd)
    return ORDERS[k % len(ORDERS)]


@pytest.fixture
def service(migrated_url: str, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    """``guandan serve`` on a migrated database (of the last backend configured: see
    ``pytestmark``), in a process of its own as a hall runs it (a server in the test's own
    process would share its interpreter with the browser's driver); its URL and an engine
    for the test's own looks at the store."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = os.environ | {"GUANDAN_DIRECTOR_PASSWORD": PASSWORD, "GUANDAN_SECRET_KEY": "r" * 40}
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from cli import main; main()", "serve", "--db", migrated_url,
         "--port", str(port), "--threads", "4", "--log-level", "warning"],
        cwd=Path(__file__).resolve().parent.parent, env=env, stdout=log,
        stderr=subprocess.STDOUT)
    engine = make_engine(migrated_url)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                with urllib.request.urlopen(f"{base}/api/events", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the service did not start"
                time.sleep(0.1)
        yield base, engine
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        engine.dispose()


_shot: set[str] = set()
_t0 = time.monotonic()


def progress(what: str) -> None:
    """A line of progress on standard error (seen with ``pytest -s``)."""
    print(f"[{time.monotonic() - _t0:6.1f} s] {what}", file=sys.stderr, flush=True)


def shoot(page: Any, name: str) -> None:
    """A full-page screenshot of a page type, once (the first time it is seen)."""
    if name in _shot:
        return
    _shot.add(name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def submit(page: Any, target: Any) -> str:
    """Click a form's button, wait for the page it leads to; its flash message."""
    with page.expect_navigation():
        (page.locator(target) if isinstance(target, str) else target).click()
    flash = page.locator("#flash")
    return str(flash.inner_text()) if flash.count() else ""


def front(page: Any) -> Any:
    """The page, brought to the front: Chromium runs a tab behind another at a lower
    priority (nice 5), and on a busy machine its taps then took seconds each."""
    page.bring_to_front()
    return page


class Day:
    """The browsers of the day: the director's desk and the tables' phones."""

    def __init__(self, browser: Any, base: str, engine: Engine) -> None:
        self.base, self.engine = base, engine
        self.desk_ctx = browser.new_context(viewport=DESKTOP, locale="en-GB",
                                            accept_downloads=True)
        self.phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                             locale="en-GB")  # a spectator's phone
        self.desk = self.desk_ctx.new_page()
        self.public = self.phone_ctx.new_page()
        self.tokens: dict[tuple[int, str], tuple[str, str]] = {}
        self.round_no = 0
        self.counts = {"reports": 0, "confirms": 0}

    def close(self) -> None:
        self.desk_ctx.close()
        self.phone_ctx.close()

    @property
    def round_url(self) -> str:
        return f"{self.base}/desk/e/{EV}/round/{self.round_no}"

    # -- the director --------------------------------------------------------------------

    def login_and_create(self) -> None:
        d = front(self.desk)
        d.goto(f"{self.base}/desk")
        assert "/desk/login" in d.url
        shoot(d, "desk-login")
        d.fill("input[name=password]", PASSWORD)
        with d.expect_navigation():
            d.click("#login button[type=submit]")
        assert d.url == f"{self.base}/desk"
        d.fill("#create-event input[name=name]", EVENT)
        d.select_option("#create-event select[name=format]", "swiss")
        d.select_option("#create-event select[name=scale]", "vp20")
        d.fill("#create-event input[name=rounds]", str(ROUNDS))
        d.fill("#create-event input[name=boards_per_round]", str(BOARDS))
        d.select_option("#create-event select[name=unfinished]", "average")
        d.fill("#create-event textarea[name=teams]", "\n".join(
            f"{t}: {t} North, {t} South, {t} East, {t} West" for t in TEAMS))
        shoot(d, "desk-home")
        assert submit(d, "#create-event button[type=submit]") == f"Event {EVENT} created."
        assert d.locator("#teams tr, #teams li").count() >= len(TEAMS) or \
            all(t in d.inner_text("main") for t in TEAMS)

    def draw_seed(self, folder: Path) -> Path:
        """A new secret seed from the desk, downloaded as the director keeps it."""
        d = front(self.desk)
        d.goto(f"{self.base}/desk/sets")
        submit(d, "#seed-form button[type=submit]")
        assert len(d.inner_text("#commitment")) == 64
        shoot(d, "desk-sets")
        with d.expect_download() as got:
            d.click("#seed-download")
        path = folder / "seed.json"
        got.value.save_as(str(path))
        return path

    def pair_and_assign(self, seed: Path) -> None:
        d = front(self.desk)
        self.round_no += 1
        n = self.round_no
        d.goto(f"{self.base}/desk/e/{EV}")
        assert submit(d, "#pair-form button[type=submit]") == f"Round {n} paired."
        if n == 1:
            d.set_input_files("#assign-form input[name=seed_file]", str(seed))
        else:
            assert d.locator("#assign-form select[name=set_name]").input_value()  # the event's
        said = submit(d, "#assign-form button[type=submit]")
        first = (n - 1) * BOARDS + 1
        assert said.startswith(f"Round {n}: boards {first} to {first + BOARDS - 1} of set"), said
        shoot(d, "desk-event")

    def issue_cards(self) -> None:
        d = front(self.desk)
        d.goto(self.round_url)
        d.click("a:has-text('Table cards')")
        d.wait_for_url(re.compile(rf"/round/{self.round_no}/cards$"))
        shoot(d, "desk-cards-issue")
        submit(d, "#issue-cards button[type=submit]")
        cards = d.locator("section.tcard")
        assert cards.count() == 16
        self.tokens = {}
        for i in range(16):
            card = cards.nth(i)
            west, north = (u.rsplit("/t/", 1)[1] for u in card.locator("p.url").all_inner_texts())
            self.tokens[int(card.get_attribute("data-table")), card.get_attribute("data-room")] = (
                west, north)
        assert sorted(self.tokens) == [(t, r) for t in range(1, 9) for r in ("closed", "open")]
        shoot(d, "desk-cards")

    def tables(self) -> dict[int, tuple[str, str]]:
        """The round's draw as the public round page shows it: table -> (X, Y)."""
        p = front(self.public)
        p.goto(f"{self.base}/e/{EV}/round/{self.round_no}")
        shoot(p, "public-round")
        out = {}
        for li in p.locator("#draw li").all():
            x, y = li.locator(".vs").inner_text().split(" – ")
            out[int(li.get_attribute("data-table") or 0)] = (x, y)
        assert len(out) == 8
        return out

    def check_in_and_start(self, absent: str | None = None) -> None:
        d = front(self.desk)
        d.goto(self.round_url)
        for team in d.locator("#arrivals tr[data-team]").evaluate_all(
                "rows => rows.map(r => r.dataset.team)"):
            if team != absent:
                assert submit(d, f"#arrivals tr[data-team='{team}'] button.checkin") == \
                    f"{team} checked in."
        said = submit(d, "#start-form button[type=submit]")
        assert said == f"Round {self.round_no}: the clock is running.", said

    def late_team_arrives(self, team: str) -> None:
        """Seven minutes pass (the stored start and check-ins move back: the test cannot
        wait), the late team checks in and the desk rules its first board conceded."""
        with session_scope(self.engine) as session:
            hr = session.scalars(select(models.HallRound)).all()
            session.execute(update(models.HallRound).where(
                models.HallRound.id == max(h.id for h in hr)).values(
                started_at=max(h.started_at for h in hr if h.started_at) - timedelta(minutes=7)))
            for row in session.scalars(select(models.HallCheckin)):
                row.checked_in_at -= timedelta(minutes=7)
        d = front(self.desk)
        d.goto(self.round_url)
        submit(d, f"#arrivals tr[data-team='{team}'] button.checkin")
        row = d.locator(f"#arrivals tr[data-team='{team}']")
        assert row.get_attribute("data-status") == "concedes"
        assert submit(d, row.locator("button.rule-late")) == \
            f"{team} concedes the first board (late)."


#: One database, not each: PostgreSQL when the tests have one (a hall's database).
@pytest.mark.parametrize("db_backend", [BACKENDS[-1]])
def test_dress_rehearsal(browser: Any, service: tuple[str, Engine], tmp_path: Path) -> None:
    started = time.monotonic()
    base, engine = service
    day = Day(browser, base, engine)
    timings: dict[str, float] = {}
    try:
        _rehearse(day, tmp_path, timings)
    finally:
        day.close()
    took = time.monotonic() - started
    # printed, not asserted: CI times nothing (docs/hall/rehearsal.md has the figures)
    print(f"\ndress rehearsal: {took:.0f} s; {day.counts}; {timings}")


def test_the_recount_reads_the_rules_as_written() -> None:
    """The recount's own pieces against the rule book's and SCORING.md's figures."""
    assert [room_result(o) for o in ("N S", "E W", "N E S", "N E W", "E S W", "W N S")] == [
        3, -3, 2, 1, -2, -1]
    with pytest.raises(ValueError):
        room_result("N E")  # two seats out only as partners
    table = vp_table(8)  # docs/SCORING.md, "Guandan tables with k = 6", 8 boards
    assert [table[m] for m in (1, 2, 3, 4, 6, 8, 10, 12)] == [
        1107, 1205, 1295, 1378, 1523, 1646, 1750, 1837]
    assert len(table) == 18 and table[17] == 2000 and table[16] < 2000
    assert vp(-3, 8) == (705, 1295) and vp(40, 8) == (2000, 0)
    one = {1: Match(1, "A", "B", {(1, "open"): RoomOf(2, "N E S"),
                                  (1, "closed"): RoomOf(-1, "E S W"),
                                  (2, "open"): RoomOf(None, None, "time"),
                                  (2, "closed"): RoomOf(3, "N S")})}
    (a,), (b,) = standings([one], [[1, 2]])  # board 2: unfinished, its swing 0 (average)
    assert (a.team, a.swing, a.levels, b.levels, a.rounds_won, b.rounds_won) == (
        "A", 3, 3, 3, 1, 0)
    assert a.points == 15.23 and b.points == 4.77 and a.progressive == 0  # B = 6·√2


def _rehearse(day: Day, tmp: Path, timings: dict[str, float]) -> None:
    base = day.base
    day.login_and_create()
    seed = day.draw_seed(tmp)
    late_team = None
    for n in range(1, ROUNDS + 1):
        t0 = time.monotonic()
        day.pair_and_assign(seed)
        day.issue_cards()
        draw = day.tables()
        boards = list(range((n - 1) * BOARDS + 1, n * BOARDS + 1))
        if n == 1:
            late_team = draw[5][1]  # table 5's Y comes 7 minutes late
        day.check_in_and_start(absent=late_team if n == 1 else None)
        if n == 1:
            assert late_team is not None
            day.late_team_arrives(late_team)
            r = front(day.public).goto(f"{base}/e/{EV}/round/1/board/{boards[1]}")
            assert r is not None and r.status == 403
            shoot(day.public, "public-board-held")
        rooms = []
        for table in range(1, 9):
            for room in ("open", "closed"):
                mine = [b for b in boards if not (n == 1 and table == 5 and b == boards[0])]
                if n == 2 and table == 3:
                    mine.remove(boards[-1])  # not finished in time: the desk marks it
                rooms.append(Room(
                    table, room, *day.tokens[table, room],
                    orders={b: order_of(n, table, room, b) for b in mine},
                    dispute=boards[2] if (n == 1 and (table, room) == (2, "closed")) else None))
        t1 = time.monotonic()
        done = play(base, rooms, SHOTS)
        timings[f"round {n} phones"] = round(time.monotonic() - t1, 1)
        progress(f"round {n}: {done.reports} reports, {done.confirms} confirmations")
        day.counts["reports"] += done.reports
        day.counts["confirms"] += done.confirms
        for (table, _), report_id in done.disputed.items():
            settle_dispute(day, report_id, table, boards[2])
        timings[f"round {n} tables"] = round(time.monotonic() - t0, 1)
        if n == 2:
            mark_unfinished(day, 3, boards[-1])
            record_ruling(day, 6, boards[4])
            correct(day, 7, boards[1], "open", "EW +1", "the scorer misread the order")
        close_and_publish(day)
        if n == 3:
            correct(day, 4, boards[6], "closed", "NS +3",
                    "North and South both had the cards out: double down (after 公示)")
    check_public_pages(day)
    check_standings(day)


def settle_dispute(day: Day, report_id: int, table: int, board: int) -> None:
    d = front(day.desk)
    d.goto(day.round_url)
    item = d.locator(f"#disputes li[data-report='{report_id}']")
    assert "West tapped the wrong seat" in item.inner_text()
    item.locator("input[name=finish]").fill("E S W")
    item.locator("input[name=reason]").fill("both pairs agree: East out first, South second")
    shoot(d, "desk-round-dispute")
    assert submit(d, item.locator("button[type=submit]")) == \
        f"Dispute settled: table {table}, board {board}."


def mark_unfinished(day: Day, table: int, board: int) -> None:
    d = front(day.desk)
    d.goto(day.round_url)
    f = d.locator("#unfinished-form")
    f.locator("select[name=table]").select_option(str(table))
    f.locator("select[name=board]").select_option(str(board))
    f.locator("select[name=room]").select_option("both")
    f.locator("input[name=reason]").fill("time: the round's 50 minutes were over")
    said = submit(d, f.locator("button[type=submit]"))
    assert "unfinished" in said.lower(), said


def record_ruling(day: Day, table: int, board: int) -> None:
    d = front(day.desk)
    d.goto(day.round_url)
    f = d.locator("#ruling-form")
    d.click("#rulings details summary")
    f.locator("select[name=table]").select_option(str(table))
    f.locator("select[name=category]").select_option("foul")
    f.locator("select[name=effect]").select_option("assigned")
    f.locator("select[name=board]").select_option(str(board))
    f.locator("select[name=room]").select_option("closed")
    f.locator("input[name=result]").fill("NS +2")
    f.locator("input[name=reason]").fill("East showed a card: the result is assigned")
    said = submit(d, f.locator("button[type=submit]"))
    assert d.locator("#rulings tr[data-ruling]").count() >= 1, said


def correct(day: Day, table: int, board: int, room: str, result: str, reason: str) -> None:
    d = front(day.desk)
    d.goto(day.round_url)
    f = d.locator("#correct-form")
    f.locator("select[name=table]").select_option(str(table))
    f.locator("select[name=board]").select_option(str(board))
    f.locator("select[name=room]").select_option(room)
    f.locator("input[name=result]").fill(result)
    f.locator("input[name=reason]").fill(reason)
    said = submit(d, f.locator("button[type=submit]"))
    assert "correct" in said.lower(), said


def close_and_publish(day: Day) -> None:
    d = front(day.desk)
    d.goto(day.round_url)
    n = day.round_no
    assert submit(d, "#close-form button[type=submit]") == f"Round {n} closed and scored."
    assert submit(d, "#publish-form button[type=submit]") == f"Round {n} published."
    shoot(d, "desk-round")


def check_public_pages(day: Day) -> None:
    """Every match page and every board page shows what the API says the store holds."""
    p, api = front(day.public), day.desk.request
    for n in range(1, ROUNDS + 1):
        for table in range(1, 9):
            want = api.get(f"{day.base}/api/events/{EV}/rounds/{n}/tables/{table}").json()
            p.goto(f"{day.base}/e/{EV}/round/{n}/table/{table}")
            shoot(p, "public-match")
            rows = p.eval_on_selector_all("#match tbody tr", """rows => rows.map(r => [
                +r.dataset.board, r.cells[1].dataset.finish, r.cells[2].dataset.finish,
                r.cells[1].firstChild.textContent.trim(), r.cells[2].firstChild.textContent.trim(),
                r.cells[3].firstChild.textContent.trim()])""")
            assert [r[0] for r in rows] == [b["board"] for b in want["boards"]]
            for shown, b in zip(rows, want["boards"], strict=True):
                assert shown[1:3] == [b["open_finish"] or "", b["closed_finish"] or ""], (n, table)
                assert shown[3:] == [signed(b["open_ns"]), signed(b["closed_ns"]),
                                     signed(b["swing"])], (n, table, shown, b)
        for board in range((n - 1) * BOARDS + 1, n * BOARDS + 1):
            want = api.get(f"{day.base}/api/events/{EV}/rounds/{n}/boards/{board}").json()
            p.goto(f"{day.base}/e/{EV}/round/{n}/board/{board}")
            shoot(p, "public-board")
            shown = p.eval_on_selector_all("section.tableboard .result", """ps => ps.map(e => [
                e.closest('section').id, e.closest('.room').className, e.dataset.ns,
                e.dataset.finish])""")
            wanted = []
            for t in want["tables"]:
                for room in ("open", "closed"):
                    ns = t[room]  # "+2", "0", "-" (none)
                    wanted.append([f"table-{t['table']}", f"room room-{room}",
                                   "" if ns == "-" else str(int(ns)), t[f"{room}_finish"] or ""])
            assert shown == wanted, (n, board)


def signed(x: int | None) -> str:
    return "—" if x is None else ("0" if x == 0 else f"{x:+d}")


def check_standings(day: Day) -> None:
    """The public standings page equals the recount of the rounds' exports."""
    d, p = front(day.desk), day.public
    rounds, boards = [], []
    for n in range(1, ROUNDS + 1):
        d.goto(f"{day.base}/desk/e/{EV}/round/{n}")
        with d.expect_download() as got:
            d.click(f"a[href='/api/events/{EV}/rounds/{n}/export']")
        text = Path(got.value.path()).read_text(encoding="utf-8")
        (SHOTS / f"round-{n}.gdn").write_text(text, encoding="utf-8")  # kept with the pictures
        rounds.append(parse_export(text))
        boards.append(list(range((n - 1) * BOARDS + 1, n * BOARDS + 1)))
    groups = standings(rounds, boards)
    front(p).goto(f"{day.base}/e/{EV}")
    shoot(p, "public-standings")  # on a phone: the narrow columns
    p = front(d)  # read on a desktop's screen, where every column shows
    p.goto(f"{day.base}/e/{EV}")
    shoot(p, "public-standings-desktop")
    assert "after round 3" in p.inner_text("#through")
    assert "published, 1 result corrected since" in p.inner_text("#provisional-mark"), \
        p.inner_text("#provisional-mark")
    shown = p.eval_on_selector_all(
        "#standings-rows tr", "rows => rows.map(r => Array.from(r.cells).map(c => c.innerText.trim()))")
    assert len(shown) == len(TEAMS)
    i = 0
    for group in groups:
        names = sorted(r.team for r in group)
        assert sorted(s[1] for s in shown[i:i + len(group)]) == names, (i, group)
        for s in shown[i:i + len(group)]:
            r = next(r for r in group if r.team == s[1])
            assert s[2:8] == [f"{r.points:.2f}", f"{r.progressive:.2f}", str(r.rounds_won),
                              signed(r.swing).replace("—", "0"), str(r.levels), str(r.played)], \
                (s, r)
            assert int(s[0]) == i + 1 or len(group) > 1
        i += len(group)
    front(day.public).goto(f"{day.base}/")
    shoot(day.public, "public-index")

