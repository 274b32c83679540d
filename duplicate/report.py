"""The HTML event report: standings, matches board by board, and each board's two rooms.

Static files, ready to publish: ``index.html`` (standings and every match), one page per
match (board by board with the swing) and one per compared board (the four hands drawn
as cards around a table, the rooms side by side, the plays trick by trick with the first
divergence marked, and a few lines of inline JavaScript to step through the plays), plus
one CSS file. No JavaScript framework and nothing fetched from elsewhere.

Input is plain data (the data classes below and ``duplicate.compare.BoardComparison``), so
that whoever holds the results, a ``.gdn`` file or the event database, can draw them.
Every text from outside (names, tags, positions) goes through :func:`html.escape`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from duplicate.compare import (
    BoardComparison,
    Divergence,
    Move,
    RoomSummary,
    SeatSummary,
    Trick,
    describe_combo,
)
from duplicate.errors import DuplicateError
from duplicate.standings import StandingRow
from engine.cards import (
    KIND_HR,
    KIND_SB,
    KIND_TOKENS,
    Cards,
    Kind,
    iter_kinds,
    rank_name,
    sort_key,
    wild_kind,
)
from engine.seat import Seat


class ReportError(DuplicateError):
    """Report data that cannot be drawn (duplicate page names, an unusable output folder)."""


# --- plain input data ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a match: the two rooms' N–S results and team X's swing.

    ``status`` is ``played`` or the reason a board was not (``unfinished``, ...); such a
    board is shown with its status, never dropped. ``comparison``, when given, gets a page
    of its own that the line links to.
    """

    board: str
    level: int
    leader: Seat
    open_ns: int | None
    closed_ns: int | None
    swing: int | None
    status: str = "played"
    comparison: BoardComparison | None = None


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match of team X against team Y, board by board (X: N–S open, E–W closed)."""

    key: str  # unique within the event; names the match's page
    round: str  # "" when not known
    team_x: str
    team_y: str
    boards: tuple[BoardLine, ...]
    margin: int  # X's margin: the sum of its swings
    points_x: float | None = None  # match points after the event's scale, when scored
    points_y: float | None = None
    open_players: tuple[str, str, str, str] = ("", "", "", "")  # N E S W
    closed_players: tuple[str, str, str, str] = ("", "", "", "")
    #: "" for a complete match; else what is missing ("not played yet", "3 of 8 boards in"),
    #: shown instead of match points (a match still being played has none yet)
    state: str = ""


@dataclass(frozen=True, slots=True)
class EventReport:
    """All an event's report shows: its name, the standings and its matches."""

    name: str
    standings: tuple[StandingRow, ...]
    matches: tuple[MatchSummary, ...]
    notes: tuple[str, ...] = field(default=())  # lines shown under the title (scale, date)


# --- cards -------------------------------------------------------------------------------

SUIT_GLYPHS = "♠♥♣♦"
_RED_SUITS = (1, 3)  # hearts, diamonds
_RANK_LABELS = tuple("23456789") + ("10", "J", "Q", "K", "A")


def card_html(kind: Kind, level: int) -> str:
    """One card as a coloured glyph: rank and suit sign, hearts and diamonds in red.

    The jokers are drawn as 小王 (black) and 大王 (red); a wild heart (逢人配, RULES.md §2)
    is marked so that a reader sees it at once.
    """
    if kind == KIND_SB:
        return '<span class="card joker" title="SB small joker">小王</span>'
    if kind == KIND_HR:
        return '<span class="card joker red" title="HR big joker">大王</span>'
    rank, suit = kind >> 2, kind & 3
    classes = ["card"]
    if suit in _RED_SUITS:
        classes.append("red")
    title = KIND_TOKENS[kind]
    if kind == wild_kind(level):
        classes.append("wild")
        title += " wild (逢人配)"
    return (
        f'<span class="{" ".join(classes)}" title="{title}">'
        f"{_RANK_LABELS[rank]}{SUIT_GLYPHS[suit]}</span>"
    )


def cards_html(cards: Cards, level: int) -> str:
    """Cards as glyphs, sorted in level order (RULES.md §2), low to high."""
    kinds = sorted(iter_kinds(cards), key=lambda k: sort_key(k, level))
    if not kinds:
        return '<span class="none">—</span>'
    return '<span class="cards">' + "".join(card_html(k, level) for k in kinds) + "</span>"


def _signed(value: int | None) -> str:
    if value is None:
        return "—"
    return f"{value:+d}" if value else "0"


def _page(title: str, body: str, css: str) -> str:
    """A whole HTML5 page around ``body`` (already escaped), linking the report's CSS."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{escape(css)}">\n'
        f"</head>\n<body>\n{body}</body>\n</html>\n"
    )


# --- a board: the rooms side by side -----------------------------------------------------


def _hands_table(hands: Sequence[Cards], level: int, centre: str) -> str:
    """The four hands around a table: N above, W left, E right, S below."""

    def hand(seat: Seat) -> str:
        return (
            f'<div class="hand seat-{seat.name}"><span class="seatname">{seat.name}</span> '
            f"{cards_html(hands[seat], level)}</div>"
        )

    return (
        '<div class="table">'
        + hand(Seat.N)
        + hand(Seat.W)
        + f'<div class="centre">{centre}</div>'
        + hand(Seat.E)
        + hand(Seat.S)
        + "</div>\n"
    )


def _step_html(step: Move, level: int, divergence: int | None) -> str:
    """One action as a list item carrying its index, for the stepping script."""
    classes = ["step"]
    if step.index == divergence:
        classes.append("diverge")
    if step.combo is None:
        classes.append("pass")
        what = '<span class="password">pass</span>'
    else:
        what = (
            f'<span class="combo">{escape(step.combo.describe())}</span> '
            f"{cards_html(step.combo.cards, level)}"
        )
        if step.cards_left <= 10:
            what += f' <span class="left">({step.cards_left} left)</span>'
    return (
        f'<li class="{" ".join(classes)}" data-i="{step.index}">'
        f'<span class="seatname">{step.seat.name}</span> {what}</li>'
    )


def _trick_cell(trick: Trick | None, level: int, divergence: int | None) -> str:
    if trick is None:
        return '<td class="empty">—</td>'
    note = " 接风" if trick.jiefeng else ""
    steps = "".join(_step_html(s, level, divergence) for s in trick.steps)
    return (
        f'<td><div class="trickhead">led by {trick.leader.name}, won by '
        f"{trick.winner.name}{note}</div><ol>{steps}</ol></td>"
    )


def _alignment_table(comp: BoardComparison) -> str:
    div = comp.divergence.index if comp.divergence is not None else None
    head = "".join(f"<th>{escape(r.room)}</th>" for r in comp.rooms)
    rows = []
    for row in comp.alignment:
        cls = "same" if row.same else "differs"
        cells = "".join(_trick_cell(t, comp.level, div) for t in row.tricks)
        rows.append(f'<tr class="{cls}"><th>{row.number}</th>{cells}</tr>')
    return (
        '<table class="tricks"><thead><tr><th>trick</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>\n"
    )


_SEAT_FIGURES: tuple[tuple[str, str], ...] = (
    ("player", "player"),
    ("place", "place"),
    ("plays", "plays (手数)"),
    ("passes", "passes"),
    ("tricks_won", "tricks won"),
    ("leads", "leads"),
    ("bombs", "bombs"),
    ("straight_flushes", "straight flushes"),
    ("joker_bombs", "joker bombs"),
    ("jiefeng_given", "接风 given"),
    ("jiefeng_received", "接风 received"),
)


def _seat_cell(s: SeatSummary, name: str) -> str:
    value = getattr(s, name)
    return f"<td>{escape('—' if value is None else str(value))}</td>"


def _seats_table(comp: BoardComparison) -> str:
    """Per seat, the figures of every room side by side (DUPLICATE.md, "Comparing")."""
    lv = comp.level
    head = "".join(
        f'<th colspan="{len(comp.rooms)}">{s.name}</th>' for s in Seat
    )
    sub = "".join(f"<th>{escape(r.room)}</th>" for _ in Seat for r in comp.rooms)
    rows = []
    for name, label in _SEAT_FIGURES:
        cells = "".join(_seat_cell(r.seats[s], name) for s in Seat for r in comp.rooms)
        rows.append(f"<tr><th>{escape(label)}</th>{cells}</tr>")
    wild_cells = "".join(
        "<td>"
        + (
            "<br>".join(
                f"{card_html(w.use.kind, lv)} as {escape(w.stood_for(lv))}"
                for w in r.seats[s].wilds
            )
            or "—"
        )
        + "</td>"
        for s in Seat
        for r in comp.rooms
    )
    rows.append(f"<tr><th>wild hearts used</th>{wild_cells}</tr>")
    left_cells = "".join(
        f"<td>{cards_html(r.seats[s].cards_left, lv)}</td>" for s in Seat for r in comp.rooms
    )
    rows.append(f"<tr><th>cards left</th>{left_cells}</tr>")
    return (
        f'<table class="seats"><thead><tr><th></th>{head}</tr>'
        f"<tr><th></th>{sub}</tr></thead><tbody>{''.join(rows)}</tbody></table>\n"
    )


def _rooms_table(comp: BoardComparison) -> str:
    rows = []
    for r in comp.rooms:
        players = ", ".join(f"{s.name} {p}" for s, p in zip(Seat, r.players, strict=True))
        finish = " ".join(s.name for s in r.finish) or "—"
        rows.append(
            f"<tr><th>{escape(r.room)}</th><td>{escape(players)}</td><td>{finish}</td>"
            f"<td>{_signed(r.result_ns)}</td><td>{len(r.moves)}</td></tr>"
        )
    return (
        '<table class="rooms"><thead><tr><th>room</th><th>players</th><th>finish</th>'
        "<th>N–S result</th><th>actions</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>\n"
    )


def _divergence_html(div: Divergence | None, rooms: Sequence[RoomSummary], level: int) -> str:
    if div is None:
        return '<p class="nodiverge">The rooms made exactly the same plays.</p>\n'
    to_beat = (
        "none: the seat to act leads"
        if div.to_beat is None
        else f"{escape(describe_combo(div.to_beat, level))}"
        + (f" by {div.to_beat_by.name}" if div.to_beat_by is not None else "")
    )
    did = "".join(
        f"<li><b>{escape(r.room)}</b>: "
        + ("the deal had ended" if s is None else escape(s.text(level)))
        + "</li>"
        for r, s in zip(rooms, div.moves, strict=True)
    )
    centre = f"{div.turn.name} to act<br>to beat: {to_beat}"
    return (
        f'<div class="divergence"><h2>First divergence: action {div.index + 1}</h2>'
        f"{_hands_table(div.hands, level, centre)}"
        f'<ul class="did">{did}</ul>'
        f'<p class="position"><code>{escape(div.position)}</code></p></div>\n'
    )


_STEP_SCRIPT = """<script>
(function () {
  var items = document.querySelectorAll("[data-i]");
  var last = -1;
  items.forEach(function (e) { last = Math.max(last, +e.dataset.i); });
  var cur = last;
  var label = document.getElementById("stepno");
  function show() {
    items.forEach(function (e) {
      var i = +e.dataset.i;
      e.classList.toggle("hidden", i > cur);
      e.classList.toggle("current", i === cur);
    });
    label.textContent = (cur + 1) + " / " + (last + 1);
  }
  function go(to) { cur = Math.max(-1, Math.min(last, to)); show(); }
  document.getElementById("first").onclick = function () { go(-1); };
  document.getElementById("prev").onclick = function () { go(cur - 1); };
  document.getElementById("next").onclick = function () { go(cur + 1); };
  document.getElementById("all").onclick = function () { go(last); };
  show();
})();
</script>
"""


def render_board(
    comparison: BoardComparison,
    *,
    title: str | None = None,
    back: tuple[str, str] | None = None,
    css: str = "report.css",
) -> str:
    """One board's page: hands, rooms, swing, per-seat figures, divergence, tricks.

    ``back`` is an optional (link, label) to the page above (the match). The plays are
    shown trick by trick with the rooms side by side; the buttons step through them by
    action index, in all rooms at once.
    """
    comp = comparison
    lv = comp.level
    name = title or f"Board {comp.board or '?'}"
    centre = f"level {rank_name(lv)}<br>{comp.leader.name} leads"
    swing = (
        f'<p class="swing">Swing to the first room\'s N–S team: <b>{_signed(comp.swing)}</b></p>\n'
        if comp.swing is not None
        else ""
    )
    body = [
        f'<p class="back"><a href="{escape(back[0])}">{escape(back[1])}</a></p>\n' if back else "",
        f"<h1>{escape(name)}</h1>\n",
        _hands_table(comp.hands, lv, centre),
        _rooms_table(comp),
        swing,
        "<h2>Seat by seat</h2>\n",
        _seats_table(comp),
        _divergence_html(comp.divergence, comp.rooms, lv),
        "<h2>Trick by trick</h2>\n",
        '<p class="stepper"><button id="first">start</button> <button id="prev">◀ back</button> '
        '<span id="stepno"></span> <button id="next">next ▶</button> '
        '<button id="all">all</button></p>\n',
        _alignment_table(comp),
        _STEP_SCRIPT,
    ]
    return _page(name, "".join(body), css)


# --- a match and the event ----------------------------------------------------------------


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


def render_match(match: MatchSummary, *, back: tuple[str, str] | None = None, css: str = "report.css") -> str:
    """A match's page: both rooms' seating and every board with results and swing."""
    title = f"{match.team_x} v {match.team_y}"
    if match.round:
        title = f"Round {match.round}: {title}"
    rows = []
    for line in match.boards:
        board = escape(line.board)
        if line.comparison is not None:
            board = f'<a href="{escape(board_page(match, line))}">{board}</a>'
        status = "" if line.status == "played" else escape(line.status)
        rows.append(
            f"<tr><td>{board}</td><td>{rank_name(line.level)}</td><td>{line.leader.name}</td>"
            f"<td>{_signed(line.open_ns)}</td><td>{_signed(line.closed_ns)}</td>"
            f"<td>{_signed(line.swing)}</td><td>{status}</td></tr>"
        )

    def seating(room: str, players: Sequence[str]) -> str:
        names = ", ".join(f"{s.name} {p}" for s, p in zip(Seat, players, strict=True))
        return f"<li><b>{room}</b>: {escape(names)}</li>"

    body = (
        (f'<p class="back"><a href="{escape(back[0])}">{escape(back[1])}</a></p>\n' if back else "")
        + f"<h1>{escape(title)}</h1>\n"
        + f'<ul class="seating">{seating("Open", match.open_players)}'
        + f"{seating('Closed', match.closed_players)}</ul>\n"
        + '<table class="boards"><thead><tr><th>board</th><th>level</th><th>leader</th>'
        + "<th>open N–S</th><th>closed N–S</th>"
        + f"<th>swing to {escape(match.team_x)}</th><th></th></tr></thead>"
        + f"<tbody>{''.join(rows)}</tbody>"
        + f'<tfoot><tr><th colspan="5">margin</th><td>{_signed(match.margin)}</td><td></td></tr>'
        + "</tfoot></table>\n"
        + (
            f'<p class="points">Match points: {escape(match.team_x)} {match.points_x:g}, '
            f"{escape(match.team_y)} {match.points_y:g}</p>\n"
            if match.points_x is not None and match.points_y is not None
            else ""
        )
        + (f'<p class="state">{escape(match.state)}</p>\n' if match.state else "")
    )
    return _page(title, body, css)


def _standing_of(m: MatchSummary) -> str:
    """A match's line in the event index: margin and points, or what is still missing."""
    if m.state and not any(b.status != "not in yet" for b in m.boards):
        return escape(m.state)
    if m.state:
        return f"{_signed(m.margin)} so far ({escape(m.state)})"
    return f"{_signed(m.margin)}{_points(m)}"


def _points(m: MatchSummary) -> str:
    if m.points_x is None or m.points_y is None:
        return ""
    return f" ({m.points_x:g}–{m.points_y:g})"


def render_event(event: EventReport, *, css: str = "report.css") -> str:
    """The event's index page: standings, then every match by round, linking their pages."""
    notes = "".join(f"<p class=\"note\">{escape(n)}</p>\n" for n in event.notes)
    st_rows = "".join(
        f"<tr><td>{r.rank}</td><td>{escape(str(r.team))}</td><td>{r.played}</td>"
        f"<td>{r.points:g}</td><td>{r.progressive:g}</td><td>{r.rounds_won}</td>"
        f"<td>{_signed(r.swing)}</td><td>{r.levels}</td>"
        f"<td>{escape(r.decided_by or '')}</td></tr>"
        for r in event.standings
    )
    standings = (
        "<h2>Standings</h2>\n"
        '<table class="standings"><thead><tr><th>#</th><th>team</th><th>played</th>'
        "<th>match points</th><th>累进分</th><th>rounds won</th><th>级差分 (swing)</th>"
        "<th>levels</th><th>placed by</th></tr></thead>"
        f"<tbody>{st_rows}</tbody></table>\n"
    )
    rounds: dict[str, list[MatchSummary]] = {}
    for m in event.matches:
        rounds.setdefault(m.round, []).append(m)
    parts = []
    for rnd, matches in rounds.items():
        items = "".join(
            f'<li><a href="{escape(match_page(m))}">{escape(m.team_x)} v {escape(m.team_y)}</a>'
            f" {_standing_of(m)}</li>"
            for m in matches
        )
        head = f"<h3>Round {escape(rnd)}</h3>" if rnd else ""
        parts.append(f'{head}<ul class="matches">{items}</ul>\n')
    if not event.standings:
        standings = ""
    body = (
        f"<h1>{escape(event.name)}</h1>\n{notes}{standings}"
        f"<h2>Matches</h2>\n{''.join(parts)}"
    )
    return _page(event.name, body, css)


CSS = """body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
thead th { background: #f0f0f0; }
.card { display: inline-block; min-width: 1.7em; padding: 0.1em 0.15em; margin: 0.05em;
  border: 1px solid #999; border-radius: 0.25em; background: #fff; text-align: center;
  font-weight: 600; color: #111; }
.card.red { color: #c00; }
.card.wild { background: #fff3b0; border-color: #c90; }
.card.joker { font-size: 0.85em; }
.table { display: grid; grid-template-columns: 1fr 11em 1fr; grid-template-areas:
  "n n n" "w c e" "s s s"; gap: 0.6em; max-width: 72em; margin: 1em 0; }
.seat-N { grid-area: n; text-align: center; } .seat-S { grid-area: s; text-align: center; }
.seat-W { grid-area: w; } .seat-E { grid-area: e; } .centre { grid-area: c; align-self: center; text-align: center;
  border: 2px solid #2a7; border-radius: 0.5em; padding: 1em; background: #e8f6ee; }
.seatname { font-weight: 700; margin-right: 0.3em; }
.swing b { font-size: 1.3em; }
.divergence { border-left: 4px solid #d60; padding-left: 1em; }
tr.differs > th { background: #fde6d8; }
li.step { list-style: none; margin: 0.1em 0; }
li.step.pass { color: #888; }
li.step.diverge { outline: 2px solid #d60; }
li.step.current { background: #dff; }
li.step.hidden { visibility: hidden; }
.tricks ol { margin: 0; padding: 0; }
.trickhead { font-size: 0.85em; color: #555; }
.left { font-size: 0.8em; color: #a00; }
.stepper button { font-size: 1.1em; }
@media print { .stepper { display: none; } li.step.hidden { visibility: visible; } }
"""


def write_report(
    outdir: str | Path, event: EventReport, *, css_name: str = "report.css"
) -> list[Path]:
    """Write the event's static report into ``outdir``; return the files written.

    ``index.html`` (standings and matches), one page per match, one page per board that
    carries a comparison, and the CSS file. The folder is created when missing.
    """
    out = Path(outdir)
    if out.exists() and not out.is_dir():
        raise ReportError(f"report folder {str(out)!r} exists and is not a folder")
    pages: dict[str, str] = {"index.html": render_event(event, css=css_name)}
    for m in event.matches:
        name = match_page(m)
        if name in pages:
            raise ReportError(f"two matches with the same page name {name!r}: keys must differ")
        pages[name] = render_match(m, back=("index.html", event.name), css=css_name)
        for line in m.boards:
            if line.comparison is None:
                continue
            bname = board_page(m, line)
            if bname in pages:
                raise ReportError(
                    f"match {m.key!r}: two boards with the same page name {bname!r}"
                )
            pages[bname] = render_board(
                line.comparison,
                title=f"Board {line.board}: {m.team_x} v {m.team_y}"
                + (f", round {m.round}" if m.round else ""),
                back=(name, f"{m.team_x} v {m.team_y}"),
                css=css_name,
            )
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in [(css_name, CSS), *pages.items()]:
        path = out / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def boards_of(comparisons: Iterable[BoardComparison]) -> tuple[BoardLine, ...]:
    """Board lines of a match from the comparisons of its boards (rooms: open, closed)."""
    lines = []
    for c in comparisons:
        open_ns = c.rooms[0].result_ns if c.rooms else None
        closed_ns = c.rooms[1].result_ns if len(c.rooms) > 1 else None
        status = "played" if open_ns is not None and closed_ns is not None else "unfinished"
        lines.append(
            BoardLine(c.board or "?", c.level, c.leader, open_ns, closed_ns, c.swing, status, c)
        )
    return tuple(lines)


def match_report(comparisons: Sequence[BoardComparison], title: str | None = None) -> EventReport:
    """An event report of one match from its boards' comparisons (``guandan compare --html``).

    The first room of each comparison is taken as the open room: team X is its N–S pair
    (and the closed room's E–W pair), team Y the other two. Without an event database there
    are no standings and no match points; the margin is the sum of the swings.
    """
    if not comparisons:
        raise ReportError("no compared board to report")
    first = comparisons[0]
    lines = boards_of(comparisons)
    margin = sum(line.swing or 0 for line in lines)
    open_players = first.rooms[0].players
    closed_players = first.rooms[1].players
    name = title or first.event or "Match"
    match = MatchSummary(
        key=slug(f"{first.round or 'match'}"),
        round=first.round or "",
        team_x=f"X ({first.rooms[0].room} N–S)",
        team_y=f"Y ({first.rooms[0].room} E–W)",
        boards=lines,
        margin=margin,
        open_players=open_players,
        closed_players=closed_players,
    )
    return EventReport(name, (), (match,))
