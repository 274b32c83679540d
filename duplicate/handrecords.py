"""Printable hand records a director can deal from: one HTML page per board set.

Each board is a block that never breaks across pages nor overflows its box, however long
a suit (a grid of shrinkable columns; ranks wrap): the four hands by suit (♠ ♥ ♣ ♦, high
to low in natural order, 10 never T), the jokers as 大王/小王 (Red/Black Joker), the wild
hearts of the board's level marked, the board number, level and first leader in the
middle, and a QR code holding the board's DealId and the set's commitment. Then per-seat
dealing slips (one a board and seat, to cut out). Drawn by ``templates/handrecords.html``
with the one stylesheet inlined, so that the page stands alone.
"""

from __future__ import annotations

from typing import Any

import segno
from markupsafe import Markup

from duplicate.boards import BoardSet
from duplicate.dealing import Board
from duplicate.errors import DuplicateError
from duplicate.i18n import Term, phrase, translator
from duplicate.i18n import game as vocab
from duplicate.review.render import render, static_text
from engine.cards import KIND_HR, KIND_SB, wild_kind
from engine.seat import Seat

#: Suit rows of a hand: (suit index, symbol, CSS class).
SUITS = ((0, "♠", "s"), (1, "♥", "h"), (2, "♣", "c"), (3, "♦", "d"))
#: Where each seat's hand goes in a board's grid (CSS class).
PLACES = ((Seat.N, "n"), (Seat.W, "w"), (Seat.E, "e"), (Seat.S, "so"))


def qr_payload(board: Board, commitment: str) -> str:
    """What a board's QR code holds: its DealId and the set's commitment."""
    return f"guandan:board={board.number};dealid={board.deal_id};commitment={commitment}"


def qr_svg(text: str) -> Markup:
    """An inline SVG QR code of ``text`` (medium error correction)."""
    svg = segno.make(text, error="m").svg_inline(scale=2, border=2, omitsize=True)
    return Markup(svg)  # generated from hex digits and numbers only


def hand(board: Board, seat: Seat, lang: str) -> dict[str, Any]:
    """A seat's hand as suit rows: ranks high to low, the wild hearts flagged."""
    wild = wild_kind(board.level)
    kinds = list(reversed(board.kinds[seat]))
    rows = []
    for suit, symbol, cls in SUITS:
        ranks = [{"text": vocab.RANK_LABELS[k >> 2], "wild": k == wild}
                 for k in kinds if k < KIND_SB and k & 3 == suit]
        rows.append({"symbol": symbol, "cls": cls, "ranks": ranks})
    t = translator(lang)
    jokers = [t("card.HR") if k == KIND_HR else t("card.SB") for k in kinds
              if k in (KIND_SB, KIND_HR)]
    return {"seat": vocab.seat_name(seat, lang), "rows": rows, "jokers": jokers,
            "count": len(kinds)}


def render_html(board_set: BoardSet, title: str | None = None, lang: str = "en",
                slips: bool = True) -> str:
    """The printable hand records of ``board_set`` as one self-contained HTML page."""
    info = board_set.info
    t = translator(lang)
    boards = []
    for b in board_set.boards:
        boards.append({
            "number": b.number,
            "level": vocab.level_text(b.level, lang),
            "leader": t("word.leads", seat=vocab.seat_name(b.leader, lang)),
            "deal_id": b.deal_id,
            "qr": qr_svg(qr_payload(b, info.commitment)),
            "hands": [(cls, hand(b, seat, lang)) for seat, cls in PLACES],
            # the dealing slips in the order the cards go round: N, E, S, W
            "slips": [hand(b, seat, lang) for seat in Seat],
        })
    return render(
        "handrecords.html", lang,
        inline_css=Markup(static_text("guandan.css")),
        title=title or t("hr.title", name=info.name), info=info, boards=boards,
        slips=slips,
    )


def render_pdf(board_set: BoardSet, title: str | None = None, lang: str = "en") -> bytes:
    """The hand records as PDF (A4), made by WeasyPrint from the same page, no browser.

    WeasyPrint is an optional dependency (``pip install 'guandan-duplicate[pdf]'``); without
    it, :class:`DuplicateError` says so."""
    import importlib

    try:
        weasyprint = importlib.import_module("weasyprint")
    except ImportError as exc:  # an optional extra, or its system libraries (Pango) missing
        missing = isinstance(exc, ModuleNotFoundError)  # else its system libraries' reason
        reason = Term(str(exc), "out.pdf.not_installed") if missing else str(exc)
        raise DuplicateError(phrase("out.pdf.weasyprint", reason=reason)) from exc
    pdf = weasyprint.HTML(string=render_html(board_set, title, lang)).write_pdf()
    assert isinstance(pdf, bytes)
    return pdf
