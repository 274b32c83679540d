"""The ``guandan`` command line (click only: each command calls the library).

This module is the root group; the commands live in the ``commands`` package, one module
a family. Library exceptions (``engine.errors.GuandanError`` and the ``duplicate``
package's own) are turned into ``click.ClickException`` (one clear line, exit 1); usage
errors exit 2. ``--db URL`` is accepted here, on a group, or after any command.
"""

from __future__ import annotations

import sys

import click

from duplicate.commands.common import env_lang, lang_in_args
from duplicate.i18n import engine_phrase, gettext
from engine.errors import GuandanError

try:  # the engine chooses its core when first imported: a bad GUANDAN_CORE is one error line
    import engine.core  # noqa: F401
except GuandanError as _refused:
    _lang = lang_in_args(sys.argv[1:]) or env_lang() or "en"
    _said = engine_phrase(_refused)
    _text = _said if isinstance(_said, str) else _said.text(_lang)
    click.echo(gettext(_lang, "cli.error", message=_text), err=True)
    raise SystemExit(1) from None

from duplicate.commands.analyse import analyse_command
from duplicate.commands.arena import agent_command, arena_group
from duplicate.commands.clickwords import install as click_in_language
from duplicate.commands.common import LangGroup, bound_integers, db_option, lang_option
from duplicate.commands.deals import db_group, deals_group
from duplicate.commands.demo import demo_command, pairs_command
from duplicate.commands.engine import plays_command, read_command, version_command
from duplicate.commands.events import event_group
from duplicate.commands.helps import install as help_in_language
from duplicate.commands.records import (
    compare_command,
    import_command,
    replay_command,
    simulate_command,
)
from duplicate.commands.serve import serve_command, table_cards_command


@click.group(cls=LangGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="guandan-duplicate")
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


for _command in (
    read_command, plays_command, db_group, deals_group, replay_command, import_command,
    simulate_command, compare_command, event_group, demo_command, pairs_command, arena_group,
    agent_command, analyse_command, serve_command, version_command,
):
    main.add_command(_command)

# the hall service's printable table cards (issue 10): 'guandan event table-cards'
event_group.add_command(table_cards_command)
# every integer of the command line within the store's range (duplicate.limits)
bound_integers(main)
# every --help in the output's language (guandan --lang zh ... --help)
help_in_language(main)
# click's own words (usage errors, "Try ... for help.") in the command line's language
click_in_language()


if __name__ == "__main__":  # pragma: no cover
    main()
