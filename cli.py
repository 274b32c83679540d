"""The ``guandan`` command line (click only: each command calls the library).

Library exceptions (``engine.errors.GuandanError`` and the ``duplicate`` package's own)
are turned into ``click.ClickException`` (one clear line, exit 1); usage errors exit 2.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="guandan-duplicate")
def main() -> None:
    """Duplicate Guandan (复式掼蛋): rules engine, fair boards, records, competitions."""


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


# --- database and boards (db, deals) ---------------------------------------------


# --- records (replay, import, simulate) ------------------------------------------


# simulate (self-play: duplicate.simulate) ------------------------------------------


@main.command("simulate")
@click.option(
    "--seed",
    "seed_hex",
    metavar="HEX",
    help="Seed in hexadecimal. 64 digits are a seed file's secret (the same boards); "
    "shorter seeds are stretched with SHA-256.",
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
    """
    import sys

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
        if sys.stderr.isatty():
            with click.progressbar(plays, length=count, label="Playing", file=sys.stderr) as bar:
                outcomes = list(bar)
        else:
            outcomes = list(plays)
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(str(exc)) from exc
    records = [r for o in outcomes for r in (o.open, o.closed)]
    if output is not None:
        with click.open_file(output, "w", encoding="utf-8") as f:
            f.write(dumps(records))
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


if __name__ == "__main__":  # pragma: no cover
    main()
