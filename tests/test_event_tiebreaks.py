"""An event's order of tie-breaks: the Jiangsu rules' (seeds/000: 累进分, 胜轮次, 级差分,
升级数) or the 2026 friendly tournament's (seeds/004: 总场分、总对手分、总级差分、总晋级数),
chosen at creation (library, ``event create``, ``POST /api/events``, the desk), changed
later (logged), stored with the event (migration 0015, down and up with data), and said
where the standings are shown (command line, desk, public page, report)."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DESK_PASSWORD
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from test_web_desk import csrf_of, login, post

from cli import main
from duplicate import db, events
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.standings import FRIENDLY_TIEBREAKS, JIANGSU_TIEBREAKS, standings

BEARER = {"Authorization": f"Bearer {DESK_PASSWORD}"}
TEAMS = [(f"T{i}", [f"P{i}{j}" for j in range(4)]) for i in range(1, 6)]
SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))


def _played(engine: Engine, name: str, order: str = "jiangsu", rounds: int = 3) -> None:
    """A round robin of five teams (a bye a round), every round played by the bots."""
    events.create_event(engine, name, seed="ab" * 8, fmt="rr", rounds=rounds,
                        boards_per_round=1, teams=TEAMS, tiebreaks=order)
    for n in range(1, rounds + 1):
        events.pair_round(engine, name)
        events.assign_boards(engine, name, n, seed=SEED)
        events.play_bots(engine, name, n)


def test_the_event_ranks_by_its_order_and_a_change_is_logged(migrated_engine: Engine) -> None:
    _played(migrated_engine, "Friendly", "friendly")
    info = events.get_event(migrated_engine, "Friendly")
    assert info.tiebreaks == "friendly" and info.to_dict()["tiebreaks"] == "friendly"
    rows, _ = events.event_standings(migrated_engine, "Friendly")
    # each row is placed below the one above by a criterion of the friendly order only
    assert {r.decided_by for r in rows[1:]} <= {c.value for c in FRIENDLY_TIEBREAKS} | {"draw"}
    keys = [(-r.points, -r.opponents_points, -r.swing, -r.levels) for r in rows]
    assert keys == sorted(keys)
    events.set_tiebreaks(migrated_engine, "Friendly", "jiangsu", by="TD Wu",
                         reason="the chief director's ruling")
    rows, _ = events.event_standings(migrated_engine, "Friendly")
    keys2 = [(-r.points, -r.progressive, -r.rounds_won, -r.swing, -r.levels) for r in rows]
    assert keys2 == sorted(keys2)
    assert {r.decided_by for r in rows[1:]} <= {c.value for c in JIANGSU_TIEBREAKS} | {"draw"}
    [entry] = [e for e in events.admin_log(migrated_engine, "Friendly", "zh")
               if e["action"] == "tiebreaks"]
    assert entry["by"] == "TD Wu" and "2026 友谊赛" in entry["detail"]
    with pytest.raises(events.EventError, match="already"):
        events.set_tiebreaks(migrated_engine, "Friendly", "jiangsu", by="TD", reason="again")
    with pytest.raises(events.EventError, match="unknown order"):
        events.set_tiebreaks(migrated_engine, "Friendly", "fide", by="TD", reason="x")
    with pytest.raises(events.EventError, match="unknown order"):
        events.create_event(migrated_engine, "Bad", tiebreaks="fide")
    assert [e.name for e in events.list_events(migrated_engine)] == ["Friendly"]


def test_standings_follow_the_order_given() -> None:
    from duplicate.standings import TeamRound

    def match(n: int, x: str, y: str, margin: int) -> list[TeamRound]:
        return [TeamRound(n, x, y, 2 if margin > 0 else 0, margin, 0, margin > 0),
                TeamRound(n, y, x, 0 if margin > 0 else 2, -margin, 0, margin < 0)]

    # A and B: 2 points each, equal progressive score and rounds won; B has the better
    # swing (+4 against 0), A the better opponents (C and D: 6 points, against E and F: 2)
    rows = [*match(1, "A", "C", 1), *match(1, "E", "B", 1), *match(1, "D", "F", 1),
            *match(2, "D", "A", 1), *match(2, "B", "F", 5), *match(2, "C", "E", 1)]
    jiangsu = standings("ABCDEF", rows, "s", JIANGSU_TIEBREAKS)
    friendly = standings("ABCDEF", rows, "s", FRIENDLY_TIEBREAKS)
    order_j = [str(r.team) for r in jiangsu]
    order_f = [str(r.team) for r in friendly]
    assert order_j.index("B") < order_j.index("A")
    assert order_f.index("A") < order_f.index("B")
    assert next(r for r in jiangsu if r.team == "A").decided_by == "swing"
    assert next(r for r in friendly if r.team == "B").decided_by == "opponents_points"


def test_the_command_line_chooses_changes_and_says_the_order(migrated_url: str,
                                                            migrated_engine: Engine) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["event", "--db", migrated_url, "create", "Cup", "--rounds", "1",
                               "--tiebreaks", "friendly"])
    assert res.exit_code == 0, res.output
    assert "opponents' points" in res.output
    assert events.get_event(migrated_engine, "Cup").tiebreaks == "friendly"
    for t, ps in TEAMS[:4]:
        events.add_team(migrated_engine, "Cup", t, ps)
    res = runner.invoke(main, ["--lang", "zh", "event", "--db", migrated_url, "standings", "Cup"])
    assert res.exit_code == 0, res.output
    assert "总积分、对手分、级差分、升级数" in res.output and "对手分" in res.output
    # no round yet: every place below the first is the lot's (抽签), not a tie (并列)
    assert res.output.count("抽签") >= 3 and "并列" not in res.output
    res = runner.invoke(main, ["event", "--db", migrated_url, "tiebreaks", "Cup", "jiangsu",
                               "--by", "TD", "--reason", "as announced"])
    assert res.exit_code == 0, res.output
    assert events.get_event(migrated_engine, "Cup").tiebreaks == "jiangsu"
    res = runner.invoke(main, ["event", "--db", migrated_url, "standings", "Cup"])
    assert "progressive score" in res.output and "opponents_points" not in res.output
    res = runner.invoke(main, ["event", "--db", migrated_url, "create", "Cup2",
                               "--tiebreaks", "fide"])
    assert res.exit_code == 2 and "fide" in res.output


def test_the_api_creates_changes_and_shows_the_order(client: TestClient) -> None:
    r = client.post("/api/events", headers=BEARER,
                    json={"name": "Api Cup", "tiebreaks": "friendly", "lang": "zh"})
    assert r.status_code == 201, r.text
    assert r.json()["tiebreaks"] == "friendly" and r.json()["lang"] == "zh"
    r = client.post("/api/events", headers=BEARER, json={"name": "Api 2", "tiebreaks": "x"})
    assert r.status_code == 422
    r = client.post("/api/events/Api%20Cup/tiebreaks", headers=BEARER,
                    json={"tiebreaks": "jiangsu", "reason": "as announced"})
    assert r.status_code == 200, r.text
    assert client.get("/api/events/Api%20Cup", headers=BEARER).json()["tiebreaks"] == "jiangsu"
    standings_doc = client.get("/api/events/Api%20Cup/standings").json()
    assert standings_doc["tiebreaks"] == "jiangsu"


def test_the_desk_and_the_public_page_choose_and_say_the_order(client: TestClient) -> None:
    csrf = login(client)
    teams = "\n".join(f"{t}: {', '.join(ps)}" for t, ps in TEAMS[:4])
    status, page, msg = post(client, "/desk/events", csrf=csrf, name="Desk Cup", format="rr",
                             rounds="3", boards_per_round="1", scale="wdl",
                             unfinished="average", teams=teams, tiebreaks="friendly",
                             language="zh", bye_points="1.5", bye_won="0",
                             variants="jiefeng_next=true\n")
    assert status == 303, page
    info = events.get_event(client.app.state.engine, "Desk Cup")  # type: ignore[attr-defined]
    assert (info.tiebreaks, info.lang, info.bye.points, info.bye.won) == (
        "friendly", "zh", 1.5, False)
    assert info.rules.jiefeng_next is True
    assert "opponents' points" in html.unescape(page)  # the event's desk says the order
    public = client.get("/e/Desk%20Cup", params={"lang": "zh"}).text
    assert "总积分、对手分、级差分、升级数" in public and "对手分" in public
    status, page, msg = post(client, "/desk/e/Desk%20Cup/tiebreaks", csrf=csrf_of(page),
                             order="jiangsu", reason="as announced")
    assert status == 303 and "江苏省竞赛规则" in msg, msg  # the page is in Chinese now
    public = client.get("/e/Desk%20Cup", params={"lang": "zh"}).text
    assert "累进分、胜轮次、级差分、升级数" in public
    # a bad variant is refused in the page's words, and no event is made
    status, page, msg = post(client, "/desk/events", csrf=csrf, name="Bad", rounds="1",
                             boards_per_round="1", variants="nope=1")
    assert "nope" in msg
    assert [e.name for e in events.list_events(client.app.state.engine)] == ["Desk Cup"]  # type: ignore[attr-defined]


def test_the_report_says_the_order(migrated_engine: Engine, tmp_path: Path) -> None:
    _played(migrated_engine, "Rep", "friendly", rounds=2)
    index = events.write_event_report(migrated_engine, "Rep", tmp_path)
    page = html.unescape(index.read_text(encoding="utf-8"))
    assert "Ranked by match points, then opponents' points" in page
    assert "Opponents' points" in page and "Progressive score" not in page


def test_migration_0015_down_and_up_keeps_the_order(migrated_engine: Engine) -> None:
    events.create_event(migrated_engine, "Old", rounds=1)
    events.create_event(migrated_engine, "New", rounds=1, tiebreaks="friendly")
    with pytest.raises(Exception, match="tie-breaks"):
        db.downgrade(migrated_engine, "0014")  # would lose New's order: refused
    assert events.get_event(migrated_engine, "New").tiebreaks == "friendly"
    events.set_tiebreaks(migrated_engine, "New", "jiangsu", by="TD", reason="before downgrade")
    db.downgrade(migrated_engine, "0014")
    with migrated_engine.connect() as conn:
        columns = list(conn.execute(text("SELECT * FROM events")).keys())
    assert "tiebreaks" not in columns
    db.upgrade(migrated_engine)
    assert {e.name: e.tiebreaks for e in events.list_events(migrated_engine)} == {
        "New": "jiangsu", "Old": "jiangsu"}
    with pytest.raises(Exception):  # noqa: B017 - the check constraint, on both databases
        with migrated_engine.begin() as conn:
            conn.execute(text("UPDATE events SET tiebreaks = 'fide'"))
