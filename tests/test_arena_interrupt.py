"""Ctrl-C in the middle of a duplicate match (a real process, a real SIGINT): every board
finished in both rooms is written (records, the report), the arena says how to go on,
``--resume`` keeps those boards and plays the rest, and the ``--log`` reads back up to the
last finished deal with each room's tags (board, room, agents, clients)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from click.testing import CliRunner
from protocol_client import play_four
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from cli import main
from duplicate.gdn import dumps, load
from duplicate.replay import replay

GUANDAN = [sys.executable, "-c", "from cli import main; main()"]


async def _slow_client(url: str, seed: int) -> None:
    """Answers a random index after a few milliseconds (a room takes about half a second)."""
    rng = random.Random(seed)
    async with connect(url, compression=None) as ws:
        try:
            async for text in ws:
                msg = json.loads(text)
                if msg.get("type") == "act":
                    await asyncio.sleep(0.004)
                    await ws.send(json.dumps({"actIndex": rng.randint(0, msg["indexRange"])}))
        except ConnectionClosed:
            pass


async def _slow_four(url: str) -> None:
    await asyncio.gather(*(_slow_client(f"{url}client{i}", i) for i in (1, 2, 3, 4)))


def _start(args: list[str]) -> tuple[subprocess.Popen[str], str, str]:
    """The arena started, its URL, and what it said before it listened."""
    server = subprocess.Popen([*GUANDAN, "arena", "duplicate", *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert server.stderr is not None
    before = ""
    for _ in range(5):
        line = server.stderr.readline()
        if "ws://127.0.0.1:" in line:
            return server, line.split(" on ", 1)[1].split("<id>", 1)[0], before
        before += line
    raise AssertionError(before)


def _rooms_over(log: Path) -> int:
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    return text.count('"stage":"episodeOver"') // 4


def test_ctrl_c_keeps_the_boards_played_and_resume_plays_the_rest(tmp_path: Path) -> None:
    out, log, site = tmp_path / "out", tmp_path / "table.jsonl", tmp_path / "site"
    args = ["--a", "heur", "--b", "rand", "--seed", "5c", "--boards", "12", "--port", "0",
            "--wait", "60", "--out", str(out), "--log", str(log), "--report", str(site)]
    server, url, _ = _start(args)
    clients = threading.Thread(target=lambda: asyncio.run(_slow_four(url)))
    clients.start()
    try:
        deadline = time.monotonic() + 90
        while _rooms_over(log) < 5 and time.monotonic() < deadline:  # 2½ boards
            time.sleep(0.02)
        assert _rooms_over(log) >= 5
        server.send_signal(signal.SIGINT)
        stdout, stderr = server.communicate(timeout=60)
    finally:
        server.kill()
        clients.join(60)
    assert server.returncode == 130, stderr
    assert "Aborted!" not in stderr and "Traceback" not in stderr, stderr
    said = re.search(r"the match was stopped after (\d+) of 12 boards: the boards finished in "
                     r"both rooms are in (\S+)", stderr)
    assert said, stderr
    done = int(said.group(1))
    records_file = out / "heur-vs-rand.gdn"
    assert said.group(2) == str(records_file) and 2 <= done < 12
    assert f"run the same command again with --resume: it keeps the boards in {records_file}" \
        in stderr
    kept = list(load(records_file.open(encoding="utf-8")))
    assert [(r.board, r.room) for r in kept] == [
        (str(b), room) for b in range(1, done + 1) for room in ("Open", "Closed")]
    assert all(replay(r).ok for r in kept)
    assert f"over {done} boards" in stdout and "report written to" in stdout  # the partial result
    assert (site / "index.html").exists()

    # the log reads back up to its last finished deal, every room with its arena tags
    imported_file = tmp_path / "imported.gdn"
    r = CliRunner().invoke(main, ["arena", "import-log", str(log), "-o", str(imported_file)])
    assert r.exit_code == 0, r.output
    imported = list(load(imported_file.open(encoding="utf-8")))
    assert len(imported) >= len(kept)
    for mine, theirs in zip(kept, imported, strict=False):
        for tag in ("Event", "Board", "Room", "North", "East", "NorthClient", "WestClient",
                    "DealId"):
            assert theirs.tags[tag] == mine.tags[tag], tag
        assert (theirs.hands, theirs.leader, theirs.finish, theirs.result) == (
            mine.hands, mine.leader, mine.finish, mine.result)
        assert [(p.seat, p.cards) for p in theirs.plays or ()] == [
            (p.seat, p.cards) for p in mine.plays or ()]

    # --resume keeps the boards played and plays the others
    server, url, before = _start([*args, "--resume", "--force", "--json"])
    try:
        asyncio.run(asyncio.wait_for(play_four(url), 120))
        stdout, stderr = server.communicate(timeout=120)
    finally:
        server.kill()
    assert server.returncode == 0, stderr
    assert f"resuming: {done} boards kept from {records_file}" in before
    doc = json.loads(stdout)
    assert doc["boards"] == 12 and doc["deals"] == 24 and doc["interrupted"] is False
    final = list(load(records_file.open(encoding="utf-8")))
    assert len(final) == 24
    assert dumps(final[:2 * done]) == dumps(kept)  # the boards kept, as they were


def test_a_cut_log_is_refused_by_the_library_unless_asked(tmp_path: Path) -> None:
    from duplicate.arena.openguandan import LogError, read_log

    text = ('{"arena": {"tags": {"Board": "1", "Room": "Open"}, "turned": 0}}\n'
            '{"pos":0,"message":{"type":"notify","stage":"play","curPos":0,'
            '"curAction":["Single","3",["S3"]],"greaterPos":0,'
            '"greaterAction":["Single","3",["S3"]]}}\n{"pos":1,"mess')
    try:
        read_log(text, "t.jsonl")
    except LogError as exc:
        assert "t.jsonl:3: the log's last line is cut short" in str(exc)
    else:
        raise AssertionError("a cut log was read")
    said: list[str] = []
    try:
        read_log(text, "t.jsonl", on_cut=lambda why: said.append(str(why)))
    except LogError as exc:  # no deal finished before the cut: nothing to read
        assert str(exc).startswith("t.jsonl: no deal")
    else:
        raise AssertionError("a log of no finished deal was read")
    assert said == ["t.jsonl:3: the log's last line is cut short (the arena was stopped "
                    "while writing it)", "t.jsonl:2: the log ends inside a deal (no episodeOver)"]
