"""The device protocol of docs/CAPTURE.md over a WebSocket: one JSON message a request,
one JSON answer each, in order. The same calls as the HTTP endpoints
(:mod:`duplicate.web.api_capture`), each one library call run in the worker's thread
pool; the answers say the same (``op`` names the answer). The token in the path is the
credential, checked at the handshake and on every call; the language is ``?lang=`` or
the handshake's Accept-Language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool

from duplicate import capture
from duplicate.errors import DuplicateError
from duplicate.i18n import LANGUAGES, negotiate, phrase
from duplicate.web.errors import KIND_STATUS

router = APIRouter()

#: The largest message accepted (an action is well under 1 KiB).
MAX_MESSAGE = 4096
#: The close code of a token the hall refuses (4000 + the HTTP status).
CLOSE_FORBIDDEN = 4403


def _lang(ws: WebSocket) -> str:
    asked = ws.query_params.get("lang")
    if asked in LANGUAGES:
        return str(asked)
    return negotiate(ws.headers.get("accept-language"))


def _refused(exc: DuplicateError, lang: str, req: dict[str, Any]) -> dict[str, Any]:
    kind = getattr(exc, "kind", "invalid")
    return {"op": "refused", "board": req.get("board"), "seq": req.get("seq"),
            "error": kind if kind in KIND_STATUS else "invalid", "message": exc.text(lang),
            "refusal": getattr(exc, "code", None), "next": getattr(exc, "next_seq", None)}


def _garbage(lang: str) -> dict[str, Any]:
    said = phrase("capture.err.message").text(lang)
    return {"op": "refused", "board": None, "seq": None, "error": "invalid", "message": said,
            "refusal": "bad_action", "next": None}


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(value)
    return value


def _call(engine: Any, token: str, req: dict[str, Any]) -> dict[str, Any]:
    """The library call a request names, and its answer."""
    op = req.get("op")
    if op == "table":
        return {"op": "table", **capture.table_capture(engine, token).to_dict()}
    board = _int(req.get("board"))
    if op in ("start", "state"):
        call: Callable[..., capture.BoardState] = (
            capture.start_board if op == "start" else capture.board_state)
        return {"op": "state", **call(engine, token, board).to_dict()}
    if op == "action":
        cards = req.get("cards", [])
        if not isinstance(cards, list):
            raise ValueError(cards)
        ctype, rank, seat = req.get("type"), req.get("rank"), req.get("seat")
        for v in (ctype, rank):
            if v is not None and not isinstance(v, str):
                raise ValueError(v)
        ack = capture.enter_action(engine, token, board, _int(req.get("seq")), str(seat),
                                   cards, ctype, rank)
        return {"op": "ack", "board": board, **ack.to_dict()}
    if op == "readings":
        cards = req.get("cards", [])
        if not isinstance(cards, list):
            raise ValueError(cards)
        found = capture.readings(engine, token, board, str(req.get("seat")), cards)
        return {"op": "readings", "board": board,
                "readings": [{"type": t, "rank": r} for t, r in found]}
    if op == "undo":
        seq = _int(req.get("seq"))
        return {"op": "undone", "board": board, "undone": seq,
                "last": capture.undo_action(engine, token, board, seq)}
    raise ValueError(op)


@router.websocket("/api/capture/{token}/ws")
async def capture_socket(ws: WebSocket, token: str) -> None:
    """A device's connection: requests in, answers out, until it closes."""
    engine = ws.app.state.engine
    lang = _lang(ws)
    await ws.accept()
    try:
        await run_in_threadpool(capture.table_capture, engine, token)
    except DuplicateError as exc:
        await ws.send_text(json.dumps(_refused(exc, lang, {})))
        await ws.close(CLOSE_FORBIDDEN)
        return
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        req: Any = None
        try:
            if not isinstance(text, str) or len(text) > MAX_MESSAGE:
                raise ValueError("not a text message of the protocol")
            req = json.loads(text)
            if not isinstance(req, dict):
                raise ValueError(req)
            out = await run_in_threadpool(_call, engine, token, req)
        except DuplicateError as exc:
            out = _refused(exc, lang, req if isinstance(req, dict) else {})
        except (ValueError, TypeError):
            out = _garbage(lang)
        await ws.send_text(json.dumps(out, ensure_ascii=False))
