"""A captured board's analysis, computed in the background once both rooms ended.

When the second room of a board ends at a table (or when a live page finds a board ended
in both rooms and no analysis stored for its records), :func:`schedule` hands the work to
one background thread of the process: capture never waits for analysis. The thread
compares the two records (``duplicate.compare``: the first divergence), values every
decision of each room with the budget :data:`LIVE_BUDGET` (``duplicate.review.analysis``;
exact where the budget allows, labelled estimates where it does not) and stores the result
in ``capture_analyses`` under the digest of the two records, so that a corrected record is
analysed again and two workers computing the same board store it once.
"""

from __future__ import annotations

import hashlib
import json
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError

from duplicate import models
from duplicate.analysis.estimate import Budget
from duplicate.compare import compare_board, order_rooms
from duplicate.db import session_scope
from duplicate.events.base import _rules
from duplicate.gdn import loads
from duplicate.review.analysis import AnalysisStore, analyse_board

#: The work allowed per position valued on the live page: a few seconds a board.
LIVE_BUDGET = Budget(nodes=20_000, playouts=4, seed=0)

_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="capture-analysis")
_PENDING: set[tuple[int, int, int]] = set()
_LOCK = threading.Lock()


def records_digest(texts: list[str]) -> str:
    """The key of a board's analysis: the SHA-256 of its two rooms' records."""
    return hashlib.sha256("\n\x00\n".join(texts).encode("utf-8")).hexdigest()


def schedule(engine: Engine, round_id: int, table: int, board: int) -> Future[bool] | None:
    """Analyse board ``board`` of ``table`` in the background when both rooms ended and
    no analysis of these records is stored (``None`` when already queued)."""
    key = (round_id, table, board)
    with _LOCK:
        if key in _PENDING:
            return None
        _PENDING.add(key)
    return _EXECUTOR.submit(_run, engine, key)


def wait_idle() -> None:
    """Wait until every analysis queued before now is done (tests, a clean shutdown)."""
    _EXECUTOR.submit(lambda: None).result()


def _run(engine: Engine, key: tuple[int, int, int]) -> bool:
    try:
        return analyse_captured(engine, *key)
    finally:
        with _LOCK:
            _PENDING.discard(key)


def analyse_captured(engine: Engine, round_id: int, table: int, board: int) -> bool:
    """Compare and analyse the board's two captured rooms and store the result; ``False``
    when they have not both ended or it is stored already."""
    c = models.CaptureBoard
    with session_scope(engine) as session:
        rows = {r.room: r for r in session.scalars(select(c).where(
            c.round_id == round_id, c.table_no == table, c.board == board))}
        if set(rows) != {"open", "closed"} or any(
                r.state != "ended" or not r.record for r in rows.values()):
            return False
        texts = [rows["open"].record or "", rows["closed"].record or ""]
        digest = records_digest(texts)
        a = models.CaptureAnalysis
        if session.scalar(select(a.id).where(
                a.round_id == round_id, a.table_no == table, a.board == board,
                a.records_hash == digest)) is not None:
            return False
        ev = session.scalar(select(models.Event).join(
            models.EventRound, models.EventRound.event_id == models.Event.id
        ).where(models.EventRound.id == round_id))
        assert ev is not None
        rules = _rules(ev)
    body = analysis_body(texts, rules)
    try:
        with session_scope(engine) as session:
            session.add(models.CaptureAnalysis(
                round_id=round_id, table_no=table, board=board, records_hash=digest,
                body=json.dumps(body, ensure_ascii=False, sort_keys=True),
                made_at=datetime.now(UTC)))
    except IntegrityError:  # another worker stored it first
        return False
    return True


def analysis_body(texts: list[str], rules: Any) -> dict[str, Any]:
    """What is stored: the first divergence (its action index, 0-based, or ``None``) and
    each room's annotation (open, then closed) made with :data:`LIVE_BUDGET`."""
    records = order_rooms([loads(t)[0] for t in texts])
    comp = compare_board(records, rules)
    annotations = analyse_board(comp, rules, LIVE_BUDGET, AnalysisStore(None))
    return {
        "divergence": comp.divergence.index if comp.divergence is not None else None,
        "annotations": annotations,
        "budget": LIVE_BUDGET.to_dict(),
    }
