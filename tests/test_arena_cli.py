"""The arena's command line: `guandan arena duplicate` as a real server process with four
`guandan agent` processes; `guandan arena tournament`; bad input as one clear line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate.gdn import load
from duplicate.replay import replay

GUANDAN = [sys.executable, "-c", "from cli import main; main()"]


def wait_for_port(proc: subprocess.Popen[str], limit: float = 30) -> int:
    assert proc.stderr is not None
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        m = re.search(r"ws://127\.0\.0\.1:(\d+)/game/", line)
        if m:
            return int(m.group(1))
    raise AssertionError("the arena did not start listening")


def test_arena_duplicate_command_with_four_agents(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [*GUANDAN, "arena", "duplicate", "--a", "heur", "--b", "rand", "--seed", "5c",
         "--boards", "2", "--port", "0", "--out", str(tmp_path), "--json",
         "--log", str(tmp_path / "table.jsonl"), "--wait", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        port = wait_for_port(server)
        agents = []
        # B's clients connect first: the seats come from the ids, not the order
        for i, who in enumerate(["rand-1", "rand-2", "heur-1", "heur-2"]):
            agents.append(subprocess.Popen(
                [*GUANDAN, "agent", "-q", "--url", f"ws://127.0.0.1:{port}/game/{who}",
                 "--policy", "heuristic" if who.startswith("heur") else "random",
                 "--seed", str(i)]))
            time.sleep(0.3)
        out, err = server.communicate(timeout=120)
        assert [a.wait(timeout=30) for a in agents] == [0, 0, 0, 0]
    finally:
        server.kill()
    assert server.returncode == 0
    doc = json.loads(out)
    assert doc["a"] == "heur" and doc["deals"] == 4 and not doc["faults"]
    assert [(s["position"], s["client"], s["agent"]) for s in doc["seating"]] == [
        (0, "heur-1", "heur"), (1, "rand-1", "rand"), (2, "heur-2", "heur"),
        (3, "rand-2", "rand")]
    assert "table 1, position 0: client heur-1 plays for heur" in err  # printed before play
    recs = list(load(Path(doc["file"]).open(encoding="utf-8")))
    assert len(recs) == 4 and all(replay(r).ok for r in recs)
    for rec in recs:  # every seat's client and agent, turned one seat in the closed room
        first = "heur-1 (heur)" if rec.room == "Open" else "rand-2 (rand)"
        assert rec.tags["NorthClient"] == first
    assert doc["margin"] == sum(b["swing_heur"] for b in doc["boards_detail"])
    # the table log reads back into the same records: the arena's line before each room
    # gives its tags and turns the closed room back to board seats
    result = CliRunner().invoke(main, ["arena", "import-log", str(tmp_path / "table.jsonl"),
                                       "-o", str(tmp_path / "imported.gdn")])
    assert result.exit_code == 0, result.output
    imported = list(load((tmp_path / "imported.gdn").open(encoding="utf-8")))
    assert len(imported) == len(recs)
    for mine, theirs in zip(recs, imported, strict=True):
        assert mine.plays is not None and theirs.plays is not None
        assert [(p.seat, p.cards) for p in theirs.plays] == [
            (p.seat, p.cards) for p in mine.plays]
        assert theirs.tags == {k: v for k, v in mine.tags.items() if k != "ArenaFaults"}


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(main, ["arena", "duplicate", "--boards", "2"])
    assert r.exit_code == 1 and "exactly one board source" in r.output
    assert "Traceback" not in r.output
    seating = tmp_path / "seats.txt"
    seating.write_text("a b c\n")
    r = runner.invoke(main, ["arena", "duplicate", "--boards", "1", "--seed", "1f",
                             "--seating", str(seating)])
    assert r.exit_code == 1 and "four client ids" in r.output
    r = runner.invoke(main, ["arena", "duplicate", "--boards", "1", "--seed", "zz"])
    assert r.exit_code == 1 and "not hexadecimal" in r.output
    r = runner.invoke(main, ["arena", "tournament", str(tmp_path / "none.txt"), "--boards", "1",
                             "--seed", "1f"])
    assert r.exit_code == 1 and "cannot read tournament file" in r.output
    log = tmp_path / "log.jsonl"
    log.write_text('{"type": "notify", "stage": "play", "curPos": 9}\n')
    r = runner.invoke(main, ["arena", "import-log", str(log)])
    assert r.exit_code == 1 and "log.jsonl:1" in r.output and "Traceback" not in r.output
    r = runner.invoke(main, ["agent", "--url", "ws://127.0.0.1:1/game/x", "--connect-timeout",
                             "2"])
    assert r.exit_code == 1 and "cannot connect" in r.output


def test_help_of_every_arena_command() -> None:
    runner = CliRunner()
    for args in (["arena"], ["arena", "duplicate"], ["arena", "tournament"],
                 ["arena", "ordinary"], ["arena", "import-log"], ["agent"]):
        r = runner.invoke(main, [*args, "--help"])
        assert r.exit_code == 0 and "Usage" in r.output


def test_boards_of_a_stored_set_and_of_a_seed_file(db_url: str, tmp_path: Path) -> None:
    """The arena plays the boards of a stored set (--set, --db) or of a seed file: the same
    boards as `guandan deals` stores."""
    from duplicate.arena.duplicate_match import load_boards
    from duplicate.arena.server import ArenaError
    from duplicate.boards import load_set
    from duplicate.db import make_engine

    runner = CliRunner()
    assert runner.invoke(main, ["db", "--db", db_url, "upgrade"]).exit_code == 0
    seed = tmp_path / "cup.seed"
    assert runner.invoke(main, ["deals", "seed", str(seed)]).exit_code == 0
    r = runner.invoke(main, ["deals", "--db", db_url, "generate", str(seed), "-n", "4",
                             "--level-schedule", "cycle"])
    assert r.exit_code == 0, r.output
    stored = load_boards(3, set_name="cup", db_url=db_url)
    engine = make_engine(db_url)
    try:
        assert stored == list(load_set(engine, "cup").boards[:3])
    finally:
        engine.dispose()
    assert load_boards(3, seed_file=str(seed), schedule="cycle") == stored
    with pytest.raises(ArenaError, match="exactly one board source"):
        load_boards(3, seed_hex="1f", set_name="cup")


def test_tournament_json_stays_json_when_agents_print(tmp_path: Path) -> None:
    """Agents that print to standard output and error (as many in the field do): their
    output goes to the log files named on standard error; standard output is the JSON."""
    noisy = (f"{sys.executable} -c \"import sys; print('state: hello'); "
             "print('warn', file=sys.stderr); sys.stdout.flush(); "
             "sys.argv = ['guandan', 'agent', '-q', '--url', sys.argv[1], '--policy', "
             "sys.argv[2]]; from cli import main; main()\" {url}")
    agents = tmp_path / "agents.txt"
    agents.write_text(f"loud: {noisy} heuristic\nquiet: {noisy} random\n")
    run = subprocess.run(
        [*GUANDAN, "arena", "tournament", str(agents), "--seed", "3a", "--boards", "1",
         "--port", "0", "--out", str(tmp_path / "out"), "--json", "--wait", "60"],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)  # nothing but the JSON
    assert "profile-likelihood" in doc["rating_method"]
    assert {r["agent"] for r in doc["ratings"]} == {"loud", "quiet"}
    logs = [Path(p) for p in doc["logs"]]
    assert {p.name for p in logs} == {"loud-1.log", "loud-2.log", "quiet-1.log",
                                      "quiet-2.log"}
    for p in logs:
        text = p.read_text()
        assert "state: hello" in text and "warn" in text
    assert str(tmp_path / "out" / "agent-logs") in run.stderr  # named in the output
    seats = doc["matches"][0]["seating"]
    assert [(s["client"], s["agent"]) for s in seats] == [
        ("loud-1", "loud"), ("quiet-1", "quiet"), ("loud-2", "loud"), ("quiet-2", "quiet")]
