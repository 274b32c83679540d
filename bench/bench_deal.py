"""Benchmark of the deal state machine (engine.deal): prints figures, asserts nothing.

Two figures, each for deals whose first leader N holds 0, 1 or 2 wild hearts:

* **replay**: plays validated and applied per second when replaying logged
  play lists the way a record reader does: ``Deal.play_cards`` with the declared type and
  rank, ``Deal.pass_`` for passes. The logs are recorded first from random deals, then
  replayed under the timer (best of ``--rounds``); the time of the passes is counted
  against the plays, so the plays/s figure is conservative.
* **random deals**: complete deals per second, each action picked at random among the
  legal readings of the seat to act (and pass, when following), played with
  ``Deal.play``, which verifies every play.
* **random matches**: whole matches (tribute, return, levels up to passing A) played by
  ``engine.match.play_match`` with the same random policy, per second.

Deterministic: shuffles and choices come from SHA-256 counters, never ``random``. Times
are the process's CPU time (``time.process_time``), so that other work on the machine
disturbs the figures less; everything runs on one core.
Run: ``python bench/bench_deal.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time
from collections.abc import Iterator

from engine.cards import KIND_BIT, NUM_CARDS, Cards, count, from_ids, wild_kind
from engine.combo import Combo, ComboType
from engine.deal import Deal
from engine.match import play_match
from engine.seat import Seat

LEVEL = 5  # deals are played at level 7 (rank index 5): wild hearts are H7


class Stream:
    """Uniform integers from SHA-256 of (seed, counter): deterministic and portable."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode()
        self._counter = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        digest = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            if not self._words:
                self._refill()
            w = self._words.pop()
            if w < limit:
                return w % n


def shuffled_hands(seed: str, wilds_for_n: int | None) -> list[Cards]:
    """Four hands of 27 from a Fisher–Yates shuffle, then (unless ``wilds_for_n`` is None)
    N given exactly ``wilds_for_n`` wild hearts of level 7 by swapping cards with the other
    hands (deterministically)."""
    s = Stream(seed)
    ids = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        j = s.below(i + 1)
        ids[i], ids[j] = ids[j], ids[i]
    hands = [from_ids(ids[27 * k : 27 * (k + 1)]) for k in range(4)]
    if wilds_for_n is None:
        return hands
    wild = wild_kind(LEVEL)
    bit = KIND_BIT[wild]
    while count(hands[0], wild) != wilds_for_n:
        give = count(hands[0], wild) > wilds_for_n
        for k in range(1, 4):
            if give:
                # swap one of N's wilds for one of k's natural cards
                other = next(kind for kind in _kinds(hands[k]) if kind != wild)
                hands[0] += KIND_BIT[other] - bit
                hands[k] += bit - KIND_BIT[other]
                break
            if count(hands[k], wild):
                mine = next(kind for kind in _kinds(hands[0]) if kind != wild)
                hands[0] += bit - KIND_BIT[mine]
                hands[k] += KIND_BIT[mine] - bit
                break
    return hands


def _kinds(cards: Cards) -> Iterator[int]:
    k = 0
    while cards:
        if cards & 7:
            yield k
        cards >>= 3
        k += 1


def random_action(deal: Deal, choice: Stream) -> Combo | None:
    """A random legal reading of the seat to act, or a pass (None) when following."""
    options: list[Combo | None] = list(deal.legal_readings())
    if deal.to_beat is not None:
        options.append(None)
    return options[choice.below(len(options))]


def random_deal(seed: str, wilds_for_n: int) -> Deal:
    """Play a whole deal choosing at random among legal readings (and pass)."""
    deal = Deal(shuffled_hands(seed, wilds_for_n), LEVEL, Seat.N)
    choice = Stream("choices/" + seed)
    while not deal.is_over:
        pick = random_action(deal, choice)
        if pick is None:
            deal.pass_()
        else:
            deal.play(pick)
    return deal


def random_match(seed: str) -> int:
    """Play a whole random match with tribute; return its number of deals."""
    choice = Stream("match-choices/" + seed)

    def pick_card(seat: Seat, options: list[int]) -> int:
        return options[choice.below(len(options))]

    def hands(i: int) -> list[Cards]:
        return shuffled_hands(f"{seed}/{i}", None)  # levels vary: no wild adjustment

    match = play_match(
        lambda deal: random_action(deal, choice),
        hands,
        max_deals=200,
        choose_tribute=pick_card,
        choose_return=pick_card,
    )
    return match.deals_played


Log = list[tuple[Cards, ComboType, int] | None]


def replay(hands: tuple[Cards, ...], log: Log) -> Deal:
    """Replay a logged deal as a record reader does (declared type and rank)."""
    deal = Deal(hands, LEVEL, Seat.N)
    for entry in log:
        if entry is None:
            deal.pass_()
        else:
            deal.play_cards(entry[0], entry[1], entry[2])
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per wild category")
    parser.add_argument("--rounds", type=int, default=3, help="replay rounds (best is kept)")
    parser.add_argument("--matches", type=int, default=10, help="random matches to play")
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.deals} deals "
        f"per category, level 7, first leader N, CPU time of one core"
    )
    for wilds in (0, 1, 2):
        seeds = [f"bench-deal/{wilds}/{i}" for i in range(args.deals)]
        t0 = time.process_time()
        deals = [random_deal(seed, wilds) for seed in seeds]
        random_time = time.process_time() - t0
        logs: list[tuple[tuple[Cards, ...], Log]] = []
        n_actions = n_plays = 0
        for d in deals:
            log: Log = [
                None if a.combo is None else (a.combo.cards, a.combo.type, a.combo.rank)
                for a in d.actions
            ]
            logs.append((d.initial_hands, log))
            n_actions += len(log)
            n_plays += sum(1 for e in log if e is not None)
        best = float("inf")
        for _ in range(args.rounds):
            t0 = time.process_time()
            for hands, log in logs:
                replay(hands, log)
            best = min(best, time.process_time() - t0)
        # check the replays reproduce the recorded deals (a benchmark of wrong work is void)
        for d, (hands, log) in zip(deals, logs, strict=True):
            again = replay(hands, log)
            if again.result() != d.result():
                sys.exit(f"replay differs from the recorded deal {d.position()}")
        print(
            f"N holds {wilds} wild(s): replay {n_plays / best:,.0f} plays/s "
            f"({n_actions / best:,.0f} actions/s with passes; {n_plays} plays and "
            f"{n_actions - n_plays} passes, passes' time counted against the plays); "
            f"random-play deals {len(deals) / random_time:,.1f} deals/s"
        )
    t0 = time.process_time()
    deals_per_match = [random_match(f"bench-match/{i}") for i in range(args.matches)]
    match_time = time.process_time() - t0
    print(
        f"random matches with tribute: {args.matches / match_time:,.2f} matches/s "
        f"({sum(deals_per_match) / match_time:,.1f} deals/s; "
        f"{sum(deals_per_match) / args.matches:.1f} deals per match on average)"
    )


if __name__ == "__main__":
    main()
