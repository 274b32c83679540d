"""The desk's page of plays captured at the table, a round's (``/desk/e/{event}/round/{n}/capture``):

* the recorders' cards: issue them (every table's, or one table's again) and print them,
  a QR code a table and room to the recorder's page ``/r/{token}`` (as ``guandan event
  recorder-cards`` prints them); the tokens are shown once, in the answer to the post;
* the live view: the event's choice (``released`` or ``delayed`` by D minutes) and a new
  spectator link, shown once (never printed on a table card);
* the boards being captured (as the director sees them, linked to their live page) and
  the director's corrections of one: a play corrected, a deal marked unfinished, a
  record taken back (who: the logged-in director; why: the form's reason).

Each form is one library call (``duplicate.capture``); the library decides and logs.
"""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response
from sqlalchemy import Engine

from duplicate import capture, events
from duplicate.capture.tokens import RecorderCard
from duplicate.errors import DuplicateError
from duplicate.web.cards import public_base, qr_svg
from duplicate.web.deps import check_csrf, director_or_none, engine_of
from duplicate.web.errors import message_of
from duplicate.web.pages.desk_base import (
    DeskInput,
    Flash,
    act,
    event_url,
    int_of,
    redirect,
    show,
    text_of,
    to_login,
)
from duplicate.web.render import page

router: APIRouter = APIRouter(include_in_schema=False)


def _url(event: str, round_no: int, tail: str = "") -> str:
    return event_url(event, f"/round/{round_no}/capture{tail}")


def _page(request: Request, event: str, round_no: int, link: str | None = None) -> Response:
    engine = engine_of(request)
    info = events.get_event(engine, event)
    rnd = events.get_round(engine, info.name, round_no)
    return show(request, "desk_capture.html", info=info, rnd=rnd, link=link,
                settings=capture.live_settings(engine, info.name),
                tables=capture.live_tables(engine, info.name, capture.DIRECTOR,
                                           round_no=round_no))


@router.get("/desk/e/{event}/round/{round_no}/capture")
def capture_page(request: Request, event: str, round_no: int) -> Response:
    """The round's captured boards, the recorders' cards and the live view's choice."""
    if director_or_none(request) is None:
        return to_login(request)
    response = _page(request, event, round_no)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/desk/e/{event}/round/{round_no}/capture/cards")
def recorder_cards(request: Request, event: str, round_no: int, csrf: str = Form(""),
                   table: str = Form("")) -> Response:
    """Issue the recorders' cards (every table's, or ``table``'s: its earlier ones become
    void) and answer them printable; they are shown only here."""
    who = director_or_none(request)
    if who is None:
        return to_login(request, _url(event, round_no))
    check_csrf(request, csrf)
    try:
        number = int_of(table, "desk.field.table")
        cards = capture.issue_recorder_tokens(engine_of(request), event, round_no, who,
                                              table=number)
    except DeskInput as exc:
        return redirect(_url(event, round_no), (exc.key, exc.values), error=True)
    except DuplicateError as exc:
        return redirect(_url(event, round_no),
                        ("desk.flash.refused", {"message": message_of(request, exc)}),
                        error=True)
    base = public_base(request)

    def page_url(card: RecorderCard) -> str:
        return f"{base}/r/{card.token}"

    shown = page(request, "desk_recorder_cards.html", cards=cards, page_url=page_url,
                 qr_svg=qr_svg)
    shown.headers["Cache-Control"] = "no-store"
    shown.headers["Referrer-Policy"] = "no-referrer"
    return shown


@router.post("/desk/e/{event}/round/{round_no}/capture/live")
def live_choice(request: Request, event: str, round_no: int, csrf: str = Form(""),
                mode: str = Form(""), delay: str = Form("")) -> Response:
    """The live view's choice (logged)."""

    def action(engine: Engine, who: str) -> Flash:
        minutes = int_of(delay, "desk.field.delay")
        done = capture.set_live(engine, event, text_of(mode) or "", minutes, who)
        return "desk.flash.live", {"mode": done.mode, "delay": done.delay}

    return act(request, csrf, _url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/capture/link")
def watch_link(request: Request, event: str, round_no: int, csrf: str = Form("")) -> Response:
    """A new spectator link, shown once on the page answered."""
    who = director_or_none(request)
    if who is None:
        return to_login(request, _url(event, round_no))
    check_csrf(request, csrf)
    token = capture.issue_watch_link(engine_of(request), event, who)
    response = _page(request, event, round_no, link=f"{public_base(request)}/w/{token}")
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _where(table: str, room: str, board: str) -> tuple[int, str, int]:
    t = int_of(table, "desk.field.table", required=True)
    b = int_of(board, "desk.field.board", required=True)
    assert t is not None and b is not None
    return t, (text_of(room) or ""), b


@router.post("/desk/e/{event}/round/{round_no}/capture/correct")
def correct(request: Request, event: str, round_no: int, csrf: str = Form(""),
            table: str = Form(""), room: str = Form(""), board: str = Form(""),
            seq: str = Form(""), seat: str = Form(""), cards: str = Form(""),
            reason: str = Form("")) -> Response:
    """Correct a captured play."""

    def action(engine: Engine, who: str) -> Flash:
        t, r, b = _where(table, room, board)
        n = int_of(seq, "desk.field.seq", required=True)
        assert n is not None
        done = capture.correct_play(engine, event, round_no, t, r, b, n,
                                    (text_of(seat) or "").upper(), (cards or "").split(), who,
                                    reason)
        return "desk.flash.capture_play", {"seq": n, "before": done.before,
                                           "after": done.after}

    return act(request, csrf, _url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/capture/unfinished")
def unfinished(request: Request, event: str, round_no: int, csrf: str = Form(""),
               table: str = Form(""), room: str = Form(""), board: str = Form(""),
               reason: str = Form("")) -> Response:
    """Mark a captured deal unfinished."""

    def action(engine: Engine, who: str) -> Flash:
        t, r, b = _where(table, room, board)
        capture.mark_unfinished(engine, event, round_no, t, r, b, who, reason)
        return "desk.flash.capture_unfinished", {"table": t, "board": b}

    return act(request, csrf, _url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/capture/take-back")
def take_back(request: Request, event: str, round_no: int, csrf: str = Form(""),
              table: str = Form(""), room: str = Form(""), board: str = Form(""),
              reason: str = Form("")) -> Response:
    """Take back a captured record."""

    def action(engine: Engine, who: str) -> Flash:
        t, r, b = _where(table, room, board)
        capture.take_back(engine, event, round_no, t, r, b, who, reason)
        return "desk.flash.capture_withdrawn", {"table": t, "board": b}

    return act(request, csrf, _url(event, round_no), action)
