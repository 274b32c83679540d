"""The HTML event report: standings, matches board by board, and each board's rooms.

This module is the stable entry point; the pages are drawn by ``duplicate.review`` from
the Jinja2 templates of ``duplicate/templates`` (one base layout, one card macro, one
stylesheet ``static/guandan.css``, the board movie ``static/movie.js``), in English or
Chinese. Input is plain data (``duplicate.review.model``) so that whoever holds the
results, a ``.gdn`` file or the event database, can draw them; every text from outside
is escaped by the templates' autoescaping.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from markupsafe import Markup

from duplicate.analysis.estimate import Budget
from duplicate.compare import BoardComparison
from duplicate.i18n import game as vocab
from duplicate.i18n import normalise_language, translator
from duplicate.review.model import BoardLine, ByeLine, EventReport, MatchSummary, Ruling
from duplicate.review.pages import (
    ReportError,
    board_page,
    match_page,
    render_board,
    render_event,
    render_match,
    slug,
)
from duplicate.review.render import environment
from duplicate.review.site import SiteResult, write_site
from duplicate.scoring import swing as board_swing
from duplicate.simulate import EVENT
from engine.cards import Cards, Kind
from engine.ruleset import COMPETITION, Ruleset

__all__ = [
    "BoardLine", "ByeLine", "EventReport", "MatchSummary", "ReportError", "Ruling", "SiteResult",
    "board_page", "boards_of", "card_html", "cards_html", "match_page", "match_report",
    "render_board", "render_event", "render_match", "slug", "write_report",
]


def card_html(kind: Kind, level: int, lang: str = "en") -> str:
    """One card drawn by the card macro (``templates/cards.html``)."""
    macro = environment().get_template("cards.html").module.card  # type: ignore[attr-defined]
    return str(Markup(macro(vocab.face(kind, level, lang))))


def cards_html(cards: Cards, level: int, lang: str = "en") -> str:
    """Cards drawn by the card macro, in level order low to high (RULES.md §2)."""
    macro = environment().get_template("cards.html").module.cards  # type: ignore[attr-defined]
    return str(Markup(macro(vocab.hand_faces(cards, level, lang))))


def write_report(outdir: str | Path, event: EventReport, *, lang: str | None = None,
                 rules: Ruleset = COMPETITION, analyse: Budget | None = None) -> list[Path]:
    """Write the event's static report into ``outdir`` (only what changed since the last
    build there), with the boards' analysis within ``analyse`` a position when given;
    return the files written."""
    return list(write_site(outdir, event, lang=lang, rules=rules, analyse=analyse).written)


def boards_of(comparisons: Iterable[BoardComparison],
              rules: Ruleset = COMPETITION) -> tuple[BoardLine, ...]:
    """Board lines of a match from the comparisons of its boards (rooms: open, closed).

    A room whose record carries a director's ruling (``Ruling`` tags) counts the ruling's
    result, and the line keeps the ruling (who, why, the record's own result). A board
    its records say was forfeited (``Forfeit``) is ``forfeited``, with the conceded swing."""
    lines = []
    for c in comparisons:
        counted: list[int | None] = []
        rulings = []
        for key, r in zip(("open", "closed"), c.rooms, strict=False):
            if r.ruling is None:
                counted.append(r.result_ns)
                continue
            counted.append(r.ruling.result_ns)  # the ruling's result counts
            rulings.append(Ruling(key, r.ruling.by, r.ruling.reason, None, "", "",
                                  recorded=r.result_ns, counted=r.ruling.result_ns))
        counted += [None] * (2 - len(counted))
        open_ns, closed_ns = counted[0], counted[1]
        swing = c.swing
        if rulings and open_ns is not None and closed_ns is not None:
            swing = board_swing(open_ns, closed_ns, rules)
        status = "played" if open_ns is not None and closed_ns is not None else "unfinished"
        if c.forfeited_by and status != "played":
            status = "forfeited"  # an arena's board: conceded, its swing counts
        lines.append(BoardLine(c.board or "?", c.level, c.leader, open_ns, closed_ns, swing,
                               status, c, rulings=tuple(rulings)))
    return tuple(lines)


def _event_title(event: str | None, lang: str | None) -> str | None:
    """A record's Event tag as a page's title: ``guandan simulate``'s own tag (the records
    keep it, machine data) in the page's language, any other as it is."""
    if event == EVENT and lang is not None and normalise_language(lang) != "en":
        return str(translator(lang)("out.sim.title"))
    return event


def match_report(comparisons: Sequence[BoardComparison], title: str | None = None,
                 lang: str = "en", rules: Ruleset = COMPETITION) -> EventReport:
    """An event report from boards' comparisons (``guandan compare --html``): one match a
    (Round, Table) of the records (an exported event round holds several).

    The first room of each comparison is taken as the open room: team X is its N–S pair
    (and the closed room's E–W pair), team Y the other two. Without an event database there
    are no standings and no match points; the margin is the sum of the swings.
    """
    if not comparisons:
        raise ReportError("no compared board to report")
    groups: dict[tuple[str, str], list[BoardComparison]] = {}
    for c in comparisons:
        groups.setdefault((c.round or "", c.table or ""), []).append(c)
    matches = []
    t = translator(lang)

    def room_name(room: str) -> str:  # English keeps the records' Room tags
        key = room.lower()
        return t(f"report.room.{key}") if lang != "en" and key in ("open", "closed") else room

    for (rnd, table), comps in groups.items():
        first = comps[0]
        lines = boards_of(comps, rules)
        first_room = first.rooms[0]
        key = "-".join(p for p in (f"r{rnd}" if rnd else "", f"t{table}" if table else "") if p)
        matches.append(MatchSummary(
            key=slug(key or "match"),
            round=rnd,
            team_x=t("report.team_x", room=room_name(first_room.room),
                     side=vocab.side_name(True, lang)),
            team_y=t("report.team_y", room=room_name(first_room.room),
                     side=vocab.side_name(False, lang)),
            boards=lines,
            margin=sum(line.swing or 0 for line in lines),
            open_players=first_room.players,
            closed_players=first.rooms[1].players,
            table=int(table) if table.isdigit() else None,
        ))
    name = title or _event_title(comparisons[0].event, lang) or t("report.match_untitled")
    return EventReport(name, (), tuple(matches), lang=lang)
