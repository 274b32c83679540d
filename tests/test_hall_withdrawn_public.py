"""A withdrawn team (退赛) is marked on the hall's live standings as the report and
``event standings`` mark it: on the page as served, in both languages, and in the API's
standings that standings.js redraws the table from (``withdrawn``: the team and the
round after which it withdrew); the browser's redraw: tests/test_browser_hall.py."""

from __future__ import annotations

import html
import re
import time
from urllib.parse import quote

from test_web_pages import EVENT, app_client, setup_round, teams

from duplicate import events, hall
from duplicate.db import make_engine


def test_a_withdrawn_team_is_marked_on_the_live_standings(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        setup_round(engine)
        gone, stays = teams(4)[0][0], teams(4)[1][0]
        with app_client(migrated_url) as client:
            before = client.get(f"/api/events/{quote(EVENT)}/standings")
            assert before.json()["withdrawn"] == {}
            version = hall.live_standings(engine, EVENT).version
            events.withdraw_team(engine, EVENT, gone, by="director", reason="went home")
            assert hall.live_standings(engine, EVENT).version != version
            time.sleep(1.1)  # past the second a worker answers polls from what it read
            after = client.get(f"/api/events/{quote(EVENT)}/standings",
                               headers={"If-None-Match": before.headers["ETag"]})
            assert after.status_code == 200  # a withdrawal is news to the polling phones
            assert after.json()["withdrawn"] == {gone: 1}
            pages = {lang: html.unescape(client.get(f"/e/{quote(EVENT)}?lang={lang}").text)
                     for lang in ("en", "zh")}
        for lang, mark in (("en", " (withdrawn)"), ("zh", "（退赛）")):
            rows = dict(re.findall(r'<tr data-team="([^"]+)">(.*?)</tr>', pages[lang], re.S))
            assert set(rows) == {t for t, _ in teams(4)}, lang
            assert f"{gone}<span class=\"state withdrawn\">{mark}</span>" in rows[gone], lang
            assert mark not in rows[stays], lang
            assert f'data-withdrawn="{mark}"' in pages[lang]  # the script's word for it
    finally:
        engine.dispose()
