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


# --- competitions (event, compare, demo) -----------------------------------------


if __name__ == "__main__":  # pragma: no cover
    main()
