"""Importing played records into an event: each read strictly and replayed under the
event's rules (in worker processes with ``jobs``), checked against the round's boards
and the seating, then stored one transaction a file."""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import repeat
from pathlib import Path

from sqlalchemy import Engine, insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from duplicate import models, store
from duplicate.db import check_schema, session_scope
from duplicate.dealing import Board
from duplicate.events.base import (
    ROOMS,
    Current,
    EventError,
    ImportSummary,
    Progress,
    _board_ids,
    _current,
    _event_row,
    _matches,
    _round_board_set,
    _round_row,
    _rules,
    _slot,
)
from duplicate.events.eventtags import result_only
from duplicate.events.field import _load_field, _seating, event_rules
from duplicate.events.limit import check_limit
from duplicate.events.marks import MARK_BY, last_record, same_play
from duplicate.events.results import _author, _describe, _ns_text
from duplicate.events.roundtags import check_round_tags
from duplicate.gdn import DealRecord, ErrorWords, GdnError, format_record, loads, utf8_reason
from duplicate.i18n import Phrase, Term, gettext, messages, normalise_language, os_reason, phrase
from duplicate.i18n.stored import FinishText, StateText, said, unfinished_said
from duplicate.limits import LimitError, shown, tag_number
from duplicate.pairing import (
    MatchSeating,
)
from duplicate.records import Correction, describe_rules
from duplicate.replay import finish_text, quick_replay
from duplicate.scoring import (
    room_result,
)
from duplicate.store import Author, Slot, State, canonical_finish
from duplicate.store.calls import ENDS_EARLY
from duplicate.store.log import orders_differ
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat


@dataclass(frozen=True, slots=True)
class Prepared:
    """A record read and replayed (possibly in a worker process), ready to be matched.

    ``text`` is its canonical ``.gdn`` form (plays completed with type and rank);
    ``ns_result`` is the N–S result of a finished deal, ``None`` for an unfinished one;
    ``rules`` the rule set it was replayed under (it must be the event's).
    """

    where: str
    tags: dict[str, str]
    hands: tuple[int, int, int, int]
    level: int
    leader: int
    text: str
    digest: str
    ns_result: int | None
    rules: Ruleset = COMPETITION
    finish: str | None = None
    result_tag: str | None = None
    unfinished: str | None = None
    #: a finished record exported from a room marked unfinished since (its ``Unfinished``
    #: tag, with ``UnfinishedBy``: :mod:`~duplicate.events.marks`): the mark's reason
    mark: str | None = None


#: The tag that says why a record stops before the deal is over (docs/FORMAT.md).
UNFINISHED_TAG = "Unfinished"


def _unfinished_reason(tags: dict[str, str]) -> str | None:
    """The value of the record's ``Unfinished`` tag (any case), stripped; ``None`` if absent."""
    for name, value in tags.items():
        if name.lower() == UNFINISHED_TAG.lower():
            return value.strip()
    return None


def _where(rec: DealRecord) -> str:
    place = rec.file or "<record>"
    if rec.line is not None:
        place += f":{rec.line}"
    return f"{place}: board {rec.board or '?'}, room {rec.room or '?'}"


_WHERE = re.compile(r"^(?P<place>.*): board (?P<board>.+), room (?P<room>.+)$", re.S)


def where_words(where: str) -> Phrase | str:
    """A record's place as :func:`_where` writes it (``FILE:LINE: board 3, room Open``,
    English, the store's source) as a phrase of the reader's language."""
    m = _WHERE.match(where)
    if m is None:
        return where
    room = m.group("room")
    key = f"report.room.{room.strip().lower()}"
    return phrase("imports.where", place=m.group("place"), board=m.group("board"),
                  room=Term(room, key) if key in messages() else room)


_UNFINISHED_BOARD = re.compile(r"^(?P<where>round \d+, table \d+, board \d+, \w+ room) "
                               r"\((?P<reason>.*)\)$", re.S)


def unfinished_board_words(text: str, lang: str) -> str:
    """A board an import found unfinished as its summary holds it (``round 1, table 2,
    board 3, open room (time)``: English, the API's data) in ``lang``:
    ``第1轮第2桌开室第3副（超时）``; the reason a record gave as it gave it."""
    code = normalise_language(lang)
    m = _UNFINISHED_BOARD.match(text)
    if m is None or code == "en":
        return text
    return gettext(code, "imports.unfinished_board", where=said(m["where"], code),
                   reason=unfinished_said(m["reason"], code))


def _room_word(room: str) -> Term:
    """``open``/``closed`` as the library writes them in English, 开室/闭室 in Chinese."""
    return Term(room, f"report.room.{room}")


def prepare_text(
    text: str, file: str | None = None, rules: Ruleset = COMPETITION
) -> list[Prepared]:
    """Read ``.gdn`` text strictly and replay every deal under ``rules``; the first error
    raises.

    The error names the file, line, board and room (and the rules, when they are not the
    competition's). Nothing is stored here: this is the part of an import that may run in a
    worker process (``--jobs``).
    """
    out: list[Prepared] = []
    for rec in loads(text, file=file, strict=True):
        if rec.plays is not None and result_only(rec.tags, bool(rec.plays)):
            continue  # a room's result in a whole export: what event restore reads
        res = quick_replay(rec, rules)
        if res.error is not None:
            where = where_words(_where(rec))
            raise EventError(
                phrase("imports.no_replay", where=where, error=ErrorWords(res.error))
                if rules == COMPETITION else
                phrase("imports.no_replay_under", where=where, error=ErrorWords(res.error),
                       rules=describe_rules(rules))
            )
        if rec.plays is None:
            raise EventError(phrase("imports.no_plays", where=where_words(_where(rec))))
        reason = _unfinished_reason(rec.tags)
        if res.result is None and not reason:
            raise EventError(phrase("imports.stops_early", where=where_words(_where(rec)),
                                    n=len(rec.plays), tag=UNFINISHED_TAG))
        marked = res.result is not None and reason is not None and MARK_BY in rec.tags
        if res.result is not None and reason is not None and not marked:
            raise EventError(phrase("imports.over_but_tagged", where=where_words(_where(rec)),
                                    tag=UNFINISHED_TAG, reason=repr(reason)))
        done = res.record
        canonical = format_record(done) + "\n"
        ns = room_result(res.result.winner, res.result.levels, rules) if res.result else None
        h = done.hands
        out.append(
            Prepared(
                _where(rec),
                dict(done.tags),
                (h[0], h[1], h[2], h[3]),
                done.level,
                int(done.leader),
                canonical,
                hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
                ns,
                rules,
                finish_text(res.result) if res.result else None,
                res.result.result_tag if res.result else None,
                reason if res.result is None else None,
                reason if marked else None,
            )
        )
    return out


def _prepare_file(path: str, rules: Ruleset = COMPETITION) -> list[Prepared]:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise EventError(phrase("imports.unreadable", path=repr(path),
                                reason=os_reason(exc))) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EventError(phrase("imports.not_utf8", path=path, reason=utf8_reason(exc),
                                byte=exc.start)) from None
    try:
        prepared = prepare_text(text, path, rules)
    except GdnError as exc:
        raise EventError(exc.phrase or str(exc)) from None
    if not prepared:  # an empty file is a mistake (wrong file, failed export), not a success
        raise EventError(phrase("imports.no_deal", path=path))
    return prepared


#: How ``event import`` stores a record that disagrees with the stored result.
CORRECTION_HINT = "--correction --reason TEXT --by NAME"

#: The store's tables, written with Core statements in bulk (no ORM objects).
_RESULTS = models.Base.metadata.tables["room_results"]
_RECORDS = models.Base.metadata.tables["play_records"]
_CHANGES = models.Base.metadata.tables["result_changes"]


class _Importer:
    """Matches prepared records to the event's matches and stores them (one transaction)."""

    def __init__(
        self,
        session: Session,
        ev: models.Event,
        correction: Correction | None,
        by: str | None = None,
        *,
        chief: bool | None = False,
    ):
        self.session = session
        self.ev = ev
        self.correction = correction
        self.chief = chief  # the directors' limit: as the chief director; None: checked by the caller
        self.by = by or store.default_by()
        self.field = _load_field(session, ev)
        self.rules = _rules(ev)
        self.boards: dict[int, dict[int, Board]] = {}  # round number: its boards by number
        # (round, room, seat N player) -> (match, seating)
        self.by_player: dict[tuple[int, str, str], tuple[models.EventMatch, MatchSeating]] = {}
        self.rounds: dict[int, tuple[models.EventRound, dict[int, int]]] = {}
        self.results: Current = {}
        self.summary = ImportSummary()
        self.new_rows: list[tuple[Slot, Prepared]] = []
        self.pending: dict[tuple[int, int, str], str] = {}
        #: what to do about a disagreeing record at the command line (``event import``'s
        #: options; ``event play-bots`` has none of them: it says its own)
        self.hint: str | Phrase | None = CORRECTION_HINT

    def _round(self, number: int, where: str) -> dict[int, Board]:
        """Round ``number``'s boards; its seating and stored results are loaded the first time."""
        if number not in self.boards:
            try:
                rnd = _round_row(self.session, self.ev, number)
                boards = _round_board_set(self.session, self.ev, rnd)
            except EventError as exc:
                raise EventError(phrase("imports.at", where=where_words(where),
                                        error=exc.phrase or str(exc))) from None
            matches = _matches(self.session, rnd)
            for m in matches:
                seating = _seating(self.field, m)
                self.by_player[(number, "open", seating.open_room[Seat.N])] = (m, seating)
                self.by_player[(number, "closed", seating.closed_room[Seat.N])] = (m, seating)
            self.results.update(_current(self.session, [m.id for m in matches]))
            self.rounds[number] = (rnd, _board_ids(self.session, rnd))
            self.boards[number] = boards
        return self.boards[number]

    def add(self, rec: Prepared, round_no: int | None) -> None:
        """Check one record against the event and queue or apply its storage."""
        self.summary.records += 1
        where = rec.where
        if rec.rules != self.rules:  # a caller of import_prepared that replayed it otherwise
            raise EventError(phrase(
                "imports.rules_differ", where=where_words(where), rules=describe_rules(rec.rules),
                event=repr(self.ev.name), event_rules=describe_rules(self.rules),
            ))  # fmt: skip
        tag_round = rec.tags.get("Round")
        try:  # a number the store holds, in ASCII digits ('-1', '10^30', '²' are refused)
            tagged = tag_number(tag_round, "Round")
            board_no = tag_number(rec.tags.get("Board"), "Board")
        except LimitError as exc:
            raise EventError(phrase("imports.at", where=where_words(where),
                                    error=exc.phrase or str(exc))) from None
        if round_no is None:
            if tagged is None:
                raise EventError(phrase("imports.no_round_tag", where=where_words(where)),
                                 cli_hint=phrase("imports.hint.round"))
            round_no = tagged
        elif tagged is not None and tagged != round_no:
            raise EventError(phrase("imports.round_tag", where=where_words(where),
                                    tag=shown(str(tag_round)), round=round_no))
        boards = self._round(round_no, where)
        if board_no is None or board_no not in boards:
            first, last = min(boards), max(boards)
            raise EventError(phrase(
                "imports.board_range", where=where_words(where), round=round_no, first=first,
                last=last, board=board_no or "?",
            ))  # fmt: skip
        number = board_no
        board = boards[number]
        room = (rec.tags.get("Room") or "").strip().lower()
        if room not in ROOMS:
            raise EventError(phrase("imports.room_tag", where=where_words(where)))
        names = [  # compared in Unicode normal form C, as stored
            unicodedata.normalize("NFC", rec.tags.get(t, "")).strip()
            for t in ("North", "East", "South", "West")
        ]
        found = self.by_player.get((round_no, room, names[0]))
        if found is None:
            raise EventError(phrase(
                "imports.no_match", where=where_words(where), round=round_no,
                north=repr(names[0]) if names[0] else phrase("imports.no_north"),
                room=_room_word(room),
            ))  # fmt: skip
        match, seating = found
        seats = seating.open_room if room == "open" else seating.closed_room
        for seat, got in zip(Seat, names, strict=True):
            if seats[seat] != got:
                raise EventError(phrase(
                    "imports.seat", where=where_words(where), seat=Term(seat.name, f"seat.{seat.name}"),
                    seated=repr(seats[seat]), table=match.table_no, got=repr(got),
                ))  # fmt: skip
        for what, mine, stored in (
            ("hands", rec.hands, board.hands),
            ("level", rec.level, board.level),
            ("first leader", rec.leader, int(board.leader)),
        ):
            if mine != stored:
                raise EventError(phrase(
                    f"imports.not_board.{what.replace(' ', '_')}", where=where_words(where),
                    board=number, deal_id=board.deal_id,
                ))  # fmt: skip
        rnd, ids = self.rounds[round_no]
        check_round_tags(self.session, self.ev, self.field.by_name, rnd, rec.tags,
                         where_words(where), self.by)
        self._store(_slot(self.ev, rnd, match, board, room, ids.get(number)), rec, where)

    def _stored_text(self, result_id: int, record_id: int | None) -> str | None:
        """The text of a stored record (``record_id``), else the room's last record."""
        if record_id is not None:
            return self.session.get(models.PlayRecord, record_id).gdn  # type: ignore[union-attr]
        return last_record(self.session, result_id)

    def _exported(self, slot: Slot, rec: Prepared, where: str) -> bool:
        """Whether ``rec`` is the room's own record as ``event export`` wrote it (its
        tags aside: :mod:`~duplicate.events.marks`): already stored. A record carrying an
        unfinished mark must be of a room that has it."""
        found = self.results.get((slot.match_id or 0, int(slot.board), slot.key.room))
        if found is None:
            if rec.mark is not None:
                raise EventError(phrase(
                    "events.err.mark_no_room", where=where_words(where), reason=repr(rec.mark),
                    by=repr(rec.tags.get(MARK_BY)),
                ))  # fmt: skip
            return False
        old = found.state
        if rec.mark is None and old.record_id is None and rec.ns_result is not None:
            return False  # a record backing a result reported without one
        if rec.mark is not None or (old.record_id is None and rec.ns_result is None):
            wanted = ("unfinished", rec.mark or rec.unfinished)
            if (old.status, old.note) != wanted or old.record_id is not None:
                if rec.mark is None:
                    return False
                raise EventError(phrase(
                    "events.err.mark_differs", where=where_words(where), reason=repr(rec.mark),
                    stored=StateText(_describe(old)),
                ))  # fmt: skip
        elif old.record_hash == rec.digest:
            return False  # the same record: decided as ever below
        text = self._stored_text(found.result_id, old.record_id)
        if text is None:  # a board marked before any record: exported with no plays
            return rec.mark is None and not loads(rec.text)[0].plays
        return same_play(text, rec.text)

    def _store(self, slot: Slot, rec: Prepared, where: str) -> None:
        key = (slot.match_id or 0, int(slot.board), slot.key.room)
        if self._exported(slot, rec, where):
            self.pending.setdefault(key, rec.digest)
            self.summary.unchanged += 1
            return
        status = "played" if rec.ns_result is not None else "unfinished"
        reason = None if status == "played" else rec.unfinished or ENDS_EARLY
        if key in self.pending:
            if self.pending[key] != rec.digest:
                raise EventError(phrase("imports.twice", where=where_words(where)))
            self.summary.unchanged += 1
            return
        self.pending[key] = rec.digest
        if status == "unfinished":
            self.summary.unfinished += 1
            self.summary.unfinished_boards.append(
                f"round {slot.key.round}, table {slot.key.table}, board {slot.board}, "
                f"{slot.key.room} room ({reason})"
            )
        found = self.results.get(key)
        if found is None:
            self.new_rows.append((slot, rec))
            self.summary.added += 1
            return
        old = found.state
        as_recorded = (old.status, old.ns_result, old.note) == (status, rec.ns_result, reason)
        # The same record again changes nothing, even over a director's ruling; only a
        # correction of it restores what the record says (and is logged).
        if old.record_hash == rec.digest and (as_recorded or self.correction is None):
            self.summary.unchanged += 1
            return
        order = canonical_finish(rec.finish) if status == "played" else None
        new = State(status, rec.ns_result, reason, None, rec.digest, order)
        # a record that says what was reported without one backs it: no correction needed;
        # it says the same only with the same finishing order (who went out first)
        reordered = old.record_id is None and as_recorded and orders_differ(old.finish, order)
        backs = old.record_id is None and as_recorded and not reordered
        if self.correction is None and reordered:
            assert old.finish is not None and order is not None
            raise EventError(
                phrase("imports.order_conflict", where=where_words(where), table=slot.key.table,
                       stored=StateText(_ns_text(old.ns_result or 0)),
                       stored_order=FinishText(old.finish, side=False),
                       new_order=FinishText(order, side=False)),
                cli_hint=self.hint,
            )
        if self.correction is None and not backs:
            raise EventError(
                phrase("imports.conflict", where=where_words(where), table=slot.key.table,
                       stored=StateText(_describe(old)), new=StateText(_describe(new))),
                cli_hint=self.hint,
            )
        if old.record_hash == rec.digest and old.record_id is not None:
            rec_id = old.record_id  # a correction back to the stored record
        else:
            rec_id = self._record(found.result_id, rec).id
        new = State(status, rec.ns_result, reason, rec_id, rec.digest, order)
        author = _author(self.correction, f"imported from {rec.where}", self.by)
        if self.correction is not None and not backs and self.chief is not None:
            room = (f"round {slot.key.round}, table {slot.key.table}, board {slot.board}, "
                    f"{slot.key.room} room")
            check_limit(self.session, self.ev, self.rounds[int(slot.key.round)][0], author.by,
                        author.reason, room, chief=self.chief)
        store.apply_change(self.session, found.result_id, "import", new, author, where_words(where), old)
        if self.correction is not None and not backs:
            self.summary.corrected += 1
        else:
            self.summary.added += 1

    def _record(self, result_id: int, rec: Prepared) -> models.PlayRecord:
        return store.add_record(
            self.session,
            result_id,
            rec.text,
            rec.digest,
            finish=rec.finish,
            result=rec.result_tag,
            ns_score=rec.ns_result,
            source=rec.where,
        )

    def flush(self) -> None:
        """Bulk-insert the rooms stored for the first time: their room results, records
        and the first change of each (three statements, whatever the number of rooms)."""
        if not self.new_rows:
            return
        at = datetime.now(UTC)
        ids = self.session.scalars(
            insert(_RESULTS).returning(_RESULTS.c.id, sort_by_parameter_order=True),
            [store.result_values(slot) for slot, _ in self.new_rows],
        ).all()
        rec_ids = self.session.scalars(
            insert(_RECORDS).returning(_RECORDS.c.id, sort_by_parameter_order=True),
            [
                {
                    "result_id": rid,
                    "gdn": rec.text,
                    "content_hash": rec.digest,
                    "finish": rec.finish,
                    "result": rec.result_tag,
                    "ns_score": rec.ns_result,
                    "source": rec.where,
                }
                for rid, (_, rec) in zip(ids, self.new_rows, strict=True)
            ],
        ).all()
        rows = []
        for rid, rec_id, (_, rec) in zip(ids, rec_ids, self.new_rows, strict=True):
            played = rec.ns_result is not None
            new = State(
                "played" if played else "unfinished",
                rec.ns_result,
                None if played else rec.unfinished or ENDS_EARLY,
                rec_id,
                None,
                rec.finish if played else None,  # the order the result is counted from
            )
            author = Author(self.by, f"imported from {rec.where}")
            rows.append(store.change_values(rid, "import", author, new, None, at))
        self.session.execute(insert(_CHANGES), rows)
        self.new_rows = []


def import_prepared(
    engine: Engine,
    event: str,
    batches: Iterable[Sequence[Prepared]],
    *,
    round_no: int | None = None,
    correction: Correction | None = None,
    by: str | None = None,
    chief: bool = False,
    hint: str | Phrase | None = CORRECTION_HINT,
) -> ImportSummary:
    """Store prepared records, one transaction per batch (a file); see :func:`import_files`.

    ``by`` is who imports (the store's log; default the login name), unless ``correction``
    says who corrects. A correction of a published round's result after the directors'
    limit needs ``chief`` (:mod:`duplicate.events.limit`). ``hint``: what a refusal of a
    disagreeing record tells the command line's user to do (default: ``event import``'s
    correction options)."""
    check_schema(engine)
    total = ImportSummary()
    for batch in batches:
        try:
            s = _import_batch(engine, event, batch, round_no, correction, by, chief, hint)
        except IntegrityError:
            # a concurrent import kept changing these rooms through every new attempt
            where = batch[0].where.split(": board")[0] if batch else "<empty>"
            raise EventError(phrase("imports.race", where=where)) from None
        total.files += 1
        total.records += s.records
        total.added += s.added
        total.unchanged += s.unchanged
        total.corrected += s.corrected
        total.unfinished += s.unfinished
        total.unfinished_boards.extend(s.unfinished_boards)
    return total


@store.retrying
def _import_batch(
    engine: Engine,
    event: str,
    batch: Sequence[Prepared],
    round_no: int | None,
    correction: Correction | None,
    by: str | None,
    chief: bool = False,
    hint: str | Phrase | None = None,
) -> ImportSummary:
    """One file in one transaction; run again from a fresh read when a concurrent import
    stored a room of it meanwhile (its rooms are then found: unchanged, or refused)."""
    with session_scope(engine) as session:
        imp = _Importer(session, _event_row(session, event), correction, by, chief=chief)
        imp.hint = hint
        for rec in batch:
            imp.add(rec, round_no)
        imp.flush()
    return imp.summary


def import_files(
    engine: Engine,
    event: str,
    paths: Sequence[str | os.PathLike[str]],
    *,
    round_no: int | None = None,
    correction: Correction | None = None,
    jobs: int = 1,
    progress: Progress | None = None,
    by: str | None = None,
    chief: bool = False,
) -> ImportSummary:
    """Import ``.gdn`` files of played deals into the event's matches.

    Each file is read strictly, every deal replayed under the event's rules (in ``jobs``
    worker processes when more than one), then stored in one transaction: a record that does not replay, is not the
    round's board, or whose players are not the seating's, refuses the whole file. The same
    record again is a no-op; a different one for a filled board and room needs
    ``correction``.
    """
    names = [os.fspath(p) for p in paths]
    rules = event_rules(engine, event)

    def batches() -> Iterable[list[Prepared]]:
        if jobs > 1 and len(names) > 1:
            pool = ProcessPoolExecutor(max_workers=jobs)
            try:
                for prepared in pool.map(_prepare_file, names, repeat(rules)):
                    yield prepared
                    if progress is not None:
                        progress(1)
            finally:  # a refused file stops the import: drop the files not yet replayed
                pool.shutdown(cancel_futures=True)
        else:
            for name in names:
                yield _prepare_file(name, rules)
                if progress is not None:
                    progress(1)

    return import_prepared(
        engine, event, batches(), round_no=round_no, correction=correction, by=by, chief=chief
    )


def import_texts(
    engine: Engine,
    event: str,
    texts: Sequence[str],
    *,
    round_no: int | None = None,
    correction: Correction | None = None,
    by: str | None = None,
    names: Sequence[str] | None = None,
    chief: bool = False,
) -> ImportSummary:
    """Import ``.gdn`` texts (one transaction each), as :func:`import_files` does files;
    ``names`` say where each text comes from in errors (default ``<text 1>``, ...)."""
    rules = event_rules(engine, event)
    if names is not None and len(names) != len(texts):
        raise EventError(phrase("events.err.texts_names", texts=len(texts), names=len(names)))
    labels = list(names) if names is not None else [f"<text {i + 1}>" for i in range(len(texts))]
    try:
        prepared = [prepare_text(t, label, rules) for t, label in zip(texts, labels, strict=True)]
    except GdnError as exc:
        raise EventError(exc.phrase or str(exc)) from None
    return import_prepared(engine, event, prepared, round_no=round_no, correction=correction,
                           by=by, chief=chief)
