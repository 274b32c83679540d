"""The compiled core's deal state machine against engine.deal (docs/CORE.md).

Whole random-play deals from the same seeds must be the same deals on both
implementations, action by action, with the same number of options at every step; logged
deals replay to the same summary; corrupted logs fail at the same action with the same
error class on both.
"""

from __future__ import annotations

import pytest
from helpers.implementations import PY, C
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import core
from engine.combo import ComboType
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

RULESETS = [
    COMPETITION,
    Ruleset(jiefeng_next=True, double_down_plus4=True, joker_pair_in_full_house=False, bomb_max=8),
]


def run(name: str, f):  # type: ignore[no-untyped-def]
    """``f`` called with the implementation ``name`` (``"python"`` or ``"native"``)."""
    try:
        return ("ok", f(PY if name == "python" else C))
    except GuandanError as exc:
        return (type(exc).__name__, str(exc).split(":")[0])


def as_log(log: list) -> list:  # type: ignore[type-arg]
    return [None if c is None else (c.cards, c.type, c.rank) for c in log]


@pytest.mark.parametrize("rules", RULESETS, ids=["competition", "variants"])
@pytest.mark.parametrize("seed", range(8))
def test_random_deals_are_the_same_deals(seed: int, rules: Ruleset) -> None:
    level = seed % 13
    py = run("python", lambda i: i.random_deal_log(seed, level, rules))
    nat = run("native", lambda i: i.random_deal_log(seed, level, rules))
    assert py == nat
    hands, log, _, summary = py[1]
    assert summary.over
    for name in ("python", "native"):
        assert run(name, lambda i: i.replay_log(hands, level, Seat.N, as_log(log), rules)) == (
            "ok", summary)
        # undeclared plays: the reading RULES.md §5 chooses gives the same deal here too
        loose = [None if e is None else (e[0], None, None) for e in as_log(log)]
        got = run(name, lambda i, loose=loose: i.replay_log(hands, level, Seat.N, loose, rules))
        assert got[0] in ("ok", "IllegalPlayError")


def test_random_deal_totals_agree() -> None:
    assert run("python", lambda i: i.random_deals(6, 42, 5)) == run(
        "native", lambda i: i.random_deals(6, 42, 5))


_LOGS = {s: run("python", lambda i, s=s: i.random_deal_log(s, 5)) [1] for s in range(4)}


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(range(4)), st.data())
def test_corrupted_logs_fail_alike(seed: int, data: st.DataObject) -> None:
    hands, log, _, _ = _LOGS[seed]
    entries = as_log(log)
    i = data.draw(st.integers(0, len(entries) - 1))
    kind = data.draw(st.sampled_from(
        ["drop", "pass", "retype", "rerank", "cards", "garbage", "half", "extra", "swap"]))
    e = entries[i]
    if kind == "drop":
        del entries[i]
    elif kind == "pass":
        entries[i] = None
    elif kind == "retype" and e is not None:
        entries[i] = (e[0], data.draw(st.sampled_from(list(ComboType))), e[2])
    elif kind == "rerank" and e is not None:
        entries[i] = (e[0], e[1], data.draw(st.integers(-2, 16)))
    elif kind == "cards" and e is not None:
        entries[i] = (data.draw(st.integers(-5, 1 << 170)), e[1], e[2])
    elif kind == "garbage":
        entries[i] = data.draw(st.sampled_from([(1,), "S5", 7, ("S5", None, None), (3, 1, 2)]))
    elif kind == "half" and e is not None:
        entries[i] = (e[0], e[1], None)
    elif kind == "extra":
        entries.append(entries[-1])
    elif kind == "swap" and i + 1 < len(entries):
        entries[i], entries[i + 1] = entries[i + 1], entries[i]
    py = run("python", lambda i: i.replay_log(hands, 5, Seat.N, entries))
    nat = run("native", lambda i: i.replay_log(hands, 5, Seat.N, entries))
    assert py == nat


H = (1, 1 << 3, 1 << 6, 1 << 9)  # one card each: S2 H2 C2 D2


@pytest.mark.parametrize("args", [
    (H[:3], 5, Seat.N, []),
    (H, 13, Seat.N, []),
    (H, 5, 0, []),
    ((1, 2, 4, 8), 5, Seat.N, []),
    (H[:3] + (0,), 5, Seat.N, []),
    ((1, 1, 1, 1), 5, Seat.N, []),
    (H[:3] + ("x",), 5, Seat.N, []),
    (H, 5, Seat.N, 5),
    (H, 5, Seat.N, [None]),
    (H, 5, Seat.N, [(1, ComboType.SINGLE, 0), (8, ComboType.SINGLE, 0)]),
    (H, 5, Seat.N, [(1, ComboType.SINGLE, 0), (1 << 3, ComboType.SINGLE, 0)]),
    (H, 5, Seat.N, [(1, ComboType.SINGLE, 0)] + [None] * 3 + [(1, None, None)]),
])
def test_bad_deals_are_refused_alike(args: tuple) -> None:  # type: ignore[type-arg]
    py = run("python", lambda i: i.replay_log(*args))
    nat = run("native", lambda i: i.replay_log(*args))
    assert py[0] == nat[0] and py[0] != "ok"


def test_long_work_releases_the_gil() -> None:
    """While the core plays random deals in one thread, Python code runs in another: the
    main thread keeps executing bytecode all through the call, which it cannot do while a
    call keeps the GIL."""
    import threading
    import time

    span: list[float] = []
    done = threading.Event()

    def work() -> None:
        span.append(time.perf_counter())
        C.random_deals(1500, 5, 5)
        span.append(time.perf_counter())
        done.set()

    stamps: list[float] = []
    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        stamps.append(time.perf_counter())
    worker.join()
    points = [span[0]] + [t for t in stamps if span[0] < t < span[1]] + [span[1]]
    gap = max(b - a for a, b in zip(points, points[1:], strict=False))
    # a call keeping the GIL leaves one gap as long as itself (the main thread stops)
    assert gap < 0.5 * (span[1] - span[0]), f"the main thread stopped for {gap:.3f} s"
