"""The HTML report (duplicate.report, duplicate.review): well-formed pages, escaping, cards,
links, the movie's data, the pages a report folder holds."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_compare import CLOSED, OPEN, record

from duplicate.compare import BoardComparison, compare_board
from duplicate.report import (
    BoardLine,
    EventReport,
    MatchSummary,
    ReportError,
    board_page,
    boards_of,
    card_html,
    cards_html,
    match_page,
    match_report,
    render_board,
    render_event,
    render_match,
    write_report,
)
from duplicate.review.movie import movie_data
from duplicate.standings import StandingRow
from engine.cards import parse_cards, parse_kind, parse_level
from engine.seat import Seat

EVIL = "<script>alert('x')</script> & Co"
L7 = parse_level("7")
VOID = {"meta", "link", "br", "hr", "img", "input", "path"}


class Page(HTMLParser):
    """Parses a page, checks that every element is closed in order, and collects what the
    tests look at: cards (class, text), steps (class, data-i), links, all text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.cards: list[tuple[str, str]] = []
        self.links: list[str] = []
        self.text: list[str] = []
        self._card: str | None = None
        self.feed(text)
        self.close()
        assert self.stack == [], f"unclosed elements: {self.stack}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag == "span" and cls.split()[:1] == ["card"]:
            self._card = cls
        if tag == "a":
            self.links.append(a["href"] or "")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert tag not in VOID
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self._card is not None:
            self.cards.append((self._card, data))
            self._card = None
        self.text.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


@pytest.fixture(scope="module")
def comp() -> BoardComparison:
    return compare_board(
        [
            record("Open", OPEN, names=(EVIL, "e", "s", "w")),
            record("Closed", CLOSED, names=("a", "b", "c", "d")),
        ]
    )


def test_cards_are_coloured_glyphs_in_level_order() -> None:
    page = Page(cards_html(parse_cards("CT ST S2 H7 D7 SB HR"), L7, "zh"))
    assert [t for _, t in page.cards] == ["2♠", "10♠", "10♣", "7♥", "7♦", "小王", "大王"]
    classes = dict((t, c) for c, t in page.cards)
    assert classes["7♥"] == "card red wild"  # the wild heart of level 7
    assert classes["7♦"] == "card red" and classes["10♣"] == "card"
    assert classes["大王"] == "card red joker" and classes["小王"] == "card joker"
    assert 'class="card red"' not in card_html(parse_kind("S9"), L7)
    en = Page(cards_html(parse_cards("SB HR"), L7, "en"))
    assert [t for _, t in en.cards] == ["BJ", "RJ"]


def test_board_page_is_well_formed_and_escaped(comp: BoardComparison) -> None:
    text = render_board(comp, title="Board 3 <open>", nav=(("match-x.html", "A & B"),))
    page = Page(text)
    assert EVIL not in text and "&lt;script&gt;" in text
    assert EVIL in page.all_text  # shown as text, not run
    assert "Board 3 <open>" in page.all_text and "<open>" not in text.replace("<open>", "", 0)
    assert "Board 3 &lt;open&gt;" in text
    assert page.links == ["match-x.html"]
    assert "Swing to the N–S pair of the Open room: -3" in page.all_text
    assert '<meta name="viewport"' in text and '<html lang="en">' in text
    zh = render_board(comp, lang="zh")
    assert '<html lang="zh-CN">' in zh and "开室" in zh


def test_board_page_holds_no_play_outside_the_movie_data(comp: BoardComparison) -> None:
    text = render_board(comp)
    outside = text.split('<script id="movie-data"')[0]
    # the hands and plays come only as JSON for the script: no card drawn in the page
    assert 'class="card' not in outside
    data = movie_data(comp)
    assert [len(r["moves"]) for r in data["rooms"]] == [len(r.moves) for r in comp.rooms]
    assert data["divergence"]["index"] == 1  # E's bomb in one room, E's pass in the other
    assert [c is None or c["f"] is None for c in data["divergence"]["choices"]] == [False, True]
    alts = data["divergence"]["alternatives"]
    assert alts["can_pass"] and alts["count"] >= 2
    # the room that played is listed first, named by its room; the room that passed is not
    assert [c["room"] for c in alts["chosen"]] == ["Open room", "Closed room"][:len(alts["chosen"])]
    assert alts["chosen"][0]["f"] is not None


def test_match_and_event_pages(comp: BoardComparison) -> None:
    lines = boards_of([comp]) + (
        BoardLine("4", L7, Seat.E, None, None, None, status="unfinished (time)"),
    )
    match = MatchSummary(
        key="r1 <x>",
        round="1",
        team_x="Tigers <X>",
        team_y="Lions & Co",
        boards=lines,
        margin=-3,
        points_x=0.0,
        points_y=2.0,
        open_players=(EVIL, "e", "s", "w"),
        closed_players=("a", "b", "c", "d"),
    )
    mtext = render_match(match, nav=(("index.html", "Cup"),))
    mpage = Page(mtext)
    assert EVIL not in mtext and "Tigers <X>" in mpage.all_text
    assert mpage.links == ["index.html", board_page(match, lines[0])]
    assert "unfinished (time)" in mpage.all_text  # shown, never dropped
    assert "Match points: Tigers <X> 0, Lions & Co 2" in mpage.all_text
    row = StandingRow(1, "Lions & Co", 2.0, 2.0, 1, 3, 2, 0.0, 1, "ab", None)
    event = EventReport("Cup <2026>", (row,), (match,), notes=("scale: wdl",))
    etext = render_event(event)
    epage = Page(etext)
    assert "Cup <2026>" in epage.all_text and "<2026>" not in etext
    assert match_page(match) in epage.links
    assert "Lions & Co" in epage.all_text and "Standings" in epage.all_text


def test_write_report_links_resolve(comp: BoardComparison, tmp_path: Path) -> None:
    event = match_report([comp])
    assert event.matches[0].margin == -3 and event.standings == ()
    written = write_report(tmp_path / "out", event)
    names = sorted(p.name for p in written)
    m = event.matches[0]
    assert names == sorted(
        ["guandan.css", "movie.js", "index.html", "crosstable.html", "players.html",
         "team-1.html", "team-2.html", match_page(m), board_page(m, m.boards[0])]
    )
    for path in written:
        if path.suffix == ".html":
            page = Page(path.read_text(encoding="utf-8"))
            for link in page.links:
                assert (path.parent / link).is_file(), f"{path.name} links to missing {link}"
            assert 'href="guandan.css"' in path.read_text(encoding="utf-8")
    # built again from the same data: nothing is rewritten
    assert write_report(tmp_path / "out", event) == []


def test_write_report_refusals(comp: BoardComparison, tmp_path: Path) -> None:
    match = match_report([comp]).matches[0]
    with pytest.raises(ReportError, match="same page name"):
        write_report(tmp_path / "a", EventReport("E", (), (match, match)))
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(ReportError, match="not a folder"):
        write_report(afile, EventReport("E", (), (match,)))
    with pytest.raises(ReportError, match="no compared board"):
        match_report([])


def test_an_unwritable_report_folder_is_one_clear_error(comp: BoardComparison,
                                                         tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(ReportError, match="cannot write the report into .*Not a directory"):
        write_report(afile / "site", match_report([comp]))


def test_a_lost_page_is_written_again(comp: BoardComparison, tmp_path: Path) -> None:
    event = match_report([comp])
    write_report(tmp_path / "s", event)
    m = event.matches[0]
    lost = tmp_path / "s" / board_page(m, m.boards[0])
    lost.unlink()
    (tmp_path / "s" / "players.html").unlink()
    again = {p.name for p in write_report(tmp_path / "s", event)}
    assert again == {lost.name, "players.html"} and lost.stat().st_size > 1000
