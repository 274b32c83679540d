"""The analyses stored in the database, and each event's requested keys (its progress).

``analyses`` holds one row a record key (the primary key): :func:`store_result` inserts
with ``ON CONFLICT DO NOTHING``, so a job run twice (a worker killed after storing, a
retried job, two deferrals) stores once, and the value is the same anyway. An event's
analysis names its keys in ``analysis_requests`` (:func:`request`); :func:`progress` is how
many of them are stored. :class:`DatabaseAnalyses` is the report's store
(``duplicate.review.analysis.AnalysisStore``'s face) over the table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from duplicate.db import session_scope
from duplicate.events.base import _event_row
from duplicate.jobs.work import worker_name
from duplicate.models import Analysis, AnalysisEvent, AnalysisRequest, Event
from duplicate.review.analysis import FORMAT, AnalysisStore
from duplicate.shapes import Shaped

#: how many keys one query names (SQLite's and PostgreSQL's bound parameters)
_CHUNK = 500


def _insert(session: Session, table: Any) -> Any:
    """``INSERT`` into ``table`` in the session's dialect, which can say ``ON CONFLICT``."""
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def _chunks(keys: Iterable[str]) -> Iterable[list[str]]:
    items = list(keys)
    for i in range(0, len(items), _CHUNK):
        yield items[i:i + _CHUNK]


def store_result(engine: Engine, key: str, data: dict[str, Any], by: str | None = None) -> bool:
    """Store the analysis ``data`` under ``key``; False when it was stored already (then
    nothing changes: the first store stands)."""
    with session_scope(engine) as session:
        done = session.execute(
            _insert(session, Analysis).values(
                key=key, result=json.dumps(data, ensure_ascii=False, sort_keys=True),
                computed_by=by or worker_name(), computed_at=datetime.now(UTC))
            .on_conflict_do_nothing().returning(Analysis.key))
        return done.first() is not None


def stored_keys(engine: Engine, keys: Iterable[str]) -> set[str]:
    """Which of ``keys`` are stored."""
    out: set[str] = set()
    with session_scope(engine) as session:
        for chunk in _chunks(keys):
            out.update(session.scalars(select(Analysis.key).where(Analysis.key.in_(chunk))))
    return out


def stored_results(engine: Engine, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The stored analyses of ``keys`` (those stored), by key."""
    out: dict[str, dict[str, Any]] = {}
    with session_scope(engine) as session:
        for chunk in _chunks(keys):
            for key, text in session.execute(
                    select(Analysis.key, Analysis.result).where(Analysis.key.in_(chunk))):
                out[key] = json.loads(text)
    return out


def computed_by(engine: Engine, keys: Iterable[str]) -> dict[str, str]:
    """Who computed each stored key of ``keys``."""
    out: dict[str, str] = {}
    with session_scope(engine) as session:
        for chunk in _chunks(keys):
            for key, by in session.execute(
                    select(Analysis.key, Analysis.computed_by).where(Analysis.key.in_(chunk))):
                out[key] = by
    return out


def request(engine: Engine, event: str, keys: Iterable[str],
            budget: dict[str, Any] | None = None) -> None:
    """Make ``keys`` the event's requested analyses within ``budget`` (``Budget.to_dict()``;
    those of records since replaced are dropped: the progress counts the records the event
    holds now)."""
    wanted = set(keys)
    now = datetime.now(UTC)
    said = json.dumps(budget or {}, sort_keys=True)
    with session_scope(engine) as session:
        ev = _event_row(session, event)
        have = set(session.scalars(
            select(AnalysisRequest.key).where(AnalysisRequest.event_id == ev.id)))
        gone = have - wanted
        session.execute(delete(AnalysisEvent).where(AnalysisEvent.event_id == ev.id))
        session.add(AnalysisEvent(event_id=ev.id, budget=said, requested_at=now))
        for chunk in _chunks(gone):
            session.execute(delete(AnalysisRequest).where(
                AnalysisRequest.event_id == ev.id, AnalysisRequest.key.in_(chunk)))
        new = sorted(wanted - have)
        if new:
            session.execute(_insert(session, AnalysisRequest).values(
                [{"event_id": ev.id, "key": k, "requested_at": now} for k in new])
                .on_conflict_do_nothing())


def requested_budgets(engine: Engine) -> list[tuple[str, dict[str, Any]]]:
    """(event, budget) of every event whose analysis was asked for: what the workers'
    sweep analyses as the event's records come."""
    with session_scope(engine) as session:
        rows = session.execute(select(Event.name, AnalysisEvent.budget).join(
            AnalysisEvent, AnalysisEvent.event_id == Event.id))
        return sorted((str(name), json.loads(budget)) for name, budget in rows)


@dataclass(frozen=True, slots=True)
class Progress(Shaped):
    """An event's analysis: records asked for, how many are analysed, how many pending."""

    JSON_COMPUTED = ("pending",)

    requested: int
    analysed: int

    @property
    def pending(self) -> int:
        """Records asked for and not analysed yet."""
        return self.requested - self.analysed


def progress(engine: Engine, event: str) -> Progress:
    """How far the event's requested analyses are (none asked for: 0 of 0)."""
    with session_scope(engine) as session:
        return progress_in(session, _event_row(session, event).id)


def progress_in(session: Session, event_id: int) -> Progress:
    """:func:`progress` of the event ``event_id`` in the caller's session."""
    r = AnalysisRequest
    requested = session.scalar(
        select(func.count()).select_from(r).where(r.event_id == event_id)) or 0
    analysed = session.scalar(
        select(func.count()).select_from(r).join(Analysis, Analysis.key == r.key)
        .where(r.event_id == event_id)) or 0
    return Progress(int(requested), int(analysed))


class DatabaseAnalyses(AnalysisStore):
    """The report's store over the ``analyses`` table: read (all of ``keys`` at once when
    given), and an analysis the report had to make itself stored like a job's."""

    def __init__(self, engine: Engine, keys: Iterable[str] = ()) -> None:
        super().__init__(None)
        self.engine = engine
        self._memory.update(stored_results(engine, keys))

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored analysis of ``key``, or ``None``."""
        self.used.add(key)
        data = self._memory.get(key)
        if data is None:
            data = stored_results(self.engine, [key]).get(key)
        return data if isinstance(data, dict) and data.get("format") == FORMAT else None

    def put(self, key: str, data: dict[str, Any]) -> None:
        """Store ``data`` under ``key`` (a no-op when a worker stored it first)."""
        self._memory[key] = data
        store_result(self.engine, key, data)

    def prune(self, keep: Iterable[str]) -> None:
        """Nothing: the database's analyses serve every event and report."""
