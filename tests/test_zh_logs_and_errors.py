"""A Chinese director or player sees no English the program wrote: the change log and a
board's history (``guandan --lang zh event log/history``, the desk, the API), why a board
was not finished, the desk's disputes, the web service's errors (pages and the JSON API's
``message``), the desk's board sets. English stays as it was. SQLite, and PostgreSQL when
configured (the ``migrated_url`` fixture)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.hall import EV, EVENT, PASSWORD, Hall, open_hall

from cli import main
from duplicate import events, hall
from duplicate.i18n import check_catalogue
from duplicate.i18n.stored import coded, reason_words, said, who_said
from duplicate.i18n.typed import finish_letters, result_letters

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}
#: a run of English words (two or more): what a Chinese reader must not meet
ENGLISH_RUN = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]{2,})+")


class _Text(HTMLParser):
    """The visible text of a page (no scripts, styles or attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible(html: str) -> str:
    p = _Text()
    p.feed(html)
    return " ".join("".join(p.parts).split())


def english_runs(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    for word in allowed:
        text = text.replace(word, " ")
    return ENGLISH_RUN.findall(text)


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def run(*args: str, code: int = 0) -> str:
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == code, res.output
    return res.output


def login(h: Hall) -> None:
    r = h.client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                      follow_redirects=False)
    assert r.status_code == 303, r.text


# --- 1. the change log --------------------------------------------------------------------


def _changes(h: Hall) -> None:
    e = h.engine
    events.rename_team(e, EVENT, "Team A", "淮安队", by="裁判", reason="错字")
    events.substitute_player(e, EVENT, "淮安队", "A1 Player", "王五", by="裁判", reason="换人")
    events.set_time_zone(e, EVENT, "Asia/Tokyo", by="裁判", reason="赛地")
    events.set_director_minutes(e, EVENT, 30, by="裁判长", reason="规程")
    events.withdraw_team(e, EVENT, "Team D", by="裁判", reason="弃权")


def test_event_log_in_chinese_and_english_as_before(h: Hall, migrated_url: str) -> None:
    _changes(h)
    events.set_director_minutes(h.engine, EVENT, None, by="裁判长", reason="不限")
    zh = run("--lang", "zh", "event", "log", EVENT, "--db", migrated_url)
    assert "30分钟 改为 不设时限" in zh, zh
    for words in ("“Team A”改为“淮安队”", "“淮安队”：“A1 Player”换为“王五”",
                  "时区 Asia/Shanghai 改为 Asia/Tokyo", "裁判更正时限（公示后）：20分钟 改为 30分钟",
                  "“Team D”第1轮后退赛", "开始本轮", "本轮开始", "发放桌卡", "第1轮，所有桌：4张桌卡（此前的桌卡作废）",
                  "裁判更正时限", "时区"):
        assert words in zh, (words, zh)
    assert not english_runs(zh, ("Team A", "Team D", "A1 Player", "Hall Cup")), zh
    en = events.admin_log(h.engine, EVENT)
    assert [(x["action"], x["detail"]) for x in en][-6:] == [
        ("rename team", "'Team A' -> '淮安队'"),
        ("substitute", "team '淮安队': 'A1 Player' -> '王五'"),
        ("time zone", "Asia/Shanghai -> Asia/Tokyo"),
        ("director limit", "directors' limit after publication: 20 min -> 30 min"),
        ("withdraw team", "team 'Team D' after round 1"),
        ("director limit", "directors' limit after publication: 30 min -> none"),
    ]
    start = next(x for x in en if x["action"] == "hall start")
    assert (start["detail"], start["reason"]) == (
        "round 1: 50 min, warning 5, corrections 10 min after the close", "round started")


def test_old_english_rows_still_shown_and_known_ones_said() -> None:
    assert said("round 2, board 5", "zh") == "第2轮第5副"
    assert said("Asia/Shanghai -> Asia/Tokyo", "zh") == "时区 Asia/Shanghai 改为 Asia/Tokyo"
    assert said("round 1: 50 min, warning 5, corrections 10 min after the close", "zh") == (
        "第1轮：限时50分钟，提前5分钟提醒，结束后10分钟内可更正")
    assert said("something a person typed", "zh") == "something a person typed"
    assert said("@@lw.no.such.key {}", "zh") == "@@lw.no.such.key {}"
    assert said(coded("lw.detail.round", round=3), "en") == "round 3"
    over = coded("lw.detail.override", where="round 1, table 2, board 3, open room", late=5,
                 limit=20, published="2026-12-01 10:00")
    assert said(over, "zh") == ("第1轮第2桌开室第3副：裁判长在裁判更正时限（公示后20分钟，"
                                "公示于 2026-12-01 10:00 UTC）过后5分钟更正")
    assert said(over, "en") == (
        "round 1, table 2, board 3, open room: changed by the chief director 5 min after the "
        "directors' limit (20 min after publication at 2026-12-01 10:00 UTC) was over")
    assert reason_words("imported from bots round 1 table 1:1", "zh") == (
        "导入自机器人对局 第1轮第1桌（第1行）")
    assert reason_words("imported from bots round 1 table 1:1", "en") == (
        "imported from bots round 1 table 1:1")
    assert who_said("table 1 open West", "zh") == "第1桌开室西家"
    assert who_said("table 1 open West", "en") == "table 1 open West"
    assert check_catalogue() == []


def test_api_log_in_the_askers_language(h: Hall) -> None:
    _changes(h)
    zh = h.client.get(f"/api/events/{EV}/log", headers={**ZH, **_bearer()}).json()["admin"]
    assert any(x["detail"] == "时区 Asia/Shanghai 改为 Asia/Tokyo" and x["action"] == "time zone"
               and x["action_text"] == "时区" for x in zh), zh
    start = next(x for x in zh if x["action"] == "hall start")
    assert start["reason"] == "本轮开始" and not english_runs(start["detail"]), start
    en = h.director("GET", "/log").json()["admin"]
    assert any(x["detail"] == "Asia/Shanghai -> Asia/Tokyo" for x in en)


def test_hall_entries_in_chinese(h: Hall, migrated_url: str) -> None:
    e = h.engine
    hall.pause_clock(e, EVENT, 1, "裁判", "停电")
    hall.resume_clock(e, EVENT, 1, "裁判", "来电")
    hall.move_clock(e, EVENT, 1, 5, "裁判", "补时")
    report = h.report(1, "closed", 2, finish="E W").json()
    token = h.token(1, "closed", "confirm")
    h.client.post(f"/api/table/{token}/reports/{report['id']}/dispute", json={"note": "错"})
    settled = hall.settle_dispute(e, EVENT, report["id"], "裁判", "北家有理", finish="北 南")
    assert settled.state == "settled"
    hall.record_ruling(e, EVENT, 1, 2, "warning", "none", "裁判", "大声", team="Team C")
    zh = run("--lang", "zh", "event", "log", EVENT, "--db", migrated_url)
    for words in ("暂停计时", "第1轮：暂停计时", "继续计时", "第1轮：结束时间调整+5分钟",
                  "裁定争议", "第1轮第1桌闭室第2副：争议已裁定，南北+3，出完顺序 头游北、二游南", "判罚"):
        assert words in zh, (words, zh)
    assert not english_runs(zh, ("Hall Cup", "Team C")), english_runs(zh, ("Hall Cup",))
    en = [(x["action"], x["detail"]) for x in events.admin_log(e, EVENT)]
    assert ("hall pause", "round 1: clock paused") in en
    assert ("hall move clock", "round 1: end moved +5 min") in en
    assert ("hall settle", "round 1, table 1, board 2, closed room: dispute settled, N–S +3, "
            "finish N S") in en, en


# --- 2. a board's history -------------------------------------------------------------------


def test_history_by_and_reason_in_chinese(h: Hall, migrated_url: str) -> None:
    r = h.report(1, "open", 1, finish="E W")
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    run("event", "result", EVENT, "--round", "1", "--table", "2", "--board", "1",
        "--room", "开室", "--finish", "北 南", "--by", "李伟", "--db", migrated_url)
    zh = run("--lang", "zh", "event", "history", EVENT, "--round", "1", "--table", "1",
             "--board", "1", "--room", "开室", "--db", migrated_url)
    assert "第1桌开室西家" in zh and "西家报分，北家确认" in zh, zh
    assert not english_runs(zh), zh
    zh2 = run("--lang", "zh", "event", "history", EVENT, "--round", "1", "--table", "2",
              "--board", "1", "--room", "open", "--db", migrated_url)
    assert "无牌谱报分" in zh2 and "南北升3级" in zh2, zh2
    en = run("event", "history", EVENT, "--round", "1", "--table", "2", "--board", "1",
             "--room", "open", "--json", "--db", migrated_url)
    assert '"reason": "reported without a record"' in en, en
    log = events.result_log(h.engine, EVENT)
    assert {x["reason"] for x in log} == {"West's report, confirmed by North",
                                          "reported without a record"}


# --- 3. and 4. unfinished boards and the desk's disputes -------------------------------------


def test_unfinished_time_and_the_dispute_in_words(h: Hall) -> None:
    r = h.report(2, "closed", 2, unfinished="time")
    assert r.status_code == 201
    north = h.client.get(f"/t/{h.token(2, 'closed', 'confirm')}", headers=ZH).text
    assert "未完成（超时）" in visible(north), visible(north)
    assert "（time）" not in north
    report = h.report(1, "closed", 2, finish="E W").json()
    north = visible(h.client.get(f"/t/{h.token(1, 'closed', 'confirm')}", headers=ZH).text)
    assert "西家所报：头游东、二游西，东西升3级" in north, north
    assert "西家所报： " not in north and "：：" not in north
    token = h.token(1, "closed", "confirm")
    assert h.client.post(f"/api/table/{token}/reports/{report['id']}/dispute",
                         json={"note": "顺序错了"}).status_code == 200
    login(h)
    desk = visible(h.client.get(f"/desk/e/{EV}/round/1", headers=ZH).text)
    assert "西家所报：头游东、二游西，东西升3级" in desk, desk
    assert "E W" not in desk and "西家所报: " not in desk
    assert "出完顺序（如 北 南 东" in desk and "南北+2" in desk
    en = visible(h.client.get(f"/desk/e/{EV}/round/1").text)
    assert "1st out East, 2nd out West: E–W up 3" in en, en


def test_chinese_seats_and_sides_are_read() -> None:
    assert finish_letters("北 南") == "N S" and finish_letters("北东南") == "N E S"
    assert finish_letters("北家、东家、南家") == "N E S" and finish_letters("N S E") == "N S E"
    assert events.parse_result("南北+2") == 2 and events.parse_result("东西 +1") == -1
    assert events.parse_result("南北升3级") == 3 and events.parse_result("NS +2") == 2
    assert result_letters("EW +1") == "EW +1"


def test_the_library_reads_chinese_seats(h: Hall) -> None:
    assert hall.preview_finish(h.engine, EVENT, "北 南").ns_result == 3
    assert hall.preview_finish(h.engine, EVENT, "东西").ns_result == -3


# --- 5. the web service's errors --------------------------------------------------------------


def _message(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "message"}
    message: str = body["message"]
    assert not english_runs(message, ("Authorization: Bearer", EVENT)), message
    return message


def test_api_errors_in_chinese(h: Hall) -> None:
    c = h.client
    assert "没有这个页面" in _message(c.get("/api/no/such/thing", headers=ZH), 404)
    assert "不接受 DELETE" in _message(c.delete(f"/api/events/{EV}/standings", headers=ZH), 405)
    assert "需要裁判登录" in _message(c.get(f"/api/events/{EV}/log", headers=ZH), 401)
    m = _message(c.get(f"/api/events/{EV}/rounds/1/boards/99", headers=ZH), 404)
    assert m == "赛事“Hall Cup”第1轮没有第99副牌", m
    m = _message(c.get(f"/api/events/{EV}/rounds/1/boards/1", headers=ZH), 403)
    assert "还在打" in m
    m = _message(c.get(f"/api/events/{EV}/rounds/abc/draw", headers=ZH), 422)
    assert "网址路径中的轮次：应为整数" in m, m
    bad = c.post(f"/api/table/{h.token(1, 'open', 'report')}/reports",
                 json={"board": "x"}, headers=ZH)
    assert "提交内容中的牌号：应为整数" in _message(bad, 422)
    m = _message(c.get(f"/api/events/{EV}/rounds/9/status", headers={**ZH, **_bearer()}), 404)
    assert "没有第9轮" in m, m
    r = c.post("/desk/login", data={"password": "wrong"}, headers={**ZH, "Accept": "application/json"})
    assert _message(r, 401) == "裁判密码错误"
    en = c.get(f"/api/events/{EV}/rounds/1/boards/99").json()["message"]
    assert en == "round 1 of 'Hall Cup' has no board 99"
    en = c.get(f"/api/events/{EV}/rounds/abc/draw").json()["message"]
    assert en.startswith("path.n: Input should be a valid integer")


def _bearer() -> dict[str, str]:
    from helpers.hall import BEARER

    return BEARER


def test_error_pages_in_chinese(h: Hall) -> None:
    c = h.client
    page = visible(c.get(f"/e/{EV}/no/such", headers=ZH).text)
    assert "没有这个页面" in page and not english_runs(page, ("Hall Cup",)), page
    r = c.post(f"/e/{EV}", headers=ZH)
    assert r.status_code == 405 and "不接受 POST 请求" in visible(r.text), visible(r.text)
    page = visible(c.get(f"/e/{EV}/round/1/board/99", headers=ZH).text)
    assert "第1轮没有第99副牌" in page, page
    r = c.post("/desk/login", data={"password": "wrong"}, headers=ZH)
    assert "裁判密码错误" in visible(r.text)
    token = h.token(1, "open", "report")
    r = c.post(f"/t/{token}/report", data={"board": "1", "first": "X", "second": "S"},
               headers=ZH)
    assert "不是座位（北、东、南或西）" in visible(r.text), visible(r.text)


# --- 6. the desk's board sets ------------------------------------------------------------------


def test_desk_sets_in_chinese(h: Hall) -> None:
    login(h)
    page = visible(h.client.get("/desk/sets", headers=ZH).text)
    assert "级牌安排" in page and "级数安排" not in page, page
    assert "fixed:" not in page and "打2" in page, page
