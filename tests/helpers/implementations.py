"""The two implementations of the engine's and the players' hot paths, by name: ``PY``
holds each reference function (``py_NAME``), ``C`` the compiled core's (``c_NAME``), under
the public name, so that a differential test asks both the same question
(``both(lambda i: i.readings(cards, 5))``) whatever ``GUANDAN_CORE`` chose at import
(docs/CORE.md, "Choosing the implementation"). ``C`` needs the compiled core
(``engine.core.compiled``): the tests that use it are skipped without it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

from duplicate import bots, determinise, search
from duplicate.analysis import solver
from duplicate.arena import agent, protocol
from engine import bulk, deal, moves, reading
from engine.errors import GuandanError

X = TypeVar("X")
ROOT = Path(__file__).resolve().parent.parent.parent

#: the names each implementation carries, by module
_NAMES = {
    reading: ("readings", "reading_keys"),
    moves: ("legal_plays", "legal_readings", "is_legal", "count_plays", "legal_play_list"),
    bulk: ("replay_log", "random_deal_log", "random_deals"),
    bots: ("plan_hand",),
    search: ("heuristic_playout", "heuristic_playouts"),
    determinise: ("deal_unseen",),
    protocol: ("act_options",),
    agent: ("native_index",),
}


def _namespace(prefix: str) -> SimpleNamespace:
    names: dict[str, Any] = {
        name: getattr(module, prefix + name) for module, group in _NAMES.items() for name in group
    }
    names["Deal"] = deal.PyDeal if prefix == "py_" else deal.CDeal
    names["heuristic_act"] = getattr(bots.HeuristicPlayer, prefix + "act")
    names["solver_value"] = getattr(solver.Solver, prefix + "value")
    names["solver_test"] = getattr(solver.Solver, prefix + "test")
    names["name"] = "python" if prefix == "py_" else "native"
    return SimpleNamespace(**names)


#: the pure-Python reference
PY = _namespace("py_")
#: the compiled core
C = _namespace("c_")


def both(f: Callable[[Any], X]) -> X:
    """``f(PY)`` and ``f(C)``; they must agree (value, or exception type). Returns the
    value, or raises the reference's error."""
    out: list[tuple[str, object]] = []
    error: GuandanError | None = None
    for impl in (PY, C):
        try:
            out.append(("ok", f(impl)))
        except GuandanError as exc:
            out.append((type(exc).__name__, None))
            error = error or exc
    assert out[0] == out[1], f"python {out[0]!r:.300} != native {out[1]!r:.300}"
    if error is not None:
        raise error
    return out[0][1]  # type: ignore[return-value]


class PyHeuristic(bots.HeuristicPlayer):
    """The heuristic bot choosing in Python whatever was chosen at import."""

    act = bots.HeuristicPlayer.py_act


class CHeuristic(bots.HeuristicPlayer):
    """The heuristic bot choosing in the compiled core."""

    act = bots.HeuristicPlayer.c_act


PY.Heuristic = PyHeuristic
C.Heuristic = CHeuristic


def run_under(impl: str, code: str) -> str:
    """The output of ``python -c code`` in a fresh interpreter whose ``GUANDAN_CORE`` is
    ``impl``: the whole stack in one implementation, chosen at import."""
    env = {**os.environ, "GUANDAN_CORE": impl}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout
