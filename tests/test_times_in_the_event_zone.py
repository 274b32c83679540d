"""Every time a person reads is in the event's zone, written one way (``1 Dec 2026 20:15
(UTC+8)``, ``2026年12月1日 20:15（UTC+8）``: duplicate.zones.when_text): the log line of a
change the chief director made past the directors' limit said when the round was
published in UTC; it says it in the event's zone now, in the library's log, ``guandan
event log`` and the desk's log, in both languages; and the refusal past the limit says
the publication and the limit the same way. An older log row (its time stored in UTC)
still says so."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from click.testing import CliRunner
from helpers.hall import EV, EVENT, Hall, finish_round, open_hall

from cli import main
from duplicate import events, hall
from duplicate.i18n.stored import coded, said
from duplicate.zones import when_text

ZONE = "Asia/Shanghai"  # the event's: new events are in China Standard Time


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def _published(h: Hall) -> object:
    finish_round(h)
    assert h.director("POST", "/rounds/1/close").status_code == 200
    assert h.director("POST", "/rounds/1/publish").status_code == 200
    at = hall.round_clock(h.engine, EVENT, 1).published_at
    assert at is not None and events.get_event(h.engine, EVENT).time_zone == ZONE
    return at


def test_the_chief_override_log_line_is_in_the_events_zone(h: Hall, migrated_url: str) -> None:
    at = _published(h)
    late = at + timedelta(minutes=45)  # type: ignore[operator]
    with pytest.raises(hall.HallError) as caught:
        hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 3, "TD Wu", "slip", now=late)
    until = at + timedelta(minutes=20)  # type: ignore[operator]
    for lang in ("en", "zh"):
        refusal = caught.value.text(lang)
        assert when_text(at, ZONE, lang) in refusal and when_text(until, ZONE, lang) in refusal
    hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 3, "Chief Li", "scorer's slip",
                          chief=True, now=late)
    for lang in ("en", "zh"):
        shown = when_text(at, ZONE, lang)
        assert "+8" in shown
        [row] = [e for e in events.admin_log(h.engine, EVENT, lang)
                 if e["action"] == "chief override"]
        assert shown in row["detail"], row
        assert " UTC)" not in row["detail"] and " UTC）" not in row["detail"], row
        out = CliRunner().invoke(main, ["--lang", lang, "event", "--db", migrated_url, "log",
                                        EVENT])
        assert out.exit_code == 0, out.output
        assert shown in out.output, out.output
    r = h.client.post("/desk/login", data={"password": "the director's password",
                                           "next": "/desk"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    for lang in ("en", "zh"):
        page = h.client.get(f"/desk/e/{EV}/log?lang={lang}").text
        assert when_text(at, ZONE, lang) in page, page


def test_an_older_override_row_still_says_its_time_is_utc() -> None:
    old = coded("lw.detail.override", where="round 1", late=5, limit=20,
                published="2026-12-01 10:00")
    assert "2026-12-01 10:00 UTC" in (said(old, "en") or "")
