"""``guandan db`` and ``guandan deals``: the database, fair board sets, hand records."""

from __future__ import annotations

from pathlib import Path

import click

from duplicate.commands.common import (
    LANG_CHOICE,
    cannot,
    check_output,
    cli_lang,
    db_errors,
    db_option,
    db_progress,
    emit_rows,
    error_text,
    force_option,
    json_text,
    open_database,
    output_options,
    read_seed,
    say,
    write_output,
)


@click.group("db")
@db_option
def db_group() -> None:
    """Create and migrate the database (SQLite by default, or PostgreSQL)."""


@db_group.command("upgrade")
@click.option("--revision", default="head", show_default=True, help="Migrate up to this revision.")
@db_option
@db_errors
def db_upgrade_command(revision: str) -> None:
    """Create the database or migrate it to the newest schema (Alembic migrations).

    Each migration is one transaction: interrupted, the database stays at its revision.
    On PostgreSQL, also make the analysis job queue's tables (procrastinate's schema)
    when they are not there."""
    from duplicate.db import current_revision, display_url, upgrade

    with open_database() as engine:
        upgrade(engine, revision)
        click.echo(say("cli.db.at", url=display_url(engine.url),
                       revision=current_revision(engine)))
        if engine.dialect.name == "postgresql":
            from duplicate.jobs import queue  # lazy: procrastinate, on PostgreSQL only

            if queue.ensure_schema(engine):
                click.echo(say("cli.db.queue"))


@db_group.command("downgrade")
@click.argument("revision")
@click.option("--force", is_flag=True,
              help="Downgrade even when the older schema cannot hold everything (the refusal "
              "without it names what would be lost).")
@db_option
@db_errors
def db_downgrade_command(revision: str, force: bool) -> None:
    """Migrate the database down to REVISION (e.g. 0007; 'base' empties it).

    Refused, nothing changed, when the older schema cannot hold what the database holds
    (an event's rule variants or language, the hall's rounds and reports, any rows of a
    table it drops): the message names it all; --force downgrades anyway and loses it."""
    from duplicate.db import current_revision, display_url, downgrade

    with open_database() as engine:
        downgrade(engine, revision, force=force)
        now = current_revision(engine) or say("cli.db.empty")
        click.echo(say("cli.db.at", url=display_url(engine.url), revision=now))


@db_group.command("current")
@db_option
@db_errors
def db_current_command() -> None:
    """Show the database's schema revision and the newest one."""
    from duplicate.db import check_reachable, current_revision, head_revision

    with open_database() as engine:
        check_reachable(engine)
        click.echo(say("cli.db.current", revision=current_revision(engine) or say("cli.db.empty")))
        click.echo(say("cli.db.newest", revision=head_revision()))


@click.group("deals")
@db_option
def deals_group() -> None:
    """Fair board sets: secret seeds, commitments, generation, verification, hand records.

    Before the event: 'deals seed' (publish the commitment it prints), 'deals generate'.
    After it: 'deals reveal' (publish the seed), anyone: 'deals verify'.
    """


@deals_group.command("seed")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--delayed-info",
    metavar="TEXT",
    help="Announce delayed information to be mixed into the seed (e.g. 'closing value of "
    "an index on 2026-12-01'); its value is then required to generate the boards.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@db_errors
def deals_seed_command(path: str, delayed_info: str | None, as_json: bool) -> None:
    """Create a new secret seed file PATH (mode 0600) and print its commitment to publish."""
    from duplicate.dealing import create_seed_file

    seed = create_seed_file(path, delayed_info=delayed_info)
    if as_json:
        click.echo(json_text({"seed_file": path, "commitment": seed.commitment,
                             "generator": seed.generator, "delayed_info": seed.delayed_info}),
                   nl=False)
        return
    click.echo(say("cli.seed.created", path=path))
    click.echo(say("cli.seed.commitment", commitment=seed.commitment))


@deals_group.command("generate")
@click.argument("seed_file", type=click.Path(dir_okay=False))
@click.option("-n", "--boards", "count", type=click.IntRange(min=1), required=True,
              help="Generate boards 1..N.")
@click.option("--name", help="Name of the set in the database (default: the seed file's name).")
@click.option("--level-schedule", "schedule", default="fixed", show_default=True, metavar="SPEC",
              help="Board levels: fixed, fixed:LEVEL (e.g. fixed:7), cycle or random.")
@click.option("--delayed", metavar="VALUE", help="The delayed information, if the seed file announces it.")
@click.option("--store/--no-store", default=True, show_default=True,
              help="Store the set in the database.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Also write the boards (.gdn hand records, JSON with --json) to this file; "
              "'-' is standard output.")
@click.option("--event", metavar="TEXT", help="Event tag of the hand records.")
@click.option("--json", "as_json", is_flag=True, help="Write JSON instead of .gdn.")
@force_option
@db_option
@db_errors
def deals_generate_command(
    seed_file: str,
    count: int,
    name: str | None,
    schedule: str,
    delayed: str | None,
    store: bool,
    output: str | None,
    event: str | None,
    as_json: bool,
    force: bool,
) -> None:
    """Generate a set of N boards from SEED_FILE, into the database and/or a file.

    One seed makes one set: a second set from the same seed file (same commitment, even
    with another --delayed value or --name) is refused, as is a board already stored
    (same DealId); then nothing is stored. Without --store and without --output, the
    boards go to standard output.

    \b
    Example: guandan deals generate cup.seed -n 32 --level-schedule cycle
    """
    import dataclasses
    from pathlib import Path

    from duplicate.boards import generate_set, hand_records, store_set
    check_output(output, force)
    seed = read_seed(seed_file)
    set_name = name or Path(seed_file).stem
    with db_progress(count, "Dealing") as tick:
        board_set = generate_set(seed, count, set_name, schedule, delayed, tick)
    if store:
        with open_database() as engine:
            with db_progress(count, "Storing") as tick:
                info = store_set(engine, board_set, tick)  # now with its creation time
            board_set = dataclasses.replace(board_set, info=info)
    if output is not None or not store:
        text = json_text(board_set.to_dict()) if as_json else hand_records(board_set.boards, event)
        write_output(text, output, force)
    if output == "-" or not store:
        return
    info = board_set.info
    if as_json:
        click.echo(json_text(info.to_dict()), nl=False)
    else:
        from duplicate.i18n.game import schedule_text

        click.echo(say("cli.set.stored", name=info.name,
                       boards=say("count.boards", n=info.board_count),
                       levels=schedule_text(info.level_schedule, cli_lang()),
                       commitment=info.commitment))


@deals_group.command("list")
@output_options
@db_option
@db_errors
def deals_list_command(fmt: str) -> None:
    """List the stored board sets."""
    from duplicate.boards import list_sets

    with open_database() as engine:
        rows = [s.to_dict() for s in list_sets(engine)]
    if fmt == "table":  # for a person: the schedule in words (打10, never fixed:T)
        from duplicate.i18n.game import schedule_text

        rows = [{**r, "level_schedule": schedule_text(r["level_schedule"], cli_lang())}
                for r in rows]
    columns = ["name", "board_count", "level_schedule", "generator", "revealed", "commitment"]
    emit_rows(rows, fmt, None if fmt == "json" else columns)


@deals_group.command("show")
@click.argument("name")
@click.option("-b", "--board", "numbers", type=click.IntRange(min=1), multiple=True,
              help="Show only this board (repeatable).")
@click.option("--event", metavar="TEXT", help="Event tag of the hand records.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@db_option
@db_errors
def deals_show_command(name: str, numbers: tuple[int, ...], event: str | None, as_json: bool) -> None:
    """Show a stored set: its generator, commitment and levels, then its boards as .gdn."""
    # The output is .gdn text (docs/FORMAT.md): the records' tokens stay as the format has
    # them whatever --lang says; its ';' header lines are comments, free text for a person,
    # so they are in the output's language ('deals list' and 'deals export -f html' are the
    # listings for people).
    from duplicate.boards import hand_records, load_set
    from duplicate.i18n.game import schedule_text

    with open_database() as engine:
        board_set = load_set(engine, name, numbers or None)
    if as_json:
        click.echo(json_text(board_set.to_dict()), nl=False)
        return
    info = board_set.info
    lang = cli_lang()
    levels = info.level_schedule if lang == "en" else schedule_text(info.level_schedule, lang)
    click.echo(say("out.deals.set_line", name=info.name,
                   boards=say("count.boards", n=info.board_count),
                   generator=info.generator, levels=levels))
    click.echo(say("out.deals.commit_line", commitment=info.commitment,
                   delayed=say("out.deals.delayed", value=repr(info.delayed_value))
                   if info.delayed_value else "",
                   revealed=say("out.deals.revealed" if info.revealed_seed
                                else "out.deals.not_revealed")))
    click.echo()
    click.echo(hand_records(board_set.boards, event), nl=False)


@deals_group.command("reveal")
@click.argument("seed_file", type=click.Path(dir_okay=False))
@click.option("--set", "set_name", help="Record the seed as revealed for this stored set "
              "(after checking it against the set's commitment).")
@click.option("--commitment", metavar="HEX", help="Also check against the published commitment.")
@db_option
@db_errors
def deals_reveal_command(seed_file: str, set_name: str | None, commitment: str | None) -> None:
    """Print SEED_FILE for publication once the boards have been played."""
    from duplicate.boards import reveal_set
    from duplicate.errors import VerificationError

    seed = read_seed(seed_file)
    if set_name is not None:
        with open_database() as engine:
            reveal_set(engine, set_name, seed, commitment)
    elif commitment is not None and commitment.strip().lower() != seed.commitment:
        raise VerificationError(
            f"{seed_file}: SHA-256 {seed.commitment} is not the commitment {commitment.strip()}"
        )
    click.echo(seed.data.decode("utf-8"), nl=False)


@deals_group.command("verify")
@click.argument("seed_file", type=click.Path(dir_okay=False))
@click.option("--set", "set_name", help="The stored set to check.")
@click.option("--gdn", "gdn_file", type=click.Path(dir_okay=False, allow_dash=True),
              help="Instead of a stored set, check published .gdn hand records (no database).")
@click.option("--level-schedule", "schedule", default="fixed", show_default=True, metavar="SPEC",
              help="With --gdn: the set's level schedule (fixed, fixed:LEVEL, cycle, random).")
@click.option("--boards", "board_count", type=click.IntRange(min=1), metavar="N",
              help="With --gdn: the set has boards 1..N (default: up to the highest found); "
              "each must be there once.")
@click.option("--delayed", metavar="VALUE", help="The delayed value (default: the stored one).")
@click.option("--commitment", metavar="HEX", help="Also check against the published commitment.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@db_option
@db_errors
def deals_verify_command(
    seed_file: str,
    set_name: str | None,
    gdn_file: str | None,
    board_count: int | None,
    schedule: str,
    delayed: str | None,
    commitment: str | None,
    as_json: bool,
) -> None:
    """Regenerate boards from their revealed SEED_FILE and check every one.

    With --set: the stored set, against its stored commitment (and --commitment, the
    published one). A check only: the seed is not recorded as revealed (that is 'deals
    reveal'), so exports go on without it. With --gdn: published
    hand records, by anyone, without a database: boards 1 to N (--boards N, else the
    highest found), each once. Every board's hands, level, leader and DealId are
    compared; exits 1 naming the first difference.

    \b
    Examples: guandan deals verify cup.seed --set cup
              guandan deals verify cup.seed --gdn cup.gdn --level-schedule cycle
    """
    from duplicate.boards import set_info, verify_hand_records, verify_set

    if (set_name is None) == (gdn_file is None):
        raise click.UsageError(say("cli.err.set_or_gdn"))
    seed = read_seed(seed_file)
    if gdn_file is not None:
        from duplicate.gdn import decode

        with click.open_file(gdn_file, "rb") as f:
            text = decode(f.read(), gdn_file)  # not UTF-8: one GdnError line, not a traceback
        checked = verify_hand_records(
            seed, text, schedule, delayed, commitment, gdn_file, board_count
        )
        if as_json:
            doc = {"ok": True, "boards_checked": checked, "commitment": seed.commitment}
            click.echo(json_text(doc), nl=False)
        else:
            click.echo(say("cli.set.file_verified", file=gdn_file,
                           boards=say("count.boards", n=checked), commitment=seed.commitment))
        return
    assert set_name is not None
    if board_count is not None:
        raise click.UsageError(say("cli.err.boards_gdn"))
    with open_database() as engine:
        total = set_info(engine, set_name).board_count
        with db_progress(total, "Verifying") as tick:
            result = verify_set(engine, set_name, seed, delayed, commitment, tick)
    if as_json:
        click.echo(json_text(result.to_dict()), nl=False)
        return
    click.echo(say("cli.set.verified", name=set_name,
                   boards=say("count.boards", n=result.boards_checked),
                   commitment=result.info.commitment))


@deals_group.command("export")
@click.argument("name")
@click.option("-f", "--format", "fmt", type=click.Choice(["gdn", "json", "html", "pdf"]),
              default="gdn", show_default=True,
              help="gdn hand records, JSON, a printable HTML page, or PDF (needs -o and the "
              "optional WeasyPrint: pip install 'guandan-duplicate[pdf]').")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this file (default: standard output).")
@click.option("--event", metavar="TEXT", help="Event tag (gdn) or page title (html).")
@click.option("--lang", type=LANG_CHOICE, default=None,
              help="Language of the HTML hand records (default: guandan --lang, else English).")
@force_option
@db_option
@db_errors
def deals_export_command(
    name: str, fmt: str, output: str | None, event: str | None, lang: str | None, force: bool
) -> None:
    """Export a stored set: .gdn hand records, JSON, printable HTML hand records or a PDF.

    An existing output file is replaced only with --force; a seed file never."""
    lang = cli_lang(lang)
    from duplicate.boards import hand_records, load_set
    from duplicate.handrecords import render_html

    if fmt == "pdf" and output in (None, "-"):
        raise click.UsageError(say("cli.err.pdf_file"))
    check_output(output, force)
    with open_database() as engine:
        board_set = load_set(engine, name)
    if fmt == "pdf":
        from duplicate.errors import DuplicateError
        from duplicate.handrecords import render_pdf

        try:
            data = render_pdf(board_set, event, lang)
        except DuplicateError as exc:
            raise click.ClickException(error_text(exc)) from exc
        try:
            Path(str(output)).write_bytes(data)
        except OSError as exc:
            raise click.ClickException(cannot("cli.cannot_write", output, exc)) from exc
        return
    if fmt == "html":
        text = render_html(board_set, event, lang)
    elif fmt == "json":
        text = json_text(board_set.to_dict())
    else:
        text = hand_records(board_set.boards, event)
    write_output(text, output, force)




@deals_group.command("delete")
@click.argument("name")
@click.option("--by", required=True, help="Who deletes it.")
@click.option("--reason", required=True, help="Why.")
@db_option
@db_errors
def deals_delete_command(name: str, by: str, reason: str) -> None:
    """Delete the stored set NAME, if no event round plays it and no stored record names
    its boards (logged: 'guandan event log')."""
    from duplicate.events import delete_board_set

    with open_database() as engine:
        delete_board_set(engine, name, by=by, reason=reason)
    click.echo(say("cli.set.deleted", name=name))
