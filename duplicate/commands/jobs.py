"""``guandan worker``, ``event analyse`` and ``event status``: analysis of an event's records
as jobs (duplicate.jobs): procrastinate's queue and its workers on PostgreSQL, local
processes on SQLite."""

from __future__ import annotations

import json
from typing import Any

import click

from duplicate.commands.budget import budget_of, budget_options
from duplicate.commands.common import db_errors, db_option, open_database, say

JOBS_OPTION = click.option(
    "--jobs", "processes", type=click.IntRange(min=1, max=256), default=None, metavar="N",
    help="Local processes that compute the analyses on SQLite (default: one a core); on "
    "PostgreSQL the workers ('guandan worker') compute them.")


def run_analysis(engine: Any, event: str, budget: Any, processes: int | None,
                 wait: bool) -> Any:
    """The event's analysis (``duplicate.jobs.runner.analyse_event``), then its line."""
    from duplicate.jobs.runner import analyse_event, default_processes

    outcome = analyse_event(engine, event, budget, processes=processes or default_processes(),
                            wait=wait, seen=None)
    p = outcome.progress
    if outcome.queue:
        click.echo(say("cli.analyse.deferred", n=outcome.deferred, queued=outcome.queued,
                       analysed=p.analysed, total=p.requested), err=True)
    else:
        click.echo(say("cli.analyse.computed", n=outcome.computed, analysed=p.analysed,
                       total=p.requested), err=True)
    return outcome


@click.command("analyse")
@click.argument("event")
@budget_options
@JOBS_OPTION
@click.option("--wait/--no-wait", default=False,
              help="On PostgreSQL: also work the queue here and return when every record is "
              "analysed (default: put the jobs in the queue and return).")
@db_option
@db_errors
def event_analyse_command(event: str, exact_cards: int, nodes: int | None, playouts: int,
                          seed: int, seconds: float | None, processes: int | None,
                          wait: bool) -> None:
    """Analyse every record of EVENT with all four hands known (as 'guandan analyse'), each
    once: on PostgreSQL one job a record in the database's queue, which 'guandan worker'
    processes on any host take; on SQLite in local processes. 'event report --analyse'
    then shows the stored analyses, 'event status' how far it is."""
    budget = budget_of(nodes, playouts, seed, seconds, exact_cards=exact_cards)
    with open_database() as engine:
        run_analysis(engine, event, budget, processes, wait)


@click.command("status")
@click.argument("event")
@click.option("--json", "as_json", is_flag=True, help="Write JSON for programs.")
@db_option
@db_errors
def event_status_command(event: str, as_json: bool) -> None:
    """Show how far EVENT's analysis is: records analysed and pending (and, on PostgreSQL,
    the queue's jobs waiting, running and failed)."""
    from duplicate.jobs.stored import progress

    with open_database() as engine:
        p = progress(engine, event)
        counts: dict[str, int] | None = None
        if engine.dialect.name == "postgresql":
            from duplicate.jobs import queue  # lazy: procrastinate, on PostgreSQL only

            counts = queue.job_counts(engine) if queue.has_schema(engine) else {}
    if as_json:
        data: dict[str, Any] = {"event": event, "analysis": p.to_dict()}
        if counts is not None:
            data["jobs"] = counts
        click.echo(json.dumps(data, ensure_ascii=False, sort_keys=True))
        return
    click.echo(say("cli.status.analysis", analysed=p.analysed, total=p.requested,
                   pending=p.pending))
    if counts is not None:
        click.echo(say("cli.status.jobs", todo=counts.get("todo", 0),
                       doing=counts.get("doing", 0), failed=counts.get("failed", 0)))


@click.command("worker")
@click.option("--once", is_flag=True,
              help="Stop when the queue is empty (default: wait for jobs until SIGINT or "
              "SIGTERM; the running job ends first).")
@click.option("--heartbeat", type=click.FloatRange(min=0.1, max=3600), default=10.0,
              show_default=True, metavar="S", help="Seconds between the worker's heartbeats.")
@click.option("--stalled-after", type=click.FloatRange(min=1, max=86_400), default=30.0,
              show_default=True, metavar="S",
              help="A job whose worker has sent no heartbeat for S seconds is queued again.")
@click.option("--sweep", type=click.FloatRange(min=0, max=86_400), default=60.0,
              show_default=True, metavar="S",
              help="Every S seconds, one worker queues the records that came since of each "
              "event whose analysis was asked for ('event analyse'); 0: never.")
@db_option
@db_errors
def worker_command(once: bool, heartbeat: float, stalled_after: float, sweep: float) -> None:
    """Take the analysis jobs in the database's queue (PostgreSQL), one at a time, and
    store each analysis. Run as many as there are cores, on any host that reaches the
    database; a killed worker's job is queued again for another. Once an event's analysis
    is asked for, its boards are queued as they end."""
    from duplicate.db import check_schema, display_url

    with open_database() as engine:
        if engine.dialect.name != "postgresql":
            raise click.ClickException(say("cli.worker.not_postgresql",
                                           db=display_url(engine.url)))
        check_schema(engine)
        from duplicate.jobs import queue  # lazy: procrastinate, on PostgreSQL only

        queue.ensure_schema(engine)
        click.echo(say("cli.worker.started", db=display_url(engine.url)), err=True)
        queue.work(engine, once=once, heartbeat=heartbeat, stalled_after=stalled_after,
                   every=sweep)
