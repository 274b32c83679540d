"""The compiled core's boundary: garbage in any argument raises, never crashes; memory
stays flat over a million calls (docs/CORE.md). Skipped when the core is not built."""

from __future__ import annotations

import gc
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.analysis.solver import NATIVE as SOLVER
from duplicate.native import PLAYERS
from engine import core
from engine.cards import from_ids
from engine.combo import Combo, ComboType
from engine.errors import GuandanError
from engine.ruleset import COMPETITION
from engine.seat import Seat

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")


class _Native:
    """Every compiled module's entry points under one name: the engine's and the layers'."""

    def __getattr__(self, name: str) -> Any:
        for module in (core._compiled, PLAYERS, SOLVER):
            if module is not None and hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(name)


native: Any = _Native()

HAND = from_ids(range(0, 108, 4))
GOOD_PLAY = Combo(ComboType.SINGLE, 3, 1 << 36)

garbage = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(1 << 200), 1 << 200),
    st.integers(0, (1 << 162) - 1),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=5),
    st.lists(st.integers(-3, 1 << 70), max_size=5),
    st.tuples(st.sampled_from(list(ComboType)), st.integers(-2, 20), st.integers(-1, 1 << 170)),
    st.builds(lambda t, r, c: tuple.__new__(Combo, (t, r, c)), st.one_of(
        st.sampled_from(list(ComboType)), st.integers(-2, 12)), st.integers(-2, 1 << 80),
        st.integers(-1, 1 << 170)),
    st.just(GOOD_PLAY),
    st.just(COMPETITION),
    st.just(Seat.E),
    st.just(HAND),
)

ACT = (b'{"type":"act","stage":"play","handCards":["S3","H4"],"publicInfo":[{"rest":2,"playArea":null},'
       b'{"rest":27,"playArea":null},{"rest":27,"playArea":null},{"rest":27,"playArea":null}],'
       b'"selfRank":"2","oppoRank":"2","curRank":"2","curPos":-1,"curAction":[null,null,null],'
       b'"greaterPos":-1,"greaterAction":[null,null,null],"actionList":[["Single","3",["S3"]],'
       b'["Single","4",["H4"]]],"indexRange":1}')

#: each entry point with arguments that work, so that garbage goes in one place at a time
CALLS: dict[str, list[object]] = {
    "plays": [HAND, 5, None, COMPETITION, True],
    "legal_readings": [HAND, 5, GOOD_PLAY, COMPETITION],
    "reading_keys": [1 << 36, 5, COMPETITION],
    "readings": [1 << 36, 5, COMPETITION],
    "is_legal": [HAND, GOOD_PLAY, 5, None, COMPETITION],
    "replay": [(HAND, HAND, HAND, HAND), 5, Seat.N, [None], COMPETITION],
    "random_deals": [1, 3, 5, COMPETITION],
    "random_deal_log": [3, 5, COMPETITION],
    "plan_hand": [HAND, 5, 10],
    "heuristic_act": [HAND, 5, COMPETITION, GOOD_PLAY, Seat.N, Seat.E, (27, 27, 27, 27)],
    "action_list": [HAND, 5, GOOD_PLAY, COMPETITION],
    "agent_index": [ACT, 0, COMPETITION],
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(CALLS)), st.data())
def test_garbage_raises_never_crashes(name: str, data: st.DataObject) -> None:
    args = list(CALLS[name])
    i = data.draw(st.integers(0, len(args) - 1))
    args[i] = data.draw(garbage)
    if data.draw(st.booleans()):
        args = args[: data.draw(st.integers(0, len(args)))] + data.draw(st.lists(garbage, max_size=2))
    if name == "random_deals" and args and isinstance(args[0], int) and 5 < args[0] <= 10**8:
        args[0] = 5  # a valid n plays that many deals: keep the test short
    try:
        out = getattr(native, name)(*args)
        if name == "plays":
            for k in (0, len(out) - 1, len(out), -1, 1 << 70):
                try:
                    out[k]
                except IndexError:
                    pass
    except (GuandanError, TypeError):
        pass


def test_the_sample_act_is_answered() -> None:
    assert native.agent_index(ACT, 0, COMPETITION) == 0  # the lowest single
    spaced = ACT.replace(b'"curRank":', b'"curRank": ')  # not the arena's writing
    assert native.agent_index(spaced, 0, COMPETITION) == -1


def test_bad_init_is_refused_and_leaves_the_core_working() -> None:
    for args in ([], [1] * 10, [Combo, 5] + [None] * 8, [Combo, ComboType, (), (), *[ValueError] * 6]):
        with pytest.raises(TypeError):
            native._init(*args)
    assert native.reading_keys(1 << 36, 5, COMPETITION) == [(ComboType.SINGLE, 3)]


def _rss_kb() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _under_asan() -> bool:
    with open("/proc/self/maps") as f:
        return "libasan" in f.read()


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_memory_stays_flat_over_a_million_calls() -> None:
    if _under_asan():  # tools/core_sanitize.sh: freed blocks wait in ASan's quarantine
        pytest.skip("under AddressSanitizer resident memory counts its quarantine (up to "
                    "256 MB of freed blocks), not leaks; the ordinary build runs this test")
    small = from_ids([0, 2, 4, 6, 8, 10, 40])

    def burst(n: int) -> None:
        for _ in range(n):
            native.reading_keys(small, 5, COMPETITION)
            native.plays(small, 5, None, COMPETITION, True)
            native.is_legal(small, GOOD_PLAY, 5, None, COMPETITION)
            native.legal_readings(small, 5, GOOD_PLAY, COMPETITION)
        for _ in range(n // 4):
            native.action_list(small, 5, None, COMPETITION)
            native.agent_index(ACT, 0, COMPETITION)
        for _ in range(n // 20):
            try:
                native.readings(-1, 5, COMPETITION)
            except GuandanError:
                pass
            try:
                native.replay((small,) * 4, 5, Seat.N, [None], COMPETITION)
            except GuandanError:
                pass

    burst(20_000)  # warm up: caches, interned small ints
    gc.collect()
    before = _rss_kb()
    burst(250_000)  # 4 calls each and 2 every 4th: 1.125 x 10^6 calls, 25,000 raised errors
    gc.collect()
    grown = _rss_kb() - before
    assert grown < 2048, f"resident memory grew by {grown} kB over 10^6 calls"
