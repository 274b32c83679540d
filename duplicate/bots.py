"""Self-play bots: players that make legal Guandan plays without people.

A bot sees what its seat may see and nothing more (a :class:`View`: its own hand, the play
to beat and who made it, every seat's public card count, the level, the cards played, the
finishing order so far, cards publicly known to be in a hand) and answers with a
:class:`~engine.combo.Combo` to play or ``None`` to pass. Two policies here (a third,
``search``, looks ahead over sampled hidden hands: :mod:`duplicate.search`; every policy by
name: :mod:`duplicate.policies`):

* :class:`RandomPlayer`: uniform among the legal actions, from a PRNG of our own
  (:class:`XorShift64`, seeded through SHA-256) so that its choices are the same on every
  machine and every Python version (``random``'s sequences are not promised stable).
* :class:`HeuristicPlayer`: a sensible beginner. It splits its hand into a plan
  (:func:`plan_hand`: bombs and straight flushes kept aside, then sequences, full houses,
  triples, pairs, singles), leads the weakest combination of the plan, follows with the
  cheapest same-type play that breaks no bomb, leaves its partner's plays alone, and bombs
  only when an opponent is close to finishing, when the bomb wins it the deal, or when
  nobody else of its side can answer the play any more.

The bots never check legality themselves; the deal does (``Deal.play`` raises on an
illegal play), and the tests play thousands of deals to show that they never try one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Protocol

from duplicate.errors import PhrasedError
from duplicate.native import CHOSEN, PLAYERS
from engine._tables import STRAIGHT_WINDOWS, THREE_PAIR_WINDOWS, TWO_TRIPS_WINDOWS
from engine.cards import (
    BIG_JOKER,
    KIND_BIT,
    SMALL_JOKER,
    Cards,
    is_subset,
    iter_kinds,
    level_value,
    rank_of,
    suit_of,
    wild_kind,
)
from engine.combo import Combo, ComboType, sequence_position
from engine.errors import GuandanError
from engine.moves import legal_readings
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat


class BotError(PhrasedError, GuandanError):
    """A bot was asked for something it cannot do (an unknown policy name, a bad seed); a
    policy named wrong is said from the catalogue (domain ``bots``) in the reader's language."""


@dataclass(frozen=True, slots=True)
class View:
    """What the seat to act may know (no peeking at other hands).

    Attributes:
        seat: the seat to act.
        hand: that seat's cards.
        level: the deal's level (rank index 0..12).
        to_beat: the play to beat, ``None`` when the seat leads a new trick.
        to_beat_by: the seat that made ``to_beat`` (``None`` when leading).
        counts: cards left in every seat's hand, indexed by ``Seat`` (public, RULES.md §6).
        rules: the rule set of the deal.
        played: every card played so far in the deal (public); ``None`` when not known.
        finish: the seats out so far, 1st first (public).
        known: cards each seat (N, E, S, W) is publicly known to hold (a tribute or return
            card not played yet); ``None`` when none are.

    The last three are public too; the random and heuristic players ignore them, the
    search player (``duplicate.search``) samples the hidden hands from them.
    """

    seat: Seat
    hand: Cards
    level: int
    to_beat: Combo | None
    to_beat_by: Seat | None
    counts: tuple[int, int, int, int]
    rules: Ruleset = COMPETITION
    played: Cards | None = None
    finish: tuple[Seat, ...] = ()
    known: tuple[Cards, Cards, Cards, Cards] | None = None

    @property
    def can_pass(self) -> bool:
        """A follower may pass; the leader of a trick may not (RULES.md §6)."""
        return self.to_beat is not None

    @property
    def partner(self) -> Seat:
        """The partner (对家)."""
        return self.seat.partner

    def opponent_counts(self) -> tuple[int, int]:
        """Card counts of the two opponents (0 for one who has finished)."""
        return (self.counts[self.seat.next], self.counts[self.seat.prev])


class Player(Protocol):
    """A policy: given the acting seat's view, a play (a ``Combo``) or ``None`` to pass."""

    @property
    def name(self) -> str:
        """Short policy name, used in record tags (``random``, ``heuristic``)."""
        ...

    def act(self, view: View) -> Combo | None:
        """The play to make in ``view`` (must be legal), or ``None`` to pass."""
        ...


# --- a small PRNG of our own ------------------------------------------------------

_MASK64 = (1 << 64) - 1


def seed_bytes(seed: int | str | bytes) -> bytes:
    """Canonical bytes of a seed given as an integer, a text or raw bytes."""
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise BotError(f"a bot seed must be an int, a str or bytes, not {type(seed).__name__}")
    return str(seed).encode("utf-8")


class XorShift64:
    """xorshift64* (Vigna 2014): a tiny PRNG whose output is fixed by its definition.

    The 64-bit state comes from SHA-256 of the seed, so that nearby seeds give unrelated
    streams; the state is never 0 (xorshift's one fixed point).
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int | str | bytes) -> None:
        digest = hashlib.sha256(b"guandan-duplicate/xorshift64*/" + seed_bytes(seed)).digest()
        self._state = int.from_bytes(digest[:8], "big") or 1

    def next64(self) -> int:
        """The next 64-bit output."""
        x = self._state
        x ^= x >> 12
        x ^= (x << 25) & _MASK64
        x ^= x >> 27
        self._state = x
        return (x * 0x2545F4914F6CDD1D) & _MASK64

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise BotError(f"cannot choose among {n} options")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n


# --- the random player ------------------------------------------------------------


class RandomPlayer:
    """Uniform among the legal actions: every distinct legal (type, rank) play, and pass.

    An action is one entry of ``engine.moves.legal_readings`` (one concrete card choice per
    distinct type and rank), plus passing when it is allowed: choosing among every
    concrete card choice instead would make straights and bombs, which can be made from
    many suit choices, far likelier than singles.
    """

    name = "random"

    def __init__(self, seed: int | str | bytes = 0) -> None:
        self._rng = XorShift64(seed)

    def act(self, view: View) -> Combo | None:
        """A uniformly chosen legal action (``None`` is pass)."""
        options = legal_readings(view.hand, view.level, view.to_beat, view.rules)
        n = len(options) + (1 if view.can_pass else 0)
        i = self._rng.below(n)
        return options[i] if i < len(options) else None


# --- the hand plan of the heuristic player ---------------------------------------


class Plan(NamedTuple):
    """A decomposition of a hand into combinations, as a beginner would sort it.

    Attributes:
        bombs: bombs, straight flushes and the joker bomb, kept aside (weakest first).
        others: every other combination, in leading order (weakest first, more cards
            before fewer at equal weakness).
    """

    bombs: tuple[Combo, ...]
    others: tuple[Combo, ...]

    @property
    def bomb_cards(self) -> Cards:
        """All cards set aside in bombs."""
        total = 0
        for b in self.bombs:
            total += b.cards
        return total

    @property
    def plays(self) -> int:
        """Number of plays the plan needs to empty the hand."""
        return len(self.bombs) + len(self.others)


#: every sequence the plan may make, as (type, cards per rank, record rank, rank mask,
#: ranks): plates, then tubes, then straights, each lowest first (RULES.md §2: A high or
#: low, no wrapping). The windows are the engine's own (``engine._tables``).
_SEQUENCES: tuple[tuple[ComboType, int, int, int, tuple[int, ...]], ...] = tuple(
    (t, per, rank, mask, ranks)
    for t, per, windows in (
        (ComboType.TWO_TRIPS, 3, TWO_TRIPS_WINDOWS),
        (ComboType.THREE_PAIR, 2, THREE_PAIR_WINDOWS),
        (ComboType.STRAIGHT, 1, STRAIGHT_WINDOWS),
    )
    for rank, mask, ranks in windows
)


def _loose_plays(counts: list[int]) -> int:
    """Plays needed for loose cards of these rank counts: singles, pairs, triples.

    A triple takes a pair along as a full house, so each such match saves one play.
    """
    singles = pairs = triples = 0
    for c in counts:
        if c == 1:
            singles += 1
        elif c == 2:
            pairs += 1
        elif c >= 3:
            triples += 1
    return singles + pairs + triples - min(triples, pairs)


def _take(pools: list[list[int]], rank: int, n: int) -> Cards:
    """Remove ``n`` cards of ``rank`` from the pools (naturals before the wild)."""
    pool = pools[rank]
    cards = 0
    for kind in pool[:n]:
        cards += KIND_BIT[kind]
    del pool[:n]
    return cards


def _take_straight(pools: list[list[int]], ranks: tuple[int, ...]) -> tuple[Cards, bool]:
    """Take one card of each rank for a straight, avoiding five of one suit if possible.

    Returns the cards and whether they are all of one suit (then a straight flush).
    """
    chosen: list[int] = [pools[r][0] for r in ranks]
    suits = {suit_of(k) for k in chosen}
    if len(suits) == 1:
        for i, r in enumerate(ranks):
            other = next((k for k in pools[r] if suit_of(k) != suit_of(chosen[i])), None)
            if other is not None:
                chosen[i] = other
                break
    cards = 0
    for r, k in zip(ranks, chosen, strict=True):
        pools[r].remove(k)
        cards += KIND_BIT[k]
    return cards, len({suit_of(k) for k in chosen}) == 1


def weakness(combo: Combo, level: int) -> int:
    """How weak a non-bomb combination is: natural position for sequences, else level order."""
    if combo.type.is_sequence:
        return sequence_position(combo.rank)
    return level_value(combo.rank, level)


#: a straight flush is kept aside when the rest of the hand then needs at most this many
#: more plays: a beginner gladly pays a play for a bomb (seeds/000: 同花火 are 19% of bombs)
STRAIGHT_FLUSH_COST = 1


def _find_straight_flush(
    pools: list[list[int]], counts: list[int], wilds: int
) -> tuple[int, list[int]] | None:
    """The lowest straight flush made of held natural cards and ``wilds`` (0 or 1) wild
    hearts that costs the rest of the hand at most :data:`STRAIGHT_FLUSH_COST` more plays,
    as (record rank, its natural kinds); ``None`` when there is none."""
    held = [0, 0, 0, 0]  # per suit, a bit per rank held
    for r in range(13):
        for k in pools[r]:
            held[k & 3] |= 1 << r
    need = 5 - wilds
    before = -1
    for suit in range(4):
        mask = held[suit]
        for rank, window, ranks in STRAIGHT_WINDOWS:
            if (mask & window).bit_count() != need:
                continue
            kinds = [4 * r + suit for r in ranks if mask >> r & 1]
            if before < 0:
                before = _loose_plays(counts)
            for r in ranks:
                if mask >> r & 1:
                    counts[r] -= 1
            after = _loose_plays(counts)
            for r in ranks:
                if mask >> r & 1:
                    counts[r] += 1
            if after <= before + STRAIGHT_FLUSH_COST:
                return rank, kinds
    return None


def _take_kinds(pools: list[list[int]], counts: list[int], kinds: list[int]) -> Cards:
    """Remove these natural kinds from the pools and the counts; return them as ``Cards``."""
    cards = 0
    for k in kinds:
        r = rank_of(k)
        pools[r].remove(k)
        counts[r] -= 1
        cards += KIND_BIT[k]
    return cards


def py_plan_hand(hand: Cards, level: int, bomb_max: int = 10) -> Plan:
    """Split ``hand`` into combinations the way a sensible beginner sorts a hand.

    In order: the joker bomb; natural bombs (4+ of a rank, at most ``bomb_max`` cards);
    straight flushes (costing the rest at most one play); each wild heart completes a
    straight flush four of whose cards are held, or makes a bomb of the strongest triple
    ("配火就配4头火"), or stays a level card; then plates, tubes and straights, greedily,
    while one lowers the number of plays; the rest become full houses (a triple with the
    smallest pair), triples, pairs and singles. Cheap (rank counts and a greedy pass) and
    cached (:func:`plan_hand`), because bots ask for it at every turn. The compiled core
    makes the same plan (:func:`c_plan_hand`, docs/CORE.md).
    """
    wild = wild_kind(level)
    pools: list[list[int]] = [[] for _ in range(15)]
    wilds = 0
    for kind in iter_kinds(hand):
        if kind == wild:
            wilds += 1
        else:
            pools[rank_of(kind)].append(kind)
    bombs: list[Combo] = []
    others: list[Combo] = []

    # The joker bomb (天王炸): all four jokers.
    if len(pools[SMALL_JOKER]) == 2 and len(pools[BIG_JOKER]) == 2:
        cards = _take(pools, SMALL_JOKER, 2) + _take(pools, BIG_JOKER, 2)
        bombs.append(Combo(ComboType.FOUR_KINGS, SMALL_JOKER, cards))

    # Natural bombs (§3: 4 or more cards of a rank).
    for r in range(13):
        while len(pools[r]) >= 4:
            bombs.append(Combo(ComboType.BOMB, r, _take(pools, r, min(bomb_max, len(pools[r])))))

    counts = [len(p) for p in pools]

    # Straight flushes of natural cards.
    while (found := _find_straight_flush(pools, counts, 0)) is not None:
        rank, kinds = found
        bombs.append(Combo(ComboType.STRAIGHT_FLUSH, rank, _take_kinds(pools, counts, kinds)))

    # Wild hearts (逢人配, §2): each completes a straight flush four of whose cards are held,
    # or else makes a 4-card bomb of the strongest triple, or else stays a level card.
    for _ in range(wilds):
        found = _find_straight_flush(pools, counts, 1)
        triples = [r for r in range(13) if counts[r] == 3]
        if found is not None:
            rank, kinds = found
            cards = _take_kinds(pools, counts, kinds) + KIND_BIT[wild]
            bombs.append(Combo(ComboType.STRAIGHT_FLUSH, rank, cards))
        elif triples:
            r = max(triples, key=lambda x: level_value(x, level))
            counts[r] = 0
            bombs.append(Combo(ComboType.BOMB, r, _take(pools, r, 3) + KIND_BIT[wild]))
        else:
            pools[level].append(wild)
            counts[level] += 1

    # Sequences, greedily, while one saves plays.
    best = _loose_plays(counts)
    while True:
        pick = None
        # at_least[n]: a bit for each rank (0..12) with n cards or more
        at_least = [0, 0, 0, 0]
        for r in range(13):
            for n in range(1, min(counts[r], 3) + 1):
                at_least[n] |= 1 << r
        for cand in _SEQUENCES:
            _, per, _, window, ranks = cand
            if at_least[per] & window == window:
                for r in ranks:
                    counts[r] -= per
                plays = _loose_plays(counts) + 1
                for r in ranks:
                    counts[r] += per
                if plays < best:
                    best, pick = plays, cand
        if pick is None:
            break
        t, per, rank, _, ranks = pick
        for r in ranks:
            counts[r] -= per
        if t == ComboType.STRAIGHT:
            cards, flush = _take_straight(pools, ranks)
            if flush:
                bombs.append(Combo(ComboType.STRAIGHT_FLUSH, rank, cards))
                continue
        else:
            cards = 0
            for r in ranks:
                cards += _take(pools, r, per)
        others.append(Combo(t, rank, cards))

    # Full houses, triples, pairs, singles.
    by_strength = sorted(range(15), key=lambda x: level_value(x, level))
    triples = [r for r in by_strength if counts[r] == 3]
    pairs = [r for r in by_strength if counts[r] == 2 and r < SMALL_JOKER]
    for r in triples:
        cards = _take(pools, r, 3)
        if pairs:
            p = pairs.pop(0)
            counts[p] = 0
            others.append(Combo(ComboType.THREE_WITH_TWO, r, cards + _take(pools, p, 2)))
        else:
            others.append(Combo(ComboType.TRIPS, r, cards))
    for r in by_strength:
        if len(pools[r]) == 2:
            others.append(Combo(ComboType.PAIR, r, _take(pools, r, 2)))
        elif len(pools[r]) == 1:
            others.append(Combo(ComboType.SINGLE, r, _take(pools, r, 1)))

    bombs.sort(key=lambda b: b.power(level))
    others.sort(key=lambda c: (weakness(c, level), -c.size, c.type))
    return Plan(tuple(bombs), tuple(others))


def c_plan_hand(hand: Cards, level: int, bomb_max: int = 10) -> Plan:
    """:func:`py_plan_hand` in the compiled core."""
    bombs, others = PLAYERS.plan_hand(hand, level, bomb_max)
    return Plan(bombs, others)


#: the plan of a hand, cached, bound once to the implementation engine.core chose
plan_hand = lru_cache(maxsize=1 << 14)(c_plan_hand if CHOSEN else py_plan_hand)


# --- the heuristic player ---------------------------------------------------------

#: an opponent with this many cards or fewer is "close to finishing": bombs come out
CLOSE_TO_FINISHING = 5


def _last_to_answer(view: View) -> bool:
    """True when every seat between this one and the maker of the play to beat (in play
    order) is out of cards: if this seat passes, the trick is lost to the opponents."""
    if view.to_beat_by is None:
        return False
    s = view.seat.next
    while s != view.to_beat_by:
        if view.counts[s]:
            return False
        s = s.next
    return True


class HeuristicPlayer:
    """A sensible beginner (see the module docstring and docs/SELFPLAY.md)."""

    name = "heuristic"

    def __init__(self, seed: int | str | bytes = 0) -> None:
        # Deterministic: the seed is accepted only so that every policy is built alike.
        del seed

    def py_act(self, view: View) -> Combo | None:
        """Lead from the plan, follow cheaply, leave the partner alone, bomb when it counts."""
        plan = plan_hand(view.hand, view.level, view.rules.bomb_max)
        if view.to_beat is None:
            return self._lead(view, plan)
        return self._follow(view, view.to_beat, plan)

    def c_act(self, view: View) -> Combo | None:
        """:meth:`py_act`'s choice, made in the compiled core (docs/CORE.md)."""
        return PLAYERS.heuristic_act(  # type: ignore[no-any-return]
            view.hand, view.level, view.rules, view.to_beat, view.seat, view.to_beat_by,
            view.counts,
        )

    #: bound once, to the implementation engine.core chose
    act = c_act if CHOSEN else py_act

    @staticmethod
    def _lead(view: View, plan: Plan) -> Combo:
        """The weakest plan combination, with a few beginner's adjustments."""
        if not plan.others:
            return plan.bombs[0]
        others = plan.others
        partner_left = view.counts[view.partner]
        if partner_left in (1, 2):
            # Help the partner out: lead the cheapest single (pair) they may be able to top.
            wanted = ComboType.SINGLE if partner_left == 1 else ComboType.PAIR
            for c in others:
                if c.type == wanted:
                    return c
        if 1 in view.opponent_counts():
            # Never feed a lone card to an opponent: lead anything else, or the top single.
            for c in others:
                if c.type != ComboType.SINGLE:
                    return c
            return others[-1]
        return others[0]

    @staticmethod
    def _follow(view: View, to_beat: Combo, plan: Plan) -> Combo | None:
        """Beat an opponent cheaply, bomb only when it matters, pass on the partner."""
        level = view.level
        hand = view.hand
        bomb_max = view.rules.bomb_max
        close = any(0 < n <= CLOSE_TO_FINISHING for n in view.opponent_counts())
        if view.to_beat_by == view.partner:
            # Leave the partner's trick alone unless one play empties the hand.
            if plan.plays == 1:
                only = (plan.bombs + plan.others)[0]
                if only.beats(to_beat, level) and not only.is_bomb_class:
                    return only
            return None
        if not to_beat.is_bomb_class:
            for c in plan.others:
                if c.type == to_beat.type and c.beats(to_beat, level):
                    return c
            # Break a combination of the plan only when that costs at most one play later
            # (a pair for a single, say), or when an opponent is close to finishing.
            free = hand - plan.bomb_cards
            if free:
                wild = KIND_BIT[wild_kind(level)]
                options = sorted(
                    (c for c in legal_readings(free, level, to_beat, view.rules) if not c.is_bomb_class),
                    key=lambda c: (is_subset(wild, c.cards), c.power(level)),
                )
                for c in options:
                    if close or plan_hand(hand - c.cards, level, bomb_max).plays <= plan.plays:
                        return c
        # Bombs: when an opponent is close to finishing, to win the deal's last trick, or
        # when nobody after this seat can answer any more (seeds/000 不惜火: "when you are
        # the last to play and your partner has given up, open fire").
        if plan.bombs:
            if close or plan.plays <= 2 or _last_to_answer(view):
                for b in plan.bombs:
                    if b.beats(to_beat, level):
                        return b
        return None


# --- mixed: a heuristic player that errs at a rate of its own ---------------------

#: The largest share of random actions a ``mixed`` player makes.
MAX_ERROR_RATE = 0.4


class MixedPlayer:
    """A heuristic player that makes a random legal action at a rate of its own.

    Two heuristic sides play every board alike in both rooms (the heuristic player does
    not depend on its seed), so every swing would be 0. ``mixed`` players of a side share
    an error rate (0 to :data:`MAX_ERROR_RATE`, :func:`mixed_error_rate`), so that sides differ
    in strength as real ones do: ``event play-bots`` draws a team's from the event seed,
    ``simulate`` a side's from the match seed.
    """

    name = "mixed"

    def __init__(self, seed: bytes, error_rate: float) -> None:
        self._rng = XorShift64(b"mixed/" + seed)
        self._heuristic = HeuristicPlayer(seed)
        self._random = RandomPlayer(seed)
        self._per_mille = round(error_rate * 1000)

    def act(self, view: View) -> Combo | None:
        """The random player's action with the side's error rate, else the heuristic one."""
        if self._rng.below(1000) < self._per_mille:
            return self._random.act(view)
        return self._heuristic.act(view)


def mixed_error_rate(key: str) -> float:
    """A ``mixed`` side's error rate drawn from ``key``: 0 to :data:`MAX_ERROR_RATE`."""
    digest = hashlib.sha256(key.encode()).digest()
    return round(MAX_ERROR_RATE * int.from_bytes(digest[:4], "big") / 0xFFFFFFFF, 3)


__all__ = [
    "CLOSE_TO_FINISHING",
    "BotError",
    "HeuristicPlayer",
    "MAX_ERROR_RATE",
    "MixedPlayer",
    "Plan",
    "Player",
    "RandomPlayer",
    "View",
    "XorShift64",
    "c_plan_hand",
    "mixed_error_rate",
    "plan_hand",
    "py_plan_hand",
    "seed_bytes",
    "weakness",
]
