"""The compiled core under hostile callers: a log list changed while it is replayed (by an
entry's ``__repr__``, by another thread) and a ``Solver`` shared by eight threads never
crash the interpreter, and the shared solver gives the right values (docs/CORE.md,
"Threads"). Each attack runs in a child process, so that a crash fails its test instead of
ending pytest; tools/core_sanitize.sh runs this file on the sanitised build too (the child
inherits its environment). Skipped when the core is not built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import core

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
ROOT = Path(__file__).resolve().parent.parent

PRELUDE = """
import sys, threading, time
from engine import core
assert core.implementation() == "native", core.describe()
from engine._native import _core as native
from engine.bulk import random_deal_log, replay_log
from engine.errors import GuandanError
from engine.ruleset import COMPETITION
from engine.seat import Seat
hands, log, _, summary = random_deal_log(7, 5)
"""


def _child(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    got = subprocess.run(
        [sys.executable, "-c", PRELUDE + code], cwd=ROOT, capture_output=True, text=True,
        timeout=timeout, env={**os.environ, "GUANDAN_CORE": "native"},
    )
    assert got.returncode == 0, f"exit {got.returncode}\n{got.stdout}\n{got.stderr[-3000:]}"
    return got


def test_an_entry_whose_repr_clears_the_log_does_not_crash_the_replay() -> None:
    got = _child("""
class Evil(int):
    def __repr__(self):
        victim.clear()
        return "evil"
for replay in (native.replay, lambda h, lv, s, lg, r: replay_log(h, lv, s, lg, r)):
    for at in (0, 5, len(log) - 1):
        victim = list(log) * 3
        victim[at] = (Evil(-1), None, None)
        try:
            replay(hands, 5, Seat.N, victim, COMPETITION)
        except GuandanError as exc:
            print("refused", type(exc).__name__)
""")
    assert got.stdout.count("refused") == 6


def test_a_log_changed_by_another_thread_during_replays_does_not_crash() -> None:
    got = _child("""
class Slow(int):  # a bad card value whose repr (asked for an error) lets threads switch
    def __repr__(self):
        time.sleep(0)
        return "slow"
sys.setswitchinterval(1e-6)
bad = [(Slow(-1), None, None)] * 50
victim = list(log) + bad
stop = time.monotonic() + 3
def meddle():
    while time.monotonic() < stop:
        victim.clear()
        victim.extend(log * 3 + bad)
        del victim[len(log) // 2:]
        victim.extend(bad)
threads = [threading.Thread(target=meddle) for _ in range(2)]
for t in threads:
    t.start()
calls = 0
while time.monotonic() < stop:
    for replay in (native.replay, replay_log):
        try:
            replay(hands, 5, Seat.N, victim, COMPETITION)
        except GuandanError:
            pass
        calls += 1
for t in threads:
    t.join()
print("calls", calls)
""")
    assert int(got.stdout.split()[-1]) > 10


SOLVER = """
from duplicate.analysis.solver import BudgetExceeded, Solver
from duplicate.analysis.state import Position
from engine.cards import from_ids
import random
rng = random.Random(3)
positions = []
for _ in range(12):
    ids = rng.sample(range(108), 20)
    positions.append(Position(tuple(from_ids(ids[5 * i : 5 * i + 5]) for i in range(4)),
                              rng.randrange(4), None, -1, 0, -1, 0))
want = [Solver(5).py_value(p) for p in positions]
"""


def test_a_solver_shared_by_eight_threads_gives_the_right_values() -> None:
    got = _child(SOLVER + """
shared = Solver(5)
errors = []
def work(k):
    r = random.Random(k)
    stop = time.monotonic() + 4
    while time.monotonic() < stop:
        i = r.randrange(len(positions))
        try:
            v = shared.value(positions[i])
        except Exception as exc:
            errors.append(repr(exc))
            return
        if v != want[i]:
            errors.append(f"position {i}: {v} != {want[i]}")
            return
        if r.random() < 0.2:
            shared._native.clear()
threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("errors", errors)
assert not errors, errors
""")
    assert "errors []" in got.stdout


def test_clear_racing_value_on_one_native_solver_does_not_crash() -> None:
    _child(SOLVER + """
from duplicate.analysis.solver import NATIVE
ns = NATIVE.Solver(5, COMPETITION)
stop = time.monotonic() + 3
def clearer():
    while time.monotonic() < stop:
        ns.clear()
def grouper():
    while time.monotonic() < stop:
        ns.grouped(positions[0].hands[0], None)
threads = [threading.Thread(target=f) for f in (clearer, clearer, grouper)]
for t in threads:
    t.start()
while time.monotonic() < stop:
    for p, w in zip(positions, want):
        got = ns.value(p.hands, p.turn, None, -1, 0, -1, 0, None, None, 0)
        assert got[0] == w, (got, w)
for t in threads:
    t.join()
""")
