"""Every play the seat had, valued: ``annotate.options`` values each action of a position
(one a type, rank and size), best for the seat's side first; where the position is settled
exactly the best of them is the position's own value, and the board page lists the plays
at the first divergence with their values and which room chose each."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from duplicate import events
from duplicate.analysis.annotate import annotate, decision_at, options
from duplicate.analysis.estimate import Budget
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.events.site import write_event_site
from duplicate.gdn import loads

DATA = Path(__file__).parent / "golden" / "analyse_openguandan_4_deals.gdn"
BUDGET = Budget(playouts=2, seed=1, cards=20)


def test_the_best_play_is_worth_the_position_where_it_is_exact() -> None:
    record = loads(DATA.read_bytes())[2]
    ann = annotate(record, "last:3", budget=BUDGET)
    checked = 0
    for d in ann.decisions:
        if not d.before.exact:
            continue
        found, count = options(record, d.ply, budget=BUDGET)
        assert len(found) == count >= 1 and all(e.exact for _, e in found)
        sign = 1 if d.seat.value % 2 == 0 else -1
        values = [sign * e.value for _, e in found]
        assert values == sorted(values, reverse=True)  # best for the side to play first
        assert found[0][1].value == d.before.value  # best play keeps the position's value
        checked += 1
    assert checked >= 5


def test_a_limit_values_the_rooms_choices_and_the_bombs_first() -> None:
    record = loads(DATA.read_bytes())[0]
    budget = Budget(playouts=1, seed=1, cards=8)
    lead = decision_at(record, 0, budget=budget).action  # the first lead: 27 cards
    assert lead is not None and not lead.is_bomb_class
    every, total = options(record, 0, budget=budget)
    bombs = [c for c, _ in every if c is not None and c.is_bomb_class]
    assert len(every) == total > 6 and len(bombs) >= 2
    found, count = options(record, 0, budget=budget, keep=[lead], limit=3)
    assert count == total and len(found) == 3
    kinds = {(c.type, c.rank, c.size) for c, _ in found if c is not None}
    assert (lead.type, lead.rank, lead.size) in kinds  # the room's own choice, then bombs
    assert sum(c is not None and c.is_bomb_class for c, _ in found) == 2


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory, _sqlite_template: Path) -> str:
    base = tmp_path_factory.mktemp("options")
    path = base / "event.sqlite"
    shutil.copyfile(_sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        events.create_event(engine, "Options Cup", seed="c33", fmt="rr", rounds=1,
                            boards_per_round=1)
        for team, players in (("A", ["a1", "a2", "a3", "a4"]), ("B", ["b1", "b2", "b3", "b4"])):
            events.add_team(engine, "Options Cup", team, players)
        events.pair_round(engine, "Options Cup")
        events.assign_boards(engine, "Options Cup", 1,
                             seed=parse_seed_file(seed_file_bytes(bytes(32))))
        events.import_texts(engine, "Options Cup", events.bot_records(engine, "Options Cup", 1),
                            round_no=1)
        write_event_site(engine, "Options Cup", str(base / "rep"), "en",
                         Budget(playouts=2, seed=1, cards=16))
    finally:
        engine.dispose()
    return next((base / "rep").glob("board-*.html")).read_text(encoding="utf-8")


def test_the_board_page_lists_the_plays_at_the_divergence_valued(page: str) -> None:
    # a side's label as its text (the page keeps it on one line in a span.side)
    page = re.sub(r'<span class="side">(N–S|E–W)</span>', r"\1", page)
    table = re.search(r'<table class="options">(.*?)</table>', page, re.S)
    assert table, page
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", table.group(1))
    assert len(rows) >= 2
    assert all(value.startswith("N–S ") for _, value, _ in rows)
    rooms = " ".join(r for _, _, r in rows)
    assert "Open room" in rooms and "Closed room" in rooms  # each room's choice is listed
    assert re.search(r"The plays possible there \(\d+\), \d+ of them valued", page)
