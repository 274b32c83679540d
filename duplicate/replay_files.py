"""Checking whole ``.gdn`` files (the library behind ``guandan replay``): each file read once.

The deals in the plain form go by the fast path (:mod:`duplicate.replay_fast`); from the
first deal that does not, the rest of the file is read by the reference reader in pieces of
whole deals, shared by worker processes when it is long. Reports come in file order.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from duplicate.gdn import GdnError, iter_pieces
from duplicate.i18n import os_phrase, phrase
from duplicate.replay import DealReport, _file_error, check_text
from duplicate.replay_fast import Resume, fast_reports
from engine.ruleset import COMPETITION, Ruleset

__all__ = ["PARALLEL_MIN_BYTES", "FileCheck", "check_files"]

#: Below this many bytes left to the reference reader, ``check_files`` works in one
#: process: starting worker processes costs more than it saves (bench/bench_records.py).
PARALLEL_MIN_BYTES = 512 * 1024
#: Deals per piece of work sent to a worker process.
_BATCH = 100


def _check_piece(piece: tuple[str, int, str, Ruleset]) -> list[DealReport]:
    """Worker-process entry: the reports of one piece of a file."""
    file, first_line, text, rules = piece
    return check_text(text, file=file, first_line=first_line, rules=rules)


@dataclass(slots=True)
class FileCheck:
    """Some ``.gdn`` files, ready to replay (:func:`check_files`).

    ``total`` is the bytes of the files (for a progress bar); :meth:`reports` does the work.
    """

    # each item is a file to read (its name), or the report of a file that cannot be read
    work: list[str | DealReport]
    total: int
    strict: bool
    jobs: int | None
    rules: Ruleset = COMPETITION

    def reports(self, progress: Callable[[int], object] | None = None) -> Iterator[DealReport]:
        """Replay every deal in order, one report per deal; ``progress(n)`` after n more
        bytes of the files are done.

        Each file is read once, a block at a time: the deals in the plain form on the fast
        path (:mod:`duplicate.replay_fast`), the rest of a file from the first deal that is
        not by the reference reader, in pieces shared by worker processes when it is long.
        With ``strict``, stops after the first deal that fails. Memory does not grow with
        the files.
        """
        for batch in self._results(progress or (lambda n: None)):
            for rep in batch:
                yield rep
                if self.strict and not rep.ok:
                    return

    def _results(self, progress: Callable[[int], object]) -> Iterator[list[DealReport]]:
        pools: list[ProcessPoolExecutor] = []  # at most one, made when first needed
        try:
            for item in self.work:
                if isinstance(item, DealReport):
                    yield [item]
                    continue
                yield from self._file(item, progress, pools)
        finally:
            for pool in pools:
                pool.shutdown(wait=True, cancel_futures=True)

    def _file(
        self,
        name: str,
        progress: Callable[[int], object],
        pools: list[ProcessPoolExecutor],
    ) -> Iterator[list[DealReport]]:
        """One file's reports in order; a worker pool made for it is added to ``pools``."""
        done = 0
        deals = 0
        resume: Resume | None = None
        try:
            size = os.path.getsize(name)
            with open(name, "rb") as fp:
                for item in fast_reports(fp, name, self.rules):
                    if isinstance(item, Resume):
                        resume = item
                    elif isinstance(item, int):
                        progress(item - done)
                        done = item
                    else:
                        deals += len(item)
                        yield item
        except OSError as e:  # changed since it was listed
            yield [_file_error(name, GdnError(os_phrase(e), file=name))]
            return
        if resume is not None:
            jobs = self.jobs
            if jobs is None:
                jobs = (os.cpu_count() or 1) if size - resume.offset >= PARALLEL_MIN_BYTES else 1
            if jobs > 1 and not pools:
                pools.append(ProcessPoolExecutor(max_workers=jobs))
            for batch in self._reference(name, resume, pools[0] if jobs > 1 else None, jobs):
                deals += len(batch)
                yield batch
        if not deals:  # an empty file is a mistake (wrong file, failed export), not a pass
            yield [_file_error(name, GdnError(phrase("out.gdn.no_deals_here"), file=name))]
        progress(size - done)

    def _reference(
        self, name: str, resume: Resume, pool: ProcessPoolExecutor | None, jobs: int
    ) -> Iterator[list[DealReport]]:
        """The reports of a file from ``resume`` on, by the reference reader."""
        out: deque[Future[list[DealReport]]] = deque()
        try:
            for first, text in iter_pieces(name, _BATCH, line=resume.line, offset=resume.offset):
                piece = (name, first, text, self.rules)
                if pool is None:
                    yield _check_piece(piece)
                    continue
                out.append(pool.submit(_check_piece, piece))
                while len(out) > 2 * jobs:
                    yield out.popleft().result()
            while out:
                yield out.popleft().result()
        except (GdnError, OSError) as e:
            while out:
                yield out.popleft().result()
            yield [_file_error(name, e if isinstance(e, GdnError) else GdnError(
                os_phrase(e), file=name))]


def check_files(
    paths: Sequence[str | os.PathLike[str]],
    *,
    strict: bool = False,
    jobs: int | None = None,
    rules: Ruleset = COMPETITION,
) -> FileCheck:
    """Prepare to replay every deal of the ``.gdn`` files (``guandan replay``).

    :meth:`FileCheck.reports` reads each file once (:mod:`duplicate.replay_fast`); the
    part of a file that the reference reader takes is replayed in pieces of whole deals
    (:func:`duplicate.gdn.iter_pieces`), shared by ``jobs`` processes (``None``: all cores
    when at least :data:`PARALLEL_MIN_BYTES` remain, else 1). The reports are the same, in
    the same order, whatever ``jobs`` is. ``strict`` stops after the first deal that fails.
    Files are read a block at a time, never whole.
    """
    work: list[str | DealReport] = []
    total = 0
    for path in paths:
        name = os.fspath(path)
        try:
            with open(name, "rb"):
                total += os.path.getsize(name)
        except OSError as e:
            work.append(_file_error(name, GdnError(os_phrase(e), file=name)))
            continue
        work.append(name)
    return FileCheck(work, total, strict, jobs, rules)
