"""Comparing how the rooms of a board handled the same cards (DUPLICATE.md, "Comparing").

Scores say who did better; the comparison says where. For a board played in two (or
more) rooms, every record is replayed with the engine and summarised side by side:

* per room: the finishing order and the result seen from N–S;
* per seat: plays made (手数), passes, tricks won and leads taken, bombs, straight
  flushes and joker bombs used, wild hearts used and what each stood for, cards left when
  the deal ended, 接风 given and received;
* the **first divergence**: the first action index at which the rooms did differently,
  with the position there (identical in every room, since the cards are) and what each
  room did;
* the trick-by-trick alignment: trick *k* of each room side by side.

:func:`compare_board` takes records (``duplicate.gdn.DealRecord``) and returns a frozen
:class:`BoardComparison`: plain data that the command line prints and ``duplicate.report``
draws as HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, GdnError, loads
from duplicate.i18n import Phrase, Term, messages, os_reason, phrase
from duplicate.replay import Position, _check_tags, _steps, start
from duplicate.scoring import CONCEDED_SWING, room_result
from duplicate.scoring import swing as board_swing
from engine import uses as _uses
from engine.cards import (
    KIND_TOKENS,
    SUIT_CHARS,
    Cards,
    format_cards,
    rank_name,
    to_tokens,
)
from engine.combo import Combo, ComboType
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat
from engine.uses import CardUse, UseError, describe_combo


class CompareError(DuplicateError):
    """Records that cannot be compared (different boards, too few rooms, a bad play)."""


# --- what the cards of a play stand for (RULES.md §2 逢人配, FORMAT.md): engine.uses ---


def card_uses(combo: Combo, level: int) -> tuple[CardUse, ...]:
    """:func:`engine.uses.card_uses`; :class:`CompareError` when the cards cannot be that
    combination."""
    try:
        return _uses.card_uses(combo, level)
    except UseError as exc:
        raise CompareError(str(exc)) from None


def wild_uses(combo: Combo, level: int) -> tuple[CardUse, ...]:
    """:func:`engine.uses.wild_uses`; :class:`CompareError` when the cards cannot be that
    combination."""
    try:
        return _uses.wild_uses(combo, level)
    except UseError as exc:
        raise CompareError(str(exc)) from None


# --- the comparison's data (plain, frozen: the CLI prints it, duplicate.report draws it) --


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a room, numbered from 0 in play order: a play, or a pass."""

    index: int
    seat: Seat
    combo: Combo | None  # None: a pass
    cards_left: int  # the seat's card count after the action (public, RULES.md §6)

    @property
    def is_pass(self) -> bool:
        """True for a pass (过)."""
        return self.combo is None

    def text(self, level: int) -> str:
        """``Bomb 9 S9 C9 D9 H7`` or ``PASS``, as records write it (without the seat)."""
        return "PASS" if self.combo is None else describe_combo(self.combo, level)

    def same_action(self, other: Move) -> bool:
        """True when both steps are the same seat doing the same thing (same reading too)."""
        return self.seat == other.seat and self.combo == other.combo

    def to_dict(self, level: int) -> dict[str, Any]:
        """JSON form: index, seat, type, rank and cards (sorted), or ``PASS``."""
        if self.combo is None:
            return {"index": self.index, "seat": self.seat.name, "play": "PASS"}
        return {
            "index": self.index,
            "seat": self.seat.name,
            "play": self.combo.type.record_name,
            "rank": rank_name(self.combo.rank),
            "cards": to_tokens(self.combo.cards, level),
            "cards_left": self.cards_left,
        }


@dataclass(frozen=True, slots=True)
class WildUse:
    """A wild heart played, at which action, in which play, and what it stood for."""

    index: int
    play: str
    use: CardUse

    def to_dict(self, level: int) -> dict[str, Any]:
        """JSON form: action index, the play, the card and what it counted as."""
        return {
            "index": self.index,
            "play": self.play,
            "card": KIND_TOKENS[self.use.kind],
            "as": self.stood_for(level),
        }

    def stood_for(self, level: int) -> str:
        """``itself``, a rank (``9``) or a card (``S7``, in a straight flush)."""
        if self.use.as_itself(level):
            return "itself"
        if self.use.suit is None:
            return rank_name(self.use.rank)
        return SUIT_CHARS[self.use.suit] + rank_name(self.use.rank)


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick (一圈) of a room: its leader, every action in it, and its winner.

    A trick is won by its last player (RULES.md §6). ``complete`` is False for the trick
    cut short when the deal ended. ``jiefeng`` is True when the winner had finished with
    the winning play and the lead went to the partner (接风, §6).
    """

    number: int
    leader: Seat
    steps: tuple[Move, ...]
    winner: Seat
    complete: bool
    jiefeng: bool

    @property
    def plays(self) -> tuple[Move, ...]:
        """The plays of the trick, passes left out."""
        return tuple(s for s in self.steps if s.combo is not None)

    def to_dict(self, level: int) -> dict[str, Any]:
        """JSON form of the trick."""
        return {
            "number": self.number,
            "leader": self.leader.name,
            "winner": self.winner.name,
            "complete": self.complete,
            "jiefeng": self.jiefeng,
            "steps": [s.to_dict(level) for s in self.steps],
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """How one seat of one room handled its cards (DUPLICATE.md, "Comparing")."""

    seat: Seat
    player: str
    place: int | None  # 1..4; None when not decided (deal unfinished, or a double down's last two)
    plays: int  # 手数: plays made, passes not counted
    passes: int
    tricks_won: int
    leads: int  # tricks this seat led (the first lead and 接风 included)
    bombs: int
    straight_flushes: int
    joker_bombs: int
    wilds: tuple[WildUse, ...]
    cards_left: Cards
    jiefeng_given: int  # tricks won with a last card, the lead passing to the partner
    jiefeng_received: int

    def to_dict(self, level: int) -> dict[str, Any]:
        """JSON form of the seat's figures."""
        return {
            "seat": self.seat.name,
            "player": self.player,
            "place": self.place,
            "plays": self.plays,
            "passes": self.passes,
            "tricks_won": self.tricks_won,
            "leads": self.leads,
            "bombs": self.bombs,
            "straight_flushes": self.straight_flushes,
            "joker_bombs": self.joker_bombs,
            "wilds": [w.to_dict(level) for w in self.wilds],
            "cards_left": to_tokens(self.cards_left, level),
            "jiefeng_given": self.jiefeng_given,
            "jiefeng_received": self.jiefeng_received,
        }


@dataclass(frozen=True, slots=True)
class RoomSummary:
    """One room's deal: who sat where, what happened, the finish and the N–S result."""

    room: str
    players: tuple[str, str, str, str]  # by seat N, E, S, W
    finish: tuple[Seat, ...]  # finishing order as far as decided
    result_ns: int | None  # +3..-3 seen from N–S; None when the deal did not end
    seats: tuple[SeatSummary, SeatSummary, SeatSummary, SeatSummary]
    moves: tuple[Move, ...]
    tricks: tuple[Trick, ...]
    #: a director's ruling carried by the record (``Ruling``/``RulingBy``/``RulingReason``
    #: tags, docs/FORMAT.md): the N–S result that counts, who, why; ``result_ns`` stays the play's
    ruling: RoomRuling | None = None

    def to_dict(self, level: int) -> dict[str, Any]:
        """JSON form of the room."""
        out: dict[str, Any] = {
            "room": self.room,
            "finish": [s.name for s in self.finish],
            "result_ns": self.result_ns,
            "seats": [s.to_dict(level) for s in self.seats],
            "tricks": [t.to_dict(level) for t in self.tricks],
        }
        if self.ruling is not None:
            out["ruling"] = self.ruling._asdict()
        return out


class RoomRuling(NamedTuple):
    """A ruling on a room as an exported record carries it."""

    result_ns: int
    by: str
    reason: str


_RULING_RE = re.compile(r"^\s*(NS|EW)\s*\+?\s*([1-4])\s*$", re.IGNORECASE)


def room_ruling(tags: dict[str, str]) -> RoomRuling | None:
    """The ruling of a record's ``Ruling`` tags, or None (also for an unreadable one)."""
    m = _RULING_RE.match(tags.get("Ruling", ""))
    if m is None:
        return None
    levels = int(m.group(2))
    return RoomRuling(levels if m.group(1).upper() == "NS" else -levels,
                      tags.get("RulingBy", ""), tags.get("RulingReason", ""))


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first action at which the rooms did differently, and the position there.

    Up to ``index`` every room made the same actions on the same cards, so the position is
    the same in all of them. ``steps`` holds what each room did there (None for a room
    whose deal had already ended).
    """

    index: int
    turn: Seat
    hands: tuple[Cards, Cards, Cards, Cards]
    to_beat: Combo | None
    to_beat_by: Seat | None
    position: str
    moves: tuple[Move | None, ...]

    def to_dict(self, level: int) -> dict[str, Any]:
        """JSON form of the divergence."""
        return {
            "index": self.index,
            "action": self.index + 1,  # counted from 1, as the headline says it
            "turn": self.turn.name,
            "hands": {s.name: to_tokens(self.hands[s], level) for s in Seat},
            "to_beat": None if self.to_beat is None else describe_combo(self.to_beat, level),
            "to_beat_by": None if self.to_beat_by is None else self.to_beat_by.name,
            "position": self.position,
            "actions": [None if m is None else m.to_dict(level) for m in self.moves],
        }


@dataclass(frozen=True, slots=True)
class TrickRow:
    """Trick ``number`` in every room, side by side (None where a room had fewer tricks)."""

    number: int
    tricks: tuple[Trick | None, ...]

    @property
    def same(self) -> bool:
        """True when every room played this trick identically."""
        first = self.tricks[0]
        return first is not None and all(
            t is not None and t.leader == first.leader and len(t.steps) == len(first.steps)
            and all(a.same_action(b) for a, b in zip(t.steps, first.steps, strict=True))
            for t in self.tricks[1:]
        )


@dataclass(frozen=True, slots=True)
class BoardComparison:
    """The rooms of one board side by side (see the module docstring)."""

    event: str | None
    round: str | None
    board: str | None
    level: int
    leader: Seat
    hands: tuple[Cards, Cards, Cards, Cards]
    rooms: tuple[RoomSummary, ...]
    swing: int | None  # team X's: first room's N–S result − second's; None unless 2 ended rooms
    divergence: Divergence | None
    alignment: tuple[TrickRow, ...]
    table: str | None = None  # the Table tag (the match of an event round), when given
    #: who forfeited the board (its records' ``Forfeit`` tag: an arena's agent, or two
    #: joined by `` & ``); the swing is then the conceded board's
    forfeited_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form of the whole comparison (cards as FORMAT.md tokens, in level order)."""
        lv = self.level
        return {
            "event": self.event,
            "round": self.round,
            "table": self.table,
            "board": self.board,
            "level": rank_name(lv),
            "leader": self.leader.name,
            "hands": {s.name: to_tokens(self.hands[s], lv) for s in Seat},
            "rooms": [r.to_dict(lv) for r in self.rooms],
            "swing": self.swing,
            "forfeited_by": self.forfeited_by,
            "divergence": None if self.divergence is None else self.divergence.to_dict(lv),
        }

    def seat_rows(self) -> list[dict[str, Any]]:
        """One flat row per room and seat (for tables and CSV): see ``SEAT_COLUMNS``."""
        rows: list[dict[str, Any]] = []
        for room in self.rooms:
            for s in room.seats:
                rows.append(
                    {
                        "board": self.board,
                        "room": room.room,
                        "seat": s.seat.name,
                        "player": s.player,
                        "place": s.place,
                        "result_ns": room.result_ns,
                        "plays": s.plays,
                        "passes": s.passes,
                        "tricks_won": s.tricks_won,
                        "leads": s.leads,
                        "bombs": s.bombs,
                        "straight_flushes": s.straight_flushes,
                        "joker_bombs": s.joker_bombs,
                        "wilds": " ".join(
                            f"{KIND_TOKENS[w.use.kind]}={w.stood_for(self.level)}"
                            for w in s.wilds
                        ),
                        "cards_left": format_cards(s.cards_left, self.level),
                        "jiefeng_given": s.jiefeng_given,
                        "jiefeng_received": s.jiefeng_received,
                    }
                )
        return rows


#: the columns of :meth:`BoardComparison.seat_rows`, in order
SEAT_COLUMNS = (
    "board",
    "room",
    "seat",
    "player",
    "place",
    "result_ns",
    "plays",
    "passes",
    "tricks_won",
    "leads",
    "bombs",
    "straight_flushes",
    "joker_bombs",
    "wilds",
    "cards_left",
    "jiefeng_given",
    "jiefeng_received",
)


# --- from replayed records to the comparison ---------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomTrace:
    """A room's deal as the replay saw it: each action with the position before it."""

    room: str
    players: tuple[str, str, str, str]
    positions: tuple[Position, ...]
    moves: tuple[Move, ...]
    final_hands: tuple[Cards, Cards, Cards, Cards]
    finish: tuple[Seat, ...]  # as far as decided; all four seats once the deal has ended
    undecided: frozenset[Seat]  # seats with no place between them (a double down's last two)
    result_ns: int | None  # None when the play list stops before the deal ends


def trace_room(record: DealRecord, rules: Ruleset = COMPETITION) -> RoomTrace:
    """Replay ``record`` with the engine (``duplicate.replay``) and keep what comparing needs.

    Raises :class:`CompareError` (naming the board and room) when the record does not
    replay cleanly or its ``Finish``/``Result`` disagree with the replay.
    """
    try:  # one replay gives the positions, the actions and the checked result
        deal = start(record, rules)
        steps = list(_steps(record, deal))
        result = deal.result() if record.plays is not None and deal.is_over else None
        if record.plays is not None:
            _check_tags(record, deal, result)
    except GdnError as error:
        # the replay's error already names the file and line of the failing play
        where = f"board {record.board or '?'}, room {record.room or '?'}"
        raise CompareError(f"{where}: {error}") from error
    moves = tuple(
        Move(i, st.action.seat, st.action.combo, st.action.cards_left)
        for i, st in enumerate(steps)
    )
    left = list(record.hands)
    finished: list[Seat] = []
    for m in moves:
        if m.combo is not None:
            left[m.seat] -= m.combo.cards
            if m.cards_left == 0:
                finished.append(m.seat)
    undecided: frozenset[Seat] = frozenset()
    result_ns = None
    if result is not None:
        finished = list(result.finish_order)
        if result.double_down:
            undecided = frozenset(result.finish_order[2:])
        result_ns = room_result(result.winner, result.levels, rules)
    tags = record.tags
    players = tuple(tags.get(name, "") for name in ("North", "East", "South", "West"))
    return RoomTrace(
        room=record.room or "?",
        players=(players[0], players[1], players[2], players[3]),
        positions=tuple(st.position for st in steps),
        moves=moves,
        final_hands=(left[0], left[1], left[2], left[3]),
        finish=tuple(finished),
        undecided=undecided,
        result_ns=result_ns,
    )


def _where(record: DealRecord) -> str:
    """``board 3, room Open (file.gdn:12)``: where a record stands, for messages."""
    text = f"board {record.board or '?'}, room {record.room or '?'}"
    if record.file is not None:
        text += f" ({record.file}:{record.line})" if record.line else f" ({record.file})"
    return text


def _where_words(record: DealRecord) -> Phrase:
    """:func:`_where` as a phrase of the reader's language (第3副，开室（file.gdn:12）)."""
    room = record.room or "?"
    key = f"report.room.{room.lower()}"
    where = (f"{record.file}:{record.line}" if record.line else record.file) if record.file else None
    return phrase("out.compare.where" if where is None else "out.compare.where_file",
                  board=record.board or "?", room=Term(room, key) if key in messages() else room,
                  **({} if where is None else {"file": where}))


def split_tricks(trace: RoomTrace) -> tuple[Trick, ...]:
    """Cut a room's actions into tricks: a trick starts at every lead (no play to beat).

    The trick's winner is its last player (RULES.md §6). When the winner had just played
    their last card and the next trick is led by someone else, the lead went on by 接风.
    """
    starts = [i for i, p in enumerate(trace.positions) if p.to_beat is None]
    tricks: list[Trick] = []
    for n, begin in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(trace.moves)
        moves = trace.moves[begin:end]
        winner = next(m.seat for m in reversed(moves) if m.combo is not None)
        complete = n + 1 < len(starts)
        jiefeng = complete and trace.positions[end].hands[winner] == 0
        tricks.append(Trick(n + 1, moves[0].seat, moves, winner, complete, jiefeng))
    return tuple(tricks)


def summarize_room(trace: RoomTrace, level: int) -> RoomSummary:
    """Per-seat figures of one room (DUPLICATE.md, "Comparing how the pairs handled ...")."""
    tricks = split_tricks(trace)
    received = [0, 0, 0, 0]
    for t, nxt in zip(tricks, tricks[1:], strict=False):
        if t.jiefeng:
            received[nxt.leader] += 1
    seats: list[SeatSummary] = []
    for seat in Seat:
        mine = [m for m in trace.moves if m.seat == seat]
        combos = [m.combo for m in mine if m.combo is not None]
        wilds = tuple(
            WildUse(m.index, describe_combo(m.combo, level), u)
            for m in mine
            if m.combo is not None
            for u in wild_uses(m.combo, level)
        )
        decided = seat in trace.finish and seat not in trace.undecided
        seats.append(
            SeatSummary(
                seat=seat,
                player=trace.players[seat],
                place=trace.finish.index(seat) + 1 if decided else None,
                plays=len(combos),
                passes=len(mine) - len(combos),
                tricks_won=sum(1 for t in tricks if t.winner == seat),
                leads=sum(1 for t in tricks if t.leader == seat),
                bombs=sum(1 for c in combos if c.type == ComboType.BOMB),
                straight_flushes=sum(1 for c in combos if c.type == ComboType.STRAIGHT_FLUSH),
                joker_bombs=sum(1 for c in combos if c.type == ComboType.FOUR_KINGS),
                wilds=wilds,
                cards_left=trace.final_hands[seat],
                jiefeng_given=sum(1 for t in tricks if t.jiefeng and t.winner == seat),
                jiefeng_received=received[seat],
            )
        )
    return RoomSummary(
        room=trace.room,
        players=trace.players,
        finish=trace.finish,
        result_ns=trace.result_ns,
        seats=(seats[0], seats[1], seats[2], seats[3]),
        moves=trace.moves,
        tricks=tricks,
    )


def first_divergence(traces: Sequence[RoomTrace]) -> int | None:
    """The first action index at which some room did differently from the first room.

    None when every room made exactly the same actions (then they ended alike too).
    """
    longest = max(len(t.moves) for t in traces)
    for i in range(longest):
        moves = [t.moves[i] if i < len(t.moves) else None for t in traces]
        first = moves[0]
        if first is None or not all(m is not None and m.same_action(first) for m in moves):
            return i
    return None


def position_text(record: DealRecord, moves: Sequence[Move], rules: Ruleset = COMPETITION) -> str:
    """The engine's one-line position (``Deal.position()``) after ``moves`` of ``record``."""
    deal = start(record, rules)
    for m in moves:
        if m.combo is None:
            deal.pass_(m.seat)
        else:
            deal.play(m.combo, m.seat)
    return deal.position()


def align_tricks(rooms: Sequence[RoomSummary]) -> tuple[TrickRow, ...]:
    """Trick *k* of every room side by side, padded with None where a room had fewer."""
    most = max((len(r.tricks) for r in rooms), default=0)
    return tuple(
        TrickRow(k + 1, tuple(r.tricks[k] if k < len(r.tricks) else None for r in rooms))
        for k in range(most)
    )


_ROOM_ORDER = {"open": 0, "closed": 1}


def order_rooms(records: Sequence[DealRecord]) -> list[DealRecord]:
    """The records with the open room first and the closed room second (others after)."""
    return sorted(records, key=lambda r: _ROOM_ORDER.get((r.room or "").lower(), 2))


def compare_board(
    records: Sequence[DealRecord], rules: Ruleset = COMPETITION
) -> BoardComparison:
    """Compare two or more rooms' records of one board (DUPLICATE.md, "Comparing").

    The records must hold the same board: the same four hands, level and first leader;
    otherwise :class:`CompareError` says which differs. Rooms keep the order given (use
    :func:`order_rooms` to put Open before Closed); the swing is the first room's N–S
    result minus the second's (team X's, when the first is the open room), given only
    for exactly two rooms whose deals both ended.
    """
    if len(records) < 2:
        if not records:
            raise CompareError(phrase("out.compare.no_room", n=0))
        raise CompareError(phrase("out.compare.one_room", where=_where_words(records[0]),
                                  n=len(records)))
    base = records[0]
    for other in records[1:]:
        for what, a, b in (
            ("hands", base.hands, other.hands),
            ("level", base.level, other.level),
            ("first leader", base.leader, other.leader),
        ):
            if a != b:
                raise CompareError(
                    f"{_where(other)} is not the board of {_where(base)}: the {what} differ"
                )
    traces = [trace_room(r, rules) for r in records]
    rooms = tuple(
        replace(summarize_room(t, base.level), ruling=room_ruling(r.tags))
        for t, r in zip(traces, records, strict=True)
    )
    swing = None
    if len(rooms) == 2 and rooms[0].result_ns is not None and rooms[1].result_ns is not None:
        swing = board_swing(rooms[0].result_ns, rooms[1].result_ns, rules)
    forfeited_by = next((r.tags["Forfeit"] for r in records if r.tags.get("Forfeit")), None)
    if swing is None and forfeited_by is not None:
        swing = forfeit_swing(forfeited_by, rooms[0].players)
    divergence = None
    index = first_divergence(traces)
    if index is not None:
        pos = next(t.positions[index] for t in traces if index < len(t.positions))
        divergence = Divergence(
            index=index,
            turn=pos.turn,
            hands=(pos.hands[0], pos.hands[1], pos.hands[2], pos.hands[3]),
            to_beat=pos.to_beat,
            to_beat_by=pos.last_player,
            position=position_text(base, traces[0].moves[:index], rules),
            moves=tuple(t.moves[index] if index < len(t.moves) else None for t in traces),
        )
    tags = base.tags
    return BoardComparison(
        event=tags.get("Event"),
        round=tags.get("Round"),
        board=base.board,
        level=base.level,
        leader=base.leader,
        hands=base.hands,
        rooms=rooms,
        swing=swing,
        divergence=divergence,
        alignment=align_tricks(rooms),
        table=tags.get("Table"),
        forfeited_by=forfeited_by,
    )


def forfeit_swing(forfeited_by: str, open_players: Sequence[str]) -> int | None:
    """Team X's swing on a board its ``Forfeit`` tag names: conceded, :data:`CONCEDED_SWING`
    to the side that did not forfeit (0 when both did); X is the first room's N–S
    (``open_players``: N E S W). ``None`` when the tag names neither side."""
    who = set(forfeited_by.split(" & "))
    x, y = open_players[0] in who, open_players[1] in who
    if x and y:
        return 0
    if x or y:
        return -CONCEDED_SWING if x else CONCEDED_SWING
    return None


def group_boards(
    records: Iterable[DealRecord], board: str | None = None
) -> list[list[DealRecord]]:
    """Group records by (Event, Round, Table, Board), rooms ordered Open, Closed, then others.

    The ``Table`` tag (written by ``guandan event export``) keeps apart the matches of a
    round that played the same boards; records without it group as before.

    With ``board``, only that board's group. A record without a ``Board`` tag cannot be
    paired with its other room: :class:`CompareError` names it.
    """
    groups: dict[tuple[str, str, str, str], list[DealRecord]] = {}
    for rec in records:
        if rec.board is None:
            raise CompareError(f"{_where(rec)}: the record has no Board tag to pair its rooms by")
        if board is not None and rec.board != board:
            continue
        key = (rec.tags.get("Event", ""), rec.tags.get("Round", ""), rec.tags.get("Table", ""),
               rec.board)
        groups.setdefault(key, []).append(rec)
    if board is not None and not groups:
        raise CompareError(phrase("out.compare.no_board", board=board))
    return [order_rooms(g) for g in groups.values()]


def compare_records(
    records: Iterable[DealRecord], board: str | None = None, rules: Ruleset = COMPETITION
) -> list[BoardComparison]:
    """Compare every board (or only ``board``) found in ``records``: a match, or one board.

    Records are grouped by Event, Round and Board tags; each group needs two rooms or more.
    """
    return [compare_board(group, rules) for group in group_boards(records, board)]


def compare_file(
    path: str | Path, board: str | None = None, rules: Ruleset = COMPETITION
) -> list[BoardComparison]:
    """Read a ``.gdn`` file (strictly: the first error stops) and compare its boards' rooms."""
    p = Path(path)
    try:
        text = p.read_bytes()
    except OSError as e:
        raise CompareError(phrase("imports.unreadable", path=repr(str(p)),
                                  reason=os_reason(e))) from e
    records = loads(text, file=str(p))
    if not records:  # an empty file is a mistake, not a match of no boards
        raise CompareError(phrase("out.gdn.no_deals", file=str(p)))
    return compare_records(records, board, rules)


def board_lines(comparisons: Iterable[BoardComparison]) -> list[dict[str, Any]]:
    """One summary row per board: results in the first two rooms, swing, first divergence."""
    rows = []
    comparisons = list(comparisons)
    by_table = any(c.table for c in comparisons)  # an exported event round: say which match
    forfeits = any(c.forfeited_by for c in comparisons)  # an arena match cut short
    for c in comparisons:
        first, second = c.rooms[0], c.rooms[1]
        rows.append(
            ({"table": c.table or ""} if by_table else dict[str, Any]())
            | {
                "board": c.board,
                "level": rank_name(c.level),
                "leader": c.leader.name,
                "rooms": f"{first.room}/{second.room}" + ("/…" if len(c.rooms) > 2 else ""),
                "first_ns": first.result_ns,
                "second_ns": second.result_ns,
                "swing": c.swing,
                # counted from 1, as the headline's "first divergence at action N"
                "diverge_action": None if c.divergence is None else c.divergence.index + 1,
                "tricks": "/".join(str(len(r.tricks)) for r in c.rooms),
            }
            | ({"forfeited_by": c.forfeited_by or ""} if forfeits else {})
        )
    return rows


def headline(c: BoardComparison) -> list[str]:
    """A board's comparison in a few lines of text: results, swing, first divergence."""
    lv = c.level
    results = ", ".join(
        f"{r.room} N–S {'unfinished' if r.result_ns is None else f'{r.result_ns:+d}'}"
        f" ({' '.join(s.name for s in r.finish) or '-'})"
        for r in c.rooms
    )
    swing = "" if c.swing is None else f"; swing {c.swing:+d}"
    lines = [
        f"Board {c.board or '?'} (level {rank_name(lv)}, {c.leader.name} leads): {results}{swing}"
    ]
    d = c.divergence
    if d is None:
        lines.append("  the rooms made exactly the same plays")
        return lines
    beat = "leads" if d.to_beat is None else f"to beat {describe_combo(d.to_beat, lv)}"
    by = "" if d.to_beat_by is None else f" ({d.to_beat_by.name})"
    lines.append(f"  first divergence at action {d.index + 1}: {d.turn.name} {beat}{by}")
    for room, m in zip(c.rooms, d.moves, strict=True):
        did = "the deal had ended" if m is None else f"{m.seat.name} {m.text(lv)}"
        lines.append(f"    {room.room}: {did}")
    lines.append(f"  position: {d.position}")
    return lines
