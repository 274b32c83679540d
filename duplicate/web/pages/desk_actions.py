"""The round desk's further actions (included by :mod:`duplicate.web.pages.desk_round`).

* a report that waits for North: confirm or dismiss it (``hall.director_confirm``,
  ``hall.director_dismiss``; a disputed report may be dismissed too);
* a table's request after publication: accept it (an optional note) or dismiss it (a
  reason) (``hall.accept_request``, ``hall.dismiss_request``);
* a board unfinished with its reason (``events.record_unfinished``, as the director's
  correction when a result was in), a board released (``events.release_board``);
* the clock paused, resumed, moved (``hall.pause_clock``, ``resume_clock``,
  ``move_clock``);
* a late team's ruling, the one the library says is due (``hall.rule_late``);
* the table cards: all of them or one table's (``hall.issue_tokens``). The tokens are
  derived from a key (``hall.tokens.derived_token``) kept only in a short-lived cookie
  of the desk's, so that the printed page is a GET (``hall.cards_again``): reloading it
  shows the same cards and issues nothing.

Every action is one library call as the director, with the director's reason where the
library logs one (:func:`duplicate.web.pages.desk.act`: CSRF, login, Post/Redirect/Get). A form
that changes a result carries the box "as chief director (裁判长)" (:func:`duplicate.web.pages.desk.chief_of`):
after the directors' limit on a published round only the chief director may
(``duplicate.events.limit``).
"""

from __future__ import annotations

import base64
import binascii
import json
import secrets

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response
from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.i18n.stored import coded
from duplicate.records import Correction
from duplicate.web.cards import card_context, public_base
from duplicate.web.deps import director_or_none, engine_of
from duplicate.web.pages.desk_base import (
    DeskInput,
    Flash,
    act,
    chief_of,
    int_of,
    redirect,
    secure,
    text_of,
    to_login,
)
from duplicate.web.pages.desk_round import round_url
from duplicate.web.render import page

router: APIRouter = APIRouter(include_in_schema=False)

#: The cookie holding the key of the cards just issued (the printed page reads it).
CARDS = "guandan_desk_cards"
#: How long the printed cards can be shown again (seconds).
CARDS_AGE = 30 * 60


def reason_of(reason: str) -> str:
    text = text_of(reason)
    if text is None:
        raise DeskInput("desk.error.required", field={"t": "desk.field.reason"})
    return text


# --- reports that wait ------------------------------------------------------------------------


@router.post("/desk/e/{event}/round/{round_no}/reports/{report_id}/confirm")
def confirm_report(request: Request, event: str, round_no: int, report_id: int,
                   csrf: str = Form(""), reason: str = Form(""),
                   chief: str = Form("")) -> Response:
    """Confirm a report that waits for North: it counts (``hall.director_confirm``)."""

    def action(engine: Engine, who: str) -> Flash:
        report = hall.director_confirm(engine, event, report_id, who, reason_of(reason),
                                       chief=chief_of(chief))
        return "desk.flash.confirmed", {"table": report.table, "board": report.board}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/reports/{report_id}/dismiss")
def dismiss_report(request: Request, event: str, round_no: int, report_id: int,
                   csrf: str = Form(""), reason: str = Form("")) -> Response:
    """Dismiss a waiting or disputed report: it does not count (``hall.director_dismiss``)."""

    def action(engine: Engine, who: str) -> Flash:
        report = hall.director_dismiss(engine, event, report_id, who, reason_of(reason))
        return "desk.flash.dismissed", {"table": report.table, "board": report.board}

    return act(request, csrf, round_url(event, round_no), action)


# --- a table's request after publication ----------------------------------------------------


@router.post("/desk/e/{event}/round/{round_no}/requests/{report_id}/accept")
def accept_request(request: Request, event: str, round_no: int, report_id: int,
                   csrf: str = Form(""), note: str = Form(""),
                   chief: str = Form("")) -> Response:
    """Accept a table's request sent after publication: it counts as the director's
    correction (``hall.accept_request``); the note is optional (the catalogue's "accepted
    as the table asked", stored as its key: every page says it in its own language)."""

    def action(engine: Engine, who: str) -> Flash:
        why = text_of(note) or coded("desk.requests.accepted_note")
        report = hall.accept_request(engine, event, report_id, who, why, chief=chief_of(chief))
        return "desk.flash.request_accepted", {"table": report.table, "board": report.board}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/requests/{report_id}/dismiss")
def dismiss_request(request: Request, event: str, round_no: int, report_id: int,
                    csrf: str = Form(""), reason: str = Form("")) -> Response:
    """Dismiss a table's request: the published result stands (``hall.dismiss_request``;
    a reason is needed)."""

    def action(engine: Engine, who: str) -> Flash:
        report = hall.dismiss_request(engine, event, report_id, who, reason_of(reason))
        return "desk.flash.request_dismissed", {"table": report.table, "board": report.board}

    return act(request, csrf, round_url(event, round_no), action)


# --- boards -----------------------------------------------------------------------------------


@router.post("/desk/e/{event}/round/{round_no}/unfinished")
def record_unfinished(
    request: Request, event: str, round_no: int, csrf: str = Form(""), table: str = Form(""),
    board: str = Form(""), room: str = Form("both"), reason: str = Form(""),
    chief: str = Form(""),
) -> Response:
    """Record a board unfinished with its reason, in one room or both
    (``events.record_unfinished``; logged as the director's, replacing what was in)."""

    def action(engine: Engine, who: str) -> Flash:
        number = int_of(table, "desk.field.table", True) or 0
        which = int_of(board, "desk.field.board", True) or 0
        why = reason_of(reason)
        rooms = events.ROOMS if room == "both" else (room,)
        events.record_unfinished(engine, event, round_no, number, which, why, rooms,
                                 Correction(why, who), chief=chief_of(chief))
        return "desk.flash.unfinished", {"table": number, "board": which}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/release")
def release_board(request: Request, event: str, round_no: int, csrf: str = Form(""),
                  board: str = Form(""), reason: str = Form("")) -> Response:
    """Release a board to the players before every table has it in
    (``events.release_board``)."""

    def action(engine: Engine, who: str) -> Flash:
        which = int_of(board, "desk.field.board", True) or 0
        events.release_board(engine, event, round_no, which, who, reason_of(reason))
        return "desk.flash.released", {"board": which}

    return act(request, csrf, round_url(event, round_no), action)


# --- the clock --------------------------------------------------------------------------------


@router.post("/desk/e/{event}/round/{round_no}/clock/{what}")
def clock_action(request: Request, event: str, round_no: int, what: str,
                 csrf: str = Form(""), minutes: str = Form(""),
                 reason: str = Form("")) -> Response:
    """Pause, resume or move the round's clock (``what``: pause, resume, move)."""

    def action(engine: Engine, who: str) -> Flash:
        why = reason_of(reason)
        if what == "pause":
            hall.pause_clock(engine, event, round_no, who, why)
        elif what == "resume":
            hall.resume_clock(engine, event, round_no, who, why)
        elif what == "move":
            by = int_of(minutes, "desk.field.move_minutes", True) or 0
            hall.move_clock(engine, event, round_no, by, who, why)
            return "desk.flash.clock_moved", {"minutes": f"{by:+d}"}
        else:
            raise DeskInput("desk.error.unknown_action")
        return f"desk.flash.clock_{what}", {"n": round_no}

    return act(request, csrf, round_url(event, round_no), action)


# --- a late team --------------------------------------------------------------------------------


@router.post("/desk/e/{event}/round/{round_no}/late")
def rule_late(request: Request, event: str, round_no: int, csrf: str = Form(""),
              team: str = Form(""), chief: str = Form(""), effect: str = Form(""),
              minutes: str = Form("")) -> Response:
    """Record the ruling a late team's lateness calls for now (``hall.rule_late``). The
    lateness is the round clock's: a ``minutes`` sent with the form is refused, not
    ignored (the log would show another number than the one typed). ``effect``: the
    ruling the page showed; refused when the clock now calls for the other one."""

    def action(engine: Engine, who: str) -> Flash:
        if minutes.strip():
            raise DeskInput("desk.error.late_minutes")
        name = text_of(team)
        if name is None:
            raise DeskInput("desk.error.required", field={"t": "desk.field.team"})
        ruling = hall.rule_late(engine, event, round_no, name, who, chief=chief_of(chief),
                                expect=effect.strip() or None)
        return f"desk.flash.late_{ruling.effect}", {"team": name}

    return act(request, csrf, round_url(event, round_no), action)


# --- table cards ------------------------------------------------------------------------------


def _cards_cookie(event: str, round_no: int, key: bytes, table: int | None) -> str:
    raw = json.dumps({"e": event, "r": round_no, "t": table,
                      "k": base64.urlsafe_b64encode(key).decode("ascii")})
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode("ascii")


def _cards_key(request: Request, event: str, round_no: int) -> tuple[bytes, int | None] | None:
    raw = request.cookies.get(CARDS)
    if not raw:
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(raw.encode("ascii")).decode("utf-8"))
        key = base64.urlsafe_b64decode(str(data["k"]).encode("ascii"))
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeError):
        return None
    if data.get("e") != event or data.get("r") != round_no or len(key) < 32:
        return None
    table = data.get("t")
    return key, table if isinstance(table, int) else None


@router.post("/desk/e/{event}/round/{round_no}/cards")
def issue_cards(request: Request, event: str, round_no: int, csrf: str = Form(""),
                table: str = Form("")) -> Response:
    """Issue the table cards (every table's, or ``table``'s only: its earlier cards become
    void, the other tables' stay), then show them printable (a GET: see the module)."""
    key = secrets.token_bytes(32)
    chosen: list[int | None] = []

    def action(engine: Engine, who: str) -> Flash:
        number = int_of(table, "desk.field.table")
        hall.issue_tokens(engine, event, round_no, who, table=number, key=key)
        chosen.append(number)
        return ("desk.flash.cards", {"n": round_no}) if number is None else (
            "desk.flash.cards_table", {"n": round_no, "table": number})

    response = act(request, csrf, round_url(event, round_no, "/cards"), action,
                   success=lambda _flash: round_url(event, round_no, "/cards/printed"))
    if chosen:
        response.set_cookie(CARDS, _cards_cookie(event, round_no, key, chosen[0]),
                            max_age=CARDS_AGE, path="/desk", httponly=True,
                            samesite="strict", secure=secure(request))
    return response


@router.get("/desk/e/{event}/round/{round_no}/cards/printed")
def printed_cards(request: Request, event: str, round_no: int) -> Response:
    """The cards just issued, printable; again on a reload (nothing is issued here). When
    they are no longer valid or the cookie is gone: back to the page that issues them."""
    if director_or_none(request) is None:
        return to_login(request)
    found = _cards_key(request, event, round_no)
    engine = engine_of(request)
    events.get_round(engine, event, round_no)  # an unknown event or round: 404
    cards = hall.cards_again(engine, event, round_no, found[0], found[1]) if found else []
    if not cards:
        return redirect(round_url(event, round_no, "/cards"), ("desk.flash.cards_gone", {}),
                        error=True)
    shown: Response = page(request, "desk_cards.html", **card_context(cards, public_base(request)))
    shown.headers["Cache-Control"] = "no-store"
    shown.headers["Referrer-Policy"] = "no-referrer"
    return shown
