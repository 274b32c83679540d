"""Each player's decisions from the analysis, as a coach reads them: the kind of each
decision (a lead, a follow, a bomb, a pass; tribute is given before the play and is not in a
deal's record, so none is valued), the marked ones with what they cost, and an
**accuracy** (docs/ANALYSIS.md "Accuracy"):

* every decision where the player had a choice scores 100 when it lost nothing beyond the
  values' uncertainty, 50 when it is marked ``?`` (it cost one level), 0 when marked ``??``
  (two levels or more); a pass when nothing in hand beat the play is no choice and is
  not counted;
* a player's accuracy on a board, a match or the event is the mean of those scores.

A board's figures are plain JSON (:func:`board_mistakes`), kept in the report's manifest so
that the player pages are drawn without the boards' analyses; :func:`merge` sums them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from duplicate.compare import BoardComparison
from duplicate.review.analysis import loss, player_decisions

#: The kinds of decision, in the order the pages show them.
KINDS = ("lead", "follow", "bomb", "pass", "tribute")
#: A decision's score by its mark.
SCORES = {"": 100, "?": 50, "??": 0}


def kind(decision: Mapping[str, Any]) -> str:
    """``pass``, ``bomb`` (a bomb, straight flush or joker bomb, led or not), ``lead`` or
    ``follow``."""
    action = decision["action"]
    if action.get("pass"):
        return "pass"
    if action["type"] in ("Bomb", "StraightFlush", "FourKings"):
        return "bomb"
    return "lead" if decision.get("lead") else "follow"


def score(decision: Mapping[str, Any]) -> int | None:
    """The decision's score (:data:`SCORES`), ``None`` when it was no choice."""
    if decision.get("forced"):
        return None
    return SCORES.get(str(decision["mark"]), 0)


def empty() -> dict[str, Any]:
    """A player's figures before any decision."""
    return {"turns": 0, "choices": 0, "score": 0, "lost": 0.0,
            "kinds": {k: [0, 0] for k in KINDS}, "marked": []}


def board_mistakes(comp: BoardComparison, annotations: Sequence[Mapping[str, Any]],
                   page: str) -> dict[str, dict[str, Any]]:
    """Player name -> the player's decisions on one board: ``turns`` (every decision valued,
    passes included), ``choices`` and ``score`` (the sum of their scores), ``lost`` (the
    levels the marked decisions cost), ``kinds`` (kind -> [decisions, marked]) and
    ``marked`` (each marked decision: the board ``page``, the room's key, the player's
    seat, the decision as the analysis holds it, its loss and the deal's level)."""
    out: dict[str, dict[str, Any]] = {}
    for room, player, _, d in player_decisions(comp, annotations):
        fig = out.setdefault(player, empty())
        fig["turns"] += 1
        k = kind(d)
        fig["kinds"][k][0] += 1
        s = score(d)
        if s is not None:
            fig["choices"] += 1
            fig["score"] += s
        if d["mark"]:
            lost, _ = loss(d)
            fig["lost"] = round(fig["lost"] + lost, 2)
            fig["kinds"][k][1] += 1
            fig["marked"].append({"page": page, "room": room.room.lower(),
                                  "level": comp.level, "loss": round(lost, 2),
                                  "decision": dict(d)})
    return out


def merge(per_board: Iterable[Mapping[str, Mapping[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Sum boards' :func:`board_mistakes` by player (the marked decisions costliest
    first)."""
    total: dict[str, dict[str, Any]] = {}
    for board in per_board:
        for player, fig in board.items():
            acc = total.setdefault(player, empty())
            for key in ("turns", "choices", "score"):
                acc[key] += int(fig[key])
            acc["lost"] = round(acc["lost"] + float(fig["lost"]), 2)
            for k in KINDS:
                for i in (0, 1):
                    acc["kinds"][k][i] += int(fig["kinds"].get(k, [0, 0])[i])
            acc["marked"].extend(fig["marked"])
    for fig in total.values():
        fig["marked"].sort(key=lambda m: (-float(m["loss"]), m["page"], m["room"],
                                          int(m["decision"]["ply"])))
    return total


def accuracy(fig: Mapping[str, Any]) -> float | None:
    """The mean score of the decisions with a choice, ``None`` without any."""
    return fig["score"] / fig["choices"] if fig["choices"] else None
