"""The one store of played deals (duplicate.store, migration 0005), on every database.

Tables kept apart by their ``Table`` tag; a result reported without a record and backed
later by it; a disagreeing record refused (both named) and taken as a correction; the log
complete (who, when, why, old and new for every change); the migration moving rows of both
old tables (``deal_records`` and ``event_results`` with its corrections) there and back.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, select, text

from duplicate import db, events, gdn, models, store
from duplicate.boards import BoardSet, generate_set, store_set
from duplicate.db import session_scope
from duplicate.dealing import deal_id, parse_seed_file, seed_file_bytes
from duplicate.errors import DatabaseError
from duplicate.gdn import DealRecord
from duplicate.records import Correction, import_files, stored_records
from duplicate.replay import replay
from duplicate.simulate import simulate_match
from duplicate.store import Author, ResultKey, Slot, StoreError

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))), "store.seed")


@functools.cache
def _board_set() -> BoardSet:
    return generate_set(SEED, 2, "store cup")


@functools.cache
def _played(key: bytes = b"k" * 32) -> tuple[DealRecord, ...]:
    """Boards 1-2 played in an open and a closed room (4 records); another ``key``, other
    bot choices on the same cards."""
    return tuple(simulate_match(_board_set(), "heuristic", "random", key))


def _with(rec: DealRecord, **tags: str) -> DealRecord:
    return dataclasses.replace(rec, tags={**rec.tags, **tags})


def _write(path: Path, recs: Sequence[DealRecord]) -> Path:
    path.write_text("\n".join(gdn.dumps(r) for r in recs), encoding="utf-8")
    return path


def _key(rec: DealRecord) -> ResultKey:
    t = rec.tags
    return ResultKey(
        deal_id(rec.hands),
        t.get("Event", ""),
        t.get("Round", ""),
        t.get("Table", ""),
        t.get("Room", ""),
    )


def _finish(rec: DealRecord) -> str:
    res = replay(rec).result
    assert res is not None
    return " ".join(s.name for s in res.finish_order)


def _ns(rec: DealRecord) -> int:
    res = replay(rec).result
    assert res is not None
    return res.levels if res.winner.name == "NS" else -res.levels


def _log(engine: Engine) -> list[tuple[models.RoomResult, store.Change]]:
    with session_scope(engine) as session:
        rows = store.changes(session)
        session.expunge_all()
        return rows


# --- tables kept apart ----------------------------------------------------------------


def test_sixty_tables_of_one_board_and_room_are_sixty_results(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    rec = _with(_played()[0], Round="2")
    tables = [_with(rec, Table=str(t)) for t in range(1, 61)]
    path = _write(tmp_path / "round2.gdn", tables)
    outcomes = list(import_files(migrated_engine, [path], by="scorer"))
    assert [o.status for o in outcomes] == ["stored"] * 60
    now = store.current_results(migrated_engine)
    assert len(now) == 60
    assert {r.key.deal_id for r in now} == {deal_id(rec.hands)}
    assert {(r.key.round, r.key.room) for r in now} == {("2", "Open")}
    assert sorted(int(r.key.table) for r in now) == list(range(1, 61))
    assert sorted(int(r.table) for r in stored_records(migrated_engine)) == list(range(1, 61))
    # the same file again changes nothing; a table's other record is refused, not mixed up
    assert {o.status for o in import_files(migrated_engine, [path])} == {"unchanged"}
    other = _with(_with(_played(b"o" * 32)[0], Round="2"), Table="7")
    assert gdn.dumps(other) != gdn.dumps(tables[6])
    (refused,) = import_files(migrated_engine, [_write(tmp_path / "t7.gdn", [other])])
    assert refused.status == "refused" and "table '7'" in (refused.error or "")
    assert len(store.current_results(migrated_engine)) == 60
    # without the tag the tables are one room: the second table's record is refused
    plain = [_with(_played()[0], Round="3"), _with(_played(b"o" * 32)[0], Round="3")]
    first, second = import_files(migrated_engine, [_write(tmp_path / "r3.gdn", plain)], per="deal")
    assert (first.status, second.status) == ("stored", "refused")


# --- reported, then backed by the record ------------------------------------------------


def test_a_reported_result_is_backed_later_by_its_record(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    rec = _played()[0]
    slot = Slot(_key(rec), "1")
    phone = Author("North (phone, table 1)", "finishing order sent from the table")
    reported = store.report_result(migrated_engine, slot, phone, finish=_finish(rec))
    assert reported is not None and reported.action == "report"
    assert reported.new.ns_result == _ns(rec) and reported.new.record_id is None
    (now,) = store.current_results(migrated_engine)
    assert (now.state.ns_result, now.record_text) == (_ns(rec), None)
    # the same report again changes nothing
    assert store.report_result(migrated_engine, slot, phone, ns_result=_ns(rec)) is None
    (backed,) = import_files(migrated_engine, [_write(tmp_path / "r.gdn", [rec])], by="scorer")
    assert backed.status == "stored", backed.error
    history = store.result_history(migrated_engine, slot.key)
    assert [c.action for c in history] == ["report", "attach"]
    assert history[1].old == history[0].new
    assert history[1].new.record_id == backed.record_id and history[1].by == "scorer"
    (now,) = store.current_results(migrated_engine)
    assert now.state.ns_result == _ns(rec) and now.record_text == gdn.dumps(rec)
    # the store's own call backs a report the same way (the closed room)
    closed = _played()[1]
    cslot = Slot(_key(closed), "1")
    store.report_result(migrated_engine, cslot, phone, ns_result=_ns(closed))
    attached = store.attach_record(
        migrated_engine, cslot, gdn.dumps(closed), Author("director", "record typed in")
    )
    assert attached is not None and attached.action == "attach"
    assert (
        store.attach_record(migrated_engine, cslot, gdn.dumps(closed), Author("director", "again"))
        is None
    )


def test_a_disagreeing_record_is_refused_then_taken_as_a_correction(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    rec = _played()[0]
    slot = Slot(_key(rec), "1")
    wrong = -_ns(rec)  # the phone reported the other side's win
    store.report_result(migrated_engine, slot, Author("North", "reported"), ns_result=wrong)
    path = _write(tmp_path / "r.gdn", [rec])
    (refused,) = import_files(migrated_engine, [path])
    said = f"{'NS' if _ns(rec) > 0 else 'EW'} +{abs(_ns(rec))}"
    held = f"{'NS' if wrong > 0 else 'EW'} +{abs(wrong)}"
    assert refused.status == "refused"
    assert held in (refused.error or "") and said in (refused.error or "")
    assert len(store.result_history(migrated_engine, slot.key)) == 1  # nothing changed
    with pytest.raises(StoreError, match=re.escape(held) + ".*" + re.escape(said)):
        store.attach_record(migrated_engine, slot, gdn.dumps(rec), Author("Zhou", "typed in"))
    fix = Correction(reason="the phone reported the wrong side", by="Zhou (director)")
    (fixed,) = import_files(migrated_engine, [path], correction=fix)
    assert fixed.status == "corrected"
    report, correction = store.result_history(migrated_engine, slot.key)
    assert correction.action == "correction" and correction.old == report.new
    assert (correction.by, correction.reason) == (fix.by, fix.reason)
    assert correction.new.ns_result == _ns(rec) and correction.new.record_id is not None


def test_an_event_room_reported_from_the_table_then_backed_refused_and_corrected(
    migrated_engine: Engine,
) -> None:
    events.create_event(migrated_engine, "Hall", seed="ab", boards_per_round=1)
    for i in (1, 2):
        events.add_team(migrated_engine, "Hall", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])
    events.pair_round(migrated_engine, "Hall")
    events.assign_boards(migrated_engine, "Hall", 1, seed=SEED)
    (text_,) = events.bot_records(migrated_engine, "Hall", 1)
    open_rec, closed_rec = gdn.loads(text_)
    slot = events.result_slot(migrated_engine, "Hall", 1, 1, 1, "open")
    assert slot.match_id is not None and slot.key.table == "1"
    phone = Author("P11", "finishing order from the table")
    store.report_result(migrated_engine, slot, phone, finish=_finish(open_rec))
    wrong = events.result_slot(migrated_engine, "Hall", 1, 1, 1, "closed")
    store.report_result(migrated_engine, wrong, phone, ns_result=-_ns(closed_rec))
    with pytest.raises(events.EventError, match="this record says"):
        events.import_texts(migrated_engine, "Hall", [text_])
    fix = Correction(reason="closed room reported the wrong side", by="director")
    summary = events.import_texts(migrated_engine, "Hall", [text_], correction=fix)
    assert (summary.added, summary.corrected) == (1, 1)  # open backed, closed corrected
    assert [c.action for c in store.result_history(migrated_engine, slot.key)] == [
        "report",
        "attach",
    ]
    (listed,) = events.list_corrections(migrated_engine, "Hall")
    assert (listed["room"], listed["by"], listed["reason"]) == ("closed", fix.by, fix.reason)
    (scored,) = events.score_event(migrated_engine, "Hall", 1)
    assert scored.results[0].open_ns == _ns(open_rec)
    assert scored.results[0].closed_ns == _ns(closed_rec)
    with pytest.raises(events.EventError, match="no table 9"):
        events.result_slot(migrated_engine, "Hall", 1, 9, 1, "open")


# --- the log ----------------------------------------------------------------------------


def test_every_change_is_logged_with_who_when_why_old_and_new(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    start = datetime.now(UTC)
    open_, closed, open2, closed2 = _played()
    # every kind of change: import, report, attach, unfinished, correction, ruling
    list(import_files(migrated_engine, [_write(tmp_path / "a.gdn", [open_])], by="scorer"))
    s_closed = Slot(_key(closed), "1")
    store.report_result(migrated_engine, s_closed, Author("East", "phone"), finish=_finish(closed))
    store.attach_record(migrated_engine, s_closed, gdn.dumps(closed), Author("scorer", "typed"))
    s2 = Slot(_key(open2), "2")
    store.mark_unfinished(migrated_engine, s2, "time", Author("director", "out of time"))
    with pytest.raises(StoreError, match="correction"):
        store.attach_record(migrated_engine, s2, gdn.dumps(open2), Author("scorer", "late"))
    store.attach_record(
        migrated_engine, s2, gdn.dumps(open2), Author("director", "finished after all", True)
    )
    s3 = Slot(_key(closed2), "2")
    store.rule_result(migrated_engine, s3, 2, Author("director", "revoke ruled"))
    store.rule_result(migrated_engine, s3, -1, Author("appeals", "ruling changed on appeal"))
    log = _log(migrated_engine)
    assert {c.action for _, c in log} == {
        "import",
        "report",
        "attach",
        "unfinished",
        "correction",
        "ruling",
    }
    last: dict[int, store.State] = {}
    end = datetime.now(UTC)
    for row, c in log:
        assert c.by.strip() and c.reason.strip()
        assert c.at.tzinfo is not None and c.at.utcoffset().total_seconds() == 0  # type: ignore[union-attr]
        assert start.replace(microsecond=0) <= c.at.replace(microsecond=0) <= end
        assert c.old == last.get(row.id)  # old is exactly what the change replaced
        assert c.new.status in ("played", "unfinished")
        last[row.id] = c.new
    # the current result is the latest change, a query
    now = {r.result_id: r.state for r in store.current_results(migrated_engine)}
    assert now == last
    assert now[_room_id(migrated_engine, s3.key)].ns_result == -1


def _room_id(engine: Engine, key: ResultKey) -> int:
    with session_scope(engine) as session:
        row = store.find_result(session, key)
        assert row is not None
        return row.id


# --- migration 0005 ----------------------------------------------------------------------


def _old_rows(engine: Engine) -> dict[str, list[tuple[object, ...]]]:
    """The rows of the old tables (ids and times left out), sorted."""
    queries = {
        "deal_records": "SELECT deal_id, event, round, room, version, board_number, north, "
        "level, leader, plays, finish, result, ns_score, gdn, content_hash, source, "
        "correction_reason, corrected_by, rules FROM deal_records",
        "event_results": "SELECT match_id, board, room, status, ns_result, reason, "
        "record_hash, record_text FROM event_results",
        "event_corrections": "SELECT match_id, board, room, made_by, reason, before, after "
        "FROM event_corrections",
    }
    with engine.connect() as conn:
        return {
            name: sorted((tuple(r) for r in conn.execute(text(q))), key=repr)
            for name, q in queries.items()
        }


def _store_view(engine: Engine) -> tuple[object, ...]:
    current = sorted(
        (
            r.key.deal_id,
            r.key.event,
            r.key.round,
            r.key.table,
            r.key.room,
            r.board,
            r.state.status,
            r.state.ns_result,
            r.state.note,
            r.record_text,
        )
        for r in store.current_results(engine)
    )
    recs = sorted(
        (
            r.deal_id,
            r.event,
            r.round,
            r.room,
            r.version,
            r.gdn,
            r.source,
            r.correction_reason,
            r.corrected_by,
        )
        for r in stored_records(engine, all_versions=True)
        if r.event != "Old Cup"  # event_results kept no source: compared by current_results
    )
    return (
        current,
        recs,
        events.list_corrections(engine, "Old Cup"),
        [(s.team, s.points) for s in events.event_standings(engine, "Old Cup")[0]],
    )


def test_migration_0005_moves_both_old_tables_there_and_back(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    engine = migrated_engine
    store_set(engine, _board_set())
    # standalone records: two versions of one room, another room, a table-keyed room
    first, closed = _played()[0], _played()[1]
    list(import_files(engine, [_write(tmp_path / "a.gdn", [first, closed])]))
    fix = Correction(reason="typo", by="Zhou")
    list(
        import_files(engine, [_write(tmp_path / "b.gdn", [_played(b"o" * 32)[0]])], correction=fix)
    )
    list(import_files(engine, [_write(tmp_path / "c.gdn", [_with(_played()[2], Table="4")])]))
    # an event: imported records, an unfinished board corrected, a ruling
    events.create_event(engine, "Old Cup", seed="ab", boards_per_round=2)
    for i in (1, 2):
        events.add_team(engine, "Old Cup", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])
    events.pair_round(engine, "Old Cup")
    events.assign_boards(engine, "Old Cup", 1, set_name="store cup")
    events.play_bots(engine, "Old Cup", 1)
    ruling = Correction(reason="revoke", by="director")
    events.correct_result(engine, "Old Cup", 1, 1, 1, "open", 2, ruling)
    events.record_unfinished(engine, "Old Cup", 1, 1, 2, "time", ("closed",), ruling)
    before = _store_view(engine)

    db.downgrade(engine, "0004", force=True)  # the store moves back: the log's who and when lost
    old = _old_rows(engine)
    assert len(old["deal_records"]) == 4 and len(old["event_results"]) == 4
    assert len(old["event_corrections"]) == 2
    assert {r[4] for r in old["deal_records"]} == {1, 2}  # the versions
    db.upgrade(engine)  # and into the store again, from both old tables
    assert _store_view(engine) == before
    history = [c for _, c in _log(engine) if c.action in ("correction", "ruling")]
    assert {(c.by, c.reason) for c in history} == {("Zhou", "typo"), ("director", "revoke")}
    db.downgrade(engine, "0004", force=True)
    assert _old_rows(engine) == old  # there and back again: nothing lost
    db.upgrade(engine)
    # what the old tables cannot hold refuses the downgrade, nothing changed
    rec = _played()[3]
    store.report_result(engine, Slot(_key(rec), "2"), Author("N", "phone"), ns_result=1)
    with pytest.raises(DatabaseError, match="reported without a record"):
        db.downgrade(engine, "0004")
    assert db.current_revision(engine) == db.head_revision()
    with engine.connect() as conn:
        assert conn.execute(select(models.RoomResult.id)).all()


# --- the command line -----------------------------------------------------------------


def test_cli_reports_a_result_and_shows_the_log(migrated_url: str, migrated_engine: Engine) -> None:
    from click.testing import CliRunner

    from cli import main

    events.create_event(migrated_engine, "Cli", seed="ab", boards_per_round=1)
    for i in (1, 2):
        events.add_team(migrated_engine, "Cli", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])
    events.pair_round(migrated_engine, "Cli")
    events.assign_boards(migrated_engine, "Cli", 1, seed=SEED)
    (text_,) = events.bot_records(migrated_engine, "Cli", 1)
    open_rec = gdn.loads(text_)[0]
    runner = CliRunner()
    room = ["--round", "1", "--table", "1", "--board", "1", "--room", "open"]
    base = ["event", "--db", migrated_url]
    ok = runner.invoke(
        main, [*base, "result", "Cli", *room, "--finish", _finish(open_rec), "--by", "P11"]
    )
    assert ok.exit_code == 0, ok.output
    assert ok.output.endswith("(report)\n") and "no result ->" in ok.output
    again = runner.invoke(
        main,
        [
            *base,
            "result",
            "Cli",
            *room,
            "--result",
            "NS +1" if _ns(open_rec) < 0 else "EW +1",
            "--by",
            "P12",
        ],
    )
    assert again.exit_code == 1 and "correction" in again.output  # disagrees: refused
    usage = runner.invoke(main, [*base, "result", "Cli", *room, "--by", "P11"])
    assert usage.exit_code == 2 and "--finish or --result" in usage.output
    events.import_texts(migrated_engine, "Cli", [text_], by="scorer")
    shown = runner.invoke(main, [*base, "history", "Cli", *room, "--json"])
    assert shown.exit_code == 0, shown.output
    log = json.loads(shown.output)
    assert [(c["action"], c["by"]) for c in log] == [("report", "P11"), ("attach", "scorer")]
    assert all(c["at"].endswith("+00:00") and c["reason"] for c in log)
    assert log[1]["before"] == log[0]["after"]


def test_a_finishing_order_gives_the_result_of_rules_section_7() -> None:
    from duplicate.store import result_of_finish
    from engine.ruleset import Ruleset

    assert result_of_finish("N S") == 3  # 双下: the first two are partners
    assert result_of_finish("E W", Ruleset(double_down_plus4=True)) == -4
    assert result_of_finish("w, n, e") == -2  # partner third
    assert result_of_finish("S E W N") == 1  # partner last
    for bad in ("N E", "N N S", "N X S", ""):
        with pytest.raises(StoreError):
            result_of_finish(bad)


def test_a_bad_finishing_order_is_named_as_written() -> None:
    """The refusal shows the seats (``'N N E'``), not Python's ``<Seat.N: 0>``, whether
    the order came as text or as seats (the hall's phones send text, parsed first)."""
    from engine.seat import Seat

    for finish in ("N n E", [Seat.N, Seat.N, Seat.E]):
        with pytest.raises(store.StoreError) as exc:
            store.result_of_finish(finish)
        assert "'N N E'" in str(exc.value) and "Seat" not in str(exc.value)
