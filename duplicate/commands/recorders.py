"""``guandan event recorder-cards EVENT --round N``: recorders' tokens for a round's tables
(docs/CAPTURE.md), printed one line a table and room with the address of the recorder's
page (``/r/{token}``) and of the device protocol (``/api/capture/{token}``). Issuing
again voids the earlier recorders' cards of those tables; the table cards stay."""

from __future__ import annotations

import click

from duplicate.commands.common import db_errors, db_option, open_database, say


@click.command("recorder-cards")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True,
              help="The round whose tables get recorders' cards.")
@click.option("--table", type=click.IntRange(min=1), default=None,
              help="Only this table's (a lost card).")
@click.option("--public-url", envvar="GUANDAN_PUBLIC_URL", metavar="URL", required=True,
              help="The address the recorders' phones reach the hall at (default: "
              "$GUANDAN_PUBLIC_URL).")
@click.option("--by", metavar="NAME", help="Who issues the cards (default: the login name).")
@db_option
@db_errors
def recorder_cards_command(event: str, round_no: int, table: int | None, public_url: str,
                           by: str | None) -> None:
    """Issue recorders' tokens for a round of EVENT: one a table and room, each the address
    of its recorder's page and of the device protocol. Keep them private."""
    url = public_url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise click.BadParameter(say("cli.err.url", shown=repr(url)),
                                 param_hint="--public-url")
    from duplicate import capture  # the database's library: not loaded for --help
    from duplicate.store.data import default_by

    with open_database() as engine:
        cards = capture.issue_recorder_tokens(engine, event, round_no, by or default_by(),
                                              table=table)
    for c in cards:
        click.echo(say("capture.cli.card", table=c.table, room=say(f"hall.room.{c.room}"),
                       page=f"{url}/r/{c.token}", api=f"{url}/api/capture/{c.token}"))
