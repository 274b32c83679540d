"""Budgeted answers: the exact value when the budget allows, else a labelled estimate.

A :class:`Budget` counts work, not time: the exact solver's nodes per position, the number
of playouts per estimate, and the seed of the playouts' random choices. The same record
and budget give the same values on any machine under any load. A wall-clock cap
(``seconds``) is optional; a value it cut short says so (:attr:`Evaluation.cut`).

:func:`evaluate` first asks the exact solver (:mod:`duplicate.analysis.solver`) within the node
budget. When that is not enough it plays the position out ``playouts`` times: the heuristic
self-play bots (``duplicate.bots``) make the plays, each bot seeing its own hand and the
public counts only (not the other hands), with one play in ten chosen at random from a
seeded generator so that the playouts differ (``Budget.noise``; with none, every playout
is the same and one is made); as soon as every hand holds 5 cards or
fewer, the solver settles the rest within a small node budget and the playout ends with
that exact value (best play by all four, every hand seen). ``Budget.policy`` may name
another playout policy: ``search`` (or ``search:PLAYOUTS``, :mod:`duplicate.search`) looks
one play ahead at each turn of the playout, every hand seen, as the analysis defines its
values (one world: each candidate played out once by the heuristic bots). The mean of the
playouts is the estimate, given with its sample count and standard error. An :class:`Evaluation` always
says which kind it is; an estimate is never shown as exact.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from duplicate.analysis.budget import DEFAULT_BUDGET, NOISE, Budget
from duplicate.analysis.solver import BudgetExceeded, Solver, step
from duplicate.analysis.state import Position
from duplicate.bots import Player, View
from duplicate.policies import make_player
from engine.cards import size
from engine.combo import Combo
from engine.moves import legal_readings
from engine.seat import Seat

__all__ = ["DEFAULT_BUDGET", "Budget", "Evaluation", "bot_action", "evaluate", "playout"]

#: node budget of the exact end of a playout
_END_NODES = 4_000
#: the end of a playout is tried exactly once every hand holds this many cards or fewer
_END_CARDS = 5
#: under a budget counted in cards, the end of a playout is valued exactly, whatever the
#: search takes, once the four hands hold this many cards or fewer (or the budget's cards)
END_TOTAL = 12


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A value for N–S: ``exact`` (``value`` is the deal's result with best play) or an
    estimate (``value`` is a mean of ``samples`` playouts with standard error ``stderr``)."""

    value: float
    exact: bool
    samples: int = 0
    stderr: float = 0.0
    nodes: int = 0
    cut: bool = False  # the wall-clock cap stopped the work before the budget was spent

    def text(self) -> str:
        """``+2`` for an exact value, ``~+1.4±0.3 (est., 40)`` for an estimate; ``!`` after
        an estimate the time cap cut short."""
        if self.exact:
            return f"{int(self.value):+d}"
        return f"~{self.value:+.1f}±{self.stderr:.1f} (est., {self.samples}{'!' if self.cut else ''})"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: ``kind`` is ``exact`` or ``estimate``; ``cut`` is present
        (true) only when the time cap stopped the work."""
        out: dict[str, Any]
        if self.exact:
            out = {"kind": "exact", "value": int(self.value)}
        else:
            out = {
                "kind": "estimate",
                "value": round(self.value, 3),
                "samples": self.samples,
                "stderr": round(self.stderr, 3),
            }
        if self.cut:
            out["cut"] = True
        return out


def bot_action(pos: Position, player: Player, level: int, solver: Solver,
               seen: bool = False) -> Combo | None:
    """What ``player`` does in ``pos``, seeing its own hand and the public counts, and with
    ``seen`` every hand (``View.known``: how the search policy looks ahead in playouts)."""
    h = pos.hands
    finish: tuple[Seat, ...] = ()
    if seen and pos.first >= 0:  # the 1st out, then the other seat out if any
        finish = (Seat(pos.first),) + tuple(
            Seat(s) for s in range(4) if pos.out >> s & 1 and s != pos.first)
    view = View(
        Seat(pos.turn),
        h[pos.turn],
        level,
        pos.to_beat,
        Seat(pos.last) if pos.to_beat is not None else None,
        (size(h[0]), size(h[1]), size(h[2]), size(h[3])),
        solver.rules,
        finish=finish,
        known=(h[0], h[1], h[2], h[3]) if seen else None,
    )
    return player.act(view)


def playout(
    pos: Position,
    solver: Solver,
    players: list[Player],
    rng: random.Random,
    noise: float = NOISE,
    end_solver: Solver | None = None,
    seen: bool = False,
    end_total: int | None = None,
) -> int:
    """Play ``pos`` to the end: bots (with a share ``noise`` of random plays; ``seen``:
    each bot sees every hand), then the exact solver (``end_solver``, with a small node
    budget) once the hands are small enough; with ``end_total``, the exact solver without
    a bound once the four hands hold that many cards or fewer (the same on either core).
    Returns the deal's value for N–S."""
    if end_total is not None:
        end_solver = Solver(solver.level, solver.rules, table_limit=200_000) \
            if end_solver is None else end_solver
    elif end_solver is None:
        end_solver = _end_solver(solver)
    cur: int | Position = pos
    while isinstance(cur, Position):
        if end_total is not None:
            if sum(size(x) for x in cur.hands) <= end_total:
                return end_solver.value(cur)
        elif max(size(x) for x in cur.hands) <= _END_CARDS:
            try:
                return end_solver.value(cur)
            except BudgetExceeded:
                pass
        combo: Combo | None
        if rng.random() < noise:
            options: list[Combo | None] = list(
                legal_readings(cur.hands[cur.turn], solver.level, cur.to_beat, solver.rules)
            )
            if cur.to_beat is not None:
                options.append(None)
            combo = rng.choice(options)
        else:
            combo = bot_action(cur, players[cur.turn], solver.level, solver, seen)
        cur = step(cur, combo, solver.rules)
    return cur


def _end_solver(solver: Solver) -> Solver:
    return Solver(solver.level, solver.rules, max_nodes=_END_NODES, table_limit=200_000)


def exact_value(pos: Position, solver: Solver, budget: Budget) -> tuple[int | None, bool]:
    """The solver's value of ``pos`` within ``budget.nodes`` (and the time cap), or
    ``None`` when it did not settle; the second item says whether the time cap stopped it.
    Under a budget counted in cards: the value of a position of ``budget.cards`` cards or
    fewer whatever the search takes (the time cap aside), ``None`` for a larger one."""
    if budget.cards is not None and sum(size(x) for x in pos.hands) > budget.cards:
        return None, False
    saved = solver.max_seconds, solver.max_nodes
    solver.max_seconds = budget.seconds
    solver.max_nodes = None if budget.cards is not None else budget.nodes
    try:
        return solver.value(pos), False
    except BudgetExceeded as exc:
        return None, exc.by_time
    finally:
        solver.max_seconds, solver.max_nodes = saved


def evaluate(
    pos: Position | int,
    solver: Solver,
    budget: Budget = DEFAULT_BUDGET,
    seed: int = 0,
    exact: bool = True,
) -> Evaluation:
    """The value of ``pos`` for N–S: exact when the solver settles it within the budget's
    nodes (``exact``: try it at all), else an estimate from the budget's playouts, their
    random choices seeded from ``budget.seed`` and ``seed`` (the caller's position number).
    A deal value (an ``int``: the deal is over) is exact."""
    if isinstance(pos, int):
        return Evaluation(pos, True)
    n0 = solver.nodes
    cut = False
    if exact:
        value, cut = exact_value(pos, solver, budget)
        if value is not None:
            return Evaluation(value, True, nodes=solver.nodes - n0)
    rng = random.Random(f"{budget.seed}/{seed}")
    players: list[Player] = [make_player(budget.policy, f"{budget.seed}-{s}") for s in range(4)]
    seen = budget.policy != "heuristic"
    end_total = min(END_TOTAL, budget.cards) if budget.cards is not None else None
    end = _end_solver(solver) if end_total is None else \
        Solver(solver.level, solver.rules, table_limit=200_000)
    deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
    values: list[int] = []
    # without random plays every playout is the same (the bots but random are
    # deterministic): one is made
    playouts = budget.playouts if budget.noise > 0 or budget.policy == "random" else 1
    while len(values) < playouts:
        values.append(playout(pos, solver, players, rng, noise=budget.noise, end_solver=end,
                              seen=seen, end_total=end_total))
        if deadline is not None and time.perf_counter() > deadline:
            cut = cut or len(values) < budget.playouts
            break
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return Evaluation(mean, False, n, math.sqrt(var / n), solver.nodes - n0, cut)

