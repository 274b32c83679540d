"""The static HTML report of arena matches and tournaments, drawn by ``duplicate.report``.

Pages as for a teams event: the standings, every match board by board, and every board's
two rooms side by side (``duplicate.compare``: per-seat figures, the first divergence, the
trick-by-trick alignment). Agents take the place of teams. Every word the report adds (its
title, the ratings and how they were found) comes from the catalogue (``duplicate.arena.report.*``,
``arena.method``) in the report's language, as the pages' own words do.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from duplicate.arena.duplicate_match import MatchResult
from duplicate.arena.messages import text
from duplicate.arena.rating import Rating, overlaps
from duplicate.arena.tournament import Standing
from duplicate.compare import compare_records
from duplicate.i18n import gettext
from duplicate.report import EventReport, MatchSummary, boards_of, slug, write_report
from duplicate.standings import StandingRow
from engine.ruleset import COMPETITION, Ruleset

__all__ = ["arena_report", "margin_note", "match_notes", "match_title", "overlap_note", "rating_notes",
           "tournament_title", "write_arena_report"]


def match_title(a: str, b: str, lang: str = "en") -> str:
    """The title of a duplicate match's report (``Arena: mine v theirs``)."""
    return text("report.match", lang, a=a, b=b)


def tournament_title(agents: int, boards: int, lang: str = "en") -> str:
    """The title of a tournament's report (``Arena tournament (3 agents, 1 board)``)."""
    return text("report.tournament", lang, agents=text("report.agents", lang, n=agents),
                boards=gettext(lang, "count.boards", n=boards))


def margin_note(m: MatchResult, lang: str = "en") -> str | None:
    """A's mean swing a board with its standard error and 95% interval, and whether the
    boards separate the agents (``None`` under two boards played in both rooms)."""
    est = m.estimate
    if est is None:
        return None
    a, b = m.names
    key = "per_board.separated" if est.separated else "per_board.open"
    return text(key, lang, a=a, mean=f"{est.per_board:+.2f}", se=f"{est.stderr:.2f}",
                low=f"{est.low:+.2f}", high=f"{est.high:+.2f}",
                boards=gettext(lang, "count.boards", n=est.boards),
                ahead=a if est.per_board > 0 else b)


def match_notes(matches: Sequence[MatchResult], lang: str = "en") -> list[str]:
    """A tournament report's note for each match: its margin a board with the interval
    (:func:`margin_note`), the match named."""
    notes = []
    for m in matches:
        note = margin_note(m, lang)
        if note:
            notes.append(text("match_note", lang, a=m.names[0], b=m.names[1], note=note))
    return notes


def rating_notes(ratings: Sequence[Rating], lang: str = "en") -> list[str]:
    """The report's notes on a tournament's ratings: one line an agent (its rating and 95%
    interval), then how they were found (:data:`duplicate.arena.rating.METHOD`)."""
    return [text("report.rating_note", lang, name=r.name, rating=f"{r.rating:+.0f}",
                 low=f"{r.low:+.0f}", high=f"{r.high:+.0f}") for r in ratings] + [
        overlap_note(ratings, lang), text("method", lang)]


def overlap_note(ratings: Sequence[Rating], lang: str = "en") -> str:
    """Which agents the boards do not yet separate (their intervals overlap), or that
    every two are separated."""
    pairs = overlaps(ratings)
    if not pairs:
        return text("separated", lang)
    return text("overlap", lang, pairs=gettext(lang, "list.sep").join(f"{a} – {b}" for a, b in pairs))


def _summary(m: MatchResult, rules: Ruleset) -> MatchSummary:
    a, b = m.names
    played = [bp for bp in m.boards if bp.open is not None and bp.closed is not None]
    records = [r for bp in played for r in (bp.open, bp.closed) if r is not None]
    lines = boards_of(compare_records(records, rules=rules)) if records else ()
    missing = len(m.boards) - len(played)
    return MatchSummary(
        key=slug(f"{a}-v-{b}"),
        round="",
        team_x=a,
        team_y=b,
        boards=lines,
        margin=m.score.margin,
        points_x=m.score.points_x,
        points_y=m.score.points_y,
        open_players=(a, b, a, b),
        closed_players=(b, a, b, a),
        # the pages word a match's state in their language (duplicate.review.render.state_text)
        state=f"{len(played)} of {len(m.boards)} boards in" if missing else "",
    )


def arena_report(
    name: str,
    matches: Sequence[MatchResult],
    standings: Sequence[Standing] = (),
    notes: Sequence[str] = (),
    rules: Ruleset = COMPETITION,
    lang: str = "en",
) -> EventReport:
    """The report data: standings (match points, boards won, total swing) and matches,
    its pages in ``lang`` (``name`` and ``notes`` are shown as given: word them in it,
    :func:`match_title`, :func:`tournament_title`, :func:`rating_notes`)."""
    rows = tuple(
        StandingRow(
            rank=i + 1, team=s.name, points=s.points, progressive=s.points,
            rounds_won=s.won, swing=s.swing, levels=0, opponents_points=0.0,
            played=s.played, lot="", decided_by=None,
        )
        for i, s in enumerate(standings)
    )
    return EventReport(name, rows, tuple(_summary(m, rules) for m in matches), tuple(notes),
                       lang=lang, event_columns=False)


def write_arena_report(outdir: str | Path, report: EventReport) -> list[Path]:
    """Write the report's pages into ``outdir`` (``index.html`` first), in its language."""
    return write_report(outdir, report)
