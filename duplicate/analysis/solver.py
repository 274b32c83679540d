"""Exact value of a deal's position with all four hands known (RULES.md §6–7).

The value is the result of the deal for N–S in levels (+3 … −3, ±4 under
``double_down_plus4``; never 0) when N and S play to maximise it and E and W to minimise
it, every hand seen by everyone. A deal only has six possible values, so the search asks
yes/no questions, "is the value at least ``t``?", a null-window search whose answers
bisect the six values (MTD-style). Each question is an AND/OR search:

* a transposition table keyed by the position with hands reduced to their keys
  (:mod:`duplicate.analysis.state`) holds a lower and an upper bound and the child that last gave a
  cut, tried first next time;
* plays equivalent for the rest of the deal are searched once (:mod:`duplicate.analysis.moves`);
* move ordering: plays that empty a hand, passing when the partner's play is winning,
  the other plays with the most cards first, passing, bombs last;
* cheap bounds: once a player is out, their side's result is known to lie in 1..3 (or
  1..2 after an opponent is out second); a side to act that can play its whole hand in
  one legal play goes out at once (it is tried first).

:class:`Solver` counts nodes and stops with :class:`BudgetExceeded` past a node or time
budget: callers then fall back to an estimate (:mod:`duplicate.analysis.estimate`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from duplicate.analysis.moves import PlayTable
from duplicate.analysis.state import (
    HandKeys,
    Position,
    beat_signature,
    deal_result_value,
    max_value,
    possible_values,
)
from engine import core as _core
from engine.cards import FULL_PACK, HAND_SIZE, Cards, is_subset, size
from engine.combo import Combo
from engine.errors import GuandanError
from engine.moves import _check_combo
from engine.reading import check_cards, reading_keys
from engine.ruleset import COMPETITION, Ruleset

__all__ = ["BudgetExceeded", "Child", "Solver", "check_position", "children", "step"]

#: the compiled search (duplicate/analysis/_native), loaded once whatever GUANDAN_CORE
#: chose (``Solver.c_value`` calls it), or None
NATIVE: Any = _core.load_layer("duplicate.analysis._native._solver", Path(__file__).parent / "_native",
                          _core.ENGINE_C)

#: True when the solver's public methods are the compiled search's (bound at import)
_CHOSEN = NATIVE is not None and _core.native is not None

_INF = 99
#: ``_NEXT[out][seat]``: the next seat after ``seat`` still holding cards
_NEXT = [
    [next(((s + i) & 3 for i in range(1, 5) if not out >> ((s + i) & 3) & 1), -1) for s in range(4)]
    for out in range(16)
]
_POP = [bin(m).count("1") for m in range(16)]

#: a child position: the play (``None`` for a pass), and either the value of the deal it
#: ends (an ``int``) or the position it leads to
Child = tuple[Combo | None, "int | Position"]


class BudgetExceeded(Exception):
    """The search went past its node or time budget before it settled the value
    (``by_time``: the time budget)."""

    def __init__(self, message: str, by_time: bool = False) -> None:
        super().__init__(message)
        self.by_time = by_time


class Solver:
    """Exact solver for positions of deals at one ``level`` under ``rules``.

    The transposition table lives as long as the solver: solving several positions of one
    deal (an annotation) reuses it. Past ``table_limit`` entries (about 300 bytes each) it
    is emptied, which costs time but never correctness: it holds bounds only. ``max_nodes`` and ``max_seconds`` bound each call of
    :meth:`value` (``None``: no bound).
    """

    def __init__(
        self,
        level: int,
        rules: Ruleset = COMPETITION,
        max_nodes: int | None = None,
        max_seconds: float | None = None,
        table_limit: int = 1_500_000,
    ) -> None:
        self.level = level
        self.rules = rules
        self.keys = HandKeys(level)
        self.plays = PlayTable(level, rules, self.keys)
        self._ptable = self.plays.table
        self.values = possible_values(rules)
        self.dd = max_value(rules)
        self.jiefeng_next = rules.jiefeng_next
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.table_limit = table_limit
        self.tt: dict[tuple[object, ...], list[int]] = {}
        self._walk_cache: dict[tuple[Cards, Cards, Cards], bool] = {}
        self.nodes = 0
        self.lookups = 0
        self.hits = 0
        self._deadline = 0.0
        self._node_limit = 0
        self._next_check = 0
        self._native: Any = None  # the compiled core's solver, made at the first value()

    # --- public -------------------------------------------------------------------------

    def py_value(self, pos: Position) -> int:
        """The exact value of ``pos`` for N–S; raises :class:`BudgetExceeded`, and
        :class:`GuandanError` for a position no deal has (:func:`check_position`)."""
        check_position(pos, self.level, self.rules)
        self._arm()
        vals = self.values
        lo, hi = 0, len(vals) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.at_least(pos, vals[mid]):
                lo = mid
            else:
                hi = mid - 1
        return vals[lo]

    def c_value(self, pos: Position) -> int:
        """:meth:`py_value`, the search run in the compiled core (docs/CORE.md): the same
        value, its own tables (kept between calls, as this class keeps its own), the same
        node and time budgets."""
        check_position(pos, self.level, self.rules)
        return self._native_search(pos, 0)

    def py_test(self, pos: Position, t: int) -> bool:
        """True when the value of ``pos`` for N–S is at least ``t``: one null-window
        question, cheaper than :meth:`value`, within the same budgets (raises
        :class:`BudgetExceeded`). ``t`` is one of the possible values."""
        if t not in self.values:
            raise ValueError(f"{t} is not a possible value of a deal")
        check_position(pos, self.level, self.rules)
        self._arm()
        return self.at_least(pos, t)

    def c_test(self, pos: Position, t: int) -> bool:
        """:meth:`py_test`, the question asked of the compiled core."""
        if t not in self.values:
            raise ValueError(f"{t} is not a possible value of a deal")
        check_position(pos, self.level, self.rules)
        return bool(self._native_search(pos, t))

    #: bound once, to the implementation engine.core chose
    value = c_value if _CHOSEN else py_value
    test = c_test if _CHOSEN else py_test

    def _native_search(self, pos: Position, probe: int) -> int:
        """The compiled search's answer: the value (``probe`` 0) or whether it is at least
        ``probe`` (1 or 0); the budgets as :meth:`_check_budget` words them."""
        if self._native is None:  # made at the first question
            self._native = NATIVE.Solver(self.level, self.rules)
        got = self._native.value(
            pos.hands, pos.turn, pos.to_beat, pos.last, pos.passes, pos.first, pos.out,
            self.max_nodes, self.max_seconds, probe,
        )
        value, stop, nodes, lookups, hits = got
        self.nodes += nodes
        self.lookups += lookups
        self.hits += hits
        if stop == 1:
            raise BudgetExceeded(f"node budget of {self.max_nodes} exceeded")
        if stop == 2:
            raise BudgetExceeded(f"time budget of {self.max_seconds} s exceeded", by_time=True)
        return int(value)

    def _arm(self) -> None:
        """The budgets of one call of :meth:`value` or :meth:`test` set from now."""
        self._deadline = (
            time.perf_counter() + self.max_seconds if self.max_seconds is not None else 0.0
        )
        self._node_limit = self.nodes + self.max_nodes if self.max_nodes is not None else 0
        self._next_check = self.nodes
        if len(self.tt) > self.table_limit:
            self.tt.clear()

    def at_least(self, pos: Position, t: int) -> bool:
        """True when the value of ``pos`` for N–S is at least ``t`` (one null-window search)."""
        h = pos.hands
        k = self.keys
        return self._ge(
            h, (k(h[0]), k(h[1]), k(h[2]), k(h[3])), pos.turn, pos.to_beat,
            beat_signature(pos.to_beat), pos.last, pos.passes, pos.first, pos.out, t,
        )

    def hit_rate(self) -> float:
        """Share of table look-ups that found an entry."""
        return self.hits / self.lookups if self.lookups else 0.0

    # --- search -------------------------------------------------------------------------

    def _check_budget(self) -> None:
        if len(self.tt) > self.table_limit:  # bounds only: forgetting them is always safe
            self.tt.clear()
        if self._node_limit and self.nodes > self._node_limit:
            raise BudgetExceeded(f"node budget of {self.max_nodes} exceeded")
        if self._deadline and time.perf_counter() > self._deadline:
            raise BudgetExceeded(f"time budget of {self.max_seconds} s exceeded", by_time=True)
        step = 1024
        if self._node_limit:
            step = max(1, min(step, self._node_limit - self.nodes + 1))
        self._next_check = self.nodes + step

    def _ge(
        self,
        hands: tuple[Cards, ...],
        keys: tuple[int, ...],
        turn: int,
        tb: Combo | None,
        sig: int,
        last: int,
        passes: int,
        first: int,
        out: int,
        t: int,
    ) -> bool:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_budget()
        if first >= 0:  # the 1st player's side goes up 1..3 (1..2 once an opponent is out)
            top = self.dd if _POP[out] == 1 else 2
            if first & 1:
                if t <= -top:
                    return True
                if t > -1:
                    return False
            else:
                if t <= 1:
                    return True
                if t > top:
                    return False
        hand = hands[turn]
        got = self._ptable.get((hand, sig))
        if got is None:
            got = self.plays.entry(hand, tb, sig)
        plays, pass_at = got
        if not plays:  # nothing beats the play to beat: a forced pass, no table entry
            return self._pass(hands, keys, turn, tb, sig, last, passes, first, out, t)
        tkey = (keys, turn, sig, last, passes, first, out)
        self.lookups += 1
        entry = self.tt.get(tkey)
        if entry is None:
            entry = [-_INF, _INF, -1]
            self.tt[tkey] = entry
        else:
            self.hits += 1
            if entry[0] >= t:
                return True
            if entry[1] < t:
                return False
        if tb is None and self._walkover(hands, turn, out):
            # the leader goes out next, whatever the others do (see _walkover)
            lo, hi = self._walkover_range(turn, first, out)
            if lo >= t:
                entry[0] = max(entry[0], lo)
                return True
            if hi < t:
                entry[1] = min(entry[1], hi)
                return False
        maxing = not turn & 1
        # order: the plays in their own order, the pass just before the bombs (measured
        # best); the child that last gave a cut first
        if tb is None:
            pass_at = -1
            total = len(plays)
        else:
            total = len(plays) + 1
        best = entry[2]
        nxt = _NEXT[out][turn]
        ge = self._ge
        for j in range(-1, total):
            if j < 0:
                if best < 0:
                    continue
                i = best
            elif j == best:
                continue
            else:
                i = j
            if i == pass_at:
                r = self._pass(hands, keys, turn, tb, sig, last, passes, first, out, t)
            else:
                p = plays[i if pass_at < 0 or i < pass_at else i - 1]
                left = p.left
                if left:
                    r = ge(_replace(hands, turn, left), _replace(keys, turn, p.key), nxt,
                           p.combo, p.sig, turn, 0, first, out, t)
                else:
                    out2 = out | (1 << turn)
                    first2 = turn if first < 0 else first
                    if out2 >> ((turn + 2) & 3) & 1:
                        r = deal_result_value(first2, turn, _POP[out2], self.rules) >= t
                    else:
                        r = ge(_replace(hands, turn, 0), _replace(keys, turn, 0),
                               _NEXT[out2][turn], p.combo, p.sig, turn, 0, first2, out2, t)
            if r == maxing:
                if maxing:
                    if entry[0] < t:
                        entry[0] = t
                elif entry[1] >= t:
                    entry[1] = t - 1
                entry[2] = i
                return r
        if maxing:
            if entry[1] >= t:
                entry[1] = t - 1
        elif entry[0] < t:
            entry[0] = t
        return not maxing

    def _walkover(self, hands: tuple[Cards, ...], turn: int, out: int) -> bool:
        """True when the leader ``turn`` can play out its whole hand in plays that neither
        opponent can beat (its partner passing), the last play being anything: then it is
        the next player out."""
        o1 = hands[(turn + 1) & 3]
        o2 = hands[(turn + 3) & 3]
        key = (hands[turn], o1, o2)
        got = self._walk_cache.get(key)
        if got is None:
            if len(self._walk_cache) > 500_000:
                self._walk_cache.clear()
            got = self._walk(hands[turn], o1, o2, 0)
            self._walk_cache[key] = got
        return got

    def _walk(self, hand: Cards, o1: Cards, o2: Cards, depth: int) -> bool:
        plays = self.plays.plays(hand, None, -1)
        if not plays[0].left:  # plays that empty the hand come first
            return True
        if depth >= 4:
            return False
        tried = 0
        for p in plays:
            if p.combo.is_bomb_class and tried:
                break
            sig = beat_signature(p.combo)
            if (o1 and self.plays.plays(o1, p.combo, sig)) or (
                o2 and self.plays.plays(o2, p.combo, sig)
            ):
                continue
            tried += 1
            key = (p.left, o1, o2)
            got = self._walk_cache.get(key)
            if got is None:
                got = self._walk(p.left, o1, o2, depth + 1)
                self._walk_cache[key] = got
            if got:
                return True
        return False

    def _walkover_range(self, turn: int, first: int, out: int) -> tuple[int, int]:
        """Bounds on the value for N–S when ``turn`` is sure to be the next player out."""
        if first < 0:  # its side has the 1st player
            lo, hi = 1, self.dd
            side = turn
        elif (first ^ turn) & 1 == 0:  # its partner is 1st: 2nd (double down) or 3rd
            lo = hi = self.dd if _POP[out] == 1 else 2
            side = turn
        elif _POP[out] == 1:  # an opponent is 1st and no double down for them
            lo, hi = 1, 2
            side = first
        else:  # an opponent is 1st, its partner 2nd: both of this side out, 1st's side +1
            lo = hi = 1
            side = first
        return (lo, hi) if side & 1 == 0 else (-hi, -lo)

    def _pass(
        self,
        hands: tuple[Cards, ...],
        keys: tuple[int, ...],
        turn: int,
        tb: Combo | None,
        sig: int,
        last: int,
        passes: int,
        first: int,
        out: int,
        t: int,
    ) -> bool:
        p = passes + 1
        nout = _POP[out]
        holding = hands[last] != 0
        others = 3 - nout if holding else 4 - nout
        if p >= others:  # the trick ends (§6); 接风 when its winner is out
            if holding:
                leader = last
            elif self.jiefeng_next:
                leader = _NEXT[out][last]
            else:
                leader = (last + 2) & 3
            return self._ge(hands, keys, leader, None, -1, -1, 0, first, out, t)
        return self._ge(hands, keys, _NEXT[out][turn], tb, sig, last, p, first, out, t)


def check_position(pos: Position, level: int, rules: Ruleset = COMPETITION) -> None:
    """Raise :class:`GuandanError` (:class:`InvalidCardError` for a bad card value,
    :class:`InvalidComboError` for a play to beat that is no ``Combo``) unless ``pos`` is
    a position a deal at ``level`` can have: four valid hands of at most 27 cards, no card
    more than twice among them (two packs), the seats out exactly those without cards,
    and the turn, play to beat and 1st player out consistent. Both implementations of the
    search refuse the same positions with the same classes."""
    hands = pos.hands
    if not isinstance(hands, tuple | list) or len(hands) != 4:
        raise GuandanError("a position has 4 hands")
    for h in hands:
        check_cards(h, "hand")
    left = FULL_PACK
    for h in hands:
        if size(h) > HAND_SIZE:
            raise GuandanError(f"not a position that can occur in a deal: a hand of {size(h)} "
                               f"cards (at most {HAND_SIZE})")
        if not is_subset(h, left):
            raise GuandanError("not a position that can occur in a deal: the hands hold a card "
                               "more than twice (two packs)")
        left -= h
    turn, last, passes, first, out = pos.turn, pos.last, pos.passes, pos.first, pos.out
    ranges = ((turn, 0, 3), (last, -1, 3), (passes, 0, 3), (first, -1, 3), (out, 0, 15))
    if any(not isinstance(v, int) or not lo <= v <= hi for v, lo, hi in ranges):
        raise GuandanError("not a position: turn 0..3, last -1..3, passes 0..3, first -1..3, "
                           "out 0..15")
    tb = pos.to_beat
    if tb is not None:
        _check_combo(tb, "play to beat")
    if any((out >> i & 1) != (hands[i] == 0) for i in range(4)):
        raise GuandanError("not a position: the players out are those with no cards")
    if (
        hands[turn] == 0
        or (tb is not None) != (last >= 0)
        or (_POP[out] > 1 and first < 0)
        or (first >= 0 and not out >> first & 1)
        or (out and first < 0)
        or (out & 5 == 5)
        or (out & 10 == 10)
    ):
        raise GuandanError("not a position that can occur in a deal")
    if tb is not None and (tb.type, tb.rank) not in reading_keys(tb.cards, level, rules):
        raise GuandanError("the play to beat is no reading of its cards")


def _replace(t: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    if i == 0:
        return (v, t[1], t[2], t[3])
    if i == 1:
        return (t[0], v, t[2], t[3])
    if i == 2:
        return (t[0], t[1], v, t[3])
    return (t[0], t[1], t[2], v)


def step(pos: Position, combo: Combo | None, rules: Ruleset = COMPETITION) -> int | Position:
    """The position after the seat to act plays ``combo`` (``None``: passes), or the deal's
    value for N–S when that play ends it (§6–7). The play is not checked: it must be legal."""
    hands, turn, tb, last, passes, first, out = pos
    if combo is not None:
        left = hands[turn] - combo.cards
        nh = _replace(hands, turn, left)
        hs = (nh[0], nh[1], nh[2], nh[3])
        if left:
            return Position(hs, _NEXT[out][turn], combo, turn, 0, first, out)
        out2 = out | (1 << turn)
        first2 = turn if first < 0 else first
        if out2 >> ((turn + 2) & 3) & 1:
            return deal_result_value(first2, turn, _POP[out2], rules)
        return Position(hs, _NEXT[out2][turn], combo, turn, 0, first2, out2)
    if tb is None:
        raise ValueError("the leader of a trick may not pass")
    p_ = passes + 1
    nout = _POP[out]
    holding = hands[last] != 0
    if p_ >= (3 - nout if holding else 4 - nout):
        if holding:
            leader = last
        elif rules.jiefeng_next:
            leader = _NEXT[out][last]
        else:
            leader = (last + 2) & 3
        return Position(hands, leader, None, -1, 0, first, out)
    return Position(hands, _NEXT[out][turn], tb, last, p_, first, out)


def children(pos: Position, solver: Solver) -> list[Child]:
    """Every distinct action of ``pos`` (plays grouped as the search groups them, then the
    pass when allowed) with the deal value it ends with or the position it leads to."""
    tb = pos.to_beat
    plays = solver.plays.plays(pos.hands[pos.turn], tb, beat_signature(tb))
    out: list[Child] = [(p.combo, step(pos, p.combo, solver.rules)) for p in plays]
    if tb is not None:
        out.append((None, step(pos, None, solver.rules)))
    return out
