"""Importing deal records into the database (what ``guandan import`` calls).

Every record is read and replayed before anything is stored (:mod:`duplicate.replay`): a
record that does not replay, a hand record and an unfinished deal are reported and never
stored. What is stored is the canonical ``.gdn`` text (plays completed with type and rank)
and what the replay computed, in the one store of played deals (:mod:`duplicate.store`): a
record is one room's play of one board, keyed by the DealId of its hands, its ``Event``,
``Round``, ``Table`` and ``Room`` tags ("" when absent) and the rules; the ``Table`` tag
tells apart the tables of a round that play the same boards (docs/FORMAT.md). Its
versions are the records attached to that room result, oldest first; every import and
correction is a row of the store's log (who, when, why, old and new).

* **Rules**: records are replayed under the rule set given (``rules``, ``guandan import
  --variant``; default the competition rules), which is stored with each record and is part
  of its key: the same record imported under other rules is another record, whether or not
  those rules change its replay (the simplest rule that is always right: a ``double_down_plus4``
  record scores 4 where the competition's scores 3, a ``jiefeng_next`` one has another
  leader after 接风, and deciding which variants matter to which deal is not worth the doubt).

* **Transactions**: one per file (``per="file"``: a file is stored whole or not at all) or
  one per deal (``per="deal"``: each good deal is stored, each bad one reported).
* **Idempotent**: a record equal to the stored current version is not stored again.
* **Corrections**: a different record for a stored key is refused, unless it is imported
  as a correction (with a reason and who makes it): it becomes the next version and the
  old one is kept. A record of a room whose result was reported without a record (a
  phone at the table) backs that result when it says the same, and is refused, both
  named, when it does not (unless it is a correction).
* **Boards**: a record is linked to the stored board with its DealId; its level and
  leader must be that board's. With ``board_set``, its ``Board`` tag names the board of
  that set, whose hands, level and leader it must have.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import json
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Literal

from sqlalchemy import Engine, and_, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from duplicate import gdn, models, store
from duplicate.db import check_schema, error_reason, session_scope
from duplicate.dealing import deal_id
from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, GdnError
from duplicate.i18n import Phrase, phrase, translator
from duplicate.i18n.stored import StateText
from duplicate.limits import TEXT_LIMITS, shown
from duplicate.replay import finish_text, quick_replay
from duplicate.shapes import HIDDEN, Shaped
from duplicate.store import Author, ResultKey, Slot, State, describe_rules, rules_json
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Side

__all__ = [
    "CanonicalForm",
    "Correction",
    "ImportOutcome",
    "RecordImportError",
    "StoredRecord",
    "canonical_form",
    "describe_rules",
    "import_files",
    "import_records",
    "load_rules",
    "rules_json",
    "stored_records",
]

#: Outcomes that leave the database holding the record.
OK_STATUSES = frozenset({"stored", "unchanged", "corrected"})


class RecordImportError(DuplicateError):
    """A record the database refuses: a conflict with a stored record or board, or bad input."""


def load_rules(text: str, where: str = "rules") -> Ruleset:
    """The ``Ruleset`` of a stored ``rules`` column; ``where`` names the row in errors.

    A variant the stored JSON lacks (added to the engine after the row was written) takes
    its default, the competition rule.
    """
    try:
        return _rules_of(text)
    except (ValueError, TypeError) as exc:
        shown = repr(text[:60]) + ("…" if len(text) > 60 else "")
        raise RecordImportError(
            f"{where}: stored rules {shown} are not a rule set: {exc}"
        ) from None


@functools.lru_cache(maxsize=256)
def _rules_of(text: str) -> Ruleset:
    """The rule set of a stored text, read once per process for the same text (a
    ``Ruleset`` never changes; every request of the hall reads its event's rules)."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, not {type(data).__name__}")
    return Ruleset.from_dict(data)


#: the longest ``by`` (``duplicate.limits``; ``models.ResultChange.made_by`` holds 200)
_BY_MAX = TEXT_LIMITS["by"]


@dataclass(frozen=True, slots=True)
class Correction:
    """Import as a correction (DUPLICATE.md: every correction is kept with who and why)."""

    reason: str
    by: str

    def __post_init__(self) -> None:
        if not self.reason.strip():
            raise RecordImportError(phrase("records.correction.reason"))
        if not self.by.strip():
            raise RecordImportError(phrase("records.correction.by"))
        if len(self.by) > _BY_MAX:  # models.ResultChange.made_by
            raise RecordImportError(phrase("records.correction.by_long", limit=_BY_MAX,
                                           length=f"{len(self.by):,}"))
        if len(self.reason.strip()) > TEXT_LIMITS["reason"]:
            raise RecordImportError(phrase(
                "records.correction.reason_long", limit=TEXT_LIMITS["reason"],
                length=f"{len(self.reason.strip()):,}",
            ))  # fmt: skip


@dataclass(frozen=True, slots=True)
class ImportOutcome(Shaped):
    """What importing one deal did.

    ``status``: ``stored`` (new), ``unchanged`` (the same record was already stored),
    ``corrected`` (stored as the next version), ``refused`` (a conflict), ``error`` (it
    does not read or replay), ``rolled back`` (good, but its file was not stored because
    another deal of it failed, ``per="file"``).
    """

    file: str | None
    line: int | None
    board: str | None
    room: str | None
    status: str
    record_id: int | None = None
    version: int | None = None
    error: str | None = None
    #: the error as the catalogue's phrase, when it is one (:meth:`message`)
    phrase: Phrase | None = field(default=None, metadata=HIDDEN)

    @property
    def ok(self) -> bool:
        """True when the database holds the record."""
        return self.status in OK_STATUSES

    def message(self, lang: str | None) -> str | None:
        """The error in ``lang`` (``error`` is its English)."""
        return self.phrase.text(lang) if self.phrase is not None else self.error


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """One stored version of a record, as read back."""

    id: int
    deal_id: str
    event: str
    round: str
    room: str
    version: int
    board_id: int | None
    finish: str
    result: str
    ns_score: int
    gdn: str
    content_hash: str
    source: str | None
    correction_reason: str | None
    corrected_by: str | None
    created_at: datetime
    rules: Ruleset = COMPETITION
    table: str = ""


@dataclass(slots=True)
class _Prepared:
    """A record that replayed: what the database needs of it."""

    record: DealRecord
    text: str
    content_hash: str
    deal_id: str
    key: ResultKey
    rules: Ruleset
    finish: str
    result: str
    ns_score: int
    plays: int


class _Rollback(Exception):
    """Raised inside a file's transaction to undo it when one of its deals failed."""


def _outcome(rec: DealRecord, status: str, **kw: object) -> ImportOutcome:
    """``rec``'s outcome; a ``phrase`` gives its English ``error`` too."""
    if isinstance(kw.get("phrase"), Phrase):
        kw.setdefault("error", str(kw["phrase"]))
    return ImportOutcome(rec.file, rec.line, rec.board, rec.room, status, **kw)  # type: ignore[arg-type]


def _prepare(rec: DealRecord, rules: Ruleset) -> _Prepared | ImportOutcome:
    """Replay ``rec``; the data to store, or the outcome saying why it cannot be."""
    res = quick_replay(rec, rules)
    if res.error is not None:
        return _outcome(rec, "error", error=str(res.error), phrase=res.error.phrase)
    if rec.plays is None:
        return _outcome(
            rec,
            "refused",
            phrase=phrase("records.not_played", where=_where(rec)),
        )
    if res.result is None:
        return _outcome(
            rec,
            "refused",
            phrase=phrase("records.unfinished", where=_where(rec), n=len(rec.plays)),
        )
    for tag, limit in _TAG_LIMITS.items():
        if len(rec.tags.get(tag, "")) > limit:
            return _outcome(
                rec,
                "refused",
                phrase=phrase("records.tag_long", where=_where(rec), tag=tag, limit=limit),
            )
    # The stored text states the computed Finish and Result, so that a record that left
    # them out and the same record with them are one record (canonical form, FORMAT.md).
    order = res.result.finish_order
    done = dataclasses.replace(
        res.record,
        finish=order[:2] if res.result.double_down else order,
        result=(res.result.winner, res.result.levels),
    )
    text = gdn.dumps(done)
    did = deal_id(rec.hands)
    key = ResultKey(
        did,
        rec.tags.get("Event", ""),
        rec.tags.get("Round", ""),
        rec.tags.get("Table", ""),
        rec.tags.get("Room", ""),
        rules,
    )
    return _Prepared(
        record=done,
        text=text,
        content_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        deal_id=did,
        key=key,
        rules=rules,
        finish=finish_text(res.result),
        result=res.result.result_tag,
        ns_score=res.result.score(Side.NS),
        plays=len(rec.plays),
    )


@dataclass(frozen=True, slots=True)
class CanonicalForm:
    """A stored record as :func:`import_records` would store it today."""

    text: str
    content_hash: str
    finish: str
    result: str


def canonical_form(text: str, rules: Ruleset) -> CanonicalForm | None:
    """The canonical form today of the stored record ``text`` replayed under ``rules``
    (what an import of it would store and compare by its hash); ``None`` when it does not
    read as one deal or does not replay (nothing to compare it with). Migration 0009 brings
    records stored in an older form to this one."""
    try:
        recs = gdn.loads(text)
    except GdnError:
        return None
    if len(recs) != 1 or recs[0].errors:
        return None
    prep = _prepare(recs[0], rules)
    if not isinstance(prep, _Prepared):
        return None
    return CanonicalForm(prep.text, prep.content_hash, prep.finish, prep.result)


#: Tags stored in columns of limited size (``models.RoomResult``).
_TAG_LIMITS = {
    "Event": 200,
    "Round": 50,
    "Table": 50,
    "Room": 100,
    "Board": 50,
    "North": 200,
    "East": 200,
    "South": 200,
    "West": 200,
}


def _where(rec: DealRecord) -> str:
    place = rec.file if rec.file is not None else "<record>"
    return f"{place}:{rec.line}: " if rec.line is not None else f"{place}: "


def _describe(prep: _Prepared) -> str:
    return str(_Described(prep))


class _Described:
    """A record's board and room in a few words (``board 3, room 'Open'``), in the
    reader's language when it is a value of a phrase."""

    __slots__ = ("parts",)

    def __init__(self, prep: _Prepared) -> None:
        rec, key = prep.record, prep.key
        parts = [("board", rec.board) if rec.board else ("deal", key.deal_id[:12])]
        parts += [
            (name, repr(value))
            for name, value in zip(
                ("event", "round", "table", "room"),
                (key.event, key.round, key.table, key.room),
                strict=True,
            )
            if value
        ]
        if prep.rules != COMPETITION:
            parts.append(("rules", describe_rules(prep.rules)))
        self.parts = tuple(parts)

    def text(self, lang: str | None = "en") -> str:
        t = translator(lang)
        return t("list.sep").join(t(f"records.part.{name}", value=v) for name, v in self.parts)

    def __str__(self) -> str:
        return self.text("en")


def _board_for(session: Session, prep: _Prepared, board_set: str | None) -> models.Board | None:
    """The stored board the record is a play of; raises when it contradicts one (see module)."""
    rec = prep.record
    if board_set is not None:
        set_row = session.scalar(select(models.BoardSet).where(models.BoardSet.name == board_set))
        if set_row is None:
            raise RecordImportError(phrase("records.set.missing", set=shown(board_set)))
        try:
            number = int((rec.board or "").strip())
        except ValueError:
            raise RecordImportError(phrase("records.set.no_number", tag=repr(rec.board),
                                           set=repr(board_set))) from None
        board = session.scalar(
            select(models.Board).where(
                models.Board.set_id == set_row.id, models.Board.number == number
            )
        )
        if board is None:
            raise RecordImportError(phrase("records.set.no_board", set=repr(board_set),
                                           board=number))
        if board.deal_id != prep.deal_id:
            raise RecordImportError(phrase(
                "records.set.hands", board=number, set=repr(board_set), mine=prep.deal_id[:12],
                stored=board.deal_id[:12],
            ))  # fmt: skip
    else:
        board = session.scalar(select(models.Board).where(models.Board.deal_id == prep.deal_id))
        if board is None:
            return None
    if (board.level, board.leader) != (rec.level, int(rec.leader)):
        raise RecordImportError(phrase("records.set.level", board=board.number,
                                       deal_id=board.deal_id[:12]))
    return board


def _store(
    session: Session,
    prep: _Prepared,
    board_set: str | None,
    correction: Correction | None,
    by: str | None = None,
) -> ImportOutcome:
    """Store one prepared record in ``session`` (flushed, not committed), in a savepoint
    read and written again when a concurrent import took the room meanwhile (its record
    is then found: ``unchanged``, or refused as a different one)."""
    rec = prep.record
    try:
        board = _board_for(session, prep, board_set)
    except RecordImportError as e:
        return _outcome(rec, "refused", phrase=phrase("records.at", where=_where(rec),
                                                      error=e.phrase or str(e)))
    return store.in_savepoint(session, lambda: _store_once(session, prep, board, correction, by))


def _store_once(
    session: Session,
    prep: _Prepared,
    board: models.Board | None,
    correction: Correction | None,
    by: str | None,
) -> ImportOutcome:
    """:func:`_store`'s read, decision and write, from what the store holds now."""
    rec = prep.record
    row = store.find_result(session, prep.key)
    if row is not None and row.match_id is not None:
        return _outcome(
            rec,
            "refused",
            phrase=phrase("records.event_room", where=_where(rec), what=_Described(prep)),
        )
    current = store.current_state(session, row.id) if row is not None else None
    versions = _versions(session, row.id) if row is not None else []
    if current is not None and current.record_hash == prep.content_hash:
        return _outcome(rec, "unchanged", record_id=current.record_id, version=len(versions))
    agrees = (
        current is not None
        and current.record_id is None
        and current.status == "played"
        and current.note is None
        and current.ns_result == prep.ns_score
    )
    if current is not None and correction is None and not agrees:
        refusal = (
            phrase("records.conflict.record", where=_where(rec), what=_Described(prep),
                   version=len(versions),
                   source=versions[-1].source or phrase("records.unknown_source"))
            if versions and current.record_id is not None
            else phrase("records.conflict.result", where=_where(rec), what=_Described(prep),
                        stored=StateText(current.describe()),
                        new=StateText(State("played", prep.ns_score).describe().split(" (")[0]))
        )
        return _outcome(rec, "refused", phrase=refusal)
    if current is None and correction is not None:
        return _outcome(
            rec,
            "refused",
            phrase=phrase("records.nothing_to_correct", where=_where(rec), what=_Described(prep)),
        )
    source = f"{rec.file}:{rec.line}" if rec.file is not None else None
    if row is None:
        slot = Slot(prep.key, rec.board or "", board.id if board is not None else None)
        row = store.result_row(session, slot)
    stored_rec = store.add_record(
        session,
        row.id,
        prep.text,
        prep.content_hash,
        finish=prep.finish,
        result=prep.result,
        ns_score=prep.ns_score,
        source=source,
    )
    author = (
        Author(correction.by, correction.reason, correction=True)
        if correction is not None
        else Author(by or store.default_by(), f"imported from {source or 'a record'}")
    )
    new = State("played", prep.ns_score, None, stored_rec.id, prep.content_hash)
    # an IntegrityError here: another import logged a change since ``current`` was read
    done = store.apply_change(session, row.id, "import", new, author, _Described(prep), current)
    if done is None:  # pragma: no cover - the same record was found unchanged above
        return _outcome(rec, "unchanged", record_id=stored_rec.id, version=len(versions))
    status = "stored" if correction is None else "corrected"
    ids = [v.id for v in versions]  # a correction back to an earlier text reuses its row
    version = ids.index(stored_rec.id) + 1 if stored_rec.id in ids else len(versions) + 1
    return _outcome(rec, status, record_id=stored_rec.id, version=version)


def _versions(session: Session, result_id: int) -> list[models.PlayRecord]:
    """The records of a room result, oldest first (version 1, 2, …)."""
    return list(
        session.scalars(
            select(models.PlayRecord)
            .where(models.PlayRecord.result_id == result_id)
            .order_by(models.PlayRecord.id)
        )
    )


def import_records(
    engine: Engine,
    records: Iterable[DealRecord],
    *,
    per: Literal["file", "deal"] = "file",
    board_set: str | None = None,
    correction: Correction | None = None,
    rules: Ruleset = COMPETITION,
    by: str | None = None,
) -> list[ImportOutcome]:
    """Import ``records`` read from one file; see the module for what is stored and when.

    ``per="file"`` stores all of them in one transaction, or none when any fails. Every
    record is replayed under ``rules``, which are stored with it and are part of its key.
    ``records`` may be an iterator (:func:`duplicate.gdn.iter_file`): they are taken one at
    a time, replayed and stored, so that only one deal is held in memory.
    """
    return list(
        _import_stream(
            engine, records, per=per, board_set=board_set, correction=correction, rules=rules,
            by=by,
        )
    )


#: Deals stored between two clearings of the session: the transaction keeps every row it
#: added until it ends, unless the session lets go of them (they are flushed already).
BATCH = 50
#: Outcomes of a file held in memory until its transaction ends; the rest wait in a
#: temporary file (:class:`_Spool`).
SPOOL_IN_MEMORY = 1000


class _Spool:
    """A file's outcomes (each with whether it came from the database), kept until its
    transaction ends and they can be told: the first :data:`SPOOL_IN_MEMORY` in memory,
    the others in a temporary file, so that a file of a million bad deals costs disk, not
    memory."""

    def __init__(self) -> None:
        self._items: list[tuple[ImportOutcome, bool]] = []
        self._file: IO[bytes] | None = None
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def append(self, outcome: ImportOutcome, stored: bool) -> None:
        self._count += 1
        if len(self._items) < SPOOL_IN_MEMORY:
            self._items.append((outcome, stored))
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile("w+b")
        pickle.dump((outcome, stored), self._file)  # our own data, read back below only

    def __iter__(self) -> Iterator[tuple[ImportOutcome, bool]]:
        yield from self._items
        if self._file is not None:
            self._file.seek(0)
            for _ in range(self._count - len(self._items)):
                yield pickle.load(self._file)  # noqa: S301 - written by append above

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def _import_stream(
    engine: Engine,
    records: Iterable[DealRecord],
    *,
    per: Literal["file", "deal"],
    board_set: str | None,
    correction: Correction | None,
    rules: Ruleset,
    by: str | None = None,
) -> Iterator[ImportOutcome]:
    """:func:`import_records`, one outcome at a time (per deal: as each deal is stored).

    A :class:`GdnError` raised by ``records`` (a file that breaks off: a line that is not
    UTF-8) is the last outcome; with ``per="file"`` nothing of the file is stored. ``by``
    is who imports, for the store's log (default: the login name); a correction names its
    own.
    """
    check_schema(engine)
    if per not in ("file", "deal"):
        raise RecordImportError(f"per must be 'file' or 'deal', not {per!r}")
    records = iter(records)  # read once: after a database failure the rest is still listed
    if per == "deal":
        try:
            for rec in records:
                item = _prepare(rec, rules) if rec.ok else _read_error(rec)
                if isinstance(item, ImportOutcome):
                    yield item
                    continue
                try:
                    with session_scope(engine) as session:
                        outcome = _store(session, item, board_set, correction, by)
                except IntegrityError:
                    outcome = _outcome(item.record, "refused", phrase=phrase("records.race"))
                except SQLAlchemyError as e:  # locked, disk full, server gone: not stored
                    outcome = _outcome(item.record, "error", phrase=_database_error(item, e))
                yield outcome
        except GdnError as e:
            yield _broken_off(e)
        return
    # A deal that fails before the database (it does not read or replay) stores nothing of
    # the file; the others still go through the database, rolled back, so that each says
    # what it would have been (``unchanged`` when already stored, or refused).
    outcomes = _Spool()  # with whether each came from the database
    pending: _Prepared | None = None  # the deal being stored
    try:
        with session_scope(engine) as session:
            failed = False
            try:
                for rec in records:
                    item = _prepare(rec, rules) if rec.ok else _read_error(rec)
                    if isinstance(item, ImportOutcome):
                        outcomes.append(item, False)
                        failed = True
                        continue
                    pending = item
                    outcome = _store(session, item, board_set, correction, by)
                    pending = None
                    outcomes.append(outcome, True)
                    failed = failed or not outcome.ok
                    if len(outcomes) % BATCH == 0:
                        session.expunge_all()  # flushed rows: keep no more than a batch
            except GdnError as e:
                outcomes.append(_broken_off(e), False)
                failed = True
            if failed:
                raise _Rollback
    except _Rollback:
        yield from (
            _not_stored(o) if o.status in ("stored", "corrected") else o for o, _ in outcomes
        )
        outcomes.close()
        return
    except SQLAlchemyError as e:
        # A unique key stored meanwhile by another import, or the database failed (locked,
        # disk full, server gone): nothing of the file is stored; every deal says so, the
        # deals not yet read included.
        if isinstance(e, IntegrityError):
            status, reason = "rolled back", phrase("records.race")
        else:
            status, reason = "error", phrase("records.db_failed", reason=error_reason(e))

        def undone(o: ImportOutcome) -> ImportOutcome:
            why = (reason if status == "rolled back"
                   else phrase("records.at", where=f"{o.file or '<record>'}: ", error=reason))
            return dataclasses.replace(
                o, status=status, record_id=None, version=None, error=str(why), phrase=why
            )

        yield from (undone(o) if db else o for o, db in outcomes)
        outcomes.close()
        if pending is not None:
            yield undone(_outcome(pending.record, status))
        try:
            for rec in records:
                item = _prepare(rec, rules) if rec.ok else _read_error(rec)
                yield item if isinstance(item, ImportOutcome) else undone(
                    _outcome(item.record, status)
                )
        except GdnError as ge:
            yield _broken_off(ge)
        return
    yield from (o for o, _ in outcomes)
    outcomes.close()


def _broken_off(exc: GdnError) -> ImportOutcome:
    """The outcome of a file that cannot be read on from some line (not UTF-8)."""
    return ImportOutcome(exc.file, exc.line, None, None, "error", error=str(exc),
                         phrase=exc.phrase)


def _database_error(item: _Prepared, exc: SQLAlchemyError) -> Phrase:
    """One line for a database failure while storing ``item``'s file."""
    where = item.record.file or "<record>"
    return phrase("records.at", where=f"{where}: ",
                  error=phrase("records.db_failed", reason=error_reason(exc)))


#: The message when a unique key was stored by a concurrent import between check and write.
def _read_error(rec: DealRecord) -> ImportOutcome:
    return _outcome(rec, "error", error=str(rec.errors[0]), phrase=rec.errors[0].phrase)


def _not_stored(outcome: ImportOutcome) -> ImportOutcome:
    return dataclasses.replace(
        outcome,
        status="rolled back",
        record_id=None,
        version=None,
        error=str(phrase("records.rolled_back")),
        phrase=phrase("records.rolled_back"),
    )


def import_files(
    engine: Engine,
    paths: Sequence[str | os.PathLike[str]],
    *,
    per: Literal["file", "deal"] = "file",
    board_set: str | None = None,
    correction: Correction | None = None,
    rules: Ruleset = COMPETITION,
    progress: Callable[[int], object] | None = None,
    by: str | None = None,
) -> Iterator[ImportOutcome]:
    """Import every deal of the ``.gdn`` files, file by file; one outcome per deal.

    Every deal is replayed under ``rules`` and stored with them (see the module). A file
    is read one deal at a time (:func:`duplicate.gdn.iter_file`): memory does not grow
    with its size.

    A file that cannot be read (missing, not UTF-8) gives an ``error`` outcome.
    ``progress(n)`` is called as each deal is read, with the bytes read since its last
    call (the calls add up to the files' sizes).
    """
    for path in paths:
        name = os.fspath(path)
        try:
            records = gdn.iter_file(name, strict=False, progress=progress)
            first = next(records, None)
        except GdnError as e:
            yield _broken_off(e)
            continue
        if first is None:  # nothing to store is a mistake (wrong file), not a success
            said = phrase("out.gdn.no_deals", file=name)
            yield ImportOutcome(name, None, None, None, "error", error=str(said), phrase=said)
            continue
        yield from _import_stream(
            engine,
            itertools.chain([first], records),
            per=per,
            board_set=board_set,
            correction=correction,
            rules=rules,
            by=by,
        )


def stored_records(engine: Engine, *, all_versions: bool = False) -> list[StoredRecord]:
    """The stored records, current versions only unless ``all_versions``, in import order.

    A room result's versions are its records, oldest first (one per text); the current
    version is the one its latest change with a record rests on (the newest, unless a
    correction went back to an earlier text). Each carries the rules it was replayed under (records of one board and room
    under two rule sets are two room results, each with its current version).
    """
    check_schema(engine)
    r, p, c = models.RoomResult, models.PlayRecord, models.ResultChange
    query = (
        select(p, r, c.reason, c.made_by)
        .join(r, r.id == p.result_id)
        .outerjoin(c, and_(c.record_id == p.id, c.action == "correction"))
        .order_by(p.id)
    )
    with session_scope(engine) as session:
        rows = session.execute(query).all()
    seen: dict[int, int] = {}
    done: set[int] = set()
    out: list[StoredRecord] = []
    for rec, room, reason, by in rows:
        if rec.id in done:  # a record several corrections rest on is listed once
            continue
        done.add(rec.id)
        version = seen[room.id] = seen.get(room.id, 0) + 1
        out.append(
            StoredRecord(
                rec.id,
                room.deal_id,
                room.event,
                room.round,
                room.room,
                version,
                room.board_id,
                rec.finish or "",
                rec.result or "",
                rec.ns_score if rec.ns_score is not None else 0,
                rec.gdn,
                rec.content_hash,
                rec.source,
                reason,
                by,
                store.utc(rec.created_at),
                load_rules(room.rules, f"room result {room.id}"),
                room.table_key,
            )
        )
    if not all_versions:  # the record of each room's latest change with one
        last: dict[int, int] = {}
        with session_scope(engine) as session:
            for rid, rec_id in session.execute(
                select(c.result_id, c.record_id)
                .where(c.record_id.is_not(None))
                .order_by(c.result_id, c.seq)
            ):
                if rec_id is not None:
                    last[rid] = rec_id
        current = set(last.values())
        out = [s for s in out if s.id in current]
    return out
