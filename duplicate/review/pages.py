"""Every page of an event's report, as (file name, HTML) from :class:`EventReport`.

Pages: ``index.html`` (standings, matches by round, rulings), ``crosstable.html``,
``players.html`` (per-player statistics), one ``team-N.html`` a team, one
``match-….html`` a match and one ``board-….html`` a board that may be shown
(:func:`duplicate.review.visibility.board_visible`). Board pages are the costly ones
(a replay of both rooms each); :func:`board_pages` takes a cache so that an unchanged
board is not drawn again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from duplicate.analysis.estimate import Budget
from duplicate.compare import BoardComparison
from duplicate.errors import DuplicateError
from duplicate.i18n import game as vocab
from duplicate.i18n import normalise_language, translator
from duplicate.i18n.stored import who_said
from duplicate.review.analysis import (
    FIGURES,
    divergence_choices,
    graph_svg,
    mark_text,
    options_view,
    step_marks,
    step_text,
)
from duplicate.review.mistakes import accuracy, board_mistakes
from duplicate.review.model import BoardLine, ByeLine, EventReport, MatchSummary, Ruling
from duplicate.review.movie import movie_data, movie_json
from duplicate.review.render import render, status_text
from duplicate.review.stats import PlayerStats
from duplicate.zones import when_text
from engine.ruleset import COMPETITION, Ruleset
from engine.seat import Seat


class ReportError(DuplicateError):
    """Report data that cannot be drawn (duplicate page names, an unusable output folder)."""


#: The standings' criteria (``StandingRow.decided_by``) the catalogue names.
DECIDED = ("points", "progressive", "rounds_won", "swing", "levels", "opponents_points", "draw")


def slug(text: str) -> str:
    """A file-name-safe form of ``text`` (letters, digits, ``-`` and ``_`` only)."""
    s = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")
    return s or "x"


def match_page(match: MatchSummary) -> str:
    """The file name of a match's page."""
    return f"match-{slug(match.key)}.html"


def board_page(match: MatchSummary, line: BoardLine) -> str:
    """The file name of a board's page inside a match."""
    return f"board-{slug(match.key)}-{slug(line.board)}.html"


def has_page(line: BoardLine) -> bool:
    """True when a board line gets a page: it may be shown and both rooms are there."""
    return line.visible and (
        line.comparison is not None or (len(line.records) == 2 and all(line.records))
    )


def team_ids(event: EventReport) -> dict[str, int]:
    """Team name -> number of its page (``team-N.html``): the team's number in the event
    (its entry, unchanged by the standings, a ruling or a rename), so that a shared link
    keeps opening the same team; for a report without numbers (compared records), in order
    of first appearance in the matches."""
    ids = dict(event.team_numbers)
    last = max(ids.values(), default=0)
    for name in [n for m in event.matches for n in (m.team_x, m.team_y)] + [
        str(r.team) for r in event.standings
    ]:
        if name not in ids:
            last += 1
            ids[name] = last
    return ids


def team_order(event: EventReport) -> list[str]:
    """The teams in standings order, then those without a standing."""
    return list(dict.fromkeys([str(r.team) for r in event.standings]
                              + [n for m in event.matches for n in (m.team_x, m.team_y)]))


def language_switch(prefix: str | None, page: str, lang: str) -> dict[str, str] | None:
    """The link from a page to the same page in the report's other language (``prefix``:
    where that language's folder is from this one, ``en/`` or ``../``); ``None``: none."""
    if prefix is None:
        return None
    other = "zh" if normalise_language(lang) == "en" else "en"
    return {"href": prefix + page, "lang": other, "tag": "zh-CN" if other == "zh" else "en",
            "name": str(translator(other)("lang.name"))}


@dataclass(frozen=True, slots=True)
class Nav:
    """A breadcrumb: (link, label) pairs above the page's title."""

    links: tuple[tuple[str, str], ...]


def ruling_note(r: Ruling, lang: str, zone: str = "UTC") -> str:
    """``Ruling by Zhou (revoke): counts 南北升1级; record 南北升3级``; a ruling that
    decides the board without a result: ``Ruling by director (arrived 7 minutes late):
    Tigers concedes this board, the opponents +3``."""
    t = translator(lang)
    if r.effect:
        text = t("report.ruling.decided", by=who_said(r.by, lang), reason=r.reason,
                 decision=t(f"report.decided.{r.effect}", team=r.team))
    else:
        text = t("report.ruling.line", result=vocab.result_text(r.counted, lang),
                 by=who_said(r.by, lang), reason=r.reason)
    if r.at:
        text += " · " + when_text(r.at, zone, lang)
    if r.recorded is not None:
        text += t("list.clause_sep") + t("report.ruling.record", result=vocab.result_text(r.recorded, lang))
    return text


def correction_note(c: Ruling, lang: str, zone: str = "UTC") -> str:
    """``Corrected by Zhou, 1 Dec 2026 16:51 (UTC+8) (mistyped play 41): N–S up 1 → N–S up
    3`` (the time in the event's ``zone``)."""
    t = translator(lang)
    return str(t("report.correction.line", by=c.by, when=when_text(c.at, zone, lang), reason=c.reason,
                 before=vocab.result_text(c.recorded, lang) if c.recorded is not None
                 else t("report.correction.none"),
                 after=vocab.result_text(c.counted, lang) if c.counted is not None
                 else t("report.correction.none")))


def result_cell(line: BoardLine, room: str, lang: str, zone: str = "UTC") -> dict[str, Any]:
    """A room's result as shown: the one that counts, a ruling note when ruled, and every
    correction of the room (who, when, why, before and after)."""
    value = line.open_ns if room == "open" else line.closed_ns
    ruled = next((r for r in line.rulings if r.room == room), None)
    text = "—" if value is None and line.status != "played" else vocab.result_text(value, lang)
    order = line.finishes[0 if room == "open" else 1]
    finish = "" if not order else translator(lang)("list.sep").join(
        translator(lang)("finish.place", place=vocab.place_name(i, lang),
                         seat=translator(lang)(f"seat.{s}"))
        for i, s in enumerate(order.split(), start=1)
    )
    return {"text": text, "signed": "" if value is None else f"{value:+d}",
            "ruling": ruling_note(ruled, lang, zone) if ruled is not None else "",
            "finish": finish, "order": order or "",
            "corrections": [correction_note(c, lang, zone) for c in line.corrections
                            if c.room == room]}


def render_board(
    comp: BoardComparison,
    *,
    lang: str = "en",
    title: str | None = None,
    nav: Sequence[tuple[str, str]] = (),
    line: BoardLine | None = None,
    team_x: str | None = None,
    rules: Ruleset = COMPETITION,
    static: str = "",
    analysis: Sequence[Mapping[str, Any]] | None = None,
    budget: Budget | None = None,
    zone: str = "UTC",
    switch: Mapping[str, str] | None = None,
    neighbours: Sequence[tuple[str, str] | None] = (None, None),
    options: Mapping[str, Any] | None = None,
) -> str:
    """One board's page: header (level, leader, results that count, rulings, swing) and
    the movie of its rooms (``static/movie.js``); with ``analysis`` (each room's annotation,
    :mod:`duplicate.review.analysis`, made with ``budget``) the value of each step and the
    marks in the movie, each room's choice at the divergence and a graph of each room;
    with ``options`` (:func:`duplicate.review.analysis.analyse_options`) the value of every
    action the seat had at the divergence.
    Times (rulings, corrections) are shown in the event's ``zone``; ``switch``: the link
    to the page in the other language (:func:`language_switch`); ``neighbours``: the
    previous and the next board's (link, board) in the match, or ``None``."""
    t = translator(lang)
    rulings = line.rulings if line is not None else ()
    rooms = []
    for i, r in enumerate(comp.rooms):
        key = r.room.lower()
        if line is not None and key in ("open", "closed"):
            cell = result_cell(line, key, lang, zone)
        else:
            cell = {"text": vocab.result_text(r.result_ns, lang), "signed": "", "ruling": "",
                    "corrections": []}
        rooms.append({"label": t("report.room." + key) if key in ("open", "closed") else r.room,
                      "players": list(zip([vocab.seat_name(s, lang) for s in Seat], r.players,
                                          strict=True)),
                      "result": cell, "first": i == 0})
    swing = line.swing if line is not None else comp.swing
    data = movie_data(comp, lang, rules, rulings)
    shown = None
    if analysis is not None:
        shown = _analysis_view(comp, analysis, budget, rooms, lang)
        shown["players"] = mistakes_view(comp, analysis, lang)
        shown["options"] = options_view(comp, (options or {}).get("options", ()), lang)
        shown["options_count"] = int((options or {}).get("count", 0))
        for room, ann in zip(data["rooms"], analysis, strict=True):
            room["anl"] = step_marks(ann, comp.level, lang, room["players"]) if ann else []
        if data["divergence"] is not None:  # each room's choice valued, in the room's order
            data["divergence"]["values"] = [c["value"] for c in shown["choices"]]
        data["words"].update({k: t("report.analysis." + k) for k in _ANALYSIS_WORDS})
    return render(
        "board.html", lang, static,
        title=title or t("report.board.title", board=comp.board or "?"),
        nav=list(nav), level=vocab.level_text(comp.level, lang),
        leader=vocab.seat_name(comp.leader, lang), rooms=rooms, swing=swing,
        swing_to=team_x or t("report.board.first_ns", room=rooms[0]["label"]),
        movie=movie_json(data), analysis=shown, lang_switch=switch,
        neighbours=list(neighbours),
    )


def movie_and_analysis(
    comp: BoardComparison, lang: str, rules: Ruleset, rulings: Sequence[Ruling] = (),
    analysis: Sequence[Mapping[str, Any]] | None = None, budget: Budget | None = None,
) -> tuple[str, dict[str, Any] | None]:
    """A board's movie (its JSON for ``movie.js``) and, with ``analysis`` (each room's
    annotation), what the board page's analysis section shows (``analysis_section.html``)
    and the movie's marks, as :func:`render_board` makes them: the hall's live page of a
    captured board."""
    t = translator(lang)
    rooms = [{"label": t("report.room." + r.room.lower())
              if r.room.lower() in ("open", "closed") else r.room} for r in comp.rooms]
    data = movie_data(comp, lang, rules, rulings)
    shown = None
    if analysis is not None:
        shown = _analysis_view(comp, analysis, budget, rooms, lang)
        shown["players"] = mistakes_view(comp, analysis, lang)
        shown["options"], shown["options_count"] = [], 0
        for room, ann in zip(data["rooms"], analysis, strict=True):
            room["anl"] = step_marks(ann, comp.level, lang, room["players"]) if ann else []
        if data["divergence"] is not None:  # each room's choice valued, in the room's order
            data["divergence"]["values"] = [c["value"] for c in shown["choices"]]
        data["words"].update({k: t("report.analysis." + k) for k in _ANALYSIS_WORDS})
    return movie_json(data), shown


def accuracy_text(fig: Mapping[str, Any], lang: str) -> str:
    """``准确率 96%（25次有选择）`` / ``accuracy 96% (25 decisions with a choice)``, or a
    dash without any."""
    acc = accuracy(fig)
    if acc is None:
        return "—"
    return str(translator(lang)("report.analysis.accuracy", pct=f"{acc:.0f}",
                                n=int(fig["choices"])))


def mistake_line(m: Mapping[str, Any], lang: str, player: str = "") -> str:
    """A marked decision as a list shows it: its step, then :func:`mark_text`."""
    d = m["decision"]
    return f"{step_text(int(d['ply']), lang)} {mark_text(d, int(m['level']), lang, player)}"


def mistakes_view(comp: BoardComparison, analysis: Sequence[Mapping[str, Any]],
                  lang: str) -> list[dict[str, Any]]:
    """Each player of the board (room by room, seat by seat): the room and seat, the
    accuracy on the board and the marked decisions, each linking to its step in the
    movie (``#open=90``: after the action)."""
    t = translator(lang)
    figs = board_mistakes(comp, analysis, "")
    out = []
    for room in comp.rooms:
        key = room.room.lower()
        label = t("report.room." + key) if key in ("open", "closed") else room.room
        for seat in Seat:
            name = room.players[seat]
            fig = figs.get(name)
            if not name or fig is None:
                continue
            marked = [m for m in fig["marked"] if m["room"] == key
                      and m["decision"]["seat"] == seat.name]
            out.append({"player": name, "where": t("report.analysis.where", room=label,
                                                    seat=vocab.seat_name(seat, lang)),
                        "accuracy": accuracy_text(fig, lang) if len(
                            [r for r in comp.rooms if name in r.players]) == 1 else "",
                        "marked": [{"href": f"#{key}={int(m['decision']['ply']) + 1}",
                                    "text": mistake_line(m, lang, name)} for m in marked]})
    return out


#: The movie's words for the analysis (``report.analysis.*``).
_ANALYSIS_WORDS = ("value", "best", "line", "from_to")


def _analysis_view(comp: BoardComparison, analysis: Sequence[Mapping[str, Any]],
                   budget: Budget | None, rooms: Sequence[Mapping[str, Any]],
                   lang: str) -> dict[str, Any]:
    """What the board page's analysis section shows."""
    t = translator(lang)
    pars = []
    for room, ann in zip(rooms, analysis, strict=True):
        par = ann.get("par") if ann else None
        pars.append({"room": room["label"],
                     "par": t("report.analysis.par", ply=int(par["from_ply"]) + 1,
                              value=t("report.analysis.ns", value=f"{int(par['value']):+d}"))
                     if par
                     else t("report.analysis.no_par")})
    return {
        "choices": divergence_choices(comp, analysis, lang),
        "step": comp.divergence.index + 1 if comp.divergence is not None else None,
        "graphs": [graph_svg(ann, lang, str(room["label"])) for room, ann
                   in zip(rooms, analysis, strict=True) if ann],
        "pars": pars,
        "budget": "" if budget is None else t(
            "report.analysis.budget_cards", cards=budget.cards, playouts=budget.playouts,
            seed=budget.seed) if budget.cards is not None else t(
            "report.analysis.budget", nodes=f"{budget.nodes:,}", playouts=budget.playouts,
            seed=budget.seed),
    }


def render_match(match: MatchSummary, *, lang: str = "en", nav: Sequence[tuple[str, str]] = (),
                 team_links: dict[str, str] | None = None, static: str = "",
                 zone: str = "UTC", switch: str | None = None) -> str:
    """A match's page: both rooms' seating and every board with results and swing (times
    in the event's ``zone``)."""
    rows = []
    for line in match.boards:
        rows.append({
            "board": line.board,
            "link": board_page(match, line) if has_page(line) else "",
            "level": vocab.level_text(line.level, lang),
            "leader": vocab.seat_name(line.leader, lang),
            "open": result_cell(line, "open", lang, zone),
            "closed": result_cell(line, "closed", lang, zone),
            "swing": line.swing,
            "status": "" if line.status == "played" else status_text(line.status, lang),
            "decided": [ruling_note(r, lang, zone) for r in line.rulings if r.effect],
        })
    seats = [vocab.seat_name(s, lang) for s in Seat]
    return render(
        "match.html", lang, static, match=match, rows=rows, nav=list(nav),
        team_links=team_links or {},
        open_seating=list(zip(seats, match.open_players, strict=True)),
        closed_seating=list(zip(seats, match.closed_players, strict=True)),
        lang_switch=language_switch(switch, match_page(match), lang),
    )


def render_event(event: EventReport, *, lang: str = "en", static: str = "",
                 switch: str | None = None) -> str:
    """The event's index page: standings, matches by round, rulings."""
    ids = team_ids(event)
    rounds: dict[str, list[MatchSummary]] = {}
    for m in event.matches:
        rounds.setdefault(m.round, []).append(m)
    rulings = [
        (m, line, r, ruling_note(r, lang, event.time_zone)) for m in event.matches for line in m.boards
        for r in line.rulings
    ] + [
        (m, line, c, correction_note(c, lang, event.time_zone)) for m in event.matches for line in m.boards
        for c in line.corrections
    ]
    rulings.sort(key=lambda x: x[2].at or "")
    byes: dict[str, list[ByeLine]] = {}
    for b in event.byes:
        rounds.setdefault(b.round, [])
        byes.setdefault(b.round, []).append(b)
    return render(
        "event.html", lang, static, event=event, rounds=rounds, team_ids=ids, byes=byes,
        decided_keys=DECIDED, lang_switch=language_switch(switch, "index.html", lang),
        match_page=match_page, rulings=[
            {"match": m, "board": line.board, "room": r.room, "note": note,
             "place": _ruling_place(m, line.board, r, lang)}
            for m, line, r, note in rulings
        ],
    )


def _ruling_place(m: MatchSummary, board: str, r: Ruling, lang: str) -> str:
    """Where a ruling or correction is: the round, the match, the board and the room; a
    board conceded has no room, a match forfeited no board."""
    t = translator(lang)
    if r.effect == "forfeit":
        return str(t("report.ruling.place_match", round=m.round, x=m.team_x, y=m.team_y))
    if not r.room:
        return str(t("report.ruling.place_board", round=m.round, x=m.team_x, y=m.team_y,
                     board=board))
    return str(t("report.ruling.place", round=m.round, x=m.team_x, y=m.team_y, board=board,
                 room=t("hall.room." + r.room)))


def render_crosstable(event: EventReport, *, lang: str = "en", static: str = "",
                      switch: str | None = None) -> str:
    """Every team (numbered as its page) by round: its opponent's number, its margin and
    its match points in that round's match, linking the match; a bye and its points."""
    ids = team_ids(event)
    rounds = sorted(dict.fromkeys([m.round for m in event.matches] + [b.round for b in event.byes]),
                    key=_round_order)
    cells: dict[tuple[str, str], list[dict[str, object]]] = {}
    for m in event.matches:
        for me, them, sign, pts in ((m.team_x, m.team_y, 1, m.points_x),
                                    (m.team_y, m.team_x, -1, m.points_y)):
            cells.setdefault((me, m.round), []).append(
                {"opponent": them, "margin": sign * m.margin, "points": pts,
                 "page": match_page(m)})
    for b in event.byes:
        cells.setdefault((b.team, b.round), []).append({"bye": True, "points": b.points})
    return render("crosstable.html", lang, static, event=event, names=team_order(event), ids=ids,
                  rounds=rounds, cells=cells,
                  lang_switch=language_switch(switch, "crosstable.html", lang))


def render_team(event: EventReport, team: str, *, lang: str = "en", static: str = "",
                ids: dict[str, int] | None = None,
                analysis: Mapping[str, Sequence[int]] | None = None,
                switch: str | None = None,
                coach: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """A team's page: its players, its matches, its boards (``ids``: :func:`team_ids`);
    with ``analysis`` (player -> :data:`duplicate.review.analysis.FIGURES`), each player's
    decisions marked and levels lost."""
    mine = [m for m in event.matches if team in (m.team_x, m.team_y)]
    players: list[str] = []
    for m in mine:
        x = m.team_x == team
        for room, seats in (("open", (0, 2) if x else (1, 3)), ("closed", (1, 3) if x else (0, 2))):
            names = m.open_players if room == "open" else m.closed_players
            for s in seats:
                if names[s] and names[s] not in players:
                    players.append(names[s])
    row = next((r for r in event.standings if str(r.team) == team), None)
    figures = None
    if analysis is not None:
        figures = [(p, *analysis.get(p, [0] * len(FIGURES))) for p in players]
    # its rounds in order: each match, and each bye with its points (they add up to the
    # total its standing shows)
    rounds: list[Any] = [*mine, *({"bye": True, "round": b.round, "points": b.points}
                                  for b in event.byes if b.team == team)]
    rounds.sort(key=lambda r: _round_order(r["round"] if isinstance(r, dict) else r.round))
    ids = ids or team_ids(event)
    return render("team.html", lang, static, event=event, team=team, matches=rounds,
                  lang_switch=language_switch(switch, f"team-{ids[team]}.html", lang),
                  players=players, standing=row, ids=ids, match_page=match_page,
                  board_page=board_page, has_page=has_page, analysis=figures, coach=coach or {},
                  withdrawn=event.withdrawn.get(team))


def _round_order(rnd: str) -> tuple[int, int, str]:
    """A round's place in a list: numbered rounds in order, then any other by its text."""
    return (0, int(rnd), "") if rnd.isdigit() else (1, 0, rnd)


def render_players(event: EventReport, stats: Sequence[PlayerStats], *, lang: str = "en",
                   static: str = "", analysis: Mapping[str, Sequence[int]] | None = None,
                   switch: str | None = None,
                   coach: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """Per-player statistics over the boards that may be shown; with ``analysis`` (player
    -> :data:`duplicate.review.analysis.FIGURES`) the decisions valued, marked and the
    levels lost."""
    return render("players.html", lang, static, event=event, stats=stats, analysis=analysis,
                  coach=coach or {},
                  lang_switch=language_switch(switch, "players.html", lang))


def board_pages(event: EventReport, lang: str, rules: Ruleset,
                lines: Iterable[tuple[MatchSummary, BoardLine]],
                analyses: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
                budget: Budget | None = None, switch: str | None = None,
                choices: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, str]:
    """The pages of the given boards (each must carry a comparison and be visible), with
    the analysis of those ``analyses`` holds (by page name), each linking the previous and
    the next board of its match that has a page (and, with ``switch``, the page in the
    other language: :func:`language_switch`)."""
    pages: dict[str, str] = {}
    for m, line in lines:
        shown = [ln for ln in m.boards if has_page(ln) or ln.board == line.board]
        at = next(i for i, ln in enumerate(shown) if ln.board == line.board)
        neighbours = [(board_page(m, shown[i]), shown[i].board) if 0 <= i < len(shown) else None
                      for i in (at - 1, at + 1)]
        assert line.comparison is not None
        t = translator(lang)
        title = t("report.board.match_title", board=line.board, x=m.team_x, y=m.team_y)
        if m.round:
            title += " · " + t("report.round", round=m.round)
        name = board_page(m, line)
        pages[name] = render_board(
            line.comparison, lang=lang, title=title, line=line, team_x=m.team_x, rules=rules,
            nav=(("index.html", event.name), (match_page(m), f"{m.team_x} – {m.team_y}")),
            analysis=analyses.get(name) if analyses is not None else None, budget=budget,
            zone=event.time_zone, switch=language_switch(switch, name, lang),
            neighbours=neighbours,
            options=choices.get(name) if choices is not None else None,
        )
    return pages
