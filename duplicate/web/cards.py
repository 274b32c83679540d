"""What a printable table card shows, for the desk page and ``guandan event
table-cards`` alike: the token URLs of a card and their QR codes.

Each table and room of a round gets a card (``hall.issue_tokens``) with two tokens: West's
(report) and North's (confirm or dispute). The card prints each as a QR code (segno, SVG:
sharp on paper at any size) of ``{public_url}/t/{token}``, the phone page of that token.
The template ``duplicate/web/templates/desk_cards.html`` renders :func:`card_context`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import segno
from fastapi import Request
from markupsafe import Markup

from duplicate.web.context import settings_of

if TYPE_CHECKING:
    from duplicate.hall import TableCard


def public_base(request: Request) -> str:
    """The address table cards point at: the service's ``public_url`` setting, else the
    address this request came to (``http://host:port``)."""
    configured = settings_of(request).public_url
    return configured or str(request.base_url).rstrip("/")


def token_url(public_url: str, token: str) -> str:
    """The phone page of a table token."""
    return f"{public_url.rstrip('/')}/t/{token}"


def qr_svg(url: str, title: str | None = None) -> Markup:
    """``url`` as an inline SVG QR code (error correction M, 4 px modules), safe to put in a
    template as is (segno escapes the title; the URL is only in the modules)."""
    code = segno.make(url, error="m", micro=False)
    return Markup(code.svg_inline(scale=4, border=4, title=title, svgclass="qr"))  # noqa: S704


def card_context(cards: Sequence[TableCard], public_url: str) -> dict[str, Any]:
    """The context of ``desk_cards.html``: ``cards`` (sorted by table, open room first),
    ``report_url(card)``, ``confirm_url(card)`` (plain strings) and ``qr_svg(url)``
    (``Markup``)."""
    ordered = sorted(cards, key=lambda c: (c.round_no, c.table, c.room != "open"))

    def report_url(card: TableCard) -> str:
        return token_url(public_url, card.report_token)

    def confirm_url(card: TableCard) -> str:
        return token_url(public_url, card.confirm_token)

    helpers: dict[str, Callable[..., Any]] = {
        "report_url": report_url, "confirm_url": confirm_url, "qr_svg": qr_svg,
    }
    return {"cards": ordered, "public_url": public_url, **helpers}


def card_json(card: TableCard, public_url: str) -> dict[str, Any]:
    """A card as the API gives it: seating, the two tokens and their URLs."""
    return {
        "event": card.event,
        "round": card.round_no,
        "table": card.table,
        "room": card.room,
        "team_ns": card.team_ns,
        "team_ew": card.team_ew,
        "seats": {
            "N": card.seats.north, "E": card.seats.east,
            "S": card.seats.south, "W": card.seats.west,
        },
        "report_token": card.report_token,
        "confirm_token": card.confirm_token,
        "report_url": token_url(public_url, card.report_token),
        "confirm_url": token_url(public_url, card.confirm_token),
    }
