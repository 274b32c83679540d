"""The director's desk of one round, included by :mod:`duplicate.web.pages.desk`.

* ``GET /desk/e/{event}/round/{n}``: the round clock (start it: 开始计时), arrivals with
  their lateness (签到, 迟到) and the rulings a late team's status calls for, the live
  status of every table × room × board (not in, reported, confirmed, disputed, ruled;
  ``…/live`` is the fragment the page polls), disputes (争议) with the form that settles
  each, rulings (判罚: 警告, 违例, 犯规, 迟到, 弃权), closing (结束本轮), publishing (公示),
  the director's corrections (更正) and the export (导出) of the round's records;
* ``GET /desk/e/{event}/round/{n}/cards``: asks before issuing the table cards (all of
  them, or one table's: issuing voids those tables' cards issued before); ``POST`` issues
  them and redirects to ``…/cards/printed``, the printable cards (``desk_cards.html``, the
  template ``guandan event table-cards`` renders too through ``duplicate.web.cards.card_context``):
  :mod:`duplicate.web.pages.desk_actions`, with the round's other actions (reports that wait,
  unfinished and released boards, the clock, a late team's ruling).

Every action is one ``duplicate.hall`` call, as the director (see :func:`desk.act`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response
from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.i18n import catalogue, translator
from duplicate.i18n.stored import reason_words, said, state_words
from duplicate.web.context import language_of
from duplicate.web.deps import director_or_none, engine_of
from duplicate.web.pages.desk_base import (
    DeskInput,
    Flash,
    act,
    chief_of,
    event_url,
    int_of,
    show,
    text_of,
    to_login,
)
from duplicate.web.render import page

router: APIRouter = APIRouter(include_in_schema=False)

#: How often the round's page polls the live status (milliseconds).
POLL_MS = 10_000


def result_of(value: str | None) -> int | None:
    """A room result as N–S sees it: ``-2`` / ``+1`` / ``0``, or as records write it
    (``NS +2``, ``EW +1``: :func:`duplicate.events.parse_result`)."""
    text = text_of(value)
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return events.parse_result(text)


def round_url(event: str, round_no: int, tail: str = "") -> str:
    """The desk page of a round (and below it)."""
    return event_url(event, f"/round/{round_no}{tail}")


def _live(engine: Engine, event: str, round_no: int, has_boards: bool) -> dict[str, object]:
    """What the live part of the round's page shows: clock, rooms' boards, a summary."""
    status = hall.round_status(engine, event, round_no) if has_boards else []
    states = [b.state for room in status for b in room.boards]
    counted = sum(s in ("confirmed", "ruled") for s in states)
    return {
        "clock": hall.round_clock(engine, event, round_no),
        "status": status,
        "board_numbers": [b.board for b in status[0].boards] if status else [],
        "summary": {"done": counted, "total": len(states),
                    "disputed": states.count("disputed")},
    }


@router.get("/desk/e/{event}/round/{round_no}")
def round_page(request: Request, event: str, round_no: int) -> Response:
    """Everything the director does during a round, on one page."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    rnd = events.get_round(engine, info.name, round_no)
    teams = sorted({t for m in rnd.matches for t in (m.team_x, m.team_y)})
    return show(
        request, "desk_round.html", info=info, rnd=rnd, teams=teams,
        arrivals=hall.arrivals(engine, info.name, round_no),
        due=hall.late_rulings_due(engine, info.name, round_no),
        pending=hall.pending_reports(engine, info.name, round_no),
        disputes=hall.disputes(engine, info.name, round_no),
        rulings=hall.rulings(engine, info.name, round_no),
        requests=hall.table_requests(engine, info.name, round_no),
        director_minutes=events.director_minutes(engine, info.name),
        history=[_said(h, language_of(request)) for h in events.result_log(engine, info.name,
                                                                       round_no)],
        live=_live(engine, info.name, round_no, bool(rnd.boards)), poll_ms=POLL_MS,
        live_url=round_url(info.name, round_no, "/live"),
        categories=hall.CATEGORIES, effects=hall.EFFECTS,
        clock_settings=hall.CLOCK_SETTINGS, max_move=hall.MAX_MOVE,
    )


@router.get("/desk/e/{event}/round/{round_no}/live")
def round_live(request: Request, event: str, round_no: int) -> Response:
    """The live part of the round's page (clock and status grid), for its poll: 401
    without the director's session (the page then stops polling)."""
    if director_or_none(request) is None:
        return Response(status_code=401)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    rnd = events.get_round(engine, info.name, round_no)
    response: Response = page(request, "desk_live.html", info=info, rnd=rnd,
                              live=_live(engine, info.name, round_no, bool(rnd.boards)))
    response.headers["Cache-Control"] = "no-store"  # and the page's flash stays for the page
    return response


# --- the round's actions ------------------------------------------------------------------


@router.post("/desk/e/{event}/round/{round_no}/start")
def start_round(
    request: Request, event: str, round_no: int, csrf: str = Form(""),
    minutes: str = Form(str(hall.CLOCK_SETTINGS["minutes"].default)),
    warning_minutes: str = Form(str(hall.CLOCK_SETTINGS["warning_minutes"].default)),
    correction_minutes: str = Form(str(hall.CLOCK_SETTINGS["correction_minutes"].default)),
) -> Response:
    """Start the round's clock (``hall.start_round``: its bounds are the library's,
    ``hall.CLOCK_SETTINGS``, which the form's fields show)."""

    def action(engine: Engine, who: str) -> Flash:
        hall.start_round(
            engine, event, round_no, who,
            minutes=int_of(minutes, "desk.field.minutes", True) or 0,
            warning_minutes=int_of(warning_minutes, "desk.field.warning_minutes", True) or 0,
            correction_minutes=int_of(correction_minutes, "desk.field.correction_minutes",
                                      True) or 0,
        )
        return "desk.flash.started", {"n": round_no}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/checkin")
def check_in(
    request: Request, event: str, round_no: int, csrf: str = Form(""), team: str = Form(""),
    back: str = Form("round"),
) -> Response:
    """Check a team in (``hall.check_in``: idempotent; its lateness is the library's)."""

    def action(engine: Engine, who: str) -> Flash:
        name = text_of(team)
        if name is None:
            raise DeskInput("desk.error.required", field={"t": "desk.field.team"})
        arrival = hall.check_in(engine, event, round_no, name, who)
        return "desk.flash.checked_in", {"team": arrival.team}

    where = event_url(event) if back == "event" else round_url(event, round_no)
    return act(request, csrf, where, action)


@router.post("/desk/e/{event}/round/{round_no}/rulings")
def record_ruling(
    request: Request, event: str, round_no: int, csrf: str = Form(""), table: str = Form(""),
    category: str = Form(""), effect: str = Form("none"), team: str = Form(""),
    board: str = Form(""), room: str = Form(""), result: str = Form(""),
    reason: str = Form(""), chief: str = Form(""),
) -> Response:
    """Record a ruling (``hall.record_ruling``): its category, effect and reason."""

    def action(engine: Engine, who: str) -> Flash:
        number = int_of(table, "desk.field.table", True) or 0
        ruling = hall.record_ruling(
            engine, event, round_no, number, category.strip(), effect.strip(), who,
            reason.strip(), team=text_of(team), board=int_of(board, "desk.field.board"),
            room=text_of(room), ns_result=result_of(result), chief=chief_of(chief),
        )
        return "desk.flash.ruled", {"table": ruling.table}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/disputes/{report_id}/settle")
def settle_dispute(
    request: Request, event: str, round_no: int, report_id: int, csrf: str = Form(""),
    reason: str = Form(""), finish: str = Form(""), result: str = Form(""),
    unfinished: str = Form(""), chief: str = Form(""),
) -> Response:
    """Settle a disputed report (``hall.settle_dispute``): exactly one of a finishing
    order, a result or an unfinished reason, with the reason of the decision."""

    def action(engine: Engine, who: str) -> Flash:
        report = hall.settle_dispute(
            engine, event, report_id, who, reason.strip(), finish=text_of(finish),
            ns_result=result_of(result), unfinished=text_of(unfinished), chief=chief_of(chief),
        )
        return "desk.flash.settled", {"table": report.table, "board": report.board}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/close")
def close_round(request: Request, event: str, round_no: int,
                csrf: str = Form("")) -> Response:
    """Close and score the round (``hall.close_round``; refused naming a missing board)."""

    def action(engine: Engine, who: str) -> Flash:
        hall.close_round(engine, event, round_no, who)
        return "desk.flash.closed", {"n": round_no}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/publish")
def publish_round(request: Request, event: str, round_no: int,
                  csrf: str = Form("")) -> Response:
    """Publish (公示) the closed round (``hall.publish_round``)."""

    def action(engine: Engine, who: str) -> Flash:
        hall.publish_round(engine, event, round_no, who)
        return "desk.flash.published", {"n": round_no}

    return act(request, csrf, round_url(event, round_no), action)


@router.post("/desk/e/{event}/round/{round_no}/corrections")
def correct_result(
    request: Request, event: str, round_no: int, csrf: str = Form(""), table: str = Form(""),
    board: str = Form(""), room: str = Form(""), result: str = Form(""),
    finish: str = Form(""), reason: str = Form(""), chief: str = Form(""),
) -> Response:
    """The director sets a room's result from a finishing order or an N–S result (both:
    they must agree) (``hall.director_correct``: logged; refused when it changes nothing;
    after the directors' limit on a published round only as the chief director)."""

    def action(engine: Engine, who: str) -> Flash:
        number = int_of(table, "desk.field.table", True) or 0
        which = int_of(board, "desk.field.board", True) or 0
        ns, order = result_of(result), text_of(finish)
        if ns is None and order is None:
            raise DeskInput("desk.error.required", field={"t": "lw.field.finish"})
        changed = hall.director_correct(engine, event, round_no, number, which, room.strip(),
                                        ns, who, reason.strip(), finish=order,
                                        chief=chief_of(chief))
        key = "desk.flash.corrected" if changed else "desk.flash.correction_unchanged"
        return key, {"table": number, "board": which}

    return act(request, csrf, round_url(event, round_no), action)


# --- table cards ----------------------------------------------------------------------------


@router.get("/desk/e/{event}/round/{round_no}/cards")
def cards_page(request: Request, event: str, round_no: int) -> Response:
    """Ask before issuing the round's table cards (issuing voids the cards before)."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    rnd = events.get_round(engine, info.name, round_no)
    return show(request, "desk_cards_issue.html", info=info, rnd=rnd)


# the round's further actions and the cards (duplicate/web/pages/desk_actions.py)



def _said(change: dict[str, Any], lang: str) -> dict[str, Any]:
    """A change of the result log in the page's language: the results and the reasons the
    library wrote in words (a reason a table or director typed stays as typed)."""
    key = f"cli.val.{change['action']}"
    what = translator(lang)(key) if key in catalogue() else change["action"]
    return change | {"what": what, "before": state_words(change["before"], lang),
                     "after": state_words(change["after"], lang),
                     "reason": reason_words(said(change["reason"], lang), lang)}
