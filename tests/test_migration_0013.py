"""Migration 0013 (the desk's clock controls) with data in it: a started, paused and
moved round survives a downgrade to 0008 (running, not moved) and an upgrade again, on
SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, text

from duplicate import db, events, hall
from duplicate.dealing import parse_seed_file, seed_file_bytes

EV = "Migration Cup"


def test_0013_down_and_up_with_a_paused_moved_clock(migrated_engine: Engine) -> None:
    engine = migrated_engine
    events.create_event(engine, EV, seed="5eed", fmt="rr", rounds=3, boards_per_round=2,
                        time_zone="UTC")  # what revision 0008 holds: its downgrade loses none
    for team in ("A", "B", "C", "D"):
        events.add_team(engine, EV, team, [f"{team}{i}" for i in range(4)])
    events.pair_round(engine, EV)
    events.assign_boards(engine, EV, 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
    t0 = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    hall.start_round(engine, EV, 1, "director", now=t0)
    hall.move_clock(engine, EV, 1, 7, "director", "late start", now=t0)
    hall.pause_clock(engine, EV, 1, "director", "alarm", now=t0 + timedelta(minutes=1))
    clock = hall.round_clock(engine, EV, 1, now=t0 + timedelta(minutes=3))
    assert clock.shift_seconds == 420 and clock.paused_at == t0 + timedelta(minutes=1)
    assert clock.ends_at == t0 + timedelta(minutes=50 + 7 + 2)  # paused 2 minutes so far

    db.downgrade(engine, "0008")
    with engine.connect() as conn:
        row = conn.execute(text("SELECT minutes, started_by FROM hall_rounds")).one()
        assert tuple(row) == (50, "director")
        columns = [c for c in conn.execute(text("SELECT * FROM hall_rounds")).keys()]
        assert "paused_at" not in columns and "shift_seconds" not in columns
    db.upgrade(engine)
    clock = hall.round_clock(engine, EV, 1, now=t0 + timedelta(minutes=3))
    assert clock.paused_at is None and clock.shift_seconds == 0
    assert clock.ends_at == t0 + timedelta(minutes=50) and clock.phase == "running"
