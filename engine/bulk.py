"""Bulk deal work: replaying logged plays and playing random deals, many at a time.

Both are defined here in pure Python on :class:`engine.deal.Deal` (the reference,
``py_NAME``) and in the compiled core (``c_NAME``), with the same answers and the same error
classes; ``NAME`` is bound at import to the one :mod:`engine.core` chose (docs/CORE.md):

* :func:`replay_log` validates and applies a logged deal, ``None`` for a pass and
  ``(cards, type, rank)`` for a play (type and rank both ``None``: the reading RULES.md §5
  chooses), and returns a :class:`ReplaySummary`; the first bad action raises the error
  ``Deal.play_cards`` / ``Deal.pass_`` would, its message starting ``action i:``.
* :func:`random_deal_log` / :func:`random_deals` play deals whose every action is drawn
  uniformly among the legal readings of the seat to act, and the pass when following.
  The draws come from :class:`SplitMix64`, so both implementations play the very same
  deals from the same seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from engine import core as _core
from engine.cards import NUM_CARDS, Cards, from_ids
from engine.combo import Combo, ComboType
from engine.deal import Deal
from engine.errors import GameOverError, GuandanError, IllegalPlayError
from engine.reading import check_level
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

__all__ = [
    "LogEntry",
    "c_random_deal_log",
    "c_random_deals",
    "c_replay_log",
    "py_random_deal_log",
    "py_random_deals",
    "py_replay_log",
    "ReplaySummary",
    "SplitMix64",
    "random_deal_log",
    "random_deals",
    "replay_log",
    "shuffled_hands",
]

_M64 = (1 << 64) - 1

#: a logged action: None for a pass, else (cards, type, rank); type and rank may both be None
LogEntry = tuple[Cards, ComboType | None, int | None] | None


class ReplaySummary(NamedTuple):
    """What a replayed log came to.

    ``finish_order`` lists the seats out so far (all four once the deal is over);
    ``levels`` is the winners' gain (0 while the deal is not over); ``reported`` gives,
    per seat N E S W, the index of the action after which it reported (报牌), or -1.
    """

    finish_order: tuple[Seat, ...]
    levels: int
    double_down: bool
    tricks: int
    reported: tuple[int, int, int, int]
    actions: int
    over: bool


def _summary(deal: Deal) -> ReplaySummary:
    over = deal.is_over
    result = deal.result() if over else None
    rep = deal.reported
    return ReplaySummary(
        tuple(deal.finish_order),
        result.levels if result else 0,
        result.double_down if result else False,
        len(deal.tricks),
        (rep.get(Seat.N, -1), rep.get(Seat.E, -1), rep.get(Seat.S, -1), rep.get(Seat.W, -1)),
        len(deal.actions),
        over,
    )


def py_replay_log(
    hands: Sequence[Cards],
    level: int,
    leader: Seat,
    log: Sequence[LogEntry],
    rules: Ruleset = COMPETITION,
    seats: bytes | None = None,
) -> ReplaySummary:
    """Validate and apply every action of ``log`` from the deal's start; see the module.

    ``seats``, when given, names the seat of each action (one byte each, 0..3 for N E S
    W, as a record lists them): an action whose seat is not the one to act is refused
    (``action i: N acts out of turn``).
    """
    if not isinstance(hands, Sequence) or isinstance(hands, str | bytes):
        raise GuandanError("a deal needs 4 hands (N, E, S, W)")
    # a copy: the caller's list may change while the log is read (another thread, an
    # entry's __repr__ called for an error), the copy does not
    actions = tuple(log) if isinstance(log, Sequence) and not isinstance(log, str | bytes) else None
    deal = Deal(hands, level, leader, rules)
    if seats is not None and not isinstance(seats, bytes):
        raise GuandanError("seats are bytes, one a logged action")
    if actions is None:
        raise GuandanError("a log is a sequence of actions")
    if seats is not None and len(seats) != len(actions):
        raise GuandanError("seats are bytes, one a logged action")
    for i, entry in enumerate(actions):
        turn = deal.turn  # None once the deal is over
        if seats is not None and turn is not None and turn != seats[i]:
            raise IllegalPlayError(f"action {i}: {turn.name} acts out of turn")
        try:
            if entry is None:
                deal.pass_()
                continue
            if not isinstance(entry, tuple) or len(entry) != 3:
                raise GuandanError(
                    f"{entry!r} is no logged action: one is None (a pass) or (cards, type, rank)"
                )
            cards, ctype, rank = entry
            if deal.is_over:
                raise GameOverError("the deal is over: no more plays or passes")
            if not isinstance(cards, int):
                raise IllegalPlayError(f"plays no valid cards: {cards!r}")
            deal.play_cards(cards, ctype, rank)
        except GuandanError as exc:
            raise type(exc)(f"action {i}: {exc}") from exc
    return _summary(deal)


class SplitMix64:
    """The playouts' random numbers: SplitMix64, as the compiled core draws them."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or seed < 0:
            raise GuandanError(f"a seed is a non-negative int, not {seed!r}")
        self.state = seed & _M64

    def next(self) -> int:
        """The next 64-bit number."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        limit = _M64 - _M64 % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled_hands(rng: SplitMix64) -> tuple[Cards, Cards, Cards, Cards]:
    """Four hands of 27 (N, E, S, W) from a Fisher–Yates shuffle of the 108 cards."""
    ids = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        j = rng.below(i + 1)
        ids[i], ids[j] = ids[j], ids[i]
    h = [from_ids(ids[27 * k : 27 * (k + 1)]) for k in range(4)]
    return (h[0], h[1], h[2], h[3])


def _random_deal(deal: Deal, rng: SplitMix64, log: list[Combo | None] | None,
                 choices: list[tuple[int, int]] | None) -> None:
    while not deal.is_over:
        options = deal.legal_readings()
        m = len(options) + (deal.to_beat is not None)
        k = rng.below(m)
        if log is not None and choices is not None:
            log.append(options[k] if k < len(options) else None)
            choices.append((k, m))
        if k < len(options):
            deal.play(options[k])
        else:
            deal.pass_()


def py_random_deal_log(
    seed: int, level: int, rules: Ruleset = COMPETITION
) -> tuple[tuple[Cards, ...], list[Combo | None], list[tuple[int, int]], ReplaySummary]:
    """One random-play deal from ``seed`` (N leads): the hands, every action (``None`` for
    a pass), each choice as ``(k, m)`` (option k of m), and the summary."""
    rng = SplitMix64(seed)
    check_level(level)
    deal = Deal(shuffled_hands(rng), level, Seat.N, rules)
    log: list[Combo | None] = []
    choices: list[tuple[int, int]] = []
    _random_deal(deal, rng, log, choices)
    return deal.initial_hands, log, choices, _summary(deal)


def py_random_deals(
    n: int, seed: int, level: int, rules: Ruleset = COMPETITION
) -> tuple[int, int, int]:
    """Play ``n`` random deals from one ``seed`` (N leads each): ``(deals, actions, N–S
    levels won minus lost)``. The compiled core releases the GIL while it plays."""
    if not isinstance(n, int) or not 0 <= n <= 10**8:
        raise GuandanError("random_deals: n must be an int 0..10^8")
    rng = SplitMix64(seed)
    check_level(level)
    if not isinstance(rules, Ruleset):
        raise GuandanError(f"{rules!r} is not a Ruleset")
    actions = ns = 0
    for _ in range(n):
        deal = Deal(shuffled_hands(rng), level, Seat.N, rules)
        _random_deal(deal, rng, None, None)
        actions += len(deal.actions)
        result = deal.result()
        ns += result.score(Side.NS)
    return n, actions, ns


# --- the same in the compiled core (engine.core.compiled): same answers, same errors ------


def c_replay_log(
    hands: Sequence[Cards],
    level: int,
    leader: Seat,
    log: Sequence[LogEntry],
    rules: Ruleset = COMPETITION,
    seats: bytes | None = None,
) -> ReplaySummary:
    """:func:`py_replay_log` in the compiled core."""
    if not isinstance(hands, Sequence) or isinstance(hands, str | bytes):
        raise GuandanError("a deal needs 4 hands (N, E, S, W)")
    # a copy, as above; the core refuses None as a log after checking the deal, as above
    actions = tuple(log) if isinstance(log, Sequence) and not isinstance(log, str | bytes) else None
    if seats is None:
        return ReplaySummary(*_C.replay(tuple(hands), level, leader, actions, rules))
    return ReplaySummary(*_C.replay(tuple(hands), level, leader, actions, rules, seats))


def c_random_deal_log(
    seed: int, level: int, rules: Ruleset = COMPETITION
) -> tuple[tuple[Cards, ...], list[Combo | None], list[tuple[int, int]], ReplaySummary]:
    """:func:`py_random_deal_log` in the compiled core."""
    got = _C.random_deal_log(seed, level, rules)
    return got[0], got[1], got[2], ReplaySummary(*got[3])


def c_random_deals(
    n: int, seed: int, level: int, rules: Ruleset = COMPETITION
) -> tuple[int, int, int]:
    """:func:`py_random_deals` in the compiled core (it releases the GIL while it plays)."""
    return _C.random_deals(n, seed, level, rules)  # type: ignore[no-any-return]


#: the compiled core (engine.core.compiled) the ``c_`` functions call
_C: Any = _core.compiled
#: the public names, bound once to the implementation engine.core chose
if _core.native is not None:
    replay_log, random_deal_log, random_deals = c_replay_log, c_random_deal_log, c_random_deals
else:
    replay_log, random_deal_log, random_deals = py_replay_log, py_random_deal_log, py_random_deals
