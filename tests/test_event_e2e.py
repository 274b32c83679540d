"""A whole Swiss event, end to end, through the command line and the database.

Eight teams, three rounds of eight boards, every board played in both rooms by the
self-play bots (``guandan event play-bots``), on every configured database (SQLite, and
PostgreSQL when ``GUANDAN_TEST_DATABASE_URL`` is set). The standings that ``guandan event
standings --json`` prints are then recomputed from the exported ``.gdn`` records by a small
implementation of this test's own: each deal replayed play by play with the engine's
``Deal``, swings summed into margins, 2/1/0 match points, and the Jiangsu tie-breaks
(points, 累进分 cut 1, rounds won, swing, levels, then the SHA-256 lot).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from cli import main
from duplicate.dealing import seed_file_bytes
from duplicate.gdn import loads
from engine.deal import Deal
from engine.seat import Side

SEED = "c0ffee"
TEAMS = [(f"Team {c}", [f"{c}{i}" for i in range(1, 5)]) for c in "ABCDEFGH"]


def run(url: str, *args: str) -> Any:
    """``guandan event --db URL ARGS``; the parsed JSON when ``--json`` is among the args."""
    result = CliRunner().invoke(main, ["event", "--db", url, *args])
    assert result.exit_code == 0, f"{args}: {result.output}"
    return json.loads(result.output) if "--json" in args else result.output


def ns_result(record: Any) -> int:
    """Replay a record with the engine alone and give its N–S result (±1..±3)."""
    deal = Deal(record.hands, record.level, record.leader)
    for play in record.plays:
        if play.is_pass:
            deal.pass_(play.seat)
        else:
            deal.play_cards(play.cards, play.type, play.rank, play.seat)
    result = deal.result()
    assert (result.winner, result.levels) == record.result  # the record says the same
    return result.levels if result.winner == Side.NS else -result.levels


def lot(team: str) -> bytes:
    """The last tie-break: SHA-256 of the event seed and the team (duplicate.pairing)."""
    return hashlib.sha256(
        b"guandan-duplicate/standings\0" + SEED.encode() + b"\0" + team.encode()
    ).digest()


def test_swiss_event_end_to_end(migrated_engine: Engine, tmp_path: Path) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    teams_file = tmp_path / "teams.txt"
    teams_file.write_text(
        "# eight teams of four\n" + "".join(f"{t}: {', '.join(p)}\n" for t, p in TEAMS),
        encoding="utf-8",
    )
    seed_file = tmp_path / "boards.seed"
    seed_file.write_bytes(seed_file_bytes(hashlib.sha256(b"e2e").digest()))
    seed_file.chmod(0o600)  # a secret: read without a warning
    out = run(
        url,
        "create",
        "E2E Cup",
        "--teams-file",
        str(teams_file),
        "--seed",
        SEED,
        "--rounds",
        "3",
        "--boards-per-round",
        "8",
        "--format",
        "swiss",
        "--scale",
        "wdl",
    )
    assert "8 teams entered" in out

    met: set[frozenset[str]] = set()
    for rnd in (1, 2, 3):
        pairing = run(url, "pair-round", "E2E Cup", "--json")
        assert len(pairing) == 4 and all(m["round"] == rnd for m in pairing)
        tables = {frozenset((m["team_x"], m["team_y"])) for m in pairing}
        assert not tables & met, "a Swiss round repeated a match"
        met |= tables
        run(url, "assign-boards", "E2E Cup", "--round", str(rnd), "--seed-file", str(seed_file))
        out = run(
            url, "play-bots", "E2E Cup", "--round", str(rnd), "-o", str(tmp_path / f"r{rnd}.gdn")
        )
        assert "64 records played and imported" in out
        scores = run(url, "score", "E2E Cup", "--round", str(rnd), "--json")
        assert len(scores) == 4
    # importing the exported files again changes nothing
    again = run(
        url, "import", "E2E Cup", *(str(tmp_path / f"r{r}.gdn") for r in (1, 2, 3)), "--json"
    )
    assert again["total"] == {
        "files": 3,
        "records": 192,
        "added": 0,
        "unchanged": 192,
        "corrected": 0,
        "unfinished": 0,
        "unfinished_boards": [],
        "failed": 0,
    }
    assert [f["status"] for f in again["files"]] == ["stored"] * 3
    standings = run(url, "standings", "E2E Cup", "--json")
    matches = run(url, "matches", "E2E Cup", "--json")

    # --- the independent recomputation --------------------------------------------------
    where: dict[tuple[int, str, str], tuple[int, int]] = {}
    teams_of: dict[tuple[int, int], tuple[str, str]] = {}
    for m in matches:
        teams_of[(m["round"], m["table"])] = (m["team_x"], m["team_y"])
        where[(m["round"], "Open", m["open"]["N"])] = (m["round"], m["table"])
        where[(m["round"], "Closed", m["closed"]["N"])] = (m["round"], m["table"])
    rooms: dict[tuple[int, int, str], dict[str, int]] = defaultdict(dict)
    for rnd in (1, 2, 3):
        records = loads((tmp_path / f"r{rnd}.gdn").read_text(encoding="utf-8"))
        assert len(records) == 64
        for rec in records:
            key = where[(int(rec.tags["Round"]), rec.tags["Room"], rec.tags["North"])]
            rooms[(*key, rec.tags["Board"])][rec.tags["Room"]] = ns_result(rec)
    per_team: dict[str, list[dict[str, int]]] = defaultdict(list)
    for (rnd, table), (x, y) in sorted(teams_of.items()):
        margin = levels_x = levels_y = 0
        boards = [v for k, v in rooms.items() if k[:2] == (rnd, table)]
        assert len(boards) == 8
        for b in boards:
            margin += b["Open"] - b["Closed"]
            levels_x += max(b["Open"], 0) + max(-b["Closed"], 0)
            levels_y += max(-b["Open"], 0) + max(b["Closed"], 0)
        px = 2 if margin > 0 else 1 if margin == 0 else 0
        per_team[x].append({"round": rnd, "points": px, "margin": margin, "levels": levels_x})
        per_team[y].append({"round": rnd, "points": 2 - px, "margin": -margin, "levels": levels_y})
    mine = []
    for team, _players in TEAMS:
        rows = sorted(per_team[team], key=lambda r: r["round"])
        running = [sum(r["points"] for r in rows[:i]) for i in range(1, 4)]
        mine.append(
            {
                "team": team,
                "points": sum(r["points"] for r in rows),
                "progressive": sum(running[1:]),  # 累进分, cut 1: totals after rounds 2..3
                "rounds_won": sum(r["margin"] > 0 for r in rows),
                "swing": sum(r["margin"] for r in rows),
                "levels": sum(r["levels"] for r in rows),
            }
        )
    mine.sort(
        key=lambda r: (
            -r["points"],
            -r["progressive"],
            -r["rounds_won"],
            -r["swing"],
            -r["levels"],
            lot(r["team"]),
        )
    )
    theirs = [{k: row[k] for k in mine[0]} for row in standings]
    assert theirs == mine
    assert [row["rank"] for row in standings] == list(range(1, 9))
    assert len({r["swing"] for r in mine}) > 1, "every team scored alike: the bots played alike"


def test_cli_errors_are_one_line_and_exit_1(migrated_engine: Engine, tmp_path: Path) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    runner = CliRunner()
    bad = runner.invoke(main, ["event", "--db", url, "standings", "Nope"])
    assert bad.exit_code == 1
    assert bad.output == "Error: no event named 'Nope': create it with 'guandan event create'\n"
    run(url, "create", "Cup", "--seed", "ab", "--rounds", "1", "--boards-per-round", "1")
    for t in "AB":
        run(url, "team", "add", "Cup", t, f"{t}1", f"{t}2", f"{t}3", f"{t}4")
    listing = run(url, "team", "list", "Cup", "--csv")
    assert listing.splitlines() == [
        "number,team,players,pairs",
        "1,A,A1 A2 A3 A4,A1/A2 A3/A4",
        "2,B,B1 B2 B3 B4,B1/B2 B3/B4",
    ]
    run(url, "pair-round", "Cup")
    gdn = tmp_path / "bad.gdn"
    gdn.write_text('[Board "1"]\n[Deal "N:S2"]\n', encoding="utf-8")
    bad = runner.invoke(main, ["event", "--db", url, "import", "Cup", str(gdn)])
    assert (
        bad.exit_code == 1
        and bad.stderr.startswith(f"Error: 1 of 1 file not stored; first: {gdn}:")
        and bad.stderr.count("\n") == 1
        and bad.stdout.startswith(f"{gdn}: not stored: {gdn}:")
    )
    usage = runner.invoke(main, ["event", "--db", url, "import", "Cup", str(gdn), "--correction"])
    assert usage.exit_code == 2 and "needs both --by NAME and --reason TEXT" in usage.output


def test_every_event_command_has_help() -> None:
    group = main.commands["event"]
    assert isinstance(group, click.Group)
    seen = []
    stack: list[tuple[str, click.Command]] = [("event", group), ("demo", main.commands["demo"])]
    while stack:
        name, cmd = stack.pop()
        assert cmd.help and cmd.help.strip(), f"{name} has no help text"
        seen.append(name)
        if isinstance(cmd, click.Group):
            stack.extend((f"{name} {n}", c) for n, c in cmd.commands.items())
    for required in (
        "create",
        "team add",
        "pair-round",
        "assign-boards",
        "import",
        "unfinished",
        "correct",
        "score",
        "standings",
        "matches",
        "report",
        "play-bots",
    ):
        assert f"event {required}" in seen


@pytest.mark.parametrize("fmt", ["--json", "--csv"])
def test_listings_offer_json_and_csv(migrated_engine: Engine, fmt: str) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    run(url, "create", "Cup", "--seed", "ab")
    out = run(url, "list", fmt)
    if fmt == "--json":
        assert [e["name"] for e in out] == ["Cup"]
    else:
        assert out.splitlines()[1].startswith("Cup,swiss,3,8,wdl,average")


def test_cli_director_commands(migrated_engine: Engine, tmp_path: Path) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    seed_file = tmp_path / "b.seed"
    seed_file.write_bytes(seed_file_bytes(bytes(32)))
    seed_file.chmod(0o600)  # a secret: read without a warning
    run(
        url,
        "create",
        "Cup",
        "--seed",
        "ab",
        "--format",
        "rr",
        "--rounds",
        "1",
        "--boards-per-round",
        "2",
        "--scale",
        "vp20",
        "--unfinished",
        "not-scored",
    )
    for t in "AB":
        run(url, "team", "add", "Cup", t, *(f"{t}{i}" for i in range(1, 5)))
    run(url, "pair-round", "Cup")
    out = run(url, "assign-boards", "Cup", "--round", "1", "--seed-file", str(seed_file))
    assert out == "round 1: boards 1 to 2 of set 'Cup'\n"
    run(url, "play-bots", "Cup", "--round", "1")
    boards = run(url, "boards", "Cup", "1", "1", "--json")
    assert [b["board"] for b in boards] == [1, 2] and {b["status"] for b in boards} == {"played"}
    runner = CliRunner()
    refused = runner.invoke(
        main,
        [
            "event",
            "--db",
            url,
            "unfinished",
            "Cup",
            "--round",
            "1",
            "--table",
            "1",
            "--board",
            "2",
            "--reason",
            "time",
        ],
    )
    assert refused.exit_code == 1 and "changing it is a correction" in refused.output
    run(
        url,
        "unfinished",
        "Cup",
        "--round",
        "1",
        "--table",
        "1",
        "--board",
        "2",
        "--room",
        "closed",
        "--reason",
        "time",
        "--by",
        "TD",
    )
    out = run(
        url,
        "correct",
        "Cup",
        "--round",
        "1",
        "--table",
        "1",
        "--board",
        "1",
        "--room",
        "open",
        "--result",
        "EW +3",
        "--by",
        "TD",
        "--reason",
        "revoke",
    )
    assert out.endswith("-> EW +3\n")
    boards = run(url, "boards", "Cup", "1", "1", "--json")
    assert boards[0]["open"] == "-3"
    assert (boards[1]["closed"], boards[1]["swing"], boards[1]["status"]) == (
        "-",
        "-",
        "unfinished",
    )
    score = run(url, "score", "Cup", "--json")
    assert score[0]["unfinished"] == [2] and score[0]["margin"] == -3 - int(boards[0]["closed"])
    assert score[0]["points_x"] + score[0]["points_y"] == 20  # the VP scale
    log = run(url, "corrections", "Cup", "--csv").splitlines()
    assert log[0] == "round,table,board,room,by,at,reason,before,after"
    assert [line.split(",")[2:5] for line in log[1:]] == [
        ["2", "closed", "TD"],
        ["1", "open", "TD"],
    ]
    exported = tmp_path / "cup.gdn"
    run(url, "export", "Cup", "-o", str(exported))
    text = exported.read_text(encoding="utf-8")
    # the room marked unfinished keeps its original record, with the mark (who, why)
    assert text.count("[Play]") == 4 and text.count('[UnfinishedBy "TD"]') == 1
    out = run(url, "report", "Cup", "--out", str(tmp_path / "rep"))
    assert out.startswith(f"report written: {tmp_path / 'rep' / 'index.html'} (")
