"""``guandan event``: teams events in the database (duplicate.events)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from duplicate.commands.budget import budget_of, budget_options
from duplicate.commands.common import (
    LANG_CHOICE,
    cannot,
    cell_word,
    check_event_policy,
    check_output,
    check_output_dir,
    cli_lang,
    correction_from,
    correction_options,
    db_errors,
    db_option,
    db_progress,
    emit_rows,
    explicit_lang,
    force_option,
    json_text,
    match_board_options,
    open_database,
    output_options,
    parse_variants,
    read_seed,
    say,
    write_output,
)
from duplicate.commands.event_admin import ADMIN_COMMANDS
from duplicate.commands.jobs import (
    JOBS_OPTION,
    event_analyse_command,
    event_status_command,
    run_analysis,
)
from duplicate.commands.words import human_board_row, human_correction_row
from duplicate.i18n.stored import state_words
from duplicate.limits import checked_name
from duplicate.standings import DEFAULT_ORDER, TIEBREAK_ORDERS

_EVENT_MATCH_COLUMNS = ("round", "table", "team_x", "team_y", "open", "closed")
_EVENT_SCORE_COLUMNS = (
    "round", "table", "team_x", "team_y", "margin", "points_x", "points_y", "unfinished"
)
_EVENT_STANDING_COLUMNS = (
    "rank", "team", "played", "points", "progressive", "rounds_won", "swing", "levels",
    "decided_by",
)
#: The standings' columns of an event ranked by the 2026 friendly order (seeds/004).
_FRIENDLY_STANDING_COLUMNS = (
    "rank", "team", "played", "points", "opponents_points", "swing", "levels", "decided_by",
)
EVENT_BOARD_COLUMNS = ("board", "level", "leader", "open", "closed", "swing", "status")


def _event_match_row(m: Any, lang: str = "en") -> dict[str, Any]:
    """A match as a listing row: the rooms' seating as ``N name, E name, ...`` text (in
    Chinese, for a person: ``北 张伟、东 甲一、…``)."""
    from duplicate.i18n import translator
    from duplicate.i18n.game import seat_name
    from engine.seat import Seat

    row: dict[str, Any] = m.to_dict()
    if lang == "en":
        for room in ("open", "closed"):
            row[room] = ", ".join(f"{seat} {name}" for seat, name in row[room].items())
        return row
    sep = translator(lang)("list.sep")
    for room in ("open", "closed"):
        row[room] = sep.join(
            f"{seat_name(Seat[seat], lang)} {name}" for seat, name in row[room].items()
        )
    return row


def _event_standing_row(
    r: Any, withdrawn: dict[str, int] | None = None, fmt: str = "json"
) -> dict[str, Any]:
    """A standings row; a withdrawn team (``withdrawn``: name -> its last round) is marked
    in a table (``Eagles (withdrawn)``, ``Eagles（退赛）``), flagged in --json and --csv."""
    gone = withdrawn is not None and str(r.team) in withdrawn
    return {
        "rank": r.rank,
        "team": say("cli.team_withdrawn", team=r.team) if gone and fmt == "table" else r.team,
        "played": r.played, "points": r.points,
        "progressive": r.progressive, "rounds_won": r.rounds_won, "swing": r.swing,
        "levels": r.levels, "opponents_points": r.opponents_points, "lot": r.lot,
        # in a table, a place the lot decided says so (抽签), not "draw" (并列, a tie)
        "decided_by": "lot" if fmt == "table" and r.decided_by == "draw" else r.decided_by,
        "withdrawn": gone,
    }


def _change(flag: bool, by: str | None, reason: str | None, name: str) -> Any:
    """A ``Correction`` (who, why) for an override flag; ``None`` without the flag."""
    from duplicate.events import Correction

    if not flag:
        if by is not None or reason is not None:
            raise click.UsageError(say("cli.err.by_reason_with", name=name))
        return None
    if not by or not reason:
        raise click.UsageError(say("cli.err.needs_by_reason", name=name))
    return Correction(reason=reason, by=by)


@click.group("event")
@db_option
def event_group() -> None:
    """Teams events: teams, rounds (Swiss or round robin), records, scores, standings.

    Typical run: 'event create', 'event team add' (or --teams-file), then per round
    'event pair-round', 'event assign-boards', 'event import' (or 'event play-bots'),
    'event score'; at any time 'event standings' and 'event report'.
    """


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
@click.option("--language", "event_lang", type=click.Choice(["en", "zh"]), default=None,
              help="The event's own language: the default of its report and pages "
              "(default: guandan --lang, else English).")
@click.option("--time-zone", "time_zone", default="Asia/Shanghai", show_default=True,
              metavar="ZONE", help="The IANA time zone the event is played in: its pages "
              "and listings show times in it (Europe/London, UTC ...).")
@click.option("--director-minutes", "director_minutes", default="20", show_default=True,
              metavar="MINUTES|none",
              help="How long after a round's publication (公示) the directors may change its "
              "results (seeds/000 更正); 'none': no limit. After it only the chief director "
              "(--chief).")
@click.option("--tiebreaks", type=click.Choice(list(TIEBREAK_ORDERS)), default=DEFAULT_ORDER,
              show_default=True,
              help="The order of tie-breaks after match points: 'jiangsu' (seeds/000: "
              "progressive score, rounds won, swing, levels) or 'friendly' (seeds/004: "
              "opponents' points, swing, levels); a draw last.")
@db_option
@db_errors
def event_create_command(
    name: str, teams_file: str | None, seed: str | None, scale: str, fmt_: str,
    boards_per_round: int, rounds: int, unfinished: str, bye_points: float | None,
    bye_won: bool, variants: tuple[str, ...], event_lang: str | None, time_zone: str,
    director_minutes: str, tiebreaks: str,
) -> None:
    """Create the event NAME (and enter the teams of --teams-file, in one transaction).

    \b
    Example: guandan event create "Huai'an Cup" --teams-file teams.txt --rounds 3 --scale vp20
    """
    from duplicate.commands.event_admin import limit_minutes
    from duplicate.events import create_event, read_teams_file
    from duplicate.i18n.game import rules_text

    rules = parse_variants(variants)
    limit = limit_minutes(director_minutes)
    teams = read_teams_file(teams_file) if teams_file is not None else []
    name = checked_name(name, "the event name")
    teams = [(checked_name(t, "team"), [checked_name(p, "player") for p in ps]) for t, ps in teams]
    with open_database() as engine:
        info = create_event(
            engine, name, seed=seed, scale=scale, fmt=fmt_, boards_per_round=boards_per_round,
            rounds=rounds, unfinished=unfinished, bye_points=bye_points, bye_won=bye_won,
            teams=teams, rules=rules, lang=event_lang or cli_lang(), time_zone=time_zone,
            director_minutes=limit, tiebreaks=tiebreaks,
        )
    click.echo(say(
        "cli.event.created", name=info.name, format=cell_word(info.format),
        rounds=say("count.rounds", n=info.rounds), boards=say("count.boards", n=info.boards_per_round),
        scale=cell_word(info.scale.name), rules=cell_word(rules_text(info.rules, cli_lang())),
        language=say(f"lang.name.{info.lang}"),
    ))
    click.echo(say("cli.event.zone", zone=info.time_zone))
    click.echo(say(f"standings.ranked_by.{info.tiebreaks}"))
    if teams:
        click.echo(say("cli.event.teams_entered", count=len(teams)))


@event_group.command("list")
@output_options
@db_option
@db_errors
def event_list_command(fmt: str) -> None:
    """List the events in the database (rules: the variants that differ from the
    competition rules; --json gives every variant)."""
    from duplicate.events import list_events
    from duplicate.i18n.game import rules_text
    from duplicate.records import describe_rules

    with open_database() as engine:
        events = list_events(engine)
    rows = [e.to_dict() for e in events]
    for r, e in zip(rows, events, strict=True):
        r["scale"] = r["scale"]["name"]
        if fmt == "csv":  # the variants as --variant takes them
            r["rules"] = describe_rules(e.rules)
        elif fmt != "json":
            r["rules"] = rules_text(e.rules, cli_lang())
    emit_rows(
        rows, fmt, ("name", "format", "rounds", "boards_per_round", "scale", "unfinished",
                    "time_zone", "tiebreaks", "rules")
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
@db_option
@db_errors
def event_team_add_command(
    event: str, team: str, players: tuple[str, ...], pairs: tuple[str, ...]
) -> None:
    """Enter TEAM with its 4 to 6 PLAYERS into EVENT."""
    from duplicate.events import add_team

    pair_list: list[tuple[str, str]] = []
    for p in pairs:
        parts = [x.strip() for x in p.split(",")]
        if len(parts) != 2:
            raise click.BadParameter(say("cli.err.pair", shown=repr(p)), param_hint="--pair")
        pair_list.append((checked_name(parts[0], "player"), checked_name(parts[1], "player")))
    event, team = checked_name(event, "the event name"), checked_name(team, "team")
    players = tuple(checked_name(p, "player") for p in players)
    with open_database() as engine:
        info = add_team(engine, event, team, players, pair_list or None)
    click.echo(say("cli.team.added", number=info.number, name=info.name,
                   pairs=say("list.sep").join(f"{a}/{b}" for a, b in info.pairs)))


@event_team_group.command("list")
@click.argument("event")
@output_options
@db_option
@db_errors
def event_team_list_command(event: str, fmt: str) -> None:
    """List EVENT's teams with their players and pairs."""
    from duplicate.events import list_teams

    with open_database() as engine:
        teams = list_teams(engine, event)
    emit_rows((t.to_dict() for t in teams), fmt, ("number", "team", "players", "pairs"))


@event_group.command("pair-round")
@click.argument("event")
@click.option("--lineup", "lineups", multiple=True, metavar="TEAM=OPEN,CLOSED",
              help="Which of a team's pairs play the open and closed rooms (default 1,2).")
@output_options
@db_option
@db_errors
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
    with open_database() as engine:
        rnd = pair_round(engine, event, chosen)
    lang = cli_lang() if fmt == "table" else "en"
    emit_rows((_event_match_row(m, lang) for m in rnd.matches), fmt, _EVENT_MATCH_COLUMNS)
    if fmt == "table":
        click.echo(say("cli.round.paired", round=rnd.number, n=len(rnd.matches))
                   + (say("cli.round.bye", team=rnd.bye) if rnd.bye else ""))


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
@click.option("--reuse", is_flag=True,
              help="Allow boards another round played or a revealed set (needs --by, --reason; "
              "logged).")
@click.option("--by", help="Who allows the reuse (with --reuse).")
@click.option("--reason", help="Why (with --reuse).")
@db_option
@db_errors
def event_assign_boards_command(
    event: str, round_no: int, set_name: str | None, seed_file: str | None,
    delayed: str | None, schedule: str, first: int | None, reuse: bool, by: str | None,
    reason: str | None,
) -> None:
    """Give a round of EVENT its boards, from a stored set or a seed file.

    Boards another round (of any event) has, or a set whose seed is revealed, are refused
    unless --reuse --by NAME --reason TEXT (logged: 'event log').
    """
    from duplicate.events import assign_boards

    if (set_name is None) == (seed_file is None):
        raise click.UsageError(say("cli.err.set_or_seed"))
    seed = read_seed(seed_file) if seed_file is not None else None
    if seed is not None and seed.delayed_info is not None and not delayed:
        raise click.UsageError(say("cli.err.delayed"))
    with open_database() as engine:
        rnd = assign_boards(
            engine, event, round_no, set_name=set_name, seed=seed, schedule=schedule,
            first=first, delayed=delayed, reuse=_change(reuse, by, reason, "--reuse"),
        )
    click.echo(say("cli.round.boards", round=rnd.number, first=rnd.boards[0],
                   last=rnd.boards[-1], set=rnd.board_set))


@event_group.command("import")
@click.argument("event")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="The round of every record (default: each record's Round tag).")
@correction_options
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes replaying the files.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")
@click.option("--chief", is_flag=True,
              help="As the chief director (裁判长): a correction of a published round's "
              "result after the directors' limit; logged as overriding it.")
@db_option
@db_errors
def event_import_command(
    event: str, files: tuple[str, ...], round_no: int | None, correction: bool,
    by: str | None, reason: str | None, jobs: int, as_json: bool, chief: bool,
) -> None:
    """Import .gdn FILES of played deals into EVENT's matches (one transaction per file).

    Each record must replay cleanly, be its round's board of that number and name the
    seating's players; a record that stops before the deal is over needs an
    [Unfinished "reason"] tag. The same record again changes nothing; a different one
    needs --correction --by --reason. A file that fails is reported and the next one
    imported all the same; exits with 1 when any file was not stored.

    \b
    Example: guandan event import "Huai'an Cup" round1/*.gdn
    """
    from duplicate.events import import_each
    from duplicate.events.batch import total
    from duplicate.events.imports import unfinished_board_words

    fix = correction_from(correction, by, reason)
    with open_database() as engine:
        with db_progress(len(files), "Importing") as tick:
            outcomes = import_each(
                engine, event, files, round_no=round_no, correction=fix, jobs=jobs,
                progress=tick, by=by, chief=chief,
            )
    sums = total(outcomes)
    if as_json:
        click.echo(json_text({"files": [o.to_dict() for o in outcomes], "total": sums}),
                   nl=False)
    else:
        for o in outcomes:
            if o.summary is None:
                click.echo(say("cli.import.not_stored", file=o.file, error=o.message(cli_lang())))
                continue
            s = o.summary
            click.echo(say("cli.import.file", file=o.file, n=s.records, added=s.added,
                           unchanged=s.unchanged, corrected=s.corrected))
            for board in s.unfinished_boards:
                click.echo("  " + say("cli.import.unfinished",
                                      board=unfinished_board_words(board, cli_lang())))
        n, failed = len(outcomes), sums["failed"]
        if failed:
            first = next(o.message(cli_lang()) for o in outcomes if o.error)
            click.echo(say("cli.import.failed", n=n, failed=failed, first=first), err=True)
        click.echo(say("cli.import.total", n=n, stored=n - failed, failed=failed,
                       records=say("cli.import.records", n=sums["records"]),
                       added=sums["added"], unchanged=sums["unchanged"],
                       corrected=sums["corrected"], unfinished=sums["unfinished"]))
    if sums["failed"]:
        click.get_current_context().exit(1)


@event_group.command("play-bots")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True,
              help="The round to play.")
@click.option("--x", "x_policy", default="mixed", show_default=True, metavar="POLICY",
              callback=check_event_policy, help="Bots of each match's team X: mixed, heuristic, "
              "random, search or search:PLAYOUTS.")
@click.option("--y", "y_policy", default="mixed", show_default=True, metavar="POLICY",
              callback=check_event_policy, help="Bots of each match's team Y: mixed, heuristic, "
              "random, search or search:PLAYOUTS.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Also write the records to this .gdn file.")
@force_option
@db_option
@db_errors
def event_play_bots_command(
    event: str, round_no: int, x_policy: str, y_policy: str, output: str | None, force: bool
) -> None:
    """Play the rooms of a round of EVENT that have no result yet with the self-play bots
    and import the records (what a table reported stays); -o writes them once imported."""
    from duplicate.events import play_bots

    check_output(output, force)
    with open_database() as engine:
        try:
            summary = play_bots(engine, event, round_no, x_policy, y_policy, output)
        except OSError as exc:  # the -o file's folder: known before anything is imported
            if output is None:
                raise
            raise click.ClickException(cannot("cli.cannot_write", output, exc)) from exc
    if not summary.records:
        click.echo(say("cli.round.bots_none", round=round_no))
        if output is not None and output != "-":
            click.echo(say("cli.round.bots_no_file", path=repr(output)))
        return
    click.echo(say("cli.round.played", round=round_no, n=summary.records))


@event_group.command("unfinished")
@click.argument("event")
@match_board_options
@click.option("--room", type=click.Choice(["open", "closed", "both"], case_sensitive=False),
              default="both", show_default=True, help="The room(s) that did not finish it.")
@click.option("--reason", required=True, help="Why: time, withdrawal, ...")
@click.option("--by", help="Who, when this replaces a stored result (a correction).")
@click.option("--chief", is_flag=True,
              help="As the chief director (裁判长): needed after the directors' limit on a "
              "published round; logged as overriding it.")
@db_option
@db_errors
def event_unfinished_command(
    event: str, round_no: int, table: int, board: int, room: str, reason: str, by: str | None,
    chief: bool,
) -> None:
    """Record a board as unfinished; it is scored by the event's rule, never dropped."""
    from duplicate.events import ROOMS, Correction, record_unfinished

    rooms = ROOMS if room.lower() == "both" else (room.lower(),)
    fix = Correction(reason=reason, by=by) if by else None
    with open_database() as engine:
        n = record_unfinished(engine, event, round_no, table, board, reason, rooms, fix,
                              chief=chief)
    click.echo(say("cli.board.unfinished", round=round_no, table=table, board=board, n=n))


@event_group.command("correct")
@click.argument("event")
@match_board_options
@click.option("--room", type=click.Choice(["open", "closed"], case_sensitive=False),
              required=True, help="The room whose result changes.")
@click.option("--finish", "finish", default=None, metavar="'N E W'",
              help="The finishing order the result is counted from, e.g. 'N E W' or '北 东 西' "
              "(the result it implies; with --result, the two must agree).")
@click.option("--result", "result", default=None, metavar="'NS +2'",
              help="The N-S or E-W side and its levels gained, e.g. 'NS +2' or 'EW +1'.")
@click.option("--by", required=True, help="Who makes the correction.")
@click.option("--reason", required=True, help="Why.")
@click.option("--chief", is_flag=True,
              help="As the chief director (裁判长): needed after the directors' limit on a "
              "published round; logged as overriding it.")
@db_option
@db_errors
def event_correct_command(
    event: str, round_no: int, table: int, board: int, room: str, finish: str | None,
    result: str | None, by: str, reason: str, chief: bool,
) -> None:
    """Set a room's result on a board by a ruling (from a finishing order or an N-S
    result), kept with who, when and why; refused when it changes nothing."""
    from duplicate.events import Correction, correct_result, parse_result
    from duplicate.hall import preview_finish

    if finish is None and result is None:
        raise click.UsageError(say("cli.err.finish_or_result"))
    ns = parse_result(result) if result is not None else None
    with open_database() as engine:
        before = correct_result(
            engine, event, round_no, table, board, room.lower(), ns,
            Correction(reason=reason, by=by), finish=finish, chief=chief,
        )
        if ns is None:  # the order's result, as the library counted it
            ns = preview_finish(engine, event, finish or "").ns_result
    after = f"{'NS' if ns > 0 else 'EW'} +{abs(ns)}"  # as the library writes a result
    if before is None:  # the room holds this very ruling already: nothing logged
        click.echo(say("cli.board.unchanged", round=round_no, table=table, board=board,
                       room=say(f"cli.val.{room.lower()}"),
                       after=state_words(after, cli_lang())))
        return
    click.echo(say("cli.board.corrected", round=round_no, table=table, board=board,
                   room=say(f"cli.val.{room.lower()}"), before=state_words(before, cli_lang()),
                   after=state_words(after, cli_lang())))


@event_group.command("corrections")
@click.argument("event")
@output_options
@db_option
@db_errors
def event_corrections_command(event: str, fmt: str) -> None:
    """List EVENT's corrections: who, when, why, and what changed."""
    from duplicate.events import get_event, list_corrections

    with open_database() as engine:
        rows = list_corrections(engine, event)
        zone = get_event(engine, event).time_zone
    if fmt == "table":
        rows = [human_correction_row(r, zone) for r in rows]
    emit_rows(rows, fmt, ("round", "table", "board", "room", "by", "at", "reason", "before",
                          "after"))


@event_group.command("score")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="Only this round (default: every round).")
@output_options
@db_option
@db_errors
def event_score_command(event: str, round_no: int | None, fmt: str) -> None:
    """Score EVENT's matches from the stored results and publish them; each round's bye
    is listed with its points (a team's rows add up to its total in the standings)."""
    from duplicate.events import get_event, round_byes, score_event
    from duplicate.scoring import is_vp

    with open_database() as engine:
        scored = score_event(engine, event, round_no)
        byes = {b.round: b for b in round_byes(engine, event, round_no)}
        vp = is_vp(get_event(engine, event).scale)
    rows: list[dict[str, Any]] = []
    for s in scored:  # round by round, each round's bye after its matches
        while byes and min(byes) < s.info.round:
            rows.append(_bye_row(byes.pop(min(byes)), fmt))
        rows.append(s.to_dict())
    rows.extend(_bye_row(byes.pop(n), fmt) for n in sorted(byes))
    emit_rows(rows, fmt, _EVENT_SCORE_COLUMNS, vp=vp)


def _bye_row(bye: Any, fmt: str) -> dict[str, Any]:
    """A bye in the score listing: for a person, the word (bye, 轮空) where the opponent
    stands and nothing in the columns a bye has no value in; --json and --csv as the
    library gives it (``bye`` true, no table, no opponent)."""
    row: dict[str, Any] = bye.to_dict()
    if fmt == "table":
        row.update(team_y=say("cli.val.bye"), margin=None, points_y=None)
    return row


@event_group.command("standings")
@click.argument("event")
@click.option("--after", "through", type=click.IntRange(min=1), default=None,
              help="After this round (default: the last complete round).")
@output_options
@db_option
@db_errors
def event_standings_command(event: str, through: int | None, fmt: str) -> None:
    """Show EVENT's standings, recomputed from the stored results, with the tie-breaks."""
    from duplicate.events import event_standings, get_event, withdrawals
    from duplicate.scoring import is_vp

    with open_database() as engine:
        rows, after = event_standings(engine, event, through)
        gone = withdrawals(engine, event)
        info = get_event(engine, event)
        order = info.tiebreaks
    columns = _EVENT_STANDING_COLUMNS if order == DEFAULT_ORDER else _FRIENDLY_STANDING_COLUMNS
    emit_rows((_event_standing_row(r, gone, fmt) for r in rows), fmt, columns,
              {"swing": "cli.col.total_swing"}, vp=is_vp(info.scale))  # the standings' swing is the total, 级差分
    if fmt == "table":
        click.echo(say("cli.standings.after", round=after) if after
                   else say("cli.standings.none"))
        click.echo(say(f"standings.ranked_by.{order}"))


@event_group.command("matches")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="Only this round.")
@output_options
@db_option
@db_errors
def event_matches_command(event: str, round_no: int | None, fmt: str) -> None:
    """List EVENT's matches and who sits where in each room."""
    from duplicate.events import list_matches

    with open_database() as engine:
        matches = list_matches(engine, event, round_no)
    if fmt == "json":
        emit_rows((m.to_dict() for m in matches), fmt)
    else:
        lang = cli_lang() if fmt == "table" else "en"
        emit_rows((_event_match_row(m, lang) for m in matches), fmt, _EVENT_MATCH_COLUMNS)


@event_group.command("boards")
@click.argument("event")
@click.argument("round_no", metavar="ROUND", type=click.IntRange(min=1))
@click.argument("table", type=click.IntRange(min=1))
@output_options
@db_option
@db_errors
def event_boards_command(event: str, round_no: int, table: int, fmt: str) -> None:
    """Show the match at TABLE of ROUND board by board: level, leader, each room's N-S
    result, and the swing to team X."""
    from duplicate.events import event_rules, get_event, match_boards
    from duplicate.events.site import match_rulings
    from duplicate.review.pages import ruling_note

    with open_database() as engine:
        zone = get_event(engine, event).time_zone
        rows = match_boards(engine, event, round_no, table)
        ruled = match_rulings(engine, event, round_no, table, event_rules(engine, event))
    emit_rows((human_board_row(r.to_dict(), fmt) for r in rows), fmt, EVENT_BOARD_COLUMNS)
    if fmt == "table":  # the results above are those that count; say which were ruled
        for board, r in ruled:
            click.echo(say("cli.board.ruled", board=board, room=say(f"cli.val.{r.room}"),
                           note=ruling_note(r, cli_lang(), zone)))


@event_group.command("export")
@click.argument("event")
@click.option("--round", "round_no", type=click.IntRange(min=1), default=None,
              help="Only this round.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this file (default: standard output).")
@force_option
@click.option("--unreleased", is_flag=True,
              help="Also the records of boards not released yet: the director's copy, not for "
              "players (needs --by, --reason; logged).")
@click.option("--by", help="Who exports unreleased boards (with --unreleased).")
@click.option("--reason", help="Why (with --unreleased).")
@db_option
@db_errors
def event_export_command(
    event: str, round_no: int | None, output: str | None, force: bool, unreleased: bool,
    by: str | None, reason: str | None,
) -> None:
    """Write EVENT's stored records as .gdn text, each with its Table and Match tags (and
    the director's Ruling, RulingBy, RulingReason on a ruled room: docs/FORMAT.md): those
    of released boards only (every table of the round has the board in, or 'event
    release'); the others are named on standard error. The rooms whose result no record
    gives (a finishing order the table reported, a ruling, an unfinished board) follow
    as ';' comment lines that say so, as the desk's and the API's export."""
    from duplicate.events import unreleased_boards
    from duplicate.events.export import export_event

    change = _change(unreleased, by, reason, "--unreleased")
    check_output(output, force)
    with open_database() as engine:
        text = export_event(engine, event, round_no, unreleased=change, results=True)
        held = {} if change is not None else unreleased_boards(engine, event)
    write_output(text, output, force)
    if round_no is not None:
        held = {r: b for r, b in held.items() if r == round_no}
    if held:
        where = say("out.list.semi").join(
            say("out.export.held_round", round=r, boards=say("list.sep").join(map(str, b)))
            for r, b in held.items())
        click.echo(say("out.export.withheld", where=where), err=True)


@event_group.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--by", required=True, help="Who restores the event (logged where the export does not say who).")
@db_option
@db_errors
def event_restore_command(file: str, by: str) -> None:
    """Make the event of FILE, its whole export, again in a database that lacks it."""
    from duplicate.events import list_matches, list_teams, restore_event

    text = Path(file).read_text(encoding="utf-8-sig")
    with open_database() as engine:
        info = restore_event(engine, text, by, file=file)
        rounds = len({m.round for m in list_matches(engine, info.name)})
        teams = len(list_teams(engine, info.name))
    click.echo(say("cli.event.restored", event=info.name, rounds=rounds, teams=teams))


@event_group.command("report")
@click.argument("event")
@click.option("--out", "outdir", type=click.Path(file_okay=False), required=True,
              help="Folder to write the static HTML report into.")
@click.option("--force", is_flag=True, help="Write into a folder that already holds files.")
@click.option("--lang", type=LANG_CHOICE, default=None,
              help="Language of the folder's pages (English or Chinese; default: guandan "
              "--lang, else the folder's, else the event's own); the other language's are "
              "in its subfolder (en/ or zh/), every page linking the other.")
@click.option("--analyse", is_flag=True,
              help="Also value every decision of each board shown with all four hands known "
              "(guandan analyse): marks and values in the movie, each room's choice at the "
              "divergence, a value graph, players' marks; each record analysed once.")
@budget_options
@JOBS_OPTION
@db_option
@db_errors
def event_report_command(event: str, outdir: str, force: bool, lang: str | None,
                         analyse: bool, exact_cards: int, nodes: int | None, playouts: int,
                         seed: int, seconds: float | None,
                         processes: int | None) -> None:
    """Write EVENT's HTML report: standings, cross-table, teams, players, matches and each
    board's two rooms as a movie. Run again, it rewrites only the pages that changed.
    With --analyse, the records not analysed yet are analysed first ('event analyse
    --wait') and the pages show the database's stored analyses."""
    from duplicate.events.site import write_event_site

    check_output_dir(outdir, force, report=event)
    budget = budget_of(nodes, playouts, seed, seconds, exact_cards=exact_cards) if analyse \
        else None
    with open_database() as engine:
        stored = None
        if budget is not None:
            from duplicate.jobs.stored import DatabaseAnalyses  # lazy: only with --analyse

            outcome = run_analysis(engine, event, budget, processes, wait=True)
            stored = DatabaseAnalyses(engine, outcome.keys)
        site = write_event_site(engine, event, outdir, lang or explicit_lang(), budget,
                                analyses=stored, both=True)
    click.echo(say("cli.report.written", index=site.index, n=len(site.written),
                   drawn=say("cli.report.drawn", n=site.boards_drawn),
                   unchanged=site.unchanged))


# an event's analysis as jobs, and its progress (duplicate/commands/jobs.py)

event_group.add_command(event_analyse_command)
event_group.add_command(event_status_command)

# a room's result without a record, and its log (duplicate/commands/results.py)
from duplicate.commands.results import event_history_command, event_result_command  # noqa: E402

event_group.add_command(event_result_command)
event_group.add_command(event_history_command)

# the director's changes: duplicate/commands/event_admin.py
for _command in ADMIN_COMMANDS:
    event_group.add_command(_command)
