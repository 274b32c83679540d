"""The arena in the reader's language: ``guandan --lang zh arena tournament --report`` writes
its pages, title, ratings and notes in Chinese (``lang="zh-CN"``) and prints no English word;
in English the pages are English, counted right (1 board); a malformed OpenGuanDan log
imported with ``--lang zh`` is refused in one Chinese line, the protocol's reason too, with
its file:line; the library's refusals (board sources, seating files) in Chinese too.

A tournament of two agents over one board (four ``guandan agent`` processes) takes a couple
of seconds; it is played once in each language.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_i18n_words import (
    allowed_latin,
    chinese_left,
    glossary_terms,
    readable,
    untranslated,
)

from cli import main
from duplicate.arena.report import match_title

GUANDAN = [sys.executable, "-c", "from cli import main; main()"]
AGENTS = ("heur", "rand")  # the agents' names: allowed in any language


def _without_agents(text: str) -> str:
    for name in AGENTS:
        text = re.sub(rf"(?<![A-Za-z0-9]){name}(?:-\d+)?(?![A-Za-z0-9])", " ", text)
    return text


@pytest.fixture(scope="module")
def tournaments(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """lang -> (the report folder, what the command printed), one tournament a language."""
    tmp = tmp_path_factory.mktemp("arena-words")
    agents = tmp / "agents.txt"
    agents.write_text("heur: guandan agent -q --url {url} --policy heuristic\n"
                      "rand: guandan agent -q --url {url} --policy random\n")
    out: dict[str, tuple[Path, str]] = {}
    for lang in ("zh", "en"):
        run = subprocess.run(
            [*GUANDAN, "--lang", lang, "arena", "tournament", str(agents), "--seed", "3a",
             "--boards", "1", "--port", "0", "--out", str(tmp / f"out-{lang}"),
             "--report", str(tmp / f"report-{lang}"), "--wait", "60"],
            capture_output=True, text=True, timeout=120,
        )
        assert run.returncode == 0, run.stderr
        out[lang] = (tmp / f"report-{lang}", run.stdout + run.stderr)
    return out


def _pages(folder: Path) -> dict[str, str]:
    pages = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.html"))}
    assert "index.html" in pages and any(n.startswith("board-") for n in pages)
    return pages


def test_tournament_report_in_chinese_has_no_english_word(
        tournaments: dict[str, tuple[Path, str]]) -> None:
    folder, _ = tournaments["zh"]
    allowed = allowed_latin()
    for name, page in _pages(folder).items():
        assert '<html lang="zh-CN">' in page, name
        text = _without_agents(readable(page))
        assert untranslated(text, allowed) == [], (name, text)
    index = readable((folder / "index.html").read_text(encoding="utf-8"))
    assert "竞技场循环赛（2个智能体，1副）" in index  # the title, counted in Chinese
    assert "heur：等级分" in index and "轮廓似然区间" in index  # the ratings and their method


def test_tournament_report_in_english_is_english(
        tournaments: dict[str, tuple[Path, str]]) -> None:
    folder, _ = tournaments["en"]
    terms = glossary_terms()
    for name, page in _pages(folder).items():
        assert '<html lang="en">' in page, name
        assert chinese_left(readable(page), terms) == [], name
    index = readable((folder / "index.html").read_text(encoding="utf-8"))
    assert "Arena tournament (2 agents, 1 board)" in index  # never "1 boards"
    assert "heur: rating" in index and "profile-likelihood interval" in index


def test_tournament_output_in_chinese_has_no_english_word(
        tournaments: dict[str, tuple[Path, str]]) -> None:
    _, printed = tournaments["zh"]
    assert "1副牌级差" in printed and "布拉德利-特里" in printed
    assert untranslated(_without_agents(printed), allowed_latin()) == [], printed
    _, printed = tournaments["en"]
    assert "over 1 board," in printed  # counted: not "1 boards"


def test_tournament_output_says_each_thing_one_way(
        tournaments: dict[str, tuple[Path, str]]) -> None:
    """An agent is 智能体 in the table as in the lines around it, a match's points 积分 beside
    the standings' 总积分, the total swing 级差分, a seat 第1桌0号位 (docs/GLOSSARY.md)."""
    _, printed = tournaments["zh"]
    assert "第1桌0号位：客户端 heur-1，代表 heur" in printed
    assert re.search(r"heur 对 rand：1副牌级差 [+-]?\d+，积分 \d+-\d+", printed), printed
    assert "参赛程序" not in printed and "场分" not in printed
    heads = [line.split() for line in printed.splitlines() if line.startswith("名次")]
    assert heads == [["名次", "智能体", "场次", "胜", "平", "负", "总积分", "级差分", "副数"]]
    assert any(line.split()[:2] == ["智能体", "等级分"] for line in printed.splitlines())


def test_match_report_title_in_both_languages() -> None:
    assert match_title("mine", "theirs", "zh") == "竞技场：mine 对 theirs"
    assert match_title("mine", "theirs", "en") == "Arena: mine v theirs"


BEGIN = {"type": "notify", "stage": "beginning", "myPos": 0, "curRank": 2,
         "handCards": ["S3", "S4"]}
PLAY = {"type": "notify", "stage": "play", "curPos": 0, "curAction": ["Single", "3", ["S3"]]}
OVER = {"type": "notify", "stage": "episodeOver", "order": [0, 1, 2, 3], "restCards": []}


@pytest.mark.parametrize(("messages", "zh", "en"), [
    ([{**BEGIN, "curRank": 20}, PLAY],
     "bad.jsonl:1：级牌无效：20（写成整数的级牌是 2..14）",
     "bad.jsonl:1: invalid level 20: an int level is 2..14"),
    ([BEGIN, {**PLAY, "curAction": ["Single", "3", "S3"]}, OVER],
     "bad.jsonl:2：出牌动作的牌：应是牌的列表，却是 S3",
     "bad.jsonl:2: action cards: expected a list of card tokens, got S3"),
    ([BEGIN, {**PLAY, "curAction": ["Pair", "3", ["S3", "S4"]]}, OVER],
     "bad.jsonl:2：出牌动作 ['Pair', '3', ['S3', 'S4']] 不成牌型：",
     "bad.jsonl:2: action ['Pair', '3', ['S3', 'S4']] is not a play: S3 S4 is not Pair 3"),
    ([BEGIN, PLAY, {**OVER, "restCards": [[0, ["S5"]]]}],
     "bad.jsonl:1：第1副牌：0号位开局（进贡后）的手牌不是它打出的牌加剩下的牌：3♠ 4♠ / 3♠ 5♠",
     "bad.jsonl:1: deal 1: position 0's hand at beginning (after tribute) is not the cards "
     "it played and kept: S3 S4 / S3 S5"),
], ids=["level", "cards", "play", "hand"])
def test_malformed_log_is_one_chinese_line_with_its_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, messages: list[dict[str, object]],
        zh: str, en: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.jsonl").write_text("".join(json.dumps(m) + "\n" for m in messages))
    said = {}
    for lang in ("zh", "en"):
        r = CliRunner().invoke(main, ["--lang", lang, "arena", "import-log", "bad.jsonl",
                                      "-o", "out.gdn"])
        assert r.exit_code == 1, r.output
        said[lang] = r.output.strip()
        assert "\n" not in said[lang] and not Path("out.gdn").exists()
    assert said["zh"].startswith("错误：" + zh), said["zh"]
    assert said["en"].startswith("Error: " + en), said["en"]
    logged = set(re.findall(r"[A-Za-z]+", json.dumps(messages)))  # the log's own words, quoted
    words = re.findall(r"[A-Za-z]{2,}", said["zh"].replace("bad.jsonl", " "))
    assert [w for w in words if w not in logged] == [], said["zh"]


def test_arena_refusals_in_chinese(tmp_path: Path) -> None:
    seating = tmp_path / "seats.txt"
    seating.write_text("a-1 b-1 a-2\n")
    runs = {
        ("arena", "duplicate", "--boards", "1"): "牌的来源只能给一种",
        ("arena", "duplicate", "--boards", "1", "--seed", "zz"): "种子“zz”不是十六进制",
        ("arena", "duplicate", "--boards", "1", "--seed", "1f", "--seating", str(seating)):
            f"{seating}:1：一桌应是四个客户端编号，这里有 3 个",
    }
    for args, zh in runs.items():
        r = CliRunner().invoke(main, ["--lang", "zh", *args])
        assert r.exit_code == 1 and zh in r.output, (args, r.output)
        assert len(r.output.strip().splitlines()) == 1, r.output



def test_fault_lines_in_the_arena_language(tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    """A client's fault, as the arena logs it on standard error: in the command line's
    language (``use_language``); the fault's record and notice stay in the protocol's
    English."""
    import asyncio
    import logging

    from test_arena_faults import run

    from duplicate.arena.messages import use_language

    use_language("zh")
    try:
        with caplog.at_level(logging.WARNING, logger="arena"):
            result, _ = asyncio.run(asyncio.wait_for(
                run(1, ["garbage", "random", "random", "random"], tmp_path), 60))
    finally:
        use_language("en")
    lines = [r.getMessage() for r in caplog.records if "违规" in r.getMessage()]
    assert lines, [r.getMessage() for r in caplog.records]
    for line in lines:
        m = re.fullmatch(r"违规：0号位（(\S+)）：回复格式错误（第1副牌(开室|闭室)）："
                         r"回复不是 JSON：this is not JSON \{", line)
        assert m, line
    assert result.faults[0].text().startswith("position 0 (")  # the record's English
    assert "malformed (board 1 " in result.faults[0].text()


def test_refused_client_logged_in_the_arena_language(
        caplog: pytest.LogCaptureFixture) -> None:
    """A refused client: the arena's log line in its language, the close frame's reason
    (what the client reads) in the protocol's English."""
    import asyncio
    import logging

    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from duplicate.arena.messages import use_language
    from duplicate.arena.server import ArenaServer

    async def refused() -> str:
        async with ArenaServer(port=0) as srv:
            base = srv.url.split("/game/")[0]
            async with connect(base + "/nope") as ws:
                try:
                    await ws.recv()
                except ConnectionClosed as exc:
                    return exc.rcvd.reason if exc.rcvd is not None else ""
        return ""

    use_language("zh")
    try:
        with caplog.at_level(logging.WARNING, logger="arena"):
            reason = asyncio.run(asyncio.wait_for(refused(), 20))
    finally:
        use_language("en")
    assert reason == "connect to /game/<id>"
    assert "拒绝客户端 /nope：请连接 /game/<id>" in [r.getMessage() for r in caplog.records]


def test_agent_handshake_failure_in_chinese() -> None:
    """A server that closes the connection before its handshake answer: our agent's one
    line in Chinese, the reason too."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]

    def close_one() -> None:
        conn, _ = listener.accept()
        conn.recv(4096)
        conn.close()

    thread = threading.Thread(target=close_one, daemon=True)
    thread.start()
    try:
        r = CliRunner().invoke(main, ["--lang", "zh", "agent", "--url",
                                      f"ws://127.0.0.1:{port}/game/x", "--connect-timeout", "5"])
    finally:
        thread.join(5)
        listener.close()
    assert r.exit_code == 1, r.output
    assert "没有收到有效的 HTTP 应答" in r.output, r.output  # not websockets' English
    assert untranslated(r.output.replace(f"ws://127.0.0.1:{port}/game/x", " "),
                        allowed_latin()) == [], r.output


def test_arena_lines_count_in_both_languages() -> None:
    """The command line's counted lines take the catalogue's plural forms: never "1 deals"."""
    from duplicate.arena.messages import text

    def said(lang: str) -> list[str]:
        return [
            text("ordinary_line", lang, a="A", b="B", deals=text("count.deals", lang, n=1),
                 winner="A", ln="A", le="5"),
            text("agent_done", lang, deals=text("count.deals", lang, n=1),
                 acts=text("count.actions", lang, n=1), games=text("count.games", lang, n=1)),
            text("faults", lang, n=1),
            text("imported", lang, n=1, file="t.jsonl", out="-"),
        ]

    assert said("en") == [
        "A (N-S) against B (E-W): 1 deal, winner A, levels A-5",
        "agent done: 1 deal (小局), 1 action, 1 game",
        "1 client fault (see the log)",
        "1 deal read from t.jsonl, replayed: written to -",
    ]
    assert said("zh")[:2] == ["A（南北）对 B（东西）：共1小局，胜方 A，级数 A-5",
                              "智能体结束：1小局，1次出牌，1场"]
