"""Event imports: every file gets its own outcome, a record cut short must say why it is
unfinished, and the bots' records are named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from cli import main
from duplicate import events
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events import EventError

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))


def make_round(engine: Engine, teams: int = 4, boards: int = 2) -> list[str]:
    """Event "Cup" with round 1 paired and given its boards; the bots' records per table."""
    events.create_event(engine, "Cup", seed="ab", boards_per_round=boards, rounds=2)
    for i in range(1, teams + 1):
        events.add_team(engine, "Cup", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])
    events.pair_round(engine, "Cup")
    events.assign_boards(engine, "Cup", 1, seed=SEED)
    return events.bot_records(engine, "Cup", 1)


def cut(record: str, plays: int, tag: str | None = None) -> str:
    """One record with its play list cut after ``plays`` lines (no Finish, no Result),
    with an ``[Unfinished "tag"]`` tag when ``tag`` is given."""
    lines = record.strip().splitlines()
    at = lines.index("[Play]")
    head = lines[:at] + ([f'[Unfinished "{tag}"]'] if tag is not None else [])
    return "\n".join(head + lines[at : at + 1 + plays]) + "\n"


# --- the bots' records are named -----------------------------------------------------


def test_play_bots_names_its_records_by_round_and_table(
    migrated_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_round(migrated_engine)
    events.play_bots(migrated_engine, "Cup", 1)
    # the bots play only rooms with no result: a clash is a result that came in between
    # their read and their import, as if they had read nothing stored
    import duplicate.events.bots as bots  # noqa: PLC0415

    monkeypatch.setattr(bots, "_current", lambda session, ids: {})
    with pytest.raises(EventError) as info:  # other bots, other records: a clash
        events.play_bots(migrated_engine, "Cup", 1, "random", "random")
    assert "<text" not in str(info.value)
    assert str(info.value).startswith("bots round 1 table 1")


# --- a record cut short says why -------------------------------------------------------


def test_a_cut_record_without_a_reason_is_refused(migrated_engine: Engine) -> None:
    texts = make_round(migrated_engine)
    open_rec, closed_rec = texts[0].strip().split("\n\n")[:2]
    with pytest.raises(EventError, match=r"stops after 5 plays.*\[Unfinished"):
        events.import_texts(migrated_engine, "Cup", [cut(open_rec, 5) + "\n" + closed_rec])
    assert events.match_boards(migrated_engine, "Cup", 1, 1)[0].status == "not in yet"


def test_a_cut_record_with_its_reason_is_an_unfinished_board(migrated_engine: Engine) -> None:
    texts = make_round(migrated_engine)
    open_rec, closed_rec = texts[0].strip().split("\n\n")[:2]
    summary = events.import_texts(
        migrated_engine, "Cup", [cut(open_rec, 5, "time") + "\n" + closed_rec]
    )
    assert summary.unfinished == 1
    assert summary.unfinished_boards == ["round 1, table 1, board 1, open room (time)"]
    row = events.match_boards(migrated_engine, "Cup", 1, 1)[0]
    assert (row.status, row.open_ns) == ("unfinished", None)
    director = events.Correction(reason="check", by="TD")  # table 2 is not in: unreleased
    export = events.export_records(migrated_engine, "Cup", 1, unreleased=director)
    assert '[Unfinished "time"]' in export  # kept in the stored record


def test_a_finished_record_cannot_say_it_is_unfinished(migrated_engine: Engine) -> None:
    texts = make_round(migrated_engine)
    open_rec = texts[0].strip().split("\n\n")[0]
    tagged = open_rec.replace("[Play]", '[Unfinished "time"]\n[Play]')
    with pytest.raises(EventError, match="the deal is over"):
        events.import_texts(migrated_engine, "Cup", [tagged])


def test_the_human_summary_names_unfinished_boards(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path
) -> None:
    texts = make_round(migrated_engine)
    open_rec, closed_rec = texts[0].strip().split("\n\n")[:2]
    f = tmp_path / "t1.gdn"
    f.write_text(cut(open_rec, 3, "withdrawal") + "\n" + closed_rec + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["event", "--db", migrated_url, "import", "Cup", str(f)])
    assert res.exit_code == 0, res.output
    assert "unfinished: round 1, table 1, board 1, open room (withdrawal)" in res.output


# --- file by file ---------------------------------------------------------------------


def test_import_goes_on_file_by_file(migrated_engine: Engine, tmp_path: Path) -> None:
    texts = make_round(migrated_engine)
    good1, bad, good2 = tmp_path / "t1.gdn", tmp_path / "bad.gdn", tmp_path / "t2.gdn"
    good1.write_text(texts[0], encoding="utf-8")
    bad.write_text('[Board "1"]\n[Deal "N:S2"]\n', encoding="utf-8")
    good2.write_text(texts[1], encoding="utf-8")
    outcomes = events.import_each(migrated_engine, "Cup", [good1, bad, good2])
    assert [o.ok for o in outcomes] == [True, False, True]
    assert outcomes[1].error is not None and str(bad) in outcomes[1].error
    assert outcomes[0].summary is not None and outcomes[0].summary.added == 4
    assert outcomes[2].summary is not None and outcomes[2].summary.added == 4
    for table in (1, 2):  # both valid files were stored, the bad one in between
        assert all(r.status == "played" for r in events.match_boards(migrated_engine, "Cup", 1, table))
    with pytest.raises(EventError, match="no file"):
        events.import_each(migrated_engine, "Cup", [])


def test_import_each_with_jobs_keeps_the_order(migrated_engine: Engine, tmp_path: Path) -> None:
    texts = make_round(migrated_engine)
    files = [tmp_path / "missing.gdn", tmp_path / "t1.gdn", tmp_path / "t2.gdn"]
    files[1].write_text(texts[0], encoding="utf-8")
    files[2].write_text(texts[1], encoding="utf-8")
    ticks: list[int] = []
    outcomes = events.import_each(migrated_engine, "Cup", files, jobs=2, progress=ticks.append)
    assert [(o.file, o.ok) for o in outcomes] == [
        (str(files[0]), False), (str(files[1]), True), (str(files[2]), True)
    ]
    assert "cannot read" in (outcomes[0].error or "") and sum(ticks) == 3


def test_cli_import_reports_every_file_and_exits_1(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path
) -> None:
    texts = make_round(migrated_engine)
    good1, bad, good2 = tmp_path / "t1.gdn", tmp_path / "bad.gdn", tmp_path / "t2.gdn"
    good1.write_text(texts[0], encoding="utf-8")
    bad.write_text('[Board "1"]\n[Deal "N:S2"]\n', encoding="utf-8")
    good2.write_text(texts[1], encoding="utf-8")
    args = ["event", "--db", migrated_url, "import", "Cup", str(good1), str(bad), str(good2)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1
    out = res.stdout
    assert f"{good1}: 4 records: 4 added" in out and f"{good2}: 4 records: 4 added" in out
    assert f"{bad}: not stored:" in out
    assert "3 files: 2 stored, 1 not stored; 8 records: 8 added" in out
    assert res.stderr.startswith("Error: 1 of 3 files not stored; first:")
    again = CliRunner().invoke(main, [*args, "--json"])
    assert again.exit_code == 1
    data = json.loads(again.stdout)
    assert [f["status"] for f in data["files"]] == ["stored", "failed", "stored"]
    assert data["files"][1]["error"].startswith(str(bad))
    assert data["files"][0]["unchanged"] == 4
    assert data["total"]["unchanged"] == 8 and data["total"]["failed"] == 1


def test_the_unfinished_tag_may_follow_the_play_list_in_any_case(migrated_engine: Engine) -> None:
    texts = make_round(migrated_engine)
    lines = texts[0].strip().split("\n\n")[0].splitlines()
    at = lines.index("[Play]")
    text = "\n".join([*lines[: at + 4], '[unfinished "withdrawal"]']) + "\n"
    [prepared] = events.prepare_text(text, "late.gdn")
    assert (prepared.unfinished, prepared.ns_result) == ("withdrawal", None)
    no_reason = "\n".join([*lines[: at + 4], '[Unfinished " "]']) + "\n"
    with pytest.raises(EventError, match="needs its reason"):
        events.prepare_text(no_reason, "late.gdn")
