"""Competition logs (OpenGuanDan JSON lines) into replay-checked .gdn: a table log written by
the arena's own ordinary match, in three forms, gives back the arena's records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from protocol_client import play_four

from duplicate.arena.openguandan import LogError, import_log, read_log
from duplicate.arena.ordinary import OrdinaryResult, play_ordinary_match
from duplicate.arena.server import ArenaServer, log_writer
from duplicate.dealing import generate_boards
from duplicate.gdn import dumps
from duplicate.simulate import simulation_key

EXAMPLE = [  # PROTOCOL.md §8's form, one deal written by hand
    {"type": "notify", "stage": "beginning", "myPos": 0, "curRank": 2, "selfRank": 2,
     "oppoRank": 2, "handCards": ["S3", "S4"]},
    {"type": "notify", "stage": "play", "curPos": 0, "curAction": ["Single", "3", ["S3"]],
     "greaterPos": 0, "greaterAction": ["Single", "3", ["S3"]]},
]


def play_logged(tmp: Path) -> tuple[OrdinaryResult, Path]:
    boards = list(generate_boards(simulation_key(b"\x44"), 30))
    log = tmp / "table.jsonl"

    async def main() -> OrdinaryResult:
        write, close = log_writer(log)
        try:
            async with ArenaServer(port=0) as srv:
                clients = asyncio.create_task(play_four(srv.url, ["random"] * 4))
                table = await srv.next_table(10)
                table.log = write
                try:
                    return await play_ordinary_match(table, boards, ("a", "b"), max_deals=6)
                finally:
                    await table.close()
                    await clients
        finally:
            close()

    return asyncio.run(asyncio.wait_for(main(), 60)), log


def same_deals(result: OrdinaryResult, imported: list) -> None:  # type: ignore[type-arg]
    assert len(imported) == len(result.records)
    for mine, theirs in zip(result.records, imported, strict=True):
        assert theirs.hands == mine.hands
        assert (theirs.level, theirs.leader) == (mine.level, mine.leader)
        assert [(p.seat, p.cards, p.type, p.rank) for p in theirs.plays] == [
            (p.seat, p.cards, p.type, p.rank) for p in mine.plays]
        assert (theirs.finish, theirs.result) == (mine.finish, mine.result)


def test_table_log_imports_to_the_same_records(tmp_path: Path) -> None:
    result, log = play_logged(tmp_path)
    same_deals(result, import_log(log))
    # bare messages, every broadcast once per recipient (collapsed on reading)
    bare = "\n".join(json.dumps(json.loads(line)["message"]) for line in
                     log.read_text().splitlines())
    same_deals(result, read_log(bare, "bare.jsonl"))
    # only what position 3 received: the hands come from the plays and restCards
    one = "\n".join(json.dumps(json.loads(line)["message"]) for line in
                    log.read_text().splitlines() if json.loads(line)["pos"] == 3)
    records = read_log(one, "seat3.jsonl")
    same_deals(result, records)
    assert dumps(records).count("[Event \"Played by OpenGuanDan\"]") == len(records)


def test_bad_logs_are_located_errors(tmp_path: Path) -> None:
    with pytest.raises(LogError, match="x.jsonl:1: not JSON"):
        read_log("{oops\n", "x.jsonl")
    with pytest.raises(LogError, match="no deal"):
        read_log("", "x.jsonl")
    text = "\n".join(json.dumps(m) for m in EXAMPLE)
    with pytest.raises(LogError, match="ends inside a deal"):
        read_log(text, "x.jsonl")
    result, log = play_logged(tmp_path)
    lines = log.read_text().splitlines()
    # a play changed to cards nobody held: the replay refuses it, naming the line
    k = next(i for i, line in enumerate(lines) if '"stage":"play"' in line
             and '"type":"notify"' in line and '"Single"' in line)
    msg = json.loads(lines[k])
    msg["message"]["curAction"] = ["Pair", "A", ["SA", "SA"]]
    for i in range(k, len(lines)):
        if json.loads(lines[i])["message"] == json.loads(lines[k])["message"]:
            lines[i] = json.dumps(msg)
    with pytest.raises(LogError, match=r"bad\.jsonl"):
        read_log("\n".join(lines), "bad.jsonl")
