"""The standings' version (``hall.standings_version``, the ETag phones poll with): it must
change whenever the standings may have (a missed change would show stale standings) and
should not change with a result of a round still coming in (every poll would recompute).
The round it finds complete must be the library's, rulings that excuse rooms included."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import Engine
from test_hall_support import EVENT, Cards, make_event, minutes, order_for

from duplicate import events, hall
from duplicate.db import session_scope
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.hall import versions
from duplicate.hall.rows import event_row

ROOMS = ("open", "closed")


@pytest.fixture
def cards(migrated_engine: Engine) -> Cards:
    return make_event(migrated_engine)


def through_fast(engine: Engine) -> int:
    with session_scope(engine) as session:
        return versions.complete_through(session, event_row(session, EVENT))


def answer(engine: Engine) -> tuple[object, ...]:
    live = hall.live_standings(engine, EVENT)
    return (live.rows, live.through, live.provisional)


def confirm(engine: Engine, cards: Cards, table: int, room: str, board: int) -> None:
    west = hall.grant_for(engine, cards[(table, room)].report_token, now=minutes(20))
    north = hall.grant_for(engine, cards[(table, room)].confirm_token, now=minutes(20))
    rep, _ = hall.west_report(engine, west, board, finish=order_for(table, room, board))
    hall.north_confirm(engine, north, board, rep.id)


def test_reports_of_a_round_coming_in_leave_the_version_until_it_completes(
    migrated_engine: Engine, cards: Cards
) -> None:
    e = migrated_engine
    boards = events.get_round(e, EVENT, 1).boards
    slots = [(t, room, b) for (t, room) in sorted(cards) for b in boards]
    before = hall.standings_version(e, EVENT)
    results_seen = {hall.results_version(e, EVENT)}
    for slot in slots[:-1]:
        confirm(e, cards, *slot)
        results_seen.add(hall.results_version(e, EVENT))
        assert hall.standings_version(e, EVENT) == before, slot
        assert through_fast(e) == 0
    assert len(results_seen) == len(slots)  # the live results did move every time
    confirm(e, cards, *slots[-1])
    complete = hall.standings_version(e, EVENT)
    assert complete != before and through_fast(e) == 1 == hall.live_standings(e, EVENT).through
    assert hall.live_standings(e, EVENT).version == complete
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    hall.publish_round(e, EVENT, 1, "director", now=minutes(51))
    published = hall.standings_version(e, EVENT)
    assert published != complete  # no longer provisional
    was = events.match_boards(e, EVENT, 1, 1)[0].open_ns
    hall.director_correct(e, EVENT, 1, 1, boards[0], "open", -3 if was == 3 else 3, "director",
                          "sheet")  # fmt: skip
    corrected = hall.standings_version(e, EVENT)
    assert corrected != published
    events.pair_round(e, EVENT)
    paired = hall.standings_version(e, EVENT)
    assert paired != corrected
    events.rename_team(e, EVENT, "Tigers", "Lions", by="director", reason="typo")
    renamed = hall.standings_version(e, EVENT)
    assert renamed != paired and "Lions" in [r.team for r in hall.live_standings(e, EVENT).rows]


def test_the_version_is_no_hash_of_the_secret_seed(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    before = hall.standings_version(e, EVENT)
    with session_scope(e) as session:
        event_row(session, EVENT).seed = "another secret"
    assert hall.standings_version(e, EVENT) == before


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_equal_versions_mean_equal_standings_with_rulings(
    migrated_engine: Engine, cards: Cards, seed: int
) -> None:
    """Rooms come in in a random order, with a conceded board and a forfeit at random;
    after every step the round found complete is the library's, and an unchanged version
    has unchanged standings."""
    e = migrated_engine
    rng = random.Random(seed)
    boards = events.get_round(e, EVENT, 1).boards
    tables = sorted({t for t, _ in cards})
    teams = {m.table: (m.team_x, m.team_y) for m in events.list_matches(e, EVENT, 1)}
    slots = [(t, room, b) for (t, room) in sorted(cards) for b in boards]
    rng.shuffle(slots)
    conceded_at = rng.randrange(len(slots))
    forfeit_at = rng.randrange(len(slots)) if seed % 2 else None
    excused: set[tuple[int, int]] = set()
    forfeited: set[int] = set()
    seen: dict[str, tuple[object, ...]] = {}

    def check() -> None:
        version = hall.standings_version(e, EVENT)
        now = answer(e)
        assert through_fast(e) == events.event_standings(e, EVENT)[1]
        assert seen.setdefault(version, now) == now, "same version, other standings"

    check()
    for i, (t, room, b) in enumerate(slots):
        if i == conceded_at:
            board = rng.choice(boards)
            hall.record_ruling(e, EVENT, 1, t, "late", "conceded", "director", "late",
                               team=rng.choice(teams[t]), board=board)  # fmt: skip
            excused.add((t, board))
            check()
        if i == forfeit_at:
            table = rng.choice(tables)
            hall.record_ruling(e, EVENT, 1, table, "forfeit", "forfeit", "director", "absent",
                               team=teams[table][0])  # fmt: skip
            forfeited.add(table)
            check()
        if t in forfeited or (t, b) in excused:
            continue
        confirm(e, cards, t, room, b)
        check()
    assert events.event_standings(e, EVENT)[1] == 1


def test_a_second_round_coming_in_leaves_the_version(migrated_engine: Engine, cards: Cards) -> None:
    e = migrated_engine
    for t, room in sorted(cards):
        for b in events.get_round(e, EVENT, 1).boards:
            confirm(e, cards, t, room, b)
    hall.close_round(e, EVENT, 1, "director", now=minutes(50))
    hall.publish_round(e, EVENT, 1, "director", now=minutes(51))
    events.pair_round(e, EVENT)
    events.assign_boards(e, EVENT, 2, seed=parse_seed_file(seed_file_bytes(bytes(range(32)))))
    fresh = {(c.table, c.room): c for c in hall.issue_tokens(e, EVENT, 2, "director")}
    hall.start_round(e, EVENT, 2, "director", now=minutes(60))
    before = hall.standings_version(e, EVENT)
    boards = events.get_round(e, EVENT, 2).boards
    slots = [(t, room, b) for (t, room) in sorted(fresh) for b in boards]
    for t, room, b in slots[:-1]:
        west = hall.grant_for(e, fresh[(t, room)].report_token, now=minutes(70))
        north = hall.grant_for(e, fresh[(t, room)].confirm_token, now=minutes(70))
        rep, _ = hall.west_report(e, west, b, finish=order_for(t, room, b))
        assert hall.standings_version(e, EVENT) == before
        hall.north_confirm(e, north, b, rep.id)
        assert hall.standings_version(e, EVENT) == before, (t, room, b)
    t, room, b = slots[-1]
    west = hall.grant_for(e, fresh[(t, room)].report_token, now=minutes(70))
    north = hall.grant_for(e, fresh[(t, room)].confirm_token, now=minutes(70))
    rep, _ = hall.west_report(e, west, b, finish=order_for(t, room, b))
    hall.north_confirm(e, north, b, rep.id)
    assert hall.standings_version(e, EVENT) != before
    assert hall.live_standings(e, EVENT).through == 2
