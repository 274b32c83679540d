"""A pairs session's page (``guandan pairs … --html FILE``): the ranking field by field and
every board's results, pair by pair, from :class:`duplicate.pairs.PairsResult`."""

from __future__ import annotations

from markupsafe import Markup

from duplicate.i18n import game as vocab
from duplicate.i18n import translator
from duplicate.pairs import METHOD_NAMES, PairsResult
from duplicate.review.render import render, static_text


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def _sat(direction: str, lang: str) -> str:
    """Where a pair sat, ``NS``, ``EW`` or ``NS+EW``: as it is in English, in the page's
    words in another language (南北, 东西, 南北、东西: :func:`duplicate.i18n.game.direction_text`,
    as ``guandan pairs`` says it)."""
    return vocab.direction_text(direction, lang)


def render_pairs(result: PairsResult, title: str, lang: str = "en") -> str:
    """The session's page, self-contained (the stylesheet inlined)."""
    t = translator(lang)
    method = next((k for k, v in METHOD_NAMES.items() if v == result.method), "")
    fields: dict[str, list[dict[str, str]]] = {}
    for p in result.ranking:
        fields.setdefault(p.field, []).append({
            "rank": f"{p.rank}{'=' if p.tied else ''}", "pair": p.pair,
            "direction": _sat(p.direction, lang), "boards": str(p.boards), "total": _fmt(p.total),
            "average": _fmt(p.average), "percent": _fmt(p.percentage),
        })
    boards: dict[str, list[dict[str, str]]] = {}
    for d in result.detail:
        boards.setdefault(d.board, []).append({
            "pair": d.pair, "direction": vocab.side_name(d.direction.name == "NS", lang),
            "opponents": d.opponents,
            "result": vocab.result_text(d.result, lang, ns=d.pair, ew=d.opponents),
            "score": _fmt(d.score), "top": _fmt(d.top),
        })
    return render(
        "pairs.html", lang, inline_css=Markup(static_text("guandan.css")), title=title,
        method=t(f"pairs.method.{method}") if method else "", tables=result.tables,
        fields=fields, boards=boards,
    )
