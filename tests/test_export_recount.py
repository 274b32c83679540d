"""An event's export carries its byes and withdrawals (``Bye`` and ``Withdrawn`` tags on
the records of their round, docs/FORMAT.md), and an import reads them back: into a fresh
database, the export alone (its records, round by round, with the event created and each
round paired and dealt as the director would) gives the same standings, byes and
withdrawals; a ``Bye`` the round does not have is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.hall import EVENT, open_hall
from sqlalchemy import Engine

from duplicate import db, events
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.gdn import format_record, loads
from duplicate.records import Correction

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
TEAMS = [(f"Team {c}", [f"{c}{i}" for i in range(1, 5)]) for c in "ABCDE"]
EV = "Recount Cup"


def _create(engine: Engine) -> None:
    events.create_event(engine, EV, seed="5eed" * 4, fmt="swiss", rounds=3,
                        boards_per_round=1, scale="vp20", teams=TEAMS)


def _round(engine: Engine, n: int) -> None:
    events.pair_round(engine, EV)
    events.assign_boards(engine, EV, n, seed=SEED)


def _by_round(text: str) -> dict[int, str]:
    """The export's records of each round, as .gdn text."""
    out: dict[int, list[str]] = {}
    for rec in loads(text):
        out.setdefault(int(rec.tags["Round"]), []).append(format_record(rec))
    return {n: "\n".join(texts) + "\n" for n, texts in out.items()}


def _table(engine: Engine) -> list[tuple[object, ...]]:
    rows, through = events.event_standings(engine, EV)
    return [(through, r.rank, r.team, r.points, r.progressive, r.rounds_won, r.swing,
             r.levels, r.opponents_points, r.played) for r in rows]


@pytest.fixture
def played(migrated_engine: Engine) -> Engine:
    """Five teams (a bye each round), Team E withdrawn after round 2, three rounds played."""
    _create(migrated_engine)
    for n in (1, 2):
        _round(migrated_engine, n)
        events.play_bots(migrated_engine, EV, n)
    events.withdraw_team(migrated_engine, EV, "Team E", by="TD Wu", reason="went home")
    _round(migrated_engine, 3)
    events.play_bots(migrated_engine, EV, 3)
    return migrated_engine


def test_the_export_alone_recounts_the_standings_in_a_fresh_database(
    played: Engine, tmp_path: Path
) -> None:
    exported = events.export_records(played, EV, results=True)
    rounds = _by_round(exported)
    byes = {b.round: b.team for b in events.round_byes(played, EV)}
    assert set(byes) == {1, 2}  # five teams, then four
    for n, text in rounds.items():
        recs = loads(text)
        assert {r.tags.get("Bye") for r in recs} == {byes.get(n)}
        assert {r.tags.get("Withdrawn") for r in recs} == {"Team E" if n == 2 else None}
    assert "; round 2: withdrawn Team E" in exported and "; round 1: bye " in exported

    fresh = db.make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    try:
        db.upgrade(fresh)
        _create(fresh)
        for n in (1, 2, 3):
            _round(fresh, n)
            done = events.import_texts(fresh, EV, [rounds[n]], by="recount")
            assert done.added == done.records > 0
        assert _table(fresh) == _table(played)
        assert events.withdrawals(fresh, EV) == events.withdrawals(played, EV) == {"Team E": 2}
        assert {b.round: b.team for b in events.round_byes(fresh, EV)} == byes
        [entry] = [e for e in events.admin_log(fresh, EV) if e["action"] == "withdraw team"]
        assert entry["by"] == "recount" and "imported export" in entry["reason"]
        # its own export, imported again, is all there already: nothing stored, nothing logged
        again = events.import_texts(fresh, EV, [events.export_records(fresh, EV)])
        assert again.added == 0 and again.unchanged == again.records
        assert len(events.admin_log(fresh, EV)) == 1
    finally:
        fresh.dispose()


def test_a_bye_tag_the_round_does_not_have_is_refused(played: Engine) -> None:
    text = events.export_records(played, EV, 1)
    [bye] = {r.tags["Bye"] for r in loads(text)}
    other = next(t for t, _ in TEAMS if t != bye)
    with pytest.raises(events.EventError, match="Bye tag"):
        events.import_texts(played, EV, [text.replace(f'[Bye "{bye}"]', f'[Bye "{other}"]')])
    with pytest.raises(events.EventError, match="not a team"):
        events.import_texts(played, EV, [text.replace("[Board ", '[Withdrawn "Nobody"]\n[Board ')])


def test_a_table_reporting_a_board_unfinished_for_time_exports_why(migrated_url: str) -> None:
    """West reports board 1 unfinished (time), North confirms: the export's
    UnfinishedReason says why the board was not finished, as a director's mark would
    ("unfinished: time"), not how the report came in."""
    for h in open_hall(migrated_url):
        r = h.report(1, "open", 1, unfinished="time")
        assert r.status_code in (200, 201), r.text
        assert h.confirm(1, "open", r.json()["id"]).status_code == 200
        out = loads(events.export_records(h.engine, EVENT,
                                          unreleased=Correction("check", "TD Wu")))
        [rec] = [x for x in out if (x.tags["Table"], x.board, x.room) == ("1", "1", "Open")]
        assert rec.tags["Unfinished"] == "time"
        assert rec.tags["UnfinishedReason"] == "unfinished: time"
        assert "confirmed by North" not in rec.tags["UnfinishedReason"]
