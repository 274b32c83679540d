"""``guandan event`` commands of the director's changes, each logged (``event log``):
releasing a board, fixing names, substitutes, withdrawals, deleting an
event, the directors' limit after a round's publication. Registered on the ``event`` group by ``duplicate/commands/events.py``."""

from __future__ import annotations

from typing import Any

import click

from duplicate.commands.common import (
    cell_word,
    cli_lang,
    db_errors,
    db_option,
    emit_rows,
    open_database,
    output_options,
    say,
)
from duplicate.commands.words import minute_text
from duplicate.standings import TIEBREAK_ORDERS


@click.command("release")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True, help="Round.")
@click.option("--board", type=click.IntRange(min=1), required=True, help="Board number.")
@click.option("--by", required=True, help="Who releases it.")
@click.option("--reason", required=True, help="Why (a table withdrew, a record is lost, ...).")
@db_option
@db_errors
def event_release_command(event: str, round_no: int, board: int, by: str, reason: str) -> None:
    """Release a board to the players before every table of its round has it in: its
    hands and plays go into exports and the report from now on (logged)."""
    from duplicate.events import release_board

    with open_database() as engine:
        release_board(engine, event, round_no, board, by, reason)
    click.echo(say("cli.admin.released", round=round_no, board=board))


@click.command("log")
@click.argument("event", required=False)
@output_options
@db_option
@db_errors
def event_log_command(event: str | None, fmt: str) -> None:
    """List the director's changes (of EVENT, or every one): releases, boards reused,
    renames, substitutions, withdrawals, time zones, deletions; who, when (in the event's
    time zone; a change of no event or of a deleted one in UTC), why."""
    from duplicate.events import admin_log, list_events
    from duplicate.i18n.stored import who_said

    lang = cli_lang() if fmt == "table" else "en"  # --json and --csv keep the English
    with open_database() as engine:
        rows = admin_log(engine, event, lang)
        zones = {e.name: e.time_zone for e in list_events(engine)}
    if fmt == "table":  # for a person: the time to the minute in its event's zone
        rows = [{**r, "at": minute_text(r.get("at"), zones.get(r.get("event") or "", "UTC")),
                 "by": who_said(r.get("by"), lang)}
                for r in rows]
    emit_rows(rows, fmt, ("at", "action", "event", "set", "detail", "by", "reason"))


_who = [
    click.option("--by", required=True, help="Who makes the change."),
    click.option("--reason", required=True, help="Why."),
]


def _with_who(f: Any) -> Any:
    for option in reversed(_who):
        f = option(f)
    return f


@click.command("rename-team")
@click.argument("event")
@click.argument("old")
@click.argument("new")
@_with_who
@db_option
@db_errors
def event_rename_team_command(event: str, old: str, new: str, by: str, reason: str) -> None:
    """Fix the name of team OLD of EVENT to NEW (logged)."""
    from duplicate.events import rename_team

    with open_database() as engine:
        rename_team(engine, event, old, new, by=by, reason=reason)
    click.echo(say("cli.admin.team_renamed", old=old, new=new))


@click.command("rename-player")
@click.argument("event")
@click.argument("old")
@click.argument("new")
@_with_who
@db_option
@db_errors
def event_rename_player_command(event: str, old: str, new: str, by: str, reason: str) -> None:
    """Fix the name of player OLD of EVENT to NEW (logged); records imported from now on
    name NEW."""
    from duplicate.events import rename_player

    with open_database() as engine:
        rename_player(engine, event, old, new, by=by, reason=reason)
    click.echo(say("cli.admin.player_renamed", old=old, new=new))


@click.command("substitute")
@click.argument("event")
@click.argument("team")
@click.argument("out")
@click.argument("new")
@_with_who
@db_option
@db_errors
def event_substitute_command(
    event: str, team: str, out: str, new: str, by: str, reason: str
) -> None:
    """Player NEW plays in OUT's place for TEAM from now on (logged); the matches OUT
    played stand as played."""
    from duplicate.events import substitute_player

    with open_database() as engine:
        substitute_player(engine, event, team, out, new, by=by, reason=reason)
    click.echo(say("cli.admin.substituted", team=team, new=new, out=out))


@click.command("withdraw")
@click.argument("event")
@click.argument("team")
@_with_who
@db_option
@db_errors
def event_withdraw_command(event: str, team: str, by: str, reason: str) -> None:
    """Withdraw TEAM from EVENT: no further pairings; its played results stand (logged)."""
    from duplicate.events import withdraw_team

    with open_database() as engine:
        withdraw_team(engine, event, team, by=by, reason=reason)
    click.echo(say("cli.admin.withdrawn", team=team))


@click.command("time-zone")
@click.argument("event")
@click.argument("zone")
@_with_who
@db_option
@db_errors
def event_time_zone_command(event: str, zone: str, by: str, reason: str) -> None:
    """Show EVENT's times in ZONE, an IANA time zone such as Asia/Shanghai or Europe/London
    (logged); the stored times do not change."""
    from duplicate.events import set_time_zone

    with open_database() as engine:
        old = set_time_zone(engine, event, zone, by=by, reason=reason)
    click.echo(say("cli.admin.zone_changed", event=event, zone=zone.strip(), old=old))


@click.command("tiebreaks")
@click.argument("event")
@click.argument("order", metavar="ORDER", type=click.Choice(list(TIEBREAK_ORDERS)))
@_with_who
@db_option
@db_errors
def event_tiebreaks_command(event: str, order: str, by: str, reason: str) -> None:
    """Rank EVENT by ORDER of tie-breaks from now on (logged): 'jiangsu' (seeds/000) or
    'friendly' (seeds/004); the standings, the next Swiss pairing and the report follow it."""
    from duplicate.events import set_tiebreaks

    with open_database() as engine:
        old = set_tiebreaks(engine, event, order, by=by, reason=reason)
    click.echo(say("cli.admin.tiebreaks", event=event, order=cell_word(order),
                   old=cell_word(old)))
    click.echo(say(f"standings.ranked_by.{order}"))


@click.command("delete")
@click.argument("event")
@_with_who
@db_option
@db_errors
def event_delete_command(event: str, by: str, reason: str) -> None:
    """Delete EVENT with its teams, rounds and results (logged); its board sets stay."""
    from duplicate.events import delete_event

    with open_database() as engine:
        delete_event(engine, event, by=by, reason=reason)
    click.echo(say("cli.admin.event_deleted", event=event))


def limit_minutes(text: str) -> int | None:
    """A directors' limit as typed: whole minutes, or ``none`` (no limit)."""
    if text.strip().lower() in ("none", "no", "off"):
        return None
    try:
        return int(text)
    except ValueError:
        raise click.BadParameter(say("cli.err.minutes", shown=repr(text[:40]))) from None


@click.command("director-limit")
@click.argument("event")
@click.argument("minutes", metavar="MINUTES|none")
@_with_who
@db_option
@db_errors
def event_director_limit_command(event: str, minutes: str, by: str, reason: str) -> None:
    """Set how long after a round's publication (公示) the directors may change its
    results: MINUTES (0 to 10080; the default is 20), or 'none' for no limit. The chief
    director's setting (seeds/000 更正), logged; after the limit only a change made as
    the chief director (--chief) is accepted."""
    from duplicate.events import set_director_minutes

    limit = limit_minutes(minutes)
    with open_database() as engine:
        set_director_minutes(engine, event, limit, by, reason)
    if limit is None:
        click.echo(say("cli.admin.director_no_limit", event=event))
    else:
        click.echo(say("cli.admin.director_minutes", event=event, minutes=limit))


ADMIN_COMMANDS = (
    event_release_command,
    event_log_command,
    event_rename_team_command,
    event_rename_player_command,
    event_substitute_command,
    event_withdraw_command,
    event_time_zone_command,
    event_tiebreaks_command,
    event_delete_command,
    event_director_limit_command,
)
