"""``guandan analyse``: what each decision of a deal record was worth (analysis.annotate),
and the analysis part of ``guandan compare --analyse``. Human output in the output's
language (``guandan --lang``), plays in words and cards (``duplicate.i18n.game``); ``--json``
is the versioned document of docs/ANALYSIS.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from duplicate.analysis.budget import DEFAULT_BUDGET, Budget
from duplicate.commands.budget import budget_of, budget_options
from duplicate.commands.common import LANG_CHOICE, cannot, check_policy, cli_lang, error_text
from engine.errors import GuandanError

if TYPE_CHECKING:  # names for the annotations: the analysis (its solver and players,
    # their compiled modules) is imported when the command runs, not for its --help
    from duplicate.analysis.annotate import Annotation, Decision
    from duplicate.analysis.estimate import Evaluation
    from duplicate.analysis.rooms import RoomsAnalysis
    from engine.combo import Combo
    from engine.ruleset import Ruleset

#: The ``--json`` document's format name and version (docs/ANALYSIS.md "JSON").
JSON_FORMAT = "guandan-analysis"
JSON_VERSION = 2


def _t(lang: str) -> Any:
    from duplicate.i18n import translator

    return translator(lang)


def value_text(e: Evaluation, lang: str) -> str:
    """``+2`` exact, ``~+1.4±0.3 (est., 24)`` an estimate (``!`` after the count when the
    time cap cut it), in ``lang``."""
    if e.exact:
        return f"{int(e.value):+d}"
    samples = f"{e.samples}!" if e.cut else str(e.samples)
    return str(_t(lang)("analysis.estimate", value=_signed(e.value), stderr=f"{e.stderr:.1f}",
                    samples=samples))


def _signed(value: float) -> str:
    """One decimal with its sign, never ``-0.0``."""
    shown = round(value, 1)
    return "0.0" if shown == 0 else f"{shown:+.1f}"


def room_text(room: str | None, lang: str) -> str:
    """The record's Room tag as a player says it: open room / 开室."""
    key = {"open": "hall.room.open", "closed": "hall.room.closed"}.get((room or "").lower())
    return _t(lang)(key) if key else (room or "?")


def _play(combo: Combo | None, level: int, lang: str) -> str:
    from duplicate.i18n.game import play_text

    return play_text(combo, level, lang)


def line_text(d: Decision, level: int, lang: str) -> str:
    """The best line after a marked decision: ``East single 9 9♣, South pass, …``."""
    from duplicate.i18n.game import describe_play, seat_name

    out = [f"{seat_name(seat, lang)} {describe_play(combo, level, lang)}" for seat, combo in d.line]
    return str(_t(lang)("analysis.line_sep")).join(out)


def _seat(d: Decision, lang: str) -> str:
    from duplicate.i18n.game import seat_name

    return seat_name(d.seat, lang)


def _ns(value: str, lang: str) -> str:
    return str(_t(lang)("analysis.ns_value", value=value))


def budget_line(budget: Budget, lang: str) -> str:
    """The budget the values were computed with, so that anyone can repeat them."""
    values = {"nodes": f"{budget.nodes:,}", "playouts": budget.playouts, "seed": budget.seed}
    if budget.cards is not None:
        text = str(_t(lang)("analysis.budget_cards", cards=budget.cards,
                            playouts=budget.playouts, seed=budget.seed))
    elif budget.seconds is None:
        return str(_t(lang)("analysis.budget", **values))
    else:
        return str(_t(lang)("analysis.budget_capped", seconds=f"{budget.seconds:g}", **values))
    if budget.seconds is not None:
        text += str(_t(lang)("analysis.budget_cap", seconds=f"{budget.seconds:g}"))
    return text


def annotation_lines(a: Annotation, budget: Budget, lang: str = "en",
                     with_par: bool = True) -> list[str]:
    """The human report of an annotation."""
    from duplicate.i18n.game import level_text

    t = _t(lang)
    where = {"board": a.board or "?", "room": room_text(a.room, lang),
             "level": level_text(a.level, lang)}
    if a.result is not None:
        lines = [t("analysis.header", result=_ns(f"{a.result:+d}", lang), **where)]
    else:
        lines = [t("analysis.header_unfinished", **where)]
    if with_par:
        if a.par is not None:
            lines.append(t("analysis.par", ply=a.par.ply + 1, value=_ns(f"{a.par.value:+d}", lang)))
        else:
            lines.append(t("analysis.no_par"))
    lines.append(t("analysis.legend"))
    lines.append(budget_line(budget, lang))
    if a.decisions:
        first = a.decisions[0]
        lines.append(t("analysis.from", ply=first.ply + 1, trick=first.trick))
    from duplicate.names import display_width

    cells = [(f"{d.ply + 1:>4} {t('analysis.trick', trick=d.trick)}", _seat(d, lang),
              _play(d.action, a.level, lang)) for d in a.decisions]
    widths = [max((display_width(c[i]) for c in cells), default=0) for i in range(3)]

    def pad(text: str, column: int) -> str:
        return text + " " * (widths[column] - display_width(text))

    for (num, seat, play), d in zip(cells, a.decisions, strict=True):
        before, after = value_text(d.before, lang), value_text(d.after, lang)
        line = f"{pad(num, 0)}  {pad(seat, 1)}  {pad(play, 2)}  {before:>6} → {after:<6} {d.mark}"
        lines.append(line.rstrip())
        if d.mark and d.best:
            plays = "; ".join(f"{_play(c, a.level, lang)} {value_text(e, lang)}" for c, e in d.best)
            lines.append("        " + t("analysis.best", plays=plays))
        if d.mark and d.line:
            lines.append("        " + t("analysis.line", plays=line_text(d, a.level, lang)))
    return lines


def rooms_lines(r: RoomsAnalysis, level: int, lang: str = "en") -> list[str]:
    """The human report of a board's rooms valued from their divergence."""
    if r.divergence is None:
        return []
    t = _t(lang)
    lines = [t("analysis.rooms", board=r.board or "?", ply=r.divergence + 1)]
    for room in r.rooms:
        if room.choice is not None:
            c = room.choice
            lines.append("  " + t("analysis.room_choice", room=room_text(room.room, lang),
                                  seat=_seat(c, lang), action=_play(c.action, level, lang),
                                  value=_ns(value_text(c.after, lang), lang),
                                  mark=f" {c.mark}" if c.mark else ""))
    for room in r.rooms:
        for d in room.swings:
            if room.choice is not None and d.ply == room.choice.ply:
                continue
            lines.append("  " + t("analysis.room_swing", room=room_text(room.room, lang),
                                  ply=d.ply + 1, seat=_seat(d, lang),
                                  action=_play(d.action, level, lang),
                                  before=value_text(d.before, lang),
                                  after=value_text(d.after, lang), mark=d.mark).rstrip())
    return lines


def json_document(kind: str, budget: Budget, items: list[dict[str, Any]]) -> dict[str, Any]:
    """The versioned ``--json`` document: ``kind`` is ``annotations`` or ``rooms``."""
    return {"format": JSON_FORMAT, "version": JSON_VERSION, "budget": budget.to_dict(),
            kind: items}


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
@budget_options
@click.option("--playout-policy", default="heuristic", show_default=True, metavar="POLICY",
              callback=check_policy,
              help="The bots of the estimates' playouts: heuristic, or search[:PLAYOUTS] (each "
              "turn looks one play ahead, every hand seen; slower, docs/BOTS.md).")
@click.option("--playout-noise", type=click.FloatRange(min=0, max=1),
              default=DEFAULT_BUDGET.noise, show_default=True, metavar="SHARE",
              help="The share of random plays in a playout; 0: none, and one playout is made "
              "(every playout would be the same).")
@click.option("--par/--no-par", default=True, show_default=True,
              help="Also compute the par of the board (best play from the earliest position "
              "settled exactly).")
@click.option("--variant", "variants", metavar="NAME=VALUE", multiple=True,
              help="A rule variant of RULES.md the deals were played under (repeatable).")
@click.option("--lang", type=LANG_CHOICE, default=None,
              help="Language of the report (default: guandan --lang, else English).")
@click.option("--json", "as_json", is_flag=True, help="Print the annotations as JSON.")
def analyse_command(
    file: str,
    board: str | None,
    room: str | None,
    start: str | None,
    exact_cards: int,
    nodes: int | None,
    playouts: int,
    seed: int,
    seconds: float | None,
    playout_policy: str,
    playout_noise: float,
    par: bool,
    variants: tuple[str, ...],
    lang: str | None,
    as_json: bool,
) -> None:
    """Annotate deal records in FILE: the value of each decision with all four hands known.

    Values are the deal's result for N-S in levels with best play by all four (+3..-3, +-4
    under double_down_plus4), exact for the positions of --exact-cards cards or fewer (or
    those the search settles within --nodes), otherwise an estimate from --playouts
    playouts (marked ~ with its standard error). The same file and budget give the same
    values on any machine, and with --exact-cards on either core. A play that lost value for
    its side beyond that uncertainty is marked ? (one level) or ?? (two or more), with the
    best plays.

    \b
    Example: guandan analyse match.gdn --board 3 --room Open --from trick:12
    """
    from duplicate.analysis.annotate import annotate
    from duplicate.commands.common import parse_variants as _ruleset
    from duplicate.compare import first_divergence, group_boards, trace_room
    from duplicate.errors import DuplicateError
    from duplicate.gdn import loads

    lang = cli_lang(lang)
    rules = _ruleset(variants)
    budget = budget_of(nodes, playouts, seed, seconds, playout_policy, playout_noise,
                       exact_cards)
    try:
        text = Path(file).read_bytes()
    except OSError as exc:
        raise click.ClickException(cannot("cli.cannot_read", file, exc)) from exc
    out = []
    try:
        records = loads(text, file=file)
        chosen = [
            r for r in records
            if (board is None or r.board == board) and (room is None or r.room == room)
        ]
        if not chosen:
            raise click.ClickException(_t(lang)("analysis.nothing", file=file))
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
        items = [a.to_dict() for a in out]
        if not par:
            for item in items:
                del item["par"]
        doc = json_document("annotations", budget, items)
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    for i, a in enumerate(out):
        if i:
            click.echo()
        click.echo("\n".join(annotation_lines(a, budget, lang, with_par=par)))


def analyse_comparisons(
    file: str, board: str | None, rules: Ruleset, budget: Budget, lang: str = "en"
) -> tuple[list[dict[str, Any]], list[str]]:
    """``guandan compare --analyse``: each board's rooms valued from their divergence, in
    the order of ``compare_file``: as JSON data, and as the lines of the human report."""
    from duplicate.analysis.rooms import analyse_rooms
    from duplicate.compare import group_boards
    from duplicate.errors import DuplicateError
    from duplicate.gdn import loads

    try:
        groups = group_boards(loads(Path(file).read_bytes(), file=file), board)
        results = [(analyse_rooms(g, rules, budget), g[0].level) for g in groups]
    except (GuandanError, DuplicateError) as exc:
        raise click.ClickException(error_text(exc)) from exc
    except OSError as exc:
        raise click.ClickException(cannot("cli.cannot_read", file, exc)) from exc
    lines: list[str] = []
    for r, level in results:
        text = rooms_lines(r, level, lang)
        if text:
            lines += ["", *text]
    if lines:
        lines += ["", budget_line(budget, lang)]
    return [r.to_dict() for r, _ in results], lines
