"""``guandan analyse``: what each decision of a deal record was worth (analysis.annotate)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from analysis.annotate import Annotation, annotate, combo_text
from analysis.estimate import Evaluation
from analysis.messages import message
from analysis.rooms import RoomsAnalysis
from commands.common import error_text
from engine.cards import rank_name
from engine.errors import GuandanError
from engine.ruleset import Ruleset


def _value(e: Evaluation) -> str:
    return e.text()


def _action(text: str, lang: str) -> str:
    return message("pass", lang) if text == "PASS" else text


def annotation_lines(a: Annotation, lang: str = "en") -> list[str]:
    """The human report of an annotation."""
    result = f"{a.result:+d}" if a.result is not None else "?"
    lines = [
        message("header", lang, board=a.board or "?", room=a.room or "?",
                level=rank_name(a.level), result=result),
    ]
    if a.par is not None:
        lines.append(message("par", lang, ply=a.par.ply + 1, value=f"{a.par.value:+d}"))
    else:
        lines.append(message("no_par", lang))
    lines.append(message("legend", lang))
    if a.decisions:
        first = a.decisions[0]
        lines.append(message("from", lang, ply=first.ply + 1, trick=first.trick))
    for d in a.decisions:
        lines.append(
            message("row", lang, ply=d.ply + 1, trick=d.trick, seat=d.seat.name,
                    action=_action(combo_text(d.action), lang), before=_value(d.before),
                    after=_value(d.after), mark=d.mark).rstrip()
        )
        if d.mark and d.best:
            plays = ", ".join(
                f"{_action(combo_text(c), lang)} {e.text()}" for c, e in d.best
            )
            lines.append(message("best", lang, plays=plays))
    return lines


def rooms_lines(r: RoomsAnalysis, lang: str = "en") -> list[str]:
    """The human report of a board's rooms valued from their divergence."""
    if r.divergence is None:
        return []
    lines = [message("rooms", lang, board=r.board or "?", ply=r.divergence + 1)]
    for room in r.rooms:
        if room.choice is not None:
            c = room.choice
            mark = f" {c.mark}" if c.mark else ""
            lines.append(message("room_choice", lang, room=room.room, seat=c.seat.name,
                                 action=_action(combo_text(c.action), lang),
                                 value=c.after.text(), mark=mark))
    for room in r.rooms:
        for d in room.swings:
            if room.choice is not None and d.ply == room.choice.ply:
                continue
            lines.append(message("room_swing", lang, room=room.room, ply=d.ply + 1,
                                 seat=d.seat.name, action=_action(combo_text(d.action), lang),
                                 before=d.before.text(), after=d.after.text(),
                                 mark=d.mark).rstrip())
    return lines


@click.command("analyse")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--board", metavar="N", help="Analyse only this board (its Board tag).")
@click.option("--room", metavar="R", help="Analyse only this room (its Room tag).")
@click.option(
    "--from",
    "start",
    metavar="WHERE",
    default=None,
    help="First action to annotate: divergence (needs the board's other room in FILE), "
    "trick:K, action:K or last:N (the last N tricks). Default: divergence when the board "
    "has two rooms that played differently, else last:3.",
)
@click.option("--budget", type=click.FloatRange(min=0.01), default=1.0, show_default=True,
              metavar="SECONDS", help="Seconds per position valued (exact first, then an estimate).")
@click.option("--par/--no-par", default=True, show_default=True,
              help="Also compute the par of the board (best play from the earliest position "
              "settled exactly).")
@click.option("--variant", "variants", metavar="NAME=VALUE", multiple=True,
              help="A rule variant of RULES.md the deals were played under (repeatable).")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="Language of the report: English or Chinese (中文).")
@click.option("--json", "as_json", is_flag=True, help="Print the annotations as JSON.")
def analyse_command(
    file: str,
    board: str | None,
    room: str | None,
    start: str | None,
    budget: float,
    par: bool,
    variants: tuple[str, ...],
    lang: str,
    as_json: bool,
) -> None:
    """Annotate deal records in FILE: the value of each decision with all four hands known.

    Values are the deal's result for N-S in levels with best play by all four (+3..-3, +-4
    under double_down_plus4), exact when the solver settles the position within the budget,
    otherwise an estimate from playouts (marked ~ with its standard error). A play that lost
    value for its side is marked ? (one level) or ?? (two or more), with the best plays.

    \b
    Example: guandan analyse match.gdn --board 3 --room Open --from trick:12
    """
    from commands.common import parse_variants as _ruleset
    from duplicate.compare import first_divergence, group_boards, trace_room
    from duplicate.errors import DuplicateError
    from duplicate.gdn import loads

    rules = _ruleset(variants)
    try:
        text = Path(file).read_bytes()
    except OSError as exc:
        raise click.ClickException(f"cannot read {file!r}: {exc.strerror}") from exc
    out = []
    try:
        records = loads(text, file=file)
        chosen = [
            r for r in records
            if (board is None or r.board == board) and (room is None or r.room == room)
        ]
        if not chosen:
            raise click.ClickException(message("nothing", "en", file=file))
        for rec in chosen:
            divergence = None
            spec = start
            if rec.board is not None and (start is None or start == "divergence"):
                tagged = [r for r in records if r.board is not None]
                group = [g for g in group_boards(tagged, rec.board) if rec in g]
                if group and len(group[0]) >= 2:
                    divergence = first_divergence([trace_room(r, rules) for r in group[0]])
            if spec is None:
                spec = "divergence" if divergence is not None else "last:3"
            out.append(annotate(rec, spec, rules, budget, divergence=divergence, with_par=par))
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(error_text(exc)) from exc
    if as_json:
        click.echo(json.dumps([a.to_dict() for a in out], ensure_ascii=False, indent=2))
        return
    for i, a in enumerate(out):
        if i:
            click.echo()
        click.echo("\n".join(annotation_lines(a, lang)))


def analyse_comparisons(
    file: str, board: str | None, rules: Ruleset, budget: float = 1.0
) -> tuple[list[dict[str, Any]], list[str]]:
    """``guandan compare --analyse``: each board's rooms valued from their divergence, in
    the order of ``compare_file``: as JSON data, and as the lines of the human report."""
    from analysis.rooms import analyse_rooms
    from duplicate.compare import group_boards
    from duplicate.errors import DuplicateError
    from duplicate.gdn import loads

    try:
        groups = group_boards(loads(Path(file).read_bytes(), file=file), board)
        results = [analyse_rooms(g, rules, budget) for g in groups]
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(error_text(exc)) from exc
    except OSError as exc:
        raise click.ClickException(f"cannot read {file!r}: {exc.strerror}") from exc
    lines: list[str] = []
    for r in results:
        text = rooms_lines(r)
        if text:
            lines += ["", *text]
    return [r.to_dict() for r in results], lines
