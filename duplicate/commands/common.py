"""Helpers every command module shares: listings (table, --json, --csv), the database
(``--db`` anywhere on the line, errors as one line), and ``--variant`` rule sets."""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

import click

from duplicate.commands.lazy import LazyGroup, loaded_commands
from duplicate.names import display_text, display_width
from engine.errors import GuandanError

if TYPE_CHECKING:
    from sqlalchemy.exc import SQLAlchemyError

F = TypeVar("F", bound=Callable[..., Any])


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


#: Rows of a table whose widths set the columns' (the rest are printed as they come).
TABLE_WIDTH_ROWS = 1000


def emit_rows(
    rows: Iterable[Mapping[str, Any]], fmt: str, columns: Sequence[str] | None = None,
    titles: Mapping[str, str] | None = None, vp: bool = False,
) -> None:
    """Print ``rows`` as an aligned table, a JSON list, or CSV (sqlite-utils style).

    Printed as they come (an import of a million deals holds no million rows): JSON and
    CSV row by row; a table once its first :data:`TABLE_WIDTH_ROWS` rows have set the
    column widths (a longer cell after them runs over). ``titles`` names a column's
    heading by another catalogue key than ``cli.col.NAME`` (a field named alike in two
    listings that are not the same thing: a board's swing 级差, the standings' 级差分).
    ``vp``: the points are victory points, shown in a table with two decimals (``7.20``);
    JSON keeps numbers as numbers."""
    stream = iter(rows)
    if fmt == "json":  # the text of json.dumps(list, indent=2), an item at a time
        first = True
        for row in stream:
            item = json.dumps(dict(row), ensure_ascii=False, indent=2).replace("\n", "\n  ")
            click.echo(("[\n  " if first else ",\n  ") + item, nl=False)
            first = False
        click.echo("[]" if first else "\n]")
        return
    head = [dict(r) for r in itertools.islice(stream, TABLE_WIDTH_ROWS)]
    cols = list(columns) if columns is not None else (list(head[0]) if head else [])
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in itertools.chain(head, stream):
            writer.writerow({c: _cell(row.get(c)) for c in cols})
            click.echo(buf.getvalue(), nl=False)
            buf.seek(0)
            buf.truncate()
        click.echo(buf.getvalue(), nl=False)
        return
    sep = say("list.sep")  # a list in a cell: Zhang Wei、Li Na / Zhang Wei, Li Na
    cells = [[_cell(_table_value(row.get(c), vp), sep) for c in cols] for row in head]
    heads = [column_title(c, (titles or {}).get(c)) for c in cols]  # in --lang's language
    # widths in terminal columns: a Chinese character takes two (duplicate.names)
    sizes = [[display_width(v) for v in r] for r in cells]
    widths = [
        max([display_width(h)] + [s[i] for s in sizes]) for i, h in enumerate(heads)
    ]
    click.echo("  ".join(_pad(h, w) for h, w in zip(heads, widths, strict=True)).rstrip())
    click.echo("  ".join("-" * w for w in widths))
    for r in itertools.chain(cells, ([_cell(_table_value(row.get(c), vp), sep) for c in cols]
                                     for row in stream)):
        click.echo("  ".join(_pad(v, w) for v, w in zip(r, widths, strict=True)).rstrip())


# --- numbers the store can hold ------------------------------------------------------


def bound_integers(command: click.Command) -> None:
    """Give every integer option and argument of ``command`` and its subcommands a range
    inside the store's (``duplicate.limits.INT_MIN``..``INT_MAX``): a number past it is a
    usage error naming the option (``--round: 9223372036854775808 is not in the range
    1<=x<=2147483647``), never a traceback or the database's "integer out of range"."""
    from duplicate.limits import INT_MAX, INT_MIN

    for param in command.params:
        kind = param.type
        if isinstance(kind, click.IntRange):
            if kind.max is None or kind.max > INT_MAX:
                kind.max, kind.max_open = INT_MAX, False
            if kind.min is None or kind.min < INT_MIN:
                kind.min, kind.min_open = INT_MIN, False
        elif kind is click.INT:
            param.type = click.IntRange(INT_MIN, INT_MAX)
    if isinstance(command, click.Group):
        for sub in loaded_commands(command).values():
            bound_integers(sub)
    if isinstance(command, LazyGroup):  # and each command when it is imported
        command.on_load(bound_integers)


# --- the language of human output (--lang, $GUANDAN_LANG) ----------------------------

LANG_KEY = "guandan.lang"
LANG_ENV = "GUANDAN_LANG"
LANG_HELP = (
    "Language of human output: en (English) or zh (中文). Default: $GUANDAN_LANG, else en. "
    "--json and --csv keep their field names."
)


#: the language the command line being run asks for before its ``--lang`` is parsed:
#: the ``--lang`` it holds, else $GUANDAN_LANG (set by :meth:`LangGroup.main`)
_LINE_LANG: ContextVar[str | None] = ContextVar("guandan_line_lang", default=None)


def _remember_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[LANG_KEY] = value
        _LINE_LANG.set(value)


def env_lang() -> str | None:
    """The language $GUANDAN_LANG asks for, by its language (a locale name such as
    ``zh_CN.UTF-8`` or ``en_US`` too: :func:`duplicate.i18n.language_of`); ``None`` when it
    is unset or names a language the catalogue does not speak (English is then used, and
    :meth:`LangGroup.main` says so in one line)."""
    import os

    from duplicate.i18n import language_of

    return language_of(os.environ.get(LANG_ENV))


class LangChoice(click.Choice):  # type: ignore[type-arg]
    """``--lang``: ``en`` or ``zh``, also written as a locale name (``zh_CN``, ``zh-CN``,
    ``zh_CN.UTF-8``, ``en_US``: taken by its language); anything else is refused as
    click refuses a choice."""

    def __init__(self) -> None:
        super().__init__(["en", "zh"])

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        from duplicate.i18n import language_of

        code = language_of(value) if isinstance(value, str) else None
        return code if code is not None else super().convert(value, param, ctx)


#: the type of every ``--lang`` option of the command line (one definition)
LANG_CHOICE = LangChoice()


def lang_in_args(args: Sequence[str]) -> str | None:
    """The language a command line asks for with ``--lang zh`` or ``--lang=zh`` (the
    first, before any ``--``; a locale name too, ``--lang zh_CN``), read before click
    parses it; ``None`` when it has none."""
    from duplicate.i18n import language_of

    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = (args[i + 1] if i + 1 < len(args) else None) if arg == "--lang" else (
            arg.partition("=")[2] if arg.startswith("--lang=") else None)
        code = language_of(value)
        if code is not None:
            return code
    return None


def _warn_unknown_env_lang(asked: str | None) -> None:
    """One line on standard error when $GUANDAN_LANG names a language the catalogue does
    not speak and the command line does not say ``--lang``: English is used (a setting
    of the environment does not make every command fail)."""
    import os

    from duplicate.i18n import gettext

    value = os.environ.get(LANG_ENV, "").strip()
    if value and asked is None and env_lang() is None:
        click.echo(gettext("en", "cli.lang.env_unknown", var=LANG_ENV, value=repr(value)),
                   err=True)


def line_lang(ctx: click.Context | None = None) -> str:
    """The language of click's own words (usage errors, "Usage:", "Aborted!") and of
    ``--help``: ``guandan --lang`` once parsed, else the ``--lang`` on the command line,
    else $GUANDAN_LANG, else English."""
    ctx = ctx or click.get_current_context(silent=True)
    value = ((ctx.meta.get(LANG_KEY) if ctx is not None else None) or _LINE_LANG.get()
             or env_lang())
    return value if value in ("en", "zh") else "en"


def lang_option(func: F) -> F:
    """Accept ``--lang en|zh`` on ``guandan`` itself (or a group): the language of every
    human line the command prints (table headings, summaries). Without it, $GUANDAN_LANG
    (:func:`env_lang`) is read where the language is needed, not by click: a locale name
    there is taken by its language, an unknown one falls back to English with a warning."""
    return click.option(
        "--lang", "lang_option", type=LANG_CHOICE,
        help=LANG_HELP, expose_value=False, callback=_remember_lang, is_eager=True,
    )(func)


class _ErrorIn(click.ClickException):
    """A command's error line (``Error: …``) in the language of its output."""

    def __init__(self, message: str, lang: str) -> None:
        super().__init__(message)
        self.lang = lang

    def show(self, file: Any = None) -> None:
        from duplicate.i18n import gettext

        click.echo(gettext(self.lang, "cli.error", message=self.format_message()),
                   file=file, err=file is None)


#: the engine's refusals of a GUANDAN_CORE setting (engine.core), raised by whichever
#: command first imports the engine: the command line's one error line, not a traceback
CORE_REFUSALS = ("engine.core_env", "engine.core_unavailable")


def _engine_words(exc: GuandanError) -> str:
    """An engine error in the output's language."""
    # only for this error: the catalogue (babel, jinja2) is too heavy for every start
    from duplicate.i18n import engine_phrase

    said = engine_phrase(exc)
    return said if isinstance(said, str) else said.text(cli_lang())


class LangGroup(click.Group):
    """The root group: a command's error line (a refusal of the library, a file that cannot
    be written) in the output's language, as its message already is; click's own words
    (usage errors) in the command line's language (:mod:`duplicate.commands.clickwords`)."""

    def main(self, args: Sequence[str] | None = None, *pos: Any, **kw: Any) -> Any:
        """Run the command line, click's words in the language it asks for from the
        start (:func:`line_lang`), even for an error found before ``--lang`` is parsed."""
        import sys

        line = list(sys.argv[1:] if args is None else args)
        asked = lang_in_args(line)
        token = _LINE_LANG.set(asked)
        _warn_unknown_env_lang(asked)
        try:
            return super().main(args, *pos, **kw)
        finally:
            _LINE_LANG.reset(token)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """``--help`` after the eager ``--lang``, wherever it stands: ``guandan --help
        --lang zh`` is in Chinese too (the root has no required option to miss)."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.is_eager = False
        return option

    def invoke(self, ctx: click.Context) -> Any:
        try:
            try:
                return super().invoke(ctx)
            except GuandanError as exc:  # the engine refused GUANDAN_CORE when first imported
                if exc.key not in CORE_REFUSALS:
                    raise
                raise click.ClickException(_engine_words(exc)) from None
        except click.UsageError:
            raise
        except click.ClickException as exc:
            lang = cli_lang()
            if lang == "en" or isinstance(exc, _ErrorIn) or exc.exit_code != _ErrorIn.exit_code:
                raise
            raise _ErrorIn(exc.format_message(), lang) from exc


def explicit_lang() -> str | None:
    """``guandan --lang`` or $GUANDAN_LANG when one was given, else ``None`` (a command
    with a default of its own, such as a report folder's language, then keeps it)."""
    ctx = click.get_current_context(silent=True)
    value = (ctx.meta.get(LANG_KEY) if ctx is not None else None) or env_lang()
    return value if value in ("en", "zh") else None


def cli_lang(given: str | None = None) -> str:
    """The language of this command's human output: ``given`` (a command's own ``--lang``),
    else ``guandan --lang``, else $GUANDAN_LANG, else English."""
    return given or explicit_lang() or "en"


def say(key: str, **values: Any) -> str:
    """The catalogue's message ``key`` in the output's language (``duplicate/locale``)."""
    from duplicate.i18n import translator

    return translator(cli_lang())(key, **values)


def column_title(name: str, key: str | None = None) -> str:
    """A listing's column heading in the output's language: in English the field name
    itself (as in --json and --csv, so that scripts reading the table keep working), in
    Chinese ``cli.col.NAME`` (or ``key``) of the catalogue when it has one."""
    from duplicate.i18n import catalogue

    lang = cli_lang()
    if lang == "en":  # English tables keep the field names, as --json and --csv do
        return name
    texts = catalogue().get(key or f"cli.col.{name}")
    return texts[lang] if texts else name


def cell_word(value: Any) -> Any:
    """A table cell in the output's language: a word from a closed set the library keeps
    in English (a state ``played``, a room ``open``, a format ``swiss``, a tie-break
    ``swing``, an action ``ruling``, an import's status ``stored``) becomes the catalogue's
    ``cli.val.WORD`` (or ``out.val.WORD``) in Chinese; a room is known in any case (``Open``);
    any other value is shown as it is. --json and --csv keep the words."""
    lang = cli_lang()
    if lang == "en" or not isinstance(value, str | bool) or not str(value).isascii():
        return value
    from duplicate.i18n import catalogue

    word = str(value).lower() if isinstance(value, bool) else value
    if word.lower() in ("open", "closed"):  # a record's Room tag, as it is written (Open)
        word = word.lower()
    texts = catalogue().get(f"cli.val.{word}") or catalogue().get(f"out.val.{word}")
    return texts[lang] if texts else value


def _table_value(value: Any, vp: bool = False) -> Any:
    """A cell of a table for a person: a word in the output's language (:func:`cell_word`),
    points as the pages show them (``2``, ``12.5``; victory points ``7.20``:
    ``duplicate.i18n.game.points_text``)."""
    if isinstance(value, float):
        from duplicate.i18n.game import points_text

        return points_text(value, vp)
    return cell_word(value)


def _pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal columns."""
    return text + " " * (width - display_width(text))


def _cell(value: Any, sep: str = " ") -> str:
    """A value as table or CSV text; control characters written as escapes (``\\x1b``),
    so that a name holding an escape sequence cannot drive the terminal. A list's items
    are joined by ``sep`` (a table's: the output language's list separator, 、 or ``, ``)."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return display_text(sep.join(str(v) for v in value))
    return display_text(str(value))


# --- database and boards (db, deals) ---------------------------------------------

DB_URL_KEY = "guandan.db_url"
DB_HELP = (
    "Database URL (any SQLAlchemy URL, e.g. postgresql://user@host/db). Default: "
    "$GUANDAN_DATABASE_URL, else sqlite:///guandan.sqlite in the current directory."
)


def _remember_db(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Keep a ``--db`` value for the whole command line (``ctx.meta`` is shared by every
    nested context); the one given last, nearest the command, wins."""
    if value is not None:
        ctx.meta[DB_URL_KEY] = value


def db_option(func: F) -> F:
    """Accept ``--db URL`` here: on ``guandan`` itself, on a group, or after a command."""
    return click.option(
        "--db", "db_url_option", metavar="URL", help=DB_HELP,
        expose_value=False, callback=_remember_db, is_eager=True,
    )(func)


def db_errors(func: F) -> F:
    """Turn the library's exceptions into one clear line and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from duplicate.errors import DuplicateError
        from engine.errors import GuandanError

        try:
            return func(*args, **kwargs)
        except (DuplicateError, GuandanError) as exc:
            raise click.ClickException(error_text(exc)) from exc
        except BrokenPipeError:  # 'guandan ... | head': click ends quietly
            raise
        except OSError as exc:  # an output file or folder that cannot be written
            raise click.ClickException(os_error_text(exc)) from exc
        except Exception as exc:  # the database's: locked, disk full, server gone: one line
            if not database_error(exc):
                raise
            import os

            from duplicate.db import ENV_VAR, error_reason

            url = click.get_current_context().meta.get(DB_URL_KEY) or os.environ.get(ENV_VAR)
            # no credential of the URL in it (a server may quote the user name)
            raise click.ClickException(say("cli.db_failed", reason=error_reason(exc, url))) from exc

    return wrapper  # type: ignore[return-value]


def database_error(exc: BaseException) -> TypeGuard[SQLAlchemyError]:
    """Whether ``exc`` is SQLAlchemy's: none can be while SQLAlchemy was never imported
    (a command that uses no database does not import it: start-up speed)."""
    module = sys.modules.get("sqlalchemy.exc")
    return module is not None and isinstance(exc, module.SQLAlchemyError)


def error_text(exc: BaseException) -> str:
    """A library error for the command line: its message (in the output's language when it
    comes from the catalogue), then how to do it right here (``DuplicateError.cli_hint``)
    when it says."""
    from duplicate.errors import DuplicateError

    if not isinstance(exc, DuplicateError):  # an engine error; a pairing's may be a phrase
        said = getattr(exc, "phrase", None)
        if said is not None:
            return str(said.text(cli_lang()))
        if cli_lang() != "en":  # English keeps the engine's message whole, position and all
            from duplicate.i18n import engine_phrase

            worded = engine_phrase(exc)
            return worded if isinstance(worded, str) else worded.text(cli_lang())
        return str(exc)
    lang = cli_lang()
    text = exc.text(lang)
    if not exc.cli_hint:
        return text
    hint = hint_text(exc.cli_hint, lang)
    return f"{text}{'：' if lang == 'zh' else ': '}{hint}"


def hint_text(hint: Any, lang: str) -> str:
    """A library error's command-line hint in ``lang``: a phrase in it; an English hint
    the catalogue holds as ``cli.hint.*`` (its ``msgid`` the very text) in its words; any
    other (an option's syntax, ``--by NAME``) as it is."""
    if not isinstance(hint, str):
        return str(hint.text(lang))
    if lang == "en":
        return hint
    from duplicate.i18n import gettext

    key = _hint_keys().get(hint)
    return gettext(lang, key) if key else hint


@functools.lru_cache(maxsize=1)
def _hint_keys() -> dict[str, str]:
    from duplicate.i18n import source_ids

    return {ids[0]: key for key, ids in source_ids().items() if key.startswith("cli.hint.")}


def os_error_text(exc: OSError) -> str:
    """One line for a file system error: the path and the system's reason, the reason in
    the output's language (``duplicate.i18n.os_reason``)."""
    from duplicate.i18n import os_reason

    lang = cli_lang()
    if exc.filename is None:
        return str(exc) if lang == "en" else os_reason(exc).text(lang)
    return say("gdn.at", where=exc.filename, reason=os_reason(exc).text(lang))


def cannot(key: str, path: object, exc: OSError) -> str:
    """``cannot write 'x': <the system's reason>`` (``cli.cannot_write``,
    ``cli.cannot_read``) in the output's language."""
    from duplicate.i18n import os_reason

    return say(key, path=repr(path), reason=os_reason(exc).text(cli_lang()))


def db_engine() -> Any:
    """An engine on the database chosen by ``--db`` (or the environment, or the default)."""
    from duplicate.db import make_engine

    return make_engine(click.get_current_context().meta.get(DB_URL_KEY))


@contextlib.contextmanager
def open_database() -> Iterator[Any]:
    """:func:`db_engine`, disposed of when the command is done with it."""
    engine = db_engine()
    try:
        yield engine
    finally:
        engine.dispose()


def db_progress(total: int, label: str) -> Any:
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


def force_option(func: F) -> F:
    """Add ``--force``: replace an existing output file or fill a used output folder."""
    return click.option(
        "--force", is_flag=True,
        help="Replace an existing output file (a seed file is never written over).",
    )(func)


def check_output(output: str | None, force: bool = False) -> None:
    """Refuse to write over an existing file without ``force``, and over a seed file ever.

    A seed file is known by its content (:func:`duplicate.dealing.is_seed_file`), so a
    secret seed named ``cup.gdn`` is as safe as ``cup.seed``. Standard output (``-`` or
    none) is always writable. Call it before the work, so that nothing is done in vain.
    """
    import os

    from duplicate.dealing import is_seed_file

    if output is None or output == "-":
        return
    if is_seed_file(output):
        raise click.ClickException(say("out.file.seed", path=output))
    if os.path.lexists(output) and not force:
        raise click.ClickException(say("out.file.exists", path=output))


def check_output_dir(outdir: str, force: bool = False, *, report: str | None = None) -> None:
    """Refuse an output folder that already holds files, unless ``force``; refuse one that
    holds a seed file even then (a report never shares its folder with a secret).

    With ``report`` (an event's name), a folder that holds an earlier report of that event
    (its ``manifest.json`` names it) is brought up to date without ``--force``: the report
    rewrites only what changed. Another event's report is not overwritten unasked."""
    import os

    from duplicate.dealing import is_seed_file
    from duplicate.review.site import folder_event

    if not os.path.isdir(outdir):
        return  # missing: created by the writer; a file in the way: the writer says so
    names = sorted(os.listdir(outdir))
    from duplicate.names import clean_name

    ours = report is not None and folder_event(outdir) == clean_name(report)
    if names and not force and not ours:
        raise click.ClickException(say("out.folder.not_empty", path=outdir))
    for name in names:
        if is_seed_file(os.path.join(outdir, name)):
            raise click.ClickException(say("out.folder.seed", path=os.path.join(outdir, name)))


def read_seed(path: str) -> Any:
    """:func:`duplicate.dealing.read_seed_file`, with a warning on standard error when the
    file may be read by users other than its owner (the seed is secret until revealed)."""
    from duplicate.dealing import exposed_mode, read_seed_file

    seed = read_seed_file(path)
    mode = exposed_mode(path)
    if mode is not None:
        click.echo(say("out.file.seed_exposed", path=path, mode=f"{mode:04o}"), err=True)
    return seed


def write_output(text: str, output: str | None, force: bool = False) -> None:
    """Write ``text`` to the file ``output`` (``-`` or none: standard output).

    An existing file is replaced only with ``force``, a seed file never
    (:func:`check_output`). A path that cannot be written (missing folder, no permission)
    is one clear error line.
    """
    check_output(output, force)
    try:
        with click.open_file(output or "-", "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise click.ClickException(cannot("cli.cannot_write", output, exc)) from exc


def json_text(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def parse_variants(variants: tuple[str, ...]) -> Any:
    """The ``Ruleset`` of ``--variant NAME=VALUE`` options (usage error when one is bad;
    read by ``duplicate.variants.ruleset_of``, as the desk reads its form)."""
    from duplicate.variants import VariantError, ruleset_of

    try:
        return ruleset_of(variants)
    except VariantError as exc:
        raise click.BadParameter(exc.text(cli_lang()), param_hint="--variant") from None


def first_failure(failed: int, total: int, verb: str, errors: Sequence[str | None]) -> None:
    """Under a table with failed rows, one line on stderr naming the first failure (file,
    line, seat and reason), so that the failure is seen even when stdout is redirected.

    Only for the table: with --json or --csv the rows on stdout carry every error for the
    program reading them. The summary line stays last on stdout.
    """
    if not failed:
        return
    first = display_text(next((e for e in errors if e), None) or say("cli.failure.see_listing"))
    click.echo(say(f"cli.failure.{verb}", n=total, failed=failed, first=first), err=True)



# --- who changes the store, and corrections (guandan import, event import) ----------


def correction_options(func: F) -> F:
    """Add ``--correction``, ``--by NAME`` and ``--reason TEXT``; the command receives
    ``correction``, ``by`` and ``reason`` and turns them into a ``Correction`` with
    :func:`correction_from`. ``--by`` alone names who imports (the store's log)."""
    func = click.option(
        "--reason", metavar="TEXT", help="Why the correction is made (with --correction)."
    )(func)
    func = click.option(
        "--by",
        metavar="NAME",
        help="Who makes the correction, or who imports (default: the login name).",
    )(func)
    func = click.option(
        "--correction",
        is_flag=True,
        help="Replace the stored result of each board and room that differs "
        "(needs --by and --reason).",
    )(func)
    return func


def correction_from(correction: bool, by: str | None, reason: str | None) -> Any:
    """The ``duplicate.records.Correction`` of :func:`correction_options`, or ``None``."""
    from duplicate.records import Correction

    if correction and not (by and reason):
        raise click.UsageError(say("cli.err.correction_by_reason"))
    if reason and not correction:
        raise click.UsageError(say("cli.err.reason_correction"))
    return Correction(reason=reason, by=by) if correction and by and reason else None


def match_board_options(func: F) -> F:
    """Add ``--round``, ``--table`` and ``--board`` (a board of one match of an event); the
    command receives ``round_no``, ``table`` and ``board``."""
    func = click.option(
        "--board", type=click.IntRange(min=1), required=True, help="Board number."
    )(func)
    func = click.option(
        "--table", type=click.IntRange(min=1), required=True, help="Table of the match."
    )(func)
    func = click.option(
        "--round", "round_no", type=click.IntRange(min=1), required=True, help="Round."
    )(func)
    return func


def check_policy(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Click callback: ``value`` names a bot policy (``random``, ``heuristic``, ``search``,
    ``search:PLAYOUTS``, ``mixed``: ``duplicate.policies.POLICIES``), else a usage error."""
    if value is None:
        return value
    from duplicate.policies import make_player
    from engine.errors import GuandanError

    try:
        make_player(value)
    except GuandanError as exc:
        raise click.BadParameter(error_text(exc)) from None
    return value


def check_event_policy(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """:func:`check_policy` for ``event play-bots`` (the same list of policies as
    ``simulate``'s: ``duplicate.policies.POLICIES``)."""
    return str(check_policy(ctx, param, value))
