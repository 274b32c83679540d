"""In Chromium, a mark of the analysis is on the seat that played: at every marked step of
a board page the mark sits on the last play of that room's trick, by the seat that made
it (not the seat whose turn is next), and the sentence under the table names that seat
and its player, in both languages."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from duplicate import events
from duplicate.analysis.estimate import Budget
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events.site import write_event_site

NAME = "Browser Marks"
TEAMS = (("龙队", ["张伟", "李娜", "王芳", "陈静"]), ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]))


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> Path:
    base = tmp_path_factory.mktemp("browser-marks")
    path = base / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        events.create_event(engine, NAME, seed="e55", fmt="rr", rounds=1, boards_per_round=2)
        for team, players in TEAMS:
            events.add_team(engine, NAME, team, players)
        events.pair_round(engine, NAME)
        events.assign_boards(engine, NAME, 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
        events.import_texts(engine, NAME, events.bot_records(engine, NAME, 1), round_no=1)
        for lang in ("zh", "en"):
            write_event_site(engine, NAME, str(base / lang), lang, Budget(playouts=2, cards=16))
    finally:
        engine.dispose()
    return base


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_mark_sits_on_the_seat_that_played(browser: Any, served: Callable[[Path], str],
                                                  report: Path, lang: str) -> None:
    base = served(report / lang)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    checked = 0
    for path in sorted((report / lang).glob("board-*.html")):
        text = path.read_text(encoding="utf-8")
        found = re.search(r'<script id="movie-data" type="application/json">(.*?)</script>',
                          text, re.S)
        assert found
        data = json.loads(found.group(1))
        for room in data["rooms"]:
            for ply, a in enumerate(room["anl"]):
                if not a or "m" not in a:
                    continue
                played = room["moves"][ply]["s"]
                page.goto(f"{base}{path.name}#{room['key']}={ply + 1}")
                sec = page.locator(f'section.room[data-room="{room["key"]}"]')
                last = sec.locator("ol.trick li").last
                assert last.get_attribute("data-seat") == str(played)
                mark = last.locator("b.mark")
                assert mark.inner_text() == a["m"] and mark.get_attribute("data-seat") == str(
                    played)
                said = sec.locator("p.anlmark")
                assert said.get_attribute("data-seat") == str(played)
                who = f"{data['seats'][played]}（{room['players'][played]}）" if lang == "zh" \
                    else f"{data['seats'][played]} ({room['players'][played]})"
                assert said.inner_text().startswith(who)
                # the seat to act next carries no mark
                turn = sec.locator(".hand.turn")
                if turn.count():
                    assert turn.get_attribute("data-seat") != str(played) or \
                        room["moves"][ply + 1]["s"] == played
                checked += 1
    page.close()
    assert checked > 0
