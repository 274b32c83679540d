"""The desk's standings page and what leaves the event from the desk
(duplicate/web/pages/desk_outputs.py), through the test client: the standings with the
order they rank by and the withdrawn team marked, the order changed (logged, CSRF
checked), the HTML report as a zip, the event's export named with the event (its byes in
the tags), the director's copy (reason required, logged), the per-round export's name,
printable hand records, a set's seed verified and revealed (logged); each page asks for
the login; both languages. And the new section at 390 px in Chromium, no sideways scroll."""

from __future__ import annotations

import html
import io
import re
import zipfile
from pathlib import Path
from typing import Any

from conftest_browser import ARTIFACTS
from fastapi.testclient import TestClient
from test_web_desk import EV, EVQ, SECRET, SEED, csrf_of, engine_of, login, make_event, post

from duplicate import events
from duplicate.dealing import seed_file_bytes
from duplicate.gdn import loads

ROOT = Path(__file__).resolve().parent.parent
CSS = [ROOT / "duplicate/static/guandan.css", ROOT / "duplicate/web/static/hall.css"]


def _played(client: TestClient) -> str:
    """The event of tests/test_web_desk.py (rr, four teams), round 1 played by the bots,
    Cranes withdrawn; the session's CSRF token."""
    csrf = login(client)
    make_event(client, csrf)
    engine = engine_of(client)
    events.play_bots(engine, EV, 1)
    events.withdraw_team(engine, EV, "Cranes", by="TD Wu", reason="went home")
    return csrf


def test_the_desk_pages_ask_for_the_login(client: TestClient) -> None:
    for path in (f"/desk/e/{EVQ}/standings", f"/desk/e/{EVQ}/report.zip",
                 f"/desk/e/{EVQ}/export", "/desk/sets/x/hand-records"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/desk/login"), path
    for path in (f"/desk/e/{EVQ}/tiebreaks", f"/desk/e/{EVQ}/export", "/desk/sets/x/reveal",
                 "/desk/sets/x/verify"):
        r = client.post(path, data={"csrf": "x"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].startswith("/desk/login"), path


def test_standings_order_report_and_export_from_the_desk(client: TestClient) -> None:
    csrf = _played(client)
    engine = engine_of(client)
    page = client.get(f"/desk/e/{EVQ}/standings").text
    assert "Ranked by match points, then progressive score" in page
    rows, _ = events.event_standings(engine, EV)
    for r in rows:
        assert f'data-team="{r.team}"' in page
    assert '<span class="pill withdrawn"> (withdrawn)</span>' in page
    # the event page marks the withdrawn team in its list of teams
    event_page = client.get(f"/desk/e/{EVQ}").text
    assert "withdrawn after round 1" in event_page and f"/desk/e/{EVQ}/standings" in event_page
    # a forged token changes nothing
    r = client.post(f"/desk/e/{EVQ}/tiebreaks", data={"csrf": "forged", "order": "friendly",
                                                       "reason": "x"}, follow_redirects=False)
    assert r.status_code == 403 and events.get_event(engine, EV).tiebreaks == "jiangsu"
    status, page, msg = post(client, f"/desk/e/{EVQ}/tiebreaks", csrf=csrf, order="friendly",
                             reason="")
    assert "reason" in msg.lower() and events.get_event(engine, EV).tiebreaks == "jiangsu"
    status, page, msg = post(client, f"/desk/e/{EVQ}/tiebreaks", csrf=csrf, order="friendly",
                             reason="as announced")
    assert "2026 friendly" in msg and events.get_event(engine, EV).tiebreaks == "friendly"
    assert "Opponents" in page
    [entry] = [e for e in events.admin_log(engine, EV) if e["action"] == "tiebreaks"]
    assert entry["by"] == "director" and entry["reason"] == "as announced"
    zh = client.get(f"/desk/e/{EVQ}/standings", params={"lang": "zh"}).text
    assert "总积分、对手分、级差分、升级数" in zh and "下载 HTML 报告" in zh
    client.get("/desk", params={"lang": "en"})

    r = client.get(f"/desk/e/{EVQ}/report.zip")
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    assert "Spring%20Cup-report.zip" in r.headers["content-disposition"]
    with zipfile.ZipFile(io.BytesIO(r.content)) as archive:
        names = archive.namelist()
        assert "index.html" in names and "crosstable.html" in names
        index = archive.read("index.html").decode("utf-8")
    assert EV in index and "Ranked by match points, then opponents" in index.replace("&#39;", "'")

    r = client.get(f"/desk/e/{EVQ}/export")
    assert r.status_code == 200
    assert 'filename="Spring Cup.gdn"' in r.headers["content-disposition"]
    assert r.text == events.export_records(engine, EV, results=True)
    recs = loads(r.text)
    assert len(recs) == 8  # round 1: two tables, two boards, two rooms
    assert {rec.tags.get("Withdrawn") for rec in recs} == {"Cranes"}
    logged = len(events.admin_log(engine, EV))
    status, page, msg = post(client, f"/desk/e/{EVQ}/export", csrf=csrf, reason="")
    assert status == 303 and "reason" in msg.lower()
    r = client.post(f"/desk/e/{EVQ}/export", data={"csrf": csrf, "reason": "archive"},
                    follow_redirects=False)
    assert r.status_code == 200 and len(loads(r.text)) == 8
    assert len(events.admin_log(engine, EV)) == logged + 1
    # the round's export (the API, as the round page links it) is named with the event
    r = client.get(f"/api/events/{EVQ}/rounds/1/export",
                   headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    assert 'filename="Spring Cup-round-1.gdn"' in r.headers["content-disposition"]


def test_hand_records_and_the_seed_from_the_desk(client: TestClient) -> None:
    csrf = _played(client)
    engine = engine_of(client)
    set_name = events.get_round(engine, EV, 1).board_set
    assert set_name
    q = set_name.replace(" ", "%20")
    r = client.get(f"/desk/sets/{q}/hand-records", params={"lang": "zh"})
    assert r.status_code == 200 and "<html" in r.text and set_name in r.text
    sets = client.get("/desk/sets").text
    assert f"/desk/sets/{q}/reveal" in sets and f"/desk/sets/{q}/hand-records" in sets
    wrong = seed_file_bytes(bytes(32))
    status, page, msg = post_file(client, f"/desk/sets/{q}/verify", csrf, wrong)
    assert "commitment" in msg.lower(), msg
    status, page, msg = post_file(client, f"/desk/sets/{q}/verify", csrf, SEED.strip().encode())
    assert msg.startswith(f"Set {set_name}: all "), msg
    assert [s.revealed_seed for s in _sets(engine) if s.name == set_name] == [None]
    status, page, msg = post_file(client, f"/desk/sets/{q}/reveal", csrf, SEED.strip().encode(),
                                  reason="")
    assert "reason" in msg.lower()
    status, page, msg = post_file(client, f"/desk/sets/{q}/reveal", csrf, SEED.strip().encode(),
                                  reason="round over")
    assert "is revealed" in msg, msg
    assert [s.revealed_seed is not None for s in _sets(engine) if s.name == set_name] == [True]
    assert any(e["action"] == "reveal seed" and e["reason"] == "round over"
               for e in events.admin_log(engine))
    assert SECRET  # the seed of test_web_desk's boards


def _sets(engine: Any) -> list[Any]:
    from duplicate.boards import list_sets

    return list_sets(engine)


def post_file(client: TestClient, path: str, csrf: str, data: bytes,
              **fields: str) -> tuple[int, str, str]:
    from test_web_desk import flash_of

    r = client.post(path, data={"csrf": csrf, **fields},
                    files={"seed_file": ("seed.json", data, "application/json")},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    page = client.get(r.headers["location"])
    return 303, page.text, flash_of(page.text)


def test_the_standings_section_fits_a_phone(browser: Any, client: TestClient) -> None:
    _played(client)
    for lang in ("en", "zh"):
        html = client.get(f"/desk/e/{EVQ}/standings", params={"lang": lang}).text
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
        try:
            page.set_content(html)
            for css in CSS:
                page.add_style_tag(content=css.read_text(encoding="utf-8"))
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, lang
            assert page.locator("#outputs a#report-link").is_visible()
            box = page.locator("#outputs").bounding_box()
            assert box is not None and box["x"] + box["width"] <= 390
            (ARTIFACTS / "hall").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "hall" / f"desk-standings-390-{lang}.png"),
                            full_page=True)
        finally:
            page.close()
    csrf_of(client.get("/desk").text)


def test_the_printed_cards_say_a_reload_shows_the_same_cards(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    first = client.post(f"/desk/e/{EVQ}/round/1/cards", data={"csrf": csrf})
    assert first.status_code == 200 and first.url.path.endswith("/cards/printed")
    again = client.get(first.url.path)  # the reload: the same cards, none issued
    assert again.status_code == 200
    tokens = sorted(set(re.findall(r"/t/[A-Za-z0-9_-]{20,}", first.text)))
    assert tokens and tokens == sorted(set(re.findall(r"/t/[A-Za-z0-9_-]{20,}", again.text)))
    assert "would issue new cards" not in again.text
    assert "Reloading this page shows these same cards" in html.unescape(again.text)


def test_the_correction_form_does_not_promise_any_time(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    for lang, wrong, right in (("en", "at any time", "within the directors' limit"),
                               ("zh", "可随时更改", "裁判更正时限内")):
        page = html.unescape(client.get(f"/desk/e/{EVQ}/round/1", params={"lang": lang}).text)
        assert wrong not in page and right in page, lang


def test_the_grid_legend_explains_every_mark(client: TestClient) -> None:
    csrf = login(client)
    make_event(client, csrf)
    for lang, words in (("en", "unfinished, or conceded by a ruling"), ("zh", "未完成")):
        page = client.get(f"/desk/e/{EVQ}/round/1", params={"lang": lang}).text
        legend = page.split('<p class="legend hint">', 1)[1].split("</p>", 1)[0]
        for mark in ("·", "?", "!", "✓"):
            assert mark in legend, (lang, mark)
        assert words in legend, lang
