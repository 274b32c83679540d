"""The arena's outputs and names, checked before any play:

- ``arena duplicate --out DIR`` refused, in one line naming the file and ``--force``, when
  ``DIR/<a>-vs-<b>.gdn`` exists (it was replaced without a word); the same for ``--log``,
  a ``--report`` folder that holds files, ``arena ordinary``'s records, every match's
  records of ``arena tournament`` and ``arena import-log -o``; ``--force`` replaces;
- ``--a mine --b mine`` refused at once (it waited ``--wait`` seconds for clients).

Each refusal comes before the arena listens: with ``--wait 1`` the old code printed
"arena listening …" and ended with "no table of four clients within 1 s" instead.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from protocol_client import play_four

from cli import main
from duplicate.gdn import load

GUANDAN = [sys.executable, "-c", "from cli import main; main()"]
OLD = "old records, not to be lost\n"


def invoke(*args: str, lang: str = "en") -> tuple[int, str]:
    """Exit code and everything printed."""
    result = CliRunner().invoke(main, ["--lang", lang, *args])
    return result.exit_code, result.output


def _agents_file(tmp_path: Path, *names: str) -> Path:
    path = tmp_path / "agents.txt"
    path.write_text("".join(f"{n}: guandan agent -q --url {{url}}\n" for n in names),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("which", ["records", "log", "report", "ordinary", "tournament",
                                   "import-log"])
def test_an_existing_output_is_refused_before_the_arena_listens(
        tmp_path: Path, which: str) -> None:
    out = tmp_path / "results"
    out.mkdir()
    duplicate = ["arena", "duplicate", "--a", "mine", "--b", "theirs", "--seed", "1f",
                 "--boards", "1", "--port", "0", "--wait", "1", "--out", str(out)]
    if which == "records":
        kept, args = out / "mine-vs-theirs.gdn", duplicate
    elif which == "log":
        kept, args = tmp_path / "table.jsonl", [*duplicate, "--log", str(tmp_path / "table.jsonl")]
    elif which == "report":
        (tmp_path / "site").mkdir()
        kept, args = tmp_path / "site" / "mine.html", [*duplicate, "--report",
                                                        str(tmp_path / "site")]
    elif which == "ordinary":
        kept = out / "ordinary-mine-vs-theirs.gdn"
        args = ["arena", "ordinary", *duplicate[2:]]
    elif which == "tournament":
        kept = out / "heur-vs-rand.gdn"
        args = ["arena", "tournament", str(_agents_file(tmp_path, "heur", "rand")), "--seed",
                "1f", "--boards", "1", "--port", "0", "--wait", "1", "--out", str(out)]
    else:
        log = tmp_path / "t.jsonl"
        log.write_text("", encoding="utf-8")
        kept, args = out / "deals.gdn", ["arena", "import-log", str(log), "-o",
                                         str(out / "deals.gdn")]
    kept.write_text(OLD, encoding="utf-8")
    code, said = invoke(*args)
    assert code == 1, said
    shown = str(kept.parent if which == "report" else kept)
    assert said.strip().splitlines() == [
        f"Error: {shown} already exists: give --force to replace it" if which != "report"
        else f"Error: folder {shown} is not empty: give --force to write into it, or another "
        "folder"]
    assert "listening" not in said  # refused before the arena waits for any client
    assert kept.read_text(encoding="utf-8") == OLD


def test_the_refusal_in_chinese_names_the_file_and_force(tmp_path: Path) -> None:
    (tmp_path / "mine-vs-theirs.gdn").write_text(OLD, encoding="utf-8")
    code, said = invoke("arena", "duplicate", "--a", "mine", "--b", "theirs", "--seed",
                        "1f", "--boards", "1", "--port", "0", "--wait", "1", "--out",
                        str(tmp_path), lang="zh")
    assert code == 1
    assert said.strip() == f"错误：{tmp_path / 'mine-vs-theirs.gdn'} 已存在：加 --force 才会替换它"


def test_a_seed_file_is_never_the_log(tmp_path: Path) -> None:
    seed = tmp_path / "cup.seed"
    assert CliRunner().invoke(main, ["deals", "seed", str(seed)]).exit_code == 0
    before = seed.read_bytes()
    code, said = invoke("arena", "duplicate", "--seed", "1f", "--boards", "1", "--port",
                        "0", "--wait", "1", "--out", str(tmp_path / "o"), "--log",
                        str(seed), "--force")
    assert code == 1 and "is a seed file: it is never written over" in said, said
    assert seed.read_bytes() == before


def test_force_replaces_the_records_of_an_earlier_run(tmp_path: Path) -> None:
    """README's run twice: the second, with --force, plays and replaces the file."""
    (tmp_path / "mine-vs-theirs.gdn").write_text(OLD, encoding="utf-8")
    server = subprocess.Popen(
        [*GUANDAN, "arena", "duplicate", "--a", "mine", "--b", "theirs", "--seed", "1f",
         "--boards", "1", "--port", "0", "--out", str(tmp_path), "--seating", "order",
         "--wait", "60", "--force", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        assert "ws://127.0.0.1:" in line, line
        url = line.split(" on ", 1)[1].split("<id>", 1)[0]
        asyncio.run(asyncio.wait_for(play_four(url), 120))
        out, err = server.communicate(timeout=120)
    finally:
        server.kill()
    assert server.returncode == 0, err
    doc = json.loads(out)
    assert doc["file"] == str(tmp_path / "mine-vs-theirs.gdn")
    with open(doc["file"], encoding="utf-8") as f:
        assert len(list(load(f))) == 2  # the new match's two rooms, not the old text


def test_tournament_matches_that_would_share_a_file_are_refused(tmp_path: Path) -> None:
    from duplicate.arena.server import ArenaError
    from duplicate.arena.tournament import AgentSpec, match_files

    agents = [AgentSpec(n, "x {url}") for n in ("a+b", "a=b", "c")]
    with pytest.raises(ArenaError, match="a_b-vs-c.gdn: the matches a\\+b - c and a=b - c"):
        match_files(agents, tmp_path)
    code, said = invoke("arena", "tournament",
                        str(_agents_file(tmp_path, "a+b", "a=b", "c")), "--seed",
                        "1f", "--boards", "1", "--port", "0", "--wait", "1",
                        "--out", str(tmp_path / "out"))
    assert code == 1 and "would both write this file" in said, said


@pytest.mark.parametrize("command", ["duplicate", "ordinary"])
@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Error: the two agents need different names, both are 'mine'"),
    ("zh", "错误：两个智能体的名字必须不同，现在都是“mine”")])
def test_one_name_for_both_sides_is_refused_at_once(
        tmp_path: Path, command: str, lang: str, words: str) -> None:
    code, said = invoke("arena", command, "--a", "mine", "--b", "mine", "--seed",
                        "1f", "--boards", "1", "--port", "0", "--wait", "1",
                        "--out", str(tmp_path), lang=lang)
    assert code == 2 and said.strip().splitlines()[-1] == words, said
    assert "listening" not in said and "监听" not in said


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "我的AI: an agent's name is 1-60 ASCII letters (A-Z, a-z), digits or ._~@+=-"),
    ("zh", "我的AI：智能体名只能用 1-60 个英文字母（A-Z、a-z）、数字或 ._~@+=-")])
def test_an_agent_name_out_of_its_characters_says_which_letters(
        tmp_path: Path, lang: str, words: str) -> None:
    """The refusal says which letters a name takes: a Chinese name is made of letters too,
    and its clients may still connect as /game/我的AI by a seating file."""
    code, said = invoke("arena", "duplicate", "--a", "我的AI", "--b", "theirs", "--seed",
                        "1f", "--boards", "1", "--port", "0", "--wait", "1",
                        "--out", str(tmp_path), lang=lang)
    assert code == 2 and words in said, said
