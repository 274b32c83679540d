"""The search player: determinised look-ahead from what its seat can see.

:class:`SearchPlayer` is a :class:`~duplicate.bots.Player`: it is given only its seat's
:class:`~duplicate.bots.View` and answers a legal play or ``None``. For each decision:

1. **Candidates.** The heuristic player's choice, the combinations of the heuristic's hand
   plan that are legal now, the pass when following, then the other legal readings (one
   play per type and rank, weakest first, bombs last), at most
   :attr:`SearchBudget.candidates` in all. A decision with one legal action is not searched.
2. **Worlds.** Hidden hands sampled consistently with the view
   (:func:`duplicate.determinise.sample_hands`): the unseen cards dealt at random to the
   other seats by their counts, publicly known cards where they are known to be.
3. **Values.** Each candidate is played in a world, then the deal is played out to its end
   by four heuristic players, each seeing its own hand of that world; the value is the
   deal's result for the seat's side in levels (+3 … −3). Once every hand holds
   :attr:`SearchBudget.exact_cards` cards or fewer, the exact solver
   (:mod:`duplicate.analysis.solver`) values each candidate in each world instead, within a node
   budget (a world it cannot settle sends the decision back to playouts; with every hand
   seen there is one world, and only the candidate it cannot settle is played out).
4. **Choice.** Sequential halving over the candidates: the playout budget is split over
   ``⌈log2 K⌉`` rounds; in each round every remaining candidate is played out in the same
   new worlds (common random numbers), and the better half by mean value goes on, the
   heuristic's choice always with them as the baseline. The best at the end is played
   when it beats the heuristic's choice in the same worlds by more than
   :attr:`SearchBudget.margin` standard errors of the paired difference; otherwise the
   heuristic's choice is (a few noisy worlds must not talk the player out of a sound play).

The budget is counted in playouts and solver nodes, and the worlds come from a
:class:`~duplicate.bots.XorShift64` seeded with the player's seed and the view itself, so
a decision is a function of (seed, view): the same on any machine and under any load. An
optional wall-clock cap (``seconds``) ends a decision early with the best so far.

With every hand known (``View.known`` holding every hidden hand, as the analysis's
estimates give it, :mod:`duplicate.analysis.estimate`) there is one world and each candidate is
played out once: a one-step look-ahead over heuristic playouts.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from duplicate.analysis.solver import BudgetExceeded, Solver, step
from duplicate.analysis.state import Position
from duplicate.bots import BotError, HeuristicPlayer, View, XorShift64, plan_hand, seed_bytes
from duplicate.determinise import sample_hands, world_position
from duplicate.i18n import phrase
from duplicate.native import CHOSEN, PLAYERS
from engine.cards import size
from engine.combo import Combo
from engine.moves import legal_readings
from engine.ruleset import Ruleset
from engine.seat import Seat

__all__ = [
    "DEFAULT_SEARCH",
    "SearchBudget",
    "SearchPlayer",
    "candidates",
    "c_heuristic_playout",
    "c_heuristic_playouts",
    "heuristic_playout",
    "heuristic_playouts",
    "py_heuristic_playout",
    "py_heuristic_playouts",
]

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_HEURISTIC = HeuristicPlayer(0)


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """The work allowed per decision.

    Attributes:
        playouts: playouts per decision, over all candidates together.
        candidates: most candidate plays searched.
        exact_cards: the exact solver values the candidates once every hand holds this
            many cards or fewer (0: never).
        exact_worlds: worlds solved exactly per decision.
        nodes: solver nodes per world.
        margin: another play replaces the heuristic's choice only when it does better in
            the same worlds by more than this many standard errors of the difference.
        seconds: an optional wall-clock cap per decision (makes play machine-dependent).
    """

    playouts: int = 256
    candidates: int = 24
    exact_cards: int = 5
    exact_worlds: int = 8
    nodes: int = 20_000
    margin: float = 1.0
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.playouts < 1 or self.candidates < 1 or self.exact_worlds < 1 or self.nodes < 1:
            raise BotError("a search budget needs at least one playout, candidate, world and node")
        if self.seconds is not None and not self.seconds > 0:
            raise BotError("a search time cap must be a positive number of seconds")

    @classmethod
    def parse(cls, spec: str) -> SearchBudget:
        """The budget of a policy's ``:`` part: ``PLAYOUTS`` (e.g. ``256``), then optionally
        ``,exact=CARDS`` (the solver values the candidates once every hand holds this many
        cards or fewer), ``,nodes=N`` (its nodes per world), ``,worlds=N`` (worlds solved
        a decision), ``,candidates=N``, in any order (``16,exact=8,nodes=100000``); empty:
        the default."""
        if not spec:
            return DEFAULT_SEARCH
        fields: dict[str, int] = {}
        for i, part in enumerate(spec.split(",")):
            key, _, raw = part.partition("=") if "=" in part else ("playouts" if i == 0 else "",
                                                                   "", part)
            key = key.strip()
            if key not in _SPEC_RANGES or key in fields:
                raise BotError(phrase("bots.budget.syntax", spec=repr(spec)))
            low, high = _SPEC_RANGES[key]
            try:
                value = int(raw)
            except ValueError:
                value = low - 1
            if not low <= value <= high:
                raise BotError(phrase("bots.budget.range", spec=repr(spec), field=key, low=low,
                                      high=high))
            fields[key] = value
        names = {"playouts": "playouts", "exact": "exact_cards", "nodes": "nodes",
                 "worlds": "exact_worlds", "candidates": "candidates"}
        return cls(**{names[k]: v for k, v in fields.items()})


#: What a budget's spec may set, and its range.
_SPEC_RANGES: dict[str, tuple[int, int]] = {
    "playouts": (1, 1_000_000), "exact": (0, 27), "nodes": (1, 100_000_000),
    "worlds": (1, 10_000), "candidates": (1, 1_000),
}


DEFAULT_SEARCH = SearchBudget()


def _key(combo: Combo | None) -> tuple[int, int, int] | None:
    return None if combo is None else (int(combo.type), combo.rank, combo.cards)


def candidates(view: View, limit: int) -> list[Combo | None]:
    """The plays the search compares (``None``: the pass), best guesses first: the
    heuristic's choice, the plan's legal combinations, the pass, the other readings."""
    level = view.level
    tb = view.to_beat
    out: list[Combo | None] = []
    seen: set[tuple[int, int, int] | None] = set()

    def add(c: Combo | None) -> None:
        k = _key(c)
        if k not in seen and len(out) < limit:
            seen.add(k)
            out.append(c)

    add(_HEURISTIC.act(view))
    plan = plan_hand(view.hand, level, view.rules.bomb_max)
    for c in plan.others + plan.bombs:
        if tb is None or c.beats(tb, level):
            add(c)
    if tb is not None:
        add(None)
    rest = legal_readings(view.hand, level, tb, view.rules)
    rest = sorted(rest, key=lambda c: (c.is_bomb_class, c.power(level)))
    for c in rest:
        add(c)
    return out


def py_heuristic_playout(pos: Position | int, level: int, rules: Ruleset) -> int:
    """The deal's value for N–S after four heuristic players play ``pos`` to its end, each
    seeing its own hand: ``duplicate.analysis.solver.step`` around
    :class:`~duplicate.bots.HeuristicPlayer` in Python (the reference the compiled core
    follows, :func:`c_heuristic_playout`)."""
    cur = pos
    act = _HEURISTIC.act
    while isinstance(cur, Position):
        hs = cur.hands
        tb = cur.to_beat
        view = View(
            _SEATS[cur.turn], hs[cur.turn], level, tb,
            _SEATS[cur.last] if tb is not None else None,
            (size(hs[0]), size(hs[1]), size(hs[2]), size(hs[3])), rules,
        )
        cur = step(cur, act(view), rules)
    return cur


def py_heuristic_playouts(pos: Position, plays: list[Combo | None], level: int,
                          rules: Ruleset) -> list[int]:
    """For each of ``plays`` (legal in ``pos``; ``None``: the pass), the value of the deal
    for N–S once the seat to act has made it and four heuristic players have played the
    rest, each seeing its own hand: :func:`py_heuristic_playout` of each child."""
    return [py_heuristic_playout(step(pos, c, rules), level, rules) for c in plays]


def c_heuristic_playout(pos: Position | int, level: int, rules: Ruleset) -> int:
    """:func:`py_heuristic_playout` played out in the compiled core: the same value."""
    if isinstance(pos, int):
        return pos
    return PLAYERS.heuristic_playout(  # type: ignore[no-any-return]
        pos.hands, pos.turn, pos.to_beat, pos.last, pos.passes, pos.first, pos.out,
        level, rules,
    )


def c_heuristic_playouts(pos: Position, plays: list[Combo | None], level: int,
                         rules: Ruleset) -> list[int]:
    """:func:`py_heuristic_playouts` in one call of the compiled core."""
    return PLAYERS.heuristic_playouts(  # type: ignore[no-any-return]
        pos.hands, pos.turn, pos.to_beat, pos.last, pos.passes, pos.first, pos.out,
        level, rules, plays,
    )


#: bound once, to the implementation engine.core chose
heuristic_playout = c_heuristic_playout if CHOSEN else py_heuristic_playout
heuristic_playouts = c_heuristic_playouts if CHOSEN else py_heuristic_playouts


class SearchPlayer:
    """Determinised search over the seat's view (see the module docstring)."""

    name = "search"

    def __init__(self, seed: int | str | bytes = 0, budget: SearchBudget = DEFAULT_SEARCH) -> None:
        self._seed = seed_bytes(seed)
        self.budget = budget
        self.decisions = 0  # decisions searched (more than one legal action)
        self.playouts = 0
        self.nodes = 0
        self.fallbacks = 0  # decisions left to the heuristic: no world agreed with the view
        self._solver: Solver | None = None  # kept while every hand is seen (_fixed_solver)
        self._solver_key: tuple[int, Ruleset] | None = None

    def _rng(self, view: View) -> XorShift64:
        """The decision's own stream: from the seed and everything in the view."""
        text = repr((int(view.seat), view.hand, view.level, view.to_beat, view.to_beat_by,
                     view.counts, view.played, tuple(view.finish), view.known))
        digest = hashlib.sha256(self._seed + b"|search|" + text.encode()).digest()
        return XorShift64(digest)

    def act(self, view: View) -> Combo | None:
        """The best candidate by sequential halving over sampled worlds."""
        cands = candidates(view, self.budget.candidates)
        if len(cands) == 1:
            return cands[0]
        self.decisions += 1
        rng = self._rng(view)
        sign = 1 if view.seat % 2 == 0 else -1
        try:
            if max(view.counts) <= self.budget.exact_cards:
                got = self._exact(view, cands, rng, sign)
                if got is not None:  # an index: the best candidate may be the pass (None)
                    return cands[got]
            return self._halving(view, cands, rng, sign)
        except BotError:  # a view no deal agrees with (a client's bad tracking): no worlds
            self.fallbacks += 1
            return cands[0]

    def _worlds_fixed(self, view: View) -> bool:
        """True when every hidden hand is known (the analysis's all-hands-seen views)."""
        known = view.known
        return known is not None and all(
            s == view.seat or size(known[s]) == view.counts[s] for s in range(4)
        )

    def _fixed_solver(self, view: View) -> Solver:
        """The solver of a player that sees every hand: one world, so its tables (bounds of
        positions, true whatever came before) are kept from decision to decision."""
        key = (view.level, view.rules)
        if self._solver is None or self._solver_key != key:
            self._solver = Solver(view.level, view.rules, max_nodes=self.budget.nodes,
                                  table_limit=200_000)
            self._solver_key = key
        return self._solver

    def _exact(self, view: View, cands: list[Combo | None], rng: XorShift64,
               sign: int) -> int | None:
        """The index of the candidate whose exact values summed over sampled worlds are
        best; ``None`` when a world is beyond the node budget (with every hand seen:
        :meth:`_exact_seen`)."""
        if self._worlds_fixed(view):
            return self._exact_seen(view, cands, rng, sign)
        b = self.budget
        solver = Solver(view.level, view.rules, max_nodes=b.nodes, table_limit=200_000)
        sums = [0] * len(cands)
        n0 = solver.nodes
        try:
            for _ in range(b.exact_worlds):
                pos = world_position(view, sample_hands(view, rng))
                for i, c in enumerate(cands):
                    child = step(pos, c, view.rules)
                    sums[i] += sign * (child if isinstance(child, int) else solver.value(child))
        except BudgetExceeded:
            return None
        finally:
            self.nodes += solver.nodes - n0
        return max(range(len(cands)), key=lambda i: (sums[i], -i))

    def _exact_seen(self, view: View, cands: list[Combo | None], rng: XorShift64,
                    sign: int) -> int | None:
        """Every hand seen, one world: the candidates the solver settles within the nodes
        have their exact values; each other one is asked only whether it beats the best
        so far (a null-window question, then its value bisected upwards while the answers
        come), and played out by the heuristic when even that is beyond the nodes.
        The best candidate's index; ``None`` when no candidate settles."""
        solver = self._fixed_solver(view)
        n0 = solver.nodes
        pos = world_position(view, sample_hands(view, rng))
        children = [step(pos, c, view.rules) for c in cands]
        exact: dict[int, int] = {}  # candidate -> its value for the seat's side
        later: list[int] = []
        try:
            for i, child in enumerate(children):
                try:
                    exact[i] = sign * (child if isinstance(child, int) else solver.value(child))
                except BudgetExceeded:
                    later.append(i)
            if not exact:
                return None
            values = solver.values  # the possible values for N-S, ascending
            best = max(exact, key=lambda i: (exact[i], -i))
            for i in later:
                child = children[i]
                assert not isinstance(child, int)
                try:
                    while True:  # does it do better for the side than the best so far?
                        k = values.index(sign * exact[best])
                        if sign > 0:  # N–S: is it at least the next value up?
                            if k == len(values) - 1 or not solver.test(child, values[k + 1]):
                                break
                            got = values[k + 1]
                        else:  # E–W: is it below the best's value for N–S?
                            if k == 0 or solver.test(child, values[k]):
                                break
                            got = values[k - 1]
                        exact[i], best = sign * got, i
                except BudgetExceeded:
                    if i != best:  # no answer: its playout against the exact values
                        v = sign * heuristic_playout(child, view.level, view.rules)
                        self.playouts += 1
                        if v > exact[best]:
                            exact[i], best = v, i
        finally:
            self.nodes += solver.nodes - n0
        return best

    def _halving(self, view: View, cands: list[Combo | None], rng: XorShift64,
                 sign: int) -> Combo | None:
        b = self.budget
        level, rules = view.level, view.rules
        deadline = time.perf_counter() + b.seconds if b.seconds is not None else None
        fixed = self._worlds_fixed(view)
        alive = list(range(len(cands)))
        vals: list[list[int]] = [[] for _ in cands]  # per candidate, its value in each world
        rounds = max(1, math.ceil(math.log2(len(cands))))
        for _ in range(rounds):
            per = 1 if fixed else max(1, b.playouts // (rounds * len(alive)))
            for _w in range(per):
                pos = world_position(view, sample_hands(view, rng))
                got = heuristic_playouts(pos, [cands[i] for i in alive], level, rules)
                for i, v in zip(alive, got, strict=True):
                    vals[i].append(sign * v)
                self.playouts += len(alive)
            if fixed:  # one world, deterministic playouts: every value is final
                break
            # the better half goes on; the heuristic's choice (0) always does, as the baseline
            ranked = sorted(alive, key=lambda i: (-sum(vals[i]), i))
            keep = max(1, (len(alive) + 1) // 2)
            alive = sorted(set(ranked[:keep]) | {0})
            if len(alive) == 1 or (deadline is not None and time.perf_counter() > deadline):
                break
        best = min(alive, key=lambda i: (-sum(vals[i]), i))
        if best == 0 or fixed:
            return cands[best]
        return cands[best] if _better(vals[best], vals[0], b.margin) else cands[0]


def _better(a: list[int], base: list[int], z: float) -> bool:
    """True when ``a`` beats ``base`` world by world (paired, same worlds) by more than
    ``z`` standard errors of the mean difference."""
    d = [x - y for x, y in zip(a, base, strict=True)]
    n = len(d)
    mean = sum(d) / n
    if mean <= 0:
        return False
    if n < 2:
        return z <= 0
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean > z * math.sqrt(var / n)


def make_search(seed: bytes, spec: str = "") -> SearchPlayer:
    """A :class:`SearchPlayer` from a seed and a budget spec (:meth:`SearchBudget.parse`)."""
    return SearchPlayer(seed, SearchBudget.parse(spec))
