"""``guandan arena ...`` and ``guandan agent``: the command line of the arena (docs/ARENA.md).

Click only: every command calls the library of ``arena/``. Library errors become one line
and exit code 1, as in the rest of the command line.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import click

from duplicate.arena.names import AGENT_NAME
from duplicate.arena.port import take_port
from duplicate.commands.common import (
    check_output,
    check_output_dir,
    check_policy,
    cli_lang,
    error_text,
    force_option,
    say,
)

F = TypeVar("F", bound=Callable[..., Any])


def _errors(func: F) -> F:
    """Library and connection errors as one line and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from duplicate.errors import DuplicateError
        from engine.errors import GuandanError

        try:
            return func(*args, **kwargs)
        except (DuplicateError, GuandanError, ConnectionError) as exc:
            raise click.ClickException(error_text(exc)) from exc
        except OSError as exc:
            from duplicate.i18n import os_reason

            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{os_reason(exc).text(cli_lang())}") from exc

    return wrapper  # type: ignore[return-value]


def _server_options(func: F) -> F:
    """Host, port, seating, limits and logging of a server command."""
    for opt in reversed([
        click.option("--host", default="127.0.0.1", show_default=True,
                     help="Address to listen on (0.0.0.0: every interface)."),
        click.option("--port", type=click.IntRange(0, 65535), default=23456, show_default=True,
                     help="Port (the agents' launch scripts expect 23456; 0: any free port)."),
        click.option("--seating", metavar="FILE|order",
                     help="Seating file: each line the four client ids of a table, positions "
                     "0-3; or 'order': by connection order. Default: each client's id names "
                     "its agent (/game/A-1, /game/B-1, ...)."),
        click.option("--time-limit", type=click.FloatRange(min=0.01), default=15.0,
                     show_default=True, help="Seconds for each action."),
        click.option("--first-lead-limit", type=click.FloatRange(min=0.01), default=40.0,
                     show_default=True, help="Seconds for the first lead of a deal."),
        click.option("--wait", type=click.FloatRange(min=0.1), default=600.0, show_default=True,
                     help="Seconds to wait for the clients to connect."),
        click.option("--fallback-after", type=click.IntRange(min=1), default=3,
                     show_default=True, help="Consecutive timeouts after which the fallback "
                     "bot plays the seat for the rest of the deal and the client is dropped."),
        click.option("--fallback", "fallback", type=click.Choice(["heuristic", "random"]),
                     default="heuristic", show_default=True,
                     help="The bot that plays a seat whose client is gone."),
        click.option("--reconnect-wait", type=click.FloatRange(min=0), default=30.0,
                     show_default=True, help="Seconds a deal waits at its start for a "
                     "client that is gone; then its side forfeits the boards not played."),
        click.option("--fault-notices", is_flag=True, help="Send the notify/fault notice to "
                     "every client (an extension; by default only to clients that connect "
                     "with ?notices=fault)."),
        click.option("-v", "--verbose", count=True, help="Log every fault and table on stderr "
                     "(-vv: also the websockets library's own connection lines)."),
    ]):
        func = opt(func)
    return func


def _board_options(func: F) -> F:
    """Where the boards come from."""
    for opt in reversed([
        click.option("--seed", "seed_hex", metavar="HEX", help="Boards of this seed (hex)."),
        click.option("--seed-file", type=click.Path(dir_okay=False),
                     help="Boards of this seed file."),
        click.option("--delayed", metavar="VALUE", help="The seed file's delayed information."),
        click.option("--set", "set_name", metavar="NAME", help="Boards of this stored set."),
        click.option("--db", "db_url", metavar="URL", help="Database of --set."),
        click.option("--boards", "count", type=click.IntRange(min=1), required=True,
                     help="Play boards 1..N."),
        click.option("--level-schedule", "schedule", default="fixed", show_default=True,
                     metavar="SPEC", help="Levels of generated boards: fixed, fixed:L, cycle, random."),
    ]):
        func = opt(func)
    return func


def _said(key: str, **values: Any) -> str:
    """The arena's message ``arena.<key>`` in the output's language (--lang)."""
    from duplicate.arena.messages import text

    return text(key, cli_lang(), **values)


def _boards(n: int) -> str:
    """``n`` boards counted in the output's language (1 board, 2 boards, 2副)."""
    from duplicate.i18n import gettext

    return gettext(cli_lang(), "count.boards", n=n)


def _worded_rows(rows: list[dict[str, Any]], names: tuple[str, ...] = (),
                 keys: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """A result table's rows for the screen: in English as they are (the field names, as
    --json writes them); in another language the column titles and the finishing orders
    (``S N``: 头游南、二游北) in its words. ``keys`` names a column's title by another
    catalogue key than ``cli.col.NAME`` (the standings' total swing: 级差分)."""
    lang = cli_lang()
    if lang == "en":
        return rows
    from duplicate.i18n import catalogue, gettext
    from duplicate.i18n.stored import finish_said

    def title(key: str) -> str:
        if keys and key in keys:
            return gettext(lang, keys[key])
        for name in names:
            if key == f"swing_{name}":
                return gettext(lang, "rest.col.swing_of", name=name)
        for known in (f"cli.col.{key}", f"rest.col.{key}"):
            if known in catalogue():
                return gettext(lang, known)
        return key

    return [{title(k): finish_said(v, lang) if k.endswith("_finish") else v
             for k, v in row.items()} for row in rows]


def _agent_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """An agent's name as the clients' ids carry it (``/game/<name>-1``): refused here,
    in the output's language, when no client could name it."""
    if not AGENT_NAME.fullmatch(value):
        raise click.BadParameter(say("rest.arena.name_rule", name=value))
    return value


def _two_agents(name_a: str, name_b: str) -> None:
    """The two sides of a match have different names: refused at once, before the arena
    waits for any client (one name cannot tell A's clients from B's)."""
    if name_a == name_b:
        raise click.UsageError(say("rest.arena.err.same_names", name=repr(name_a)))


def _check_outputs(force: bool, files: Iterable[str | Path | None] = (),
                   report_dir: str | None = None) -> None:
    """Before the arena listens, so before any play: an existing records or log file is
    replaced only with ``--force`` (a seed file never), and a report folder that holds
    files is written into only with it (``duplicate.commands.common.check_output``)."""
    for path in files:
        if path is not None:
            check_output(str(path), force)
    if report_dir is not None:
        check_output_dir(report_dir, force)


def _force(text: str) -> Callable[[F], F]:
    """``--force`` of an arena command: ``text`` says what it replaces."""
    return click.option("--force", is_flag=True, help=text)


def _setup_logging(verbose: int) -> None:
    """Logging, and the garbage collector tuned for a long-running arena process. ``-v``
    logs the arena's faults and tables; the websockets library's own lines (connections
    opened and closed) stay at warnings unless asked for with ``-vv``."""
    from duplicate.arena.connection import tune_gc
    from duplicate.arena.messages import use_language

    tune_gc()
    use_language(cli_lang())  # the server's log lines in the output's language
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    logging.getLogger("websockets").setLevel(logging.INFO if verbose > 1 else logging.WARNING)


def _nothing() -> None:
    """No log to close."""


def _limits(opts: dict[str, Any]) -> Any:
    """The table's limits from the server options (popped from ``opts``)."""
    from duplicate.arena.server import Limits

    return Limits(action=opts.pop("time_limit"), first_lead=opts.pop("first_lead_limit"),
                  escalate_after=opts.pop("fallback_after"), fallback=opts.pop("fallback"),
                  reconnect=opts.pop("reconnect_wait"), notices=opts.pop("fault_notices"))


def _take_port(host: str, port: int) -> Any:
    """The arena's port, listening from now on (before the match's libraries are imported
    and its boards made: the agents' launch scripts wait only half a second); closed when
    the command ends."""
    sock = take_port(host, port)
    return click.get_current_context().with_resource(sock) if sock is not None else None


def _server(host: str, port: int, limits: Any, seating: str | None, names: tuple[str, str],
            tables: int, sock: Any = None) -> Any:
    """The arena server for a match of ``names``, seated as ``--seating`` says; every table
    seated is printed on standard error (position, client id, agent)."""
    from duplicate.arena.server import ArenaServer, read_seating

    by_order = seating == "order"
    files = read_seating(seating) if seating and not by_order else None
    srv = ArenaServer(host, port, limits, files, agents=names, by_order=by_order,
                      tables=tables, sock=sock)
    srv.on_table = _print_seating
    return srv


def _say_listening(srv: Any, n: int) -> None:
    """Where the arena listens (standard error), and that the competition's own ids
    (``client1`` .. ``client4``) are seated in their order when they are."""
    click.echo(_said("listening", url=srv.url, n=n), err=True)
    if srv.competition_ids:
        a, b = srv.agents
        click.echo(_said("competition_ids", a=a, b=b), err=True)


def _print_seating(table: Any) -> None:

    for c in table.clients:
        click.echo(_said("seat_line", table=table.number, pos=c.pos, id=c.id, agent=c.agent),
                   err=True)


@click.group("arena")
def arena_group() -> None:
    """AI agents play over the Guandan AI competition protocol (WebSocket + JSON).

    Agents connect to ws://HOST:PORT/game/<id>. 'duplicate' plays two agents in both
    rooms of every board (复式), 'tournament' a round robin of such matches, 'ordinary'
    an ordinary match from 2 to A with tribute. See docs/ARENA.md.
    """


@arena_group.command("duplicate")
@click.option("--a", "name_a", default="A", show_default=True, callback=_agent_name,
              help="Agent A's name (clients at positions 0 and 2: N-S in the open room).")
@click.option("--b", "name_b", default="B", show_default=True, callback=_agent_name,
              help="Agent B's name (positions 1 and 3).")
@_board_options
@_server_options
@click.option("--scale", type=click.Choice(["wdl", "vp20"]), default="wdl", show_default=True,
              help="Match points: win/draw/loss 2/1/0 or 20-VP.")
@click.option("--tables", "tables_count", type=click.IntRange(1, 2), default=1, show_default=True,
              help="2: eight clients, the open room at the first table of four, the closed "
              "room at the second, played at the same time.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="arena-out",
              show_default=True, help="Folder for the .gdn records.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write every frame sent as JSON lines (a table log 'import-log' reads; "
              "with --tables 2, the open room's table).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False),
              help="Also write the HTML report (the match and its boards) into this folder.")
@_force("Replace an existing records file (OUT/A-vs-B.gdn) or --log file, and write --report "
        "into a folder that already holds files (a seed file is never written over).")
@click.option("--resume", is_flag=True, help="Go on with a match that was stopped: keep the "
              "boards OUT/A-vs-B.gdn holds in both rooms and play the others (the file is "
              "then written with all of them).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_errors
def duplicate_command(
    name_a: str, name_b: str, seed_hex: str | None, seed_file: str | None,
    delayed: str | None, set_name: str | None, db_url: str | None, count: int, schedule: str,
    host: str, port: int, seating: str | None, wait: float, verbose: int, scale: str,
    tables_count: int, out_dir: str, log_path: str | None, report_dir: str | None,
    force: bool, resume: bool, as_json: bool, **limit_opts: Any,
) -> None:
    """Wait for four clients, then play a duplicate match of agent A against agent B.

    A's two clients sit at positions 0 and 2, B's at 1 and 3: by their ids (connect as
    /game/<A>-1, /game/<B>-1, ...), by a seating file, or by connection order when
    asked for (--seating order). The seating is printed before play. Each board is
    played in the open room (A N-S) and then in the closed room (the board turned one
    seat: A E-W). Prints every board's swing and the result; writes the records to
    --out.

    Stopped with Ctrl-C, the match writes the boards finished in both rooms (records,
    and --report) and says how to go on: the same command with --resume.

    \b
    Example: guandan arena duplicate --a mine --b theirs --seed 1f --boards 16
    """
    _two_agents(name_a, name_b)
    sock = _take_port(host, port)
    # lazy: start-up speed (the match's libraries, after the port is taken)
    from duplicate.arena.duplicate_match import (
        MatchInterrupted,
        load_boards,
        match_path,
        play_duplicate_match,
    )
    from duplicate.arena.server import log_writer
    from duplicate.scoring import GUANDAN_VP, JIANGSU_WDL

    records_file = match_path(out_dir, (name_a, name_b))
    _check_outputs(force, [None if resume else records_file, log_path], report_dir)
    _setup_logging(verbose)
    limits = _limits(limit_opts)
    boards = load_boards(count, seed_hex=seed_hex, seed_file=seed_file, delayed=delayed,
                         set_name=set_name, db_url=db_url, schedule=schedule)
    kept = _kept(records_file, boards) if resume else None

    async def run() -> Any:
        async with _server(host, port, limits, seating, (name_a, name_b), tables_count,
                           sock) as srv:
            _say_listening(srv, 4 * tables_count)
            try:
                table = await srv.next_table(wait)
                second = await srv.next_table(wait) if tables_count == 2 else None
            except TimeoutError:
                raise click.ClickException(say("cli.err.no_table_clients", wait=f"{wait:g}")) from None
            table.log, close_log = log_writer(log_path) if log_path else (None, _nothing)
            try:
                return await play_duplicate_match(
                    table, boards, (name_a, name_b), closed_table=second,
                    scale=GUANDAN_VP if scale == "vp20" else JIANGSU_WDL,
                    event=f"Arena: {name_a} - {name_b}", out_dir=out_dir, kept=kept,
                )
            finally:
                await table.close()
                if second is not None:
                    await second.close()
                close_log()

    stopped: MatchInterrupted | None = None
    try:
        result = asyncio.run(run())
    except MatchInterrupted as exc:  # Ctrl-C: the boards finished are written
        stopped, result = exc, exc.result
    _match_output(result, report_dir, as_json, limits, stopped is not None)
    if stopped is not None:
        click.echo(error_text(stopped), err=True)
        click.echo(_said("resume", path=result.file), err=True)
        raise click.exceptions.Exit(130)


def _kept(records_file: Path, boards: list[Any]) -> dict[int, Any]:
    """The boards an earlier, stopped run of the match finished (``--resume``), said on
    standard error."""
    from duplicate.arena.duplicate_match import kept_boards
    from duplicate.gdn import loads

    if not records_file.exists():
        click.echo(_said("resume_none", path=records_file), err=True)
        return {}
    kept = kept_boards(loads(records_file.read_bytes(), file=str(records_file)), boards)
    click.echo(_said("resumed", boards=_boards(len(kept)), path=records_file), err=True)
    return kept


def _match_output(result: Any, report_dir: str | None, as_json: bool, limits: Any,
                  interrupted: bool) -> None:
    """A duplicate match's outputs: the report, then the JSON or the text."""
    from duplicate.arena.report import margin_note

    name_a, name_b = result.names
    if report_dir:
        from duplicate.arena.report import arena_report, match_title, write_arena_report

        lang = cli_lang()
        note = margin_note(result, lang)
        write_arena_report(report_dir, arena_report(
            match_title(name_a, name_b, lang), [result], notes=[note] if note else [],
            lang=lang))
    index = str(Path(report_dir) / "index.html") if report_dir else None
    if as_json:
        doc = result.summary()
        doc["boards_detail"] = [b.json_row(result.names) for b in result.boards]
        doc["file"] = str(result.file) if result.file else None
        doc["report"] = index
        doc["interrupted"] = interrupted
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    from duplicate.commands.common import emit_rows

    rows = [b.row(result.names) for b in result.boards]
    if result.forfeited_by:  # every row names who forfeited it ("" for a board played)
        rows = [{**row, "forfeited_by": row.get("forfeited_by", "")} for row in rows]
    emit_rows(_worded_rows(rows, result.names), "table")
    click.echo(_said("match_line", a=name_a, b=name_b, margin=result.score.margin,
                    boards=_boards(len(result.boards)), pa=result.score.points_x,
                    pb=result.score.points_y))
    note = margin_note(result, cli_lang())
    if note:
        click.echo(note)
    if result.forfeited_by:
        who = {"x": result.names[0], "y": result.names[1]}.get(result.forfeited_by,
                                                             " & ".join(result.names))
        click.echo(_said("forfeit", agent=who, s=limits.reconnect))
    elif result.abandoned:
        click.echo(_said("abandoned", why=result.abandoned))
    if result.faults:
        click.echo(_said("faults", n=len(result.faults)))
    click.echo(_said("records", path=result.file))
    if index:
        click.echo(_said("report_written", path=index))


@click.command("agent")
@click.option("--url", required=True, metavar="URL",
              help="The server's game URL, e.g. ws://127.0.0.1:23456/game/client1.")
@click.option("--policy", default="heuristic", show_default=True, callback=check_policy,
              metavar="POLICY", help="Which of our bots plays: heuristic, random, mixed (the "
              "heuristic with an error rate drawn from its seed), search or "
              "search:PLAYOUTS (the search's playouts per decision, docs/BOTS.md).")
@click.option("--seed", default="0", show_default=True,
              help="The bot's seed (random and search policies).")
@click.option("--connect-timeout", type=click.FloatRange(min=0.1), default=10.0,
              show_default=True, help="Seconds to wait for the connection.")
@click.option("--reconnect", type=click.IntRange(min=0), default=0, show_default=True,
              help="Connect again, up to this many times, when dropped by the arena (close "
              "4000) or cut off before the game is over: the arena gives the seat back.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing at the end.")
@_errors
def agent_command(url: str, policy: str, seed: str, connect_timeout: float, reconnect: int,
                  quiet: bool) -> None:
    """Connect one of our bots to a server of the Guandan AI protocol and play.

    Plays until the server closes the connection; works with this arena and with the
    competition's servers (dialect C of PROTOCOL.md).
    """
    from duplicate.arena.agent import play_agent
    from duplicate.arena.connection import tune_gc
    from duplicate.arena.messages import use_language

    tune_gc()
    use_language(cli_lang())  # its warnings in the output's language
    stats = play_agent(url, policy, seed, connect_timeout, reconnect)
    if not quiet:
        click.echo(_said("agent_done", deals=_said("count.deals", n=stats.episodes),
                         acts=_said("count.actions", n=stats.acts),
                         games=_said("count.games", n=stats.games)), err=True)


@arena_group.command("tournament")
@click.argument("agents_file", type=click.Path(dir_okay=False))
@_board_options
@_server_options
@click.option("--scale", type=click.Choice(["wdl", "vp20"]), default="wdl", show_default=True,
              help="Match points: win/draw/loss 2/1/0 or 20-VP.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="arena-out",
              show_default=True, help="Folder for the .gdn records (one file a match).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False),
              help="Also write the HTML report (standings, matches, boards) into this folder.")
@_force("Replace existing records files (OUT/A-vs-B.gdn, one a match), and write --report "
        "into a folder that already holds files (a seed file is never written over).")
@click.option("--json", "as_json", is_flag=True, help="Print standings and ratings as JSON.")
@_errors
def tournament_command(
    agents_file: str, seed_hex: str | None, seed_file: str | None, delayed: str | None,
    set_name: str | None, db_url: str | None, count: int, schedule: str, host: str,
    port: int, seating: str | None, wait: float, verbose: int, scale: str, out_dir: str,
    report_dir: str | None, force: bool, as_json: bool, **limit_opts: Any,
) -> None:
    """Round robin of duplicate matches among the agents of AGENTS_FILE.

    Each line of AGENTS_FILE registers an agent, 'NAME: COMMAND', the command launching
    one client with {url} for the game URL, e.g.

    \b
        heuristic: guandan agent --url {url} --policy heuristic
        random: guandan agent --url {url} --policy random

    Every pair plays the same boards; prints the standings (match points, then total
    swing) and a Bradley-Terry rating over board swings with 95% profile-likelihood
    intervals. The launched clients' output goes to OUT/agent-logs/<id>.log.
    """
    from pathlib import Path

    from duplicate.arena.duplicate_match import load_boards
    from duplicate.arena.rating import METHOD, overlaps
    from duplicate.arena.tournament import match_files, read_agents, run_tournament
    from duplicate.commands.common import emit_rows
    from duplicate.scoring import GUANDAN_VP, JIANGSU_WDL

    _setup_logging(verbose)
    limits = _limits(limit_opts)
    if seating:
        raise click.UsageError(say("cli.err.tournament_seating"))
    agents = read_agents(agents_file)
    _check_outputs(force, match_files(agents, out_dir), report_dir)
    boards = load_boards(count, seed_hex=seed_hex, seed_file=seed_file, delayed=delayed,
                         set_name=set_name, db_url=db_url, schedule=schedule)

    def progress(m: Any) -> None:
        from duplicate.arena.report import margin_note

        click.echo(_said("match_line", a=m.names[0], b=m.names[1], margin=m.score.margin,
                        boards=_boards(len(m.boards)), pa=m.score.points_x,
                        pb=m.score.points_y),
                   err=True)
        note = margin_note(m, cli_lang())
        if note:
            click.echo(f"  {note}", err=True)

    logs = Path(out_dir) / "agent-logs"
    click.echo(_said("logs", path=logs), err=True)
    result = asyncio.run(run_tournament(
        agents, boards, host=host, port=port, limits=limits,
        scale=GUANDAN_VP if scale == "vp20" else JIANGSU_WDL, out_dir=out_dir,
        connect_wait=wait, progress=progress, log_dir=logs, on_table=_print_seating,
    ))
    table = [s.row(i + 1) for i, s in enumerate(result.standings)]
    if report_dir:
        from duplicate.arena.report import (
            arena_report,
            match_notes,
            rating_notes,
            tournament_title,
            write_arena_report,
        )

        lang = cli_lang()
        write_arena_report(report_dir, arena_report(
            tournament_title(len(agents), count, lang), result.matches, result.standings,
            [*rating_notes(result.ratings, lang), *match_notes(result.matches, lang)],
            lang=lang))
    index = str(Path(report_dir) / "index.html") if report_dir else None
    pairs = overlaps(result.ratings)
    ratings = [{"agent": r.name, "rating": round(r.rating, 1), "low": round(r.low, 1),
                "high": round(r.high, 1), "boards": r.boards} for r in result.ratings]
    if as_json:
        for row in ratings:  # the agents the boards do not yet separate from this one
            row["overlaps"] = [b if a == row["agent"] else a for a, b in pairs
                               if row["agent"] in (a, b)]
    if as_json:
        click.echo(json.dumps({"standings": table, "ratings": ratings,
                               "rating_method": METHOD,
                               "matches": [m.summary() for m in result.matches],
                               "logs": [str(p) for p in result.logs], "report": index},
                              ensure_ascii=False, indent=2))
        return
    click.echo(_said("standings"))
    # the standings' swing is the total, 级差分, as in the event's standings
    emit_rows(_worded_rows(table, keys={"swing": "cli.col.total_swing"}), "table")
    click.echo()
    click.echo(_said("rating"))
    emit_rows(_worded_rows(ratings), "table")
    from duplicate.arena.report import overlap_note

    click.echo(overlap_note(result.ratings, cli_lang()))
    if index:
        click.echo(_said("report_written", path=index))


@arena_group.command("ordinary")
@click.option("--a", "name_a", default="A", show_default=True, callback=_agent_name,
              help="Agent A's name (clients at positions 0 and 2: N-S).")
@click.option("--b", "name_b", default="B", show_default=True, callback=_agent_name,
              help="Agent B's name (positions 1 and 3: E-W).")
@_board_options
@_server_options
@click.option("--max-deals", type=click.IntRange(min=1), default=None,
              help="End after this many deals: the higher level wins (default: until A is passed; "
              "--boards must then be large enough).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="arena-out",
              show_default=True, help="Folder for the .gdn records.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write every frame sent as JSON lines (a table log 'import-log' reads).")
@_force("Replace an existing records file (OUT/ordinary-A-vs-B.gdn) or --log file (a seed "
        "file is never written over).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@_errors
def ordinary_command(
    name_a: str, name_b: str, seed_hex: str | None, seed_file: str | None,
    delayed: str | None, set_name: str | None, db_url: str | None, count: int, schedule: str,
    host: str, port: int, seating: str | None, wait: float, verbose: int,
    max_deals: int | None, out_dir: str, log_path: str | None, force: bool, as_json: bool,
    **limit_opts: Any,
) -> None:
    """Wait for four clients, then play an ordinary match: 2 to A, with tribute.

    Deal i is dealt board i's hands (--boards is the most deals the match may take); the
    first leader is board 1's. A's clients sit N-S (positions 0, 2), B's E-W.
    """
    _two_agents(name_a, name_b)
    sock = _take_port(host, port)
    # lazy: start-up speed (the match's libraries, after the port is taken)
    from duplicate.arena.duplicate_match import load_boards
    from duplicate.arena.ordinary import ordinary_path, play_ordinary_match
    from duplicate.arena.protocol import level_str
    from duplicate.arena.server import log_writer

    _check_outputs(force, [ordinary_path(out_dir, (name_a, name_b)), log_path])
    _setup_logging(verbose)
    limits = _limits(limit_opts)
    boards = load_boards(count, seed_hex=seed_hex, seed_file=seed_file, delayed=delayed,
                         set_name=set_name, db_url=db_url, schedule=schedule)

    async def run() -> Any:
        async with _server(host, port, limits, seating, (name_a, name_b), 1, sock) as srv:
            _say_listening(srv, 4)
            try:
                table = await srv.next_table(wait)
            except TimeoutError:
                raise click.ClickException(say("cli.err.no_table_clients", wait=f"{wait:g}")) from None
            table.log, close_log = log_writer(log_path) if log_path else (None, _nothing)
            try:
                return await play_ordinary_match(table, boards, (name_a, name_b),
                                                 max_deals=max_deals, out_dir=out_dir)
            finally:
                await table.close()
                close_log()

    result = asyncio.run(run())
    doc = result.summary()
    if as_json:
        doc["file"] = str(result.file) if result.file else None
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    click.echo(_said("ordinary_line", a=name_a, b=name_b,
                     deals=_said("count.deals", n=doc["deals"]),
                     winner=doc["winner"] or "-", ln=level_str(result.match.levels[0]),
                     le=level_str(result.match.levels[1])))
    if result.forfeited_by:
        who = {"x": result.names[0], "y": result.names[1]}.get(result.forfeited_by,
                                                             " & ".join(result.names))
        click.echo(_said("forfeit", agent=who, s=limits.reconnect))
    elif result.abandoned:
        click.echo(_said("abandoned", why=result.abandoned))
    click.echo(_said("records", path=result.file))


@arena_group.command("import-log")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--from", "source", type=click.Choice(["openguandan"]), default="openguandan",
              show_default=True, help="Who wrote the log.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="The .gdn file to write ('-': standard output).")
@click.option("--event", default="Played by OpenGuanDan", show_default=True,
              help="The Event tag of the records.")
@force_option
@_errors
def import_log_command(files: tuple[str, ...], source: str, output: str, event: str,
                       force: bool) -> None:
    """Turn competition logs (an OpenGuanDan table's JSON lines) into .gdn records.

    Every deal is rebuilt from the log's messages, replayed and checked; the records are
    written in canonical form (then 'guandan import OUT.gdn' stores them). The first bad
    line or illegal play stops it with the file and line. docs/ARENA.md says how the log
    is read.
    """
    from duplicate.arena.openguandan import import_log
    from duplicate.gdn import dumps

    del source  # one source so far
    check_output(output, force)
    def cut(why: Any) -> None:  # a log the arena wrote until it was stopped
        click.echo(_said("import_cut", why=why), err=True)

    records = []
    for f in files:
        records.extend(import_log(f, event, on_cut=cut))
    with click.open_file(output, "w", encoding="utf-8") as out:
        out.write(dumps(records))
    click.echo(_said("imported", n=len(records), file=", ".join(files), out=output), err=True)
