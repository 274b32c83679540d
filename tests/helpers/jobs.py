"""An event with a round played by the bots, on any database, for the analysis jobs' tests
and bench; a PostgreSQL schema of its own for them (procrastinate's tables stay out of
the schema the migrations' tests compare with the models)."""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate import events
from duplicate.db import make_engine, upgrade
from duplicate.dealing import parse_seed_file, seed_file_bytes

EVENT = "Jobs Cup"


def play_round(engine: Engine, teams: int, boards: int, *, migrate: bool = False) -> None:
    """Create :data:`EVENT` (2 rounds) with ``teams`` teams and play its round 1 of ``boards`` boards
    by the bots."""
    if migrate:
        upgrade(engine)
    events.create_event(engine, EVENT, seed="a11", fmt="swiss", rounds=2,
                        boards_per_round=boards)
    for i in range(teams):
        events.add_team(engine, EVENT, f"Team {i + 1}",
                        [f"P{i}{seat}" for seat in ("a", "b", "c", "d")])
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
    events.import_texts(engine, EVENT, events.bot_records(engine, EVENT, 1), round_no=1)


def played_url(url: str, teams: int, boards: int) -> str:
    """``url``'s empty database migrated, with :func:`play_round`; ``url`` back."""
    engine = make_engine(url)
    try:
        play_round(engine, teams, boards, migrate=True)
    finally:
        engine.dispose()
    return url
