"""What every part of an event uses: its errors, plain data, and the lookups of its
stored rows (the event, a round, its matches, its boards)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.dealing import Board, board_from_hands
from duplicate.errors import DuplicateError
from duplicate.i18n import Named, phrase
from duplicate.limits import shown
from duplicate.records import load_rules
from duplicate.scoring import (
    UnfinishedRule,
    VictoryPoints,
    WinDrawLoss,
    scale_from_dict,
)
from duplicate.shapes import As, Shaped, named
from duplicate.standings import (
    DEFAULT_ORDER,
    ByeRule,
)
from duplicate.store import ResultKey, Slot
from engine.cards import parse_cards
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset

#: Event formats: Swiss (pairing by standings) or round robin.
FORMATS = ("swiss", "rr")
#: The two rooms of a match, as stored.
ROOMS = ("open", "closed")
#: Players per team (the issue: teams of four to six).
MIN_PLAYERS, MAX_PLAYERS = 4, 6

Progress = Callable[[int], None]
#: a room's four players (N, E, S, W), written ``{"N": .., "E": .., ...}`` in JSON
Seats = Annotated[tuple[str, str, str, str],
                  As(lambda players: dict(zip("NESW", players, strict=True)))]


class EventError(DuplicateError):
    """A refused event operation: unknown event or round, a bad record, a missing result."""


# --- plain data returned to callers ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventInfo:
    """An event's settings (what ``event create`` stored), its rule set included."""

    name: str
    seed: str
    format: str
    scale: WinDrawLoss | VictoryPoints
    unfinished: UnfinishedRule
    boards_per_round: int
    rounds: int
    bye: ByeRule
    created_at: datetime | None = None
    rules: Ruleset = COMPETITION
    lang: str = "en"
    #: the IANA zone its times are shown in (duplicate.zones); ``UTC`` for events made
    #: before events had one
    time_zone: str = "UTC"
    #: the order of tie-breaks its standings rank by (``standings.TIEBREAK_ORDERS``)
    tiebreaks: str = DEFAULT_ORDER

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``rules``: every variant of the rule set, ``Ruleset.to_dict``).

        The draw seed is left out: it decides the lots of round 1 and stays
        secret; the library gives it as ``seed`` to those who need it."""
        return {
            "name": self.name,
            "format": self.format,
            "scale": self.scale.to_dict(),
            "unfinished": self.unfinished.value,
            "boards_per_round": self.boards_per_round,
            "rounds": self.rounds,
            "bye_points": self.bye.points,
            "bye_won": self.bye.won,
            "created_at": _utc(self.created_at).isoformat() if self.created_at else None,
            "rules": self.rules.to_dict(),
            "lang": self.lang,
            "time_zone": self.time_zone,
            "tiebreaks": self.tiebreaks,
        }


@dataclass(frozen=True, slots=True)
class TeamInfo(Shaped):
    """A team: entry number, name, players in order, and its pairs (player N/E first)."""

    number: int
    name: str = field(metadata=named("team"))
    players: tuple[str, ...]
    #: written ``"N/S"`` in the JSON form
    pairs: Annotated[tuple[tuple[str, str], ...], As(lambda pairs: [f"{a}/{b}" for a, b in pairs])]


@dataclass(frozen=True, slots=True)
class MatchInfo(Shaped):
    """A match of a round: teams X and Y and who sits where in each room (N, E, S, W)."""

    round: int
    table: int
    team_x: str
    team_y: str
    open_players: Seats = field(metadata=named("open"))
    closed_players: Seats = field(metadata=named("closed"))


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A round: its matches, the bye, and the boards it plays (set name and numbers)."""

    number: int
    matches: tuple[MatchInfo, ...]
    bye: str | None
    board_set: str | None
    boards: tuple[int, ...]


@dataclass(slots=True)
class ImportSummary(Shaped):
    """What an import did: records read, stored anew, already there, corrected; the
    unfinished boards it stored, each as ``round 1, table 2, board 3, open room (time)``."""

    files: int = 0
    records: int = 0
    added: int = 0
    unchanged: int = 0
    corrected: int = 0
    unfinished: int = 0
    unfinished_boards: list[str] = field(default_factory=list)


# --- settings and lookups of stored rows -------------------------------------------------


def _scale(name: str) -> WinDrawLoss | VictoryPoints:
    try:
        return scale_from_dict({"name": name})
    except GuandanError as exc:
        raise EventError(str(exc)) from None


def _info(row: models.Event) -> EventInfo:
    return EventInfo(
        name=row.name,
        seed=row.seed,
        format=row.format,
        scale=scale_from_dict(json.loads(row.scale)),
        unfinished=UnfinishedRule(row.unfinished_rule),
        boards_per_round=row.boards_per_round,
        rounds=row.rounds,
        bye=ByeRule(row.bye_points_cents / 100, row.bye_won),
        created_at=row.created_at,
        rules=_rules(row),
        lang=row.lang,
        time_zone=row.time_zone or "UTC",
        tiebreaks=row.tiebreaks or DEFAULT_ORDER,
    )


def _rules(row: models.Event) -> Ruleset:
    """The rule set event ``row`` is played, checked and scored under."""
    return load_rules(row.rules, f"event {row.name!r}")


def _event_row(session: Session, name: str) -> models.Event:
    row = session.scalar(select(models.Event).where(models.Event.name == name))
    if row is None:
        raise EventError(phrase("admin.no_event", event=shown(name)),
                         cli_hint="create it with 'guandan event create'")
    return row


def _round_row(session: Session, ev: models.Event, number: int) -> models.EventRound:
    row = session.scalar(
        select(models.EventRound).where(
            models.EventRound.event_id == ev.id, models.EventRound.number == number
        )
    )
    if row is None:
        if number > ev.rounds:  # a round the event will never have: pairing it is no help
            raise EventError(phrase("events.err.beyond_rounds", event=repr(ev.name),
                                    rounds=phrase("count.rounds", n=ev.rounds), number=number))
        raise EventError(phrase("events.err.no_round", event=repr(ev.name), number=number))
    return row


def _rounds(
    session: Session, ev: models.Event, only: int | None = None, through: int | None = None
) -> list[models.EventRound]:
    """The event's rounds in order: every one, only round ``only`` (which must exist), or
    rounds 1..``through``."""
    query = select(models.EventRound).where(models.EventRound.event_id == ev.id)
    if only is not None:
        _round_row(session, ev, only)
        query = query.where(models.EventRound.number == only)
    if through is not None:
        query = query.where(models.EventRound.number <= through)
    return list(session.scalars(query.order_by(models.EventRound.number)))


def _matches(session: Session, rnd: models.EventRound) -> list[models.EventMatch]:
    memo = _memo(session)
    key = ("matches", rnd.id)
    if memo is not None and key in memo:
        return list(memo[key])
    out = list(
        session.scalars(
            select(models.EventMatch)
            .where(models.EventMatch.round_id == rnd.id)
            .order_by(models.EventMatch.table_no)
        )
    )
    if memo is not None:
        memo[key] = tuple(out)
    return out


def _round_boards(ev: models.Event, rnd: models.EventRound) -> tuple[int, ...]:
    if rnd.first_board is None:
        return ()
    return tuple(range(rnd.first_board, rnd.first_board + ev.boards_per_round))


def _round_board_set(
    session: Session, ev: models.Event, rnd: models.EventRound, only: int | None = None
) -> dict[int, Board]:
    """The round's boards by set number (from the stored set, checked against DealIds);
    ``only``: just that board of the round (one room's result needs one board, and
    rebuilding a board from its hands is the costly part)."""
    if rnd.board_set_id is None or rnd.first_board is None:
        raise EventError(
            phrase("events.err.no_boards", event=repr(ev.name), round=rnd.number),
            cli_hint="run 'guandan event assign-boards'",
        )
    numbers = _round_boards(ev, rnd)
    if only is not None:
        numbers = tuple(n for n in numbers if n == only)
    bset = session.get(models.BoardSet, rnd.board_set_id)
    assert bset is not None
    rows = session.scalars(
        select(models.Board).where(
            models.Board.set_id == bset.id, models.Board.number.in_(list(numbers))
        )
    )
    out: dict[int, Board] = {}
    for r in rows:
        hands = [parse_cards(h) for h in (r.hand_n, r.hand_e, r.hand_s, r.hand_w)]
        out[r.number] = board_from_hands(hands, r.number, r.level, bset.generator)
    return out


def _utc(when: datetime) -> datetime:
    """A stored time in UTC with its offset (SQLite gives it back without a time zone)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _find_match(
    session: Session, ev: models.Event, round_no: int, table: int
) -> tuple[models.EventRound, models.EventMatch]:
    rnd = _round_row(session, ev, round_no)
    m = session.scalar(
        select(models.EventMatch).where(
            models.EventMatch.round_id == rnd.id, models.EventMatch.table_no == table
        )
    )
    if m is None:
        raise EventError(phrase("lw.err.no_table", event=Named(ev.name), round=round_no,
                                table=table))
    return rnd, m


# --- the event's rooms in the store (duplicate.store) --------------------------------------

#: (match id, board number, room) -> the room's current result (``store.Now``)
Current = dict[tuple[int, int, str], store.Now]


_SNAPSHOT = "guandan.snapshot"


@contextmanager
def snapshot(session: Session) -> Iterator[dict[Any, Any]]:
    """A read-only session's memo: inside the block, the current results of a set of
    matches (and what is worked out from them, e.g. a round's scores) are read once
    however many callers ask. Only for a caller that writes nothing in the block."""
    memo: dict[Any, Any] = {}
    session.info[_SNAPSHOT] = memo
    try:
        yield memo
    finally:
        session.info.pop(_SNAPSHOT, None)


def _memo(session: Session) -> dict[Any, Any] | None:
    """The session's snapshot memo (:func:`snapshot`), if it has one."""
    memo = session.info.get(_SNAPSHOT)
    return memo if isinstance(memo, dict) else None


def _current(session: Session, match_ids: Sequence[int]) -> Current:
    """The current result of every stored room of these matches (the store's query).

    In a :func:`snapshot` the answer is shared between callers: do not change it."""
    if not match_ids:
        return {}
    memo = _memo(session)
    key = ("current", tuple(match_ids))
    if memo is not None and key in memo:
        found: Current = memo[key]
        return found
    out = {
        (now.match_id or 0, int(now.board), now.room): now
        for now in store.current_changes(session, models.RoomResult.match_id.in_(list(match_ids)))
    }
    if memo is not None:
        memo[key] = out
    return out


def _slot(
    ev: models.Event,
    rnd: models.EventRound,
    m: models.EventMatch,
    board: Board,
    room: str,
    board_id: int | None = None,
) -> Slot:
    """The store's slot of a match's board in one room: the key is the board's DealId, the
    event's name, the round and table numbers, the room and the event's rules."""
    key = ResultKey(board.deal_id, ev.name, str(rnd.number), str(m.table_no), room, _rules(ev))
    return Slot(key, str(board.number), board_id, m.id)


def _board_ids(session: Session, rnd: models.EventRound) -> dict[int, int]:
    """The stored board ids of the round's set, by board number."""
    return dict(
        (a, b)
        for a, b in session.execute(
            select(models.Board.number, models.Board.id).where(
                models.Board.set_id == rnd.board_set_id
            )
        )
    )


def _current_texts(session: Session, match_ids: Sequence[int]) -> dict[tuple[int, int, str], str]:
    """The record each current result of these matches rests on, by (match, board, room)."""
    current = _current(session, match_ids)
    ids = {n.state.record_id: k for k, n in current.items() if n.state.record_id is not None}
    if not ids:
        return {}
    rows = session.execute(
        select(models.PlayRecord.id, models.PlayRecord.gdn).where(
            models.PlayRecord.id.in_(list(ids))
        )
    )
    return {ids[rid]: text for rid, text in rows}
