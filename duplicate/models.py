"""Database models (SQLAlchemy 2, typed declarative style).

One declarative :class:`Base` whose ``MetaData`` carries a naming convention, so that every
constraint has a stable name and SQLite batch migrations can drop it by name (STYLE.md).
The schema is built only by the Alembic migrations under ``migrations/``; a test checks
that these models and the migrated schema agree. No application globals live here: engines
and sessions are made in :mod:`duplicate.db`.

Later parts of the project add their tables (records, events) to this module, each with a
migration.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: Constraint names: ``pk_boards``, ``uq_boards_deal_id``, ``fk_boards_set_id_board_sets``, …
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


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


# --- deal records -------------------------------------------------------------------------


class DealRecordRow(Base):
    """A played deal imported from a ``.gdn`` record, replayed and checked first.

    A record is identified by its **key**: the DealId of its hands and its ``Event``,
    ``Round`` and ``Room`` tags ("" when absent): one room's play of one board. The first
    record of a key is version 1; a different record for the same key is refused unless it
    is a correction, stored as the next version with its reason, who made it and when (the
    highest version is the current one; older ones are kept). Importing a record equal to
    the current version (same ``content_hash`` of its canonical text) stores nothing.

    ``board_id`` links the record to the stored board with the same DealId, if any. The
    finishing order, result and N–S score are the replay's, not the record's word.
    ``gdn`` is the canonical ``.gdn`` text (``duplicate.gdn.dumps``), plays fully declared.
    """

    __tablename__ = "deal_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_id: Mapped[str] = mapped_column(String(64), index=True)
    event: Mapped[str] = mapped_column(String(200))
    round: Mapped[str] = mapped_column(String(50))
    room: Mapped[str] = mapped_column(String(100))
    version: Mapped[int] = mapped_column(Integer)
    board_id: Mapped[int | None] = mapped_column(
        ForeignKey("boards.id", ondelete="SET NULL"), index=True
    )
    board_number: Mapped[str | None] = mapped_column(String(50))
    north: Mapped[str | None] = mapped_column(String(200))
    east: Mapped[str | None] = mapped_column(String(200))
    south: Mapped[str | None] = mapped_column(String(200))
    west: Mapped[str | None] = mapped_column(String(200))
    level: Mapped[int] = mapped_column(Integer)
    leader: Mapped[int] = mapped_column(Integer)
    plays: Mapped[int] = mapped_column(Integer)
    finish: Mapped[str] = mapped_column(String(20))
    result: Mapped[str] = mapped_column(String(10))
    ns_score: Mapped[int] = mapped_column(Integer)
    gdn: Mapped[str] = mapped_column(Text)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    source: Mapped[str | None] = mapped_column(Text)
    correction_reason: Mapped[str | None] = mapped_column(Text)
    corrected_by: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    board: Mapped[Board | None] = relationship()

    __table_args__ = (
        UniqueConstraint("deal_id", "event", "round", "room", "version"),
        CheckConstraint("version >= 1", name="version"),
        CheckConstraint(
            "(version = 1 AND correction_reason IS NULL) "
            "OR (version > 1 AND correction_reason IS NOT NULL)",
            name="correction_reason",
        ),
        CheckConstraint("level BETWEEN 0 AND 12", name="level"),
        CheckConstraint("leader BETWEEN 0 AND 3", name="leader"),
        CheckConstraint("ns_score BETWEEN -4 AND 4 AND ns_score <> 0", name="ns_score"),
    )
