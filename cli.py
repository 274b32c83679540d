"""The ``guandan`` command line (click only: each command calls the library).

Library exceptions (``engine.errors.GuandanError`` and the ``duplicate`` package's own)
are turned into ``click.ClickException`` (one clear line, exit 1); usage errors exit 2.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import click
from sqlalchemy.exc import SQLAlchemyError

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="guandan-duplicate")
def main() -> None:
    """Duplicate Guandan (复式掼蛋): rules engine, fair boards, records, competitions.

    New here? 'guandan demo' shows the whole service in a second. The database is
    ./guandan.sqlite unless a group's --db URL or $GUANDAN_DATABASE_URL names another;
    create it with 'guandan db upgrade'. Errors are one line on stderr, exit code 1
    (usage errors 2); every command has --help.
    """


# --- shared output helpers (every listing: table, --json, --csv) -------------------


def output_options(func: F) -> F:
    """Add ``--json`` and ``--csv`` to a listing command; it receives ``fmt``."""
    func = click.option(
        "--csv", "fmt", flag_value="csv", help="Write comma-separated values with a header row."
    )(func)
    func = click.option(
        "--json", "fmt", flag_value="json", help="Write JSON for programs."
    )(func)
    func = click.option(
        "--table", "fmt", flag_value="table", default=True, hidden=True
    )(func)
    return func


def emit_rows(
    rows: Iterable[Mapping[str, Any]], fmt: str, columns: Sequence[str] | None = None
) -> None:
    """Print ``rows`` as an aligned table, a JSON list, or CSV (sqlite-utils style)."""
    data = [dict(r) for r in rows]
    cols = list(columns) if columns is not None else (list(data[0]) if data else [])
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in data:
            writer.writerow({c: _cell(row.get(c)) for c in cols})
        click.echo(buf.getvalue(), nl=False)
        return
    cells = [[_cell(row.get(c)) for c in cols] for row in data]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]
    click.echo("  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)).rstrip())
    click.echo("  ".join("-" * w for w in widths))
    for r in cells:
        click.echo("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


# --- engine commands (read, plays) -----------------------------------------------


def _rules_options(func: F) -> F:
    """Add the rule variants that change readings (RULES.md §3) to an engine command."""
    func = click.option(
        "--bomb-max",
        type=click.IntRange(4, 10),
        default=10,
        show_default=True,
        help="Largest bomb, in cards (variant bomb_max).",
    )(func)
    func = click.option(
        "--joker-pair/--no-joker-pair",
        default=True,
        show_default=True,
        help="A pair of jokers may be a full house's pair (variant joker_pair_in_full_house).",
    )(func)
    return func


def _combo_row(combo: Any, level: int, tokens: list[str] | None = None) -> dict[str, Any]:
    """A play as a FORMAT.md row: type name, record rank character, card tokens.

    Without ``tokens``, sequences list their natural cards in natural order, the rest in
    level order, low to high; wild hearts come last (what they stand for is in the reading).
    """
    from engine.cards import KIND_BIT, count, format_cards, rank_name, wild_kind

    if tokens is None:
        wk = wild_kind(level)
        wilds = count(combo.cards, wk)
        natural = combo.cards - wilds * KIND_BIT[wk]
        order = None if combo.type.is_sequence else level
        tokens = format_cards(natural, order).split() + format_cards(wilds * KIND_BIT[wk]).split()
    return {"type": combo.type.record_name, "rank": rank_name(combo.rank), "cards": tokens}


def _level_option(text: str) -> int:
    """The ``--level`` of an engine command as a rank index; a bad one names the option."""
    from engine.cards import parse_level
    from engine.errors import GuandanError

    try:
        return parse_level(text)
    except GuandanError as exc:
        raise click.ClickException(
            f"--level: invalid rank {text!r} for a level: a level is 2-9, T, J, Q, K or A"
        ) from exc


def _hand_option(text: str) -> Any:
    """The ``--hand`` of ``guandan plays``: 1 to 27 cards (a dealt hand, RULES.md §1)."""
    from engine.cards import parse_cards, size
    from engine.errors import GuandanError

    try:
        held = parse_cards(text)
    except GuandanError as exc:
        raise click.ClickException(f"--hand: {exc}") from exc
    if size(held) == 0:
        raise click.UsageError("--hand: no cards given (e.g. --hand \"S2 S2 H3\")")
    if size(held) > _HAND_SIZE:
        raise click.ClickException(
            f"--hand: {size(held)} cards, but a hand holds at most {_HAND_SIZE}"
        )
    return held


#: Cards dealt to each player (two packs of 108 among four).
_HAND_SIZE = 27


def _echo_plays(rows: list[dict[str, Any]], fmt: str) -> None:
    """Print plays as ``Type rank  cards`` lines, or through :func:`emit_rows`."""
    if fmt != "table":
        emit_rows(rows, fmt, ["type", "rank", "cards"])
        return
    width = max((len(r["type"]) + 1 + len(r["rank"]) for r in rows), default=0)
    for r in rows:
        click.echo(f"{(r['type'] + ' ' + r['rank']).ljust(width)}  {' '.join(r['cards'])}")


@main.command("read")
@click.option("--level", required=True, metavar="RANK", help="The deal's level, 2..A (e.g. 7).")
@click.argument("cards", nargs=-1, required=True)
@_rules_options
@output_options
def read_command(
    level: str, cards: tuple[str, ...], bomb_max: int, joker_pair: bool, fmt: str
) -> None:
    """Print every reading of CARDS at a level (RULES.md §2-3: wild hearts may stand for any
    non-joker card), one "Type rank  cards" line each.

    \b
    Example: guandan read --level 7 S5 H7 D5 C5
    """
    from engine.cards import KIND_TOKENS, parse_cards, parse_kind
    from engine.errors import GuandanError
    from engine.reading import readings
    from engine.ruleset import Ruleset

    tokens = [t for arg in cards for t in arg.split()]
    if not tokens:
        raise click.UsageError("CARDS: no cards given (e.g. guandan read --level 7 S5 S5)")
    lv = _level_option(level)
    try:
        found = readings(
            parse_cards(tokens), lv, Ruleset(joker_pair_in_full_house=joker_pair, bomb_max=bomb_max)
        )
        shown = [KIND_TOKENS[parse_kind(t)] for t in tokens]
    except GuandanError as exc:
        raise click.ClickException(str(exc)) from exc
    rows = [_combo_row(c, lv, shown) for c in found]
    if fmt == "table" and not rows:
        click.echo(f"{' '.join(shown)}: no combination at level {level.upper()}")
        return
    _echo_plays(rows, fmt)


@main.command("plays")
@click.option("--level", required=True, metavar="RANK", help="The deal's level, 2..A (e.g. 7).")
@click.option("--hand", required=True, metavar="CARDS", help='The hand, e.g. "S2 S2 H3 … HR".')
@click.option(
    "--follow",
    metavar="PLAY",
    help='The play to beat, as FORMAT.md writes it: "Straight 3 S3 H4 C5 D6 H7" '
    "(or its cards alone, read by RULES.md §5).",
)
@click.option(
    "--all", "all_plays", is_flag=True, help="Every concrete card choice, not one per reading."
)
@_rules_options
@output_options
def plays_command(
    level: str,
    hand: str,
    follow: str | None,
    all_plays: bool,
    bomb_max: int,
    joker_pair: bool,
    fmt: str,
) -> None:
    """List the legal plays of a hand: one card choice per reading (type and rank; bombs
    also by size), or every concrete play with --all. Leading unless --follow is given.

    \b
    Example: guandan plays --level 7 --hand "S2 S2 H3 C4 D5 S6 H7 H7" --follow "Pair 3 S3 C3"
    """
    from engine.errors import GuandanError
    from engine.moves import legal_plays, legal_readings
    from engine.reading import parse_play
    from engine.ruleset import Ruleset

    rules = Ruleset(joker_pair_in_full_house=joker_pair, bomb_max=bomb_max)
    lv = _level_option(level)
    held = _hand_option(hand)
    try:
        to_beat = None if follow is None else parse_play(follow, lv, None, rules)
    except GuandanError as exc:
        raise click.ClickException(f"--follow: {exc}") from exc
    try:
        found = (
            list(legal_plays(held, lv, to_beat, rules))
            if all_plays
            else legal_readings(held, lv, to_beat, rules)
        )
    except GuandanError as exc:
        raise click.ClickException(str(exc)) from exc
    rows = [_combo_row(c, lv) for c in found]
    _echo_plays(rows, fmt)
    if fmt == "table":
        what = "play" if all_plays else "reading"
        against = "" if to_beat is None else f" beating {to_beat.describe()}"
        if rows:
            click.echo(f"{len(rows)} legal {what}{'s' if len(rows) != 1 else ''}{against}")
        else:
            click.echo(f"no legal play{against}: pass")


# --- database and boards (db, deals) ---------------------------------------------

_DB_URL_KEY = "guandan.db_url"
_DB_HELP = (
    "Database URL (any SQLAlchemy URL, e.g. postgresql://user@host/db). Default: "
    "$GUANDAN_DATABASE_URL, else sqlite:///guandan.sqlite in the current directory."
)


def _db_errors(func: F) -> F:
    """Turn the library's exceptions into one clear line and exit code 1."""
    import functools

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from duplicate.errors import DuplicateError
        from engine.errors import GuandanError

        try:
            return func(*args, **kwargs)
        except (DuplicateError, GuandanError) as exc:
            raise click.ClickException(str(exc)) from exc
        except OSError as exc:  # an output file or folder that cannot be written
            raise click.ClickException(_os_error_text(exc)) from exc
        except SQLAlchemyError as exc:  # locked, disk full, server gone: one line, not a trace
            from duplicate.db import error_reason

            raise click.ClickException(f"the database failed: {error_reason(exc)}") from exc

    return wrapper  # type: ignore[return-value]


def _os_error_text(exc: OSError) -> str:
    """One line for a file system error: the path and the system's reason."""
    if exc.filename is None:
        return str(exc)
    return f"{exc.filename}: {exc.strerror or exc}"


def _db_engine() -> Any:
    """An engine on the database chosen by ``--db`` (or the environment, or the default)."""
    from duplicate.db import make_engine

    return make_engine(click.get_current_context().meta.get(_DB_URL_KEY))


@contextlib.contextmanager
def _database() -> Iterator[Any]:
    """:func:`_db_engine`, disposed of when the command is done with it."""
    engine = _db_engine()
    try:
        yield engine
    finally:
        engine.dispose()


def _db_progress(total: int, label: str) -> Any:
    """A progress callback context: a bar on stderr when it is a terminal, else silent."""
    import sys

    if not sys.stderr.isatty():
        return contextlib.nullcontext(None)
    bar = click.progressbar(length=total, label=label, file=sys.stderr)

    @contextlib.contextmanager
    def running() -> Any:
        with bar:
            yield bar.update

    return running()


def _db_write(text: str, output: str | None) -> None:
    """Write ``text`` to the file ``output`` (``-`` or none: standard output).

    A path that cannot be written (missing folder, no permission) is one clear error line.
    """
    try:
        with click.open_file(output or "-", "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise click.ClickException(
            f"cannot write {output!r}: {exc.strerror or exc}"
        ) from exc


def _db_json(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


@main.group("db")
@click.option("--db", "db_url", metavar="URL", help=_DB_HELP)
@click.pass_context
def db_group(ctx: click.Context, db_url: str | None) -> None:
    """Create and migrate the database (SQLite by default, or PostgreSQL)."""
    ctx.meta[_DB_URL_KEY] = db_url


@db_group.command("upgrade")
@click.option("--revision", default="head", show_default=True, help="Migrate up to this revision.")
@_db_errors
def db_upgrade_command(revision: str) -> None:
    """Create the database or migrate it to the newest schema (Alembic migrations)."""
    from duplicate.db import current_revision, upgrade

    with _database() as engine:
        upgrade(engine, revision)
        click.echo(f"database {engine.url.render_as_string()} at revision {current_revision(engine)}")


@db_group.command("current")
@_db_errors
def db_current_command() -> None:
    """Show the database's schema revision and the newest one."""
    from duplicate.db import check_reachable, current_revision, head_revision

    with _database() as engine:
        check_reachable(engine)
        click.echo(f"current: {current_revision(engine) or 'none (empty)'}")
        click.echo(f"newest:  {head_revision()}")


@main.group("deals")
@click.option("--db", "db_url", metavar="URL", help=_DB_HELP)
@click.pass_context
def deals_group(ctx: click.Context, db_url: str | None) -> None:
    """Fair board sets: secret seeds, commitments, generation, verification, hand records.

    Before the event: 'deals seed' (publish the commitment it prints), 'deals generate'.
    After it: 'deals reveal' (publish the seed), anyone: 'deals verify'.
    """
    ctx.meta[_DB_URL_KEY] = db_url


@deals_group.command("seed")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--delayed-info",
    metavar="TEXT",
    help="Announce delayed information to be mixed into the seed (e.g. 'closing value of "
    "an index on 2026-12-01'); its value is then required to generate the boards.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@_db_errors
def deals_seed_command(path: str, delayed_info: str | None, as_json: bool) -> None:
    """Create a new secret seed file PATH (mode 0600) and print its commitment to publish."""
    from duplicate.dealing import create_seed_file

    seed = create_seed_file(path, delayed_info=delayed_info)
    if as_json:
        click.echo(_db_json({"seed_file": path, "commitment": seed.commitment,
                             "generator": seed.generator, "delayed_info": seed.delayed_info}),
                   nl=False)
        return
    click.echo(f"seed file {path} created; keep it secret until the boards have been played")
    click.echo(f"commitment (publish this now): {seed.commitment}")


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
@_db_errors
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
) -> None:
    """Generate a set of N boards from SEED_FILE, into the database and/or a file.

    A board already stored (same DealId) is refused and nothing is stored. Without
    --store and without --output, the boards go to standard output.

    \b
    Example: guandan deals generate cup.seed -n 32 --level-schedule cycle
    """
    import dataclasses
    from pathlib import Path

    from duplicate.boards import generate_set, hand_records, store_set
    from duplicate.dealing import read_seed_file

    seed = read_seed_file(seed_file)
    set_name = name or Path(seed_file).stem
    with _db_progress(count, "Dealing") as tick:
        board_set = generate_set(seed, count, set_name, schedule, delayed, tick)
    if store:
        with _database() as engine:
            with _db_progress(count, "Storing") as tick:
                info = store_set(engine, board_set, tick)  # now with its creation time
            board_set = dataclasses.replace(board_set, info=info)
    if output is not None or not store:
        text = _db_json(board_set.to_dict()) if as_json else hand_records(board_set.boards, event)
        _db_write(text, output)
    if output == "-" or not store:
        return
    info = board_set.info
    if as_json:
        click.echo(_db_json(info.to_dict()), nl=False)
    else:
        click.echo(f"stored set {info.name!r}: {info.board_count} boards, levels "
                   f"{info.level_schedule}, commitment {info.commitment}")


@deals_group.command("list")
@output_options
@_db_errors
def deals_list_command(fmt: str) -> None:
    """List the stored board sets."""
    from duplicate.boards import list_sets

    with _database() as engine:
        rows = [s.to_dict() for s in list_sets(engine)]
    columns = ["name", "board_count", "level_schedule", "generator", "revealed", "commitment"]
    emit_rows(rows, fmt, None if fmt == "json" else columns)


@deals_group.command("show")
@click.argument("name")
@click.option("-b", "--board", "numbers", type=click.IntRange(min=1), multiple=True,
              help="Show only this board (repeatable).")
@click.option("--event", metavar="TEXT", help="Event tag of the hand records.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@_db_errors
def deals_show_command(name: str, numbers: tuple[int, ...], event: str | None, as_json: bool) -> None:
    """Show a stored set: its generator, commitment and levels, then its boards as .gdn."""
    from duplicate.boards import hand_records, load_set

    with _database() as engine:
        board_set = load_set(engine, name, numbers or None)
    if as_json:
        click.echo(_db_json(board_set.to_dict()), nl=False)
        return
    info = board_set.info
    click.echo(f"; set {info.name}: {info.board_count} boards, generator {info.generator}, "
               f"levels {info.level_schedule}")
    click.echo(f"; commitment {info.commitment}"
               + (f", delayed value {info.delayed_value!r}" if info.delayed_value else "")
               + ("; seed revealed" if info.revealed_seed else "; seed not revealed"))
    click.echo()
    click.echo(hand_records(board_set.boards, event), nl=False)


@deals_group.command("reveal")
@click.argument("seed_file", type=click.Path(dir_okay=False))
@click.option("--set", "set_name", help="Record the seed as revealed for this stored set "
              "(after checking it against the set's commitment).")
@click.option("--commitment", metavar="HEX", help="Also check against the published commitment.")
@_db_errors
def deals_reveal_command(seed_file: str, set_name: str | None, commitment: str | None) -> None:
    """Print SEED_FILE for publication once the boards have been played."""
    from duplicate.boards import reveal_set
    from duplicate.dealing import read_seed_file
    from duplicate.errors import VerificationError

    seed = read_seed_file(seed_file)
    if set_name is not None:
        with _database() as engine:
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
@click.option("--delayed", metavar="VALUE", help="The delayed value (default: the stored one).")
@click.option("--commitment", metavar="HEX", help="Also check against the published commitment.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@_db_errors
def deals_verify_command(
    seed_file: str,
    set_name: str | None,
    gdn_file: str | None,
    schedule: str,
    delayed: str | None,
    commitment: str | None,
    as_json: bool,
) -> None:
    """Regenerate boards from their revealed SEED_FILE and check every one.

    With --set: the stored set, against its stored commitment (and --commitment, the
    published one); on success the seed is recorded as revealed. With --gdn: published
    hand records, by anyone, without a database. Every board's hands, level, leader and
    DealId are compared; exits 1 naming the first difference.

    \b
    Examples: guandan deals verify cup.seed --set cup
              guandan deals verify cup.seed --gdn cup.gdn --level-schedule cycle
    """
    from duplicate.boards import set_info, verify_hand_records, verify_set
    from duplicate.dealing import read_seed_file

    if (set_name is None) == (gdn_file is None):
        raise click.UsageError("give exactly one of --set NAME and --gdn FILE")
    seed = read_seed_file(seed_file)
    if gdn_file is not None:
        from duplicate.gdn import decode

        with click.open_file(gdn_file, "rb") as f:
            text = decode(f.read(), gdn_file)  # not UTF-8: one GdnError line, not a traceback
        checked = verify_hand_records(seed, text, schedule, delayed, commitment, gdn_file)
        if as_json:
            doc = {"ok": True, "boards_checked": checked, "commitment": seed.commitment}
            click.echo(_db_json(doc), nl=False)
        else:
            click.echo(f"{gdn_file}: {checked} boards match the seed file, "
                       f"commitment {seed.commitment}")
        return
    assert set_name is not None
    with _database() as engine:
        total = set_info(engine, set_name).board_count
        with _db_progress(total, "Verifying") as tick:
            result = verify_set(engine, set_name, seed, delayed, commitment, tick)
    if as_json:
        click.echo(_db_json(result.to_dict()), nl=False)
        return
    click.echo(f"set {set_name!r} verified: {result.boards_checked} boards match the seed file, "
               f"commitment {result.info.commitment}")


@deals_group.command("export")
@click.argument("name")
@click.option("-f", "--format", "fmt", type=click.Choice(["gdn", "json", "html"]), default="gdn",
              show_default=True, help="gdn hand records, JSON, or a printable HTML page.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this file (default: standard output).")
@click.option("--event", metavar="TEXT", help="Event tag (gdn) or page title (html).")
@_db_errors
def deals_export_command(name: str, fmt: str, output: str | None, event: str | None) -> None:
    """Export a stored set: .gdn hand records, JSON, or printable HTML hand records."""
    from duplicate.boards import hand_records, load_set
    from duplicate.handrecords import render_html

    with _database() as engine:
        board_set = load_set(engine, name)
    if fmt == "html":
        text = render_html(board_set, event)
    elif fmt == "json":
        text = _db_json(board_set.to_dict())
    else:
        text = hand_records(board_set.boards, event)
    _db_write(text, output)



# --- records (replay, import, simulate) ------------------------------------------

_REPLAY_COLUMNS = ("file", "line", "board", "room", "plays", "finish", "result", "status", "error")


def _ruleset(variants: tuple[str, ...]) -> Any:
    """The ``Ruleset`` of ``--variant NAME=VALUE`` options (usage error when one is bad)."""
    from dataclasses import fields

    from engine.ruleset import Ruleset

    kinds = {f.name: f.type for f in fields(Ruleset)}
    values: dict[str, Any] = {}
    for item in variants:
        name, _, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if name not in kinds or not text.strip():
            raise click.BadParameter(
                f"{item!r}: expected NAME=VALUE with NAME one of {', '.join(kinds)}",
                param_hint="--variant",
            )
        if kinds[name] in (bool, "bool"):
            if text.strip().lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise click.BadParameter(
                    f"{item!r}: {name} is true or false", param_hint="--variant"
                )
            values[name] = text.strip().lower() in ("true", "1", "yes", "on")
        else:
            try:
                values[name] = int(text)
            except ValueError:
                raise click.BadParameter(
                    f"{item!r}: {name} is a number", param_hint="--variant"
                ) from None
    try:
        return Ruleset.from_dict(values)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--variant") from None


@main.command("replay")
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
    from duplicate.replay import check_files

    check = check_files(files, strict=strict, jobs=jobs, rules=_ruleset(variants))
    with _db_progress(check.total, "Replaying") as tick:
        reports = list(check.reports(tick))
    emit_rows((r.to_dict() for r in reports), fmt, _REPLAY_COLUMNS)
    failed = sum(not r.ok for r in reports)
    if fmt == "table":
        n = len(reports)
        _first_failure(failed, n, "replayed", [r.error for r in reports if not r.ok])
        click.echo(f"{n} deal{'' if n == 1 else 's'}: {n - failed} replayed, {failed} failed")
    if failed:
        click.get_current_context().exit(1)


def _first_failure(failed: int, total: int, verb: str, errors: Sequence[str | None]) -> None:
    """Under a table with failed rows, one line on stderr naming the first failure (file,
    line, seat and reason), so that the failure is seen even when stdout is redirected.

    Only for the table: with --json or --csv the rows on stdout carry every error for the
    program reading them. The summary line stays last on stdout.
    """
    if not failed:
        return
    first = next((e for e in errors if e), "see the listing")
    click.echo(
        f"Error: {failed} of {total} deal{'' if total == 1 else 's'} not {verb}; first: {first}",
        err=True,
    )


_IMPORT_COLUMNS = ("file", "line", "board", "room", "status", "record_id", "version", "error")


@main.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--db", "db_url", metavar="URL", help=_DB_HELP)
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
@click.option(
    "--correction", is_flag=True, help="Replace the stored record of each board and room."
)
@click.option("--reason", metavar="TEXT", help="Why the correction is made (with --correction).")
@click.option("--by", "by", metavar="NAME", help="Who makes the correction (with --correction).")
@click.option(
    "--variant",
    "variants",
    metavar="NAME=VALUE",
    multiple=True,
    help="A rule variant of RULES.md the deals were played under, e.g. jiefeng_next=true "
    "(repeatable; default: the competition rules). Stored with each record, and part of its key.",
)
@output_options
@_db_errors
def import_command(
    files: tuple[str, ...],
    db_url: str | None,
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
    from duplicate.records import Correction, import_files

    if correction and not (reason and by):
        raise click.UsageError("--correction needs --reason TEXT and --by NAME")
    if not correction and (reason or by):
        raise click.UsageError("--reason and --by go with --correction")
    fix = Correction(reason, by) if correction and reason and by else None
    rules = _ruleset(variants)
    click.get_current_context().meta[_DB_URL_KEY] = db_url
    with _database() as engine:
        with _db_progress(len(files), "Importing") as tick:
            outcomes = list(
                import_files(
                    engine,
                    files,
                    per="deal" if per == "deal" else "file",
                    board_set=board_set,
                    correction=fix,
                    rules=rules,
                    progress=tick,
                )
            )
    emit_rows((o.to_dict() for o in outcomes), fmt, _IMPORT_COLUMNS)
    failed = sum(not o.ok for o in outcomes)
    if fmt == "table":
        counts = {
            s: sum(o.status == s for o in outcomes) for s in ("stored", "unchanged", "corrected")
        }
        n = len(outcomes)
        # The deals rolled back with a failing one say so; name the one that failed.
        causes = [o.error for o in outcomes if not o.ok and o.status != "rolled back"]
        _first_failure(failed, n, "stored", causes or [o.error for o in outcomes])
        click.echo(
            f"{n} deal{'' if n == 1 else 's'}: {counts['stored']} stored, "
            f"{counts['unchanged']} already stored, {counts['corrected']} corrected, "
            f"{failed} not stored"
        )
    if failed:
        click.get_current_context().exit(1)


# simulate (self-play: duplicate.simulate) ------------------------------------------


@main.command("simulate")
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
    help="Team X's bots: heuristic or random.",
)
@click.option(
    "--y", "team_y", default="heuristic", show_default=True, metavar="POLICY",
    help="Team Y's bots: heuristic or random.",
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
    fmt: str,
) -> None:
    """Play boards by bots in two rooms, seats swapped, and list each board's swing.

    Open room: team X sits N-S and Y E-W; closed room: Y N-S and X E-W; same cards at
    each seat. The same seed gives byte-identical records, which replay cleanly.

    \b
    Example: guandan simulate --seed-file cup.seed --level-schedule cycle --boards 16 -o match.gdn
    """
    from duplicate.dealing import GENERATOR_ID, LevelSchedule, read_seed_file
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
        raise click.UsageError("give exactly one of --seed HEX and --seed-file FILE")
    if stats and fmt == "csv":
        raise click.UsageError("--stats has no CSV form: use the table or --json")
    if output == "-" and fmt != "table":
        raise click.UsageError(f"-o - writes the records to standard output: no room for --{fmt}")
    try:
        if seed_file is not None:
            seeds = read_seed_file(seed_file)
            key, generator = seeds.key(delayed), seeds.generator
        else:
            assert seed_hex is not None
            try:
                seed = bytes.fromhex(seed_hex)
            except ValueError:
                raise click.BadParameter(
                    f"{seed_hex!r} is not hexadecimal (e.g. 1f2e)", param_hint="--seed"
                ) from None
            key, generator = simulation_key(seed), GENERATOR_ID
        plays = simulate_boards(
            key, count, team_x, team_y, LevelSchedule.parse(schedule), generator
        )
        outcomes = []
        with _db_progress(count, "Playing") as tick:
            for outcome in plays:
                outcomes.append(outcome)
                if tick is not None:
                    tick(1)
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(str(exc)) from exc
    records = [r for o in outcomes for r in (o.open, o.closed)]
    if output is not None:
        _db_write(dumps(records), output)
    summary = play_statistics(records) if stats else None
    if output == "-":
        if summary is not None:
            click.echo(format_statistics(summary), err=True)
        return
    rows = [o.row() for o in outcomes]
    total = sum(o.swing for o in outcomes)
    if fmt == "json":
        doc: dict[str, Any] = {"boards": rows, "x_total_swing": total}
        if summary is not None:
            doc["stats"] = summary.to_dict()
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    emit_rows(rows, fmt)
    if fmt == "table":
        click.echo(f"team X ({team_x}) against team Y ({team_y}): total swing {total:+d} "
                   f"over {len(rows)} boards")
        if summary is not None:
            click.echo()
            click.echo(format_statistics(summary))


# --- competitions (event, compare, demo) -----------------------------------------


# compare (the rooms of a board side by side: duplicate.compare, duplicate.report) ------


@main.command("compare")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--board", metavar="N", help="Compare only this board (its Board tag).")
@click.option(
    "--detail/--no-detail",
    default=None,
    help="Show each board's divergence and seat-by-seat figures in the table "
    "(default: only when one board is compared).",
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
@click.option("--analyse", is_flag=True, help="Also value each room's choices from the first "
              "divergence with all four hands known (guandan analyse; 1 s a position).")
@output_options
def compare_command(
    file: str,
    board: str | None,
    detail: bool | None,
    html_dir: str | None,
    variants: tuple[str, ...],
    fmt: str,
    analyse: bool = False,
) -> None:
    """Compare the rooms of each board in FILE (.gdn records, grouped by Board tag).

    Every record is replayed; per room the finish and N-S result, per seat the plays,
    passes, tricks won, leads, bombs, wild hearts and what they stood for, cards left and
    接风; the first divergence between the rooms and the swing (first room's N-S result
    minus the second's: team X's when Open comes first). The table lists the boards;
    --csv gives one row per room and seat; --json the whole comparison.

    \b
    Example: guandan compare match.gdn --board 3
    """
    from duplicate.compare import SEAT_COLUMNS, board_lines, compare_file, headline
    from duplicate.errors import DuplicateError
    from duplicate.report import match_report, write_report
    from engine.errors import GuandanError

    rules = _ruleset(variants)
    try:
        comparisons = compare_file(file, board, rules)
        if html_dir is not None:
            write_report(html_dir, match_report(comparisons))
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(str(exc)) from exc
    except OSError as exc:  # the --html folder cannot be made or written
        raise click.ClickException(f"--html: {_os_error_text(exc)}") from exc
    if analyse:
        from commands.analyse import analyse_comparisons
        analyses, analysis_lines = analyse_comparisons(file, board, rules)
    if fmt == "json":
        click.echo(json.dumps([{**c.to_dict(), **({"analysis": analyses[i]} if analyse else {})}
                               for i, c in enumerate(comparisons)], ensure_ascii=False, indent=2))
    elif fmt == "csv":
        emit_rows((row for c in comparisons for row in c.seat_rows()), fmt, SEAT_COLUMNS)
    else:
        emit_rows(board_lines(comparisons), fmt)
        swings = [c.swing for c in comparisons if c.swing is not None]
        click.echo(f"{len(comparisons)} board(s); total swing {sum(swings):+d}")
        if detail or (detail is None and len(comparisons) == 1):
            for c in comparisons:
                click.echo()
                click.echo("\n".join(headline(c)))
                emit_rows(c.seat_rows(), fmt, SEAT_COLUMNS[1:])
        if analyse:
            click.echo("\n".join(analysis_lines))


# event (teams events in the database: duplicate.events) --------------------------------

_EVENT_MATCH_COLUMNS = ("round", "table", "team_x", "team_y", "open", "closed")
_EVENT_SCORE_COLUMNS = (
    "round", "table", "team_x", "team_y", "margin", "points_x", "points_y", "unfinished"
)
_EVENT_STANDING_COLUMNS = (
    "rank", "team", "played", "points", "progressive", "rounds_won", "swing", "levels",
    "decided_by",
)
_EVENT_BOARD_COLUMNS = ("board", "level", "leader", "open", "closed", "swing", "status")


def _event_match_row(m: Any) -> dict[str, Any]:
    """A match as a listing row: the rooms' seating as ``N name, E name, ...`` text."""
    row: dict[str, Any] = m.to_dict()
    for room in ("open", "closed"):
        row[room] = ", ".join(f"{seat} {name}" for seat, name in row[room].items())
    return row


def _event_standing_row(r: Any) -> dict[str, Any]:
    return {
        "rank": r.rank, "team": r.team, "played": r.played, "points": r.points,
        "progressive": r.progressive, "rounds_won": r.rounds_won, "swing": r.swing,
        "levels": r.levels, "opponents_points": r.opponents_points, "lot": r.lot,
        "decided_by": r.decided_by,
    }


def _event_correction(by: str | None, reason: str | None, required: bool) -> Any:
    """A ``Correction`` from ``--by``/``--reason``; both are needed when ``required``."""
    from duplicate.events import Correction

    if by is None and reason is None and not required:
        return None
    if not by or not reason:
        raise click.UsageError("a correction needs both --by NAME and --reason TEXT")
    return Correction(reason=reason, by=by)


@main.group("event")
@click.option("--db", "db_url", metavar="URL", help=_DB_HELP)
@click.pass_context
def event_group(ctx: click.Context, db_url: str | None) -> None:
    """Teams events: teams, rounds (Swiss or round robin), records, scores, standings.

    Typical run: 'event create', 'event team add' (or --teams-file), then per round
    'event pair-round', 'event assign-boards', 'event import' (or 'event play-bots'),
    'event score'; at any time 'event standings' and 'event report'.
    """
    ctx.meta[_DB_URL_KEY] = db_url


@event_group.command("create")
@click.argument("name")
@click.option("--teams-file", type=click.Path(dir_okay=False),
              help="Teams to enter, one a line: 'TEAM: player, player, player, player'.")
@click.option("--seed", metavar="HEX", help="The event's seed for draws (default: a new secret).")
@click.option("--scale", type=click.Choice(["wdl", "vp20"]), default="wdl", show_default=True,
              help="Match points: win/draw/loss 2/1/0 or the 20-0 VP scale.")
@click.option("--format", "fmt_", type=click.Choice(["swiss", "rr"]), default="swiss",
              show_default=True, help="Swiss pairing or round robin.")
@click.option("--boards-per-round", type=click.IntRange(min=1), default=8, show_default=True,
              help="Boards played in each round.")
@click.option("--rounds", type=click.IntRange(min=1), default=3, show_default=True,
              help="Number of rounds.")
@click.option("--unfinished", type=click.Choice(["average", "not-scored"]), default="average",
              show_default=True, help="How an unfinished board is scored.")
@click.option("--bye-points", type=float, default=None,
              help="Match points of a bye (default: 2 on wdl, 12 on vp20).")
@click.option("--bye-won/--bye-not-won", default=True, show_default=True,
              help="Whether a bye counts as a round won (a tie-break).")
@click.option("--variant", "variants", metavar="NAME=VALUE", multiple=True,
              help="A rule variant of RULES.md the event plays under, e.g. jiefeng_next=true "
              "(repeatable; default: the competition rules). Records are replayed and scored "
              "under it.")
@_db_errors
def event_create_command(
    name: str, teams_file: str | None, seed: str | None, scale: str, fmt_: str,
    boards_per_round: int, rounds: int, unfinished: str, bye_points: float | None,
    bye_won: bool, variants: tuple[str, ...],
) -> None:
    """Create the event NAME (and enter the teams of --teams-file, in one transaction).

    \b
    Example: guandan event create "Huai'an Cup" --teams-file teams.txt --rounds 3 --scale vp20
    """
    from duplicate.events import create_event, read_teams_file
    from duplicate.records import describe_rules

    rules = _ruleset(variants)
    teams = read_teams_file(teams_file) if teams_file is not None else []
    with _database() as engine:
        info = create_event(
            engine, name, seed=seed, scale=scale, fmt=fmt_, boards_per_round=boards_per_round,
            rounds=rounds, unfinished=unfinished, bye_points=bye_points, bye_won=bye_won,
            teams=teams, rules=rules,
        )
    click.echo(
        f"event {info.name!r}: {info.format}, {info.rounds} rounds of "
        f"{info.boards_per_round} boards, scale {info.scale.name}, seed {info.seed}, "
        f"rules {describe_rules(info.rules)}"
    )
    if teams:
        click.echo(f"{len(teams)} teams entered")


@event_group.command("list")
@output_options
@_db_errors
def event_list_command(fmt: str) -> None:
    """List the events in the database (rules: the variants that differ from the
    competition rules; --json gives every variant)."""
    from duplicate.events import list_events
    from duplicate.records import describe_rules

    with _database() as engine:
        events = list_events(engine)
    rows = [e.to_dict() for e in events]
    for r, e in zip(rows, events, strict=True):
        r["scale"] = r["scale"]["name"]
        if fmt != "json":
            r["rules"] = describe_rules(e.rules)
    emit_rows(
        rows, fmt, ("name", "format", "rounds", "boards_per_round", "scale", "unfinished", "rules")
    )


@event_group.group("team")
def event_team_group() -> None:
    """Enter and list an event's teams."""


@event_team_group.command("add")
@click.argument("event")
@click.argument("team")
@click.argument("players", nargs=-1, required=True)
@click.option("--pair", "pairs", multiple=True, metavar="A,B",
              help="A pair of the team (repeat; default: players 1-2, 3-4, 5-6).")
@_db_errors
def event_team_add_command(
    event: str, team: str, players: tuple[str, ...], pairs: tuple[str, ...]
) -> None:
    """Enter TEAM with its 4 to 6 PLAYERS into EVENT."""
    from duplicate.events import add_team

    pair_list: list[tuple[str, str]] = []
    for p in pairs:
        parts = [x.strip() for x in p.split(",")]
        if len(parts) != 2:
            raise click.BadParameter(f"{p!r} is not two players A,B", param_hint="--pair")
        pair_list.append((parts[0], parts[1]))
    with _database() as engine:
        info = add_team(engine, event, team, players, pair_list or None)
    click.echo(
        f"team {info.number} {info.name!r}: pairs "
        + ", ".join(f"{a}/{b}" for a, b in info.pairs)
    )


@event_team_group.command("list")
@click.argument("event")
@output_options
@_db_errors
def event_team_list_command(event: str, fmt: str) -> None:
    """List EVENT's teams with their players and pairs."""
    from duplicate.events import list_teams

    with _database() as engine:
        teams = list_teams(engine, event)
    emit_rows((t.to_dict() for t in teams), fmt, ("number", "team", "players", "pairs"))


@event_group.command("pair-round")
@click.argument("event")
@click.option("--lineup", "lineups", multiple=True, metavar="TEAM=OPEN,CLOSED",
              help="Which of a team's pairs play the open and closed rooms (default 1,2).")
@output_options
@_db_errors
def event_pair_round_command(event: str, lineups: tuple[str, ...], fmt: str) -> None:
    """Pair EVENT's next round and seat its matches (Swiss or round robin)."""
    from duplicate.events import pair_round

    chosen: dict[str, tuple[int, int]] = {}
    for item in lineups:
        team, _, nums = item.rpartition("=")
        try:
            a, b = (int(x) for x in nums.split(","))
        except ValueError:
            raise click.BadParameter(
                f"{item!r} is not TEAM=OPEN,CLOSED (e.g. Tigers=1,3)", param_hint="--lineup"
            ) from None
        chosen[team] = (a, b)
    with _database() as engine:
        rnd = pair_round(engine, event, chosen)
    emit_rows((_event_match_row(m) for m in rnd.matches), fmt, _EVENT_MATCH_COLUMNS)
    if fmt == "table":
        click.echo(f"round {rnd.number}: {len(rnd.matches)} matches"
                   + (f", bye: {rnd.bye}" if rnd.bye else ""))


@event_group.command("assign-boards")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True,
              help="The round that plays these boards.")
@click.option("--set", "set_name", help="A board set stored by 'guandan deals generate'.")
@click.option("--seed-file", type=click.Path(dir_okay=False),
              help="Generate (once) and store the event's whole set from this seed file.")
@click.option("--delayed", metavar="VALUE", help="Delayed information, if the seed file announces it.")
@click.option("--level-schedule", "schedule", default="fixed", show_default=True, metavar="SPEC",
              help="Levels of a generated set: fixed, fixed:LEVEL, cycle or random.")
@click.option("--first", type=click.IntRange(min=1), default=None,
              help="The set's first board for this round (default: by round number).")
@_db_errors
def event_assign_boards_command(
    event: str, round_no: int, set_name: str | None, seed_file: str | None,
    delayed: str | None, schedule: str, first: int | None,
) -> None:
    """Give a round of EVENT its boards, from a stored set or a seed file."""
    from duplicate.dealing import read_seed_file
    from duplicate.events import assign_boards

    if (set_name is None) == (seed_file is None):
        raise click.UsageError("give exactly one of --set NAME and --seed-file FILE")
    seed = read_seed_file(seed_file) if seed_file is not None else None
    if seed is not None and seed.delayed_info is not None and not delayed:
        raise click.UsageError("the seed file announces delayed information: give --delayed")
    with _database() as engine:
        rnd = assign_boards(
            engine, event, round_no, set_name=set_name, seed=seed, schedule=schedule,
            first=first, delayed=delayed,
        )
    click.echo(
        f"round {rnd.number}: boards {rnd.boards[0]} to {rnd.boards[-1]} of set {rnd.board_set!r}"
    )


@event_group.command("import")
@click.argument("event")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="The round of every record (default: each record's Round tag).")
@click.option("--correction", is_flag=True,
              help="Replace stored records that differ (needs --by and --reason).")
@click.option("--by", help="Who makes the correction.")
@click.option("--reason", help="Why (a director's ruling, a mistyped record, ...).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes replaying the files.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@_db_errors
def event_import_command(
    event: str, files: tuple[str, ...], round_no: int | None, correction: bool,
    by: str | None, reason: str | None, jobs: int, as_json: bool,
) -> None:
    """Import .gdn FILES of played deals into EVENT's matches (one transaction per file).

    Each record must replay cleanly, be its round's board of that number and name the
    seating's players. The same record again changes nothing; a different one needs
    --correction --by --reason.

    \b
    Example: guandan event import "Huai'an Cup" round1/*.gdn
    """
    from duplicate.events import import_files

    fix = _event_correction(by, reason, correction)
    if fix is not None and not correction:
        raise click.UsageError("--by and --reason go with --correction")
    with _database() as engine:
        with _db_progress(len(files), "Importing") as tick:
            summary = import_files(
                engine, event, files, round_no=round_no, correction=fix, jobs=jobs,
                progress=tick,
            )
    if as_json:
        click.echo(_db_json(summary.to_dict()), nl=False)
    else:
        click.echo(
            f"{summary.records} records from {summary.files} files: {summary.added} added, "
            f"{summary.unchanged} unchanged, {summary.corrected} corrected"
        )


@event_group.command("play-bots")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True,
              help="The round to play.")
@click.option("--x", "x_policy", type=click.Choice(["mixed", "heuristic", "random"]),
              default="mixed", show_default=True, help="Bots of each match's team X.")
@click.option("--y", "y_policy", type=click.Choice(["mixed", "heuristic", "random"]),
              default="mixed", show_default=True, help="Bots of each match's team Y.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Also write the records to this .gdn file.")
@_db_errors
def event_play_bots_command(
    event: str, round_no: int, x_policy: str, y_policy: str, output: str | None
) -> None:
    """Play a round of EVENT with the self-play bots and import the records."""
    from duplicate.events import play_bots

    with _database() as engine:
        summary = play_bots(engine, event, round_no, x_policy, y_policy, output)
    click.echo(f"round {round_no}: {summary.records} records played and imported")


@event_group.command("unfinished")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True, help="Round.")
@click.option("--table", type=click.IntRange(min=1), required=True, help="Table of the match.")
@click.option("--board", type=click.IntRange(min=1), required=True, help="Board number.")
@click.option("--room", type=click.Choice(["open", "closed", "both"], case_sensitive=False),
              default="both", show_default=True, help="The room(s) that did not finish it.")
@click.option("--reason", required=True, help="Why: time, withdrawal, ...")
@click.option("--by", help="Who, when this replaces a stored result (a correction).")
@_db_errors
def event_unfinished_command(
    event: str, round_no: int, table: int, board: int, room: str, reason: str, by: str | None
) -> None:
    """Record a board as unfinished; it is scored by the event's rule, never dropped."""
    from duplicate.events import ROOMS, Correction, record_unfinished

    rooms = ROOMS if room.lower() == "both" else (room.lower(),)
    fix = Correction(reason=reason, by=by) if by else None
    with _database() as engine:
        n = record_unfinished(engine, event, round_no, table, board, reason, rooms, fix)
    click.echo(f"round {round_no}, table {table}, board {board}: unfinished in {n} room(s)")


@event_group.command("correct")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True, help="Round.")
@click.option("--table", type=click.IntRange(min=1), required=True, help="Table of the match.")
@click.option("--board", type=click.IntRange(min=1), required=True, help="Board number.")
@click.option("--room", type=click.Choice(["open", "closed"], case_sensitive=False),
              required=True, help="The room whose result changes.")
@click.option("--result", "result", required=True, metavar="'NS +2'",
              help="The N-S or E-W side and its levels gained, e.g. 'NS +2' or 'EW +1'.")
@click.option("--by", required=True, help="Who makes the correction.")
@click.option("--reason", required=True, help="Why.")
@_db_errors
def event_correct_command(
    event: str, round_no: int, table: int, board: int, room: str, result: str, by: str,
    reason: str,
) -> None:
    """Set a room's result on a board by a ruling, kept with who, when and why."""
    from duplicate.events import Correction, correct_result, parse_result

    with _database() as engine:
        before = correct_result(
            engine, event, round_no, table, board, room.lower(), parse_result(result),
            Correction(reason=reason, by=by),
        )
    click.echo(f"round {round_no}, table {table}, board {board}, {room.lower()} room: "
               f"{before} -> {result}")


@event_group.command("corrections")
@click.argument("event")
@output_options
@_db_errors
def event_corrections_command(event: str, fmt: str) -> None:
    """List EVENT's corrections: who, when, why, and what changed."""
    from duplicate.events import list_corrections

    with _database() as engine:
        rows = list_corrections(engine, event)
    emit_rows(rows, fmt, ("round", "table", "board", "room", "by", "at", "reason", "before",
                          "after"))


@event_group.command("score")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="Only this round (default: every round).")
@output_options
@_db_errors
def event_score_command(event: str, round_no: int | None, fmt: str) -> None:
    """Score EVENT's matches from the stored results and publish them."""
    from duplicate.events import score_event

    with _database() as engine:
        scored = score_event(engine, event, round_no)
    emit_rows((s.to_dict() for s in scored), fmt, _EVENT_SCORE_COLUMNS)


@event_group.command("standings")
@click.argument("event")
@click.option("--after", "through", type=click.IntRange(min=1), default=None,
              help="After this round (default: the last complete round).")
@output_options
@_db_errors
def event_standings_command(event: str, through: int | None, fmt: str) -> None:
    """Show EVENT's standings, recomputed from the stored results, with the tie-breaks."""
    from duplicate.events import event_standings

    with _database() as engine:
        rows, after = event_standings(engine, event, through)
    emit_rows((_event_standing_row(r) for r in rows), fmt, _EVENT_STANDING_COLUMNS)
    if fmt == "table":
        click.echo(f"after round {after}" if after else "no round complete yet")


@event_group.command("matches")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="Only this round.")
@output_options
@_db_errors
def event_matches_command(event: str, round_no: int | None, fmt: str) -> None:
    """List EVENT's matches and who sits where in each room."""
    from duplicate.events import list_matches

    with _database() as engine:
        matches = list_matches(engine, event, round_no)
    if fmt == "json":
        emit_rows((m.to_dict() for m in matches), fmt)
    else:
        emit_rows((_event_match_row(m) for m in matches), fmt, _EVENT_MATCH_COLUMNS)


@event_group.command("boards")
@click.argument("event")
@click.argument("round_no", metavar="ROUND", type=click.IntRange(min=1))
@click.argument("table", type=click.IntRange(min=1))
@output_options
@_db_errors
def event_boards_command(event: str, round_no: int, table: int, fmt: str) -> None:
    """Show the match at TABLE of ROUND board by board: level, leader, each room's N-S
    result, and the swing to team X."""
    from duplicate.events import match_boards

    with _database() as engine:
        rows = match_boards(engine, event, round_no, table)
    emit_rows((r.to_dict() for r in rows), fmt, _EVENT_BOARD_COLUMNS)


@event_group.command("export")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="Only this round.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this file (default: standard output).")
@_db_errors
def event_export_command(event: str, round_no: int | None, output: str | None) -> None:
    """Write EVENT's stored records as .gdn text."""
    from duplicate.events import export_records

    with _database() as engine:
        text = export_records(engine, event, round_no)
    _db_write(text, output)


@event_group.command("report")
@click.argument("event")
@click.option("--out", "outdir", type=click.Path(file_okay=False), required=True,
              help="Folder to write the static HTML report into.")
@_db_errors
def event_report_command(event: str, outdir: str) -> None:
    """Write EVENT's HTML report: standings, matches board by board, each board's rooms."""
    from duplicate.events import write_event_report

    with _database() as engine:
        index = write_event_report(engine, event, outdir)
    click.echo(f"report written: {index}")


# demo (the newcomer's first command: duplicate.demo) -----------------------------------


@main.command("demo")
@click.option("--db", "db_url", metavar="URL",
              help="Database URL (default: sqlite:///guandan-demo.sqlite here).")
@click.option("--out", "outdir", type=click.Path(file_okay=False), default="guandan-demo-report",
              show_default=True, help="Folder for the HTML report.")
@click.option("--seed", "seed_hex", metavar="HEX", help="Seed of boards and bots (default: new).")
@click.option("--boards", type=click.IntRange(min=1, max=64), default=8, show_default=True,
              help="Boards in the match.")
@_db_errors
def demo_command(db_url: str | None, outdir: str, seed_hex: str | None, boards: int) -> None:
    """Show the whole service at work: boards, a two-room bot match, scores, a report.

    Generates a board set, plays a match of two teams of bots in the open and closed
    rooms, replays and scores it in the database, prints it board by board and writes
    the HTML report.
    """
    from duplicate.demo import DEFAULT_DB, run_demo

    result = run_demo(db_url or DEFAULT_DB, outdir, seed_hex, boards, echo=click.echo)
    score = result.score.score
    click.echo("")
    emit_rows((r.to_dict() for r in result.boards), "table", _EVENT_BOARD_COLUMNS)
    click.echo(
        f"margin {score.margin:+d} to {result.match.team_x}: match points "
        f"{result.match.team_x} {score.points_x:g}, {result.match.team_y} {score.points_y:g}"
    )
    click.echo(f"report: {result.report}")


# pairs (a pairs event from its tables' records: duplicate.pairs) -------------------------


@main.command("pairs")
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
@output_options
def pairs_command(
    files: tuple[str, ...],
    method: str,
    by_board: bool,
    tables: int | None,
    unfinished: str,
    variants: tuple[str, ...],
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
    from duplicate.errors import DuplicateError
    from duplicate.pairs import score_pairs_files
    from duplicate.scoring import UnfinishedRule
    from engine.errors import GuandanError

    rules = _ruleset(variants)
    try:
        result = score_pairs_files(
            files, method, rules, unfinished=UnfinishedRule(unfinished), tables=tables
        )
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(str(exc)) from exc
    if fmt == "json":
        click.echo(json.dumps(result.to_dict(by_board), ensure_ascii=False, indent=2))
        return
    if fmt == "csv":
        if by_board:
            emit_rows((d.to_dict() for d in result.detail), fmt, result.detail_columns)
        else:
            emit_rows((p.to_dict() for p in result.ranking), fmt, result.ranking_columns)
        return
    rows = [
        {**p.to_dict(), "rank": f"{p.rank}{'=' if p.tied else ''}"} for p in result.ranking
    ]
    emit_rows(rows, fmt, result.ranking_columns)
    click.echo(
        f"{len(result.ranking)} pairs, {len(result.boards)} boards, each due at "
        f"{result.tables} tables; scored by {method}"
    )
    if by_board:
        click.echo()
        emit_rows((d.to_dict() for d in result.detail), fmt, result.detail_columns)


from commands.analyse import analyse_command  # noqa: E402

main.add_command(analyse_command)

if __name__ == "__main__":  # pragma: no cover
    main()
