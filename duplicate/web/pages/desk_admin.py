"""The event desk's further actions and the board sets (included by :mod:`duplicate.web.pages.desk`).

* a team renamed, withdrawn; a player renamed, substituted (``events.rename_team``,
  ``withdraw_team``, ``rename_player``, ``substitute_player``: each logged with the
  director's reason);
* the event's time zone changed (``events.set_time_zone``, logged with the reason);
* ``.gdn`` records imported, uploaded (``events.import_texts``; one transaction a file);
* the directors' limit after a round's publication, set by the chief director
  (``events.set_director_minutes``: minutes, or none);
* an event deleted, after a page that asks for its name and the reason
  (``events.delete_event``);
* ``GET /desk/e/{event}/log``: the event's change log in the page's language
  (``events.admin_log``, as ``guandan event log`` lists it);
* ``GET /desk/sets``: the stored board sets (``boards.list_sets``), and a new secret seed
  made for the event's boards: ``POST /desk/seed`` draws it and keeps it only in a
  short-lived cookie of the desk's; ``GET /desk/seed`` shows its commitment (to publish
  before the event) and ``GET /desk/seed/file`` downloads the seed file (to keep secret,
  then upload in "assign boards"). A reload shows the same seed and draws none.

Every form follows Post/Redirect/Get through :func:`duplicate.web.pages.desk.act`.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import Response
from sqlalchemy import Engine

from duplicate import events
from duplicate.boards import list_sets
from duplicate.dealing import SECRET_BYTES, parse_seed_file, seed_file_bytes
from duplicate.i18n.stored import action_said
from duplicate.limits import checked_name
from duplicate.records import Correction
from duplicate.web.context import language_of
from duplicate.web.deps import director_or_none, engine_of
from duplicate.web.pages.desk_base import (
    DeskInput,
    Flash,
    act,
    chief_of,
    event_url,
    int_of,
    redirect,
    secure,
    show,
    text_of,
    to_login,
)

router: APIRouter = APIRouter(include_in_schema=False)

#: The cookie holding a seed the desk just drew (its page and its download read it).
SEED = "guandan_desk_seed"
#: How long the seed can be downloaded (seconds).
SEED_AGE = 30 * 60
#: The most files, and bytes per file, one import from the desk takes.
MAX_FILES, MAX_FILE_BYTES = 64, 2 * 1024 * 1024


@router.post("/desk/e/{event}/director-limit")
def director_limit(request: Request, event: str, csrf: str = Form(""), minutes: str = Form(""),
                   reason: str = Form("")) -> Response:
    """The chief director sets how long after a round's publication the directors may
    change its results (``events.set_director_minutes``; empty: no limit; logged)."""

    def action(engine: Engine, who: str) -> Flash:
        limit = int_of(minutes, "desk.field.director_minutes")
        events.set_director_minutes(engine, event, limit, who,
                                    _required(reason, "desk.field.reason"))
        if limit is None:
            return "desk.flash.director_no_limit", {}
        return "desk.flash.director_minutes", {"minutes": limit}

    return act(request, csrf, event_url(event), action)


def _required(value: str, field: str) -> str:
    text = text_of(value)
    if text is None:
        raise DeskInput("desk.error.required", field={"t": field})
    return text


@router.post("/desk/e/{event}/team-change")
def team_change(
    request: Request, event: str, csrf: str = Form(""), what: str = Form(""),
    team: str = Form(""), old: str = Form(""), new: str = Form(""), reason: str = Form(""),
) -> Response:
    """A team renamed or withdrawn, a player renamed or substituted (``what``:
    rename_team, withdraw, rename_player, substitute)."""

    def action(engine: Engine, who: str) -> Flash:
        why = _required(reason, "desk.field.reason")
        if what == "rename_team":
            name = checked_name(_required(new, "desk.field.new_name"), "team")
            events.rename_team(engine, event, _required(team, "desk.field.team"), name,
                               by=who, reason=why)
            return "desk.flash.team_renamed", {"old": team, "new": name}
        if what == "withdraw":
            events.withdraw_team(engine, event, _required(team, "desk.field.team"), by=who,
                                 reason=why)
            return "desk.flash.withdrawn", {"team": team}
        if what == "rename_player":
            name = checked_name(_required(new, "desk.field.new_name"), "player")
            events.rename_player(engine, event, _required(old, "desk.field.player"), name,
                                 by=who, reason=why)
            return "desk.flash.player_renamed", {"old": old, "new": name}
        if what == "substitute":
            name = checked_name(_required(new, "desk.field.new_name"), "player")
            events.substitute_player(engine, event, _required(team, "desk.field.team"),
                                     _required(old, "desk.field.player"), name, by=who,
                                     reason=why)
            return "desk.flash.substituted", {"team": team, "old": old, "new": name}
        raise DeskInput("desk.error.unknown_action")

    return act(request, csrf, event_url(event), action)


@router.post("/desk/e/{event}/time-zone")
def time_zone(
    request: Request, event: str, csrf: str = Form(""), time_zone: str = Form(""),
    reason: str = Form(""),
) -> Response:
    """The event's times shown in another zone from now on (``events.set_time_zone``)."""

    def action(engine: Engine, who: str) -> Flash:
        zone = _required(time_zone, "desk.field.time_zone")
        old = events.set_time_zone(engine, event, zone, by=who,
                                   reason=_required(reason, "desk.field.reason"))
        return "desk.flash.zone_changed", {"zone": zone.strip(), "old": old}

    return act(request, csrf, event_url(event), action)


@router.post("/desk/e/{event}/import")
def import_records(
    request: Request, event: str, csrf: str = Form(""), round_no: str = Form(""),
    correction: str = Form(""), files: Annotated[list[UploadFile] | None, File()] = None,
    chief: str = Form(""),
) -> Response:
    """Import uploaded ``.gdn`` files (``events.import_texts``): a different record for a
    board already in needs the correction's reason."""
    uploads = list(files or [])[: MAX_FILES + 1]
    read = [(u.filename or f"file {i + 1}", u.file.read(MAX_FILE_BYTES + 1))
            for i, u in enumerate(uploads)]

    def action(engine: Engine, who: str) -> Flash:
        given = [(name, data) for name, data in read if data]
        if not given:
            raise DeskInput("desk.error.required", field={"t": "desk.field.gdn_files"})
        if len(given) > MAX_FILES or any(len(d) > MAX_FILE_BYTES for _, d in given):
            raise DeskInput("desk.error.too_large", files=MAX_FILES,
                            mb=MAX_FILE_BYTES // (1024 * 1024))
        try:
            texts = [d.decode("utf-8-sig") for _, d in given]
        except UnicodeDecodeError:
            raise DeskInput("desk.error.not_utf8") from None
        why = text_of(correction)
        summary = events.import_texts(
            engine, event, texts, round_no=int_of(round_no, "desk.field.round"),
            correction=Correction(why, who) if why else None, by=who,
            names=[name[:200] for name, _ in given], chief=chief_of(chief),
        )
        return "desk.flash.imported", {
            "files": len(texts), "records": summary.records, "added": summary.added,
            "unchanged": summary.unchanged, "corrected": summary.corrected,
        }

    return act(request, csrf, event_url(event), action)


@router.get("/desk/e/{event}/log")
def log_page(request: Request, event: str) -> Response:
    """The event's change log: every change a director made, who, when and why, in the
    page's language."""
    if director_or_none(request) is None:
        return to_login(request)
    engine = engine_of(request)
    info = events.get_event(engine, event)
    lang = language_of(request)
    rows = [{**r, "action": action_said(r["action"], lang)}
            for r in events.admin_log(engine, info.name, lang)]
    return show(request, "desk_log.html", info=info, rows=rows)


@router.get("/desk/e/{event}/delete")
def delete_page(request: Request, event: str) -> Response:
    """Asks before deleting the event: its name typed again, and the reason."""
    if director_or_none(request) is None:
        return to_login(request)
    info = events.get_event(engine_of(request), event)
    return show(request, "desk_delete.html", info=info)


@router.post("/desk/e/{event}/delete")
def delete_event(request: Request, event: str, csrf: str = Form(""), confirm: str = Form(""),
                 reason: str = Form("")) -> Response:
    """Delete the event with its teams, rounds and results (``events.delete_event``)."""

    def action(engine: Engine, who: str) -> Flash:
        if (confirm or "").strip() != event:
            raise DeskInput("desk.error.confirm_name", event=event)
        events.delete_event(engine, event, by=who, reason=_required(reason, "desk.field.reason"))
        return "desk.flash.deleted", {"event": event}

    return act(request, csrf, event_url(event, "/delete"), action, success=lambda _f: "/desk")


# --- board sets and seeds ---------------------------------------------------------------------


def _seed_of(request: Request) -> bytes | None:
    raw = request.cookies.get(SEED, "")
    try:
        secret = bytes.fromhex(raw)
    except ValueError:
        return None
    return secret if len(secret) == SECRET_BYTES else None


@router.get("/desk/sets")
def sets_page(request: Request) -> Response:
    """The stored board sets, and the seed the desk just drew (if any)."""
    if director_or_none(request) is None:
        return to_login(request)
    secret = _seed_of(request)
    seed = parse_seed_file(seed_file_bytes(secret)) if secret is not None else None
    return show(request, "desk_sets.html", sets=list_sets(engine_of(request)), seed=seed)


@router.post("/desk/seed")
def make_seed(request: Request, csrf: str = Form("")) -> Response:
    """Draw a new secret seed (256 bits from the operating system); nothing is stored."""
    secret = secrets.token_bytes(SECRET_BYTES)

    def action(engine: Engine, who: str) -> Flash:
        commitment = parse_seed_file(seed_file_bytes(secret)).commitment
        return "desk.flash.seed", {"commitment": commitment[:16]}

    response = act(request, csrf, "/desk/sets", action)
    if director_or_none(request) is not None and response.headers.get("location") == "/desk/sets":
        response.set_cookie(SEED, secret.hex(), max_age=SEED_AGE, path="/desk", httponly=True,
                            samesite="strict", secure=secure(request))
    return response


@router.get("/desk/seed/file")
def seed_file(request: Request) -> Response:
    """The seed file the desk just drew, as a download (keep it secret until the event's
    boards have been played; then publish it: ``guandan deals reveal``)."""
    if director_or_none(request) is None:
        return to_login(request)
    secret = _seed_of(request)
    if secret is None:
        return redirect("/desk/sets", ("desk.flash.seed_gone", {}), error=True)
    return Response(
        seed_file_bytes(secret), media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="guandan-seed.json"',
                 "Cache-Control": "no-store"},
    )
