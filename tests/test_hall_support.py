"""Shared set-up of the hall library's tests (tests/test_hall_*.py): a 4-team event on
the database of each backend, round 1 paired and dealt, table cards issued."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.dealing import parse_seed_file, seed_file_bytes

EVENT = "Hall <Cup> & 'Co'"
TEAMS = (
    ("Dragons", ["Zhang Wei", "Li Na", "Wang Fang", "Chen Jing"]),
    ("Tigers", ["Zhao Min", "Huang Tao", "Liu Yang", "Yang Lei"]),
    ("龙队", ["张伟", "李娜", "王芳", "陈静"]),
    ("虎队", ["赵敏", "黄涛", "刘洋", "杨磊"]),
)
#: The round's start in every test (the clock is moved by ``now=``): a minute ago (calls made without ``now`` use the real clock, so the
#: round must be running when the tests run; a fixed date would expire).
T0 = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=1)
#: Finishing orders used for boards (varied results: ±1, ±2, ±3).
ORDERS = ("N S", "E S W", "W N E", "S E N", "E W", "N W S", "W E", "S N")


#: Table cards by (table, room).
Cards = dict[tuple[int, str], hall.TableCard]


def minutes(n: float) -> datetime:
    """``n`` minutes after the round's start."""
    return T0 + timedelta(minutes=n)


def make_event(
    engine: Engine, boards: int = 4, scale: str = "wdl", start: bool = True
) -> dict[tuple[int, str], hall.TableCard]:
    """The event, round 1 paired, boards dealt, clock started at T0; cards by (table, room)."""
    events.create_event(
        engine, EVENT, seed="5eed", fmt="rr", rounds=3, boards_per_round=boards, scale=scale
    )
    for team, players in TEAMS:
        events.add_team(engine, EVENT, team, players)
    events.pair_round(engine, EVENT)
    events.assign_boards(engine, EVENT, 1, seed=parse_seed_file(seed_file_bytes(bytes(range(32)))))
    cards = hall.issue_tokens(engine, EVENT, 1, "director")
    if start:
        hall.start_round(engine, EVENT, 1, "director", now=T0)
    return {(c.table, c.room): c for c in cards}


def order_for(table: int, room: str, board: int) -> str:
    """A finishing order, different across tables, rooms and boards."""
    return ORDERS[(board * 3 + table * 2 + (room == "closed")) % len(ORDERS)]


def report_all(
    engine: Engine,
    cards: dict[tuple[int, str], hall.TableCard],
    skip: set[tuple[int, str, int]] = frozenset(),  # type: ignore[assignment]
    confirm: bool = True,
) -> list[hall.Report]:
    """Every West reports every board (``order_for``), every North confirms."""
    out = []
    boards = events.get_round(engine, EVENT, 1).boards
    for (table, room), card in sorted(cards.items()):
        west = hall.grant_for(engine, card.report_token, now=minutes(20))
        north = hall.grant_for(engine, card.confirm_token, now=minutes(20))
        for b in boards:
            if (table, room, b) in skip:
                continue
            rep, _ = hall.west_report(engine, west, b, finish=order_for(table, room, b))
            if confirm:
                rep = hall.north_confirm(engine, north, b, rep.id)
            out.append(rep)
    return out
