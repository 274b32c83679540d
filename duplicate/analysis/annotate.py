"""Annotating a deal record: what each decision was worth with all four hands known.

For each action from a chosen point (:func:`start_ply`: the first divergence between two
rooms, trick K, action K or the last N tricks), :func:`annotate` gives the value of the
position before it, the value after the action made, the best actions and their values,
and a mark where the action lost value for the seat's side (chess's ``?`` for one level,
``??`` for two or more), given only when the loss is beyond the values' uncertainty
(:func:`loss_mark`: between exact values any loss of a level, with estimates a loss of a
level that is more than twice its standard error; never between an estimate and an exact
value, which measure different play). Values are N–S's result in levels
(:mod:`duplicate.analysis.solver`); each is exact when the solver settles it within the budget,
else an estimate (:mod:`duplicate.analysis.estimate`), and says so.

:func:`par` is the value of the deal with best play from the earliest position of the
record that the solver settles exactly, searched back from the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from duplicate.analysis.estimate import DEFAULT_BUDGET, Budget, Evaluation, evaluate, exact_value
from duplicate.analysis.solver import Solver, children, step
from duplicate.analysis.state import Position, from_deal
from duplicate.errors import PhrasedError
from duplicate.gdn import DealRecord
from duplicate.i18n import phrase
from duplicate.replay import ReplayError, replay, start
from duplicate.shapes import Shaped, named
from engine.cards import format_cards, rank_name
from engine.combo import Combo
from engine.deal import Deal
from engine.errors import GuandanError
from engine.moves import legal_readings
from engine.reading import choose_reading, read_declared
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

__all__ = [
    "MARGIN",
    "AnalysisError",
    "Annotation",
    "Decision",
    "Par",
    "action_dict",
    "annotate",
    "best_line",
    "combo_text",
    "decision_at",
    "loss_mark",
    "loss_of",
    "options",
    "par",
    "positions",
    "start_ply",
]


class AnalysisError(PhrasedError, GuandanError):
    """A record that cannot be analysed (it does not replay, a bad starting point); its
    message a catalogue phrase where it is the analysis's own."""


def combo_text(combo: Combo | None) -> str:
    """``Pair 5 (S5 C5)`` or ``PASS``."""
    if combo is None:
        return "PASS"

    return f"{combo.describe()} ({format_cards(combo.cards)})"


def action_dict(combo: Combo | None) -> dict[str, Any]:
    """An action as JSON data: ``{"pass": true}`` or ``{"type", "rank", "cards"}`` in the
    record format's names and tokens (as ``guandan plays --json`` and ``.gdn`` JSON)."""
    if combo is None:
        return {"pass": True}

    return {"type": combo.type.record_name, "rank": rank_name(combo.rank),
            "cards": format_cards(combo.cards).split()}


#: How many standard errors a loss must exceed to be marked when a value is an estimate.
MARGIN = 2.0


def loss_of(seat: int, before: Evaluation, after: Evaluation) -> tuple[float, float]:
    """What an action by ``seat`` cost its side, in levels (negative: it gained), and the
    standard error of that figure (0 between exact values)."""
    sign = 1 if seat & 1 == 0 else -1
    error = (before.stderr ** 2 + after.stderr ** 2) ** 0.5
    return sign * (before.value - after.value), error


def loss_mark(seat: int, before: Evaluation, after: Evaluation) -> str:
    """``??`` when the action cost its side two levels or more, ``?`` one, else ``""``; a
    loss is marked only when it is beyond the values' uncertainty: any loss of a level
    between exact values, and between estimates a loss of at least a level that exceeds
    :data:`MARGIN` times its standard error (so a clear early error is marked too, and the
    noise of the playouts is not); never between an estimate and an exact value."""
    if before.exact != after.exact:
        # an estimate (reasonable players who do not see the cards) and an exact value
        # (best play, every hand seen) measure different play: their difference is not
        # what the decision cost
        return ""
    loss, error = loss_of(seat, before, after)
    if loss < 1 or loss <= MARGIN * error:
        return ""
    return "??" if loss >= 2 else "?"


@dataclass(frozen=True, slots=True)
class Decision:
    """One action of the record, valued."""

    ply: int
    trick: int
    seat: Seat
    action: Combo | None
    before: Evaluation
    after: Evaluation
    best: tuple[tuple[Combo | None, Evaluation], ...]
    mark: str
    line: tuple[tuple[Seat, Combo | None], ...] = ()  # best play, then best replies
    lead: bool = False  # the seat led: nothing to beat
    forced: bool = False  # nothing in hand beat the play: the pass was the only action

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "ply": self.ply,
            "trick": self.trick,
            "seat": self.seat.name,
            "action": action_dict(self.action),
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
            "mark": self.mark,
            "best": [{"action": action_dict(c), "value": e.to_dict()} for c, e in self.best],
            "line": [{"seat": s.name, "action": action_dict(c)} for s, c in self.line],
            "lead": self.lead,
            "forced": self.forced,
        }


@dataclass(frozen=True, slots=True)
class Par(Shaped):
    """The deal's value with best play from ``ply`` on (the earliest position settled)."""

    value: int
    ply: int = field(metadata=named("from_ply"))


@dataclass(frozen=True, slots=True)
class Annotation:
    """A record's decisions from ``start`` on, with the deal's actual result for N–S."""

    board: str | None
    room: str | None
    level: int
    start: int
    decisions: tuple[Decision, ...]
    result: int | None
    par: Par | None = None
    plies: int = 0
    rules: Ruleset = field(default=COMPETITION)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "board": self.board,
            "room": self.room,
            "level": rank_name(self.level),
            "from_ply": self.start,
            "plies": self.plies,
            "result_ns": self.result,
            "par": self.par.to_dict() if self.par is not None else None,
            "decisions": [d.to_dict() for d in self.decisions],
        }


def positions(record: DealRecord, rules: Ruleset = COMPETITION) -> list[tuple[Position, int]]:
    """Every position of the record before each action, with its trick number (1-based);
    raises :class:`AnalysisError` when the record does not replay."""
    checked = replay(record, rules)
    if checked.error is not None:
        raise AnalysisError(str(checked.error))
    deal: Deal = start(record, rules)
    out: list[tuple[Position, int]] = []
    trick = 0
    try:
        for play in record.plays or ():
            if deal.turn is None:
                break
            if deal.to_beat is None:
                trick += 1
            out.append((from_deal(deal), trick))
            if play.is_pass:
                deal.pass_(play.seat)
            else:
                deal.play_cards(play.cards, play.type, play.rank, play.seat)
    except (GuandanError, ReplayError) as exc:  # pragma: no cover - replay() checked it
        raise AnalysisError(str(exc)) from exc
    return out


def start_ply(
    spec: str, steps: Sequence[tuple[Position, int]], divergence: int | None = None
) -> int:
    """The first action to annotate: ``divergence`` (needs the other room's divergence
    index), ``trick:K``, ``action:K`` (1-based) or ``last:N`` (the last N tricks)."""
    kind, _, arg = spec.partition(":")
    if kind == "divergence":
        if divergence is None:
            raise AnalysisError(phrase("out.analyse.no_divergence"))
        return divergence
    try:
        k = int(arg)
    except ValueError:
        raise AnalysisError(phrase("out.analyse.start_syntax", spec=repr(spec))) from None
    tricks = [p for p, (_, t) in enumerate(steps) if p == 0 or steps[p - 1][1] != t]
    if kind == "action" and 1 <= k <= len(steps):
        return k - 1
    if kind == "trick" and 1 <= k <= len(tricks):
        return tricks[k - 1]
    if kind == "last" and k >= 1:
        return tricks[max(0, len(tricks) - k)] if tricks else 0
    raise AnalysisError(phrase("out.analyse.start_range", spec=repr(spec), actions=len(steps),
                               tricks=len(tricks)))


def _record_action(record: DealRecord, ply: int, pos: Position, level: int, rules: Ruleset) -> Combo | None:
    """The combination the record's action ``ply`` made (as the engine read it)."""
    plays = record.plays or []
    play = plays[ply]
    if play.is_pass:
        return None
    # replay the one action on a throwaway deal-free reading: the engine picks the reading

    if play.type is not None and play.rank is not None:
        return read_declared(play.cards, level, play.type, play.rank, rules)
    return choose_reading(play.cards, level, pos.to_beat, rules)


def _situation(pos: Position, level: int, rules: Ruleset) -> tuple[bool, bool]:
    """Whether the seat to act leads, and whether it had no choice (nothing beats the
    play to beat: the pass is its only action)."""
    if pos.to_beat is None:
        return True, False
    return False, not legal_readings(pos.hands[pos.turn], level, pos.to_beat, rules)


def _best(pos: Position, value: int, solver: Solver, budget: Budget) -> list[tuple[Combo | None, Evaluation]]:
    """Up to three actions of ``pos`` that keep its exact ``value`` (each child valued
    within the budget's nodes)."""
    best: list[tuple[Combo | None, Evaluation]] = []
    for combo, child in children(pos, solver):
        if isinstance(child, int):
            v: int | None = child
        else:
            v, _ = exact_value(child, solver, budget)
        if v == value:
            best.append((combo, Evaluation(v, True)))
            if len(best) >= 3:
                break
    return best


#: Most actions of a best line shown after a marked decision.
LINE_LENGTH = 8


def best_line(pos: Position, value: int, solver: Solver, budget: Budget,
              length: int = LINE_LENGTH) -> tuple[tuple[Seat, Combo | None], ...]:
    """The line of best play from ``pos`` (whose exact value is ``value``): at each step
    the first action, in the solver's order, that keeps the value; at most ``length``
    actions, fewer where the deal ends or a child is out of the budget's reach."""
    line: list[tuple[Seat, Combo | None]] = []
    cur: Position | int = pos
    while len(line) < length and isinstance(cur, Position):
        for combo, child in children(cur, solver):
            v = child if isinstance(child, int) else exact_value(child, solver, budget)[0]
            if v == value:
                line.append((Seat(cur.turn), combo))
                cur = child
                break
        else:
            break
    return tuple(line)


def values(
    steps: Sequence[tuple[Position, int]],
    first: int,
    final: Position | int,
    solver: Solver,
    budget: Budget,
    estimates: bool = True,
) -> list[Evaluation | None]:
    """The value of every position from ``first`` to the end of the record and, last, the
    value after the record's last action (``final``: the deal's result, or the position an
    unfinished record stopped in). Solved from the end backwards (each exact value warms
    the table for the one before); once a position is out of the solver's reach the
    earlier ones are estimated (``estimates``) or left ``None``."""
    n = len(steps)
    out: list[Evaluation | None] = [None] * (n - first + 1)
    if isinstance(final, int):
        out[-1] = Evaluation(final, True)
    elif estimates:
        out[-1] = evaluate(final, solver, budget, seed=n)
    else:
        v, _ = exact_value(final, solver, budget)
        out[-1] = Evaluation(v, True) if v is not None else None
    exact = out[-1] is not None and out[-1].exact
    for p in range(n - 1, first - 1, -1):
        pos = steps[p][0]
        if exact:
            n0 = solver.nodes
            v, _ = exact_value(pos, solver, budget)
            if v is not None:
                out[p - first] = Evaluation(v, True, nodes=solver.nodes - n0)
                continue
            exact = False
        if estimates:
            out[p - first] = evaluate(pos, solver, budget, seed=p, exact=False)
    return out


def annotate(
    record: DealRecord,
    start_spec: str = "last:3",
    rules: Ruleset = COMPETITION,
    budget: Budget = DEFAULT_BUDGET,
    divergence: int | None = None,
    with_par: bool = True,
    estimates: bool = True,
) -> Annotation:
    """Annotate ``record`` from ``start_spec`` (see :func:`start_ply`) within ``budget``
    per position valued (exact first, then an estimate; with ``estimates=False`` positions
    out of the solver's reach are left out). The last action of an unfinished record is
    valued too: the position it left is valued like any other."""
    steps = positions(record, rules)
    if not steps:
        raise AnalysisError(phrase("out.analyse.no_play"))
    first = start_ply(start_spec, steps, divergence)
    solver = Solver(record.level, rules)
    result = replay(record, rules).result
    result_ns = result.score(Side.NS) if result is not None else None
    final: Position | int
    if result_ns is not None:
        final = result_ns
    else:
        last_pos = steps[-1][0]
        final = step(last_pos, _record_action(record, len(steps) - 1, last_pos, record.level,
                                              rules), rules)
    vals = values(steps, first, final, solver, budget, estimates)
    base = first
    found_par = None
    if with_par:
        for p, e in enumerate(vals[:-1]):
            if e is not None and e.exact:
                found_par = Par(int(e.value), p + base)
                break
        if found_par is None or found_par.ply == first:
            found_par = par(steps[:first], solver, budget) or found_par
    decisions = []
    for ply in range(first, len(steps)):
        pos, trick = steps[ply]
        before, after = vals[ply - base], vals[ply + 1 - base]
        if before is None or after is None:
            continue
        action = _record_action(record, ply, pos, record.level, rules)
        mark = loss_mark(pos.turn, before, after)
        settled = bool(mark) and before.exact
        best = _best(pos, int(before.value), solver, budget) if settled else []
        line = best_line(pos, int(before.value), solver, budget) if settled else ()
        decisions.append(
            Decision(ply, trick, Seat(pos.turn), action, before, after, tuple(best), mark, line,
                     *_situation(pos, record.level, rules))
        )
    return Annotation(
        board=record.board,
        room=record.room,
        level=record.level,
        start=first,
        decisions=tuple(decisions),
        result=result_ns,
        par=found_par,
        plies=len(steps),
        rules=rules,
    )


def decision_at(
    record: DealRecord, ply: int, rules: Ruleset = COMPETITION, budget: Budget = DEFAULT_BUDGET
) -> Decision:
    """Action ``ply`` (0-based) of ``record`` valued on its own: before and after, exact
    when the solver settles them within the budget's nodes, else estimates."""
    steps = positions(record, rules)
    if not 0 <= ply < len(steps):
        raise AnalysisError(phrase("out.analyse.no_action", action=ply + 1))
    pos, trick = steps[ply]
    solver = Solver(record.level, rules)
    action = _record_action(record, ply, pos, record.level, rules)
    before = evaluate(pos, solver, budget, seed=ply)
    after = evaluate(step(pos, action, rules), solver, budget, seed=ply + 1)
    mark = loss_mark(pos.turn, before, after)
    settled = bool(mark) and before.exact
    best = _best(pos, int(before.value), solver, budget) if settled else []
    line = best_line(pos, int(before.value), solver, budget) if settled else ()
    return Decision(ply, trick, Seat(pos.turn), action, before, after, tuple(best), mark, line,
                    *_situation(pos, record.level, rules))


def par(steps: Sequence[tuple[Position, int]], solver: Solver, budget: Budget) -> Par | None:
    """The value with best play from the earliest position settled exactly, going back from
    the end of the record while the solver settles each position within the budget's
    nodes."""
    found: Par | None = None
    for ply in range(len(steps) - 1, -1, -1):
        v, _ = exact_value(steps[ply][0], solver, budget)
        if v is None:
            break
        found = Par(v, ply)
    return found


def options(record: DealRecord, ply: int, rules: Ruleset = COMPETITION,
            budget: Budget = DEFAULT_BUDGET, keep: Sequence[Combo | None] = (),
            limit: int | None = None) -> tuple[list[tuple[Combo | None, Evaluation]], int]:
    """The actions the seat to act had at action ``ply`` (0-based) of ``record``, one a
    type, rank and size (the first the solver's order gives), each valued as
    :func:`evaluate` values a position: exact within the budget, else an estimate from the
    budget's playouts (seeded by the action's number and its place in the list, so the same
    budget gives the same values; exact only when the position itself is settled, as
    along a record). With ``limit``, only that many are valued: those of
    ``keep`` first (the rooms' choices), then the pass, the bombs, straight flushes and
    the joker bomb, then the others in the solver's order. Best for the seat's side first
    (equal values in that order); with the number of distinct actions there were."""
    steps = positions(record, rules)
    if not 0 <= ply < len(steps):
        raise AnalysisError(phrase("out.analyse.no_action", action=ply + 1))
    pos = steps[ply][0]
    solver = Solver(record.level, rules)

    def sig(c: Combo | None) -> tuple[object, ...]:
        return (None,) if c is None else (c.type, c.rank, c.size)

    distinct: dict[tuple[object, ...], tuple[Combo | None, Position | int]] = {}
    for combo, child in children(pos, solver):
        distinct.setdefault(sig(combo), (combo, child))
    wanted = {sig(c) for c in keep}

    def rank(item: tuple[tuple[object, ...], int]) -> tuple[int, int]:
        key, place = item
        combo = distinct[key][0]
        strong = combo is None or combo.is_bomb_class
        return (0 if key in wanted else 1 if strong else 2, place)

    order = [k for k, _ in sorted(((k, i) for i, k in enumerate(distinct)), key=rank)]
    chosen = order if limit is None else order[:limit]
    # as along a record: the actions are valued exactly when the position is settled,
    # else all estimated (no exact search of positions out of reach, which costs the most)
    settled = exact_value(pos, solver, budget)[0] is not None
    out = [(distinct[k][0], evaluate(distinct[k][1], solver, budget, seed=(ply + 1) * 1000 + i,
                                     exact=settled))
           for i, k in enumerate(chosen)]
    sign = 1 if pos.turn & 1 == 0 else -1
    ranked = sorted(range(len(out)), key=lambda i: (-sign * out[i][1].value, i))
    return [out[i] for i in ranked], len(distinct)
