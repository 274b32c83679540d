"""A Chinese reader walking the hall meets no English and no bare seat letter: finishing
orders are written as players write them (头游北、二游东、三游西; a double down named by its
side, 头游北、二游南，东西双下) on the public match page, in the published corrections, in
the desk's change log and in a table's refusals; who changed a result is said in words
(裁判, 系统管理员 for the login ``root``); the desk's and the API's refusals name what is
wrong in Chinese (the phrase of every director's action, the seed file, a teams list's
line, a request's fields and choices); results are taught as 南北+2、东西+1; the table
cards, the desk's matches, the delete page and the API docs speak one language; an event
is 赛事. English stays right. SQLite, and PostgreSQL when configured."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.hall import BEARER, EV, EVENT, PASSWORD, Hall, open_hall
from test_zh_logs_and_errors import visible

from cli import main
from duplicate import events, hall
from duplicate.events.log import _WHAT, what_words
from duplicate.hall import HallError
from duplicate.i18n.stored import finish_said, who_said

ROOT = Path(__file__).resolve().parent.parent
ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}
#: an English word a Chinese reader must not meet (names of the test's teams and players,
#: and the words docs/GLOSSARY.md allows, are taken out first)
WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")
ALLOWED = ("English", "Hall Cup", "Team A", "Team B", "Team C", "Team D", "Player", "UTC", "API", "NS",
           "EW", "KiB", "VP", "PDF", "gdn")
#: a seat letter standing alone (``北 N`` or ``N S``), or seats run together (``北 东 西``)
BARE_SEAT = re.compile(r"(?<![A-Za-z0-9])[NESW](?![A-Za-z0-9+])|[北东南西] [北东南西](?: [北东南西])*")


def english_words(text: str) -> list[str]:
    for word in ALLOWED:
        text = text.replace(word, " ")
    text = re.sub(r"[A-D][1-4]", " ", text)  # the players: A1 Player ...
    return WORD.findall(text)


@pytest.fixture
def h(migrated_url: str) -> Iterator[Hall]:
    yield from open_hall(migrated_url)


def login(h: Hall) -> None:
    r = h.client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                      follow_redirects=False)
    assert r.status_code == 303, r.text


def report(h: Hall, table: int, room: str, board: int, finish: str) -> int:
    r = h.report(table, room, board, finish=finish)
    assert r.status_code == 201, r.text
    assert h.confirm(table, room, r.json()["id"]).status_code == 200
    return int(r.json()["id"])


def published(h: Hall) -> None:
    """Round 1 played (table 1: N E W and N S in the open room, N S E and E W closed),
    closed and published."""
    orders = {(1, "open", 1): "N E W", (1, "open", 2): "N S", (1, "closed", 1): "E N S",
              (1, "closed", 2): "E W"}
    for table in (1, 2):
        for room in ("open", "closed"):
            for board in (1, 2):
                report(h, table, room, board, orders.get((table, room, board), "N E S"))
    for step in ("close", "publish"):
        r = h.director("POST", f"/rounds/1/{step}")
        assert r.status_code == 200, r.text


# --- 1. finishing orders as players write them --------------------------------------------


def test_one_function_says_a_finishing_order_as_players_write_it() -> None:
    assert finish_said("N E W", "zh") == "头游北、二游东、三游西"
    assert finish_said("N S", "zh") == "头游北、二游南，东西双下"
    assert finish_said("N S", "zh", side=False) == "头游北、二游南"
    assert finish_said("N S", "en") == "1st out North, 2nd out South, E–W double down"
    assert finish_said("N E W", "en") == "1st out North, 2nd out East, 3rd out West"
    for path in ("duplicate/web/templates/public_macros.html", "duplicate/web/templates/desk_round.html",
                 "duplicate/web/templates/table_macros.html"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "split()" not in text, path  # no order said seat by seat


def test_public_match_page_writes_orders_in_words(h: Hall) -> None:
    published(h)
    page = visible(h.client.get(f"/e/{EV}/round/1/table/1", headers=ZH).text)
    assert "头游北、二游东、三游西" in page and "头游北、二游南，东西双下" in page, page
    assert "头游东、二游北、三游南" in page and "头游东、二游西，南北双下" in page, page
    assert not BARE_SEAT.search(page), BARE_SEAT.search(page)
    assert not english_words(page), english_words(page)
    en = visible(h.client.get(f"/e/{EV}/round/1/table/1?lang=en").text)
    assert "1st out North, 2nd out South, E–W double down" in en, en


def test_public_match_page_says_hidden_boards_in_chinese(h: Hall) -> None:
    report(h, 1, "open", 1, "N E W")
    report(h, 1, "closed", 1, "N S E")
    page = visible(h.client.get(f"/e/{EV}/round/1/table/1", headers=ZH).text)
    assert "未公布" in page and "hidden" not in page, page
    assert not english_words(page), english_words(page)


def corrected(h: Hall) -> None:
    published(h)
    r = h.director("POST", "/rounds/1/corrections", json={
        "table": 1, "board": 2, "room": "open", "finish": "E N S", "reason": "笔误"})
    assert r.status_code == 200, r.text


def test_published_corrections_in_chinese_words_and_punctuation(h: Hall) -> None:
    corrected(h)
    page = visible(h.client.get(f"/e/{EV}/round/1/table/1", headers=ZH).text)
    m = re.search(r"第1轮第1桌第2副，开室：.*?笔误", page)
    assert m, page
    line = m.group()
    assert "南北升3级（东西双下） 头游北、二游南 → 东西升1级 头游东、二游北、三游南（裁判判定）" in line, line
    assert "（UTC+8），更正人：裁判，原因：笔误" in line, line
    assert ", " not in line and ": " not in line and "director" not in line, line
    en = visible(h.client.get(f"/e/{EV}/round/1/table/1?lang=en").text)
    assert "by director: 笔误" in en, en


def test_desk_change_log_orders_in_words_and_who_in_words(h: Hall) -> None:
    corrected(h)
    events.correct_result(h.engine, EVENT, 1, 2, 1, "open", -2,
                          events.Correction(reason="录入错误", by="root"))
    login(h)
    page = h.client.get(f"/desk/e/{EV}/round/1", headers=ZH).text
    history = visible(page[page.index('<section id="history">'):page.index('<section id="close">')])
    assert "东西升1级（裁定） · 头游东、二游北、三游南" in history, history
    assert "系统管理员" in history and "root" not in history, history
    assert not BARE_SEAT.search(history), BARE_SEAT.search(history)
    assert not english_words(history), english_words(history)
    assert who_said("root", "zh") == "系统管理员" and who_said("root", "en") == "root"
    assert who_said("director", "zh") == "裁判"


# --- 4, 5. a table's refusals ---------------------------------------------------------------


def test_table_refusals_say_the_order_and_the_reason_in_words(h: Hall) -> None:
    west = h.token(1, "open", "report")
    r = h.client.post(f"/t/{west}/report", headers=ZH,
                      data={"board": "1", "first": "N", "second": "N"})
    text = visible(r.text)
    assert "出完顺序“头游北、二游北”无效" in text, text
    r = h.report(1, "open", 1, finish="N S")
    assert h.confirm(1, "open", r.json()["id"]).status_code == 200
    r = h.client.post(f"/t/{west}/report", headers=ZH,
                      data={"board": "1", "first": "E", "second": "W"})
    text = visible(r.text)
    assert "西家已报告 头游北、二游南，东西双下（已确认）" in text, text
    r = h.client.post(f"/t/{h.token(2, 'open', 'report')}/report", headers=ZH,
                      data={"board": "1", "unfinished": "yes", "reason": ""})
    assert r.status_code in (200, 303), r.text
    r = h.client.post(f"/t/{h.token(2, 'open', 'report')}/report", headers=ZH,
                      data={"board": "1", "first": "E", "second": "W"})
    text = visible(r.text)
    assert "未完成（超时）" in text and "time" not in text, text
    for said in (text,):
        assert not english_words(said), english_words(said)


def test_north_empty_dispute_and_record_note_in_chinese(h: Hall) -> None:
    rid = h.report(1, "open", 1, finish="N E S", record=None).json()["id"]
    north = h.token(1, "open", "confirm")
    r = h.client.post(f"/t/{north}/dispute/{rid}", headers=ZH, data={"note": "  "})
    text = visible(r.text)
    assert "提出异议须写明说明（最多 1000 个字符）" in text, text
    assert not english_words(text), english_words(text)
    template = (ROOT / "duplicate/web/templates/table_north.html").read_text(encoding="utf-8")
    assert '({{ t("web.north.with_record") }})' not in template


# --- 6. the desk's refusals -----------------------------------------------------------------


def _phrases_passed() -> set[str]:
    """Every literal ``what`` passed to ``checked()`` or the hall's ``who()``."""
    found: set[str] = set()
    for path in [*(ROOT / "duplicate").rglob("*.py"), *(ROOT / "web").rglob("*.py"),
                 *(ROOT / "commands").rglob("*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("checked", "who") and len(node.args) == 3
                    and isinstance(node.args[2], ast.Constant)
                    and isinstance(node.args[2].value, str)):
                found.add(node.args[2].value)
    return found


def test_every_phrase_of_a_directors_action_has_its_words() -> None:
    passed = _phrases_passed()
    assert {"a ruling", "a correction", "pausing the clock", "settling a dispute",
            "accepting a table's request", "confirming a report"} <= passed
    missing = sorted(p for p in passed if p not in _WHAT)
    assert not missing, missing
    for p in passed:
        zh = str(what_words(p).text("zh"))  # type: ignore[union-attr]
        assert not english_words(zh), (p, zh)


def test_a_directors_action_without_who_or_why_is_refused_in_chinese(h: Hall) -> None:
    with pytest.raises(HallError) as exc:
        hall.record_ruling(h.engine, EVENT, 1, 1, "late", "none", "裁判", "  ")
    assert exc.value.text("zh") == "判罚须写明操作人和原因", exc.value.text("zh")
    with pytest.raises(HallError) as exc:
        hall.pause_clock(h.engine, EVENT, 1, "裁判", "")
    assert exc.value.text("zh") == "暂停计时须写明操作人和原因", exc.value.text("zh")
    assert str(exc.value) == "pausing the clock needs who and why" or "pausing" in str(exc.value)


def test_desk_seed_file_teams_and_lineup_refusals_in_chinese(h: Hall) -> None:
    login(h)
    csrf = re.search(r'name="csrf" value="([^"]+)"', h.client.get("/desk").text)
    assert csrf
    r = h.client.post("/desk/events", headers=ZH, data={
        "csrf": csrf.group(1), "name": "第二届", "rounds": "2", "boards_per_round": "2",
        "teams": "老虎队 张三, 李四"})
    text = visible(r.text)
    assert "参赛队名单第1行：应写成" in text and "teams" not in text, text
    page = h.client.get(f"/desk/e/{EV}", headers=ZH).text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf
    r = h.client.post(f"/desk/e/{EV}/boards", headers=ZH, data={
        "csrf": csrf.group(1), "round_no": "2", "seed_text": "{not json"})
    text = visible(r.text)
    assert "种子文件：不是种子文件（JSON无效" in text and "seed file" not in text, text
    r = h.client.post(f"/desk/e/{EV}/pair", headers=ZH, data={
        "csrf": csrf.group(1), "lineups": "Team A=one"})
    text = visible(r.text)
    assert "如 淮安队=1,3" in text and "Tigers" not in text, text


# --- 7. the API's validation words ------------------------------------------------------------


def test_api_validation_in_the_readers_words(h: Hall) -> None:
    r = h.client.post("/api/events", headers={**BEARER, **ZH}, json={
        "name": "二", "scale": "x", "teams": [{"name": "甲", "players": ["a", "b"]}]})
    assert r.status_code == 422, r.text
    m = r.json()["message"]
    assert "提交内容中的计分方式：应为以下之一：“wdl”或“vp20”" in m, m
    assert "提交内容中的参赛队第1项的队员：至少4项" in m, m
    assert "个字符" not in m and " or " not in m, m
    r = h.client.get(f"/api/events/{EV}/rounds/x/clock", headers=ZH)
    assert "网址路径中的轮次：应为整数" in r.json()["message"], r.text
    r = h.client.post(f"/api/events/{EV}/delete", headers={**BEARER, **ZH},
                      json={"confirm": "wrong", "reason": "测试"})
    assert r.status_code == 422 and r.json()["message"] == "确认项须填写赛事名称", r.text
    r = h.client.post(f"/api/events/{EV}/delete", headers=BEARER,
                      json={"confirm": "wrong", "reason": "test"})
    assert r.json()["message"] == "confirm must be the event's name", r.text
    r = h.client.post("/api/events", headers=BEARER, json={"name": "x", "scale": "x"})
    assert "Input should be 'wdl' or 'vp20'" in r.json()["message"], r.text


# --- 8. results -------------------------------------------------------------------------------


def test_result_syntax_taught_in_chinese_and_correct_prints_words(
    h: Hall, migrated_url: str
) -> None:
    with pytest.raises(events.EventError) as exc:
        events.parse_result("NS +9")
    assert exc.value.text("zh") == "无效的结果“NS +9”：应写作如 南北+2、东西+1（也可写 NS +2）"
    assert str(exc.value) == "invalid result 'NS +9': expected e.g. 'NS +2' or 'EW +1'"
    res = CliRunner().invoke(main, [
        "--lang", "zh", "event", "correct", EVENT, "--db", migrated_url, "--round", "1",
        "--table", "1", "--board", "1", "--room", "open", "--result", "南北+2", "--by", "裁判",
        "--reason", "笔误"])
    assert res.exit_code == 0, res.output
    assert "→ 南北升2级" in res.output and "南北+2" not in res.output, res.output


# --- 9, 10. cards, the desk's matches, the delete page, the API docs, 赛事 ----------------------


def test_cards_desk_matches_delete_and_docs_in_one_language(h: Hall) -> None:
    login(h)
    from duplicate.i18n import gettext

    assert (gettext("zh", "desk.cards.west"), gettext("zh", "desk.cards.north")) == (
        "西家报分", "北家确认")
    assert (gettext("en", "desk.cards.west"), gettext("en", "desk.cards.north")) == (
        "West reports", "North confirms")
    page = visible(h.client.get(f"/desk/e/{EV}", headers=ZH).text)
    assert "第1桌：Team A 对" in page or "第1桌：Team" in page, page
    assert "桌号 1" not in page, page
    delete = visible(h.client.get(f"/desk/e/{EV}/delete", headers=ZH).text)
    assert f"删除赛事：{EVENT}" in delete and "比赛" not in delete, delete
    docs = h.client.get("/api/docs", headers=ZH).text
    assert "<title>掼蛋赛事大厅 – API</title>" in docs and 'lang="zh-CN"' in docs, docs
    docs = h.client.get("/api/docs?lang=en").text
    assert "<title>Guandan tournament hall – API</title>" in docs, docs
    with pytest.raises(events.EventError) as exc:
        events.get_round(h.engine, EVENT, 9)
    assert "赛事" in exc.value.text("zh") and "比赛" not in exc.value.text("zh")


def test_a_finish_that_disagrees_with_the_result_is_said_in_words(h: Hall) -> None:
    with pytest.raises(HallError) as exc:
        hall.director_correct(h.engine, EVENT, 1, 1, 1, "open", 2, "裁判", "笔误", finish="N S")
    assert exc.value.text("zh") == (
        "出完顺序“头游北、二游南，东西双下”得出南北升3级（东西双下），不是南北升2级")
    assert str(exc.value) == "the finishing order N S gives N–S +3, not +2"


def test_a_body_over_the_limit_is_refused_in_the_readers_language(h: Hall) -> None:
    big = b"x" * (2 * 1024 * 1024)
    for headers, said in (({**ZH, "Content-Type": "application/json"}, "提交内容超过 "),
                          ({"Content-Type": "application/json"}, "request body over ")):
        r = h.client.post("/api/events", content=big, headers=headers)
        assert r.status_code == 413 and r.json()["message"].startswith(said), r.text


def test_a_rule_variant_refused_in_the_readers_words(h: Hall) -> None:
    """An unknown rule variant, through the API and on the command line, is refused in the
    reader's language (it was English in both)."""
    body = {"name": "变体杯", "teams": [{"name": "甲", "players": ["a", "b", "c", "d"]},
                                        {"name": "乙", "players": ["e", "f", "g", "h"]}],
            "variants": {"no_such_rule": True}}
    r = h.client.post("/api/events", headers={**BEARER, "Accept-Language": "zh-CN"}, json=body)
    assert r.status_code == 422 and r.json()["message"] == "未知的规则变体：no_such_rule", r.text
    r = h.client.post("/api/events", headers=BEARER, json=body)
    assert r.json()["message"] == "unknown rule variant(s): no_such_rule", r.text
    create = ["--lang", "zh", "event", "create", "T", "--db", "sqlite://", "--variant"]
    res = CliRunner().invoke(main, [*create, "nothing=1"])
    assert res.exit_code == 2 and "“nothing=1”：应写作 名称=值，名称为以下之一：" in res.output, \
        res.output
    res = CliRunner().invoke(main, [*create, "jiefeng_next=7"])
    assert "jiefeng_next 只能是 true 或 false" in res.output, res.output


def test_the_desk_shows_the_events_log_in_its_language(h: Hall) -> None:
    """The round page's "event's log" opens a desk page in the page's language (it opened
    the API's JSON, with its English): a rename, who made it, when and why."""
    events.rename_team(h.engine, EVENT, "Team A", "淮安队", by="director", reason="报名笔误")
    login(h)
    page = h.client.get(f"/desk/e/{EV}/round/1?lang=zh").text
    assert f'href="/desk/e/{EV}/log"' in page
    zh = visible(h.client.get(f"/desk/e/{EV}/log?lang=zh").text)
    assert "“Team A”改为“淮安队”" in zh and "裁判" in zh and "报名笔误" in zh, zh
    assert "发放桌卡" in zh and "director" not in zh and "rename" not in zh, zh
    en = visible(h.client.get(f"/desk/e/{EV}/log?lang=en").text)
    assert "'Team A' -> '淮安队'" in en and "director" in en, en
    h.client.cookies.clear()
    assert h.client.get(f"/desk/e/{EV}/log", follow_redirects=False).status_code in (302, 303)
