"""``guandan event result`` and ``event history``: a room's result reported without a record
(the finishing order from the table) and the log of its changes (duplicate.store)."""

from __future__ import annotations

import click

from duplicate.commands.common import (
    cell_word,
    cli_lang,
    db_errors,
    db_option,
    emit_rows,
    match_board_options,
    open_database,
    say,
)
from duplicate.commands.words import minute_text
from duplicate.i18n.stored import reason_words, state_words


def _room_tag(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from duplicate.i18n.typed import room_tag

    return room_tag(value).lower()


_ROOM = click.option(
    "--room",
    type=click.Choice(["open", "closed", "开室", "闭室"], case_sensitive=False),
    required=True,
    callback=_room_tag,
    help="The room.",
)


@click.command("result")
@click.argument("event")
@match_board_options
@_ROOM
@click.option(
    "--finish",
    metavar="'N S'",
    help="The finishing order: the first two seats for a double down, else three.",
)
@click.option("--result", "result", metavar="'NS +2'", help="Or the result, e.g. 'EW +1'.")
@click.option("--by", metavar="NAME", help="Who reports it (default: the login name).")
@click.option(
    "--reason", metavar="TEXT", default=None, help="Why.",
)
@click.option("--correction", is_flag=True, help="Replace a stored result that differs.")
@click.option("--chief", is_flag=True,
              help="As the chief director (裁判长): a correction of a published round's "
              "result after the directors' limit (logged as such).")
@db_option
@db_errors
def event_result_command(
    event: str,
    round_no: int,
    table: int,
    board: int,
    room: str,
    finish: str | None,
    result: str | None,
    by: str | None,
    reason: str | None,
    correction: bool,
    chief: bool,
) -> None:
    """Report a room's result without its record (a phone at the table sends the finishing
    order). A record imported later backs it when it agrees and is refused when it does
    not (unless a correction).

    \b
    Example: guandan event result "Huai'an Cup" --round 2 --table 17 --board 9 --room open \\
               --finish "N S" --by "Li"
    """
    from duplicate.events import parse_result, report_result
    from duplicate.store import Author, default_by

    if (finish is None) == (result is None):
        raise click.UsageError(say("cli.err.finish_or_result"))
    ns = parse_result(result) if result is not None else None
    from duplicate.i18n.stored import coded

    who = Author(by or default_by(), reason or coded("lw.reason.no_record"),
                 correction=correction)
    with open_database() as engine:
        change = report_result(
            engine, event, round_no, table, board, room.lower(), who, finish=finish, ns_result=ns,
            chief=chief,
        )
    lang = cli_lang()
    where = say("cli.where", round=round_no, table=table, board=board,
                room=say(f"cli.val.{room.lower()}"))
    if change is None:
        click.echo(say("cli.result.unchanged", where=where))
    else:
        before = state_words(change.old.describe(), lang) if change.old else say("cli.no_result")
        after, action = state_words(change.new.describe(), lang), cell_word(change.action)
        if lang != "en" and str(after).endswith(f"（{action}）"):  # 南北升3级（报分）: said once
            click.echo(say("out.result.changed", where=where, before=before, after=after))
        else:
            click.echo(say("cli.result.changed", where=where, before=before, after=after,
                           action=action))


@click.command("history")
@click.argument("event")
@match_board_options
@_ROOM
@click.option("--json", "as_json", is_flag=True, help="Write JSON for programs.")
@db_option
@db_errors
def event_history_command(
    event: str, round_no: int, table: int, board: int, room: str, as_json: bool
) -> None:
    """Every change of a board's result in one room: action, who, when (in the event's time
    zone), why, before, after, and the finishing order the result after it was counted
    from."""
    from duplicate.events import get_event, room_history
    from duplicate.i18n.stored import finish_said, said, who_said

    with open_database() as engine:
        rows = room_history(engine, event, round_no, table, board, room.lower())
        zone = get_event(engine, event).time_zone
    lang = cli_lang()
    emit_rows(
        ({**c.to_dict(), "at": minute_text(c.to_dict().get("at"), zone),
          "by": who_said(c.by, lang),
          "reason": reason_words(said(c.reason, lang), lang),
          "before": state_words(c.to_dict().get("before"), lang),
          "after": state_words(c.to_dict().get("after"), lang),
          # who went out first: a change of it is a change of the room's result
          "finish": finish_said(c.new.finish, lang) if c.new.finish else ""} if not as_json
         else c.to_dict()
         for c in rows),
        "json" if as_json else "table",
        ("action", "by", "at", "reason", "before", "after", "finish"),
    )
