"""Native heuristic playouts (engine/_native/core_playout.c) against the Python reference
(duplicate.search.py_heuristic_playout): the same value on positions of random and
self-played deals under every rule set, one per play in a batch; garbage refused with the
engine's errors, never a crash; memory flat; the GIL released. Skipped without the core."""

from __future__ import annotations

import gc
import json
import os
import threading
import time
from typing import Any

import pytest
from helpers.implementations import PY, C, run_under
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.analysis.solver import step
from duplicate.analysis.state import Position
from duplicate.bots import HeuristicPlayer, View, XorShift64
from duplicate.determinise import sample_hands, unseen_cards
from duplicate.native import PLAYERS
from engine import core
from engine.bulk import SplitMix64, shuffled_hands
from engine.cards import from_ids, size
from engine.combo import Combo, ComboType
from engine.errors import GuandanError, IllegalPlayError
from engine.moves import legal_readings
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat
from tests.test_search import _random_point, _some_cards, _view_of

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")
native: Any = PLAYERS

#: every rule the playout depends on: 接风 to the next player, +4 for a double down, smaller
#: bombs (the plan), no joker pair in a full house (the readings), and all at once
RULESETS = [
    COMPETITION,
    Ruleset(jiefeng_next=True),
    Ruleset(double_down_plus4=True),
    Ruleset(bomb_max=6, joker_pair_in_full_house=False),
    Ruleset(jiefeng_next=True, double_down_plus4=True, joker_pair_in_full_house=False, bomb_max=8),
]


def _options(pos: Position, level: int, rules: Ruleset) -> list[Combo | None]:
    opts: list[Combo | None] = list(legal_readings(pos.hands[pos.turn], level, pos.to_beat, rules))
    if pos.to_beat is not None:
        opts.append(None)
    return opts


def _point(seed: int, actions: int, heuristic: int, rules: Ruleset) -> tuple[Position, int]:
    """A position of a random deal (random hands, level, leader): ``actions`` actions in,
    each a heuristic choice with probability ``heuristic``/4, else random."""
    rng = XorShift64(seed)
    level = seed % 13
    pos = Position(shuffled_hands(SplitMix64(seed)), seed % 4, None, -1, 0, -1, 0)  # type: ignore[arg-type]
    bot = HeuristicPlayer()
    for _ in range(actions):
        if rng.below(4) < heuristic:
            h = pos.hands
            combo = bot.act(View(Seat(pos.turn), h[pos.turn], level, pos.to_beat,
                                 Seat(pos.last) if pos.to_beat is not None else None,
                                 (size(h[0]), size(h[1]), size(h[2]), size(h[3])), rules))
        else:
            opts = _options(pos, level, rules)
            combo = opts[rng.below(len(opts))]
        nxt = step(pos, combo, rules)
        if isinstance(nxt, int):
            break
        pos = nxt
    return pos, level


def _pure_playout(pos: Position | int, level: int, rules: Ruleset) -> int:
    """The playout with every part in Python: ``step`` around the reference bot."""
    bot = PY.Heuristic()
    while isinstance(pos, Position):
        h = pos.hands
        pos = step(pos, bot.act(View(
            Seat(pos.turn), h[pos.turn], level, pos.to_beat,
            Seat(pos.last) if pos.to_beat is not None else None,
            (size(h[0]), size(h[1]), size(h[2]), size(h[3])), rules)), rules)
    return pos


def _both(pos: Position, level: int, rules: Ruleset) -> tuple[int, int]:
    """The compiled playout's value and the reference's (which must be the pure one's)."""
    got = C.heuristic_playout(pos, level, rules)
    ref = PY.heuristic_playout(pos, level, rules)
    assert ref == _pure_playout(pos, level, rules)
    return got, ref


@settings(max_examples=250, deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 150), st.integers(0, 4), st.sampled_from(RULESETS))
def test_native_playouts_equal_the_python_ones(seed: int, actions: int, heuristic: int,
                                               rules: Ruleset) -> None:
    pos, level = _point(seed, actions, heuristic, rules)
    nat, py = _both(pos, level, rules)
    assert nat == py
    assert nat in (-4, -3, -2, -1, 1, 2, 3, 4)
    # a batch: every legal reading and the pass, each made and played out
    opts = _options(pos, level, rules)
    batch = C.heuristic_playouts(pos, opts, level, rules)
    assert batch == [PY.heuristic_playout(step(pos, c, rules), level, rules) for c in opts]
    assert PY.heuristic_playouts(pos, opts, level, rules) == batch


@pytest.mark.parametrize("rules", RULESETS)
def test_whole_deals_and_every_point_of_them(rules: Ruleset) -> None:
    """From the deal (27 cards each) and from every point of a self-played deal."""
    for seed in range(6):
        pos, level = _point(seed, 0, 0, rules)
        cur: Position | int = pos
        while isinstance(cur, Position):
            nat, py = _both(cur, level, rules)
            assert nat == py
            h = cur.hands
            combo = PY.Heuristic().act(View(
                Seat(cur.turn), h[cur.turn], level, cur.to_beat,
                Seat(cur.last) if cur.to_beat is not None else None,
                (size(h[0]), size(h[1]), size(h[2]), size(h[3])), rules))
            cur = step(cur, combo, rules)


def test_the_double_down_plus4_rule_shows_in_the_value() -> None:
    """A position the N-S side ends with a double down: +3, or +4 under the variant."""
    n = from_ids([106])  # a big joker each for N and S, small cards for E and W
    s = from_ids([107])
    e = from_ids([8, 20, 30])
    w = from_ids([12, 24, 40])
    pos = Position((n, e, s, w), 0, None, -1, 0, -1, 0)
    for impl in (PY, C):
        got = {r.double_down_plus4: impl.heuristic_playout(pos, 5, r)
               for r in (RULESETS[0], RULESETS[2])}
        assert got == {False: 3, True: 4}


HAND = from_ids(range(0, 108, 4))
GOOD = (HAND, HAND - from_ids([0]), HAND - from_ids([4]), HAND - from_ids([8]))
#: arguments that work: a leader's position, level 5, the competition rules
ARGS: list[object] = [GOOD, 0, None, -1, 0, -1, 0, 5, COMPETITION]

garbage = st.one_of(
    st.none(), st.booleans(), st.integers(-(1 << 200), 1 << 200), st.floats(allow_nan=True),
    st.text(max_size=5), st.lists(st.integers(-3, 1 << 70), max_size=5),
    st.just(Combo(ComboType.SINGLE, 0, from_ids([0]))), st.just(COMPETITION), st.just(Seat.E),
    st.just(HAND), st.just(GOOD), st.tuples(st.integers(-1, 1 << 163), st.integers(0, 5)),
)


@settings(max_examples=300, deadline=None)
@given(st.booleans(), st.data())
def test_garbage_raises_never_crashes(batch: bool, data: st.DataObject) -> None:
    args = list(ARGS) + ([[None, Combo(ComboType.SINGLE, 0, from_ids([0]))]] if batch else [])
    i = data.draw(st.integers(0, len(args) - 1))
    args[i] = data.draw(garbage)
    if data.draw(st.booleans()):
        args = args[: data.draw(st.integers(0, len(args)))] + data.draw(st.lists(garbage, max_size=2))
    try:
        (native.heuristic_playouts if batch else native.heuristic_playout)(*args)
    except (GuandanError, TypeError):
        pass


def test_positions_no_deal_has_are_refused() -> None:
    f = native.heuristic_playout
    lead = Combo(ComboType.SINGLE, 0, from_ids([0]))
    bad = [
        ((0, GOOD[1], GOOD[2], GOOD[3]), 0, None, -1, 0, -1, 0),  # the seat to act has no cards
        (GOOD, 0, None, -1, 0, -1, 1),  # "out" but holding cards
        ((0, GOOD[1], GOOD[2], GOOD[3]), 1, None, -1, 0, -1, 1),  # out, nobody first
        ((0, GOOD[1], 0, GOOD[3]), 1, None, -1, 0, 0, 5),  # both N and S out: the deal is over
        (GOOD, 1, lead, -1, 0, -1, 0),  # a play to beat made by nobody
        (GOOD, 1, None, 0, 0, -1, 0),  # a maker and no play
        (GOOD, 1, Combo(ComboType.PAIR, 0, from_ids([0])), 0, 0, -1, 0),  # no reading
        (GOOD, 4, None, -1, 0, -1, 0),
        (GOOD, 0, None, -1, 7, -1, 0),
        ((GOOD[0], GOOD[1], GOOD[2]), 0, None, -1, 0, -1, 0),
    ]
    for pos in bad:
        with pytest.raises(GuandanError):
            f(*pos, 5, COMPETITION)
    with pytest.raises(GuandanError):
        f(*ARGS[:7], 13, COMPETITION)
    with pytest.raises(GuandanError):
        f(*ARGS[:7], 5, "competition")


def test_plays_that_are_not_legal_are_refused() -> None:
    g = native.heuristic_playouts
    held = Combo(ComboType.SINGLE, 0, from_ids([0]))
    follow = (GOOD, 1, held, 0, 0, -1, 0, 5, COMPETITION)
    for plays in (
        [Combo(ComboType.SINGLE, 0, from_ids([1]))],  # not in the hand
        [Combo(ComboType.PAIR, 1, from_ids([4]))],  # not a reading of its cards
        [Combo(ComboType.SINGLE, 0, from_ids([4]))],  # does not beat a 2 (same rank)
        [held, Combo(ComboType.SINGLE, 12, 0)],  # no cards
    ):
        with pytest.raises(IllegalPlayError):
            g(*follow, plays)
    with pytest.raises(IllegalPlayError):  # a leader may not pass
        g(*ARGS, [None])
    with pytest.raises(TypeError):
        g(*ARGS, 5)
    assert g(*ARGS, []) == []
    assert len(g(*follow, [None, Combo(ComboType.SINGLE, 1, from_ids([8]))])) == 2


def _rss_kb() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer keeps freed memory in quarantine (tens of MB here)")
def test_memory_stays_flat() -> None:
    small = (from_ids([0, 5]), from_ids([9, 14]), from_ids([18, 23]), from_ids([27, 33]))
    lead = Combo(ComboType.SINGLE, 0, from_ids([0]))

    def burst(n: int) -> None:
        for _ in range(n):
            native.heuristic_playout(small, 0, None, -1, 0, -1, 0, 5, COMPETITION)
            native.heuristic_playouts(small, 0, None, -1, 0, -1, 0, 5, COMPETITION, [lead])
            try:
                native.heuristic_playouts(small, 0, None, -1, 0, -1, 0, 5, COMPETITION, [None])
            except GuandanError:
                pass

    burst(5_000)
    gc.collect()
    before = _rss_kb()
    burst(100_000)
    gc.collect()
    grown = _rss_kb() - before
    assert grown < 2048, f"resident memory grew by {grown} kB over 3 * 10^5 calls"


def test_a_batch_releases_the_gil() -> None:
    """While one thread plays out a long batch, the main thread keeps running."""
    pos, level = _point(7, 0, 0, COMPETITION)
    plays = _options(pos, level, COMPETITION) * 40
    span: list[float] = []
    done = threading.Event()

    def work() -> None:
        span.append(time.perf_counter())
        C.heuristic_playouts(pos, plays, level, COMPETITION)
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
    assert gap < 0.5 * (span[1] - span[0]), f"the main thread stopped for {gap:.3f} s"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 200), st.booleans())
def test_native_worlds_equal_the_python_ones(seed: int, actions: int, with_known: bool) -> None:
    """duplicate.determinise.deal_unseen draws the same hidden hands for sample_hands, and
    leaves the generator in the same state, in C as in Python."""
    deal = _random_point(seed, actions)
    known = None
    if with_known:
        pick = XorShift64(seed)
        known = tuple(_some_cards(deal.hand(Seat(s)), pick) for s in range(4))
    view = _view_of(deal, known)  # type: ignore[arg-type]
    hidden = unseen_cards(view)
    need = [0 if s == view.seat else view.counts[s] - size((known or (0, 0, 0, 0))[s])
            for s in range(4)]
    got = []
    for impl in (PY, C):
        rng = XorShift64(f"worlds-{seed}")
        got.append(([impl.deal_unseen(hidden, need, rng) for _ in range(3)], rng.next64()))
    assert got[0] == got[1]
    rng = XorShift64(f"worlds-{seed}")
    hands = sample_hands(view, rng)
    assert hands[view.seat] == view.hand
    assert [size(h) for h in hands] == list(view.counts)


def test_bad_input_to_the_native_draw_is_refused() -> None:
    full = from_ids(range(108))
    assert native.deal_unseen(full, (0, 27, 27, 27), 1)[0][0] == 0
    for args in ((full, (0, 27, 27, 55), 1),  # more than are unseen
                 (full, (0, 27, 27), 1), (full, (0, 27, 27, -1), 1), (full, (0, 1, 1, 1), 0),
                 (full, (0, 1, 1, 1), 1 << 64), (full, (0, 1, 1, 1), -5), (-1, (0, 1, 1, 1), 1),
                 (full, None, 1), (full, (0, 1, 1, 1), "x")):
        with pytest.raises(GuandanError):
            native.deal_unseen(*args)
    with pytest.raises(TypeError):
        native.deal_unseen(full, (0, 1, 1, 1))


def test_the_search_decides_alike_on_either_core() -> None:
    """Native playouts and worlds change no decision: the search player makes the same
    plays from the same views with the compiled core and in pure Python (each chosen at
    import, in a process of its own)."""
    code = (
        "import json\n"
        "from duplicate.search import SearchBudget, SearchPlayer\n"
        "from tests.test_search import _random_point, _view_of\n"
        "views = [_view_of(_random_point(seed, 8 * seed)) for seed in range(12)]\n"
        "player = SearchPlayer(b'alike', SearchBudget(playouts=48))\n"
        "got = [player.act(v) for v in views]\n"
        "print(json.dumps([repr(c) for c in got] + [player.playouts, player.decisions]))\n"
    )
    got = [json.loads(run_under(impl, code)) for impl in ("python", "native")]
    assert got[0] == got[1]
    assert got[1][-1] >= 5 and got[1][-2] > 100  # views were searched, with playouts
