"""Database models (SQLAlchemy 2, typed declarative style).

One declarative :class:`Base` whose ``MetaData`` carries a naming convention, so that every
constraint has a stable name and SQLite batch migrations can drop it by name (STYLE.md).
The schema is built only by the Alembic migrations under ``migrations/``; a test checks
that these models and the migrated schema agree. No application globals live here: engines
and sessions are made in :mod:`duplicate.db`.

Later parts of the project add their tables (events, the store) to this module, each with a
migration.
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from engine.ruleset import COMPETITION

#: Constraint names: ``pk_boards``, ``uq_boards_deal_id``, ``fk_boards_set_id_board_sets``, …
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


#: The competition rules as stored in a ``rules`` column (``Ruleset.to_dict()``, keys sorted):
#: the default of ``events.rules`` and ``room_results.rules`` (migrations ``0004``, ``0005``).
COMPETITION_RULES_JSON = json.dumps(COMPETITION.to_dict(), sort_keys=True)


class Base(DeclarativeBase):
    """Declarative base of every model; its metadata is the migrations' target."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# --- boards ---------------------------------------------------------------------------


class BoardSet(Base):
    """A named set of boards generated from one secret seed (DUPLICATE.md "Fair dealing").

    The set keeps what is needed to check it: the generator id, the commitment (SHA-256 of
    the seed file) published before the event, the level schedule, and the delayed
    information mixed into the seed, if any. ``revealed_seed`` holds the seed file's text
    only once it has been revealed (``guandan deals reveal`` / ``verify``); before that, the
    secret never enters the database.
    """

    __tablename__ = "board_sets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    generator: Mapped[str] = mapped_column(String(100))
    commitment: Mapped[str] = mapped_column(String(64), index=True)
    level_schedule: Mapped[str] = mapped_column(String(20))
    delayed_value: Mapped[str | None] = mapped_column(Text)
    board_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    revealed_seed: Mapped[str | None] = mapped_column(Text)

    boards: Mapped[list[Board]] = relationship(
        back_populates="board_set",
        order_by="Board.number",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    __table_args__ = (CheckConstraint("board_count >= 0", name="board_count"),)


class Board(Base):
    """One stored board: its number in the set, level, first leader, hands and DealId.

    Hands are stored as FORMAT.md tokens in natural order (``"S2 S2 H3 …"``, 27 per seat),
    readable in any SQL client. ``level`` is a rank index 0..12 (2..A), ``leader`` a seat
    index 0..3 (N E S W). ``deal_id`` is unique across the whole database: generating a
    board already stored is refused, as Big Deal refuses a repeated hash.
    """

    __tablename__ = "boards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    set_id: Mapped[int] = mapped_column(ForeignKey("board_sets.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    level: Mapped[int] = mapped_column(Integer)
    leader: Mapped[int] = mapped_column(Integer)
    deal_id: Mapped[str] = mapped_column(String(64), unique=True)
    hand_n: Mapped[str] = mapped_column(Text)
    hand_e: Mapped[str] = mapped_column(Text)
    hand_s: Mapped[str] = mapped_column(Text)
    hand_w: Mapped[str] = mapped_column(Text)

    board_set: Mapped[BoardSet] = relationship(back_populates="boards")

    __table_args__ = (
        UniqueConstraint("set_id", "number"),
        CheckConstraint("number >= 1", name="number"),
        CheckConstraint("level BETWEEN 0 AND 12", name="level"),
        CheckConstraint("leader BETWEEN 0 AND 3", name="leader"),
    )


# --- events (duplicate.events; docs/EVENTS.md) -----------------------------------------
#
# An event's teams, players and pairs; its rounds, matches and the seating of each match's
# two rooms; the result of every board in every room; and the corrections made after
# publication. Composite foreign keys tie each row to its own event or team, so that the
# database itself refuses a seating whose open and closed rooms do not swap the two teams
# (RULES.md §11): X's pairs must be pairs of team X, Y's pairs of team Y.


class Event(Base):
    """A teams event: its seed (draws), format, scale and the rules that score it.

    ``scale`` is the JSON of ``scoring.WinDrawLoss`` / ``VictoryPoints.to_dict()``;
    ``bye_points_cents`` is what a bye scores, in hundredths (exact sums and ties).
    ``rules`` is the rule set its records are replayed and scored under (``Ruleset`` as
    JSON, keys sorted; default the competition rules). ``lang`` is the default language
    of its pages and report (``en`` or ``zh``; migration 0007). ``time_zone`` is the IANA
    zone its times are shown in; ``director_minutes`` how long after a round's publication
    a director may change its results (None: no limit; migration 0014); ``tiebreaks`` the
    name of the order its standings rank by (``standings.TIEBREAK_ORDERS``; migration 0015).
    ``live_mode`` is the director's choice for the live view of captured boards
    (``released``: spectators see a board once released; ``delayed``: the spectator link's
    holders see it ``live_delay`` minutes late), ``watch_hash`` the SHA-256 of that link's
    token (migration 0019).
    """

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    seed: Mapped[str] = mapped_column(String(128))
    format: Mapped[str] = mapped_column(String(10))
    scale: Mapped[str] = mapped_column(Text)
    unfinished_rule: Mapped[str] = mapped_column(String(20))
    boards_per_round: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    bye_points_cents: Mapped[int] = mapped_column(Integer)
    bye_won: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    rules: Mapped[str] = mapped_column(Text, server_default=COMPETITION_RULES_JSON)
    lang: Mapped[str] = mapped_column(String(5), server_default="en")
    time_zone: Mapped[str] = mapped_column(String(64), server_default="UTC")
    director_minutes: Mapped[int | None] = mapped_column(Integer, server_default="20")
    tiebreaks: Mapped[str] = mapped_column(String(20), server_default="jiangsu")
    live_mode: Mapped[str] = mapped_column(String(8), server_default="released")
    live_delay: Mapped[int] = mapped_column(Integer, server_default="15")
    watch_hash: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (
        CheckConstraint("format IN ('swiss', 'rr')", name="format"),
        CheckConstraint("live_mode IN ('released', 'delayed')", name="live_mode"),
        CheckConstraint("live_delay >= 0 AND live_delay <= 1440", name="live_delay"),
        CheckConstraint("tiebreaks IN ('jiangsu', 'friendly')", name="tiebreaks"),
        CheckConstraint(
            "director_minutes IS NULL OR director_minutes >= 0", name="director_minutes"
        ),
        CheckConstraint("lang IN ('en', 'zh')", name="lang"),
        CheckConstraint("unfinished_rule IN ('average', 'not_scored')", name="unfinished_rule"),
        CheckConstraint("boards_per_round >= 1", name="boards_per_round"),
        CheckConstraint("rounds >= 1", name="rounds"),
        CheckConstraint("bye_points_cents >= 0", name="bye_points_cents"),
    )


class EventTeam(Base):
    """A team of an event; ``number`` is its entry order (round-robin schedule, listings)."""

    __tablename__ = "event_teams"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))

    __table_args__ = (
        UniqueConstraint("event_id", "name"),
        UniqueConstraint("event_id", "number"),
        UniqueConstraint("id", "event_id"),
        CheckConstraint("number >= 1", name="number"),
    )


class EventPlayer(Base):
    """A player of a team; a name is unique within the event (one team per player)."""

    __tablename__ = "event_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(Integer)
    team_id: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))

    __table_args__ = (
        ForeignKeyConstraint(
            ["team_id", "event_id"],
            ["event_teams.id", "event_teams.event_id"],
            ondelete="CASCADE",
        ),
        UniqueConstraint("event_id", "name"),
        UniqueConstraint("team_id", "position"),
        UniqueConstraint("id", "team_id"),
        CheckConstraint("position BETWEEN 1 AND 6", name="position"),
    )


class EventPair(Base):
    """A pair of a team: two of its players (``player_1`` sits N or E, ``player_2`` S or W)."""

    __tablename__ = "event_pairs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("event_teams.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    player_1_id: Mapped[int] = mapped_column(Integer)
    player_2_id: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        ForeignKeyConstraint(
            ["player_1_id", "team_id"], ["event_players.id", "event_players.team_id"]
        ),
        ForeignKeyConstraint(
            ["player_2_id", "team_id"], ["event_players.id", "event_players.team_id"]
        ),
        UniqueConstraint("team_id", "number"),
        UniqueConstraint("id", "team_id"),
        CheckConstraint("number >= 1", name="number"),
        CheckConstraint("player_1_id <> player_2_id", name="two_players"),
    )


class EventRound(Base):
    """A round: its number, the boards it plays (a stored set, from ``first_board`` on),
    the team with the bye, and when it was last scored."""

    __tablename__ = "event_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    board_set_id: Mapped[int | None] = mapped_column(ForeignKey("board_sets.id"))
    first_board: Mapped[int | None] = mapped_column(Integer)
    bye_team_id: Mapped[int | None] = mapped_column(Integer)
    scored_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        ForeignKeyConstraint(
            ["bye_team_id", "event_id"], ["event_teams.id", "event_teams.event_id"]
        ),
        UniqueConstraint("event_id", "number"),
        UniqueConstraint("id", "event_id"),
        CheckConstraint("number >= 1", name="number"),
        CheckConstraint("first_board >= 1", name="first_board"),
        CheckConstraint("(board_set_id IS NULL) = (first_board IS NULL)", name="boards_assigned"),
    )


class EventMatch(Base):
    """A match of a round and its seating (RULES.md §11): open room X's pair N–S and Y's
    pair E–W; closed room Y's other pair N–S and X's other pair E–W.

    Each pair column carries a composite foreign key with its team, so a pair of the wrong
    team (a seating that breaks the swap) cannot be stored.
    """

    __tablename__ = "event_matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    table_no: Mapped[int] = mapped_column(Integer)
    team_x_id: Mapped[int] = mapped_column(ForeignKey("event_teams.id"))
    team_y_id: Mapped[int] = mapped_column(ForeignKey("event_teams.id"))
    open_ns_pair_id: Mapped[int] = mapped_column(Integer)
    open_ew_pair_id: Mapped[int] = mapped_column(Integer)
    closed_ns_pair_id: Mapped[int] = mapped_column(Integer)
    closed_ew_pair_id: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        ForeignKeyConstraint(
            ["open_ns_pair_id", "team_x_id"], ["event_pairs.id", "event_pairs.team_id"]
        ),
        ForeignKeyConstraint(
            ["closed_ew_pair_id", "team_x_id"], ["event_pairs.id", "event_pairs.team_id"]
        ),
        ForeignKeyConstraint(
            ["open_ew_pair_id", "team_y_id"], ["event_pairs.id", "event_pairs.team_id"]
        ),
        ForeignKeyConstraint(
            ["closed_ns_pair_id", "team_y_id"], ["event_pairs.id", "event_pairs.team_id"]
        ),
        UniqueConstraint("round_id", "table_no"),
        UniqueConstraint("round_id", "team_x_id"),
        UniqueConstraint("round_id", "team_y_id"),
        CheckConstraint("table_no >= 1", name="table_no"),
        CheckConstraint("team_x_id <> team_y_id", name="two_teams"),
        CheckConstraint("open_ns_pair_id <> closed_ew_pair_id", name="x_two_pairs"),
        CheckConstraint("open_ew_pair_id <> closed_ns_pair_id", name="y_two_pairs"),
    )


# --- the store of played deals (duplicate.store; docs/DESIGN.md "The store") ------------
#
# One row of ``room_results`` is one room's play of one board at one table: its key, never
# its result. What happened is the append-only log ``result_changes`` (every import, report,
# correction and ruling: who, when, why, old and new); the current result of a room is its
# latest change, a query. ``play_records`` keeps every record that was attached (the proof,
# canonical ``.gdn``); a change names the record it rests on, if any.

_RESULT_STATE = (
    "({p}status = 'played' AND {p}ns_result IS NOT NULL AND {p}ns_result BETWEEN -4 AND 4 "
    "AND {p}ns_result <> 0) OR ({p}status = 'unfinished' AND {p}ns_result IS NULL)"
)
#: What a change did (``duplicate.store.ACTIONS``).
CHANGE_ACTIONS = ("import", "report", "attach", "unfinished", "correction", "ruling")


class RoomResult(Base):
    """One room's play of one board at one table, under one rule set: the key of a result.

    The key is the DealId of the hands (``deal_id``; ``board_id`` links the stored board
    with it, ``board`` is its number as the record or the round gives it), the ``event``,
    ``round``, ``table_key`` and ``room`` ("" when a standalone record has no such tag;
    ``table_key`` is the record's ``Table`` tag, so that the tables of a round playing the
    same board are apart) and the ``rules`` (``Ruleset`` JSON, keys sorted). An event's
    results also name their match (``match_id``): event, round and table are then the
    event's name, the round number and the table number, and room is open or closed.
    """

    __tablename__ = "room_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[str] = mapped_column(String(64))
    board_id: Mapped[int | None] = mapped_column(
        ForeignKey("boards.id", ondelete="SET NULL"), index=True
    )
    board: Mapped[str] = mapped_column(String(50), server_default="")
    event: Mapped[str] = mapped_column(String(200), server_default="")
    round: Mapped[str] = mapped_column(String(50), server_default="")
    table_key: Mapped[str] = mapped_column(String(50), server_default="")
    room: Mapped[str] = mapped_column(String(100), server_default="")
    rules: Mapped[str] = mapped_column(Text, server_default=COMPETITION_RULES_JSON)
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("event_matches.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (
        UniqueConstraint("deal_id", "event", "round", "table_key", "room", "rules"),
        CheckConstraint("match_id IS NULL OR room IN ('open', 'closed')", name="match_room"),
    )


class PlayRecord(Base):
    """A play record attached to a room result: canonical ``.gdn`` text and its SHA-256.

    ``finish``, ``result`` and ``ns_score`` are what the replay computed (``ns_score`` NULL:
    the record ends before the deal does, or, for records moved from an event's results
    under a ruling by migration ``0005``, not known). ``source`` is the file and line.

    A room holds one row per record text (unique ``result_id``, ``content_hash``): a
    second writer of the same record finds the first's row (migration ``0010``)."""

    __tablename__ = "play_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    result_id: Mapped[int] = mapped_column(
        ForeignKey("room_results.id", ondelete="CASCADE"), index=True
    )
    gdn: Mapped[str] = mapped_column(Text)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    finish: Mapped[str | None] = mapped_column(String(20))
    result: Mapped[str | None] = mapped_column(String(10))
    ns_score: Mapped[int | None] = mapped_column(Integer)
    source: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (UniqueConstraint("result_id", "content_hash"),)


class ResultChange(Base):
    """One change of a room result, never updated: who, when (UTC), why, old and new.

    The new state is ``status`` (played or unfinished), ``ns_result`` (N–S view, ±1..±4),
    ``note`` (an unfinished board's reason, a ruling's word), ``finish`` (the finishing
    order reported, when no record says it) and ``record_id`` (the record it rests on);
    the ``old_*`` columns are the state it replaced (NULL for a result's first change).
    ``seq`` numbers a room's changes 1, 2, … (unique with ``result_id``, migration
    ``0010``): a change is written as the successor of the one it read as current, so
    of two writers that read the same current result, the second fails and reads again.
    """

    __tablename__ = "result_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    result_id: Mapped[int] = mapped_column(ForeignKey("room_results.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(12))
    made_by: Mapped[str] = mapped_column(String(200))
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(12))
    ns_result: Mapped[int | None] = mapped_column(Integer)
    note: Mapped[str | None] = mapped_column(Text)
    finish: Mapped[str | None] = mapped_column(String(20))
    record_id: Mapped[int | None] = mapped_column(
        ForeignKey("play_records.id", ondelete="CASCADE"), index=True
    )
    old_status: Mapped[str | None] = mapped_column(String(12))
    old_ns_result: Mapped[int | None] = mapped_column(Integer)
    old_note: Mapped[str | None] = mapped_column(Text)
    old_finish: Mapped[str | None] = mapped_column(String(20))
    old_record_id: Mapped[int | None] = mapped_column(
        ForeignKey("play_records.id", ondelete="CASCADE")
    )

    __table_args__ = (
        Index("ix_result_changes_result_id_id", "result_id", "id"),
        UniqueConstraint("result_id", "seq"),
        CheckConstraint("seq >= 1", name="seq"),
        CheckConstraint(
            "action IN (" + ", ".join(f"'{a}'" for a in CHANGE_ACTIONS) + ")", name="action"
        ),
        CheckConstraint("made_by <> ''", name="made_by"),
        CheckConstraint("reason <> ''", name="reason"),
        CheckConstraint(_RESULT_STATE.format(p=""), name="state"),
        CheckConstraint(
            "old_status IS NULL OR " + _RESULT_STATE.format(p="old_"), name="old_state"
        ),
    )


# --- a director's changes to an event (migration 0006) ----------------------------------


class EventRelease(Base):
    """A board of a round released to the players by the director before every table of the
    round had it in (docs/EVENTS.md, "Which boards players may see"): who, when, why."""

    __tablename__ = "event_releases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    board: Mapped[int] = mapped_column(Integer)
    made_by: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (
        UniqueConstraint("round_id", "board"),
        CheckConstraint("board >= 1", name="board"),
        CheckConstraint("made_by <> ''", name="made_by"),
        CheckConstraint("reason <> ''", name="reason"),
    )


class EventWithdrawal(Base):
    """A team withdrawn from an event: paired no more after round ``after_round``; the
    results it played stand."""

    __tablename__ = "event_withdrawals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    team_id: Mapped[int] = mapped_column(
        ForeignKey("event_teams.id", ondelete="CASCADE"), unique=True
    )
    after_round: Mapped[int] = mapped_column(Integer)
    made_by: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (
        CheckConstraint("after_round >= 0", name="after_round"),
        CheckConstraint("made_by <> ''", name="made_by"),
        CheckConstraint("reason <> ''", name="reason"),
    )


class AdminLog(Base):
    """The log of a director's changes to events and board sets (renames, substitutions,
    withdrawals, deletions, boards reused): who, when, why, what. No foreign keys, so that
    the entry of a deleted event or set stays."""

    __tablename__ = "admin_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(40))
    event: Mapped[str | None] = mapped_column(String(200), index=True)
    board_set: Mapped[str | None] = mapped_column(String(200))
    detail: Mapped[str] = mapped_column(Text)
    made_by: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (
        CheckConstraint("made_by <> ''", name="made_by"),
        CheckConstraint("reason <> ''", name="reason"),
    )


# --- the tournament hall service (duplicate.hall; migration 0007) ----------------------
#
# What the hall adds to an event's rounds: the round clock, check-ins, the tables' tokens,
# West's reports and their fate, and the director's rulings. A report is not a result: it
# counts only once North confirms it (or the director settles it), and then it is written
# to the store (``result_changes``) like any other result.

#: The states of a table's report (``duplicate.hall.REPORT_STATES``).
HALL_REPORT_STATES = (
    "reported", "confirmed", "disputed", "settled", "replaced",
    # a table's change after the round was published waits on the desk (migration 0011)
    "requested", "accepted", "dismissed",
)
#: Ruling categories and effects (``duplicate.hall.CATEGORIES`` / ``EFFECTS``).
HALL_CATEGORIES = ("warning", "violation", "foul", "late", "forfeit")
HALL_EFFECTS = ("none", "assigned", "conceded", "forfeit")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN (" + ", ".join(f"'{v}'" for v in values) + ")"


class HallRound(Base):
    """A round's clock: when it started, its length, warning and correction window (in
    minutes), when the director closed (scored) and published it. No row: not started."""

    __tablename__ = "hall_rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), unique=True
    )
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    minutes: Mapped[int] = mapped_column(Integer)
    warning_minutes: Mapped[int] = mapped_column(Integer)
    correction_minutes: Mapped[int] = mapped_column(Integer)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    started_by: Mapped[str] = mapped_column(String(200))
    #: when the director paused the clock (NULL: it runs); migration 0013
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: seconds added to (taken from) the round's end by pauses and moves; migration 0013
    shift_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (
        CheckConstraint("minutes >= 1", name="minutes"),
        CheckConstraint("warning_minutes >= 0 AND warning_minutes <= minutes", name="warning"),
        CheckConstraint("correction_minutes >= 0", name="correction"),
        CheckConstraint("published_at IS NULL OR closed_at IS NOT NULL", name="published"),
    )


class HallToken(Base):
    """A table token: what it may do (``role`` on one table and room of a round: West's
    ``report``, North's ``confirm``, the recorder's ``record``, migration 0016), stored
    as the SHA-256 hex of the token; ``void`` once the round's tokens are issued again."""

    __tablename__ = "hall_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), index=True
    )
    table_no: Mapped[int] = mapped_column(Integer)
    room: Mapped[str] = mapped_column(String(6))
    role: Mapped[str] = mapped_column(String(7))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    issued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    void: Mapped[bool] = mapped_column(Boolean, default=False)

    __table_args__ = (
        CheckConstraint("room IN ('open', 'closed')", name="room"),
        CheckConstraint("role IN ('report', 'confirm', 'record')", name="role"),
        CheckConstraint("table_no >= 1", name="table_no"),
    )


class HallCheckin(Base):
    """A team checked in (签到) for a round: when, by whom."""

    __tablename__ = "hall_checkins"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    team_id: Mapped[int] = mapped_column(ForeignKey("event_teams.id", ondelete="CASCADE"))
    checked_in_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    made_by: Mapped[str] = mapped_column(String(200))

    __table_args__ = (UniqueConstraint("round_id", "team_id"),)


class HallReport(Base):
    """West's report of one board in one room, and what became of it (``state``).

    ``live`` is TRUE for the report that stands for its board and room (reported,
    confirmed, disputed, settled) and NULL once replaced: the unique constraint on
    (round, table, room, board, live) lets only one live report exist per board and room,
    on every backend and under concurrency (NULLs are distinct). ``rev`` counts the
    report's changes (the standings' version reads it)."""

    __tablename__ = "hall_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    table_no: Mapped[int] = mapped_column(Integer)
    room: Mapped[str] = mapped_column(String(6))
    board: Mapped[int] = mapped_column(Integer)
    finish: Mapped[str | None] = mapped_column(String(20))
    unfinished: Mapped[str | None] = mapped_column(Text)
    ns_result: Mapped[int | None] = mapped_column(Integer)
    record: Mapped[str | None] = mapped_column(Text)
    correction: Mapped[str | None] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(10))
    live: Mapped[bool | None] = mapped_column(Boolean)
    rev: Mapped[int] = mapped_column(Integer, default=1)
    reported_by: Mapped[str] = mapped_column(String(200))
    reported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    dispute_note: Mapped[str | None] = mapped_column(Text)
    settled_by: Mapped[str | None] = mapped_column(String(200))
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    settled_reason: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        UniqueConstraint("round_id", "table_no", "room", "board", "live"),
        Index("ix_hall_reports_round_id_state", "round_id", "state"),
        CheckConstraint(_in("state", HALL_REPORT_STATES), name="state"),
        CheckConstraint("room IN ('open', 'closed')", name="room"),
        CheckConstraint("(live IS NULL) = (state = 'replaced')", name="live"),
        CheckConstraint("(finish IS NULL) <> (unfinished IS NULL)", name="one_kind"),
        CheckConstraint("reported_by <> ''", name="reported_by"),
    )


class HallRuling(Base):
    """A director's ruling at a table: category, effect (``none``, an ``assigned`` room
    result, a ``conceded`` board, a ``forfeit`` of the match), on which team, board and
    room, by whom, when, why. ``duplicate.events.scores`` honours conceded boards and
    forfeits from here; assigned results are written to the store as rulings."""

    __tablename__ = "hall_rulings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_rounds.id", ondelete="CASCADE"), index=True
    )
    table_no: Mapped[int] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String(10))
    effect: Mapped[str] = mapped_column(String(10))
    team_id: Mapped[int | None] = mapped_column(ForeignKey("event_teams.id", ondelete="CASCADE"))
    board: Mapped[int | None] = mapped_column(Integer)
    room: Mapped[str | None] = mapped_column(String(6))
    ns_result: Mapped[int | None] = mapped_column(Integer)
    made_by: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint(_in("category", HALL_CATEGORIES), name="category"),
        CheckConstraint(_in("effect", HALL_EFFECTS), name="effect"),
        CheckConstraint("made_by <> ''", name="made_by"),
        CheckConstraint("reason <> ''", name="reason"),
        CheckConstraint(
            "effect NOT IN ('conceded', 'forfeit') OR team_id IS NOT NULL", name="team"
        ),
        CheckConstraint("effect <> 'assigned' OR ns_result IS NOT NULL", name="assigned"),
    )


# --- the director's sessions and login throttle (duplicate.web.auth) ------------------------------------


class DeskSession(Base):
    """A director's session at the desk: the cookie holds a random id signed with the
    service's secret; the store keeps only its SHA-256 (``id_hash``), the session's CSRF
    token and ``key_tag``, a keyed hash of the director password and secret key it was
    opened under (another password or secret ends it). Logging out deletes the row."""

    __tablename__ = "desk_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    csrf: Mapped[str] = mapped_column(String(64))
    key_tag: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LoginFailure(Base):
    """Wrong director passwords from one client ``address`` (``*``: from every address
    together): how many since the last success or quiet spell, the last one, and until
    when further tries are refused (429)."""

    __tablename__ = "desk_login_failures"

    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    blocked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


# --- plays captured at the table (duplicate.capture; migration 0016) ---------------------


#: The note of a captured board whose record counts as its room's result.
CAPTURE_COUNTED = "counted"


class CaptureBoard(Base):
    """One board played in one room of one table of a round, entered action by action by
    the table's recorder (``duplicate.capture``): started once (unique), ``playing`` until
    the deal ends, then ``ended`` with ``record`` (its ``.gdn``), ``result`` (``NS +2``)
    and ``note``: what became of it in the store (:data:`CAPTURE_COUNTED`, or why it did
    not count). The director may mark it ``unfinished`` or take its record back
    (``withdrawn``; migration 0019, :class:`CaptureCorrection`)."""

    __tablename__ = "capture_boards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    table_no: Mapped[int] = mapped_column(Integer)
    room: Mapped[str] = mapped_column(String(6))
    board: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(10))
    started_by: Mapped[str] = mapped_column(String(200))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    record: Mapped[str | None] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(String(10))
    note: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        UniqueConstraint("round_id", "table_no", "room", "board"),
        CheckConstraint("state IN ('playing', 'ended', 'unfinished', 'withdrawn')",
                        name="state"),
        CheckConstraint("room IN ('open', 'closed')", name="room"),
        CheckConstraint("(state = 'playing') = (ended_at IS NULL)", name="ended"),
    )


class CaptureAction(Base):
    """One numbered action of a captured board: ``seq`` (1, 2, … in the deal's order),
    ``seat``, ``cards`` (card tokens, empty for a pass) and the engine's reading
    (``ctype``, ``rank``: a ``.gdn`` play line's). ``live`` is TRUE for an action that
    stands and NULL once taken back (``undone_by``, ``undone_at``): the unique key on
    (board, seq, live) stores a resent action once, under concurrency too."""

    __tablename__ = "capture_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    capture_id: Mapped[int] = mapped_column(
        ForeignKey("capture_boards.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(1))
    cards: Mapped[str] = mapped_column(String(200))
    ctype: Mapped[str | None] = mapped_column(String(20))
    rank: Mapped[str | None] = mapped_column(String(2))
    live: Mapped[bool | None] = mapped_column(Boolean)
    entered_by: Mapped[str] = mapped_column(String(200))
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    undone_by: Mapped[str | None] = mapped_column(String(200))
    undone_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        UniqueConstraint("capture_id", "seq", "live"),
        CheckConstraint("seq >= 1", name="seq"),
        CheckConstraint("seat IN ('N', 'E', 'S', 'W')", name="seat"),
        CheckConstraint("(live IS NULL) = (undone_at IS NOT NULL)", name="live"),
    )


#: What a director's correction of a captured board did.
CAPTURE_CORRECTIONS = ("play", "unfinished", "withdrawn")


class CaptureCorrection(Base):
    """A director's change to a captured board (migration 0019): ``play`` (action ``seq``
    was ``before``, is ``after``: ``N S3 S4``, ``E PASS``), ``unfinished`` (the deal was
    marked unfinished) or ``withdrawn`` (its record was taken back); who, when, why."""

    __tablename__ = "capture_corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    capture_id: Mapped[int] = mapped_column(
        ForeignKey("capture_boards.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(10))
    seq: Mapped[int | None] = mapped_column(Integer)
    before: Mapped[str] = mapped_column(Text)
    after: Mapped[str] = mapped_column(Text)
    made_by: Mapped[str] = mapped_column(String(200))
    reason: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("kind IN ('play', 'unfinished', 'withdrawn')", name="kind"),
        CheckConstraint("made_by <> ''", name="made_by"),
        CheckConstraint("reason <> ''", name="reason"),
    )


class CaptureAnalysis(Base):
    """A board's first divergence and analysis at one table once both rooms' captured
    deals ended (migration 0019): ``body`` is JSON, keyed by the two records' digest
    (``records_hash``) so that a corrected record is analysed again. Computed in the
    background (``duplicate.capture.analysis``)."""

    __tablename__ = "capture_analyses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_rounds.id", ondelete="CASCADE"))
    table_no: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    records_hash: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("round_id", "table_no", "board", "records_hash"),)


# --- analyses of records, computed by jobs (duplicate.jobs; migration 0018) ------------


class Analysis(Base):
    """The analysis of one record (``duplicate.review.analysis``'s stored form, as JSON
    text) under its ``key``, the digest of the deal, the plays, the rules and the budget:
    the primary key, so a record is stored once and a second store of it is a no-op.
    ``computed_by`` names the worker (host and process) that computed it."""

    __tablename__ = "analyses"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    result: Mapped[str] = mapped_column(Text)
    computed_by: Mapped[str] = mapped_column(String(200))
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnalysisEvent(Base):
    """An event whose analysis was asked for, with the ``budget`` (``Budget.to_dict()``
    as JSON): the workers' sweep queues its records as they come, within that budget."""

    __tablename__ = "analysis_events"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    budget: Mapped[str] = mapped_column(Text)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnalysisRequest(Base):
    """A record key an event's analysis asked for (``guandan event analyse``, the
    report's ``--analyse``): the event's progress is how many of its keys
    :class:`Analysis` holds."""

    __tablename__ = "analysis_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(96))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (UniqueConstraint("event_id", "key"),)
