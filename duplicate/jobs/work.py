"""One analysis job as plain data, and the function that computes it.

A job carries all it needs (no database): the record's key, the record as ``.gdn`` text,
the rules and the budget, so that any worker on any host computes it, and the same job
gives the same analysis wherever it runs (the budget counts work, not time). A job whose
record no longer gives its key is refused: a worker of another version of the software
would store its result under the wrong key.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import Any

from duplicate.analysis.budget import Budget
from duplicate.errors import DuplicateError
from duplicate.gdn import DealRecord, dumps, loads
from duplicate.i18n import phrase
from duplicate.review.analysis import analyse_record, record_key
from duplicate.shapes import Shaped
from engine.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class AnalysisJob(Shaped):
    """A record to analyse: its ``key`` (``record_key``), ``record`` (``.gdn`` text),
    ``rules`` (``Ruleset.to_dict()``) and ``budget`` (``Budget.to_dict()``)."""

    key: str
    record: str
    rules: dict[str, Any]
    budget: dict[str, Any]


def make_job(record: DealRecord, rules: Ruleset, budget: Budget) -> AnalysisJob:
    """The job that analyses ``record`` under ``rules`` within ``budget``."""
    return AnalysisJob(record_key(record, rules, budget), dumps(record), rules.to_dict(),
                       budget.to_dict())


def worker_name() -> str:
    """Who computes: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"[:200]


def compute(job: AnalysisJob) -> dict[str, Any]:
    """The analysis of ``job``'s record (``analyse_record``'s stored form)."""
    record = loads(job.record)[0]
    rules = Ruleset.from_dict(job.rules)
    budget = Budget(**job.budget)
    if record_key(record, rules, budget) != job.key:
        raise DuplicateError(phrase("jobs.key_mismatch", digest=job.key[:12]))
    return analyse_record(record, rules, budget)


def compute_dict(args: dict[str, Any]) -> tuple[str, dict[str, Any], str]:
    """:func:`compute` of a job given as its arguments: (key, analysis, who computed it);
    what a local process returns to the one that stores it."""
    job = AnalysisJob(**args)
    return job.key, compute(job), worker_name()
