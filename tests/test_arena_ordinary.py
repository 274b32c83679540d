"""Ordinary matches (levels 2 to A, tribute) over the protocol: clients written from
PROTOCOL.md, every deal's record replayed, the levels as the engine's match computes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from protocol_client import play_four

from duplicate.arena.ordinary import OrdinaryResult, play_ordinary_match
from duplicate.arena.server import ArenaServer
from duplicate.dealing import generate_boards
from duplicate.gdn import load
from duplicate.replay import replay
from duplicate.simulate import simulation_key
from engine.match import level_up
from engine.seat import Side


def test_ordinary_match_with_tribute(tmp_path: Path) -> None:
    boards = list(generate_boards(simulation_key(b"\x33"), 40))

    async def main() -> tuple[OrdinaryResult, list[Any]]:
        async with ArenaServer(port=0) as srv:
            clients = asyncio.create_task(play_four(srv.url, ["first"] * 4))
            table = await srv.next_table(10)
            try:
                result = await play_ordinary_match(table, boards, ("ns", "ew"), max_deals=12,
                                                   out_dir=tmp_path)
            finally:
                await table.close()
            return result, await clients

    result, seen = asyncio.run(asyncio.wait_for(main(), 120))
    assert not result.faults and result.match.is_over
    n = len(result.records)
    assert 2 <= n <= 12
    for s in seen:
        assert s.problems == [] and len(s.episodes) == n and s.game_over
    recs = list(load(result.file.open(encoding="utf-8")))  # type: ignore[union-attr]
    levels, fails = (0, 0), (0, 0)
    owner: Side | None = None  # the first deal is both sides' (RULES.md §8)
    for k, rec in enumerate(recs):
        checked = replay(rec)
        assert checked.ok and checked.result is not None
        assert rec.level == (0 if owner is None else levels[owner])
        if k:
            assert "Tribute" in rec.tags  # every deal after the first has its tribute line
        update = level_up(levels, fails, owner, checked.result)
        levels, fails = update.levels, update.a_failures
        owner = update.next_owner
    assert levels == result.match.levels
    # --json gives the levels as numbers, 2..14, as the protocol's beginning writes a level
    assert result.summary()["levels"] == [lv + 2 for lv in levels]
    # where tribute was paid, the hands at play are the dealt ones after the cards given
    from engine.cards import parse_cards, size

    paid = 0
    for k, rec in enumerate(recs):
        tribute = rec.tags.get("Tribute", "")
        if "pays" not in tribute:
            assert rec.hands == boards[k].hands
            continue
        paid += 1
        hands = list(boards[k].hands)
        for part in tribute.split("; "):
            giver, _, card, _, receiver = part.split()
            seat_of = {"N": 0, "E": 1, "S": 2, "W": 3}
            hands[seat_of[giver]] -= parse_cards(card)
            hands[seat_of[receiver]] += parse_cards(card)
        assert tuple(hands) == rec.hands
        assert all(size(h) == 27 for h in rec.hands)
    assert paid
