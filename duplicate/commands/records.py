"""Records: ``guandan replay``, ``import``, ``simulate`` and ``compare``."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import click

from duplicate.analysis.budget import DEFAULT_BUDGET
from duplicate.commands.budget import EXACT_CARDS, budget_of, budget_options
from duplicate.commands.common import (
    LANG_CHOICE,
    check_output,
    check_output_dir,
    cli_lang,
    correction_from,
    correction_options,
    db_errors,
    db_option,
    db_progress,
    emit_rows,
    error_text,
    first_failure,
    force_option,
    open_database,
    os_error_text,
    output_options,
    parse_variants,
    read_seed,
    say,
    write_output,
)
from duplicate.commands.words import (
    human_board_lines,
    human_replay_row,
    human_seat_rows,
    human_seats_row,
)

_REPLAY_COLUMNS = ("file", "line", "board", "room", "plays", "finish", "result", "status", "error")


@click.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--strict/--lenient",
    default=False,
    show_default=True,
    help="Stop at the first deal that fails, or report every deal and go on.",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes. Default: all cores when there are many deals, else 1.",
)
@click.option(
    "--variant",
    "variants",
    metavar="NAME=VALUE",
    multiple=True,
    help="A rule variant of RULES.md the deals were played under, e.g. jiefeng_next=true "
    "(repeatable; default: the competition rules).",
)
@output_options
def replay_command(
    files: tuple[str, ...], strict: bool, jobs: int | None, variants: tuple[str, ...], fmt: str
) -> None:
    """Replay every deal of the .gdn FILES and check each play and result.

    Prints per deal its board, room, finishing order and result, or the first point of
    failure (file:line, seat, reason, position). Exits with 1 when any deal fails,
    naming the first failure on stderr.

    \b
    Example: guandan replay --json --jobs 2 games.gdn
    """
    from duplicate.replay_files import check_files

    for path in files:  # a file that cannot be opened is a file error, not a failed deal
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            raise click.ClickException(os_error_text(exc)) from None
    check = check_files(files, strict=strict, jobs=jobs, rules=parse_variants(variants))
    tally = _Tally()
    lang = cli_lang() if fmt == "table" else "en"
    with db_progress(check.total, "Replaying") as tick:  # rows printed as they come
        emit_rows((human_replay_row(d, lang)
                   for d in tally.rows(check.reports(tick), lang if fmt == "table" else None)),
                  fmt,
                  _REPLAY_COLUMNS)
    failed, n = tally.failed, tally.total
    if fmt == "table":
        first_failure(failed, n, "replayed", [tally.first_error])
        if tally.rules_failed and not variants:  # a record does not name its rules
            click.echo(say("cli.replay.variant_hint"), err=True)
        click.echo(say("cli.replay.total", n=n, replayed=n - failed, failed=failed))
    if failed:
        click.get_current_context().exit(1)


@dataclass
class _Tally:
    """What a listing printed as it comes came to: rows, failures, rows by status, the
    first error, the first error of a deal that failed by itself (not rolled back with
    another), and whether a failure was one a rule variant can cause."""

    total: int = 0
    failed: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    first_error: str | None = None
    first_cause: str | None = None
    #: whether a deal failed in a way a rule variant can cause (its report says so:
    #: ``replay.Failure.rules_may_cause``, a play refused or a Finish/Result that
    #: disagrees), not a file or record that cannot be read
    rules_failed: bool = False

    def rows(self, items: Iterable[Any], lang: str | None = None) -> Iterator[dict[str, object]]:
        """The rows of ``items`` (outcomes or reports), counted as they pass; with ``lang``
        (a table for a person) an error the library words (``message``) in that language."""
        for item in items:
            self.total += 1
            self.statuses[item.status] += 1
            row = item.to_dict()
            if lang is not None and item.error and hasattr(item, "message"):
                row["error"] = item.message(lang)
            if not item.ok:
                self.failed += 1
                failure = getattr(item, "failure", None)
                self.rules_failed |= failure is not None and failure.rules_may_cause
                if self.first_error is None and item.error:
                    self.first_error = row["error"]
                if self.first_cause is None and item.error and item.status != "rolled back":
                    self.first_cause = row["error"]
            yield row


_IMPORT_COLUMNS = ("file", "line", "board", "room", "status", "record_id", "version", "error")


@click.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--per",
    type=click.Choice(["file", "deal"]),
    default="file",
    show_default=True,
    help="One transaction per file (all its deals or none) or per deal.",
)
@click.option(
    "--set", "board_set", metavar="NAME", help="The records play this stored board set's boards."
)
@correction_options
@click.option(
    "--variant",
    "variants",
    metavar="NAME=VALUE",
    multiple=True,
    help="A rule variant of RULES.md the deals were played under, e.g. jiefeng_next=true "
    "(repeatable; default: the competition rules). Stored with each record, and part of its key.",
)
@output_options
@db_option
@db_errors
def import_command(
    files: tuple[str, ...],
    per: str,
    board_set: str | None,
    correction: bool,
    reason: str | None,
    by: str | None,
    variants: tuple[str, ...],
    fmt: str,
) -> None:
    """Replay the .gdn FILES and store their deals in the database.

    A deal that does not replay is reported and nothing of it is stored; the same record
    imported twice is stored once; a different record for a stored board and room is
    refused unless it is a --correction (kept with its --reason and --by). Exits with 1
    when any deal is not stored, naming the first failure on stderr.

    \b
    Examples: guandan import --set cup games.gdn
              guandan import --correction --reason "mistyped play 41" --by Zhou fixed.gdn
              guandan import --variant jiefeng_next=true folk.gdn
    """
    from duplicate.records import import_files

    fix = correction_from(correction, by, reason)
    rules = parse_variants(variants)
    # the bar advances deal by deal, by the bytes read (a file can hold 10,000 deals)
    size = sum(os.path.getsize(f) for f in files if os.path.isfile(f))
    tally = _Tally()
    with open_database() as engine, db_progress(size, "Importing") as tick:
        outcomes = import_files(
            engine,
            files,
            per="deal" if per == "deal" else "file",
            board_set=board_set,
            correction=fix,
            rules=rules,
            progress=tick,
            by=by,
        )
        emit_rows(tally.rows(outcomes, cli_lang() if fmt == "table" else None), fmt,
                  _IMPORT_COLUMNS)  # printed as they come
    failed, n, counts = tally.failed, tally.total, tally.statuses
    if fmt == "table":
        # The deals rolled back with a failing one say so; name the one that failed.
        first_failure(failed, n, "stored", [tally.first_cause or tally.first_error])
        click.echo(say("cli.import_deals.total", n=n, stored=counts["stored"],
                       unchanged=counts["unchanged"], corrected=counts["corrected"],
                       failed=failed))
    if failed:
        click.get_current_context().exit(1)


# simulate (self-play: duplicate.simulate) ------------------------------------------


@click.command("simulate")
@click.option(
    "--seed",
    "seed_hex",
    metavar="HEX",
    help="Seed in hexadecimal. 64 digits are a seed file's secret (the same boards); "
    "other lengths are stretched to 32 bytes with SHA-256.",
)
@click.option(
    "--seed-file",
    type=click.Path(dir_okay=False),
    help="Play the boards of this seed file (guandan-seed/1).",
)
@click.option("--delayed", metavar="VALUE", help="Delayed information, if the seed file announces it.")
@click.option(
    "--boards", "count", type=click.IntRange(min=1), required=True, help="Play boards 1..N of the set."
)
@click.option(
    "--level-schedule",
    "schedule",
    default="fixed",
    show_default=True,
    metavar="SPEC",
    help="Board levels: fixed, fixed:LEVEL (e.g. fixed:7), cycle or random.",
)
@click.option(
    "--x", "team_x", default="heuristic", show_default=True, metavar="POLICY",
    help="Team X's bots: heuristic, random, mixed (the heuristic bot erring at a rate of "
    "the team's own), search or search:PLAYOUTS (docs/BOTS.md).",
)
@click.option(
    "--y", "team_y", default="heuristic", show_default=True, metavar="POLICY",
    help="Team Y's bots: heuristic, random, mixed (the heuristic bot erring at a rate of "
    "the team's own), search or search:PLAYOUTS (docs/BOTS.md).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Write the .gdn records (open then closed room, board by board) to this file; "
    "'-' writes them to standard output instead of the listing.",
)
@click.option(
    "--stats", is_flag=True, help="Also print play statistics beside the figures from real play."
)
@force_option
@output_options
def simulate_command(
    seed_hex: str | None,
    seed_file: str | None,
    delayed: str | None,
    count: int,
    schedule: str,
    team_x: str,
    team_y: str,
    output: str | None,
    stats: bool,
    force: bool,
    fmt: str,
) -> None:
    """Play boards by bots in two rooms, seats swapped, and list each board's swing.

    Open room: team X sits N-S and Y E-W; closed room: Y N-S and X E-W; same cards at
    each seat. The same seed gives byte-identical records, which replay cleanly.

    \b
    Example: guandan simulate --seed-file cup.seed --level-schedule cycle --boards 16 -o match.gdn
    """
    from duplicate.dealing import GENERATOR_ID, LevelSchedule
    from duplicate.errors import DuplicateError
    from duplicate.gdn import dumps
    from duplicate.simulate import (
        format_statistics,
        play_statistics,
        simulate_boards,
        simulation_key,
    )
    from engine.errors import GuandanError

    if (seed_hex is None) == (seed_file is None):
        raise click.UsageError(say("cli.err.seed_or_file"))
    if stats and fmt == "csv":
        raise click.UsageError(say("cli.err.stats_csv"))
    if output == "-" and fmt != "table":
        raise click.UsageError(say("cli.err.stdout_fmt", fmt=fmt))
    check_output(output, force)
    try:
        if seed_file is not None:
            seeds = read_seed(seed_file)
            key, generator = seeds.key(delayed), seeds.generator
        else:
            assert seed_hex is not None
            try:
                seed = bytes.fromhex(seed_hex)
            except ValueError:
                raise click.BadParameter(
                    say("out.seed.not_hex", seed=repr(seed_hex)), param_hint="--seed"
                ) from None
            key, generator = simulation_key(seed), GENERATOR_ID
        plays = simulate_boards(
            key, count, team_x, team_y, LevelSchedule.parse(schedule), generator
        )
        outcomes = []
        with db_progress(count, "Playing") as tick:
            for outcome in plays:
                outcomes.append(outcome)
                if tick is not None:
                    tick(1)
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(error_text(exc)) from exc
    records = [r for o in outcomes for r in (o.open, o.closed)]
    if output is not None:
        write_output(dumps(records), output, force)
    summary = play_statistics(records) if stats else None
    if output == "-":
        if summary is not None:
            click.echo(format_statistics(summary, cli_lang()), err=True)
        return
    rows = [o.row() for o in outcomes]
    total = sum(o.swing for o in outcomes)
    if fmt == "json":
        doc: dict[str, Any] = {"boards": rows, "x_total_swing": total}
        if summary is not None:
            doc["stats"] = summary.to_dict()
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    emit_rows([human_seats_row(r, cli_lang()) for r in rows] if fmt == "table" else rows, fmt)
    if fmt == "table":
        click.echo(say("cli.compare.teams", x=policy_words(team_x), y=policy_words(team_y),
                       total=f"{total:+d}")
                   + say("cli.compare.over", boards=say("count.boards", n=len(rows))))
        if summary is not None:
            click.echo()
            click.echo(format_statistics(summary, cli_lang()))


def policy_words(policy: str) -> str:
    """A bot policy as ``--x`` takes it (``heuristic``, ``search:16``) in the output's
    language: 启发式, 搜索:16 (English: as it is)."""
    if cli_lang() == "en":
        return policy
    from duplicate.policies import POLICIES

    name, colon, budget = policy.partition(":")
    if name not in POLICIES:
        return policy
    return f"{say(f'out.policy.{name}')}{colon}{budget}"


# --- competitions (event, compare, demo) -----------------------------------------


# compare (the rooms of a board side by side: duplicate.compare, duplicate.report) ------


@click.command("compare")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--board", metavar="N", help="Compare only this board (its Board tag).")
@click.option(
    "--detail/--no-detail",
    default=None,
    help="Show each board's divergence and seat-by-seat figures in the table "
    "(default: only when one board is compared: --board, at every table that played it, "
    "or a file of one board).",
)
@click.option(
    "--html",
    "html_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Also write an HTML report (a match page and a page per board) into DIR.",
)
@click.option(
    "--variant",
    "variants",
    metavar="NAME=VALUE",
    multiple=True,
    help="A rule variant of RULES.md the deals were played under, e.g. jiefeng_next=true "
    "(repeatable; default: the competition rules).",
)
@click.option(
    "--force", is_flag=True,
    help="Write the --html report into a folder that already holds files.",
)
@click.option("--lang", type=LANG_CHOICE, default=None,
              help="Language of the headlines and the HTML pages (English or Chinese; default: guandan --lang, else English).")
@click.option("--analyse", is_flag=True, help="Also value each room's choices from the first "
              "divergence with all four hands known (guandan analyse; the budget below).")
@budget_options
@output_options
def compare_command(
    file: str,
    board: str | None,
    detail: bool | None,
    html_dir: str | None,
    variants: tuple[str, ...],
    force: bool,
    lang: str | None,
    fmt: str,
    analyse: bool = False,
    exact_cards: int = EXACT_CARDS,
    nodes: int | None = None,
    playouts: int = DEFAULT_BUDGET.playouts,
    seed: int = 0,
    seconds: float | None = None,
) -> None:
    """Compare the rooms of each board in FILE (.gdn records, grouped by Round, Table, Board).

    Every record is replayed; per room the finish and N-S result, per seat the plays,
    passes, tricks won, leads, bombs, wild hearts and what they stood for, cards left and
    接风; the first divergence between the rooms and the swing (first room's N-S result
    minus the second's: team X's when Open comes first). The table lists the boards
    (diverge_action: the first action, counted from 1, at which the rooms differ);
    --csv gives one row per room and seat; --json the whole comparison. In the seats'
    table, wilds are the wild hearts (逢人配) the seat played, each as the card it stood
    for.

    \b
    Example: guandan compare match.gdn --board 3
    """
    lang = cli_lang(lang)
    from duplicate.compare import SEAT_COLUMNS, compare_file
    from duplicate.errors import DuplicateError
    from duplicate.i18n import translator
    from duplicate.report import ReportError, match_report, write_report
    from duplicate.review.text import headline
    from engine.errors import GuandanError

    rules = parse_variants(variants)
    if html_dir is not None:
        check_output_dir(html_dir, force)
    try:
        comparisons = compare_file(file, board, rules)
        if html_dir is not None:
            report = match_report(comparisons, lang=lang, rules=rules)
            budget = budget_of(nodes, playouts, seed, seconds, exact_cards=exact_cards) if analyse else None
            try:
                write_report(html_dir, report, rules=rules, analyse=budget)
            except ReportError as exc:  # the --html folder cannot be made or written
                raise click.ClickException(f"--html: {error_text(exc)}") from exc
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(error_text(exc)) from exc
    except OSError as exc:  # the --html folder cannot be made or written
        raise click.ClickException(f"--html: {os_error_text(exc)}") from exc
    if analyse:
        from duplicate.commands.analyse import analyse_comparisons

        analyses, analysis_lines = analyse_comparisons(
            file, board, rules, budget_of(nodes, playouts, seed, seconds, exact_cards=exact_cards), lang)
    if fmt == "json":
        click.echo(json.dumps([{**c.to_dict(), **({"analysis": analyses[i]} if analyse else {})}
                               for i, c in enumerate(comparisons)], ensure_ascii=False, indent=2))
    elif fmt == "csv":
        emit_rows((row for c in comparisons for row in c.seat_rows()), fmt, SEAT_COLUMNS)
    else:
        emit_rows(human_board_lines(comparisons, lang), fmt)
        swings = [c.swing for c in comparisons if c.swing is not None]
        click.echo(say("cli.compare.total", n=len(comparisons), total=f"{sum(swings):+d}"))
        # --board compares one board: in a file of several tables, each table's rooms
        if detail or (detail is None and (board is not None or len(comparisons) == 1)):
            for c in comparisons:
                click.echo()
                lines = headline(c, lang)
                if c.table:  # an exported round: which table's rooms these are
                    lines[0] = translator(lang)("cli.compare.at_table", table=c.table,
                                                line=lines[0])
                click.echo("\n".join(lines))
                emit_rows(human_seat_rows(c, lang), fmt, SEAT_COLUMNS[1:])
            click.echo(translator(lang)("cli.compare.wilds_legend"))
        if analyse:
            click.echo("\n".join(analysis_lines))

