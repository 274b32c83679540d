"""Board sets: generate, store, show, reveal, verify and export (what ``guandan deals`` calls).

A set is generated from a seed file (:mod:`duplicate.dealing`) and stored in one
transaction: either every board is stored or none is. Boards are refused when their DealId
is already stored anywhere in the database (Big Deal's "same hash" check) or when the set
would hold two identical boards. The database holds the seed's commitment, never the secret,
until the seed is revealed.

Hand records are written as ``.gdn`` text (FORMAT.md) by :func:`hand_records`, a small
writer of this module's own; ``duplicate.gdn`` is the full reader/writer of the format.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from duplicate import gdn, models
from duplicate.db import check_schema, session_scope
from duplicate.dealing import (
    DEFAULT_SCHEDULE,
    Board,
    LevelSchedule,
    SeedFile,
    board_from_hands,
    generate_board,
    generate_boards,
)
from duplicate.errors import (
    BoardExistsError,
    BoardSetNotFoundError,
    DuplicateError,
    GeneratorError,
    VerificationError,
)
from duplicate.gdn import loads
from duplicate.i18n import Phrase, Term, phrase
from duplicate.i18n.stored import coded
from duplicate.limits import LimitError, check_text, shown
from engine.cards import parse_cards, rank_name
from engine.errors import GuandanError
from engine.seat import Seat

#: Boards inserted per statement when storing (one transaction for the whole set).
CHUNK = 2000
#: The largest set generated in one go.
MAX_BOARDS = 1_000_000

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class SetInfo:
    """What is known of a board set, besides its boards (never the unrevealed secret)."""

    name: str
    generator: str
    commitment: str
    level_schedule: str
    delayed_value: str | None
    board_count: int
    revealed_seed: str | None = None
    created_at: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``created_at`` as ISO 8601; the seed only once it is revealed)."""
        return {
            "name": self.name,
            "generator": self.generator,
            "commitment": self.commitment,
            "level_schedule": self.level_schedule,
            "delayed_value": self.delayed_value,
            "board_count": self.board_count,
            "revealed": self.revealed_seed is not None,
            "revealed_seed": self.revealed_seed,
            "created_at": _iso_utc(self.created_at),
        }


@dataclass(frozen=True, slots=True)
class BoardSet:
    """A board set with its boards, numbered 1..N."""

    info: SetInfo
    boards: tuple[Board, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the set's fields and ``boards``, each as :func:`board_to_dict`."""
        return {**self.info.to_dict(), "boards": [board_to_dict(b) for b in self.boards]}


def _iso_utc(when: datetime | None) -> str | None:
    """A stored time as ISO 8601 with its offset (SQLite gives it back without one: the
    database wrote UTC)."""
    if when is None:
        return None
    return (when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)).isoformat()


def board_to_dict(board: Board) -> dict[str, Any]:
    """One board as JSON: the same content as its ``.gdn`` hand record."""
    return {
        "board": board.number,
        "level": rank_name(board.level),
        "leader": board.leader.name,
        "generator": board.generator,
        "deal_id": board.deal_id,
        "hands": {seat.name: board.tokens(seat).split() for seat in Seat},
    }


# --- generating ---------------------------------------------------------------------------


def generate_set(
    seed: SeedFile,
    count: int,
    name: str,
    schedule: LevelSchedule | str = DEFAULT_SCHEDULE,
    delayed: str | None = None,
    progress: Progress | None = None,
) -> BoardSet:
    """Generate boards 1..``count`` from ``seed`` (and the delayed value, if announced).

    Raises :class:`BoardExistsError` if two boards of the set are identical (this never
    happens by chance; it would mean a broken generator) and :class:`GeneratorError` for a
    bad count or name.
    """
    if not 1 <= count <= MAX_BOARDS:
        raise GeneratorError(phrase("boards.err.count", count=count, most=MAX_BOARDS))
    try:
        check_text(name, "set")  # stored as given: a set is looked up by its exact name
    except LimitError as exc:
        raise GeneratorError(phrase("boards.err.set_name", error=exc.phrase or str(exc))) from None
    if isinstance(schedule, str):
        schedule = LevelSchedule.parse(schedule)
    key = seed.key(delayed)
    boards: list[Board] = []
    seen: dict[str, int] = {}
    for board in generate_boards(key, count, schedule, seed.generator):
        first = seen.setdefault(board.deal_id, board.number)
        if first != board.number:
            raise BoardExistsError(phrase("boards.err.repeats", set=repr(name), board=board.number,
                                           first=first, deal_id=board.deal_id))
        boards.append(board)
        if progress is not None:
            progress(1)
    info = SetInfo(
        name=name,
        generator=seed.generator,
        commitment=seed.commitment,
        level_schedule=str(schedule),
        delayed_value=delayed or None,
        board_count=count,
    )
    return BoardSet(info, tuple(boards))


# --- storing and loading ------------------------------------------------------------------


def _board_row(set_id: int, board: Board) -> dict[str, Any]:
    return {
        "set_id": set_id,
        "number": board.number,
        "level": board.level,
        "leader": int(board.leader),
        "deal_id": board.deal_id,
        "hand_n": board.tokens(Seat.N),
        "hand_e": board.tokens(Seat.E),
        "hand_s": board.tokens(Seat.S),
        "hand_w": board.tokens(Seat.W),
    }


def store_set(engine: Engine, board_set: BoardSet, progress: Progress | None = None) -> SetInfo:
    """Store a generated set and all its boards in one transaction.

    Refused with :class:`BoardExistsError` when a set of that name exists, a set was already
    made from the same seed file (same commitment: one seed makes one set, whatever the
    delayed value) or any board's DealId is already stored; then nothing is written.
    """
    check_schema(engine)
    info = board_set.info
    try:
        with session_scope(engine) as session:
            if session.scalar(select(models.BoardSet.id).where(models.BoardSet.name == info.name)):
                raise BoardExistsError(phrase("boards.err.set_taken", set=repr(info.name)))
            made = session.scalar(
                select(models.BoardSet.name).where(models.BoardSet.commitment == info.commitment)
            )
            if made is not None:
                # with another delayed value the boards differ, so the DealId check below
                # would let a second set through under the same published commitment
                raise BoardExistsError(
                    phrase("boards.err.seed_used", commitment=info.commitment[:16],
                           set=repr(made)),
                    cli_hint="a new seed: 'guandan deals seed'",
                )
            row = models.BoardSet(
                name=info.name,
                generator=info.generator,
                commitment=info.commitment,
                level_schedule=info.level_schedule,
                delayed_value=info.delayed_value,
                board_count=info.board_count,
            )
            session.add(row)
            session.flush()
            set_id = row.id
            boards = board_set.boards
            for start in range(0, len(boards), CHUNK):
                chunk = boards[start : start + CHUNK]
                session.execute(insert(models.Board), [_board_row(set_id, b) for b in chunk])
                if progress is not None:
                    progress(len(chunk))
            created_at = row.created_at
    except IntegrityError:
        # The transaction is rolled back; now say which board was already there.
        raise _clash(engine, board_set) from None
    return dataclasses.replace(info, created_at=created_at)


def _clash(engine: Engine, board_set: BoardSet) -> DuplicateError:
    """The error for a set whose insertion broke a unique constraint: name the stored board."""
    by_id = {b.deal_id: b.number for b in board_set.boards}
    ids = list(by_id)
    with session_scope(engine) as session:
        if session.scalar(
            select(models.BoardSet.id).where(models.BoardSet.name == board_set.info.name)
        ):
            return BoardExistsError(phrase("boards.err.set_taken", set=repr(board_set.info.name)))
        found: list[tuple[str, int, str]] = []
        for start in range(0, len(ids), 500):
            rows = session.execute(
                select(models.Board.deal_id, models.Board.number, models.BoardSet.name)
                .join(models.BoardSet)
                .where(models.Board.deal_id.in_(ids[start : start + 500]))
            )
            found += [(d, n, s) for d, n, s in rows]
    if found:
        deal_id, number, set_name = min(found, key=lambda f: by_id[f[0]])
        key = "boards.err.board_stored_more" if len(found) > 1 else "boards.err.board_stored"
        return BoardExistsError(phrase(key, board=by_id[deal_id], set=repr(board_set.info.name),
                                       stored=number, stored_set=repr(set_name),
                                       deal_id=deal_id, more=len(found) - 1))
    return BoardExistsError(phrase("boards.err.clash", set=repr(board_set.info.name)))


def _info(row: models.BoardSet) -> SetInfo:
    return SetInfo(
        name=row.name,
        generator=row.generator,
        commitment=row.commitment,
        level_schedule=row.level_schedule,
        delayed_value=row.delayed_value,
        board_count=row.board_count,
        revealed_seed=row.revealed_seed,
        created_at=row.created_at,
    )


def _stored_board(row: models.Board, generator: str, set_name: str) -> Board:
    """A stored board row as a :class:`Board`; refuses a row whose DealId does not match."""
    try:
        hands = [parse_cards(h) for h in (row.hand_n, row.hand_e, row.hand_s, row.hand_w)]
        board = board_from_hands(hands, row.number, row.level, generator)
    except (GuandanError, GeneratorError) as exc:
        raise VerificationError(
            f"set {set_name!r}, board {row.number}: stored hands are invalid: {exc}"
        ) from None
    if board.deal_id != row.deal_id:
        raise VerificationError(
            f"set {set_name!r}, board {row.number}: stored DealId {row.deal_id} is not the hash "
            f"of the stored hands ({board.deal_id})"
        )
    if int(board.leader) != row.leader:
        raise VerificationError(
            f"set {set_name!r}, board {row.number}: stored leader {Seat(row.leader).name} is not "
            f"{board.leader.name}, the leader of board {row.number}"
        )
    return board


def list_sets(engine: Engine) -> list[SetInfo]:
    """Every stored board set, by name."""
    check_schema(engine)
    with session_scope(engine) as session:
        rows = session.scalars(select(models.BoardSet).order_by(models.BoardSet.name))
        return [_info(r) for r in rows]


def set_info(engine: Engine, name: str) -> SetInfo:
    """What is stored about set ``name``, without its boards."""
    check_schema(engine)
    with session_scope(engine) as session:
        return _info(_set_row(session, name))


def load_set(engine: Engine, name: str, numbers: Iterable[int] | None = None) -> BoardSet:
    """A stored set with its boards (only ``numbers`` when given), each checked against its DealId."""
    check_schema(engine)
    with session_scope(engine) as session:
        row = _set_row(session, name)
        query = select(models.Board).where(models.Board.set_id == row.id)
        wanted = sorted(set(numbers)) if numbers is not None else None
        if wanted is not None:
            query = query.where(models.Board.number.in_(wanted))
        rows = session.scalars(query.order_by(models.Board.number)).all()
        if wanted is not None:
            missing = sorted(set(wanted) - {r.number for r in rows})
            if missing:
                raise BoardSetNotFoundError(phrase("boards.err.no_board", set=repr(name), board=missing[0],
                                                count=row.board_count))
        info = _info(row)
        boards = tuple(_stored_board(r, row.generator, name) for r in rows)
    return BoardSet(info, boards)


def _set_row(session: Any, name: str) -> models.BoardSet:
    row: models.BoardSet | None = session.scalar(
        select(models.BoardSet).where(models.BoardSet.name == name)
    )
    if row is None:
        raise BoardSetNotFoundError(phrase("boards.err.no_set", set=shown(name)))
    return row


# --- reveal and verify --------------------------------------------------------------------


def _check_commitment(info: SetInfo, seed: SeedFile, commitment: str | None) -> None:
    if seed.commitment != info.commitment:
        raise VerificationError(phrase("boards.err.not_commitment", set=repr(info.name),
                                        sha=seed.commitment, stored=info.commitment))
    if commitment is not None and commitment.strip().lower() != info.commitment:
        raise VerificationError(phrase("boards.err.not_published", set=repr(info.name),
                                        stored=info.commitment, published=commitment.strip()))


def reveal_set(engine: Engine, name: str, seed: SeedFile, commitment: str | None = None,
               *, by: str | None = None, reason: str | None = None) -> SetInfo:
    """Record a seed as revealed for set ``name``, after checking it against the commitment;
    with ``by`` (who) and ``reason``, logged in the directors' log (the desk's reveal)."""
    check_schema(engine)
    with session_scope(engine) as session:
        row = _set_row(session, name)
        _check_commitment(_info(row), seed, commitment)
        row.revealed_seed = seed.data.decode("utf-8")
        if by:
            session.add(models.AdminLog(
                action="reveal seed", event=None, board_set=row.name,
                detail=coded("lw.detail.reveal", set=row.name, commitment=seed.commitment),
                made_by=by, reason=reason or "", made_at=datetime.now(UTC)))
        return _info(row)


@dataclass(frozen=True, slots=True)
class Verification:
    """The outcome of a successful :func:`verify_set`: the set and how many boards matched."""

    info: SetInfo
    boards_checked: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"ok": True, "boards_checked": self.boards_checked, **self.info.to_dict()}


def verify_set(
    engine: Engine,
    name: str,
    seed: SeedFile,
    delayed: str | None = None,
    commitment: str | None = None,
    progress: Progress | None = None,
) -> Verification:
    """Regenerate set ``name`` from its revealed seed and check it board by board.

    Checks: the seed file's SHA-256 is the stored commitment (and the published one, when
    given); the generator and delayed value are the stored ones; every stored board has the
    regenerated hands, level, leader and DealId, and the set has exactly its boards. A
    check only: nothing is written, the seed is not recorded as revealed (that is
    :func:`reveal_set`, ``guandan deals reveal``). Raises :class:`VerificationError` naming
    the first difference.
    """
    stored = load_set(engine, name)
    info = stored.info
    _check_commitment(info, seed, commitment)
    if seed.generator != info.generator:
        raise VerificationError(phrase("boards.err.generator", set=repr(name), used=info.generator,
                                        named=seed.generator))
    value = delayed if delayed is not None else info.delayed_value
    if (value or None) != info.delayed_value:
        raise VerificationError(phrase("boards.err.delayed", set=repr(name),
                                        used=repr(info.delayed_value), given=repr(value)))
    fresh = generate_set(seed, info.board_count, name, info.level_schedule, value, progress)
    _compare(name, stored.boards, fresh.boards)
    return Verification(info, len(fresh.boards))


def _compare(name: str, stored: Sequence[Board], fresh: Sequence[Board]) -> None:
    if len(stored) != len(fresh):
        raise VerificationError(phrase("boards.err.count_differs", set=repr(name), stored=len(stored),
                                        fresh=len(fresh)))
    for old, new in zip(stored, fresh, strict=True):
        if old.number != new.number:
            raise VerificationError(phrase("boards.err.set_missing", set=repr(name), board=new.number))
        _compare_board(phrase("boards.err.where_set", set=repr(name), board=old.number),
                       old, new, "stored")


def _compare_board(where: Phrase, old: Board, new: Board, label: str) -> None:
    """Refuse a ``label`` (stored, published) board that differs from its regenerated twin."""
    for what, a, b in (
        ("hands (DealId)", old.deal_id, new.deal_id),
        ("level", rank_name(old.level), rank_name(new.level)),
        ("leader", Term(old.leader.name, f"seat.{old.leader.name}"),
         Term(new.leader.name, f"seat.{new.leader.name}")),
    ):
        if str(a) != str(b):
            raise VerificationError(phrase(
                "boards.err.differs", where=where, what=Term(f"{label} {what}",
                                                             _DIFFERS[label, what]), a=a, b=b))


#: What :func:`_compare_board` names, and its key in the catalogue.
_DIFFERS = {(label, what): f"boards.word.{label}_{what.split()[0]}"
            for label in ("stored", "published") for what in ("hands (DealId)", "level", "leader")}


def verify_hand_records(
    seed: SeedFile,
    text: str,
    schedule: LevelSchedule | str = DEFAULT_SCHEDULE,
    delayed: str | None = None,
    commitment: str | None = None,
    source: str = "<gdn>",
    boards: int | None = None,
) -> int:
    """Check published ``.gdn`` hand records against their revealed seed, with no database.

    The records must be boards 1 to N, each once (in any order): N is ``boards`` when
    given (the size of the set as announced), else the highest board number found, so a
    board left out or repeated is an error, not a pass.

    Each record's board (by its ``Board`` tag) is regenerated with the seed, the delayed
    value and the level schedule, and must have the same hands, level and leader; its
    ``Generator`` and ``DealId`` tags, when present, must be the seed's generator and the
    hash of its hands. Returns the number of boards checked; raises
    :class:`VerificationError` (or ``duplicate.gdn.GdnError`` for a malformed file) naming
    the first difference and its line.
    """
    if commitment is not None and commitment.strip().lower() != seed.commitment:
        raise VerificationError(phrase("boards.err.seed_not_published", sha=seed.commitment,
                                        published=commitment.strip()))
    if isinstance(schedule, str):
        schedule = LevelSchedule.parse(schedule)
    key = seed.key(delayed)
    records = loads(text, file=source)
    if not records:
        raise VerificationError(phrase("boards.err.nothing", source=source))
    seen: dict[int, int | None] = {}  # board number -> its line
    for rec in records:
        where = phrase("boards.err.where", place=f"{source}:{rec.line}", board=rec.board)
        try:
            number = int(rec.board or "")
            published = board_from_hands(rec.hands, number, rec.level, seed.generator)
        except (ValueError, GeneratorError) as exc:
            raise VerificationError(phrase("boards.err.not_record", where=where, error=str(exc))) from None
        if number in seen:
            raise VerificationError(phrase("boards.err.twice", where=where, board=number,
                                            line=seen[number]))
        if boards is not None and number > boards:
            raise VerificationError(phrase("boards.err.out_of_set", where=where, board=number,
                                            count=boards))
        seen[number] = rec.line
        generator = rec.tags.get("Generator", seed.generator)
        if generator != seed.generator:
            raise VerificationError(phrase("boards.err.record_generator", where=where,
                                            used=generator, named=seed.generator))
        tag = rec.tags.get("DealId", published.deal_id)
        if tag != published.deal_id:
            raise VerificationError(phrase("boards.err.deal_id", where=where, tag=tag,
                                            hash=published.deal_id))
        published = dataclasses.replace(published, leader=rec.leader)
        fresh = generate_board(key, number, schedule, seed.generator)
        _compare_board(where, published, fresh, "published")
    last = boards if boards is not None else max(seen)
    missing = [n for n in range(1, last + 1) if n not in seen]
    if missing:
        said = "boards.err.missing_more" if len(missing) > 1 else "boards.err.missing"
        raise VerificationError(phrase(said, source=source, board=missing[0],
                                       more=len(missing) - 1, last=last))
    return len(records)


# --- hand records -------------------------------------------------------------------------


def board_record(board: Board, event: str | None = None) -> gdn.DealRecord:
    """One board as a ``.gdn`` hand record (a :class:`~duplicate.gdn.DealRecord` without plays)."""
    tags = {"Event": event} if event else {}
    tags |= {"Board": str(board.number), "Generator": board.generator, "DealId": board.deal_id}
    return gdn.DealRecord(
        tags=tags,
        hands=(board.hands[0], board.hands[1], board.hands[2], board.hands[3]),
        level=board.level,
        leader=board.leader,
    )


def hand_record(board: Board, event: str | None = None) -> str:
    """One board as ``.gdn`` hand-record text (FORMAT.md tags, in order; no ``[Play]``)."""
    return gdn.dumps(board_record(board, event))


def hand_records(boards: Iterable[Board], event: str | None = None) -> str:
    """Boards as ``.gdn`` hand records, separated by blank lines."""
    return gdn.dumps(board_record(b, event) for b in boards)
