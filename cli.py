"""The ``guandan`` command line (click only: each command calls the library).

This module is the root group; the commands live in the ``commands`` package, one module
a family. Library exceptions (``engine.errors.GuandanError`` and the ``duplicate``
package's own) are turned into ``click.ClickException`` (one clear line, exit 1); usage
errors exit 2. ``--db URL`` is accepted here, on a group, or after any command.
"""

from __future__ import annotations

import click

from duplicate import __version__
from duplicate.commands.clickwords import install as click_in_language
from duplicate.commands.common import LangGroup, bound_integers, db_option, lang_option
from duplicate.commands.helps import install as help_in_language
from duplicate.commands.lazy import Lazy, LazyGroup, load

#: every command of ``guandan``: where it lives, and its line in ``guandan --help`` (the
#: first sentence of its help; tests/test_cli_startup.py checks both against the command)
COMMANDS: dict[str, Lazy] = {
    "read": Lazy("duplicate.commands.engine:read_command",
                 'Print every reading of CARDS at a level (RULES.md §2-3: wild hearts may '
                 'stand for any non-joker card), one "Type rank cards" line each.'),
    "plays": Lazy("duplicate.commands.engine:plays_command",
                  "List the legal plays of a hand: one card choice per reading (type and "
                  "rank; bombs also by size), or every concrete play with --all."),
    "db": Lazy("duplicate.commands.deals:db_group",
               "Create and migrate the database (SQLite by default, or PostgreSQL)."),
    "deals": Lazy("duplicate.commands.deals:deals_group",
                  "Fair board sets: secret seeds, commitments, generation, verification, "
                  "hand records."),
    "replay": Lazy("duplicate.commands.records:replay_command",
                   "Replay every deal of the .gdn FILES and check each play and result."),
    "import": Lazy("duplicate.commands.records:import_command",
                   "Replay the .gdn FILES and store their deals in the database."),
    "simulate": Lazy("duplicate.commands.records:simulate_command",
                     "Play boards by bots in two rooms, seats swapped, and list each "
                     "board's swing."),
    "compare": Lazy("duplicate.commands.records:compare_command",
                    "Compare the rooms of each board in FILE (.gdn records, grouped by "
                    "Round, Table, Board)."),
    "event": Lazy("duplicate.commands.events:event_group",
                  "Teams events: teams, rounds (Swiss or round robin), records, scores, "
                  "standings."),
    "demo": Lazy("duplicate.commands.demo:demo_command",
                 "Show the whole service at work: boards, a two-room bot match, scores, a "
                 "report."),
    "pairs": Lazy("duplicate.commands.demo:pairs_command",
                  "Score a pairs event from the .gdn FILES of its tables and rank the pairs."),
    "arena": Lazy("duplicate.commands.arena:arena_group",
                  "AI agents play over the Guandan AI competition protocol (WebSocket + "
                  "JSON)."),
    "agent": Lazy("duplicate.commands.arena:agent_command",
                  "Connect one of our bots to a server of the Guandan AI protocol and play."),
    "analyse": Lazy("duplicate.commands.analyse:analyse_command",
                    "Annotate deal records in FILE: the value of each decision with all four "
                    "hands known."),
    "serve": Lazy("duplicate.commands.serve:serve_command",
                  "Run the tournament hall service: tables report by phone, the director "
                  "runs the rounds at /desk, results go public as they come in "
                  "(docs/SERVICE.md)."),
    "table-sim": Lazy("duplicate.commands.table_sim:table_sim_command",
                      "Play bot deals into a running hall through the device protocol, as "
                      "electronic tables would (docs/CAPTURE.md): one recorder's TOKEN for "
                      "each table and room."),
    "worker": Lazy("duplicate.commands.jobs:worker_command",
                   "Take the analysis jobs in the database's queue (PostgreSQL), one at a "
                   "time, and store each analysis."),
    "version": Lazy("duplicate.commands.engine:version_command",
                    "Print the package version and which engine core is in use (native or "
                    "pure Python)."),
}

#: the hall service's printable table cards, a command of the event group
TABLE_CARDS = "duplicate.commands.serve:table_cards_command"
#: the recorders' cards of plays captured at the table (docs/CAPTURE.md), there too
RECORDER_CARDS = "duplicate.commands.recorders:recorder_cards_command"
#: the director's side of captured boards and the live view's choice, there too
CAPTURE_DIRECTOR = tuple(f"duplicate.commands.capture_director:{name}" for name in (
    "capture_correct_command", "capture_unfinished_command", "capture_take_back_command",
    "live_command"))


class RootGroup(LangGroup, LazyGroup):
    """``guandan``: its commands imported when used (:mod:`duplicate.commands.lazy`)."""


@click.group(cls=RootGroup, lazy=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, package_name="guandan-duplicate")
@db_option
@lang_option
def main() -> None:
    """Duplicate Guandan (复式掼蛋): rules engine, fair boards, records, competitions.

    New here? 'guandan demo' shows the whole service in a second. The database is
    ./guandan.sqlite unless --db URL (here, on a group, or after any command) or
    $GUANDAN_DATABASE_URL names another; create it with 'guandan db upgrade'. Errors are
    one line on stderr, exit code 1 (usage errors 2); every command has --help. Human
    output in Chinese: 'guandan --lang zh ...' (or GUANDAN_LANG=zh).
    """




def _add_table_cards(command: click.Command) -> None:
    """'guandan event table-cards' and 'recorder-cards': the hall's commands, in the event
    group."""
    if command.name == "event" and isinstance(command, click.Group):
        command.add_command(load(TABLE_CARDS))
        command.add_command(load(RECORDER_CARDS))
        for path in CAPTURE_DIRECTOR:
            command.add_command(load(path))


main.on_load(_add_table_cards)
# every integer of the command line within the store's range (duplicate.limits)
bound_integers(main)
# every --help in the output's language (guandan --lang zh ... --help)
help_in_language(main)
# click's own words (usage errors, "Try ... for help.") in the command line's language
click_in_language()


if __name__ == "__main__":  # pragma: no cover
    main()
