"""Printable hand records: one HTML page per board set, for dealing physical cards.

Each board is a block that does not break across pages: the four hands laid out around a
table (N at the top, E right, S bottom, W left), the board number, level and first leader
in the middle, and each hand sorted by suit (spades, hearts, clubs, diamonds, then the
jokers), high to low in natural order, coloured by suit. The wild hearts of the board's
level (RULES.md §2) are marked, so that a dealer can check them at a glance.
"""

from __future__ import annotations

from html import escape

from duplicate.boards import BoardSet
from duplicate.dealing import Board
from engine.cards import KIND_HR, KIND_SB, RANK_CHARS, rank_name, wild_kind
from engine.seat import Seat

#: Suit rows of a hand: (suit index, symbol, CSS class).
_SUITS = ((0, "♠", "s"), (1, "♥", "h"), (2, "♣", "c"), (3, "♦", "d"))

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.3em; margin: 0 0 .2em; }
.meta { font-size: .8em; color: #444; margin-bottom: 1em; word-break: break-all; }
.boards { display: flex; flex-wrap: wrap; gap: 1em; }
.board { border: 1px solid #999; padding: .6em; width: 30em; break-inside: avoid;
         page-break-inside: avoid; }
.grid { display: grid; grid-template-columns: 1fr 8em 1fr; grid-template-rows: auto auto auto;
        gap: .3em; align-items: center; }
.n { grid-column: 2 / 4; grid-row: 1; } .w { grid-column: 1; grid-row: 2; }
.e { grid-column: 3; grid-row: 2; } .so { grid-column: 2 / 4; grid-row: 3; }
.table { grid-column: 2; grid-row: 2; border: 2px solid #2a6; border-radius: .4em;
         text-align: center; padding: .4em .2em; font-size: .85em; background: #eef8f0; }
.table .num { font-size: 1.5em; font-weight: bold; }
.hand { font-size: .85em; line-height: 1.35; white-space: nowrap; }
.seat { font-weight: bold; }
.s, .c { color: #111; } .h, .d { color: #c00; } .j { color: #64c; }
.wild { text-decoration: underline; font-weight: bold; }
.id { font-family: monospace; font-size: .65em; color: #666; margin-top: .3em; }
@media print { body { margin: .5cm; } .board { width: 45%; } }
"""


def _ranks(board: Board, seat: Seat, suit: int) -> str:
    """The ranks a seat holds in ``suit``, high to low, wild hearts underlined."""
    wild = wild_kind(board.level)
    kinds = [k for k in reversed(board.kinds[seat]) if k < KIND_SB and k & 3 == suit]
    if not kinds:
        return "—"
    out = []
    for k in kinds:
        text = RANK_CHARS[k >> 2]
        out.append(f'<span class="wild">{text}</span>' if k == wild else text)
    return " ".join(out)


def _hand(board: Board, seat: Seat, css: str) -> str:
    rows = [f'<div class="seat">{seat.name}</div>']
    for suit, symbol, cls in _SUITS:
        rows.append(f'<div><span class="{cls}">{symbol}</span> {_ranks(board, seat, suit)}</div>')
    jokers = [k for k in reversed(board.kinds[seat]) if k in (KIND_SB, KIND_HR)]
    if jokers:
        names = " ".join("Big" if k == KIND_HR else "Small" for k in jokers)
        rows.append(f'<div class="j">🃏 {names}</div>')
    return f'<div class="hand {css}">{"".join(rows)}</div>'


def _board_block(board: Board) -> str:
    centre = (
        f'<div class="table"><div class="num">{board.number}</div>'
        f"<div>Level {rank_name(board.level)}</div>"
        f"<div>Leader {board.leader.name}</div></div>"
    )
    hands = "".join(
        _hand(board, seat, css)
        for seat, css in ((Seat.N, "n"), (Seat.W, "w"), (Seat.E, "e"), (Seat.S, "so"))
    )
    return (
        f'<section class="board" id="board-{board.number}"><div class="grid">{centre}{hands}'
        f'</div><div class="id">DealId {board.deal_id}</div></section>'
    )


def render_html(board_set: BoardSet, title: str | None = None) -> str:
    """The printable hand records of ``board_set`` as one self-contained HTML page."""
    info = board_set.info
    heading = escape(title or f"Board set {info.name}")
    meta = (
        f"{len(board_set.boards)} boards · generator {escape(info.generator)} · "
        f"levels {escape(info.level_schedule)} · commitment {escape(info.commitment)}"
    )
    blocks = "\n".join(_board_block(b) for b in board_set.boards)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>{heading}</title><style>{_CSS}</style></head>\n"
        f'<body><h1>{heading}</h1><div class="meta">{meta}</div>\n'
        f'<div class="boards">\n{blocks}\n</div></body></html>\n'
    )
