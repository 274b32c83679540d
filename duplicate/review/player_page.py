"""A player's page of an event's report, from the analysis (``event report --analyse``):
the player's accuracy over the event, by match and by board, the decisions by kind (lead,
follow, bomb, pass, tribute) with how many were marked, and the costliest decisions, each
linking to its step in its board's movie. Drawn from the boards' figures the report keeps
(:mod:`duplicate.review.mistakes`), so a rebuild needs no board's analysis again."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from duplicate.i18n import translator
from duplicate.review.mistakes import KINDS, empty, merge
from duplicate.review.model import EventReport
from duplicate.review.pages import accuracy_text, language_switch, mistake_line
from duplicate.review.render import render

#: Most marked decisions a player's page lists.
COSTLIEST = 10


def player_page(player: str) -> str:
    """The page of a player: named by a digest of the name, so that it is a plain file
    name whatever the name's script, and the same through every rebuild."""
    return "player-" + hashlib.sha256(player.encode("utf-8")).hexdigest()[:12] + ".html"


def render_player(event: EventReport, player: str,
                  boards: Sequence[tuple[str, Sequence[str], Mapping[str, Any]]], *,
                  lang: str = "en", static: str = "", switch: str | None = None) -> str:
    """The page of ``player``: ``boards`` holds, for each board the player played, its
    page, where it is (round, board, team X, team Y, match page) and the player's figures
    there (:func:`duplicate.review.mistakes.board_mistakes`); ``switch``: the link to the
    page in the other language (:func:`duplicate.review.pages.language_switch`)."""
    t = translator(lang)
    total = merge({player: fig} for _, _, fig in boards).get(player) or empty()
    by_match: dict[str, list[Mapping[str, Any]]] = {}
    labels: dict[str, str] = {}
    rows = []
    for page, where, fig in boards:
        rnd, board, x, y, match = where
        by_match.setdefault(match, []).append(fig)
        labels[match] = f"{x} – {y}" + (" · " + t("report.round", round=rnd) if rnd else "")
        rows.append({"page": page, "label": t("report.board.match_title", board=board, x=x, y=y)
                     + (" · " + t("report.round", round=rnd) if rnd else ""),
                     "accuracy": accuracy_text(fig, lang), "marked": len(fig["marked"]),
                     "lost": fig["lost"]})
    matches = [{"page": m, "label": labels[m], "accuracy": accuracy_text(merge(
        {player: f} for f in figs)[player], lang)} for m, figs in by_match.items()]
    kinds = [{"name": t("report.analysis.kind." + k), "decisions": total["kinds"][k][0],
              "marked": total["kinds"][k][1]} for k in KINDS]
    costliest = [{"href": f"{m['page']}#{m['room']}={int(m['decision']['ply']) + 1}",
                  "text": mistake_line(m, lang, player)} for m in total["marked"][:COSTLIEST]]
    return render("player.html", lang, static, event=event, player=player,
                  accuracy=accuracy_text(total, lang), total=total, matches=matches,
                  boards=rows, kinds=kinds, costliest=costliest,
                  lang_switch=language_switch(switch, player_page(player), lang))
