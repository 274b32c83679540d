"""One deal of Guandan: its state machine (RULES.md §6–7).

:class:`Deal` holds the four hands, whose turn it is, the play to beat, the finishing
order and the history of actions. Every action has pokerkit's triad, so that legality
lives in one place: ``verify_play`` raises with the reason, ``can_play`` answers yes or
no, ``play`` verifies, acts and returns a frozen :class:`Action` appended to
``deal.actions``; the same for passing (``verify_pass``/``can_pass``/``pass_``).
``undo`` pops the last action from a stack of snapshots (python-chess's ``pop``), and
every error message carries :meth:`Deal.position`, a one-line picture of the state.

Trick flow (§6): turns go N → E → S → W, skipping players who have finished. A trick
ends when every other player still holding cards has passed in succession after the
last play; its last player leads the next one. When that player has finished, their
partner leads (接风), or, under the variant ``jiefeng_next``, the next unfinished
player after them. The deal ends as soon as both players of one side have finished.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine import core as _core
from engine.cards import (
    FIELD,
    FULL_PACK,
    GUARD_BITS,
    NUM_KINDS,
    Cards,
    count,
    format_cards,
    is_subset,
    iter_kinds,
    rank_name,
    size,
)
from engine.combo import Combo, ComboType
from engine.constants import REPORT_LIMIT
from engine.errors import (
    GameOverError,
    GuandanError,
    IllegalPlayError,
    InvalidComboError,
    OutOfTurnError,
)
from engine.moves import legal_plays as _legal_plays
from engine.moves import legal_readings as _legal_readings
from engine.reading import choose_reading, read_declared
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat, Side

__all__ = [
    "REPORT_LIMIT",
    "Action",
    "CDeal",
    "Deal",
    "DealNotOverError",
    "DealResult",
    "PyDeal",
    "Trick",
    "check_hands",
]


_SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S, Seat.W)
#: the compiled core (engine.core.compiled) the ``c_`` methods call
_C: Any = _core.compiled
_ALL_KINDS_MASK = (1 << (FIELD * NUM_KINDS)) - 1


class DealNotOverError(GuandanError):
    """The result of a deal was asked for before the deal ended."""


class Action(NamedTuple):
    """One action of a deal, as recorded: a play (``combo``) or a pass (``combo is None``).

    ``cards_left`` is the count of the actor's hand after the action: card counts are
    public in the record (§6).
    """

    seat: Seat
    combo: Combo | None
    cards_left: int

    @property
    def is_pass(self) -> bool:
        """True for a pass (过)."""
        return self.combo is None

    def record(self) -> str:
        """The FORMAT.md play line: ``S Straight 3 S3 H4 C5 D6 H7`` or ``W PASS``."""
        if self.combo is None:
            return f"{self.seat.name} PASS"
        return f"{self.seat.name} {self.combo.describe()} {format_cards(self.combo.cards)}"


class Trick(NamedTuple):
    """A completed trick (一圈): who led it, its plays (passes left out), who won it.

    ``start`` and ``end`` delimit the trick's actions, passes included, in
    ``deal.actions[start:end]``. The last trick of a deal is closed when the deal ends;
    its winner is then its last player.
    """

    leader: Seat
    plays: tuple[Action, ...]
    winner: Seat
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """The result of a finished deal (RULES.md §6–7; FORMAT.md ``Finish`` and ``Result``).

    Attributes:
        finish_order: the four seats, 1st to 4th. For a double down (``double_down``)
            the last two have no order between them (§6) and are listed in play order.
        winner: the side of the 1st player: only that side goes up (§7).
        levels: levels gained by ``winner``: 3 (or 4 with ``double_down_plus4``), 2 or 1.
        double_down: the losers are 双下, both behind the winners.
    """

    finish_order: tuple[Seat, Seat, Seat, Seat]
    winner: Side
    levels: int
    double_down: bool

    @property
    def first(self) -> Seat:
        """The 1st player (上游)."""
        return self.finish_order[0]

    @property
    def partner_place(self) -> int:
        """The place (2, 3 or 4) of the 1st player's partner, which sets the gain (§7)."""
        return self.finish_order.index(self.first.partner) + 1

    def place(self, seat: Seat) -> int:
        """The place (1..4) of ``seat``."""
        return self.finish_order.index(seat) + 1

    def score(self, side: Side) -> int:
        """Levels gained by ``side`` (positive) or conceded (negative), as duplicate scores them."""
        return self.levels if side == self.winner else -self.levels

    @property
    def result_tag(self) -> str:
        """FORMAT.md ``Result`` value: ``NS +2``."""
        return f"{self.winner.name} +{self.levels}"

    @property
    def finish_tag(self) -> str:
        """FORMAT.md ``Finish`` value: ``S W N E`` (all four seats)."""
        return " ".join(s.name for s in self.finish_order)


# A snapshot of the scalar state before an action. The lists (actions, finish order,
# tricks) are append-only and are restored by truncation to the recorded lengths; the card
# counts are restored from the undone action (cards left + cards played).
_Snapshot = tuple[
    tuple[Cards, ...],  # hands
    Seat | None,  # turn
    Combo | None,  # to_beat
    Seat | None,  # last player
    int,  # passes since the last play
    Seat,  # leader of the current trick
    int,  # action index where the current trick began
    int,  # len(finish_order)
    int,  # len(tricks)
    bool,  # over
]


def _missing(part: Cards, whole: Cards) -> Cards:
    """The cards of ``part`` that ``whole`` lacks (as a multiset difference)."""
    out = 0
    for k in set(iter_kinds(part)):
        lack = count(part, k) - count(whole, k)
        if lack > 0:
            out += lack << (FIELD * k)
    return out


def check_hands(hands: Sequence[Cards]) -> tuple[Cards, Cards, Cards, Cards]:
    """Check four hands (N, E, S, W) and return them as a tuple: each a real multiset of
    cards, not empty, and together within the two packs; raises :class:`GuandanError`
    naming the hand at fault."""
    if len(hands) != 4:
        raise GuandanError(f"a deal needs 4 hands (N, E, S, W), not {len(hands)}",
                           "engine.four_hands", n=len(hands))
    total = 0
    for seat, hand in zip(_SEATS, hands, strict=True):
        if (
            not isinstance(hand, int)
            or hand < 0
            or hand & ~_ALL_KINDS_MASK
            or hand & GUARD_BITS
            or not is_subset(hand, FULL_PACK)
        ):
            raise GuandanError(f"hand of {seat.name} is not a valid set of cards: {hand!r}",
                               "engine.bad_hand", seat=seat.name, shown=repr(hand))
        if hand == 0:
            raise GuandanError(f"hand of {seat.name} is empty: every player starts with cards",
                               "engine.empty_hand", seat=seat.name)
        if not is_subset(hand, FULL_PACK - total):
            extra = _missing(hand, FULL_PACK - total)
            raise GuandanError(
                f"hand of {seat.name} holds {format_cards(extra)}, more copies than the two "
                f"packs have together with the other hands",
                "engine.too_many_copies", seat=seat.name, cards=format_cards(extra),
            )
        total += hand
    return (hands[0], hands[1], hands[2], hands[3])


class Deal:
    """The state of one deal (RULES.md §6–7), driven by plays and passes.

    ``hands`` are N, E, S, W as ``Cards``; ``level`` is the rank index 0..12 (2..A) the
    deal is played at; ``leader`` leads the first trick.
    """

    __slots__ = (
        "level",
        "leader",
        "rules",
        "initial_hands",
        "_hands",
        "_counts",
        "_turn",
        "_to_beat",
        "_last",
        "_passes",
        "_trick_leader",
        "_trick_start",
        "_finish",
        "_over",
        "_reported",
        "_tricks",
        "_actions",
        "_history",
    )

    level: int
    leader: Seat
    rules: Ruleset
    initial_hands: tuple[Cards, Cards, Cards, Cards]
    _hands: tuple[Cards, ...]
    _counts: list[int]
    _turn: Seat | None
    _to_beat: Combo | None
    _last: Seat | None
    _passes: int
    _trick_leader: Seat
    _trick_start: int
    _finish: list[Seat]
    _over: bool
    _reported: dict[Seat, int]
    _tricks: list[Trick]
    _actions: list[Action]
    _history: list[_Snapshot]

    def __init__(
        self,
        hands: Sequence[Cards],
        level: int,
        leader: Seat,
        rules: Ruleset = COMPETITION,
    ) -> None:
        if not isinstance(level, int) or not 0 <= level <= 12:
            raise GuandanError(f"invalid level {level!r}: a level is a rank index 0..12 (2..A)",
                               "engine.bad_level_index", level=repr(level))
        if not isinstance(leader, Seat):
            raise GuandanError(f"invalid leader {leader!r}: expected a Seat", "engine.bad_leader",
                               shown=repr(leader))
        self.initial_hands = check_hands(hands)
        self.level = level
        self.leader = leader
        self.rules = rules
        self._hands = self.initial_hands
        self._counts = [size(h) for h in self.initial_hands]
        self._turn = leader
        self._to_beat = None
        self._last = None
        self._passes = 0
        self._trick_leader = leader
        self._trick_start = 0
        self._finish = []
        self._over = False
        self._reported = {}
        self._tricks = []
        self._actions = []
        self._history = []

    # --- state -------------------------------------------------------------------------

    @property
    def hands(self) -> tuple[Cards, ...]:
        """The four hands now, indexed by seat (N, E, S, W)."""
        return self._hands

    def hand(self, seat: Seat) -> Cards:
        """The hand of ``seat`` now."""
        return self._hands[seat]

    @property
    def card_counts(self) -> tuple[int, ...]:
        """How many cards each seat holds now (public in the record, §6)."""
        return tuple(self._counts)

    @property
    def turn(self) -> Seat | None:
        """The seat to act, or None when the deal is over."""
        return self._turn

    @property
    def to_beat(self) -> Combo | None:
        """The play to beat, or None when the seat to act leads."""
        return self._to_beat

    @property
    def last_player(self) -> Seat | None:
        """The seat that made the play to beat (None when leading)."""
        return self._last

    @property
    def trick_leader(self) -> Seat:
        """The seat that led the current trick."""
        return self._trick_leader

    @property
    def finish_order(self) -> list[Seat]:
        """Seats that have finished, in order; all four once the deal is over (§6)."""
        return list(self._finish)

    @property
    def is_over(self) -> bool:
        """True once both players of one side have finished (§6)."""
        return self._over

    @property
    def reported(self) -> dict[Seat, int]:
        """Seats that reported (报牌, §6) holding 10 cards or fewer, with the index of the
        action after which they did. A seat reports once per deal, at the first play that
        leaves it at 10 cards or fewer (its last play included)."""
        return dict(self._reported)

    @property
    def tricks(self) -> list[Trick]:
        """Completed tricks, in order."""
        return list(self._tricks)

    @property
    def actions(self) -> list[Action]:
        """Every action so far, in order."""
        return list(self._actions)

    @property
    def played(self) -> Cards:
        """All cards played so far."""
        total = 0
        for a in self._actions:
            if a.combo is not None:
                total += a.combo.cards
        return total

    def position(self) -> str:
        """One line describing the state: hands, level, turn, play to beat, finished seats.

        Every error raised by the deal carries it, as python-chess's errors carry a FEN.
        """
        hands = " ".join(
            f"{s.name}:{format_cards(h, self.level).replace(' ', ',') or '-'}"
            for s, h in zip(_SEATS, self._hands, strict=True)
        )
        turn = self._turn.name if self._turn is not None else "-"
        if self._to_beat is None or self._last is None:
            beat = "-"
        else:
            tb = self._to_beat
            beat = f"{self._last.name}:{tb.type.record_name}:{rank_name(tb.rank)}:" + (
                format_cards(tb.cards).replace(" ", ",")
            )
        out = "".join(s.name for s in self._finish) or "-"
        return f"{hands} level={rank_name(self.level)} turn={turn} beat={beat} out={out}"

    def _error(
        self, cls: type[GuandanError], reason: str, key: str | None = None, **values: str | int
    ) -> GuandanError:
        return cls(f"{reason} [position {self.position()}]", key, **values)

    # --- verification ------------------------------------------------------------------

    def _check_actor(self, seat: Seat | None) -> Seat:
        """The seat to act; raises when the deal is over or ``seat`` is not it."""
        turn = self._turn
        if turn is None:
            raise self._error(GameOverError, "the deal is over: no more plays or passes",
                              "engine.deal_over")
        if seat is not None and seat != turn:
            if seat not in _SEATS:
                raise self._error(GuandanError, f"invalid seat {seat!r}: expected N, E, S or W",
                                  "engine.bad_seat", shown=repr(seat))
            raise self._error(
                OutOfTurnError, f"{Seat(seat).name} acted out of turn: it is {turn.name}'s turn",
                "engine.out_of_turn", seat=Seat(seat).name, turn=turn.name,
            )
        return turn

    def _check_held(self, actor: Seat, cards: Cards) -> None:
        hand = self._hands[actor]
        if cards <= 0 or cards & GUARD_BITS or cards & ~_ALL_KINDS_MASK:
            raise self._error(IllegalPlayError, f"{actor.name} plays no cards: {cards!r}",
                              "engine.no_cards", seat=actor.name, cards=repr(cards))
        if not is_subset(cards, hand):
            lack = _missing(cards, hand)
            raise self._error(
                IllegalPlayError,
                f"{actor.name} does not hold {format_cards(lack, self.level)} "
                f"(plays {format_cards(cards, self.level)})",
                "engine.not_held", seat=actor.name, lack=format_cards(lack, self.level),
                cards=format_cards(cards, self.level),
            )

    def _check_beats(self, actor: Seat, combo: Combo) -> None:
        tb = self._to_beat
        if tb is not None and not combo.beats(tb, self.level):
            assert self._last is not None
            raise self._error(
                IllegalPlayError,
                f"{actor.name}'s {combo.describe()} ({format_cards(combo.cards)}) does not beat "
                f"{self._last.name}'s {tb.describe()} ({format_cards(tb.cards)})",
                "engine.not_beat", seat=actor.name, combo=combo.describe(),
                cards=format_cards(combo.cards), last=self._last.name, last_combo=tb.describe(),
                last_cards=format_cards(tb.cards),
            )

    def _check_reading(self, actor: Seat, combo: Combo) -> None:
        try:
            reading = read_declared(combo.cards, self.level, combo.type, combo.rank, self.rules)
        except InvalidComboError as exc:
            raise self._error(
                IllegalPlayError,
                f"{actor.name}'s play is not a valid reading: {exc}",
                "engine.not_reading", seat=actor.name, why=str(exc),
            ) from exc
        if reading != combo:
            raise self._error(
                IllegalPlayError,
                f"{actor.name}'s play {combo.describe()} ({format_cards(combo.cards)}) is not "
                f"a valid reading of its cards",
                "engine.not_reading_of", seat=actor.name, combo=combo.describe(),
                cards=format_cards(combo.cards),
            )

    def py_verify_play(self, combo: Combo, seat: Seat | None = None) -> None:
        """Raise unless the seat to act (``seat``, if given, must be it) may play ``combo``.

        Raises :class:`GameOverError` after the deal, :class:`OutOfTurnError`, or
        :class:`IllegalPlayError` naming the reason: cards not held (which), not a valid
        reading of its cards, or not beating the play to beat (§4).
        """
        actor = self._check_actor(seat)
        self._check_held(actor, combo.cards)
        self._check_reading(actor, combo)
        self._check_beats(actor, combo)

    def c_verify_play(self, combo: Combo, seat: Seat | None = None) -> None:
        """:meth:`py_verify_play` with its three checks at once in the compiled core; when
        it says no, the Python checks name the failure."""
        actor = self._check_actor(seat)
        try:
            if _C.is_legal(self._hands[actor], combo, self.level, self._to_beat, self.rules):
                return
        except (GuandanError, TypeError):
            pass
        self._check_held(actor, combo.cards)
        self._check_reading(actor, combo)
        self._check_beats(actor, combo)

    #: bound once, to the implementation engine.core chose
    verify_play = c_verify_play if _core.native is not None else py_verify_play

    def can_play(self, combo: Combo, seat: Seat | None = None) -> bool:
        """True when :meth:`verify_play` would accept ``combo``."""
        try:
            self.verify_play(combo, seat)
        except GuandanError:
            return False
        return True

    def verify_pass(self, seat: Seat | None = None) -> None:
        """Raise unless the seat to act may pass: never when leading (§6)."""
        actor = self._check_actor(seat)
        if self._to_beat is None:
            raise self._error(
                IllegalPlayError, f"{actor.name} leads and may not pass: the leader must play",
                "engine.lead_pass", seat=actor.name,
            )

    def can_pass(self, seat: Seat | None = None) -> bool:
        """True when :meth:`verify_pass` would accept a pass."""
        try:
            self.verify_pass(seat)
        except GuandanError:
            return False
        return True

    # --- actions -----------------------------------------------------------------------

    def play(self, combo: Combo, seat: Seat | None = None) -> Action:
        """Verify and make the play ``combo`` for the seat to act; return its record."""
        self.verify_play(combo, seat)
        return self._apply_play(combo)

    def pass_(self, seat: Seat | None = None) -> Action:
        """Verify and make a pass for the seat to act; return its record."""
        self.verify_pass(seat)
        return self._apply_pass()

    def py_play_cards(
        self,
        cards: Cards,
        ctype: ComboType | None = None,
        rank: int | None = None,
        seat: Seat | None = None,
    ) -> Action:
        """Play ``cards`` as a record states it (FORMAT.md).

        With ``ctype`` and ``rank`` the declared reading is used (it must be one); without
        them the engine picks the reading by RULES.md §5: the legal one (beating the play
        to beat when following) that ranks highest.
        """
        return self._play_cards(self._check_actor(seat), cards, ctype, rank)

    def c_play_cards(
        self,
        cards: Cards,
        ctype: ComboType | None = None,
        rank: int | None = None,
        seat: Seat | None = None,
    ) -> Action:
        """:meth:`py_play_cards` with a declared reading's checks at once in the compiled
        core; when it says no, the Python checks name the failure."""
        actor = self._check_actor(seat)
        if ctype is not None and rank is not None:
            combo = Combo(ctype, rank, cards)
            try:
                legal = _C.is_legal(self._hands[actor], combo, self.level, self._to_beat,
                                    self.rules)
            except (GuandanError, TypeError):
                legal = False
            if legal:
                return self._apply_play(combo)
        return self._play_cards(actor, cards, ctype, rank)

    #: bound once, to the implementation engine.core chose
    play_cards = c_play_cards if _core.native is not None else py_play_cards

    def _play_cards(
        self, actor: Seat, cards: Cards, ctype: ComboType | None, rank: int | None
    ) -> Action:
        """The reference checks of :meth:`py_play_cards` for ``actor``, then the play."""
        self._check_held(actor, cards)
        if ctype is not None and rank is not None:
            try:
                combo = read_declared(cards, self.level, ctype, rank, self.rules)
            except InvalidComboError as exc:
                raise self._error(
                    IllegalPlayError, f"{actor.name}'s play is not a valid reading: {exc}",
                    "engine.not_reading", seat=actor.name, why=str(exc),
                ) from exc
            self._check_beats(actor, combo)
        elif ctype is None and rank is None:
            try:
                combo = choose_reading(cards, self.level, self._to_beat, self.rules)
            except GuandanError as exc:
                raise self._error(
                    IllegalPlayError,
                    f"{actor.name} cannot play {format_cards(cards, self.level)}: {exc}",
                    "engine.cannot_play", seat=actor.name,
                    cards=format_cards(cards, self.level), why=str(exc),
                ) from exc
            self._check_beats(actor, combo)
        else:
            raise self._error(
                IllegalPlayError,
                f"{actor.name}'s play declares only its "
                f"{'type' if ctype is not None else 'rank'}: a declared reading needs both",
                "engine.half_declared" if ctype is not None else "engine.half_declared_rank",
                seat=actor.name,
            )
        return self._apply_play(combo)

    def _snapshot(self) -> None:
        self._history.append(
            (
                self._hands,
                self._turn,
                self._to_beat,
                self._last,
                self._passes,
                self._trick_leader,
                self._trick_start,
                len(self._finish),
                len(self._tricks),
                self._over,
            )
        )

    def _next_active(self, seat: int, hands: tuple[Cards, ...]) -> Seat:
        """The next seat after ``seat`` in play order that still holds cards."""
        s = (seat + 1) & 3
        while not hands[s]:
            s = (s + 1) & 3
        return _SEATS[s]

    def _apply_play(self, combo: Combo) -> Action:
        """Make a verified play for the seat to act."""
        seat = self._turn
        assert seat is not None
        self._snapshot()
        hands = self._hands
        new = hands[seat] - combo.cards
        if seat == 0:
            hands = (new, hands[1], hands[2], hands[3])
        elif seat == 1:
            hands = (hands[0], new, hands[2], hands[3])
        elif seat == 2:
            hands = (hands[0], hands[1], new, hands[3])
        else:
            hands = (hands[0], hands[1], hands[2], new)
        self._hands = hands
        left = self._counts[seat] - size(combo.cards)
        self._counts[seat] = left
        action = Action(seat, combo, left)
        index = len(self._actions)
        self._actions.append(action)
        if left <= REPORT_LIMIT and seat not in self._reported:
            self._reported[seat] = index
        self._to_beat = combo
        self._last = seat
        self._passes = 0
        if left == 0:
            self._finish.append(seat)
            if not hands[seat ^ 2]:
                self._end(seat)
                return action
        self._turn = self._next_active(seat, hands)
        return action

    def _apply_pass(self) -> Action:
        """Make a verified pass for the seat to act; end the trick when everyone passed."""
        seat = self._turn
        last = self._last
        assert seat is not None and last is not None
        self._snapshot()
        hands = self._hands
        action = Action(seat, None, self._counts[seat])
        self._actions.append(action)
        passes = self._passes + 1
        # §6: the trick ends when every other player still holding cards has passed.
        # While the deal goes on, 4 - len(finish_order) players hold cards.
        others = 3 - len(self._finish) if hands[last] else 4 - len(self._finish)
        if passes >= others:
            self._close_trick(last)
            leader = last if hands[last] else self._jiefeng(last)
            self._trick_leader = leader
            self._turn = leader
            self._to_beat = None
            self._last = None
            self._passes = 0
        else:
            self._passes = passes
            self._turn = self._next_active(seat, hands)
        return action

    def _jiefeng(self, finished: Seat) -> Seat:
        """接风 (§6): who leads after a trick won by a player who has finished.

        Default: the partner (who holds cards, or the deal would be over). Variant
        ``jiefeng_next``: the next player in play order who still holds cards.
        """
        if self.rules.jiefeng_next:
            return self._next_active(finished, self._hands)
        return finished.partner

    def _close_trick(self, winner: Seat) -> None:
        end = len(self._actions)
        start = self._trick_start
        plays = tuple(a for a in self._actions[start:end] if a.combo is not None)
        self._tricks.append(Trick(self._trick_leader, plays, winner, start, end))
        self._trick_start = end

    def _end(self, last: Seat) -> None:
        """Both of one side are out (§6): close the trick and fill the remaining places."""
        self._close_trick(last)
        s = last
        for _ in range(3):
            s = s.next
            if s not in self._finish:
                self._finish.append(s)
        self._over = True
        self._turn = None

    def undo(self) -> Action:
        """Take back the last action, restoring exactly the state before it; return it."""
        if not self._actions:
            raise self._error(GuandanError, "nothing to undo: no action has been made",
                              "engine.no_undo")
        (
            self._hands,
            self._turn,
            self._to_beat,
            self._last,
            self._passes,
            self._trick_leader,
            self._trick_start,
            n_finish,
            n_tricks,
            self._over,
        ) = self._history.pop()
        action = self._actions.pop()
        if action.combo is not None:
            self._counts[action.seat] = action.cards_left + size(action.combo.cards)
        del self._finish[n_finish:]
        del self._tricks[n_tricks:]
        index = len(self._actions)
        if self._reported.get(action.seat) == index:
            del self._reported[action.seat]
        return action

    # --- results and helpers -----------------------------------------------------------

    def result(self) -> DealResult:
        """The result of the finished deal (§6–7): finishing order, winner, levels gained."""
        if not self._over:
            raise self._error(DealNotOverError, "the deal is not over yet: no result",
                              "engine.not_over")
        f = self._finish
        order = (f[0], f[1], f[2], f[3])
        first = order[0]
        partner_place = order.index(first.partner) + 1
        if partner_place == 2:
            levels = 4 if self.rules.double_down_plus4 else 3
        elif partner_place == 3:
            levels = 2
        else:
            levels = 1
        return DealResult(order, first.side, levels, partner_place == 2)

    def legal_plays(self) -> Iterator[Combo]:
        """Every concrete legal play of the seat to act (none once the deal is over)."""
        if self._turn is None:
            return iter(())
        return _legal_plays(self._hands[self._turn], self.level, self._to_beat, self.rules)

    def legal_readings(self) -> list[Combo]:
        """One legal play per distinct (type, rank) for the seat to act."""
        if self._turn is None:
            return []
        return _legal_readings(self._hands[self._turn], self.level, self._to_beat, self.rules)

    def copy(self) -> Deal:
        """An independent copy (history included, so it can be undone too)."""
        new = Deal.__new__(Deal)
        new.level = self.level
        new.leader = self.leader
        new.rules = self.rules
        new.initial_hands = self.initial_hands
        new._hands = self._hands
        new._counts = list(self._counts)
        new._turn = self._turn
        new._to_beat = self._to_beat
        new._last = self._last
        new._passes = self._passes
        new._trick_leader = self._trick_leader
        new._trick_start = self._trick_start
        new._finish = list(self._finish)
        new._over = self._over
        new._reported = dict(self._reported)
        new._tricks = list(self._tricks)
        new._actions = list(self._actions)
        new._history = list(self._history)
        return new

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes up the state, as a hashable tuple (for tests and caches)."""
        return (
            self.initial_hands,
            self.level,
            self.leader,
            self.rules,
            self._hands,
            tuple(self._counts),
            self._turn,
            self._to_beat,
            self._last,
            self._passes,
            self._trick_leader,
            self._trick_start,
            tuple(self._finish),
            self._over,
            tuple(sorted(self._reported.items())),
            tuple(self._tricks),
            tuple(self._actions),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]  # mutable: equal by state, not hashable

    def __repr__(self) -> str:
        return f"<Deal {self.position()}>"


class PyDeal(Deal):
    """A :class:`Deal` whose checks run in Python whatever engine.core chose: the
    reference (the differential tests drive it beside :class:`CDeal`)."""

    __slots__ = ()
    verify_play = Deal.py_verify_play
    play_cards = Deal.py_play_cards


class CDeal(Deal):
    """A :class:`Deal` whose checks run in the compiled core (engine.core.compiled must be
    loaded) whatever engine.core chose."""

    __slots__ = ()
    verify_play = Deal.c_verify_play
    play_cards = Deal.c_play_cards
