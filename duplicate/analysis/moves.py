"""Plays of a hand for the solver: every concrete play, provably equivalent ones once.

The engine's generator (:mod:`engine.moves`) gives every concrete legal play: every reading
of every choice of cards (RULES.md §2–4). Two plays are equivalent for the rest of the
deal when they leave the same hand key (:mod:`duplicate.analysis.state`: the same per-rank counts
and the same cards whose suit can still matter) and make the same play to beat (type, rank,
and size for a bomb). Only one of each class is searched.

The plays of a hand against a given play to beat do not depend on the rest of the position,
so :class:`PlayTable` keeps them, already grouped and ordered: plays that empty the hand
first, then the other non-bomb plays with the most cards first (then strongest first), then
bombs, straight flushes and the joker bomb, weakest first (bombs are precious).
"""

from __future__ import annotations

from typing import NamedTuple

from duplicate.analysis.state import HandKeys, beat_signature
from engine.cards import Cards
from engine.combo import Combo
from engine.moves import legal_plays
from engine.ruleset import COMPETITION, Ruleset

__all__ = ["Play", "PlayTable", "grouped_plays"]


class Play(NamedTuple):
    """One play of a class of equivalent plays: the combination, the hand it leaves,
    that hand's key and the play's :func:`~duplicate.analysis.state.beat_signature`."""

    combo: Combo
    left: Cards
    key: int
    sig: int


def grouped_plays(
    hand: Cards,
    level: int,
    to_beat: Combo | None,
    rules: Ruleset,
    keys: HandKeys,
) -> list[Play]:
    """The legal plays of ``hand`` (beating ``to_beat``), one per equivalence class, in
    search order (see the module docstring)."""
    seen: set[tuple[int, int]] = set()
    out: list[tuple[tuple[int, int, int], Play]] = []
    for combo in legal_plays(hand, level, to_beat, rules):
        left = hand - combo.cards
        k = keys(left)
        sig = beat_signature(combo)
        mark = (sig, k)
        if mark in seen:
            continue
        seen.add(mark)
        if not left:
            order = (0, 0, 0)
        elif combo.is_bomb_class:
            p = combo.power(level)
            order = (2, p[0] * 1000 + p[1] * 20 + p[2], 0)
        else:
            order = (1, _size_order(hand, left), combo.power(level)[2])
        out.append((order, Play(combo, left, k, sig)))
    out.sort(key=lambda x: x[0])
    return [p for _, p in out]


def _size_order(hand: Cards, left: Cards) -> int:
    """Minus the number of cards played (most cards first)."""
    played = hand - left
    n = 0
    while played:
        n += played & 7
        played >>= 3
    return -n


class PlayTable:
    """:func:`grouped_plays` remembered by (hand, play to beat) for one level and rules."""

    __slots__ = ("level", "rules", "keys", "table")

    #: ``table[(hand, sig)]``: the plays and the index of the first bomb-class play

    def __init__(self, level: int, rules: Ruleset = COMPETITION, keys: HandKeys | None = None):
        self.level = level
        self.rules = rules
        self.keys = keys if keys is not None else HandKeys(level)
        self.table: dict[tuple[Cards, int], tuple[list[Play], int]] = {}

    def entry(self, hand: Cards, to_beat: Combo | None, sig: int) -> tuple[list[Play], int]:
        """The grouped, ordered plays of ``hand`` against ``to_beat`` (signature ``sig``)
        and the index of the first bomb-class play among them (``len`` when none)."""
        got = self.table.get((hand, sig))
        if got is None:
            if len(self.table) > 400_000:
                self.table.clear()
            plays = grouped_plays(hand, self.level, to_beat, self.rules, self.keys)
            nb = 0
            while nb < len(plays) and not plays[nb].combo.is_bomb_class:
                nb += 1
            got = self.table[(hand, sig)] = (plays, nb)
        return got

    def plays(self, hand: Cards, to_beat: Combo | None, sig: int) -> list[Play]:
        """The grouped, ordered plays of ``hand`` against ``to_beat`` (signature ``sig``)."""
        return self.entry(hand, to_beat, sig)[0]
