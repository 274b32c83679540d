"""``guandan demo`` and ``guandan pairs``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from duplicate.commands.common import (
    LANG_CHOICE,
    cell_word,
    check_output_dir,
    cli_lang,
    db_errors,
    emit_rows,
    error_text,
    output_options,
    parse_variants,
    say,
    write_output,
)
from duplicate.commands.events import EVENT_BOARD_COLUMNS

if TYPE_CHECKING:
    from collections.abc import Sequence

    from duplicate.hall import TableCard
    from duplicate.web.settings import Settings

# demo (the newcomer's first command: duplicate.demo) -----------------------------------


@click.command("demo")
@click.option("--db", "db_url", metavar="URL",
              help="Database URL (default: sqlite:///guandan-demo.sqlite here).")
@click.option("--out", "outdir", type=click.Path(file_okay=False), default="guandan-demo-report",
              show_default=True, help="Folder for the HTML report.")
@click.option("--seed", "seed_hex", metavar="HEX", help="Seed of boards and bots (default: new).")
@click.option("--boards", type=click.IntRange(min=1, max=64), default=8, show_default=True,
              help="Boards in the match.")
@click.option("--force", is_flag=True,
              help="Write the report into a folder that already holds files (with --serve, "
              "a folder holding only a demo's report is written over without it).")
@click.option("--serve", is_flag=True,
              help="Then open the demo in the hall service (guandan serve) on --port: the "
              "public pages, the director's desk, the API.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port of the hall service (with --serve).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address the hall service listens on (with --serve): 0.0.0.0 lets phones "
              "on this network open the table links.")
@click.option("--director-password", envvar="GUANDAN_DIRECTOR_PASSWORD", metavar="TEXT",
              help="The desk's password with --serve (default: a new one, printed).")
@db_errors
def demo_command(
    db_url: str | None, outdir: str, seed_hex: str | None, boards: int, force: bool,
    serve: bool, port: int, host: str, director_password: str | None,
) -> None:
    """Show the whole service at work: boards, a two-room bot match, scores, a report.

    Generates a board set, plays a match of two teams of bots in the open and closed
    rooms, replays and scores it in the database, prints it board by board and writes
    the HTML report. With --serve the event has four teams: round 1 is played by the bots
    and published, round 2 is paired and running in the hall service, which it then runs
    on that database (stop it with Ctrl-C). It prints the desk's address and password and
    writes tables.html beside the report: round 2's table cards, a QR code per table and
    seat, to report a board from a phone (with --host 0.0.0.0 on the same network).
    """
    from duplicate.demo import DEFAULT_DB, holds_demo_report, run_demo

    if serve and boards < 2:
        raise click.UsageError(say("demo.err.serve_boards"))
    # README: 'guandan demo', then 'guandan demo --serve' in the same place: the served demo
    # writes over a folder that holds only a demo's report (a second plain demo does not)
    check_output_dir(outdir, force or (serve and holds_demo_report(outdir)))
    # the service's settings are checked before the demo runs: a bad password is said at
    # once, not after a report was written
    served = _demo_settings(db_url or DEFAULT_DB, director_password) if serve else None
    result = run_demo(db_url or DEFAULT_DB, outdir, seed_hex, boards, echo=click.echo,
                      hall_round=served is not None, lang=cli_lang())
    score = result.score.score
    click.echo("")
    emit_rows((r.to_dict() for r in result.boards), "table", EVENT_BOARD_COLUMNS)
    click.echo(say("demo.margin", margin=f"{score.margin:+d}", x=result.match.team_x,
                   y=result.match.team_y, px=f"{score.points_x:g}", py=f"{score.points_y:g}"))
    click.echo(say("demo.report", path=result.report))
    if served is not None:
        base = f"http://{_reachable(host)}:{port}"
        tables = _tables_page(result.cards, base, Path(outdir))
        _serve_demo(served, result.event, host, port, director_password is None, tables,
                    result.cards)


def _demo_settings(db_url: str, password: str | None) -> Settings:
    """The hall's settings for the demo's database (a new password when none is given)."""
    import secrets

    from duplicate.commands.serve import server_settings

    return server_settings(db_url, password or secrets.token_urlsafe(12), None, "")


def _reachable(host: str) -> str:
    """The address phones and browsers use for ``host``: this machine's address on its
    network when listening on every address, else ``host`` itself."""
    import socket

    if host not in ("0.0.0.0", "::", ""):
        return host if ":" not in host else f"[{host}]"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # no packet is sent: it picks the outgoing address
            address: str = s.getsockname()[0]
            return address
    except OSError:
        return "127.0.0.1"


def _tables_page(cards: Sequence[TableCard], base: str, outdir: Path) -> Path:
    """The demo's table links: round 2's cards (a QR code per table and seat) as
    ``tables.html`` beside the report. Only the demo writes it; the service has no such
    page."""
    from duplicate.commands.serve import render_cards
    from duplicate.demo import TABLES_PAGE
    from duplicate.web.cards import card_context

    path = outdir / TABLES_PAGE
    path.write_text(render_cards(cli_lang(None), card_context(cards, base)), encoding="utf-8")
    path.chmod(0o600)  # it holds the tokens, as guandan event table-cards' file does
    return path


def _serve_demo(
    settings: Settings, event: str, host: str, port: int, shown: bool, tables: Path,
    cards: Sequence[TableCard],
) -> None:
    """Serve the demo's database on ``host``:``port`` and say where to look (the password
    too when ``shown``: it was made here)."""
    from urllib.parse import quote

    from duplicate.commands.serve import run_server
    from duplicate.web.cards import token_url

    password = settings.director_password
    base = f"http://{_reachable(host)}:{port}"
    ev = quote(event, safe="")
    round_no = cards[0].round_no if cards else 1
    click.echo("")
    click.echo(say("out.demo.hall", base=base, ev=ev))
    click.echo(say("out.demo.desk", base=base)
               + (say("out.demo.password", password=password) if shown else ""))
    click.echo(say("out.demo.desk_round", base=base, ev=ev, round=round_no))
    click.echo(say("out.demo.table_links", uri=tables.resolve().as_uri()))
    for card in cards:
        click.echo(say("out.demo.table_card", table=card.table, room=cell_word(card.room),
                       report=token_url(base, card.report_token),
                       confirm=token_url(base, card.confirm_token)))
    if host == "127.0.0.1":
        click.echo(say("out.demo.phone"))
    click.echo(say("out.demo.api", base=base))
    run_server(settings, host, port, 1, "warning")


# pairs (a pairs event from its tables' records: duplicate.pairs) -------------------------


@click.command("pairs")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--method",
    type=click.Choice(["mp", "xswing", "butler"]),
    default="mp",
    show_default=True,
    help="Matchpoints (with Neuberg's adjustment), cross-swings, or Butler against a datum.",
)
@click.option("--by-board", is_flag=True, help="Also give every pair's score on every board.")
@click.option(
    "--tables",
    type=click.IntRange(min=1),
    default=None,
    metavar="E",
    help="Times each board was due to be played (default: the most times one was).",
)
@click.option(
    "--unfinished",
    type=click.Choice(["average", "not_scored"]),
    default="average",
    show_default=True,
    help="How a deal whose play list stops before the end is scored.",
)
@click.option(
    "--variant",
    "variants",
    metavar="NAME=VALUE",
    multiple=True,
    help="A rule variant of RULES.md the deals were played under (repeatable).",
)
@click.option("--html", "html_file", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write the session's page (ranking, board by board) to FILE.")
@click.option("--lang", type=LANG_CHOICE, default=None,
              help="Language of the --html page (default: guandan --lang, else English).")
@output_options
def pairs_command(
    files: tuple[str, ...],
    method: str,
    by_board: bool,
    tables: int | None,
    unfinished: str,
    variants: tuple[str, ...],
    html_file: str | None,
    lang: str | None,
    fmt: str,
) -> None:
    """Score a pairs event from the .gdn FILES of its tables and rank the pairs.

    The same boards played at several tables: every record is replayed, a pair is the
    two players named by the North/South or East/West tags, and each N-S result on a
    board is scored against the other tables' (E-W the mirror). Pairs that kept one
    direction are ranked N-S and E-W apart; "2=" marks a tie. --json gives the ranking
    (and with --by-board the boards and per-board detail); --csv the ranking, or with
    --by-board the per-board detail.
    """
    lang = cli_lang(lang)
    from duplicate.errors import DuplicateError
    from duplicate.pairs import score_pairs_files
    from duplicate.scoring import UnfinishedRule
    from engine.errors import GuandanError

    rules = parse_variants(variants)
    try:
        result = score_pairs_files(
            files, method, rules, unfinished=UnfinishedRule(unfinished), tables=tables
        )
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(error_text(exc)) from exc
    if html_file is not None:
        from duplicate.i18n import gettext
        from duplicate.review.pairs_page import render_pairs

        page = render_pairs(result, gettext(lang, "pairs.title"), lang)
        write_output(page, html_file)
    if fmt == "json":
        click.echo(json.dumps(result.to_dict(by_board), ensure_ascii=False, indent=2))
        return
    if fmt == "csv":
        if by_board:
            emit_rows((d.to_dict() for d in result.detail), fmt, result.detail_columns)
        else:
            emit_rows((p.to_dict() for p in result.ranking), fmt, result.ranking_columns)
        return
    from duplicate.i18n.game import direction_text

    rows = [
        {**p.to_dict(), "rank": f"{p.rank}{'=' if p.tied else ''}",
         "direction": direction_text(p.direction, cli_lang())}  # NS+EW: 南北、东西
        for p in result.ranking
    ]
    emit_rows(rows, fmt, result.ranking_columns)
    click.echo(say("cli.pairs.summary", n=len(result.ranking),
                   boards=say("count.boards", n=len(result.boards)),
                   tables=say("cli.pairs.tables", n=result.tables),
                   method=say(f"pairs.method.{method}") if cli_lang() != "en" else method))
    if by_board:
        click.echo()
        emit_rows((d.to_dict() for d in result.detail), fmt, result.detail_columns)


