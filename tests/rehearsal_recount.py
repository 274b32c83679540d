"""An independent recount of a teams event's standings from its rounds' exports.

Written from /work/shared/DUPLICATE.md and docs/SCORING.md alone, importing nothing of
the project's scoring, standings or ``.gdn`` code, so that the dress rehearsal
(tests/test_browser_rehearsal.py) compares the service with a second reading of the
rules. Input: each round's export text (``GET /api/events/{event}/rounds/{n}/export``):
play records, whose tags say the table, the match and an unfinished room, and ``;``
comment lines giving every room result no record gives (the table's finishing order and
its N–S result, or unfinished and why) and each such table's match.

A board conceded by ruling (a late team) is a comment line too. What is recounted: a
room's result from its finishing order (RULES.md §7); a board's
swing (open N–S − closed N–S, 0 for an unfinished board under the ``average`` rule); a
match's margin and its victory points on the continuous 20-VP scale (WBF form, k = 6,
rounded to hundredths and made convex as docs/SCORING.md says); each team's points,
progressive score (去首累进分: the running totals from round 2 on), rounds won, total
swing and levels gained; the order by those criteria (the final draw, from the event's
secret seed, is not known from the export: teams equal on every criterion are returned
as a tie).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

SEATS = "NESW"
#: What a board conceded by a ruling (a late team) gives the opponents: a swing of 3 and
#: as many levels (seeds/004 rule 3: 算对方胜首副牌（升三级）); still a board of the match.
CONCEDED = 3
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}

_MATCH_LINE = re.compile(r"^; table (\d+): (.+) v (.+?)$")
_CONCEDED_LINE = re.compile(r"^; table (\d+), board (\d+): conceded by (.+) \(a ruling\)$")
_FORFEIT_LINE = re.compile(r"^; table (\d+): forfeited by (.+) \(a ruling\)$")
_ROOM_LINE = re.compile(
    r"^; table (\d+), board (\d+), (open|closed) room: "
    r"(?:unfinished \((?P<why>.*)\)|(?P<order>[NESW -]+?)  NS (?P<ns>[+-]\d)(?:  \(.*\))?)$"
)
_TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def room_result(order: str) -> int:
    """N–S levels (+) or E–W levels (−) of a finishing order ``"N E S"`` (the seats out
    1st, 2nd, 3rd; two seats when partners went out 1st and 2nd): only the side of the
    first out goes up, 3 levels with the partner 2nd, 2 with him 3rd, 1 with him 4th
    (RULES.md §7)."""
    seats = order.split()
    if len(set(seats)) != len(seats) or not 2 <= len(seats) <= 3 or set(seats) - set(SEATS):
        raise ValueError(f"not a finishing order: {order!r}")
    if len(seats) == 2 and seats[1] != PARTNER[seats[0]]:
        raise ValueError(f"two seats out make a whole order only as partners: {order!r}")
    full = seats + [s for s in SEATS if s not in seats]
    levels = {2: 3, 3: 2, 4: 1}[full.index(PARTNER[seats[0]]) + 1]
    return levels if seats[0] in "NS" else -levels


@dataclass
class Room:
    """One room's result as exported: ``ns`` (None when unfinished) and the order."""

    ns: int | None
    order: str | None
    unfinished: str | None = None


@dataclass
class Match:
    table: int
    team_x: str
    team_y: str
    rooms: dict[tuple[int, str], Room] = field(default_factory=dict)
    conceded: dict[int, str] = field(default_factory=dict)  # board -> the team conceding


def parse_export(text: str) -> dict[int, Match]:
    """The matches of one round's export, by table, with every room exported."""
    matches: dict[int, Match] = {}
    pending: dict[int, list[tuple[int, str, Room]]] = {}
    for block in _records(text):
        tags = block
        table = int(tags["Table"])
        x, y = tags["Match"].split(" v ", 1)
        m = matches.setdefault(table, Match(table, x, y))
        assert (m.team_x, m.team_y) == (x, y), (table, tags["Match"])
        board, room = int(tags["Board"]), tags["Room"].lower()
        if "Unfinished" in tags:
            m.rooms[board, room] = Room(None, None, tags["Unfinished"])
        else:
            raise AssertionError(f"a play record in the rehearsal's export: {tags}")
    for line in text.splitlines():
        if _FORFEIT_LINE.match(line):
            raise AssertionError(f"a forfeit: not part of the rehearsal's recount: {line!r}")
        if found := _CONCEDED_LINE.match(line):
            m = matches[int(found[1])]
            assert found[3] in (m.team_x, m.team_y), line
            m.conceded[int(found[2])] = found[3]
        elif found := _MATCH_LINE.match(line):
            table = int(found[1])
            m = matches.setdefault(table, Match(table, found[2], found[3]))
            assert (m.team_x, m.team_y) == (found[2], found[3]), line
        elif found := _ROOM_LINE.match(line):
            table, board, room = int(found[1]), int(found[2]), found[3]
            if found["why"] is not None:
                r = Room(None, None, found["why"])
            else:
                order = found["order"].strip()
                ns = int(found["ns"])
                if order != "-":
                    assert room_result(order) == ns, f"{line}: the order says {room_result(order)}"
                r = Room(ns, None if order == "-" else order)
            pending.setdefault(table, []).append((board, room, r))
        elif line.startswith("; table"):
            raise AssertionError(f"an export line not understood: {line!r}")
    for table, rooms in pending.items():
        assert table in matches, f"table {table}'s results without its match"
        for board, room, r in rooms:
            assert (board, room) not in matches[table].rooms, (table, board, room)
            matches[table].rooms[board, room] = r
    return matches


def _records(text: str) -> list[dict[str, str]]:
    """The tags of each play record (a run of ``[Tag "value"]`` lines)."""
    out: list[dict[str, str]] = []
    in_tags = False
    for line in text.splitlines():
        found = _TAG.match(line.strip())
        if found and not in_tags:
            out.append({})
        if found:
            out[-1][found[1]] = found[2].replace('\\"', '"').replace("\\\\", "\\")
        in_tags = bool(found)
    return out


# -- the 20-VP scale -----------------------------------------------------------------------

R = ((math.sqrt(5) - 1) / 2) ** 3


def _hundredths(x: float) -> int:
    return int(Decimal(repr(x)).scaleb(2).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def vp_table(boards: int, k: float = 6.0) -> list[int]:
    """The winner's VP in hundredths for margins 0..⌈B⌉, B = k·√boards: the formula
    rounded to two decimals, then each unit made to gain no more than the one before by
    raising the earlier entry 0.01 and checking again (docs/SCORING.md, ``vp20``)."""
    b = k * math.sqrt(boards)
    top = math.ceil(b)
    h = [min(2000, _hundredths(10 + 10 * (1 - R ** (m / b)) / (1 - R))) for m in range(top + 1)]
    changed = True
    while changed:
        changed = False
        for i in range(2, len(h)):
            if h[i] - h[i - 1] > h[i - 1] - h[i - 2]:
                h[i - 1] += 1
                changed = True
                break
    return h


def vp(margin: int, boards: int) -> tuple[int, int]:
    """(X's VP, Y's VP) in hundredths for X's ``margin`` over ``boards`` scored."""
    if boards == 0:
        return 1000, 1000
    table = vp_table(boards)
    win = table[min(abs(margin), len(table) - 1)]
    return (win, 2000 - win) if margin >= 0 else (2000 - win, win)


# -- matches and standings -----------------------------------------------------------------


@dataclass
class TeamRound:
    points: int  # hundredths
    margin: int
    levels: int
    won: bool


@dataclass
class Row:
    team: str
    points: float
    progressive: float
    rounds_won: int
    swing: int
    levels: int
    played: int

    def key(self) -> tuple[float, float, int, int, int]:
        return (self.points, self.progressive, self.rounds_won, self.swing, self.levels)


def score_match(m: Match, boards: list[int]) -> tuple[TeamRound, TeamRound]:
    """X's and Y's round: swings summed over the boards (an unfinished board: 0, still a
    board of the match for the VP scale: the ``average`` rule), VP, levels gained."""
    margin = levels_x = levels_y = 0
    for b in boards:
        if b in m.conceded:  # the opponents +3, whatever the rooms hold
            x_gets = CONCEDED if m.conceded[b] == m.team_y else -CONCEDED
            margin += x_gets
            levels_x, levels_y = levels_x + max(0, x_gets), levels_y + max(0, -x_gets)
            continue
        o, c = m.rooms[b, "open"], m.rooms[b, "closed"]
        for r, x_sign in ((o, 1), (c, -1)):  # X sits N-S in the open room, E-W in the closed
            if r.ns is not None:
                gained_x = max(0, x_sign * r.ns)
                levels_x += gained_x
                levels_y += abs(r.ns) - gained_x
        if o.ns is not None and c.ns is not None:
            margin += o.ns - c.ns
    px, py = vp(margin, len(boards))
    return (TeamRound(px, margin, levels_x, margin > 0),
            TeamRound(py, -margin, levels_y, margin < 0))


def standings(rounds: list[dict[int, Match]], boards: list[list[int]]) -> list[list[Row]]:
    """The standings after the given rounds, as groups of teams in order: one team a
    group, or several equal on every criterion (their order is the event's draw)."""
    per_team: dict[str, list[TeamRound]] = {}
    for rnd, bds in zip(rounds, boards, strict=True):
        for m in rnd.values():
            x, y = score_match(m, bds)
            per_team.setdefault(m.team_x, []).append(x)
            per_team.setdefault(m.team_y, []).append(y)
    rows = []
    for team, rs in per_team.items():
        running, progressive = 0, 0
        for i, r in enumerate(rs):
            running += r.points
            if i >= 1:
                progressive += running
        rows.append(Row(team, running / 100, progressive / 100, sum(r.won for r in rs),
                        sum(r.margin for r in rs), sum(r.levels for r in rs), len(rs)))
    rows.sort(key=lambda r: r.key(), reverse=True)
    groups: list[list[Row]] = []
    for r in rows:
        if groups and groups[-1][0].key() == r.key():
            groups[-1].append(r)
        else:
            groups.append([r])
    return groups
