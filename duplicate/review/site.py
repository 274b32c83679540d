"""Writing an event's report folder, incrementally.

``manifest.json`` in the folder keeps, for every page written, the SHA-256 of its text,
and for every board page the digest of what it was drawn from (both rooms' records, the
rulings, the results that count) with the board's per-player figures. A new build draws
only the board pages whose digest changed (a board page is the costly part: both rooms
are replayed) and writes only the files whose text changed; the other pages (index,
matches, teams, cross-table, players) are drawn again, which is cheap, and rewritten only
when their text differs.

With ``other`` (the same event's report in the other language), one build writes both:
the first language in the folder, the other in its subfolder (``en/`` or ``zh/``), every
page linking to the same page in the other language; each record is analysed once (one
store serves both languages) and drawn twice.
"""

from __future__ import annotations

import gc
import hashlib
import json
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from duplicate.analysis.estimate import Budget
from duplicate.compare import compare_board
from duplicate.gdn import loads
from duplicate.i18n import os_reason, phrase
from duplicate.review.analysis import FOLDER as ANALYSIS_FOLDER
from duplicate.review.analysis import (
    AnalysisStore,
    analyse_board,
    analyse_options,
    merge_figures,
    player_figures,
)
from duplicate.review.mistakes import board_mistakes
from duplicate.review.mistakes import merge as merge_mistakes
from duplicate.review.model import BoardLine, EventReport, MatchSummary
from duplicate.review.pages import (
    ReportError,
    accuracy_text,
    board_page,
    board_pages,
    match_page,
    render_crosstable,
    render_event,
    render_match,
    render_players,
    render_team,
    team_ids,
)
from duplicate.review.player_page import player_page, render_player
from duplicate.review.render import static_text
from duplicate.review.stats import board_stats, compact, merge
from duplicate.review.visibility import visible_boards
from engine.ruleset import COMPETITION, Ruleset

MANIFEST = "manifest.json"
#: Bumped when the pages' drawing or the figures kept per board change: every board page
#: is drawn again.
VERSION = 4
ASSETS = ("guandan.css", "movie.js")


@dataclass(frozen=True, slots=True)
class SiteResult:
    """What a build did: files written, board pages drawn, files left as they were."""

    index: Path
    written: tuple[Path, ...]
    boards_drawn: int
    unchanged: int


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _load_manifest(out: Path, lang: str) -> dict[str, Any]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION or data.get("lang") != lang:
        return {}
    return data


def folder_event(outdir: str | Path) -> str | None:
    """The event whose report a folder holds (its manifest's), if any."""
    try:
        data = json.loads((Path(outdir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("event") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def folder_language(outdir: str | Path) -> str | None:
    """The language a report folder was written in (its manifest's), if any."""
    try:
        data = json.loads((Path(outdir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) else None


def with_comparison(line: BoardLine, rules: Ruleset) -> BoardLine:
    """``line`` with its two rooms compared (replayed) when it holds both records."""
    if line.comparison is not None or not all(line.records):
        return line
    records = [loads(text)[0] for text in line.records]
    return replace(line, comparison=compare_board(records, rules))


def _match_key(m: MatchSummary) -> tuple[object, ...]:
    """All a match page shows (the records and comparisons aside: the digest stands for them)."""
    lines = tuple(
        (ln.board, ln.level, ln.leader, ln.open_ns, ln.closed_ns, ln.swing, ln.status,
         ln.rulings, ln.visible, ln.digest)
        for ln in m.boards
    )
    return (m.key, m.round, m.team_x, m.team_y, m.margin, m.points_x, m.points_y,
            m.open_players, m.closed_players, m.state, lines)


def write_site(outdir: str | Path, event: EventReport, *, lang: str | None = None,
               rules: Ruleset = COMPETITION, analyse: Budget | None = None,
               analyses: AnalysisStore | None = None,
               other: EventReport | None = None) -> SiteResult:
    """Write (or bring up to date) the event's report in ``outdir``; with ``analyse``, the
    analysis of every board shown (:mod:`duplicate.review.analysis`) within that budget a
    position, each record analysed once (kept in ``outdir/analysis``, or read from
    ``analyses`` when given: the database's, which the jobs fill, ``duplicate.jobs``); with
    ``other`` (the report in the other language), that language too, in
    ``outdir/<its language>/``, the pages of both linking each other (the result counts the
    files of both)."""
    # A build makes millions of short-lived objects and few cycles: the cyclic collector,
    # run every 700 allocations, cost a quarter of a build from scratch. Rarer during it.
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], 50_000), *threshold[1:])
    lang = lang or event.lang
    out = Path(outdir)
    try:
        if out.exists() and not out.is_dir():
            raise ReportError(phrase("rest.site.not_folder", path=repr(str(out))))
        store = (analyses if analyses is not None else AnalysisStore(out / ANALYSIS_FOLDER)) \
            if analyse is not None else None
        if other is None:
            return _write_site(out, event, lang=lang, rules=rules, analyse=analyse, store=store)
        second = "zh" if lang == "en" else "en"
        # a folder written first in the other language keeps this one in a subfolder: gone
        if (out / lang / MANIFEST).is_file():
            shutil.rmtree(out / lang, ignore_errors=True)
        first = _write_site(out, event, lang=lang, rules=rules, analyse=analyse, store=store,
                            switch=f"{second}/")
        more = _write_site(out / second, other, lang=second, rules=rules, analyse=analyse,
                           store=store, switch="../", keep_store=False)
        return SiteResult(first.index, first.written + more.written,
                          first.boards_drawn + more.boards_drawn, first.unchanged + more.unchanged)
    finally:
        gc.set_threshold(*threshold)


def _write_site(out: Path, event: EventReport, *, lang: str, rules: Ruleset,
                analyse: Budget | None, store: AnalysisStore | None,
                switch: str | None = None, keep_store: bool = True) -> SiteResult:
    """One language's pages in ``out`` (``switch``: where the other language's are from
    here, :func:`duplicate.review.pages.language_switch`); the analyses from ``store``,
    pruned to what the pages show when ``keep_store`` (the folder that holds it)."""
    if out.exists() and not out.is_dir():
        raise ReportError(phrase("rest.site.not_folder", path=repr(str(out))))
    old = _load_manifest(out, lang)
    old_pages: dict[str, str] = old.get("pages", {})
    old_boards: dict[str, dict[str, Any]] = old.get("boards", {})
    visible = visible_boards(event.matches, event.released)
    pages: dict[str, str] = {}
    boards: dict[str, dict[str, Any]] = {}
    to_draw: list[tuple[MatchSummary, BoardLine]] = []
    matches: list[MatchSummary] = []
    seen_match: set[str] = set()
    for m in event.matches:
        mname = match_page(m)
        if mname in seen_match:
            raise ReportError(phrase("rest.site.match_twice", page=repr(mname)))
        seen_match.add(mname)
        lines = [replace(line, visible=(m.round, line.board) in visible and (
                     line.comparison is not None or (len(line.records) == 2 and all(line.records))))
                 for line in m.boards]
        # a board page links the match's previous and next pages: drawn again when they change
        pages_of_match = repr([ln.board for ln in lines if ln.visible])
        for line in lines:
            if not line.visible:
                continue
            name = board_page(m, line)
            if name in boards:
                raise ReportError(phrase("rest.site.board_twice", match=repr(m.key),
                                         page=repr(name)))
            digest = _sha("\x00".join((line.digest or repr(line.comparison), event.name,
                                       m.team_x, m.team_y, m.round, repr(analyse),
                                       switch or "", pages_of_match)))
            prev = old_boards.get(name)
            if (prev and prev.get("digest") == digest and line.digest and name in old_pages
                    and (out / name).exists()):
                boards[name] = prev
                pages[name] = ""  # unchanged: not drawn again
            else:
                boards[name] = {"digest": digest}
                to_draw.append((m, line))
        matches.append(replace(m, boards=tuple(lines)))
    event = replace(event, matches=tuple(matches))
    shown_matches = {m.key: m for m in matches}  # with each board's visibility
    drawn_lines = [(shown_matches[m.key], with_comparison(line, rules)) for m, line in to_draw]
    analyses_of: dict[str, list[dict[str, Any]]] = {}
    choices: dict[str, dict[str, Any]] = {}
    for m, line in drawn_lines:
        assert line.comparison is not None
        name = board_page(m, line)
        boards[name]["stats"] = compact(board_stats(line.comparison))
        if analyse is not None and store is not None:
            keys: list[str] = []
            analyses_of[name] = analyse_board(line.comparison, rules, analyse, store, keys)
            choices[name] = analyse_options(line.comparison, rules, analyse, store, keys)
            boards[name]["analysis"] = player_figures(line.comparison, analyses_of[name])
            boards[name]["analysis_keys"] = keys
            boards[name]["coach"] = board_mistakes(line.comparison, analyses_of[name], name)
            boards[name]["where"] = [m.round, line.board, m.team_x, m.team_y, match_page(m)]
    pages.update(board_pages(event, lang, rules, drawn_lines, analyses_of, analyse, choices=choices,
                              switch=switch))
    figures = merge_figures(b.get("analysis", {}) for b in boards.values()) \
        if analyse is not None else None
    played: dict[str, list[tuple[str, list[str], dict[str, Any]]]] = {}
    for name, b in sorted(boards.items()):
        for player, fig in b.get("coach", {}).items():
            played.setdefault(player, []).append((name, b["where"], fig))
    coach = {player: {"page": player_page(player), "accuracy": accuracy_text(
        merge_mistakes({player: f} for _, _, f in seen)[player], lang)}
        for player, seen in played.items()} if analyse is not None else None
    pages["index.html"] = render_event(event, lang=lang, switch=switch)
    pages["crosstable.html"] = render_crosstable(event, lang=lang, switch=switch)
    pages["players.html"] = render_players(
        event, merge(b.get("stats", {}) for b in boards.values()), lang=lang, analysis=figures,
        coach=coach, switch=switch)
    old_inputs: dict[str, str] = old.get("inputs", {})
    inputs: dict[str, str] = {}

    def unchanged(name: str, key: object) -> bool:
        """True when the page's input is as at the last build (then it is not drawn)."""
        inputs[name] = _sha(repr(key))
        if old_inputs.get(name) == inputs[name] and name in old_pages and (out / name).exists():
            pages[name] = ""
            return True
        return False

    ids = team_ids(event)
    match_keys = {m.key: _match_key(m) for m in event.matches}
    rows = {str(r.team): r for r in event.standings}
    for team, number in ids.items():
        name = f"team-{number}.html"
        key = (team, rows.get(team), event.name, ids, switch,
               [match_keys[m.key] for m in event.matches if team in (m.team_x, m.team_y)],
               sorted(figures.items()) if figures is not None else None,
               sorted(coach.items()) if coach is not None else None,
               [b for b in event.byes if b.team == team], event.withdrawn.get(team))
        if not unchanged(name, key):
            pages[name] = render_team(event, team, lang=lang, ids=ids, analysis=figures,
                                      coach=coach, switch=switch)
    for player, seen in played.items():
        name = player_page(player)
        if not unchanged(name, (player, seen, event.name, switch)):
            pages[name] = render_player(event, player, seen, lang=lang, switch=switch)
    for m in event.matches:
        name = match_page(m)
        if not unchanged(name, (match_keys[m.key], event.name, switch)):
            pages[name] = render_match(m, lang=lang, nav=(("index.html", event.name),),
                                       zone=event.time_zone, switch=switch)
    for asset in ASSETS:
        pages[asset] = static_text(asset)
    if store is not None:
        if keep_store:
            store.prune(k for b in boards.values() for k in b.get("analysis_keys", ()))
    elif keep_store and (out / ANALYSIS_FOLDER).is_dir():
        AnalysisStore(out / ANALYSIS_FOLDER).prune(())
    try:
        return _write(out, pages, old_pages, boards, inputs, lang, len(to_draw), event.name)
    except OSError as exc:  # a folder that cannot be made or written: one clear line
        why = os_reason(exc) if exc.strerror else str(exc)
        raise ReportError(phrase("rest.site.unwritable", path=repr(str(out)), why=why)) from exc


def _write(out: Path, pages: dict[str, str], old_pages: dict[str, str],
           boards: dict[str, dict[str, Any]], inputs: dict[str, str], lang: str,
           drawn: int, event_name: str) -> SiteResult:
    """Write the pages whose text changed, remove those gone, and the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    hashes: dict[str, str] = {}
    for name, text in pages.items():
        if text == "" and name in old_pages:
            hashes[name] = old_pages[name]
            continue
        h = _sha(text)
        hashes[name] = h
        path = out / name
        if old_pages.get(name) == h and path.exists():
            continue
        path.write_text(text, encoding="utf-8")
        written.append(path)
    for name in set(old_pages) - set(hashes):  # pages no longer part of the report
        (out / name).unlink(missing_ok=True)
    manifest = {"version": VERSION, "lang": lang, "event": event_name, "pages": hashes,
                "boards": boards, "inputs": inputs}
    (out / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, sort_keys=True),
                                encoding="utf-8")
    return SiteResult(out / "index.html", tuple(written), drawn, len(hashes) - len(written))
