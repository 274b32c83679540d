"""Plays captured at the table: a recorder (a phone beside the table, an electronic
table's reader) enters each action of a board; the engine checks it before it is stored;
when the deal ends its ``.gdn`` record is the room's record and result. No HTTP here:
``duplicate.web.api_capture`` calls these; docs/CAPTURE.md is the design and the device
protocol.

* :mod:`~duplicate.capture.base`: the refusal (with its protocol code) and the plain data;
* :mod:`~duplicate.capture.tokens`: recorders' cards (a ``record`` token a table and room);
* :mod:`~duplicate.capture.play`: start a board, enter an action, undo, the state;
* :mod:`~duplicate.capture.record`: the ended deal's record stored as the room's result;
* :mod:`~duplicate.capture.live`: the live view and who may see what of it;
* :mod:`~duplicate.capture.analysis`: a board's analysis, in the background;
* :mod:`~duplicate.capture.director`: the director corrects a play, marks a deal
  unfinished, takes a record back.

Storage (``duplicate.models``, migration ``0016``): ``capture_boards`` (one a board,
room and table of a round) and ``capture_actions`` (numbered; a unique key on
(board, seq, live) stores a resent action once).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from duplicate.capture.analysis import analyse_captured, wait_idle
    from duplicate.capture.base import (
        BOARD_STATES,
        REFUSALS,
        Ack,
        ActionOut,
        BoardLine,
        BoardState,
        CaptureError,
        TableCapture,
    )
    from duplicate.capture.director import Corrected, correct_play, mark_unfinished, take_back
    from duplicate.capture.live import (
        ANYONE,
        DIRECTOR,
        LIVE_MODES,
        LiveBoard,
        LiveSettings,
        LiveTables,
        Viewer,
        issue_watch_link,
        live_board,
        live_settings,
        live_tables,
        set_live,
        watch_event,
    )
    from duplicate.capture.play import (
        board_state,
        enter_action,
        readings,
        start_board,
        table_capture,
        undo_action,
    )
    from duplicate.capture.record import COUNTED, record_text, store_record
    from duplicate.capture.tokens import RecorderCard, issue_recorder_tokens

#: each name of the package -> the module that defines it, imported when the name is first
#: used (start-up speed: ``guandan table-sim`` uses ``duplicate.capture.sim`` alone, which
#: needs neither the store nor SQLAlchemy)
_WHERE = {
    **dict.fromkeys(("BOARD_STATES", "REFUSALS", "Ack", "ActionOut", "BoardLine", "BoardState",
                     "CaptureError", "TableCapture"), "base"),
    **dict.fromkeys(("board_state", "enter_action", "readings", "start_board",
                     "table_capture", "undo_action"), "play"),
    **dict.fromkeys(("COUNTED", "record_text", "store_record"), "record"),
    **dict.fromkeys(("RecorderCard", "issue_recorder_tokens"), "tokens"),
    **dict.fromkeys(("analyse_captured", "wait_idle"), "analysis"),
    **dict.fromkeys(("Corrected", "correct_play", "mark_unfinished", "take_back"), "director"),
    **dict.fromkeys(("ANYONE", "DIRECTOR", "LIVE_MODES", "LiveBoard", "LiveSettings",
                     "LiveTables", "Viewer", "issue_watch_link", "live_board", "live_settings",
                     "live_tables", "set_live", "watch_event"), "live"),
}

__all__ = [
    "ANYONE",
    "DIRECTOR",
    "LIVE_MODES",
    "Corrected",
    "LiveBoard",
    "LiveSettings",
    "LiveTables",
    "Viewer",
    "analyse_captured",
    "correct_play",
    "issue_watch_link",
    "live_board",
    "live_settings",
    "live_tables",
    "mark_unfinished",
    "set_live",
    "take_back",
    "wait_idle",
    "watch_event",
    "BOARD_STATES",
    "COUNTED",
    "REFUSALS",
    "Ack",
    "ActionOut",
    "BoardLine",
    "BoardState",
    "CaptureError",
    "RecorderCard",
    "TableCapture",
    "board_state",
    "enter_action",
    "issue_recorder_tokens",
    "readings",
    "record_text",
    "start_board",
    "store_record",
    "table_capture",
    "undo_action",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    globals()[name] = value
    return value
