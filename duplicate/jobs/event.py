"""The analysis jobs of an event: every room of every board that has both rooms' records.

The records are those the report shows (replayed and compared as the report replays them,
``duplicate.review.site.with_comparison``), so that the report finds each board's analysis
under the key it asks for. Boards not released to the players yet are analysed too: their
analysis is ready when they are.
"""

from __future__ import annotations

from sqlalchemy import Engine

from duplicate.analysis.budget import Budget
from duplicate.events.site import event_data
from duplicate.jobs.work import AnalysisJob, make_job
from duplicate.review.analysis import board_records
from duplicate.review.site import with_comparison


def event_jobs(engine: Engine, event: str, budget: Budget) -> list[AnalysisJob]:
    """One job a record of ``event`` (one a key, in the event's order: round, table,
    board, room), within ``budget``."""
    data, rules = event_data(engine, event)
    jobs: dict[str, AnalysisJob] = {}
    for m in data.matches:
        for line in m.boards:
            if len(line.records) != 2 or not all(line.records):
                continue
            comp = with_comparison(line, rules).comparison
            if comp is None:
                continue
            for record in board_records(comp):
                job = make_job(record, rules, budget)
                jobs.setdefault(job.key, job)
    return list(jobs.values())
