"""A table's phone pages: ``/t/{token}`` (the token on the table card's QR code is the only
credential; no cookie, no login).

* West's token (role ``report``): pick the board (a board the director decided by a
  ruling, conceded or forfeited, shows the decision instead of the form), enter the finishing order (1st, 2nd,
  3rd: selects that work without JS; ``table.js`` turns them into four seat buttons tapped
  in order and shows the result the order implies, asking ``GET /api/table/{token}/preview``)
  or "unfinished" with a reason, optionally a ``.gdn`` play record; ``POST /t/{token}/report``.
* North's token (role ``confirm``): West's reports with Confirm (``POST
  /t/{token}/confirm/{id}``) and Dispute with a note (``POST /t/{token}/dispute/{id}``).

Every form post answers 303 to the page again (Post/Redirect/Get) with what happened in the
query (``?done=stored&sent=3``: the board sent is said, never picked again: West's form moves
on to the next board not in, as a fresh load does); the library stores a repeated report once
(``done=same``: "already received"). A refusal (a different report already in, a closed round, a bad
order) shows the page again with the message and the refusal's status. Without JS the
"Check" button of West's form asks the page itself (GET) for the implied result. All rule
work (results, states, windows) is the library's: :mod:`duplicate.hall`.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import RedirectResponse, Response

from duplicate import hall
from duplicate.errors import DuplicateError
from duplicate.gdn import decode
from duplicate.i18n import Named, phrase
from duplicate.limits import TEXT_LIMITS
from duplicate.web.context import language_of
from duplicate.web.deps import TableGrant, engine_of
from duplicate.web.errors import classify, message_of
from duplicate.web.render import page
from duplicate.web.settings import MAX_RECORD

router = APIRouter(include_in_schema=False)

#: What a redirect after a post may say (``?done=``).
DONE = ("stored", "same", "confirmed", "already", "disputed", "requested")
SEATS = ("N", "E", "S", "W")


def finish_of(first: str, second: str, third: str) -> str:
    """The finishing order as the library reads it (``"N S E"``; ``"N S"`` when no third
    was given, as after a double down). Only seat letters pass; the library judges the rest."""
    seats = [s.strip().upper() for s in (first, second, third) if s and s.strip()]
    for s in seats:
        if s not in SEATS:
            raise hall.HallError(phrase("lw.err.not_seat", seat=Named(s)), kind="invalid")
    return " ".join(seats)


def _url(token: str, **query: Any) -> str:
    params = {k: v for k, v in query.items() if v is not None}
    base = f"/t/{quote(token, safe='')}"
    return f"{base}?{urlencode(params)}" if params else base


def signature(view: hall.TableView) -> str:
    """The boards' states and live reports in one string: ``north.js`` compares it with the
    table's API answer (``board:state:report id``, comma-separated) and reloads on a change."""
    return ",".join(
        f"{b.board}:{b.state}:{b.report.id if b.report is not None else ''}" for b in view.boards
    )


def _default_board(view: hall.TableView) -> int | None:
    """The board West most likely reports next: the first with nothing in."""
    for status in view.boards:
        if status.state == "not_in":
            return status.board
    return view.boards[0].board if view.boards else None


def render_table(
    request: Request,
    token: str,
    grant: hall.Grant,
    *,
    board: int | None = None,
    form: dict[str, str] | None = None,
    error: str | None = None,
    status: int = 200,
) -> Response:
    """The table page of ``grant`` (West's or North's), with an optional refusal message."""
    engine = engine_of(request)
    view = hall.table_view(engine, grant)
    form = form or {}
    preview: hall.Preview | None = None
    preview_error: str | None = None
    if form.get("first") and form.get("second") and not error:
        try:
            finish = finish_of(form["first"], form["second"], form.get("third", ""))
            preview = hall.preview_finish(engine, grant.event, finish)
        except DuplicateError as exc:
            preview_error = message_of(request, exc)
    done = request.query_params.get("done")
    picked = board if board is not None else _default_board(view)
    # the board a ruling decided takes no report: West's page shows the decision instead
    decided = next((b for b in view.boards if b.board == picked and b.decision), None)
    template = "table_west.html" if grant.role == "report" else "table_north.html"
    response = page(
        request,
        template,
        event=grant.event,
        clock=view.clock,
        view=view,
        token=token,
        action=_url(token),
        picked=picked,
        decided=decided if grant.role == "report" else None,
        form=form,
        preview=preview,
        preview_error=preview_error,
        error=error,
        done=done if done in DONE else None,
        done_board=request.query_params.get("sent") or request.query_params.get("board"),
        max_record_kib=MAX_RECORD // 1024,
        sig=signature(view),
    )
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/t/{token}")
def table_page(
    request: Request,
    token: str,
    grant: TableGrant,
    board: int | None = None,
    first: str = "",
    second: str = "",
    third: str = "",
) -> Response:
    """West's or North's page; ``first``/``second``/``third`` (the no-JS "Check" button)
    show the result that order implies."""
    form = {"first": first[:2], "second": second[:2], "third": third[:2]}
    return render_table(request, token, grant, board=board, form=form)


def _refused(
    request: Request, token: str, grant: hall.Grant, exc: DuplicateError, board: int | None,
    form: dict[str, str],
) -> Response:
    status, _ = classify(exc)
    if status in (403, 404):
        raise exc
    return render_table(request, token, grant, board=board, form=form, error=message_of(request, exc),
                        status=status)


async def _record_text(request: Request, record: UploadFile | None) -> str | None:
    """The uploaded play record's text (``None`` without one); 413 over the limit."""
    if record is None or not record.filename:
        return None
    data = await record.read(MAX_RECORD + 1)
    if len(data) > MAX_RECORD:
        too_big = phrase("hall.err.record_too_big", kib=MAX_RECORD // 1024)
        raise HTTPException(413, too_big.text(language_of(request)))
    if not data.strip():
        return None
    return decode(data, file=record.filename)


@router.post("/t/{token}/report")
async def post_report(
    request: Request,
    token: str,
    grant: TableGrant,
    board: int = Form(ge=1, le=10_000),
    first: str = Form(""),
    second: str = Form(""),
    third: str = Form(""),
    unfinished: str = Form(""),
    reason: str = Form(""),
    correction: str = Form(""),
    record: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """West's report of a board (303 to the page; the same report twice is stored once)."""
    form = {"first": first[:2], "second": second[:2], "third": third[:2],
            "unfinished": unfinished[:3], "reason": reason[:200], "correction": correction[:500]}
    try:
        text = await _record_text(request, record)
        if unfinished:
            finish = None
            why: str | None = reason.strip() or "time"
        else:
            finish, why = finish_of(first, second, third), None
            if not finish:
                raise hall.HallError(phrase("hall.err.enter_order"), kind="invalid")
        sent, created = hall.west_report(
            engine_of(request), grant, board, finish=finish, unfinished=why, record=text,
            correction=correction.strip() or None,
        )
    except DuplicateError as exc:
        return _refused(request, token, grant, exc, board, form)
    # after publication what the table sends is a request the director decides
    done = ("requested" if sent.state == "requested" else "stored") if created else "same"
    return RedirectResponse(_url(token, done=done, sent=board), status_code=303)


def _board_of(request: Request, grant: hall.Grant, report_id: int) -> hall.BoardStatus:
    """The board status whose live report is ``report_id`` at the grant's table and room."""
    for status in hall.table_view(engine_of(request), grant).boards:
        if status.report is not None and status.report.id == report_id:
            return status
    raise hall.HallError(
        phrase("hall.err.no_report_here", id=report_id, table=grant.table,
               room=phrase(f"hall.room.{grant.room}")),
        kind="not_found",
    )


@router.post("/t/{token}/confirm/{report_id}")
def post_confirm(request: Request, token: str, report_id: int, grant: TableGrant) -> Response:
    """North confirms West's report: the result counts (a second tap changes nothing)."""
    try:
        status = _board_of(request, grant, report_id)
        before = status.report.state if status.report is not None else ""
        after = hall.north_confirm(engine_of(request), grant, status.board, report_id)
    except DuplicateError as exc:
        return _refused(request, token, grant, exc, None, {})
    done = "already" if before == "confirmed" else "confirmed"
    if after.state == "requested":  # published meanwhile: the director decides
        done = "requested"
    return RedirectResponse(_url(token, done=done, sent=status.board), status_code=303)


@router.post("/t/{token}/dispute/{report_id}")
def post_dispute(
    request: Request, token: str, report_id: int, grant: TableGrant, note: str = Form("")
) -> Response:
    """North disputes West's report with a note: it goes to the director."""
    try:
        if not note.strip():
            raise hall.HallError(phrase("hall.err.dispute_note", most=TEXT_LIMITS["note"]),
                                 kind="invalid")
        status = _board_of(request, grant, report_id)
        hall.north_dispute(engine_of(request), grant, status.board, report_id,
                           note.strip()[:500])
    except DuplicateError as exc:
        return _refused(request, token, grant, exc, None, {})
    return RedirectResponse(_url(token, done="disputed", sent=status.board), status_code=303)
