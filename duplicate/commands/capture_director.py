"""The director's side of plays captured at the table, at the command line (docs/CAPTURE.md):
``guandan event live`` (the live view's choice and the spectator link) and ``guandan event
correct-play``, ``stop-capture``, ``take-back`` (one library call each,
``duplicate.capture``: logged with who, when, why, before and after)."""

from __future__ import annotations

import click

from duplicate.commands.common import db_errors, db_option, open_database, say

_ROOM = click.Choice(["open", "closed"])


def _board_options(func: click.decorators.FC) -> click.decorators.FC:
    """--round, --table, --room, --board, --by, --reason: which captured board, who, why."""
    for option in reversed([
        click.option("--round", "round_no", type=click.IntRange(min=1), required=True,
                     help="The round."),
        click.option("--table", type=click.IntRange(min=1), required=True, help="The table."),
        click.option("--room", type=_ROOM, required=True, help="The room."),
        click.option("--board", type=click.IntRange(min=1), required=True, help="The board."),
        click.option("--by", metavar="NAME", help="Who decides (default: the login name)."),
        click.option("--reason", required=True, help="Why (kept in the log)."),
    ]):
        func = option(func)
    return func


def _said(done: object) -> None:
    from duplicate.capture import Corrected  # the database's library: not loaded for --help

    assert isinstance(done, Corrected)
    before, after = done.before, done.after
    if done.kind != "play":  # states, in words
        before, after = say(f"live.state.{before}"), say(f"live.state.{after}")
    click.echo(say("live.cli.done", kind=say(f"live.kind.{done.kind}"), before=before,
                   after=after, state=say(f"live.state.{done.state}")))


@click.command("correct-play")
@click.argument("event")
@_board_options
@click.option("--seq", type=click.IntRange(min=1), required=True,
              help="The number of the action to correct.")
@click.option("--seat", type=click.Choice(["N", "E", "S", "W"]), required=True,
              help="The seat that really acted.")
@click.option("--cards", default="", metavar="CARDS",
              help="The cards really played, as in a .gdn play line ('S3 H3'); none: a pass.")
@db_option
@db_errors
def capture_correct_command(event: str, round_no: int, table: int, room: str, board: int,
                            by: str | None, reason: str, seq: int, seat: str,
                            cards: str) -> None:
    """Correct a play captured at the table; every later action must stay legal."""
    from duplicate import capture
    from duplicate.store.data import default_by

    with open_database() as engine:
        done = capture.correct_play(engine, event, round_no, table, room, board, seq, seat,
                                    cards.split(), by or default_by(), reason)
    _said(done)


@click.command("stop-capture")
@click.argument("event")
@_board_options
@db_option
@db_errors
def capture_unfinished_command(event: str, round_no: int, table: int, room: str, board: int,
                               by: str | None, reason: str) -> None:
    """Mark a captured deal still being played unfinished: the room's result is unfinished."""
    from duplicate import capture
    from duplicate.store.data import default_by

    with open_database() as engine:
        done = capture.mark_unfinished(engine, event, round_no, table, room, board,
                                       by or default_by(), reason)
    _said(done)


@click.command("take-back")
@click.argument("event")
@_board_options
@db_option
@db_errors
def capture_take_back_command(event: str, round_no: int, table: int, room: str, board: int,
                              by: str | None, reason: str) -> None:
    """Take back the record of an ended captured deal: it no longer counts."""
    from duplicate import capture
    from duplicate.store.data import default_by

    with open_database() as engine:
        done = capture.take_back(engine, event, round_no, table, room, board,
                                 by or default_by(), reason)
    _said(done)


@click.command("live")
@click.argument("event")
@click.option("--mode", type=click.Choice(["released", "delayed"]), default=None,
              help="released: spectators see a board once released; delayed: the spectator "
              "link shows every captured board late by --delay.")
@click.option("--delay", type=click.IntRange(min=0, max=1440), default=None,
              help="The spectator link's delay in minutes.")
@click.option("--link", is_flag=True,
              help="Issue a new spectator link (the earlier one stops working) and print it.")
@click.option("--public-url", envvar="GUANDAN_PUBLIC_URL", metavar="URL", default=None,
              help="The hall's address, for the link (default: $GUANDAN_PUBLIC_URL).")
@click.option("--by", metavar="NAME", help="Who decides (default: the login name).")
@db_option
@db_errors
def live_command(event: str, mode: str | None, delay: int | None, link: bool,
                 public_url: str | None, by: str | None) -> None:
    """Show or set the live view of EVENT's captured boards, or issue a spectator link."""
    from duplicate import capture
    from duplicate.store.data import default_by

    if link and not public_url:
        raise click.BadParameter(say("live.cli.url_needed"), param_hint="--public-url")
    with open_database() as engine:
        if mode is not None or delay is not None:
            now = capture.live_settings(engine, event)
            settings = capture.set_live(engine, event, mode or now.mode, delay,
                                        by or default_by())
        else:
            settings = capture.live_settings(engine, event)
        token = capture.issue_watch_link(engine, event, by or default_by()) if link else None
    click.echo(say("live.cli.settings", mode=settings.mode, delay=settings.delay))
    if token is not None and public_url:
        click.echo(say("live.cli.link", url=f"{public_url.strip().rstrip('/')}/w/{token}"))
