"""Importing records into the database (SQLite, and PostgreSQL when configured).

Transactions per file and per deal, idempotent import, refusals and corrections, links to
stored boards, and ``guandan import`` through CliRunner.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from cli import main
from duplicate import gdn
from duplicate.boards import generate_set, store_set
from duplicate.dealing import create_seed_file
from duplicate.gdn import DealRecord, Play
from duplicate.records import (
    Correction,
    RecordImportError,
    import_files,
    import_records,
    stored_records,
)
from engine.deal import Deal
from engine.seat import Seat

GOLDEN = Path(__file__).parent / "golden" / "gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"


def _example(n: int = 26) -> list[DealRecord]:
    return gdn.loads(EXAMPLE.read_text(encoding="utf-8"), file="ex.gdn")[:n]


def _changed(rec: DealRecord) -> DealRecord:
    """The same deal with a comment added: a different record of the same board and room."""
    return dataclasses.replace(rec, comments=[*rec.comments, "retyped by the director"])


def _illegal(rec: DealRecord) -> DealRecord:
    """``rec`` with its second play made by the wrong seat."""
    assert rec.plays is not None
    plays = list(rec.plays)
    plays[1] = dataclasses.replace(plays[1], seat=plays[1].seat.next)
    return dataclasses.replace(rec, plays=plays)


def test_import_stores_replayed_canonical_records(migrated_engine: Engine) -> None:
    records = _example()
    outcomes = import_records(migrated_engine, records)
    assert [o.status for o in outcomes] == ["stored"] * 26
    rows = stored_records(migrated_engine)
    assert len(rows) == 26
    for rec, row, out in zip(records, rows, outcomes, strict=True):
        assert out.record_id == row.id and row.version == 1
        assert row.gdn == gdn.dumps(rec) and row.event == "Played by OpenGuanDan"
        assert rec.result is not None and row.result == gdn.format_result(rec.result)
        side, levels = rec.result
        assert row.ns_score == (levels if side.name == "NS" else -levels)
        assert row.room == "" and row.board_id is None and row.source == f"ex.gdn:{rec.line}"
        assert row.correction_reason is None


def test_importing_twice_stores_once(migrated_engine: Engine) -> None:
    import_records(migrated_engine, _example(3))
    again = import_records(migrated_engine, _example(3))
    assert [o.status for o in again] == ["unchanged"] * 3
    assert all(o.ok and o.version == 1 for o in again)
    assert len(stored_records(migrated_engine, all_versions=True)) == 3


def test_per_file_stores_nothing_of_a_file_with_an_illegal_deal(migrated_engine: Engine) -> None:
    records = _example(3)
    records[1] = _illegal(records[1])
    outcomes = import_records(migrated_engine, records, per="file")
    assert [o.status for o in outcomes] == ["rolled back", "error", "rolled back"]
    assert outcomes[1].error is not None and "out of turn" in outcomes[1].error
    assert stored_records(migrated_engine) == []


def test_per_file_rolls_back_a_refused_deal(migrated_engine: Engine) -> None:
    import_records(migrated_engine, _example(2)[1:])
    records = _example(3)
    records[1] = _changed(records[1])
    outcomes = import_records(migrated_engine, records, per="file")
    assert [o.status for o in outcomes] == ["rolled back", "refused", "rolled back"]
    assert len(stored_records(migrated_engine)) == 1


def test_per_deal_stores_the_good_deals(migrated_engine: Engine) -> None:
    records = _example(3)
    records[1] = _illegal(records[1])
    outcomes = import_records(migrated_engine, records, per="deal")
    assert [o.status for o in outcomes] == ["stored", "error", "stored"]
    assert [r.source for r in stored_records(migrated_engine)] == [
        f"ex.gdn:{records[0].line}",
        f"ex.gdn:{records[2].line}",
    ]


def test_a_different_record_is_refused_unless_a_correction(migrated_engine: Engine) -> None:
    (original,) = _example(1)
    import_records(migrated_engine, [original])
    changed = _changed(original)
    (refused,) = import_records(migrated_engine, [changed])
    assert refused.status == "refused" and refused.error is not None
    assert "a different record of board 1" in refused.error and "correction" in refused.error
    fix = Correction("comment added after the session", "Director Zhou")
    (corrected,) = import_records(migrated_engine, [changed], correction=fix)
    assert corrected.status == "corrected" and corrected.version == 2
    (current,) = stored_records(migrated_engine)
    assert current.version == 2 and current.gdn == gdn.dumps(changed)
    assert (current.correction_reason, current.corrected_by) == (fix.reason, fix.by)
    both = stored_records(migrated_engine, all_versions=True)
    assert [r.version for r in both] == [1, 2] and both[0].gdn == gdn.dumps(original)
    assert both[1].created_at is not None
    # the same correction again changes nothing; the old version is now the different one
    assert import_records(migrated_engine, [changed], correction=fix)[0].status == "unchanged"
    assert import_records(migrated_engine, [original])[0].status == "refused"


def test_a_correction_of_nothing_and_bad_corrections_are_refused(migrated_engine: Engine) -> None:
    fix = Correction("typo", "Director Zhou")
    (out,) = import_records(migrated_engine, _example(1), correction=fix)
    assert out.status == "refused" and out.error is not None and "nothing to correct" in out.error
    with pytest.raises(RecordImportError, match="needs a reason"):
        Correction(" ", "x")
    with pytest.raises(RecordImportError, match="who makes it"):
        Correction("why", "")


def test_other_rooms_and_events_are_other_keys(migrated_engine: Engine) -> None:
    (rec,) = _example(1)
    rooms = [dataclasses.replace(rec, tags={**rec.tags, "Room": r}) for r in ("Open", "Closed")]
    other_event = dataclasses.replace(rec, tags={**rec.tags, "Event": "Another cup"})
    outcomes = import_records(migrated_engine, [rec, *rooms, other_event])
    assert [o.status for o in outcomes] == ["stored"] * 4
    assert sorted(r.room for r in stored_records(migrated_engine)) == ["", "", "Closed", "Open"]


def test_hand_records_and_unfinished_deals_are_refused(migrated_engine: Engine) -> None:
    (rec,) = _example(1)
    assert rec.plays is not None
    board = dataclasses.replace(rec, plays=None, finish=None, result=None)
    unfinished = dataclasses.replace(rec, plays=rec.plays[:10], finish=None, result=None)
    outcomes = import_records(migrated_engine, [board, unfinished], per="deal")
    assert [o.status for o in outcomes] == ["refused", "refused"]
    assert outcomes[0].error is not None and "hand record" in outcomes[0].error
    assert outcomes[1].error is not None and "unfinished after 10 plays" in outcomes[1].error
    assert stored_records(migrated_engine) == []


def test_tags_too_long_for_the_database_are_refused(migrated_engine: Engine) -> None:
    (rec,) = _example(1)
    long = dataclasses.replace(rec, tags={**rec.tags, "Room": "R" * 101})
    (out,) = import_records(migrated_engine, [long])
    assert out.status == "refused" and out.error is not None
    assert "Room tag is longer than the 100 characters" in out.error
    fits = dataclasses.replace(rec, tags={**rec.tags, "Room": "R" * 100, "North": "名" * 200})
    assert import_records(migrated_engine, [fits])[0].status == "stored"


def _autoplay(hands: tuple[int, int, int, int], level: int, leader: Seat) -> list[Play]:
    """A whole deal: the leader plays its first legal reading, everyone else passes."""
    deal = Deal(hands, level, leader)
    plays: list[Play] = []
    while not deal.is_over:
        seat = deal.turn
        assert seat is not None
        if deal.to_beat is None:
            combo = deal.legal_readings()[0]
            deal.play(combo)
            plays.append(Play(seat, combo.cards, combo.type, combo.rank))
        else:
            deal.pass_()
            plays.append(Play(seat, 0))
    return plays


def _stored_set(engine: Engine, tmp_path: Path) -> list[DealRecord]:
    """Store a 2-board set named ``s`` and return a played record of each board."""
    board_set = generate_set(create_seed_file(tmp_path / "seed"), 2, "s")
    store_set(engine, board_set)
    out = []
    for b in board_set.boards:
        hands = b.hands
        plays = _autoplay(hands, b.level, b.leader)
        out.append(
            DealRecord(
                tags={"Board": str(b.number), "Room": "Open", "DealId": b.deal_id},
                hands=hands,
                level=b.level,
                leader=b.leader,
                plays=plays,
                file="set.gdn",
                line=b.number,
            )
        )
    return out


def test_records_link_to_stored_boards(migrated_engine: Engine, tmp_path: Path) -> None:
    one, two = _stored_set(migrated_engine, tmp_path)
    outcomes = import_records(migrated_engine, [one], board_set="s")
    assert outcomes[0].status == "stored", outcomes[0].error
    outcomes = import_records(migrated_engine, [two])  # found by its DealId alone
    assert outcomes[0].status == "stored", outcomes[0].error
    rows = stored_records(migrated_engine)
    assert all(r.board_id is not None for r in rows) and rows[0].board_id != rows[1].board_id


def test_records_that_contradict_a_stored_board_are_refused(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    one, two = _stored_set(migrated_engine, tmp_path)
    relabelled = dataclasses.replace(one, tags={**one.tags, "Board": "2"})
    (out,) = import_records(migrated_engine, [relabelled], board_set="s")
    assert out.status == "refused" and out.error is not None
    assert "hands differ from board 2 of set 's'" in out.error
    assert one.plays is not None
    moved = dataclasses.replace(
        one,
        leader=one.leader.next,
        tags={"Board": "1"},
        plays=_autoplay(one.hands, one.level, one.leader.next),
    )
    (out,) = import_records(migrated_engine, [moved])
    assert out.status == "refused" and out.error is not None and "level and leader" in out.error
    for board, reason in (("9", "has no board 9"), ("x", "no board number")):
        bad = dataclasses.replace(one, tags={**one.tags, "Board": board})
        (out,) = import_records(migrated_engine, [bad], board_set="s")
        assert out.status == "refused" and out.error is not None and reason in out.error
    (out,) = import_records(migrated_engine, [one], board_set="nope")
    assert out.error is not None and "no board set named 'nope'" in out.error
    assert stored_records(migrated_engine) == []


def test_import_files_reports_unreadable_files(migrated_engine: Engine, tmp_path: Path) -> None:
    binary = tmp_path / "x.gdn"
    binary.write_bytes(b"\xff\xfe")
    outcomes = list(import_files(migrated_engine, [binary, tmp_path / "none.gdn", EXAMPLE]))
    assert [o.status for o in outcomes[:2]] == ["error", "error"]
    assert outcomes[0].error is not None and "not UTF-8" in outcomes[0].error
    assert len(outcomes) == 28 and all(o.status == "stored" for o in outcomes[2:])


# --- the command line -----------------------------------------------------------------


def test_cli_import(migrated_engine: Engine, tmp_path: Path) -> None:
    url = migrated_engine.url.render_as_string(hide_password=False)
    runner = CliRunner()
    first = runner.invoke(main, ["import", "--db", url, str(EXAMPLE)])
    assert first.exit_code == 0, first.output
    assert first.output.splitlines()[-1] == (
        "26 deals: 26 stored, 0 already stored, 0 corrected, 0 not stored"
    )
    again = runner.invoke(main, ["import", "--db", url, "--json", str(EXAMPLE)])
    assert again.exit_code == 0 and '"status": "unchanged"' in again.output

    (rec,) = _example(1)
    changed = tmp_path / "changed.gdn"
    changed.write_text(gdn.dumps(_changed(rec)), encoding="utf-8")
    refused = runner.invoke(main, ["import", "--db", url, str(changed)])
    assert refused.exit_code == 1 and "refused" in refused.output
    fixed = runner.invoke(
        main,
        ["import", "--db", url, "--correction", "--reason", "typo", "--by", "Zhou", str(changed)],
    )
    assert fixed.exit_code == 0, fixed.output
    assert fixed.output.splitlines()[-1].endswith("1 corrected, 0 not stored")


def test_cli_import_usage_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    no_reason = runner.invoke(main, ["import", "--correction", str(EXAMPLE)])
    assert no_reason.exit_code == 2 and "--correction needs both --by" in no_reason.output
    stray = runner.invoke(main, ["import", "--reason", "x", str(EXAMPLE)])
    assert stray.exit_code == 2 and "--reason goes with --correction" in stray.output
    url = f"sqlite:///{tmp_path}/empty.sqlite"
    empty = runner.invoke(main, ["import", "--db", url, str(EXAMPLE)])
    assert empty.exit_code == 1 and "guandan db upgrade" in empty.output
    assert "Replay the .gdn FILES" in runner.invoke(main, ["import", "--help"]).output
