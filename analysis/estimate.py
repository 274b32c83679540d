"""Budgeted answers: the exact value when the budget allows, else a labelled estimate.

:func:`evaluate` first asks the exact solver (:mod:`analysis.solver`) with part of the
budget. When that is not enough it plays the position out many times with all hands known:
the heuristic self-play bots (``duplicate.bots``) make the plays, with a small share of
random plays so that the playouts differ, and as soon as the hands are small enough for the
solver to settle the rest within a small node budget, the playout ends with that exact
value (perfect play to the end). The mean of the playouts is the estimate, given with its
sample count and standard error. An :class:`Evaluation` always says which kind it is;
an estimate is never shown as exact.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from analysis.solver import BudgetExceeded, Solver, step
from analysis.state import Position
from duplicate.bots import HeuristicPlayer, Player, View
from engine.cards import size
from engine.combo import Combo
from engine.moves import legal_readings
from engine.seat import Seat

__all__ = ["Evaluation", "bot_action", "evaluate", "playout"]

#: node budget of the exact end of a playout
_END_NODES = 4_000
#: the end of a playout is tried exactly once every hand holds this many cards or fewer
_END_CARDS = 5


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A value for N–S: ``exact`` (``value`` is the deal's result with best play) or an
    estimate (``value`` is a mean of ``samples`` playouts with standard error ``stderr``)."""

    value: float
    exact: bool
    samples: int = 0
    stderr: float = 0.0
    nodes: int = 0

    def text(self) -> str:
        """``+2`` for an exact value, ``~+1.4±0.3 (est., 40)`` for an estimate."""
        if self.exact:
            return f"{int(self.value):+d}"
        return f"~{self.value:+.1f}±{self.stderr:.1f} (est., {self.samples})"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: ``kind`` is ``exact`` or ``estimate``."""
        if self.exact:
            return {"kind": "exact", "value": int(self.value)}
        return {
            "kind": "estimate",
            "value": round(self.value, 3),
            "samples": self.samples,
            "stderr": round(self.stderr, 3),
        }


def bot_action(pos: Position, player: Player, level: int, solver: Solver) -> Combo | None:
    """What ``player`` does in ``pos``, seeing its own hand and the public counts."""
    h = pos.hands
    view = View(
        Seat(pos.turn),
        h[pos.turn],
        level,
        pos.to_beat,
        Seat(pos.last) if pos.to_beat is not None else None,
        (size(h[0]), size(h[1]), size(h[2]), size(h[3])),
        solver.rules,
    )
    return player.act(view)


def playout(
    pos: Position,
    solver: Solver,
    players: list[Player],
    rng: random.Random,
    noise: float = 0.1,
    end_solver: Solver | None = None,
) -> int:
    """Play ``pos`` to the end: bots (with a share ``noise`` of random plays), then the
    exact solver (``end_solver``, with a small node budget) once the hands are small
    enough. Returns the deal's value for N–S."""
    if end_solver is None:
        end_solver = _end_solver(solver)
    cur: int | Position = pos
    while isinstance(cur, Position):
        if max(size(x) for x in cur.hands) <= _END_CARDS:
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
            combo = bot_action(cur, players[cur.turn], solver.level, solver)
        cur = step(cur, combo, solver.rules)
    return cur


def _end_solver(solver: Solver) -> Solver:
    return Solver(solver.level, solver.rules, max_nodes=_END_NODES, table_limit=200_000)


def evaluate(
    pos: Position | int,
    solver: Solver,
    seconds: float = 1.0,
    seed: int = 0,
    exact_share: float = 0.6,
    min_samples: int = 8,
    max_samples: int = 400,
) -> Evaluation:
    """The value of ``pos`` for N–S within about ``seconds``: exact when the solver settles
    it with ``exact_share`` of the time, else an estimate from playouts (at least
    ``min_samples``). A deal value (an ``int``: the deal is over) is exact."""
    if isinstance(pos, int):
        return Evaluation(pos, True)
    start = time.perf_counter()
    saved = solver.max_seconds, solver.max_nodes
    solver.max_seconds, solver.max_nodes = seconds * exact_share, None
    n0 = solver.nodes
    try:
        return Evaluation(solver.value(pos), True, nodes=solver.nodes - n0)
    except BudgetExceeded:
        pass
    finally:
        solver.max_seconds, solver.max_nodes = saved
    rng = random.Random(seed)
    players: list[Player] = [HeuristicPlayer(f"{seed}-{s}") for s in range(4)]
    end = _end_solver(solver)
    values: list[int] = []
    while len(values) < max_samples:
        values.append(playout(pos, solver, players, rng, end_solver=end))
        if len(values) >= min_samples and time.perf_counter() - start > seconds:
            break
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return Evaluation(mean, False, n, math.sqrt(var / n), solver.nodes - n0)
