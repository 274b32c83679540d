"""An event's time zone: a time shown to people is the event's local time to the minute
with its offset, in both languages, on the review pages, the hall's public pages, the desk
and the command line; machine outputs keep ISO 8601 with the offset. Unknown zones are
refused and change nothing; new events are in Asia/Shanghai."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import Engine, func, select, update
from test_hall_support import EVENT, make_event, minutes, report_all

from cli import main
from duplicate import events, hall, models, zones
from duplicate.db import session_scope
from duplicate.events.site import write_event_site
from duplicate.records import Correction
from duplicate.web.app import create_app
from duplicate.web.settings import Settings

PASSWORD = "zones-director-password"
#: The instant of the correction the pages show: 12:00 UTC is 20:00 in Shanghai.
AT = datetime(2026, 12, 1, 12, 0, 42, 654321, tzinfo=UTC)
SHANGHAI = {"en": "1 Dec 2026 20:00 (UTC+8)", "zh": "2026年12月1日 20:00（UTC+8）"}
LONDON = {"en": "1 Dec 2026 12:00 (UTC)", "zh": "2026年12月1日 12:00（UTC）"}
#: What a time must never look like on a page for people: ISO with its T, seconds with
#: microseconds, or the zone-less "… UTC" of before.
RAW = re.compile(r"\d\d:\d\d:\d\d\.\d+|\d{4}-\d\d-\d\dT\d\d:\d\d(?![^<]*\">)|\d\d:\d\d UTC\b")


# --- the library ---------------------------------------------------------------------------


def test_local_time_in_both_languages_to_the_minute() -> None:
    assert zones.when_text(AT, "Asia/Shanghai", "en") == SHANGHAI["en"]
    assert zones.when_text(AT, "Asia/Shanghai", "zh") == SHANGHAI["zh"]
    assert zones.when_text(AT.isoformat(), "Asia/Shanghai", "zh") == SHANGHAI["zh"]
    naive = AT.replace(tzinfo=None)  # as SQLite gives a stored time back: UTC
    assert zones.when_text(naive, "Asia/Shanghai", "en") == SHANGHAI["en"]
    assert zones.clock_text(AT, "Asia/Shanghai", "en") == "20:00 (UTC+8)"
    assert zones.clock_text(AT, "Asia/Shanghai", "zh") == "20:00（UTC+8）"
    # past midnight in Shanghai: the local date, not the UTC one
    late = datetime(2026, 12, 31, 16, 30, tzinfo=UTC)
    assert zones.when_text(late, "Asia/Shanghai", "en") == "1 Jan 2027 00:30 (UTC+8)"
    assert zones.when_text(late, "Asia/Kolkata", "en") == "31 Dec 2026 22:00 (UTC+5:30)"
    assert zones.when_text(late, "America/New_York", "zh") == "2026年12月31日 11:30（UTC-5）"
    assert zones.when_text(None, "UTC", "en") == ""


def test_summer_time_follows_the_zone() -> None:
    summer = datetime(2026, 7, 1, 12, 0, tzinfo=UTC)
    winter = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
    assert zones.when_text(summer, "Europe/London", "en") == "1 Jul 2026 13:00 (UTC+1)"
    assert zones.when_text(winter, "Europe/London", "en") == "15 Jan 2026 12:00 (UTC)"
    # the night the clocks go forward in London (29 March 2026, 01:00 UTC)
    before = datetime(2026, 3, 29, 0, 59, tzinfo=UTC)
    after = datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
    assert zones.clock_text(before, "Europe/London", "en") == "00:59 (UTC)"
    assert zones.clock_text(after, "Europe/London", "en") == "02:00 (UTC+1)"


@pytest.mark.parametrize("bad", ["Mars/Olympus", "asia/shanghai", "", "  ", "../etc/passwd",
                                 "/usr/share/zoneinfo/UTC", "Asia/Shanghai\x00", "X" * 65])
def test_an_unknown_zone_is_refused_with_one_line(bad: str) -> None:
    with pytest.raises(zones.ZoneError) as exc:
        zones.check_zone(bad)
    for lang in ("en", "zh"):
        text = exc.value.text(lang)
        assert "\n" not in text and "Asia/Shanghai" in text
    assert "未知的时区" in exc.value.text("zh")
    assert zones.check_zone(" Europe/London ") == "Europe/London"


def test_new_events_are_in_shanghai_and_a_bad_zone_changes_nothing(
    migrated_engine: Engine,
) -> None:
    e = migrated_engine
    info = events.create_event(e, "Default")
    assert info.time_zone == "Asia/Shanghai" == events.get_event(e, "Default").time_zone
    assert info.to_dict()["time_zone"] == "Asia/Shanghai"
    assert events.create_event(e, "London", time_zone="Europe/London").time_zone == "Europe/London"
    with pytest.raises(zones.ZoneError):
        events.create_event(e, "Nowhere", time_zone="Mars/Olympus")
    assert [i.name for i in events.list_events(e)] == ["Default", "London"]
    log = events.admin_log(e)
    with pytest.raises(zones.ZoneError):
        events.set_time_zone(e, "Default", "Mars/Olympus", by="TD", reason="typo")
    with pytest.raises(events.EventError):
        events.set_time_zone(e, "Default", "Asia/Shanghai", by="TD", reason="same")
    with pytest.raises(events.EventError):
        events.set_time_zone(e, "Default", "UTC", by="", reason="no one")
    assert events.get_event(e, "Default").time_zone == "Asia/Shanghai"
    assert events.admin_log(e) == log
    assert events.set_time_zone(e, "Default", "UTC", by="TD", reason="online") == "Asia/Shanghai"
    assert events.get_event(e, "Default").time_zone == "UTC"
    last = events.admin_log(e, "Default")[-1]
    assert (last["action"], last["detail"], last["by"], last["reason"]) == (
        "time zone", "Asia/Shanghai -> UTC", "TD", "online")


# --- the pages ------------------------------------------------------------------------------


def _published_correction(e: Engine) -> None:
    """Round 1 played (its reports at 10:00 UTC), published at 11:00 UTC, then one room
    corrected at ``AT``: the one change the public pages list."""
    cards = make_event(e)
    report_all(e, cards)
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    hall.publish_round(e, EVENT, 1, "director", now=minutes(51))
    board = events.get_round(e, EVENT, 1).boards[0]
    now = events.match_boards(e, EVENT, 1, 1)[0].open_ns
    events.correct_result(e, EVENT, 1, 1, board, "open", (now or 0) + 1 if (now or 0) < 3 else 1,
                          Correction(by="TD Zhou", reason="scorer's slip"))
    with session_scope(e) as session:
        last = session.scalar(select(func.max(models.ResultChange.id)))
        session.execute(update(models.ResultChange).where(models.ResultChange.id == last)
                        .values(made_at=AT))  # the correction, after the publication
        session.execute(update(models.ResultChange).where(models.ResultChange.id != last)
                        .values(made_at=AT - timedelta(hours=2)))  # the tables' reports
        session.execute(update(models.HallRound).values(published_at=AT - timedelta(hours=1)))


def _clean(page: str) -> None:
    """No raw time anywhere a person reads (a <time datetime> attribute may keep ISO)."""
    visible = re.sub(r'datetime="[^"]*"', "", page)
    assert not RAW.search(visible), RAW.search(visible)


def test_review_pages_show_the_local_time(migrated_engine: Engine, tmp_path: Path) -> None:
    e = migrated_engine
    _published_correction(e)
    for zone, shown in (("Asia/Shanghai", SHANGHAI), ("Europe/London", LONDON)):
        if zone != events.get_event(e, EVENT).time_zone:
            events.set_time_zone(e, EVENT, zone, by="TD", reason="the event's venue")
        for lang in ("en", "zh"):
            out = tmp_path / f"{zone.replace('/', '-')}-{lang}"
            write_event_site(e, EVENT, str(out), lang)
            # (a board page needs the play records: test_review_analysis checks its time)
            for name in ("index.html", "match-r1-t1.html"):
                page = (out / name).read_text(encoding="utf-8")
                assert shown[lang] in page, (zone, lang, name)
                _clean(page)


def test_hall_and_desk_pages_show_the_local_time(migrated_url: str,
                                                   migrated_engine: Engine) -> None:
    e = migrated_engine
    _published_correction(e)
    board = events.get_round(e, EVENT, 1).boards[0]
    ev = quote(EVENT, safe="")
    with TestClient(create_app(Settings(migrated_url, PASSWORD, "s" * 40)),
                    follow_redirects=False) as client:
        for lang in ("en", "zh"):
            for path in (f"/e/{ev}", f"/e/{ev}/round/1", f"/e/{ev}/round/1/table/1",
                         f"/e/{ev}/round/1/board/{board}"):
                page = client.get(f"{path}?lang={lang}").text
                assert SHANGHAI[lang] in page, (lang, path)
                assert page.count('class="correction"') == 1, (lang, path)
                _clean(page)
        r = client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"})
        assert r.status_code == 303
        for lang in ("en", "zh"):
            page = client.get(f"/desk/e/{ev}/round/1?lang={lang}").text
            assert SHANGHAI[lang] in page  # the round's history of changes
            started = zones.clock_text(minutes(0), "Asia/Shanghai", lang)
            assert started in client.get(f"/desk/e/{ev}/round/1/live?lang={lang}").text
            _clean(page)
        # the desk changes the zone (logged); a bad one is refused and changes nothing
        csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/desk").text)
        assert csrf
        bad = client.post(f"/desk/e/{ev}/time-zone", data={
            "csrf": csrf.group(1), "time_zone": "Mars/Olympus", "reason": "typo"})
        assert bad.status_code == 303 and events.get_event(e, EVENT).time_zone == "Asia/Shanghai"
        good = client.post(f"/desk/e/{ev}/time-zone", data={
            "csrf": csrf.group(1), "time_zone": "Europe/London", "reason": "venue"})
        assert good.status_code == 303 and events.get_event(e, EVENT).time_zone == "Europe/London"
        assert LONDON["zh"] in client.get(f"/e/{ev}/round/1?lang=zh").text
        # the API: the zone in the event's JSON, ISO 8601 with the offset for its times
        data = client.get(f"/api/events/{ev}").json()
        assert data["time_zone"] == "Europe/London"
        assert datetime.fromisoformat(data["created_at"]).tzinfo is not None
        bearer = {"Authorization": f"Bearer {PASSWORD}"}
        log = events.admin_log(e, EVENT)
        bad = client.post(f"/api/events/{ev}/time-zone", headers=bearer,
                          json={"time_zone": "Mars/Olympus", "reason": "typo"})
        assert bad.status_code == 400 and "Mars/Olympus" in bad.json()["message"]
        assert events.admin_log(e, EVENT) == log
        ok = client.post(f"/api/events/{ev}/time-zone", headers=bearer,
                         json={"time_zone": "Asia/Shanghai", "reason": "back home"})
        assert ok.status_code == 200 and ok.json()["detail"] == "Europe/London -> Asia/Shanghai"
        made = client.post("/api/events", headers=bearer,
                           json={"name": "Online", "time_zone": "America/New_York"})
        assert made.status_code == 201 and made.json()["time_zone"] == "America/New_York"
        assert client.post("/api/events", headers=bearer, json={
            "name": "Nowhere", "time_zone": "Mars/Olympus"}).status_code == 400
        assert [i.name for i in events.list_events(e)] == [EVENT, "Online"]


def test_the_command_line_creates_changes_and_lists_in_the_zone(
    migrated_url: str, migrated_engine: Engine,
) -> None:
    e = migrated_engine
    _published_correction(e)

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, [*args], catch_exceptions=False)
        return result.output

    assert "Mars/Olympus" in run("event", "--db", migrated_url, "create", "Bad",
                                 "--time-zone", "Mars/Olympus")
    assert [i.name for i in events.list_events(e)] == [EVENT]
    out = run("--lang", "zh", "event", "--db", migrated_url, "corrections", EVENT)
    assert SHANGHAI["zh"] in out and not RAW.search(out)
    out = run("event", "--db", migrated_url, "corrections", EVENT, "--json")
    assert '"at": "2026-12-01T12:00:42.654321+00:00"' in out  # machines: ISO, unchanged
    run("event", "--db", migrated_url, "time-zone", EVENT, "Europe/London", "--by", "TD",
        "--reason", "venue")
    assert LONDON["en"] in run("--lang", "en", "event", "--db", migrated_url, "corrections",
                               EVENT)
    log = run("--lang", "en", "event", "--db", migrated_url, "log", EVENT)
    assert "Asia/Shanghai -> Europe/London" in log and "(UTC)" in log
