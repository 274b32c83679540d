"""The hall's refusals in both languages: what a table's phone may be told (a bad finishing
order, a report already in, a closed round, an unknown or replaced card...) comes from the
catalogue as a ``Phrase``, English as ``str()``, Chinese when the page or the API request
asks for it; every key the hall names exists in both languages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.hall import Hall, open_hall, refused
from sqlalchemy import Engine
from test_hall_support import EVENT, Cards, make_event, minutes

from duplicate import hall
from duplicate.hall import HallError
from duplicate.hall.base import where_phrase
from duplicate.i18n import CatalogueError, Phrase, catalogue, phrase

ROOT = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_key_the_hall_names_is_in_the_catalogue() -> None:
    """A refusal is raised on a rare path: a key misspelt there would turn it into a
    server error, so every literal key in the hall's code and pages is checked here."""
    sources = [
        *sorted((ROOT / "duplicate" / "hall").glob("*.py")),
        *sorted((ROOT / "duplicate" / "events").glob("*.py")),
        ROOT / "duplicate/store/calls.py",
        ROOT / "duplicate/web/pages/table.py",
    ]
    keys = {
        key
        for path in sources
        for key in re.findall(r'phrase\(\s*f?"([a-z_.{}]+)"', path.read_text(encoding="utf-8"))
    }
    assert len(keys) > 60
    known = catalogue()
    for key in keys:
        if "{" in key:  # hall.room.{room}, hall.state.{state}
            prefix = key.split("{")[0]
            assert any(k.startswith(prefix) for k in known), key
        else:
            assert key in known and known[key].get("zh"), key
    with pytest.raises(CatalogueError):
        phrase("hall.err.no_such_message")


def test_a_phrase_is_english_as_text_and_chinese_on_request() -> None:
    where = where_phrase(1, 2, 3, "open")
    err = HallError(phrase("hall.err.window_over", where=where), "closed")
    assert str(err) == "round 1, table 2, board 3, open room: the round's correction window is over"
    assert err.text("en") == str(err) and err.text(None) == str(err)
    assert err.text("zh") == "第1轮第2桌开室第3副：本轮的更正期限已过"
    assert err.text("zh-CN") == err.text("zh")
    plain = HallError("some English", "invalid")
    assert plain.text("zh") == "some English" and plain.phrase is None
    assert phrase("hall.state.disputed") == Phrase("hall.state.disputed", {})


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


@pytest.mark.parametrize(
    ("finish", "english", "chinese"),
    [
        ("N N E", "invalid finishing order 'N N E': at least two seats, none twice", "不能重复"),
        ("N E", "a finishing order that is not a double down names three seats", "三个座位"),
        ("N X E", "invalid finishing order 'N X E': expected seats N E S W", "座位只有"),
        ("N" * 41, "invalid finishing order: expected seats like 'N S E'", "出完顺序无效"),
    ],
)
def test_bad_finishing_orders_in_both_languages(
    migrated_engine: Engine, cards: Cards, finish: str, english: str, chinese: str
) -> None:
    with pytest.raises(HallError) as exc:
        hall.preview_finish(migrated_engine, EVENT, finish)
    assert str(exc.value) == english
    assert chinese in exc.value.text("zh") and not CJK.search(str(exc.value))


def test_a_table_is_told_in_chinese_what_is_wrong(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    west = hall.grant_for(e, cards[(1, "open")].report_token, now=minutes(20))
    north = hall.grant_for(e, cards[(1, "open")].confirm_token, now=minutes(20))
    rep, _ = hall.west_report(e, west, 1, finish="N S", now=minutes(20))
    told: list[HallError] = []
    for call in (
        lambda: hall.west_report(e, west, 1, finish="E W", now=minutes(21)),  # already in
        lambda: hall.west_report(e, west, 1, unfinished="  ", now=minutes(21)),
        lambda: hall.north_confirm(e, north, 2, rep.id),  # another board's report
        lambda: hall.north_confirm(e, west, 1, rep.id),  # West's card
        lambda: hall.west_report(e, west, 99, finish="N S"),  # not a board of the round
        lambda: hall.grant_for(e, "forged-token"),
    ):
        with pytest.raises(HallError) as exc:
            call()
        told.append(exc.value)
    zh = [t.text("zh") for t in told]
    assert "西家已报告 头游北、二游南，东西双下（已报告）" in zh[0] and "第1轮第1桌开室第1副" in zh[0]
    assert "未打完的牌须写明原因" in zh[1]
    assert "不是第2副" in zh[2]
    assert zh[3] == "这张卡用于报告；确认请用北家的卡"
    assert "没有第99副" in zh[4] and told[4].kind == "not_found"
    assert zh[5] == "无效的桌卡" and str(told[5]) == "unknown table token"
    assert all(CJK.search(t) for t in zh) and not any(CJK.search(str(t)) for t in told)


def test_the_directors_refusals_in_both_languages(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    west = hall.grant_for(e, cards[(1, "open")].report_token, now=minutes(20))
    hall.west_report(e, west, 1, finish="N S", now=minutes(20))
    told: list[HallError] = []
    for call in (
        lambda: hall.start_round(e, EVENT, 1, "director"),  # started already
        lambda: hall.close_round(e, EVENT, 1, "director", now=minutes(50)),  # North waits
        lambda: hall.publish_round(e, EVENT, 1, "director"),  # not closed
        lambda: hall.record_ruling(e, EVENT, 1, 2, "late", "conceded", "director", "late"),
    ):
        with pytest.raises(HallError) as exc:
            call()
        told.append(exc.value)
    assert [t.kind for t in told] == ["conflict", "invalid", "invalid", "invalid"]
    assert str(told[1]) == ("cannot close: round 1, table 1, board 1, open room: West's report "
                            "waits for North's confirmation")
    zh = [t.text("zh") for t in told]
    assert "第1轮已经开始计时" in zh[0]
    assert zh[1] == "不能结束本轮：第1轮第1桌开室第1副：西家的报告在等北家确认"
    assert "请先结束本轮" in zh[2]
    assert zh[3] == "判负一副牌的裁定须写明是哪一队"


@pytest.fixture
def web_hall(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def test_the_api_answers_in_the_asked_language_and_english_by_default(web_hall: Hall) -> None:
    h = web_hall
    token = h.token(1, "open", "report")
    url = f"/api/table/{token}/reports"
    body = {"board": 1, "finish": "N N E"}
    english = refused(h.client.post(url, json=body), 422)
    assert english["message"] == "invalid finishing order 'N N E': at least two seats, none twice"
    chinese = refused(h.client.post(url, json=body, headers={"Accept-Language": "zh-CN"}), 422)
    assert chinese["error"] == english["error"] == "invalid"
    assert "不能重复" in chinese["message"]
    forbidden = refused(h.client.get("/api/table/forged", params={"lang": "zh"}), 403)
    assert forbidden["message"] == "无效的桌卡"


def test_the_phone_page_shows_the_refusal_in_its_language(web_hall: Hall) -> None:
    h = web_hall
    token = h.token(1, "open", "report")
    form = {"board": "1", "first": "N", "second": "E"}  # not a double down: needs a third
    r = h.client.post(f"/t/{token}/report?lang=zh", data=form)
    assert r.status_code == 422
    assert "不是双下时，出完顺序要写三个座位" in r.text
    r = h.client.post(f"/t/{token}/report?lang=en", data=form)
    assert "a finishing order that is not a double down names three seats" in r.text
    r = h.client.post(f"/t/{token}/report?lang=zh", data={"board": "1"})
    assert "请填写出完顺序" in r.text


def test_a_play_record_too_big_is_refused_in_the_pages_language(web_hall: Hall) -> None:
    h = web_hall
    token = h.token(1, "open", "report")
    form = {"board": "1", "first": "N", "second": "S"}
    big = {"record": ("deal.gdn", b"x" * (256 * 1024 + 1), "text/plain")}
    r = h.client.post(f"/t/{token}/report?lang=zh", data=form, files=big)
    assert r.status_code == 413 and "牌谱文件超过 256 KiB" in r.text
    r = h.client.post(f"/t/{token}/report?lang=en", data=form, files=big)
    assert r.status_code == 413 and "the play record is over 256 KiB" in r.text
