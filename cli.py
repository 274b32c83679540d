"""The ``guandan`` command line (click only: each command calls the library).

Library exceptions (``engine.errors.GuandanError`` and the ``duplicate`` package's own)
are turned into ``click.ClickException`` (one clear line, exit 1); usage errors exit 2.
"""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="guandan-duplicate")
def main() -> None:
    """Duplicate Guandan (复式掼蛋): rules engine, fair boards, records, competitions."""


# --- engine commands (read, plays) -----------------------------------------------


# --- database and boards (db, deals) ---------------------------------------------


# --- records (replay, import, simulate) ------------------------------------------


# --- competitions (event, compare, demo) -----------------------------------------


if __name__ == "__main__":  # pragma: no cover
    main()
