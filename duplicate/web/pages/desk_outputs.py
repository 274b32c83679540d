"""The event desk's results and what leaves the event (included by
:mod:`duplicate.web.pages.desk`), each the library call the command line makes:

* ``GET /desk/e/{event}/standings``: the standings (``events.event_standings``, as
  ``guandan event standings``), the order they rank by, withdrawn teams marked; the form
  that changes the order (``POST .../tiebreaks``: ``events.set_tiebreaks``, logged);
* ``GET /desk/e/{event}/report.zip``: the HTML report (``events.write_event_report``, as
  ``guandan event report``), written into a temporary folder and sent as one zip;
* ``GET /desk/e/{event}/export``: the event's records as one ``.gdn`` file named with the
  event (``events.export_records``, as ``guandan event export``); ``POST`` with a reason:
  the director's copy with the boards not yet released (logged);
* ``GET /desk/sets/{set}/hand-records``: the printable hand records of a stored set
  (``handrecords.render_html``, as ``guandan deals export -f html``);
* ``POST /desk/sets/{set}/reveal`` and ``.../verify``: the set's seed file revealed
  (``boards.reveal_set``: checked against the commitment, recorded, logged) or checked
  (``boards.verify_set``: every board regenerated; nothing written).
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import Engine

from duplicate import events
from duplicate.boards import load_set, reveal_set, verify_set
from duplicate.dealing import parse_seed_file
from duplicate.handrecords import render_html
from duplicate.i18n import Term
from duplicate.records import Correction
from duplicate.standings import TIEBREAK_ORDERS
from duplicate.web.context import language_of
from duplicate.web.deps import check_csrf, director_or_none, engine_of
from duplicate.web.pages.desk_base import (
    DeskInput,
    Flash,
    act,
    event_url,
    q,
    redirect,
    show,
    text_of,
    to_login,
)
from duplicate.web.render import attachment

router: APIRouter = APIRouter(include_in_schema=False)

#: The largest seed file the desk reads (a seed file is a few hundred bytes).
MAX_SEED_BYTES = 64 * 1024


def _required(value: str, field: str) -> str:
    text = text_of(value)
    if text is None:
        raise DeskInput("desk.error.required", field={"t": field})
    return text


@router.get("/desk/e/{event}/standings")
def standings_page(request: Request, event: str) -> Response:
    """The standings after the last complete round, the order they rank by, and the
    event's outputs (report, export, hand records)."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    rows, through = events.event_standings(engine, info.name)
    sets = sorted({r.board_set for r in (events.get_round(engine, info.name, n)
                                         for n in _rounds(engine, info.name))
                   if r.board_set})
    return show(request, "desk_standings.html", info=info, rows=rows, through=through,
                withdrawn=events.withdrawals(engine, info.name), orders=list(TIEBREAK_ORDERS),
                sets=sets)


def _rounds(engine: Engine, event: str) -> list[int]:
    return sorted({m.round for m in events.list_matches(engine, event)})


@router.post("/desk/e/{event}/tiebreaks")
def tiebreaks(request: Request, event: str, csrf: str = Form(""), order: str = Form(""),
              reason: str = Form("")) -> Response:
    """Rank the event by another order of tie-breaks from now on (logged)."""

    def action(engine: Engine, who: str) -> Flash:
        new = _required(order, "desk.field.tiebreaks")
        events.set_tiebreaks(engine, event, new, by=who,
                             reason=_required(reason, "desk.field.reason"))
        return "desk.flash.tiebreaks", {"order": {"t": f"standings.order.{new.strip().lower()}"}}

    return act(request, csrf, event_url(event, "/standings"), action)


@router.get("/desk/e/{event}/report.zip")
def report_zip(request: Request, event: str) -> Response:
    """The event's HTML report (every page ``guandan event report`` writes) as one zip."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="guandan-report-") as folder:
        events.write_event_report(engine, info.name, folder)
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(Path(folder).rglob("*")):
                if path.is_file():
                    archive.write(path, path.relative_to(folder).as_posix())
    return Response(buffer.getvalue(), media_type="application/zip",
                    headers={**attachment(events.export_name(info.name, suffix="-report.zip")),
                             "Cache-Control": "no-store"})


@router.get("/desk/e/{event}/export")
def export_event(request: Request, event: str) -> Response:
    """The event's records (released boards) and the results no record gives, as one
    ``.gdn`` file named with the event."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    text = events.export_records(engine, info.name, results=True)
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={**attachment(events.export_name(info.name)),
                             "Cache-Control": "no-store"})


@router.post("/desk/e/{event}/export")
def export_unreleased(request: Request, event: str, csrf: str = Form(""),
                      reason: str = Form("")) -> Response:
    """The director's copy: every board, those not yet released too (logged with the
    reason); refused without one."""
    who = director_or_none(request)
    if who is None:
        return to_login(request, event_url(event, "/standings"))
    check_csrf(request, csrf)
    back = event_url(event, "/standings")
    why = text_of(reason)
    if why is None:
        return redirect(back, ("desk.error.required", {"field": {"t": "desk.field.reason"}}),
                        error=True)
    engine = engine_of(request)
    try:
        text = events.export_records(engine, event, unreleased=Correction(why, who),
                                     results=True)
    except events.EventError as exc:
        return redirect(back, ("desk.flash.refused", {"message": exc.text(language_of(request))}),
                        error=True)
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={**attachment(events.export_name(event)), "Cache-Control": "no-store"})


@router.get("/desk/sets/{name}/hand-records")
def hand_records(request: Request, name: str, title: str | None = None) -> Response:
    """A stored set's hand records as a printable page in the desk's language (for the
    director: a board is shown to no player by this)."""
    if director_or_none(request) is None:
        return to_login(request)
    html = render_html(load_set(engine_of(request), name), title or name, language_of(request))
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


def _seed_upload(upload: UploadFile | None) -> bytes:
    return upload.file.read(MAX_SEED_BYTES) if upload is not None else b""


@router.post("/desk/sets/{name}/reveal")
def reveal(
    request: Request, name: str, csrf: str = Form(""), commitment: str = Form(""),
    reason: str = Form(""), seed_file: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """Reveal a set's seed once its boards are played: checked against the stored (and the
    published) commitment, recorded with the set, logged."""
    data = _seed_upload(seed_file)

    def action(engine: Engine, who: str) -> Flash:
        if not data:
            raise DeskInput("desk.error.required", field={"t": "desk.field.seed_file"})
        seed = parse_seed_file(data, Term("the seed file", "desk.source.seed"))
        info = reveal_set(engine, name, seed, text_of(commitment), by=who,
                          reason=_required(reason, "desk.field.reason"))
        return "desk.flash.revealed", {"set": info.name, "commitment": info.commitment[:16]}

    return act(request, csrf, f"/desk/sets#set-{q(name)}", action)


@router.post("/desk/sets/{name}/verify")
def verify(
    request: Request, name: str, csrf: str = Form(""), commitment: str = Form(""),
    seed_file: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """Regenerate a set from its seed file and check every board (nothing written)."""
    data = _seed_upload(seed_file)

    def action(engine: Engine, who: str) -> Flash:
        if not data:
            raise DeskInput("desk.error.required", field={"t": "desk.field.seed_file"})
        seed = parse_seed_file(data, Term("the seed file", "desk.source.seed"))
        result = verify_set(engine, name, seed, None, text_of(commitment))
        return "desk.flash.verified", {"set": result.info.name, "n": result.boards_checked}

    return act(request, csrf, f"/desk/sets#set-{q(name)}", action)
