"""Two and four processes writing the store at once, on every backend: the same and
overlapping imports (``import``, ``import --per deal``, ``event import``), results,
corrections and hall confirmations. Each thing is stored once, every log chain is whole,
and what each process says is true."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from store_race import check_store, count, race
from test_event_import_fixes import make_round

from duplicate import events, gdn, hall, models, records
from duplicate.db import make_engine
from duplicate.store import Author

EXAMPLE = Path(__file__).parent / "golden" / "gdn" / "openguandan-26-deals.gdn"


def _deals(tmp_path: Path, name: str, first: int, last: int) -> Path:
    """A file of the example's deals ``first`` to ``last`` (0-based, inclusive)."""
    recs = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))[first : last + 1]
    path = tmp_path / name
    path.write_text(gdn.dumps(recs), encoding="utf-8")
    return path


def _import(path: Path, per: str) -> Any:
    def job(engine: Engine) -> list[tuple[str | None, str, str | None]]:
        outs = records.import_files(engine, [path], per=per)  # type: ignore[arg-type]
        return [(o.board, o.status, o.error) for o in outs]

    return job


@pytest.mark.parametrize(("per", "n"), [("deal", 2), ("deal", 4), ("file", 4)])
def test_one_file_imported_by_several_at_once_is_stored_once(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path, n: int, per: str
) -> None:
    path = _deals(tmp_path, "a.gdn", 0, 7)
    outs = race(migrated_url, migrated_engine, [_import(path, per)] * n)
    assert count(migrated_engine, models.PlayRecord) == 8, outs  # no orphan copies
    assert count(migrated_engine, models.ResultChange) == 8
    assert count(migrated_engine, models.RoomResult) == 8
    said: Counter[tuple[str | None, str]] = Counter()
    for out in outs:
        assert not isinstance(out, BaseException), out
        said.update((board, status) for board, status, _ in out)
    boards = {str(b) for b in range(1, 9)}
    # each deal stored by exactly one process, "unchanged" for the others: no false message
    assert said == Counter({(b, "stored"): 1 for b in boards} | {(b, "unchanged"): n - 1
                                                                 for b in boards}), said
    check_store(migrated_engine)
    # and the room is still version 1 for a later import
    again = records.import_files(migrated_engine, [path], per="deal")
    assert {(o.status, o.version) for o in again} == {("unchanged", 1)}


@pytest.mark.parametrize("n", [4])
def test_overlapping_files_imported_at_once_store_each_deal_once(
    migrated_url: str, migrated_engine: Engine, tmp_path: Path, n: int
) -> None:
    a = _deals(tmp_path, "a.gdn", 0, 5)
    b = _deals(tmp_path, "b.gdn", 3, 9)
    jobs = [_import(a if i % 2 else b, "file" if i < 2 else "deal") for i in range(n)]
    outs = race(migrated_url, migrated_engine, jobs)
    assert count(migrated_engine, models.PlayRecord) == 10, outs
    assert count(migrated_engine, models.ResultChange) == 10
    stored = Counter(board for out in outs for board, status, _ in out if status == "stored")
    assert stored == Counter({str(i): 1 for i in range(1, 11)}), outs
    assert all(s in ("stored", "unchanged") for out in outs for _, s, _ in out), outs
    check_store(migrated_engine)


def _reported_round(engine: Engine) -> tuple[list[str], int]:
    """Event "Cup", round 1 played by the bots; every room's result reported without a
    record (the finishing order of the bots' record, as a phone would). The texts, rooms."""
    texts = make_round(engine)
    rooms = 0
    for table, text in enumerate(texts, start=1):
        for rec in gdn.loads(text):
            assert rec.finish is not None and rec.board and rec.room
            events.report_result(
                engine, "Cup", 1, table, int(rec.board), rec.room.lower(),
                Author("phone", "reported at the table"),
                finish=" ".join(s.name for s in rec.finish),
            )  # fmt: skip
            rooms += 1
    return texts, rooms


@pytest.mark.parametrize("n", [2, 4])
def test_event_imports_at_once_back_each_reported_result_once(
    migrated_url: str, migrated_engine: Engine, n: int
) -> None:
    texts, rooms = _reported_round(migrated_engine)

    def job(order: int) -> Any:
        def run(engine: Engine) -> dict[str, Any]:
            mine = texts if order % 2 == 0 else texts[::-1]  # overlapping, other order
            return events.import_texts(engine, "Cup", mine).to_dict()

        return run

    outs = race(migrated_url, migrated_engine, [job(i) for i in range(n)])
    assert count(migrated_engine, models.PlayRecord) == rooms, outs
    attach = models.ResultChange.action == "attach"
    assert count(migrated_engine, models.ResultChange, attach) == rooms
    assert all(isinstance(o, dict) for o in outs), outs
    assert sum(o["added"] for o in outs) == rooms, outs  # each room backed once
    assert sum(o["unchanged"] for o in outs) == rooms * (n - 1), outs
    check_store(migrated_engine)


@pytest.mark.parametrize("n", [4])
def test_results_and_corrections_at_once_keep_every_chain_whole(
    migrated_url: str, migrated_engine: Engine, n: int
) -> None:
    make_round(migrated_engine)
    author = Author("phone", "reported at the table")
    finish = ("N S", "E W", "N E S", "W S E")

    def report(engine: Engine) -> list[bool]:  # the same result, from every process
        return [
            events.report_result(engine, "Cup", 1, 1, b, room, author, finish=finish[b])
            is not None
            for b in (1, 2) for room in ("open", "closed")
        ]  # fmt: skip

    outs = race(migrated_url, migrated_engine, [report] * n)
    assert not any(isinstance(o, BaseException) for o in outs), outs
    assert [sum(col) for col in zip(*outs, strict=True)] == [1, 1, 1, 1]  # logged once each
    assert count(migrated_engine, models.ResultChange) == 4

    def correct(i: int) -> Any:
        def run(engine: Engine) -> None:
            fix = events.Correction(reason=f"ruling {i}", by=f"TD {i}")
            for b in (1, 2):
                events.correct_result(engine, "Cup", 1, 1, b, "open", (-1) ** i * (i % 3 + 1), fix)
                events.record_unfinished(engine, "Cup", 1, 1, b, f"time {i}", ("closed",), fix)

        return run

    outs = race(migrated_url, migrated_engine, [correct(i) for i in range(n)])
    assert outs == [None] * n, outs
    rooms = check_store(migrated_engine)
    assert sorted(len(chain) for chain in rooms.values()) == [1 + n] * 4  # every one logged


def test_a_hall_confirmation_racing_an_import_counts_once(
    migrated_url: str, migrated_engine: Engine
) -> None:
    from test_hall_support import EVENT, make_event, minutes

    cards = make_event(migrated_engine, boards=2)
    (table, room), card = sorted(cards.items())[0]
    west = hall.grant_for(migrated_engine, card.report_token, now=minutes(20))
    north = hall.grant_for(migrated_engine, card.confirm_token, now=minutes(20))
    reps = [hall.west_report(migrated_engine, west, b, finish="N S")[0] for b in (1, 2)]

    def confirm(engine: Engine) -> list[str]:
        return [hall.north_confirm(engine, north, r.board, r.id).state for r in reps]

    def report(engine: Engine) -> list[bool]:
        return [
            events.report_result(engine, EVENT, 1, table, r.board, room,
                                 Author("TD", "from the score sheet"), finish="N S")
            is not None
            for r in reps
        ]  # fmt: skip

    outs = race(migrated_url, migrated_engine, [confirm, report, confirm, report])
    assert not any(isinstance(o, BaseException) for o in outs), outs
    assert outs[0] == outs[2] == ["confirmed", "confirmed"]
    rooms = check_store(migrated_engine)
    assert sorted(len(c) for c in rooms.values()) == [1, 1]  # the same result, logged once
    engine = make_engine(migrated_url)
    try:
        assert count(engine, models.ResultChange) == 2
    finally:
        engine.dispose()


def test_a_correction_back_to_an_earlier_record_reuses_its_row(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    """One row per record text of a room: A, corrected to B, corrected back to A."""
    a = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))[0]
    b = dataclasses.replace(a, comments=[*a.comments, "retyped by the director"])
    fix = records.Correction(reason="retyped", by="TD")
    first = records.import_records(migrated_engine, [a])
    assert [(o.status, o.version) for o in first] == [("stored", 1)]
    outs = [records.import_records(migrated_engine, [r], correction=fix)[0] for r in (b, a)]
    assert [(o.status, o.version) for o in outs] == [("corrected", 2), ("corrected", 1)]
    assert outs[1].record_id == first[0].record_id
    assert [s.id for s in records.stored_records(migrated_engine)] == [first[0].record_id]
    assert count(migrated_engine, models.PlayRecord) == 2
    assert len(check_store(migrated_engine)[1]) == 3  # three changes, one chain
