"""The last outputs that spoke English (or English and Chinese) whatever the language asked
for: the arena's command line, `guandan plays`, the web's CSRF refusal, a settled dispute's
finishing order, the settings' and report writer's errors and the .gdn writer's refusals;
each in Chinese with --lang zh (or Accept-Language zh-CN), English as it was."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from cli import main

GUANDAN = [sys.executable, "-c", "from cli import main; main()"]
#: a run of English words (two or more): what a Chinese line must not hold
ENGLISH = re.compile(r"[A-Za-z]{3,}( [A-Za-z]{2,})+")


def english_runs(text: str, *allowed: str) -> list[str]:
    """The runs of English words in ``text`` once the ``allowed`` names are taken out."""
    for word in allowed:
        text = text.replace(word, "")
    return [m.group(0) for m in ENGLISH.finditer(text)]


def zh(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["--lang", "zh", *args])
    return r.exit_code, r.output


def en(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


# --- 1. the arena's command line -------------------------------------------------------


def test_arena_errors_in_the_chosen_language(tmp_path: Path) -> None:
    missing = str(tmp_path / "none.txt")
    code, out = zh("arena", "tournament", missing, "--boards", "1", "--seed", "1f")
    assert code == 1 and "无法读取参赛名单文件" in out and "文件或文件夹不存在" in out
    assert not english_runs(out, missing), out
    code, out = en("arena", "tournament", missing, "--boards", "1", "--seed", "1f")
    assert code == 1 and "cannot read tournament file" in out and "No such file" in out
    agents = tmp_path / "agents.txt"
    agents.write_text("solo: python bot.py {url}\n", encoding="utf-8")
    code, out = zh("arena", "tournament", str(agents), "--boards", "1", "--seed", "1f")
    assert code == 1 and "比赛至少要有两个智能体" in out, out
    agents.write_text("a: python bot.py\n", encoding="utf-8")
    code, out = zh("arena", "tournament", str(agents), "--boards", "1", "--seed", "1f")
    assert code == 1 and "的命令里没有 {url}" in out, out
    log = tmp_path / "log.jsonl"
    log.write_text("nope\n", encoding="utf-8")
    code, out = zh("arena", "import-log", str(log))
    assert code == 1 and "log.jsonl:1：不是 JSON（无法按 JSON 解析）" in out, out
    assert not english_runs(out, str(log)), out
    code, out = en("arena", "import-log", str(log))
    assert code == 1 and "log.jsonl:1: not JSON (Expecting value)" in out, out
    log.write_text('{"type": "notify", "stage": "play", "curPos": 9}\n', encoding="utf-8")
    code, out = zh("arena", "import-log", str(log))
    assert code == 1 and "log.jsonl:1：notify play 消息缺少 0..3 的 curPos" in out, out
    assert not english_runs(out, str(log), "notify play"), out
    code, out = en("arena", "import-log", str(log))
    assert code == 1 and "log.jsonl:1: notify play without a curPos 0..3" in out, out
    url = "ws://127.0.0.1:1/game/x"
    code, out = zh("agent", "--url", url, "--connect-timeout", "2")
    assert code == 1 and f"无法连接 {url}：" in out and "连接被拒绝" in out, out
    assert not english_runs(out, url), out
    code, out = en("agent", "--url", url, "--connect-timeout", "2")
    assert code == 1 and f"cannot connect to {url}: Connection refused" in out, out


def test_an_agent_name_no_client_can_carry_is_refused_up_front() -> None:
    code, out = zh("arena", "duplicate", "--a", "我方", "--boards", "1", "--seed", "1f")
    assert code == 2 and "智能体名只能用" in out and "我方" in out, out
    assert not english_runs(out, "main arena duplicate"), out
    code, out = en("arena", "duplicate", "--a", "我方", "--boards", "1", "--seed", "1f")
    assert code == 2 and "an agent's name is 1-60 ASCII letters" in out, out


def _port(proc: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m = re.search(r"ws://127\.0\.0\.1:(\d+)/game/", proc.stderr.readline() if proc.stderr else "")
        if m:
            return int(m.group(1))
    raise AssertionError("the arena did not start listening")


def test_arena_duplicate_speaks_chinese_only(tmp_path: Path) -> None:
    env = {**os.environ, "GUANDAN_LANG": "zh"}
    server = subprocess.Popen(
        [*GUANDAN, "arena", "duplicate", "--a", "heur", "--b", "rand", "--seed", "5c",
         "--boards", "1", "--port", "0", "--out", str(tmp_path), "--wait", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        port = _port(server)
        agents = [subprocess.Popen(
            [*GUANDAN, "agent", "-q", "--url", f"ws://127.0.0.1:{port}/game/{who}",
             "--policy", "random", "--seed", str(i)], env=env)
            for i, who in enumerate(["heur-1", "rand-1", "heur-2", "rand-2"])]
        out, err = server.communicate(timeout=120)
        assert [a.wait(timeout=30) for a in agents] == [0, 0, 0, 0]
    finally:
        server.kill()
    assert server.returncode == 0, err
    assert " / " not in out + err  # one language, not "English / 中文"
    assert "heur 级差" in out and "开室出完顺序" in out and "swing_" not in out
    assert re.search(r"头游[东南西北]、二游[东南西北]", out), out
    assert not re.search(r"\b[NESW] [NESW]\b", out), out
    assert "牌谱已写入" in out and "records written" not in out
    assert not english_runs(out + err, str(tmp_path), "heur", "rand"), out + err


def test_the_server_closing_the_connection_is_said_in_the_chosen_language() -> None:
    from duplicate.arena.agent import AgentConnectionError
    from duplicate.commands.common import error_text
    from duplicate.i18n import phrase

    exc = AgentConnectionError(phrase("rest.agent.closed", url="ws://h/game/x", code=1008,
                                      reason="the tables are full"))
    assert isinstance(exc, ConnectionError)
    assert str(exc) == "ws://h/game/x: the server closed the connection (1008 the tables are full)"
    assert exc.text("zh") == "ws://h/game/x：服务器关闭了连接（1008 the tables are full）"
    assert error_text(exc) == str(exc)


# --- 3. the web's CSRF refusal -----------------------------------------------------------


def test_csrf_refusal_in_the_askers_language(migrated_url: str) -> None:
    from helpers.hall import EV, PASSWORD, open_hall

    for h in open_hall(migrated_url):
        r = h.client.post("/desk/login", data={"password": PASSWORD, "next": "/desk"},
                          follow_redirects=False)
        assert r.status_code == 303
        path = f"/api/events/{EV}/rounds/1/checkins"
        zh_cn = {"Accept-Language": "zh-CN", "X-CSRF-Token": "forged"}
        r = h.client.post(path, json={"team": "Team A"}, headers=zh_cn)
        assert r.status_code == 403
        said = json.dumps(r.json(), ensure_ascii=False)
        assert "缺少 CSRF 令牌或令牌不对（请求头 X-CSRF-Token）" in said, said
        assert "missing or wrong" not in said
        r = h.client.post(path, json={"team": "Team A"}, headers={"X-CSRF-Token": "forged"})
        assert "missing or wrong CSRF token (header X-CSRF-Token)" in r.text
        r = h.client.post("/desk/logout", data={"csrf": "forged"},
                          headers={"Accept-Language": "zh-CN"}, follow_redirects=False)
        assert r.status_code == 403 and "请刷新页面" in r.text, r.text
        assert "missing or wrong" not in r.text
        r = h.client.post("/desk/logout", data={"csrf": "forged"}, follow_redirects=False)
        assert r.status_code == 403 and "missing or wrong CSRF token: reload the page" in r.text


# --- 4. a settled dispute's finishing order ----------------------------------------------


def test_a_settled_disputes_finishing_order_in_words() -> None:
    from duplicate.i18n.stored import coded, nested, said

    detail = coded("lw.detail.settled", where="round 1, table 1, board 2, closed room",
                   said=nested("lw.said.finish", said=nested("lw.said.ns", ns="+3"),
                               order="N S"))
    zh_text = said(detail, "zh") or ""
    assert "头游北、二游南" in zh_text and "N S" not in zh_text, zh_text
    assert not english_runs(zh_text), zh_text
    assert said(detail, "en") == ("round 1, table 1, board 2, closed room: dispute settled, "
                                  "N–S +3, finish N S")


# --- 2. guandan plays: counted lines from the catalogue ------------------------------------


def test_plays_counts_are_counted_messages_in_both_languages() -> None:
    from duplicate.i18n import ngettext

    code, out = en("plays", "--level", "7", "--hand", "S2 H3")
    assert code == 0 and out.splitlines()[-1] == "2 legal readings"
    assert ngettext("en", "cli.plays.count", 2, beating="") == "2 legal readings"
    code, out = en("plays", "--level", "7", "--hand", "S2 H3", "--all", "--follow", "Single 2 S2")
    assert code == 0 and out.splitlines()[-1] == "1 legal play beating Single 2"
    code, out = en("plays", "--level", "7", "--hand", "S2 H3", "--follow", "Pair 3 S3 C3")
    assert (code, out) == (0, "no legal play beating Pair 3: pass\n")
    code, out = zh("plays", "--level", "7", "--hand", "S2 H3", "--all", "--follow", "Single 2 S2")
    assert code == 0 and out.splitlines()[-1] == "1种合法出法（压过单张2）", out
    code, out = zh("plays", "--level", "7", "--hand", "S2 H3", "--follow", "Pair 3 S3 C3")
    assert code == 0 and out == "没有合法出法（压过对子3）：过\n", out


# --- 5. settings, the report writer and the .gdn writer -----------------------------------


def test_settings_errors_in_the_chosen_language() -> None:
    args = ("serve", "--director-password", "a long enough password", "--public-url", "ftp://x")
    code, out = zh(*args)
    assert code == 2 and "公开网址须以 http:// 或 https:// 开头，不能是“ftp://x”" in out, out
    code, out = en(*args)
    assert code == 2 and "the public URL must start with http:// or https://, not 'ftp://x'" in out
    from duplicate.web.settings import Settings, SettingsError

    try:
        Settings("sqlite://", "short", "s" * 40)
    except SettingsError as exc:
        assert "裁判密码至少要有" in exc.text("zh") and not english_runs(exc.text("zh"))
        assert str(exc).startswith("the director password must have at least")
    else:
        raise AssertionError("a short password was taken")


def test_report_writing_errors_in_the_chosen_language(tmp_path: Path) -> None:
    blocker = tmp_path / "plain-file"
    blocker.write_text("x", encoding="utf-8")
    match = tmp_path / "match.gdn"
    assert en("simulate", "--seed", "1f", "--boards", "1", "-o", str(match))[0] == 0
    code, out = zh("compare", str(match), "--html", str(blocker / "h"))
    assert code == 1 and "--html: 无法把报告写入" in out and "不是文件夹" in out, out
    assert not english_runs(out, str(blocker / "h")), out
    code, out = en("compare", str(match), "--html", str(blocker / "h"))
    assert code == 1 and "--html: cannot write the report into" in out and "Not a directory" in out


def test_gdn_writer_refusals_in_the_chosen_language(tmp_path: Path) -> None:
    from duplicate.gdn import GdnError, dumps, loads

    match = tmp_path / "match.gdn"
    assert en("simulate", "--seed", "1f", "--boards", "1", "-o", str(match))[0] == 0
    rec = loads(match.read_text(encoding="utf-8"))[0]
    for change, english, chinese in (
        (lambda r: r.tags.update({"bad name": "x"}), "cannot write: invalid tag name 'bad name'",
         "无法写出：标签名“bad name”无效"),
        (lambda r: r.tags.update(Event="two\nlines"), "the value of tag Event holds a line break",
         "标签 Event 的值含有换行"),
        (lambda r: r.comments.append("a\x07b"), "a comment holds a control character U+0007",
         "注释含有控制字符 U+0007"),
    ):
        broken = loads(match.read_text(encoding="utf-8"))[0]
        change(broken)
        try:
            dumps(broken)
        except GdnError as exc:
            assert english in str(exc), str(exc)
            said = exc.text("zh")
            assert chinese in said and not english_runs(said, "bad name"), said
        else:
            raise AssertionError("written")
    assert dumps(rec)
