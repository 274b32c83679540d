"""An event's settings and field as tags of the first record of its whole export, and read
back (docs/FORMAT.md): the draw seed (``EventSeed``: the lot that decides a tie), the
format, rounds and boards, the scale, the unfinished rule, what a bye scores, the order of
tie-breaks, the rules (their variants), the language, the time zone, the directors'
limit, and every team with its players and pairs (``Team1``, ``Team2``, … in entry
order), so that the export alone makes the event again (:mod:`~duplicate.events.restore`).
Room by room, a result no record gives, a board conceded and a match forfeited are tags
too (``ReportedResult``, ``ReportedFinish``, ``ReportedBy``, ``Conceded``, ``Forfeited``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from duplicate import models
from duplicate.events.base import EventError, _info
from duplicate.events.field import _Field
from duplicate.i18n import phrase
from duplicate.limits import shown
from engine.ruleset import Ruleset

#: The settings' tags, each with the keyword of ``create_event`` it gives.
SETTINGS = {
    "EventSeed": "seed",
    "EventFormat": "fmt",
    "EventRounds": "rounds",
    "EventBoards": "boards_per_round",
    "EventScale": "scale",
    "EventUnfinished": "unfinished",
    "EventByePoints": "bye_points",
    "EventByeWon": "bye_won",
    "EventTiebreaks": "tiebreaks",
    "EventRules": "rules",
    "EventLanguage": "lang",
    "EventTimeZone": "time_zone",
    "EventDirectorMinutes": "director_minutes",
}
#: A team's tag: ``Team1`` … in entry order.
TEAM = re.compile(r"^Team(\d+)$", re.IGNORECASE)
#: The tags of a room's result no record gives, and of the rulings that score a board or a
#: match without one.
ROOM_TAGS = ("ReportedResult", "ReportedFinish", "ReportedBy", "Conceded", "Forfeited")
_SETTINGS_LOWER = frozenset(t.lower() for t in SETTINGS)


def is_export_tag(name: str) -> bool:
    """Whether a tag is one of the event's (settings, teams) or a room's result tags."""
    low = name.lower()
    return low in _SETTINGS_LOWER or TEAM.match(name) is not None or low in {
        t.lower() for t in ROOM_TAGS}


def result_only(tags: Mapping[str, str], played: bool) -> bool:
    """Whether a record of the whole export is a room's result, not a play record: its play
    list empty, it carries a result no record gives (``ReportedResult``, a ``Ruling``) or a
    ruling that scores without one (``Conceded``, ``Forfeited``). ``event import`` passes
    it by (the room's result is the event's already); ``event restore`` reads it."""
    low = {k.lower() for k in tags}
    return not played and bool(low & {"reportedresult", "ruling", "conceded", "forfeited"})


def event_tags(ev: models.Event, field: _Field) -> dict[str, str]:
    """The tags of the event's settings and teams."""
    info = _info(ev)
    tags = {
        "EventSeed": info.seed,
        "EventFormat": info.format,
        "EventRounds": str(info.rounds),
        "EventBoards": str(info.boards_per_round),
        "EventScale": info.scale.name,
        "EventUnfinished": info.unfinished.value,
        "EventByePoints": f"{info.bye.points:.2f}",
        "EventByeWon": "yes" if info.bye.won else "no",
        "EventTiebreaks": info.tiebreaks,
        "EventRules": json.dumps(info.rules.to_dict(), sort_keys=True),
        "EventLanguage": info.lang,
        "EventTimeZone": info.time_zone,
        "EventDirectorMinutes": "none" if ev.director_minutes is None
        else str(ev.director_minutes),
    }
    for number, team in enumerate(sorted(field.teams.values(), key=lambda t: t.number), 1):
        players = field.rosters[team.id]
        pairs = [list(field.pair_names(p.id)) for p in field.team_pairs[team.id]]
        tags[f"Team{number}"] = json.dumps(
            {"name": team.name, "players": players, "pairs": pairs}, ensure_ascii=False)
    return tags


def read_event_tags(
    tags: Mapping[str, str],
) -> tuple[dict[str, Any], list[tuple[str, list[str], list[tuple[str, str]]]]]:
    """The keywords of ``create_event`` and the teams (name, players, pairs) the tags of
    a whole export's first record give; refused when one is missing or wrong."""
    low = {k.lower(): v for k, v in tags.items()}
    out: dict[str, Any] = {}
    try:
        for tag, key in SETTINGS.items():
            value = low.get(tag.lower())
            if value is None:
                raise EventError(phrase("events.err.export_tag", tag=tag))
            out[key] = value
        out["rounds"] = int(out["rounds"])
        out["boards_per_round"] = int(out["boards_per_round"])
        out["bye_points"] = float(out["bye_points"])
        out["bye_won"] = out["bye_won"] == "yes"
        out["rules"] = Ruleset.from_dict(json.loads(out["rules"]))
        minutes = out["director_minutes"]
        out["director_minutes"] = None if minutes == "none" else int(minutes)
        teams = []
        for _number, raw in sorted((int(m[1]), v) for k, v in tags.items()
                                  if (m := TEAM.match(k))):
            data = json.loads(raw)
            teams.append((str(data["name"]), [str(p) for p in data["players"]],
                          [(str(a), str(b)) for a, b in data["pairs"]]))
    except (ValueError, TypeError, KeyError) as exc:
        raise EventError(phrase("events.err.export_tags", error=shown(str(exc)))) from None
    return out, teams
