"""The one store of played deals: room results, their records, and the log of every change.

A **room result** (``models.RoomResult``) is one room's play of one board at one table under
one rule set. Its key (:class:`ResultKey`) is the board's DealId, the event, round, table
and room ("" when unknown) and the rules; an event's results also name their match. What
happened in that room is not stored on the row: it is the **log** (``models.ResultChange``),
one append-only row per change (an import, a result reported from the table, a record
attached to it, a board marked unfinished, a correction, a director's ruling), each with
who made it, when (UTC), why, the state it replaced and the new one, each with the
**finishing order** it was counted from (``State.finish``, :func:`canonical_finish`: the
table's, the record's, the one a director gave; ``None`` for an N–S result given without
one, or an unfinished board): every view shows that one. The **current result**
is the latest change of each room, always a query (:func:`current_changes`), never a copy
kept in sync. A **play record** (``models.PlayRecord``: canonical ``.gdn``, SHA-256) proves
a result; a change names the record it rests on, if any.

* A result may be **reported without a record** (a phone at the table sends the finishing
  order): it is a result like any other, and a record can later **back** it
  (:func:`attach_record`: action ``attach``) when the record says the same.
* A record or report that **disagrees** with the current result is refused, both named,
  unless it comes as a correction (:class:`Author` with ``correction=True``); a director's
  ruling (:func:`rule_result`) always applies and keeps the record beside it.
* Everything here is one transaction per call (``db.session_scope``): a refusal leaves the
  database as it was. The session-level functions (``find_result``, ``apply_change``, …)
  are what ``duplicate.events`` and ``duplicate.records`` build their imports on.
"""

from __future__ import annotations

from duplicate.i18n.game import describe_rules
from duplicate.store.calls import (
    attach_record,
    current_results,
    mark_unfinished,
    report_result,
    result_history,
    result_of_finish,
    rule_result,
)
from duplicate.store.data import (
    ACTIONS,
    RULING_NOTE,
    Author,
    Change,
    CurrentResult,
    ResultKey,
    Slot,
    State,
    StoreError,
    canonical_finish,
    default_by,
    load_rules,
    rules_json,
    utc,
)
from duplicate.store.log import (
    TRIES,
    Now,
    add_record,
    apply_change,
    begin_write,
    change_values,
    changes,
    current_changes,
    current_state,
    decide,
    find_result,
    in_savepoint,
    result_row,
    result_row_id,
    result_values,
    retrying,
    room_now,
    state_of,
    unique_violation,
)

__all__ = [
    "ACTIONS",
    "RULING_NOTE",
    "Author",
    "Change",
    "CurrentResult",
    "ResultKey",
    "Slot",
    "State",
    "StoreError",
    "TRIES",
    "add_record",
    "apply_change",
    "begin_write",
    "attach_record",
    "canonical_finish",
    "change_values",
    "changes",
    "Now",
    "current_changes",
    "room_now",
    "current_state",
    "current_results",
    "decide",
    "default_by",
    "describe_rules",
    "find_result",
    "in_savepoint",
    "load_rules",
    "mark_unfinished",
    "report_result",
    "result_history",
    "result_of_finish",
    "result_row",
    "result_row_id",
    "result_values",
    "retrying",
    "rule_result",
    "rules_json",
    "state_of",
    "unique_violation",
    "utc",
]
