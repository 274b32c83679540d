"""The static HTML report of arena matches and tournaments, drawn by ``duplicate.report``.

Pages as for a teams event: the standings, every match board by board, and every board's
two rooms side by side (``duplicate.compare``: per-seat figures, the first divergence, the
trick-by-trick alignment). Agents take the place of teams.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from arena.duplicate_match import MatchResult
from arena.tournament import Standing
from duplicate.compare import compare_records
from duplicate.report import EventReport, MatchSummary, boards_of, slug, write_report
from duplicate.standings import StandingRow
from engine.ruleset import COMPETITION, Ruleset

__all__ = ["arena_report", "write_arena_report"]


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
        state=f"{len(played)} of {len(m.boards)} boards played" if missing else "",
    )


def arena_report(
    name: str,
    matches: Sequence[MatchResult],
    standings: Sequence[Standing] = (),
    notes: Sequence[str] = (),
    rules: Ruleset = COMPETITION,
) -> EventReport:
    """The report data: standings (match points, boards won, total swing) and matches."""
    rows = tuple(
        StandingRow(
            rank=i + 1, team=s.name, points=s.points, progressive=s.points,
            rounds_won=s.won, swing=s.swing, levels=0, opponents_points=0.0,
            played=s.played, lot="", decided_by=None,
        )
        for i, s in enumerate(standings)
    )
    return EventReport(name, rows, tuple(_summary(m, rules) for m in matches), tuple(notes))


def write_arena_report(outdir: str | Path, report: EventReport) -> list[Path]:
    """Write the report's pages into ``outdir`` (``index.html`` first)."""
    return write_report(outdir, report)
