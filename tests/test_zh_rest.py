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
    assert code == 1 and "比赛至少要有两个参赛程序" in out, out
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
    url = "ws://127.0.0.1:1/game/x"
    code, out = zh("agent", "--url", url, "--connect-timeout", "2")
    assert code == 1 and f"无法连接 {url}：" in out and "连接被拒绝" in out, out
    assert not english_runs(out, url), out
    code, out = en("agent", "--url", url, "--connect-timeout", "2")
    assert code == 1 and f"cannot connect to {url}: Connection refused" in out, out


def test_an_agent_name_no_client_can_carry_is_refused_up_front() -> None:
    code, out = zh("arena", "duplicate", "--a", "我方", "--boards", "1", "--seed", "1f")
    assert code == 2 and "参赛程序名只能用" in out and "我方" in out, out
    assert not english_runs(out, "main arena duplicate"), out
    code, out = en("arena", "duplicate", "--a", "我方", "--boards", "1", "--seed", "1f")
    assert code == 2 and "an agent's name is 1-60 letters" in out, out


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
    from arena.agent import AgentConnectionError
    from commands.common import error_text
    from duplicate.i18n import phrase

    exc = AgentConnectionError(phrase("rest.agent.closed", url="ws://h/game/x", code=1008,
                                      reason="the tables are full"))
    assert isinstance(exc, ConnectionError)
    assert str(exc) == "ws://h/game/x: the server closed the connection (1008 the tables are full)"
    assert exc.text("zh") == "ws://h/game/x：服务器关闭了连接（1008 the tables are full）"
    assert error_text(exc) == str(exc)


# --- 3. the web's CSRF refusal -----------------------------------------------------------


def test_csrf_refusal_in_the_askers_language(migrated_url: str) -> None:
    from tests.test_web_api import EV, PASSWORD, open_hall

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
    from duplicate.logtext import coded, nested, said

    detail = coded("lw.detail.settled", where="round 1, table 1, board 2, closed room",
                   said=nested("lw.said.finish", said=nested("lw.said.ns", ns="+3"),
                               order="N S"))
    zh_text = said(detail, "zh") or ""
    assert "头游北、二游南" in zh_text and "N S" not in zh_text, zh_text
    assert not english_runs(zh_text), zh_text
    assert said(detail, "en") == ("round 1, table 1, board 2, closed room: dispute settled, "
                                  "N–S +3, finish N S")
