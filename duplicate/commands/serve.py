"""``guandan serve`` (the tournament hall service) and ``guandan event table-cards``.

``serve`` checks the database is at the newest schema (it migrates nothing: it says to run
``guandan db upgrade``), then runs uvicorn on ``duplicate.web.app:app_from_env``. Its settings go to
every worker through the environment (:meth:`duplicate.web.settings.Settings.to_env`), the secret
key included: generated once here when none is given, so that all workers sign the
director's cookie alike. Several workers share nothing but the database; SQLite serves
them on one host, PostgreSQL is the database for several workers or hosts. Each worker
listens on a socket of its own (``duplicate.web.workers``: the kernel spreads the connections) and
runs ``--threads`` requests at once.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from duplicate.commands.common import (
    DB_URL_KEY,
    LANG_CHOICE,
    check_output,
    cli_lang,
    db_errors,
    db_option,
    open_database,
    say,
)

if TYPE_CHECKING:
    from duplicate.web.settings import Settings

F = TypeVar("F", bound=Callable[..., Any])


def server_settings(
    db_url: str | None, director_password: str | None, secret_key: str | None, public_url: str,
    threads: int | None = None,
) -> Settings:
    """The service's settings from the options; a clear error for a missing password."""
    from duplicate.db import resolve_url
    from duplicate.web.settings import DEFAULT_THREADS, ENV_PASSWORD, Settings, SettingsError

    if not director_password:
        raise click.UsageError(say("cli.err.password", env=f"${ENV_PASSWORD}"))
    try:
        return Settings(
            db_url=resolve_url(db_url), director_password=director_password,
            secret_key=secret_key or secrets.token_urlsafe(32), public_url=public_url or "",
            threads=threads or DEFAULT_THREADS,
        )
    except SettingsError as exc:
        raise click.UsageError(exc.text(cli_lang())) from None


def run_server(settings: Settings, host: str, port: int, workers: int, log_level: str) -> None:
    """Check the schema, then serve ``settings`` with uvicorn until stopped (Ctrl-C)."""
    import uvicorn

    from duplicate.db import check_schema, make_engine, mask_url
    from duplicate.web.workers import ListenError, reuse_port_available, run_workers

    engine = make_engine(settings.db_url)
    try:
        check_schema(engine)
        backend = engine.dialect.name
    finally:
        engine.dispose()
    if workers > 1 and backend == "sqlite":
        click.echo(say("cli.serve.sqlite_workers", n=workers), err=True)
    os.environ.update(settings.to_env())
    shown = host if ":" not in host else f"[{host}]"
    click.echo(say("cli.serve.running", url=f"http://{shown}:{port}/",
                   workers=say("cli.serve.workers", n=workers), db=mask_url(settings.db_url)),
               err=True)
    config: dict[str, Any] = {
        "app": "duplicate.web.app:app_from_env", "factory": True, "log_level": log_level,
        "proxy_headers": True, "server_header": False,
    }
    if workers > 1 and reuse_port_available():  # a socket a worker: see duplicate.web.workers
        try:  # a worker that dies is replaced; only an address it cannot bind stops it all
            run_workers(host, port, workers, config)
        except ListenError as exc:
            from duplicate.i18n import os_reason

            raise click.ClickException(say("cli.cannot_listen", address=f"{shown}:{port}",
                                           reason=os_reason(exc).text(cli_lang()))) from None
        return
    uvicorn.run(host=host, port=port, workers=workers, **config)


def server_options(func: F) -> F:
    """``--host``, ``--port``, ``--workers``, ``--threads``, the password, the secret key,
    the public URL."""
    options = [
        click.option("--host", default="127.0.0.1", show_default=True,
                     help="Address to listen on (0.0.0.0: every interface of this host)."),
        click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
                     help="Port to listen on."),
        click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
                     help="Worker processes; they share only the database. SQLite serves "
                     "several on one host (writes wait for each other); PostgreSQL (--db "
                     "postgresql://...) is the database for several workers or hosts."),
        click.option("--threads", type=click.IntRange(1, 256), default=8, show_default=True,
                     envvar="GUANDAN_THREADS",
                     help="Requests each worker runs at once (its thread pool and database "
                     "connections). On 2 cores more threads only wait for each other."),
        click.option("--director-password", envvar="GUANDAN_DIRECTOR_PASSWORD",
                     metavar="TEXT",
                     help="The director's password (desk login, API Bearer); required, at "
                     "least 8 characters. Default: $GUANDAN_DIRECTOR_PASSWORD."),
        click.option("--secret-key", envvar="GUANDAN_SECRET_KEY", metavar="TEXT",
                     help="Key signing the director's session cookie; the same on every host "
                     "(default: $GUANDAN_SECRET_KEY, else a new one: sessions end on restart)."),
        click.option("--public-url", envvar="GUANDAN_PUBLIC_URL", default="", metavar="URL",
                     help="The address players' phones reach the hall at, printed on table "
                     "cards (default: $GUANDAN_PUBLIC_URL, else the address of the request)."),
        click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info",
                                                       "debug"]),
                     default="info", show_default=True,
                     help="uvicorn's log level (table tokens never appear in the log)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.command("serve")
@server_options
@db_option
@db_errors
def serve_command(
    host: str, port: int, workers: int, threads: int, director_password: str | None,
    secret_key: str | None, public_url: str, log_level: str,
) -> None:
    """Run the tournament hall service: tables report by phone, the director runs the
    rounds at /desk, results go public as they come in (docs/SERVICE.md).

    The database must be migrated ('guandan db upgrade'). Stop it with Ctrl-C.

    \b
    Example: guandan serve --db postgresql://hall@db/cup --workers 2 \\
             --director-password "$PW" --public-url https://hall.example.org
    """
    db_url = click.get_current_context().meta.get(DB_URL_KEY)
    settings = server_settings(db_url, director_password, secret_key, public_url, threads)
    run_server(settings, host, port, workers, log_level)


@click.command("table-cards")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True,
              help="The round whose tables get cards.")
@click.option("--out", "output", type=click.Path(dir_okay=False), required=True,
              help="The HTML file of the cards (print it; keep it private: it holds the "
              "tokens).")
@click.option("--public-url", envvar="GUANDAN_PUBLIC_URL", metavar="URL", required=True,
              help="The address players' phones reach the hall at (default: "
              "$GUANDAN_PUBLIC_URL), e.g. https://hall.example.org.")
@click.option("--by", metavar="NAME", help="Who issues the cards (default: the login name).")
@click.option("--lang", type=LANG_CHOICE, default=None,
              help="Language of the cards (default: guandan --lang, else $GUANDAN_LANG, else en).")
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@db_option
@db_errors
def table_cards_command(
    event: str, round_no: int, output: str, public_url: str, by: str | None, lang: str | None,
    force: bool,
) -> None:
    """Issue new table tokens for a round of EVENT and write its printable table cards.

    One card per table and room: the seating and two QR codes, 'West reports' and 'North
    confirms', each the URL of a token that can do just that, for that table and room, until
    the round's correction window closes. Tokens issued before for the round become void.
    """
    from duplicate import hall
    from duplicate.store.data import default_by
    from duplicate.web.cards import card_context

    url = public_url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise click.BadParameter(say("cli.err.url", shown=repr(url)),
                                 param_hint="--public-url")
    check_output(output, force)
    with open_database() as engine:
        cards = hall.issue_tokens(engine, event, round_no, by or default_by())
    html = render_cards(cli_lang(lang),
                        {**card_context(cards, url), "event": event, "round_no": round_no})
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(html)
    click.echo(say("cli.serve.cards", n=len(cards), round=round_no, event=event, path=output))


def render_cards(lang: str, context: dict[str, object]) -> str:
    """``desk_cards.html`` rendered as the desk page renders it (``duplicate.web.render.page``), for a
    request of no one: no session, the language asked for."""
    from starlette.requests import Request

    from duplicate.web.render import page

    scope = {
        "type": "http", "method": "GET", "path": "/cli/table-cards", "root_path": "",
        "scheme": "http", "server": ("localhost", 80), "headers": [],
        "query_string": f"lang={lang}".encode("ascii"),
    }
    response = page(Request(scope), "desk_cards.html", **context)
    return bytes(response.body).decode("utf-8")
