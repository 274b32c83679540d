"""A table's request accepted on the desk without a note: the reason the store keeps is a
phrase of the catalogue (the director's "accepted as the table asked", who at the table
asked for what), not English words; every page and listing says it in its own language.
The desk log's column of who made a change is headed 操作人 in Chinese, not 裁判 (a
table's seat is in it too)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from helpers.hall import EV, Hall, open_hall
from sqlalchemy import select
from test_hall_director_limit import published, request_of
from test_web_api_director import login

from duplicate import models
from duplicate.i18n.stored import reason_said


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def test_an_accepted_request_is_said_in_the_readers_language(h: Hall) -> None:
    published(h)
    rid = request_of(h, 2, "open", 2, "E N W")
    csrf = login(h)
    h.client.get("/desk", params={"lang": "en"})  # the director works in English
    r = h.client.post(f"/desk/e/{EV}/round/1/requests/{rid}/accept",
                      data={"csrf": csrf, "note": ""}, follow_redirects=False)
    assert r.status_code == 303, r.text
    with h.engine.connect() as conn:
        stored = conn.execute(select(models.ResultChange.reason)
                              .order_by(models.ResultChange.id.desc()).limit(1)).scalar_one()
    assert "accepted as the table asked" not in stored  # stored as a phrase's key
    zh = reason_said(stored, "zh")
    en = reason_said(stored, "en")
    assert "accepted as the table asked" in en and "table 2 open West" in en, en
    assert not re.search(r"[A-Za-z]{3,}", zh.replace("we misread the sheet", "")), zh
    assert "按该桌申请更正" in zh and "同意" in zh, zh
    # and the desk's log page in Chinese says it in Chinese
    log = h.client.get(f"/desk/e/{EV}/log", params={"lang": "zh"}).text
    assert "按该桌申请更正" in log and "accepted as the table asked" not in log
    # its column of who made each change is not headed 裁判 (a table's seat is in it too)
    assert "<th>操作人</th>" in log and "<th>裁判</th>" not in log


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_north_sees_wests_request_and_the_result_that_counts(h: Hall, lang: str) -> None:
    """After publication West's correction is a request on the desk: North's page says it
    is West's (not "your correction") and shows the result that counts beside the one
    asked for; West's own page still says it is West's own."""
    published(h)  # N-S +1 counts everywhere
    request_of(h, 2, "open", 2, "E N W")  # West asks for E-W +3
    north = h.client.get(f"/t/{h.token(2, 'open', 'confirm')}", params={"lang": lang}).text
    item = re.search(r'<li id="board-2".*?</li>', north, re.S)
    assert item is not None
    text = html.unescape(re.sub(r"<[^>]+>", "", item.group()))
    if lang == "en":
        assert "West's correction waits for the director" in text and "your correction" not in text
        assert "counts: N–S up 1" in text and "asked: 1st out East" in text, text
    else:
        assert "西家的更正申请待裁判处理" in text and "有效成绩：" in text and "申请改为：" in text, text
    west = h.client.get(f"/t/{h.token(2, 'open', 'report')}", params={"lang": "en"}).text
    assert "your correction waits for the director" in west
