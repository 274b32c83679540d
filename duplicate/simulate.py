"""Self-play: boards played by bots in two rooms, their records, and play statistics.

:func:`play_deal` plays one board with four :class:`~duplicate.bots.Player` objects and
returns the ``.gdn`` record of the deal (every play with its type and rank, the finish and
the result). :func:`simulate_match` plays a set of boards as a teams match does
(RULES.md §11, DUPLICATE.md): in the open room team X sits N–S and team Y E–W, in the
closed room Y sits N–S and X E–W, with the same cards at each seat in both rooms. Every
bot's choices come from a seed derived from the match seed, the board and the seat, so the
same seed gives byte-identical records.

:func:`play_statistics` summarises many played deals (plays per deal, the share of each
combination type, bombs per deal, plays by finishing place) and :func:`format_statistics`
prints them beside the figures from real play quoted in ``seeds/000`` (see
:data:`REAL_PLAY` and docs/SELFPLAY.md for how "plays" are counted there).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from duplicate.bots import Player, View, mixed_error_rate
from duplicate.dealing import (
    DEFAULT_SCHEDULE,
    GENERATOR_ID,
    SECRET_BYTES,
    Board,
    LevelSchedule,
    derive_key,
    generate_boards,
)
from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, Play
from duplicate.i18n import translator
from duplicate.names import display_width
from duplicate.policies import PlayerFactory, make_player
from duplicate.scoring import room_result, swing
from engine.cards import rank_name, size
from engine.combo import ComboType
from engine.deal import Deal
from engine.errors import GuandanError
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat


class BoardSet(Protocol):
    """A stored board set as the simulation reads it (``duplicate.boards.BoardSet``, of the
    store above this layer): its boards."""

    @property
    def boards(self) -> Sequence[Board]: ...

__all__ = [
    "BOMB_TYPES",
    "REAL_PLAY",
    "ROOMS",
    "BoardOutcome",
    "PlayStats",
    "Reference",
    "SimulateError",
    "format_statistics",
    "iter_match",
    "play_deal",
    "play_statistics",
    "player_seed",
    "simulate_boards",
    "simulate_match",
    "simulation_key",
]

#: The two rooms of a teams match, in the order their records are written.
ROOMS = ("Open", "Closed")
#: Everything the seed text counts as a bomb (火牌): bombs, straight flushes, the joker bomb.
BOMB_TYPES = frozenset({ComboType.BOMB, ComboType.STRAIGHT_FLUSH, ComboType.FOUR_KINGS})
#: The Event tag of simulated records.
EVENT = "Self-play (guandan simulate)"

@dataclass(frozen=True, slots=True)
class Reference:
    """Figures from real play to set simulated statistics against.

    Attributes:
        plays_per_deal: mean plays (手) per deal, passes not counted.
        plays_range_90: the range of plays per deal that 90% of deals fall in.
        bombs_per_deal: bombs of every kind (火牌) played per deal.
        shares: percentage of plays of each type; ``"bombs"`` is every bomb type together.
        straight_flush_share_of_bombs: percentage of bombs that are straight flushes.
        plays_by_place: mean plays of the 1st, 2nd, 3rd and 4th to finish.
    """

    plays_per_deal: float
    plays_range_90: tuple[int, int]
    bombs_per_deal: float
    shares: Mapping[ComboType | Literal["bombs"], float]
    straight_flush_share_of_bombs: float
    plays_by_place: tuple[float, float, float, float]


#: Figures from real play, seeds/000_83e0c8c54b074e2d.txt (strategy essay, "理顺牌局和手数的关系"
#: and the paragraphs on each type). A "play" (手) there is a combination played, passes not
#: counted: the plays by place (9.6 + 10.6 + 11.1 + 8.2 = 39.5) add up to about the 38.3 per
#: deal, 16 singles a deal are its 41.7%, and 27 cards each could not last 38 turns with the
#: passes among them. Bombs (火牌, 7.5 used a deal) include straight flushes (19.2% of bombs)
#: and the joker bomb (0.7%); the straight share (5%) is plain straights ("8.7% with
#: straight flushes": 8.7 - 5.0 = 3.7 = 19.2% of 19.5).
REAL_PLAY = Reference(
    plays_per_deal=38.3,
    plays_range_90=(30, 50),
    bombs_per_deal=7.5,
    shares={
        ComboType.SINGLE: 41.7,
        ComboType.PAIR: 19.7,
        "bombs": 19.5,
        ComboType.THREE_WITH_TWO: 8.3,
        ComboType.STRAIGHT: 5.0,
        ComboType.TRIPS: 2.7,
        ComboType.THREE_PAIR: 2.3,
        ComboType.TWO_TRIPS: 0.8,
    },
    straight_flush_share_of_bombs=19.2,
    plays_by_place=(9.6, 10.6, 11.1, 8.2),
)


class SimulateError(DuplicateError):
    """Self-play went wrong: a bot's illegal play, a bad seed, a record without types."""


# --- seeds ------------------------------------------------------------------------


def simulation_key(seed: bytes) -> bytes:
    """The board key of a ``--seed``: a 32-byte seed is a seed file's secret (same boards as
    a seed file holding it, ``dealing.derive_key``); any other length is first stretched to
    32 bytes with SHA-256, so that short seeds such as ``1f`` are convenient for tests."""
    if not seed:
        raise SimulateError("the seed is empty: give at least one byte (two hex digits)")
    if len(seed) != SECRET_BYTES:
        seed = hashlib.sha256(b"guandan-simulate/seed|" + seed).digest()
    return derive_key(seed)


def player_seed(seed: bytes, board: Board, room: str, seat: Seat) -> bytes:
    """The seed of the bot at ``seat`` in ``room`` on ``board``, from the match seed.

    Each bot gets its own stream, so a board's records do not depend on which boards were
    played before it, nor on the other room.
    """
    text = f"|{board.number}|{board.deal_id}|{room}|{seat.name}".encode()
    return hashlib.sha256(b"guandan-simulate/bot|" + seed + text).digest()


# --- one deal ---------------------------------------------------------------------


def play_deal(
    board: Board,
    players: Sequence[Player],
    rules: Ruleset = COMPETITION,
    tags: Mapping[str, str] | None = None,
) -> DealRecord:
    """Play ``board`` with ``players`` (indexed by seat: N, E, S, W) to the end of the deal.

    Returns the deal's record: the board's tags (``Board``, ``Generator``, ``DealId``) and
    ``tags``, every play with its type and rank, and the finish and result the engine
    computed. Each player sees only its own :class:`~duplicate.bots.View` (its hand and what
is public: counts, cards played, the finishing order so far). An illegal play
    by a bot raises :class:`SimulateError` with the engine's reason and position.
    """
    if len(players) != 4:
        raise SimulateError(f"a deal needs 4 players (N, E, S, W), not {len(players)}")
    deal = Deal(board.hands, board.level, board.leader, rules)
    level = board.level
    counts = [size(h) for h in board.hands]
    plays: list[Play] = []
    played = 0  # every card played so far (public)
    finish: tuple[Seat, ...] = ()
    while True:
        seat = deal.turn
        if seat is None:
            break
        to_beat = deal.to_beat
        player = players[seat]
        view = View(
            seat,
            deal.hand(seat),
            level,
            to_beat,
            deal.last_player if to_beat is not None else None,
            (counts[0], counts[1], counts[2], counts[3]),
            rules,
            played,
            finish,
        )
        combo = player.act(view)
        try:
            if combo is None:
                deal.pass_()
                plays.append(Play(seat))
            else:
                counts[seat] = deal.play(combo).cards_left
                plays.append(Play(seat, combo.cards, combo.type, combo.rank))
                played += combo.cards
                if not counts[seat]:
                    finish = (*finish, seat)
        except GuandanError as exc:
            raise SimulateError(
                f"board {board.number}: the {player.name} bot at {seat.name} made an illegal "
                f"{'pass' if combo is None else 'play'}: {exc}"
            ) from exc
    result = deal.result()
    record_tags = {"Event": EVENT, "Board": str(board.number)}
    record_tags.update(tags or {})
    record_tags.update({"Generator": board.generator, "DealId": board.deal_id})
    return DealRecord(
        tags=record_tags,
        hands=board.hands,
        level=level,
        leader=board.leader,
        plays=plays,
        # FORMAT.md: a double down's Finish names only the first two (no order between
        # the losers, RULES.md §6), as replay and import write it.
        finish=result.finish_order[:2] if result.double_down else result.finish_order,
        result=(result.winner, result.levels),
    )


# --- a teams match in two rooms ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardOutcome:
    """One board of a simulated match: its two records and team X's swing.

    ``open_ns`` and ``closed_ns`` are each room's result seen from N–S (+3..−3); X's swing
    is ``open_ns − closed_ns`` (DUPLICATE.md, ``scoring.swing``).
    """

    board: Board
    open: DealRecord
    closed: DealRecord
    open_ns: int
    closed_ns: int
    swing: int

    def row(self) -> dict[str, Any]:
        """A listing row: board, level, leader, each room's finish and result, the swing."""
        assert self.open.finish is not None and self.closed.finish is not None
        return {
            "board": self.board.number,
            "level": rank_name(self.board.level),
            "leader": self.board.leader.name,
            "open_finish": " ".join(s.name for s in self.open.finish),
            "open_ns": self.open_ns,
            "closed_finish": " ".join(s.name for s in self.closed.finish),
            "closed_ns": self.closed_ns,
            "x_swing": self.swing,
        }


def _policy(policy: str | PlayerFactory, seed: bytes = b"", side: str = "") -> PlayerFactory:
    """A player factory from a policy name (``policies.POLICIES``) or a factory itself. A
    ``mixed`` side's players share one error rate, drawn from the match seed and the side."""
    if isinstance(policy, str):
        make_player(policy)  # raises for an unknown name
        rate = (mixed_error_rate(f"guandan-simulate/mixed|{seed.hex()}|{side}")
                if policy == "mixed" else None)

        def factory(bot_seed: bytes) -> Player:
            return make_player(policy, bot_seed, error_rate=rate)

        return factory
    return policy


def iter_match(
    boards: Iterable[Board] | BoardSet,
    team_x: str | PlayerFactory,
    team_y: str | PlayerFactory,
    seed: bytes,
    rules: Ruleset = COMPETITION,
) -> Iterator[BoardOutcome]:
    """Play each board in the open and the closed room (RULES.md §11), lazily.

    ``boards`` is any iterable of boards, or a stored ``duplicate.boards.BoardSet``. Open
    room: X at N and S, Y at E and W; closed room: Y at N and S, X at E and W; the
    cards at each seat are the board's in both. Players are named ``<team>-<policy>-<n>``:
    X's four are 1, 2 (open N, S) and 3, 4 (closed E, W), Y's likewise (open E, W; closed
    N, S), and the names go into the ``North``..``West`` tags.
    """
    factories = {"X": _policy(team_x, seed, "X"), "Y": _policy(team_y, seed, "Y")}
    # team at each seat, room by room, and the player's number within the team
    seating = {
        "Open": (("X", 1), ("Y", 1), ("X", 2), ("Y", 2)),
        "Closed": (("Y", 3), ("X", 3), ("Y", 4), ("X", 4)),
    }
    for board in boards if isinstance(boards, Iterable) else boards.boards:
        records: dict[str, DealRecord] = {}
        for room in ROOMS:
            players: list[Player] = []
            tags = {"Room": room}
            for seat, (team, n) in zip(Seat, seating[room], strict=True):
                player = factories[team](player_seed(seed, board, room, seat))
                players.append(player)
                tags[("North", "East", "South", "West")[seat]] = f"{team}-{player.name}-{n}"
            records[room] = play_deal(board, players, rules, tags)
        open_ns = _ns_result(records["Open"], rules)
        closed_ns = _ns_result(records["Closed"], rules)
        yield BoardOutcome(
            board,
            records["Open"],
            records["Closed"],
            open_ns,
            closed_ns,
            swing(open_ns, closed_ns, rules),
        )


def _ns_result(record: DealRecord, rules: Ruleset) -> int:
    assert record.result is not None
    return room_result(record.result[0], record.result[1], rules)


def simulate_boards(
    key: bytes,
    count: int,
    team_x: str | PlayerFactory,
    team_y: str | PlayerFactory,
    schedule: LevelSchedule = DEFAULT_SCHEDULE,
    generator: str = GENERATOR_ID,
    rules: Ruleset = COMPETITION,
) -> Iterator[BoardOutcome]:
    """Generate boards 1..``count`` of the set keyed by ``key`` and play them as a match.

    The bots' seeds come from the same key (:func:`player_seed`), so one key fixes every
    card and every choice: what ``guandan simulate`` runs.
    """
    if count < 1:
        raise SimulateError(f"invalid number of boards {count}: play at least one")
    boards = generate_boards(key, count, schedule, generator)
    return iter_match(boards, team_x, team_y, key, rules)


def simulate_match(
    boards: Iterable[Board] | BoardSet,
    team_x: str | PlayerFactory,
    team_y: str | PlayerFactory,
    seed: bytes,
    rules: Ruleset = COMPETITION,
) -> list[DealRecord]:
    """Every record of :func:`iter_match`, board by board, open room before closed."""
    out: list[DealRecord] = []
    for outcome in iter_match(boards, team_x, team_y, seed, rules):
        out.append(outcome.open)
        out.append(outcome.closed)
    return out


# --- statistics -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayStats:
    """Statistics over played deals (only finished deals count).

    "Plays" are combinations played; passes are counted apart (``passes``), as the seed
    text counts 手 (see :data:`REAL_PLAY`).

    Attributes:
        deals: number of deals.
        plays_per_deal: plays of each deal, in input order.
        passes: passes over all deals.
        type_counts: plays of each combination type over all deals.
        place_plays: plays made by the 1st, 2nd, 3rd and 4th to finish, summed over deals.
    """

    deals: int
    plays_per_deal: tuple[int, ...]
    passes: int
    type_counts: Mapping[ComboType, int] = field(default_factory=dict)
    place_plays: tuple[int, int, int, int] = (0, 0, 0, 0)

    @property
    def total_plays(self) -> int:
        """Plays over all deals."""
        return sum(self.plays_per_deal)

    @property
    def mean_plays(self) -> float:
        """Mean plays per deal."""
        return self.total_plays / self.deals if self.deals else 0.0

    def plays_percentile(self, p: float) -> int:
        """The ``p``-th percentile (0..100) of plays per deal, by the nearest-rank method."""
        if not self.plays_per_deal:
            return 0
        ordered = sorted(self.plays_per_deal)
        return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]

    @property
    def bombs(self) -> int:
        """Bombs, straight flushes and joker bombs over all deals."""
        return sum(self.type_counts.get(t, 0) for t in BOMB_TYPES)

    @property
    def bombs_per_deal(self) -> float:
        """Mean bombs (of every kind) per deal."""
        return self.bombs / self.deals if self.deals else 0.0

    def share(self, kind: ComboType | Literal["bombs"]) -> float:
        """Percentage of plays of a type, or of ``"bombs"`` (every bomb type together)."""
        total = self.total_plays
        if not total:
            return 0.0
        n = self.bombs if kind == "bombs" else self.type_counts.get(kind, 0)
        return 100.0 * n / total

    def to_dict(self) -> dict[str, Any]:
        """The statistics as plain JSON-ready data."""
        deals = self.deals or 1
        return {
            "deals": self.deals,
            "plays_per_deal": round(self.mean_plays, 2),
            "plays_p5": self.plays_percentile(5),
            "plays_p95": self.plays_percentile(95),
            "passes_per_deal": round(self.passes / deals, 2),
            "bombs_per_deal": round(self.bombs_per_deal, 2),
            "shares": {
                t.record_name: round(self.share(t), 2) for t in ComboType
            },
            "bomb_share": round(self.share("bombs"), 2),
            "plays_by_place": [round(n / deals, 2) for n in self.place_plays],
        }


def play_statistics(records: Iterable[DealRecord]) -> PlayStats:
    """Statistics of the played deals among ``records``.

    Hand records (no play list) and unfinished deals (no ``Finish``) are skipped. A record
    read with errors, or a play without its type (replay a record read without types
    first: ``duplicate.replay.replay`` fills them in), is a :class:`SimulateError`.
    """
    per_deal: list[int] = []
    passes = 0
    types: dict[ComboType, int] = {}
    places = [0, 0, 0, 0]
    for rec in records:
        if rec.errors:
            raise SimulateError(f"board {rec.board or '?'}: {rec.errors[0]}")
        if rec.plays is None or rec.finish is None:
            continue
        by_seat = [0, 0, 0, 0]
        for play in rec.plays:
            if play.is_pass:
                passes += 1
                continue
            if play.type is None:
                where = f"line {play.line}" if play.line is not None else "a play"
                raise SimulateError(
                    f"board {rec.board or '?'}: {where} has no type: replay the record first"
                )
            types[play.type] = types.get(play.type, 0) + 1
            by_seat[play.seat] += 1
        per_deal.append(sum(by_seat))
        # Seats the Finish tag leaves out (a double down's losers) take the remaining
        # places in play order after the last seat listed, as the engine orders them.
        order = list(rec.finish)
        seat = order[-1] if order else Seat.N
        while len(order) < 4:
            seat = seat.next
            if seat not in order:
                order.append(seat)
        for place, seat in enumerate(order):
            places[place] += by_seat[seat]
    return PlayStats(
        len(per_deal), tuple(per_deal), passes, types, (places[0], places[1], places[2], places[3])
    )


def format_statistics(stats: PlayStats, lang: str = "en") -> str:
    """A plain-text table of ``stats`` beside the real-play figures of :data:`REAL_PLAY`,
    in ``lang`` (the combinations named as docs/GLOSSARY.md names them)."""
    t = translator(lang)
    real = REAL_PLAY
    low, high = real.plays_range_90
    rows: list[tuple[str, str, str]] = [
        (t("stats.deals"), str(stats.deals), ""),
        (t("stats.plays_mean"), f"{stats.mean_plays:.1f}", f"{real.plays_per_deal}"),
        (
            t("stats.plays_range"),
            f"{stats.plays_percentile(5)}-{stats.plays_percentile(95)}",
            t("stats.real_range", low=low, high=high),
        ),
        (t("stats.passes"), f"{stats.passes / (stats.deals or 1):.1f}", "-"),
        (t("stats.bombs"), f"{stats.bombs_per_deal:.2f}", f"{real.bombs_per_deal}"),
    ]
    for kind, pct in real.shares.items():
        if kind == "bombs":
            name = t("stats.all_bombs")
        else:  # English keeps the record names (FORMAT.md) the figures are kept by
            name = kind.record_name if lang == "en" else t(f"combo.{kind.record_name}")
        rows.append((t("stats.share", name=name), f"{stats.share(kind):.1f}%", f"{pct}%"))
    sf = stats.type_counts.get(ComboType.STRAIGHT_FLUSH, 0)
    rows.append(
        (
            t("stats.sf_share"),
            f"{100.0 * sf / stats.bombs:.1f}%" if stats.bombs else "-",
            f"{real.straight_flush_share_of_bombs}%",
        )
    )
    deals = stats.deals or 1
    rows.append(
        (
            t("stats.by_place"),
            " ".join(f"{n / deals:.1f}" for n in stats.place_plays),
            " ".join(str(x) for x in real.plays_by_place),
        )
    )
    head = (t("stats.col.statistic"), t("stats.col.simulated"), t("stats.col.real"))

    def pad(text: str, width: int) -> str:
        return text + " " * (width - display_width(text))

    widths = [max(display_width(r[i]) for r in [head, *rows]) for i in range(3)]
    lines = ["  ".join(pad(c, w) for c, w in zip(head, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)
