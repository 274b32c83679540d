"""A match (一局) of Guandan: levels from 2 to A, tribute, deal after deal (RULES.md §7–10).

:class:`Match` keeps both sides' levels, the level of each deal and whose it is (the last
winning side's, §8: only that side can pass A in it, and a failure at A is counted for it
alone), the failures at A, the end at a deal limit (one more deal at equal levels, or a
draw under ``limit_draw``) and the winner. Between deals it runs the
tribute phase of §9 as a :class:`TributePhase`, with pokerkit's triad for each action:
``verify_tribute``/``can_tribute``/``tribute`` and ``verify_return``/``can_return``/
``give_return``. :func:`play_match` drives a whole match with a policy callback.

Duplicate boards are played without tribute (§9): they use :class:`engine.deal.Deal`
directly, not a match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from engine.cards import (
    KIND_BIT,
    KIND_HR,
    KIND_TOKENS,
    RANK_A,
    Cards,
    Kind,
    count,
    iter_kinds,
    level_value,
    rank_name,
    rank_of,
    sort_key,
    wild_kind,
)
from engine.combo import Combo
from engine.deal import Deal, DealResult, check_hands
from engine.errors import GameOverError, GuandanError, Part, TributeError, joined
from engine.reading import check_cards, check_level
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

__all__ = [
    "Chooser",
    "DealRecord",
    "LevelUpdate",
    "Match",
    "Policy",
    "Transfer",
    "TributePhase",
    "level_up",
    "play_match",
]

#: picks one card among the legal ones (sorted low to high in level order) for a seat
Chooser = Callable[[Seat, list[Kind]], Kind]
#: picks the play of the seat to act in a deal, or None to pass
Policy = Callable[[Deal], Combo | None]



def _error(english: str, key: str, **values: str | int | Part) -> TributeError:
    """A :class:`TributeError` whose message is ``english`` with ``values`` filled in,
    ``key`` and ``values`` saying the same as data (engine.errors)."""
    return TributeError(english.format(**{k: str(v) for k, v in values.items()}), key,
                        **values)


def _seat(seat: Seat) -> Part:
    return Part(seat.name, "engine.seat", seat=seat.name)


def _rank(rank: int) -> Part | str:
    """A rank as records write it; ten (``T``) a part of its own, which Chinese reads 10."""
    name = rank_name(rank)
    return Part(name, "engine.rank_ten") if name == "T" else name


def _either(kinds: Sequence[Kind]) -> Part | str:
    """``S5 or H5``: the cards one of which is to be given."""
    return joined([KIND_TOKENS[k] for k in kinds], "engine.either", " or ")


def _no_tribute(seat: Seat) -> TributeError:
    return _error("{seat} holds no card that can be paid as tribute: wild hearts are never "
                  "demanded (RULES.md §9)", "engine.tribute_no_card", seat=seat.name)

class Transfer(NamedTuple):
    """One card given in the tribute phase (§9).

    ``what`` is ``"tribute"`` (进贡) or ``"return"`` (还贡). In a double down the
    receiver of a tribute is known only once both losers have paid; until then the
    record returned by :meth:`TributePhase.tribute` has ``receiver`` None, and
    :attr:`TributePhase.transfers` holds the final records.
    """

    what: Literal["tribute", "return"]
    giver: Seat
    receiver: Seat | None
    card: Kind

    def describe(self) -> str:
        """``W pays HR to N`` / ``N returns S5 to W``."""
        verb = "pays" if self.what == "tribute" else "returns"
        to = f" to {self.receiver.name}" if self.receiver is not None else ""
        return f"{self.giver.name} {verb} {KIND_TOKENS[self.card]}{to}"


def _sorted_kinds(kinds: set[Kind], level: int) -> list[Kind]:
    return sorted(kinds, key=lambda k: sort_key(k, level))


class TributePhase:
    """The tribute, return and resisting of tribute before a deal (RULES.md §9).

    Built from the freshly dealt ``hands`` (N, E, S, W), the ``level`` of the coming
    deal and the ``previous`` deal's result. Cards move between ``hands`` as tributes and
    returns are made; :attr:`leader` is known once the phase :attr:`is_complete`.
    """

    def __init__(
        self,
        hands: Sequence[Cards],
        level: int,
        previous: DealResult,
        rules: Ruleset = COMPETITION,
    ) -> None:
        if len(hands) != 4:
            raise _error("the tribute phase needs 4 hands (N, E, S, W), not {n}",
                         "engine.tribute_four_hands", n=len(hands))
        check_level(level)
        for seat, hand in zip(Seat, hands, strict=True):
            check_cards(hand, f"{seat.name}'s hand")
        self.level = level
        self.rules = rules
        self.previous = previous
        self._hands: list[Cards] = list(hands)
        order = previous.finish_order
        self.first: Seat = order[0]
        self.double_down: bool = previous.double_down
        #: seats that owe tribute: the 4th, or both losers in a double down
        self.payers: tuple[Seat, ...] = (order[2], order[3]) if self.double_down else (order[3],)
        self._paid: dict[Seat, Kind] = {}
        self._receiver_of: dict[Seat, Seat] = {}
        self._returned: dict[Seat, Kind] = {}
        self.transfers: list[Transfer] = []
        self.equal_tributes = False
        # 抗贡: the payers hold both big jokers between them → no tribute, the 1st leads.
        big = sum(count(self._hands[p], KIND_HR) for p in self.payers)
        self.resisted: bool = big == 2
        if not self.double_down:
            self._receiver_of[order[3]] = order[0]

    # --- state -------------------------------------------------------------------------

    @property
    def hands(self) -> tuple[Cards, ...]:
        """The four hands now (after the transfers made so far)."""
        return tuple(self._hands)

    def pending_tributes(self) -> list[Seat]:
        """Seats that still owe a tribute."""
        if self.resisted:
            return []
        return [p for p in self.payers if p not in self._paid]

    def pending_returns(self) -> list[Seat]:
        """Seats that have received a tribute and still owe the return."""
        if self.resisted or self.pending_tributes():
            return []
        return [r for r in self._receiver_of.values() if r not in self._returned]

    @property
    def is_complete(self) -> bool:
        """True when every tribute and return has been made (or the tribute is resisted)."""
        return not self.pending_tributes() and not self.pending_returns()

    @property
    def leader(self) -> Seat:
        """Who leads the deal (§9); only once the phase is complete."""
        if not self.is_complete:
            raise _error("the tribute phase is not complete: {pending}",
                         "engine.tribute_not_complete", pending=self.pending_part())
        if self.resisted:
            return self.first
        if not self.double_down:
            return self.payers[0]  # single down: the 4th leads
        if self.equal_tributes:
            return self.first.next  # 贡左还右: the 1st's 下家 leads
        return next(p for p, r in self._receiver_of.items() if r == self.first)

    def describe_pending(self) -> str:
        """What is still owed, in words."""
        return str(self.pending_part())

    def pending_part(self) -> Part | str:
        """What is still owed, as words with keys (:class:`engine.errors.Part`)."""
        parts: list[Part | str] = [
            Part(f"{s.name} owes a tribute", "engine.tribute_owes", seat=s.name)
            for s in self.pending_tributes()]
        parts += [Part(f"{s.name} owes a return", "engine.return_owes", seat=s.name)
                  for s in self.pending_returns()]
        return joined(parts, "engine.then", "; ") or Part("nothing is owed",
                                                         "engine.tribute_nothing_owed")

    # --- legal cards -------------------------------------------------------------------

    def legal_tributes(self, seat: Seat) -> list[Kind]:
        """The cards ``seat`` may pay: its highest in level order, wild hearts excepted."""
        if seat not in self.pending_tributes():
            return []
        wild = wild_kind(self.level)
        kinds = {k for k in iter_kinds(self._hands[seat]) if k != wild}
        if not kinds:
            return []
        top = max(level_value(rank_of(k), self.level) for k in kinds)
        return _sorted_kinds(
            {k for k in kinds if level_value(rank_of(k), self.level) == top}, self.level
        )

    def legal_returns(self, seat: Seat) -> list[Kind]:
        """The cards ``seat`` may return: natural rank up to the limit (10), else its lowest."""
        if seat not in self.pending_returns():
            return []
        kinds = set(iter_kinds(self._hands[seat]))
        limit = self.rules.return_limit(self.level)
        low = {k for k in kinds if rank_of(k) <= limit}
        if not low and kinds:
            bottom = min(level_value(rank_of(k), self.level) for k in kinds)
            low = {k for k in kinds if level_value(rank_of(k), self.level) == bottom}
        return _sorted_kinds(low, self.level)

    # --- tribute -----------------------------------------------------------------------

    @staticmethod
    def _check_seat(seat: object, what: str) -> Seat:
        """The seat, or :class:`TributeError` when ``seat`` is no :class:`Seat`."""
        if isinstance(seat, Seat):
            return seat
        raise _error(f"{what}: {{shown}} is not a seat (N, E, S or W)",
                     ("engine.tribute_not_a_seat" if what == "tribute"
                      else "engine.return_not_a_seat"), shown=repr(seat))

    def _held(self, seat: Seat, card: Kind, what: str) -> None:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(KIND_TOKENS):
            raise _error(f"{{seat}}'s {what}: {{shown}} is not a card kind",
                         ("engine.tribute_not_a_kind" if what == "tribute"
                          else "engine.return_not_a_kind"), seat=seat.name, shown=repr(card))
        if not count(self._hands[seat], card):
            raise _error(f"{{seat}} cannot give {{card}} as {what}: not in their hand",
                         ("engine.tribute_not_held" if what == "tribute"
                          else "engine.return_not_held"), seat=seat.name, card=KIND_TOKENS[card])

    def verify_tribute(self, seat: Seat, card: Kind) -> None:
        """Raise :class:`TributeError` unless ``seat`` may pay ``card`` as tribute now."""
        seat = self._check_seat(seat, "tribute")
        if self.resisted:
            raise _error("{seat} owes no tribute: the tribute is resisted (抗贡, §9), the "
                         "payers hold both big jokers", "engine.tribute_resisted",
                         seat=seat.name)
        if seat not in self.payers:
            payers = joined([_seat(p) for p in self.payers], "engine.both", " and ")
            if len(self.payers) == 1:
                raise _error("{seat} owes no tribute: only {payers} pays (§9)",
                             "engine.tribute_only_one_pays", seat=seat.name, payers=payers)
            raise _error("{seat} owes no tribute: only {payers} pay (§9)",
                         "engine.tribute_only_they_pay", seat=seat.name, payers=payers)
        if seat in self._paid:
            raise _error("{seat} has already paid tribute ({card})", "engine.tribute_paid",
                         seat=seat.name, card=KIND_TOKENS[self._paid[seat]])
        self._held(seat, card, "tribute")
        legal = self.legal_tributes(seat)
        if not legal:
            # Only possible with hands of wild hearts alone (never with 27 dealt cards).
            raise _no_tribute(seat)
        if card not in legal:
            must = _either(legal)
            if card == wild_kind(self.level):
                raise _error("{seat} cannot pay {card} as tribute: wild hearts are never "
                             "demanded as tribute (RULES.md §9); must pay {legal}",
                             "engine.tribute_wild", seat=seat.name, card=KIND_TOKENS[card],
                             legal=must)
            raise _error("{seat} cannot pay {card} as tribute: the tribute is the highest "
                         "card in level order, wild hearts excepted (RULES.md §9); must pay "
                         "{legal}", "engine.tribute_not_highest", seat=seat.name,
                         card=KIND_TOKENS[card], legal=must)

    def can_tribute(self, seat: Seat, card: Kind) -> bool:
        """True when :meth:`verify_tribute` would accept."""
        try:
            self.verify_tribute(seat, card)
        except GuandanError:
            return False
        return True

    def tribute(self, seat: Seat, card: Kind) -> Transfer:
        """Verify and pay ``card`` from ``seat``; return the record of it."""
        self.verify_tribute(seat, card)
        self._paid[seat] = card
        self._hands[seat] -= KIND_BIT[card]
        if not self.double_down:
            receiver = self._receiver_of[seat]
            self._hands[receiver] += KIND_BIT[card]
            done = Transfer("tribute", seat, receiver, card)
            self.transfers.append(done)
            return done
        if len(self._paid) == 2:
            self._assign_double()
            return next(t for t in self.transfers if t.giver == seat)
        return Transfer("tribute", seat, None, card)

    def _assign_double(self) -> None:
        """Double down, both paid (§9): the higher tribute to the 1st, the lower to the 2nd;
        equal ones → each loser pays the winner just before them (贡左还右)."""
        order = self.previous.finish_order
        first, second = order[0], order[1]
        a, b = self.payers
        va = level_value(rank_of(self._paid[a]), self.level)
        vb = level_value(rank_of(self._paid[b]), self.level)
        if va == vb:
            self.equal_tributes = True
            self._receiver_of = {a: a.prev, b: b.prev}
        elif va > vb:
            self._receiver_of = {a: first, b: second}
        else:
            self._receiver_of = {b: first, a: second}
        for payer in (a, b):
            receiver = self._receiver_of[payer]
            card = self._paid[payer]
            self._hands[receiver] += KIND_BIT[card]
            self.transfers.append(Transfer("tribute", payer, receiver, card))

    # --- return ------------------------------------------------------------------------

    def verify_return(self, seat: Seat, card: Kind) -> None:
        """Raise :class:`TributeError` unless ``seat`` may return ``card`` now."""
        seat = self._check_seat(seat, "return")
        if seat in self._returned:
            raise _error("{seat} has already returned {card}", "engine.return_returned",
                         seat=seat.name, card=KIND_TOKENS[self._returned[seat]])
        if seat not in self.pending_returns():
            order = self.previous.finish_order
            receivers = order[:2] if self.double_down else order[:1]
            if not self.resisted and seat in receivers and self.pending_tributes():
                raise _error("{seat} cannot return yet: {pending}", "engine.return_not_yet",
                             seat=seat.name, pending=self.pending_part())
            raise _error("{seat} owes no return card (§9)", "engine.return_owes_none",
                         seat=seat.name)
        self._held(seat, card, "return")
        legal = self.legal_returns(seat)
        if card not in legal:
            limit = self.rules.return_limit(self.level)
            raise _error("{seat} cannot return {card}: the return card is of rank {limit} or "
                         "below, or the lowest card when there is none (RULES.md §9); may "
                         "return {legal}", "engine.return_too_high", seat=seat.name,
                         card=KIND_TOKENS[card], limit=_rank(limit), legal=_either(legal))

    def can_return(self, seat: Seat, card: Kind) -> bool:
        """True when :meth:`verify_return` would accept."""
        try:
            self.verify_return(seat, card)
        except GuandanError:
            return False
        return True

    def give_return(self, seat: Seat, card: Kind) -> Transfer:
        """Verify and return ``card`` from ``seat`` to the one who paid it; record it."""
        self.verify_return(seat, card)
        payer = next(p for p, r in self._receiver_of.items() if r == seat)
        self._returned[seat] = card
        self._hands[seat] -= KIND_BIT[card]
        self._hands[payer] += KIND_BIT[card]
        done = Transfer("return", seat, payer, card)
        self.transfers.append(done)
        return done

    def complete(
        self, choose_tribute: Chooser | None = None, choose_return: Chooser | None = None
    ) -> None:
        """Make every remaining tribute and return with the given choosers.

        A chooser gets the seat and its legal cards (low to high in level order); by
        default the first is taken: the first of equal highest tributes, the lowest return.
        """
        for seat in self.pending_tributes():
            options = self.legal_tributes(seat)
            if not options:
                raise _no_tribute(seat)
            self.tribute(seat, choose_tribute(seat, options) if choose_tribute else options[0])
        for seat in self.pending_returns():
            options = self.legal_returns(seat)
            self.give_return(seat, choose_return(seat, options) if choose_return else options[0])


class LevelUpdate(NamedTuple):
    """Levels after a deal (§7–8): both sides' levels and failures at A, whether the
    winner passed A, the level of the next deal (the winner's level) and whose level it
    is (``next_owner``: the winner)."""

    levels: tuple[int, int]
    a_failures: tuple[int, int]
    passed_a: bool
    next_level: int
    next_owner: Side


_BOTH = (Side.NS, Side.EW)


def level_up(
    levels: tuple[int, int],
    a_failures: tuple[int, int],
    owner: Side | None,
    result: DealResult,
    rules: Ruleset = COMPETITION,
) -> LevelUpdate:
    """Apply a deal's result to the levels (RULES.md §7–8), as a pure function.

    ``owner`` is the side whose level the deal was played at: the last winning side, or
    None for the first deal of a match, whose level (2) is both sides' (§8). The deal was
    played at ``levels[owner]``.

    The winner gains ``result.levels``, capped at A. It passes A (过A) by winning a deal
    played at its own level A (it is the owner) with its partner 2nd or 3rd; 1st + 4th
    at A does not pass. When both sides are at A the deal is the owner's A: the other
    side, winning it, stays at A without passing and owns the next deal. A failure at A
    is a deal played at the side's own level A after which the side has not passed A: it
    is counted for the owner only. Under ``rules.a_fail_limit`` a side whose failures
    reach the limit goes back to 2 and its count starts again.

    Raises :class:`GuandanError` when ``owner`` is neither a :class:`Side` nor None, or is
    None with unequal levels (a deal is both sides' only at their common level).
    """
    if owner is None:
        if levels[0] != levels[1]:
            raise GuandanError(
                f"a deal belongs to both sides only when their levels are equal, not "
                f"{rank_name(levels[0])} and {rank_name(levels[1])}: name the deal's owner"
            )
        owners: tuple[Side, ...] = _BOTH
    elif isinstance(owner, Side):
        owners = (owner,)
    else:
        raise GuandanError(f"the deal's owner must be a Side (NS, EW) or None, not {owner!r}")
    w = result.winner
    if w in owners and levels[w] == RANK_A and result.partner_place in (2, 3):
        return LevelUpdate(levels, a_failures, True, RANK_A, w)
    new = list(levels)
    fails = list(a_failures)
    new[w] = min(RANK_A, levels[w] + result.levels)
    for side in owners:
        if levels[side] == RANK_A:
            fails[side] += 1
            if rules.a_fail_limit and fails[side] >= rules.a_fail_limit:
                new[side] = 0
                fails[side] = 0
    return LevelUpdate((new[0], new[1]), (fails[0], fails[1]), False, new[w], w)


class DealRecord(NamedTuple):
    """One finished deal of a match, with what came before it and the levels after it.

    ``owner`` is the side whose level the deal was played at (§8: the last winning side;
    None for the first deal, whose level is both sides')."""

    number: int
    level: int
    leader: Seat
    tribute: TributePhase | None
    deal: Deal
    result: DealResult
    levels_after: tuple[int, int]
    owner: Side | None


class Match:
    """A match between N–S and E–W, from level 2 until a side passes A (RULES.md §8).

    ``first_leader`` leads the first deal (§10: drawn from the deal's seed by the
    caller). Each deal is played at the level of its owner, the last winning side (the
    first deal at 2, both sides'): :attr:`deal_owner`, :attr:`deal_level`.

    ``max_deals``, when given, ends the match after that many deals, and
    :meth:`end_by_levels` ends it at once (time): the higher level wins, by the level
    difference (§8). With equal levels one more deal is played (:attr:`extra_deal`; so a
    match may have ``max_deals + 1`` deals) and decides: a side that passes A in it wins;
    otherwise the higher level after it wins, by the difference; if the levels are still
    equal (only possible with both sides at A), the extra deal's winner wins the match,
    by 0 levels (end reason ``"extra deal"``). Under the variant ``limit_draw`` equal
    levels at the limit are a draw instead.
    """

    def __init__(
        self,
        rules: Ruleset = COMPETITION,
        first_leader: Seat = Seat.N,
        *,
        max_deals: int | None = None,
    ) -> None:
        if max_deals is not None and max_deals < 1:
            raise GuandanError(f"max_deals must be at least 1, not {max_deals}")
        self.rules = rules
        self.first_leader = first_leader
        self.max_deals = max_deals
        self._levels = [0, 0]
        self._a_failures = [0, 0]
        self._history: list[DealRecord] = []
        self._deal_level = 0
        self._deal_owner: Side | None = None
        self._extra = False
        self._pending: list[Cards] | None = None
        self._phase: TributePhase | None = None
        self._deal: Deal | None = None
        self._winner: Side | None = None
        self._over = False
        self._margin: int | None = None
        self._end_reason = ""

    # --- state -------------------------------------------------------------------------

    @property
    def levels(self) -> tuple[int, int]:
        """Levels (rank index 0..12 = 2..A) of N–S and E–W, indexable by :class:`Side`."""
        return (self._levels[0], self._levels[1])

    def level(self, side: Side) -> int:
        """The level of ``side``."""
        return self._levels[side]

    @property
    def a_failures(self) -> tuple[int, int]:
        """Failures at A (§8) of N–S and E–W since they last went back to 2."""
        return (self._a_failures[0], self._a_failures[1])

    @property
    def deal_level(self) -> int:
        """The level of the next (or current) deal: the last winning side's level (§8)."""
        return self._deal_level

    @property
    def deal_owner(self) -> Side | None:
        """Whose level the next (or current) deal is: the last winning side (§8); None
        before the first deal has finished (the first deal's level is both sides')."""
        return self._deal_owner

    @property
    def extra_deal(self) -> bool:
        """True when the deal limit (or :meth:`end_by_levels`) came with equal levels and
        the one more deal that decides (§8) is the next or current deal."""
        return self._extra and not self._over

    @property
    def history(self) -> list[DealRecord]:
        """The finished deals, in order."""
        return list(self._history)

    @property
    def deals_played(self) -> int:
        """Number of finished deals."""
        return len(self._history)

    @property
    def current_deal(self) -> Deal | None:
        """The deal in progress, if any."""
        return self._deal

    @property
    def tribute_phase(self) -> TributePhase | None:
        """The tribute phase of the coming deal, if one is under way."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once the match has ended."""
        return self._over

    @property
    def winner(self) -> Side | None:
        """The winning side (None while playing, or for a draw under ``limit_draw``)."""
        return self._winner

    @property
    def margin(self) -> int | None:
        """Level difference when the match ended by a deal limit or :meth:`end_by_levels`
        (after the extra deal, if one was played); None otherwise."""
        return self._margin

    @property
    def end_reason(self) -> str:
        """Why the match ended: ``"passed A"``, ``"levels"`` (limit or time, or the levels
        after the extra deal), ``"extra deal"`` (equal levels after it: its winner won),
        or ``""``."""
        return self._end_reason

    def _check_live(self) -> None:
        if self._over:
            raise GameOverError(f"the match is over: {self.describe()}")

    def describe(self) -> str:
        """One line: levels, failures at A, deals played, winner."""
        lv = f"NS {rank_name(self._levels[0])} EW {rank_name(self._levels[1])}"
        fails = f"A-failures NS {self._a_failures[0]} EW {self._a_failures[1]}"
        end = ""
        if self._over:
            who = self._winner.name if self._winner is not None else "draw"
            end = f", over ({self._end_reason}): {who}"
        elif self._extra:
            end = ", extra deal (equal levels at the limit)"
        return f"{lv}, {fails}, {len(self._history)} deals{end}"

    # --- tribute (delegated to the phase) ---------------------------------------------

    def _need_phase(self) -> TributePhase:
        if self._phase is None:
            raise _error("no tribute phase is under way: call deal_hands first",
                         "engine.tribute_none")
        return self._phase

    def legal_tributes(self, seat: Seat) -> list[Kind]:
        """The cards ``seat`` may pay as tribute now (empty when it owes none)."""
        return self._phase.legal_tributes(seat) if self._phase is not None else []

    def legal_returns(self, seat: Seat) -> list[Kind]:
        """The cards ``seat`` may return now (empty when it owes none)."""
        return self._phase.legal_returns(seat) if self._phase is not None else []

    def verify_tribute(self, seat: Seat, card: Kind) -> None:
        """Raise :class:`TributeError` unless ``seat`` may pay ``card`` now."""
        self._need_phase().verify_tribute(seat, card)

    def can_tribute(self, seat: Seat, card: Kind) -> bool:
        """True when :meth:`verify_tribute` would accept."""
        return self._phase is not None and self._phase.can_tribute(seat, card)

    def tribute(self, seat: Seat, card: Kind) -> Transfer:
        """Pay ``card`` from ``seat`` as tribute (§9)."""
        return self._need_phase().tribute(seat, card)

    def verify_return(self, seat: Seat, card: Kind) -> None:
        """Raise :class:`TributeError` unless ``seat`` may return ``card`` now."""
        self._need_phase().verify_return(seat, card)

    def can_return(self, seat: Seat, card: Kind) -> bool:
        """True when :meth:`verify_return` would accept."""
        return self._phase is not None and self._phase.can_return(seat, card)

    def give_return(self, seat: Seat, card: Kind) -> Transfer:
        """Return ``card`` from ``seat`` to the one who paid it (§9)."""
        return self._need_phase().give_return(seat, card)

    # --- deals -------------------------------------------------------------------------

    def deal_hands(self, hands: Sequence[Cards]) -> TributePhase | None:
        """Begin the next deal with freshly dealt ``hands`` (N, E, S, W).

        From the second deal on this opens the tribute phase (§9), returned; it may be
        already complete (resisted). The first deal has none (None).
        """
        self._check_live()
        if self._deal is not None or self._pending is not None:
            raise GuandanError("a deal is already under way: finish it first")
        self._pending = list(check_hands(hands))
        if self._history:
            self._phase = TributePhase(
                hands, self._deal_level, self._history[-1].result, self.rules
            )
        return self._phase

    def start_deal(self, hands: Sequence[Cards] | None = None) -> Deal:
        """Start the deal at the right level and leader, after the tribute (§8–9).

        With ``hands``, they are dealt now and any tribute and return are made with the
        default choices (see :meth:`TributePhase.complete`). Without, the hands given to
        :meth:`deal_hands` are used and the tribute phase must be complete.
        """
        if hands is not None:
            self.deal_hands(hands)
            if self._phase is not None:
                self._phase.complete()
        self._check_live()
        if self._pending is None:
            raise GuandanError("no hands dealt: call deal_hands(hands) or start_deal(hands)")
        if self._deal is not None:
            raise GuandanError("a deal is already under way: finish it first")
        phase = self._phase
        if phase is None:
            dealt: Sequence[Cards] = self._pending
            leader = self.first_leader
        else:
            if not phase.is_complete:
                raise _error("the tribute phase is not complete: {pending}",
                             "engine.tribute_not_complete", pending=phase.pending_part())
            dealt = phase.hands
            leader = phase.leader
        self._deal = Deal(dealt, self._deal_level, leader, self.rules)
        return self._deal

    def finish_deal(self) -> DealResult:
        """Apply the finished current deal's result to the levels (§7–8); return it."""
        deal = self._deal
        if deal is None:
            raise GuandanError("no deal is under way")
        result = deal.result()  # raises DealNotOverError while the deal goes on
        update = level_up(self.levels, self.a_failures, self._deal_owner, result, self.rules)
        self._levels = list(update.levels)
        self._a_failures = list(update.a_failures)
        self._history.append(
            DealRecord(
                len(self._history) + 1,
                deal.level,
                deal.leader,
                self._phase,
                deal,
                result,
                self.levels,
                self._deal_owner,
            )
        )
        self._deal = None
        self._phase = None
        self._pending = None
        self._deal_level = update.next_level
        self._deal_owner = update.next_owner
        if update.passed_a:
            self._end(result.winner, "passed A", None)
        elif self._extra:
            ns, ew = self._levels
            if ns == ew:  # still equal (both at A): the extra deal decides by its winner
                self._end(result.winner, "extra deal", 0)
            else:
                self._end(Side.NS if ns > ew else Side.EW, "levels", abs(ns - ew))
        elif self.max_deals is not None and len(self._history) >= self.max_deals:
            self.end_by_levels()
        return result

    def end_by_levels(self) -> bool:
        """End the match (deal limit or time, §8): the higher level wins by the difference.

        With equal levels one more deal is played and decides (see the class): the match
        goes on into its :attr:`extra_deal` and False is returned (also when asked again
        before that deal is over). Under the variant ``limit_draw`` equal levels are a
        draw. Returns True when the match is over.
        """
        self._check_live()
        if self._deal is not None or self._pending is not None:
            raise GuandanError("a deal is under way: finish it before ending the match")
        ns, ew = self._levels
        if ns != ew:
            self._end(Side.NS if ns > ew else Side.EW, "levels", abs(ns - ew))
        elif self.rules.limit_draw:
            self._end(None, "levels", 0)
        else:
            self._extra = True
        return self._over

    def _end(self, winner: Side | None, reason: str, margin: int | None) -> None:
        self._over = True
        self._winner = winner
        self._end_reason = reason
        self._margin = margin


def play_match(
    policy: Policy,
    deal_source: Callable[[int], Sequence[Cards]],
    rules: Ruleset = COMPETITION,
    first_leader: Seat = Seat.N,
    *,
    max_deals: int | None = None,
    choose_tribute: Chooser | None = None,
    choose_return: Chooser | None = None,
) -> Match:
    """Play a whole match: ``deal_source(i)`` deals the hands of deal ``i`` (0-based),
    ``policy(deal)`` picks each play (None = pass), the choosers pick tribute and return
    cards (default: the first legal). Returns the finished match."""
    match = Match(rules, first_leader, max_deals=max_deals)
    while not match.is_over:
        phase = match.deal_hands(deal_source(match.deals_played))
        if phase is not None:
            phase.complete(choose_tribute, choose_return)
        deal = match.start_deal()
        while not deal.is_over:
            combo = policy(deal)
            if combo is None:
                deal.pass_()
            else:
                deal.play(combo)
        match.finish_deal()
    return match
