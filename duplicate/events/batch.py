"""``event import`` file by file: each file replayed and stored in its own transaction, a
failing file reported and the next one imported all the same (as ``guandan import`` does),
with one outcome a file."""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from duplicate.errors import DuplicateError
from duplicate.events.base import EventError, ImportSummary, Progress
from duplicate.events.field import event_rules
from duplicate.events.imports import Prepared, _prepare_file, import_prepared
from duplicate.i18n import Phrase, phrase
from duplicate.records import Correction


@dataclass(frozen=True, slots=True)
class FileOutcome:
    """One file of an import: what was stored (``summary``), or why nothing was (``error``:
    the file, line, board and room, and the reason; in English, and as the catalogue's
    ``phrase`` when it is one, for :meth:`message`)."""

    file: str
    summary: ImportSummary | None
    error: str | None = None
    phrase: Phrase | None = None

    def message(self, lang: str | None) -> str | None:
        """Why nothing was stored, in ``lang``."""
        return self.phrase.text(lang) if self.phrase is not None else self.error

    @property
    def ok(self) -> bool:
        """Whether the file was stored (or was already)."""
        return self.error is None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the file, ``stored`` or ``failed``, the counts, the error."""
        counts = (self.summary or ImportSummary()).to_dict()
        del counts["files"]
        return {"file": self.file, "status": "stored" if self.ok else "failed", **counts,
                "error": self.error}  # fmt: skip


def total(outcomes: Sequence[FileOutcome]) -> dict[str, Any]:
    """The sums over every file: files, failed, records, added, unchanged, corrected, …"""
    out = ImportSummary()
    for o in outcomes:
        if o.summary is not None:
            s = o.summary
            out.records += s.records
            out.added += s.added
            out.unchanged += s.unchanged
            out.corrected += s.corrected
            out.unfinished += s.unfinished
            out.unfinished_boards.extend(s.unfinished_boards)
    out.files = len(outcomes)
    return {**out.to_dict(), "failed": sum(not o.ok for o in outcomes)}


def import_each(
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
) -> list[FileOutcome]:
    """Import ``.gdn`` files into the event's matches, one transaction a file, going on
    after a file that fails; returns one outcome a file, in the order given.

    Each file is checked as :func:`~duplicate.events.imports.import_files` checks it (read
    strictly, replayed under the event's rules in ``jobs`` worker processes, matched to
    the round's boards and seating) and stored whole or not at all. An unknown event is
    an error of the whole import (raised), not of each file. ``by`` is who imports, for
    the store's log.
    """
    names = [os.fspath(p) for p in paths]
    if not names:
        raise EventError(phrase("events.err.no_file"))
    rules = event_rules(engine, event)  # the event must exist
    outcomes: list[FileOutcome] = []

    def store(name: str, prepare: Future[list[Prepared]] | None) -> None:
        try:
            batch = prepare.result() if prepare is not None else _prepare_file(name, rules)
            summary = import_prepared(
                engine, event, [batch], round_no=round_no, correction=correction, by=by,
                chief=chief,
            )
        except DuplicateError as exc:
            outcomes.append(FileOutcome(name, None, str(exc), exc.phrase))
        else:
            outcomes.append(FileOutcome(name, summary))
        if progress is not None:
            progress(1)

    if jobs > 1 and len(names) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_prepare_file, name, rules) for name in names]
            for name, fut in zip(names, futures, strict=True):
                store(name, fut)
    else:
        for name in names:
            store(name, None)
    return outcomes
