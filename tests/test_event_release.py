"""Which boards players may see (released boards: every table of
the round has them in, or the director released them), and boards not played twice."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from cli import main
from duplicate import events
from duplicate.boards import generate_set, reveal_set, store_set
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events import Correction, EventError
from duplicate.gdn import loads

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
OTHER = parse_seed_file(seed_file_bytes(bytes(range(1, 33))))
BY = Correction(reason="the set was replayed on purpose", by="TD Wu")


def make_event(engine: Engine, name: str = "Cup", boards: int = 2, rounds: int = 2) -> None:
    events.create_event(engine, name, seed="ab", boards_per_round=boards, rounds=rounds)
    for i in range(1, 5):
        events.add_team(engine, name, f"{name[0]}T{i}", [f"{name[0]}P{i}{j}" for j in range(1, 5)])


def start_round(engine: Engine, name: str = "Cup") -> list[str]:
    """Pair and give round 1 its boards; the bots' records per table (nothing stored)."""
    events.pair_round(engine, name)
    events.assign_boards(engine, name, 1, seed=SEED)
    return events.bot_records(engine, name, 1)


# --- released boards ---------------------------------------------------------------------


def test_a_board_is_released_when_every_table_has_it_in(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    texts = start_round(migrated_engine)
    assert events.released_boards(migrated_engine, "Cup", 1) == frozenset()
    events.import_texts(migrated_engine, "Cup", [texts[0]])  # table 1 only
    assert events.released_boards(migrated_engine, "Cup", 1) == frozenset()
    # table 2: board 1 in both rooms, board 2 only in the open room and marked unfinished
    records = texts[1].strip().split("\n\n")  # board 1 open, closed, board 2 open, closed
    events.import_texts(migrated_engine, "Cup", ["\n\n".join(records[:3]) + "\n"])
    assert events.released_boards(migrated_engine, "Cup", 1) == frozenset({1})
    events.record_unfinished(migrated_engine, "Cup", 1, 2, 2, "time", ("closed",))
    assert events.released_boards(migrated_engine, "Cup", 1) == frozenset({1, 2})


def test_export_and_report_show_no_unreleased_board(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    make_event(migrated_engine)
    texts = start_round(migrated_engine)
    events.import_texts(migrated_engine, "Cup", [texts[0]])  # table 1 only
    assert events.export_records(migrated_engine, "Cup") == ""
    assert events.unreleased_boards(migrated_engine, "Cup") == {1: (1, 2)}
    report = events.event_report(migrated_engine, "Cup")
    assert all(line.comparison is None for m in report.matches for line in m.boards)
    events.write_event_report(migrated_engine, "Cup", tmp_path / "rep")
    assert not list((tmp_path / "rep").glob("board-*.html"))  # no hands, no plays
    # the director's own export of everything is logged
    full = events.export_records(migrated_engine, "Cup", unreleased=BY)
    assert len(loads(full)) == 4
    log = events.admin_log(migrated_engine, "Cup")
    assert [(e["action"], e["by"]) for e in log] == [("export unreleased", "TD Wu")]
    # the other table's records in: both boards released, exported and compared
    events.import_texts(migrated_engine, "Cup", [texts[1]])
    assert len(loads(events.export_records(migrated_engine, "Cup"))) == 8
    report = events.event_report(migrated_engine, "Cup")
    assert all(line.comparison is not None for m in report.matches for line in m.boards)


def test_the_director_releases_a_board_explicitly(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    texts = start_round(migrated_engine)
    events.import_texts(migrated_engine, "Cup", [texts[0]])
    with pytest.raises(EventError, match="round 1 plays boards 1 to 2, not board 3"):
        events.release_board(migrated_engine, "Cup", 1, 3, "TD Wu", "table 2 withdrew")
    with pytest.raises(EventError, match="who and why"):
        events.release_board(migrated_engine, "Cup", 1, 2, " ", "table 2 withdrew")
    events.release_board(migrated_engine, "Cup", 1, 2, "TD Wu", "table 2 withdrew")
    assert events.released_boards(migrated_engine, "Cup", 1) == frozenset({2})
    exported = loads(events.export_records(migrated_engine, "Cup"))
    assert {r.tags["Board"] for r in exported} == {"2"}
    with pytest.raises(EventError, match="already released by 'TD Wu'"):
        events.release_board(migrated_engine, "Cup", 1, 2, "TD Li", "again")
    [entry] = events.admin_log(migrated_engine, "Cup")
    assert (entry["action"], entry["by"], entry["reason"]) == (
        "release board", "TD Wu", "table 2 withdrew"
    )
    assert entry["detail"] == "round 1, board 2" and entry["at"].endswith("+00:00")


def test_cli_export_says_what_it_withholds(
    migrated_url: str, migrated_engine: Engine
) -> None:
    make_event(migrated_engine)
    texts = start_round(migrated_engine)
    events.import_texts(migrated_engine, "Cup", [texts[0]])
    res = CliRunner().invoke(main, ["event", "--db", migrated_url, "export", "Cup"])
    assert res.exit_code == 0 and res.stdout == ""
    assert "withheld" in res.stderr and "round 1: boards 1, 2" in res.stderr
    rel = CliRunner().invoke(main, ["event", "--db", migrated_url, "release", "Cup",
                                    "--round", "1", "--board", "1", "--by", "TD Wu",
                                    "--reason", "late table"])  # fmt: skip
    assert rel.exit_code == 0, rel.output
    res = CliRunner().invoke(main, ["event", "--db", migrated_url, "export", "Cup"])
    assert {r.tags["Board"] for r in loads(res.stdout)} == {"1"}
    usage = CliRunner().invoke(main, ["event", "--db", migrated_url, "export", "Cup",
                                      "--unreleased"])  # fmt: skip
    assert usage.exit_code == 2 and "--by" in usage.output


# --- boards are not played twice -------------------------------------------------------


def test_a_round_cannot_replay_the_boards_of_another(migrated_engine: Engine) -> None:
    make_event(migrated_engine)
    texts = start_round(migrated_engine)
    events.import_texts(migrated_engine, "Cup", texts)
    events.pair_round(migrated_engine, "Cup")
    with pytest.raises(EventError, match=r"boards 1 to 2 .* round 1 of event 'Cup'.*needs who and why"):
        events.assign_boards(migrated_engine, "Cup", 2, seed=SEED, first=1)
    assert events.get_round(migrated_engine, "Cup", 2).boards == ()
    with pytest.raises(EventError, match=r"board 2 .* round 1 of event 'Cup'"):
        events.assign_boards(migrated_engine, "Cup", 2, seed=SEED, first=2)
    rnd = events.assign_boards(migrated_engine, "Cup", 2, seed=SEED, first=1, reuse=BY)
    assert rnd.boards == (1, 2)
    [entry] = events.admin_log(migrated_engine, "Cup")
    assert entry["action"] == "reuse boards" and entry["reason"] == BY.reason
    assert "round 1 of event 'Cup'" in entry["detail"]
    # giving a round its own boards again is no reuse
    events.assign_boards(migrated_engine, "Cup", 2, seed=SEED, first=3)
    events.assign_boards(migrated_engine, "Cup", 2, seed=SEED, first=3)


def test_a_played_or_revealed_set_is_refused_to_a_new_event(migrated_engine: Engine) -> None:
    store_set(migrated_engine, generate_set(OTHER, 8, "spring"))
    make_event(migrated_engine, "Cup")
    events.pair_round(migrated_engine, "Cup")
    events.assign_boards(migrated_engine, "Cup", 1, set_name="spring")
    make_event(migrated_engine, "Bowl")
    events.pair_round(migrated_engine, "Bowl")
    with pytest.raises(EventError, match=r"round 1 of event 'Cup'"):
        events.assign_boards(migrated_engine, "Bowl", 1, set_name="spring")
    events.assign_boards(migrated_engine, "Bowl", 1, set_name="spring", first=5)  # unplayed
    reveal_set(migrated_engine, "spring", OTHER)
    with pytest.raises(EventError, match=r"set .spring. is revealed.*needs who and why") as exc:
        events.assign_boards(migrated_engine, "Bowl", 1, set_name="spring", first=7)
    # the library's message is for any caller; the command line adds its own flags
    assert "--" not in str(exc.value) and "--reuse" in (exc.value.cli_hint or "")
    events.assign_boards(migrated_engine, "Bowl", 1, set_name="spring", first=7, reuse=BY)
    assert [e["action"] for e in events.admin_log(migrated_engine, "Bowl")] == ["reuse boards"]


def test_cli_assign_boards_reuse_needs_who_and_why(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path
) -> None:
    make_event(migrated_engine)
    events.import_texts(migrated_engine, "Cup", start_round(migrated_engine))
    events.pair_round(migrated_engine, "Cup")
    seed = tmp_path / "cup.seed"
    seed.write_bytes(SEED.data)
    base = ["event", "--db", migrated_url, "assign-boards", "Cup", "--round", "2",
            "--seed-file", str(seed), "--first", "1"]  # fmt: skip
    refused = CliRunner().invoke(main, base)
    assert refused.exit_code == 1 and "--reuse" in refused.output
    usage = CliRunner().invoke(main, [*base, "--reuse"])
    assert usage.exit_code == 2
    ok = CliRunner().invoke(main, [*base, "--reuse", "--by", "TD Wu", "--reason", "practice"])
    assert ok.exit_code == 0, ok.output
