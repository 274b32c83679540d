"""An independent review of teams events end to end: what ``tests/test_event_e2e.py`` misses.

Every scenario runs through the command line (click's ``CliRunner``) on every configured
database, and every figure the CLI prints is checked against a recomputation of this
module's own, written from ``docs/spec/DUPLICATE.md`` and RULES.md without the library's
scoring, pairing or standings code: the exported ``.gdn`` records are replayed with the
engine's ``Deal`` alone, plus a ledger of the director's actions (rulings, unfinished
marks) kept by the test itself; then room results, swings, margins, the 2/1/0 and 20-VP
scales (WBF formula, two decimals, convexity), byes, 累进分 (cut 1), the Jiangsu tie-break
order and ``decided_by``, and the Swiss pairing (round 1 from the seed's SHA-256 lots,
later rounds high against high without a repeat, the bye to the lowest team without one,
found by plain backtracking).

Scenarios: an odd Swiss field (7 teams, 3 rounds, ``vp20``); unfinished boards under both
rules (``average``, ``not-scored``), marked by the director and by a record that stops
early; corrections after scoring (``event correct`` and ``import --correction``) with
their log; a round robin of 4 teams.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from cli import main
from duplicate.dealing import seed_file_bytes
from duplicate.gdn import DealRecord, Play, format_record, loads
from engine.deal import Deal
from engine.seat import Side

#: The Jiangsu tie-break order (DUPLICATE.md, "Teams of four"), before the seeded draw.
CRITERIA = ("points", "progressive", "rounds_won", "swing", "levels")
ROOMS = ("open", "closed")
#: This project's Guandan VP scale factor, B = 6·√boards (docs/SCORING.md, GUANDAN_K).
K = 6.0


# --- the command line ---------------------------------------------------------------------


def cli(url: str, *args: str) -> Any:
    """``guandan event --db URL ARGS``, which must succeed; parsed JSON with ``--json``."""
    result = CliRunner().invoke(main, ["event", "--db", url, *args])
    assert result.exit_code == 0, f"{args}: {result.output}"
    return json.loads(result.output) if "--json" in args else result.output


def import_fails(url: str, *args: str) -> str:
    """``guandan event --db URL import ARGS`` of one file, which must not be stored: exit 1,
    the file's error on standard output and one line on standard error."""
    result = CliRunner().invoke(main, ["event", "--db", url, "import", *args])
    assert result.exit_code == 1, f"{args} should fail: {result.output}"
    assert result.stderr.startswith("Error: 1 of 1 file not stored; first: ")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    return result.stderr


def cli_fails(url: str, *args: str) -> str:
    """``guandan event --db URL ARGS``, which must fail with one clear line (exit 1)."""
    result = CliRunner().invoke(main, ["event", "--db", url, *args])
    assert result.exit_code == 1, f"{args} should fail: {result.output}"
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert "Traceback" not in result.output
    return result.output


# --- the independent model ----------------------------------------------------------------


def replay_ns(rec: DealRecord) -> int | None:
    """Replay a record with the engine alone: its N–S result (±1..±3), ``None`` when the
    play list stops before the deal ends (an unfinished board)."""
    deal = Deal(rec.hands, rec.level, rec.leader)
    assert rec.plays is not None, "an exported record always has its plays"
    for play in rec.plays:
        if play.is_pass:
            deal.pass_(play.seat)
        else:
            deal.play_cards(play.cards, play.type, play.rank, play.seat)
    if not deal.is_over:
        assert rec.result is None
        return None
    res = deal.result()
    assert (res.winner, res.levels) == rec.result  # the record says the same
    return res.levels if res.winner == Side.NS else -res.levels


def vp_cents(margin: int, boards: int) -> int:
    """Team X's VP in hundredths (DUPLICATE.md): VP = min(20, 10 + 10(1 − r^(M/B))/(1 − r)),
    r = τ³, B = 6·√boards, rounded to two decimals, and no extra unit of margin worth more
    than the one before (where it would be, the earlier entry gains 0.01, docs/SCORING.md);
    the loser gets 20 − VP."""
    blitz = K * math.sqrt(boards)
    r = ((math.sqrt(5) - 1) / 2) ** 3
    table = [
        round(100 * min(20.0, 10 + 10 * (1 - r ** (m / blitz)) / (1 - r)))
        for m in range(math.ceil(blitz) + 1)
    ]
    bad = True
    while bad:
        bad = False
        for i in range(2, len(table)):
            if table[i] - table[i - 1] > table[i - 1] - table[i - 2]:
                table[i - 1] += 1
                bad = True
                break
    assert table[0] == 1000 and table[-1] == 2000
    assert all(a <= b for a, b in zip(table, table[1:], strict=False))
    win = table[min(abs(margin), len(table) - 1)]
    return win if margin >= 0 else 2000 - win


@dataclass
class Ledger:
    """What the test knows of an event: its rules, the rounds' matches and byes, the
    director's actions, and the room results replayed from the exported records."""

    name: str
    seed: str
    scale: str  # "wdl" or "vp20"
    rule: str  # "average" or "not-scored"
    bye_cents: int
    boards_per_round: int
    teams: list[str]
    matches: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    byes: dict[int, str] = field(default_factory=dict)
    #: (round, table, board, room) -> N–S result, None for unfinished
    rooms: dict[tuple[int, int, int, str], int | None] = field(default_factory=dict)
    #: the director's actions, which override the records: rulings and unfinished marks
    rulings: dict[tuple[int, int, int, str], int | None] = field(default_factory=dict)

    def boards(self, rnd: int) -> range:
        """The set's boards of round ``rnd`` (docs/EVENTS.md: consecutive, by round)."""
        return range((rnd - 1) * self.boards_per_round + 1, rnd * self.boards_per_round + 1)

    def load(self, url: str) -> None:
        """Read the matches and the exported records back from the database, by the CLI."""
        self.matches.clear()
        self.rooms.clear()
        seat_of: dict[tuple[int, str, str], int] = {}
        for m in cli(url, "matches", self.name, "--json"):
            self.matches[(m["round"], m["table"])] = (m["team_x"], m["team_y"])
            for room in ROOMS:
                seat_of[(m["round"], room, m[room]["N"])] = m["table"]
        for rnd in {r for r, _ in self.matches}:
            playing = {t for (r, _), xy in self.matches.items() if r == rnd for t in xy}
            rest = [t for t in self.teams if t not in playing]
            assert len(rest) == len(self.teams) % 2, f"round {rnd}: {rest} sit out"
            if rest:
                self.byes[rnd] = rest[0]
        # the director's copy: every stored record, released or not
        everything = ("--unreleased", "--by", "ledger", "--reason", "recomputation")
        for rec in loads(cli(url, "export", self.name, *everything)):
            rnd, room = int(rec.tags["Round"]), rec.tags["Room"].lower()
            key = (rnd, seat_of[(rnd, room, rec.tags["North"])], int(rec.tags["Board"]), room)
            assert key not in self.rooms, f"{key} exported twice"
            self.rooms[key] = replay_ns(rec)

    def result(self, key: tuple[int, int, int, str]) -> int | None:
        """A room's result: the director's, else the record's; every room has one or the other."""
        if key in self.rulings:
            return self.rulings[key]
        assert key in self.rooms, f"{key}: neither a record nor a director's mark"
        return self.rooms[key]

    def match(self, rnd: int, table: int) -> dict[str, Any]:
        """Score a match: per board X's swing (open N–S − closed N–S), the margin over the
        scored boards, the levels each team gained, and the scale's match points."""
        margin = scored = lx = ly = 0
        unfinished = []
        for b in self.boards(rnd):
            o, c = self.result((rnd, table, b, "open")), self.result((rnd, table, b, "closed"))
            # levels gained in a room that finished count (docs/SCORING.md)
            for ns, x_is_ns in ((o, True), (c, False)):
                if ns is not None:
                    gain_ns, gain_ew = max(ns, 0), max(-ns, 0)
                    lx += gain_ns if x_is_ns else gain_ew
                    ly += gain_ew if x_is_ns else gain_ns
            if o is None or c is None:
                unfinished.append(b)
                if self.rule == "average":  # a swing of 0, and a board of the match
                    scored += 1
                continue
            assert -6 <= o - c <= 6
            margin += o - c
            scored += 1
        if self.scale == "wdl":
            px = 200 if margin > 0 else 100 if margin == 0 else 0
            py = 200 - px
        else:
            px = vp_cents(margin, scored) if scored else 1000  # nothing scored: a draw
            py = 2000 - px
        return {
            "margin": margin,
            "boards_scored": scored,
            "unfinished": unfinished,
            "points_x": px,
            "points_y": py,
            "levels_x": lx,
            "levels_y": ly,
        }

    def score_rows(self, rnd: int) -> list[dict[str, Any]]:
        """What ``event score --round rnd --json`` should print."""
        out = []
        for (r, table), (x, y) in sorted(self.matches.items()):
            if r != rnd:
                continue
            s = self.match(r, table)
            out.append(
                {
                    "round": r,
                    "table": table,
                    "team_x": x,
                    "team_y": y,
                    "bye": False,
                    "margin": s["margin"],
                    "points_x": s["points_x"] / 100,
                    "points_y": s["points_y"] / 100,
                    "boards_scored": s["boards_scored"],
                    "unfinished": s["unfinished"],
                }
            )
        if rnd in self.byes:  # after the matches: the bye, its points counted as a round won
            out.append({
                "round": rnd, "table": None, "team_x": self.byes[rnd], "team_y": None,
                "bye": True, "margin": 0, "points_x": self.bye_cents / 100, "points_y": None,
                "boards_scored": 0, "unfinished": [], "won": True,
            })
        return out

    def lot(self, team: str) -> bytes:
        """The final draw's lot: SHA-256 of the event seed and the team."""
        return hashlib.sha256(
            b"guandan-duplicate/standings\0" + self.seed.encode() + b"\0" + team.encode()
        ).digest()

    def standings(self, after: int) -> list[dict[str, Any]]:
        """The standings after round ``after``, every column of ``event standings --json``."""
        per: dict[str, dict[int, dict[str, Any]]] = {t: {} for t in self.teams}
        opponents: dict[str, list[str]] = {t: [] for t in self.teams}
        for (rnd, table), (x, y) in self.matches.items():
            if rnd > after:
                continue
            s = self.match(rnd, table)
            per[x][rnd] = {
                "pts": s["points_x"],
                "margin": s["margin"],
                "levels": s["levels_x"],
                "won": s["margin"] > 0,
            }
            per[y][rnd] = {
                "pts": s["points_y"],
                "margin": -s["margin"],
                "levels": s["levels_y"],
                "won": s["margin"] < 0,
            }
            opponents[x].append(y)
            opponents[y].append(x)
        for rnd, team in self.byes.items():
            if rnd <= after:  # a bye: the event's bye points, a round won, no swing or levels
                per[team][rnd] = {"pts": self.bye_cents, "margin": 0, "levels": 0, "won": True}
        total = {t: sum(v["pts"] for v in per[t].values()) for t in self.teams}
        rows = []
        for t in self.teams:
            running = 0
            progressive = 0
            for rnd in range(1, after + 1):
                running += per[t][rnd]["pts"] if rnd in per[t] else 0
                if rnd >= 2:  # 累进分, 去首: the running totals after rounds 2..R
                    progressive += running
            rows.append(
                {
                    "team": t,
                    "played": len(opponents[t]),
                    "points": total[t],
                    "progressive": progressive,
                    "rounds_won": sum(v["won"] for v in per[t].values()),
                    "swing": sum(v["margin"] for v in per[t].values()),
                    "levels": sum(v["levels"] for v in per[t].values()),
                    "opponents_points": sum(total[o] for o in opponents[t]),
                    "lot": self.lot(t).hex()[:16],
                    "withdrawn": False,  # no team of these events withdraws
                }
            )
        rows.sort(key=lambda r: (*(-r[c] for c in CRITERIA), self.lot(r["team"])))
        for i, row in enumerate(rows):
            row["rank"] = i + 1
            above = rows[i - 1] if i else None
            row["decided_by"] = (
                None if above is None else next((c for c in CRITERIA if row[c] != above[c]), "draw")
            )
        for row in rows:
            for c in ("points", "progressive", "opponents_points"):
                row[c] = row[c] / 100
        return rows


def check_standings(url: str, ledger: Ledger, after: int) -> list[dict[str, Any]]:
    """``event standings --after N --json`` must equal the recomputation in every column."""
    theirs = cli(url, "standings", ledger.name, "--after", str(after), "--json")
    mine = ledger.standings(after)
    assert [r["team"] for r in theirs] == [r["team"] for r in mine]
    for t, m in zip(theirs, mine, strict=True):
        assert t == m, f"after round {after}, {m['team']}"
    return mine


def round_one(teams: Sequence[str], seed: str) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1 drawn from the seed: lots by SHA-256, 1 v 2, 3 v 4, …, the last lot's bye."""
    order = sorted(
        teams,
        key=lambda t: hashlib.sha256(
            b"guandan-duplicate/round1\0" + seed.encode() + b"\0" + t.encode()
        ).digest(),
    )
    bye = order.pop() if len(order) % 2 else None
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)], bye


def swiss(
    order: Sequence[str], met: set[frozenset[str]], had_bye: Counter[str]
) -> tuple[list[tuple[str, str]], str | None]:
    """A Swiss round by exhaustive backtracking: the bye to the lowest team with the fewest
    byes that leaves the rest pairable; then the best unpaired team meets the best team it
    has not met such that the rest can still be paired (X, the higher, first)."""

    def pair(rest: list[str]) -> list[tuple[str, str]] | None:
        if not rest:
            return []
        a = rest[0]
        for b in rest[1:]:
            if frozenset((a, b)) in met:
                continue
            tail = pair([t for t in rest if t not in (a, b)])
            if tail is not None:
                return [(a, b), *tail]
        return None

    candidates: list[str | None] = [None]
    if len(order) % 2:
        pos = {t: i for i, t in enumerate(order)}
        candidates = sorted(order, key=lambda t: (had_bye[t], -pos[t]))
    for bye in candidates:
        tables = pair([t for t in order if t != bye])
        if tables is not None:
            return tables, bye
    raise AssertionError("no pairing without a repeat")


# --- building events ----------------------------------------------------------------------


def url_of(engine: Engine) -> str:
    """The engine's URL with its password, for ``--db``."""
    return engine.url.render_as_string(hide_password=False)


def new_event(
    url: str,
    tmp_path: Path,
    name: str,
    teams: Sequence[str],
    *,
    seed: str,
    rounds: int,
    boards: int,
    scale: str,
    fmt: str = "swiss",
    rule: str = "average",
) -> tuple[Ledger, Path]:
    """Create an event with teams of four (players ``<team>1..4``); the ledger and the
    board seed file."""
    teams_file = tmp_path / f"{name}.teams"
    teams_file.write_text(
        "".join(f"{t}: {', '.join(f'{t}{i}' for i in range(1, 5))}\n" for t in teams),
        encoding="utf-8",
    )
    seed_file = tmp_path / f"{name}.seed"
    seed_file.write_bytes(seed_file_bytes(hashlib.sha256(name.encode()).digest()))
    seed_file.chmod(0o600)  # a secret: read without a warning
    out = cli(
        url, "create", name, "--teams-file", str(teams_file), "--seed", seed,
        "--rounds", str(rounds), "--boards-per-round", str(boards), "--scale", scale,
        "--format", fmt, "--unfinished", rule,
    )  # fmt: skip
    assert f"{len(teams)} teams entered" in out
    bye = 200 if scale == "wdl" else 1200  # DUPLICATE.md / docs/EVENTS.md: the default bye
    return Ledger(name, seed, scale, rule, bye, boards, list(teams)), seed_file


def pair_and_play(url: str, ledger: Ledger, seed_file: Path, rnd: int) -> list[dict[str, Any]]:
    """Pair the next round, give it its boards, let the bots play it; its matches."""
    matches: list[dict[str, Any]] = cli(url, "pair-round", ledger.name, "--json")
    assert {m["round"] for m in matches} == {rnd}
    cli(url, "assign-boards", ledger.name, "--round", str(rnd), "--seed-file", str(seed_file))
    out = cli(url, "play-bots", ledger.name, "--round", str(rnd))
    assert f"{len(matches) * 2 * ledger.boards_per_round} records played and imported" in out
    return matches


def other_play(rec: DealRecord, keep: int) -> str:
    """The record with a different play from action ``keep`` on: after the first ``keep``
    actions, whoever leads plays its smallest legal play and everyone else passes. The
    result is computed by the engine; the record's tags are kept."""
    assert rec.plays is not None
    deal = Deal(rec.hands, rec.level, rec.leader)
    plays: list[Play] = []
    for play in rec.plays[:keep]:
        if play.is_pass:
            deal.pass_(play.seat)
        else:
            deal.play_cards(play.cards, play.type, play.rank, play.seat)
        plays.append(play)
    while not deal.is_over:
        seat = deal.turn
        assert seat is not None
        if deal.to_beat is not None and deal.can_pass():
            deal.pass_()
            plays.append(Play(seat))
        else:
            combo = min(deal.legal_plays(), key=lambda c: (c.size, c.type, c.rank, c.cards))
            deal.play(combo)
            plays.append(Play(seat, combo.cards, combo.type, combo.rank))
    res = deal.result()
    new = DealRecord(
        tags=dict(rec.tags),
        hands=rec.hands,
        level=rec.level,
        leader=rec.leader,
        plays=plays,
        finish=res.finish_order[:2] if res.double_down else res.finish_order,
        result=(res.winner, res.levels),
    )
    return format_record(new)


def cut_short(rec: DealRecord, keep: int, reason: str = "time") -> str:
    """The record with its play list cut after ``keep`` actions: a deal that did not end,
    saying why in its ``Unfinished`` tag (docs/FORMAT.md)."""
    assert rec.plays is not None and keep < len(rec.plays)
    new = DealRecord(
        tags={**rec.tags, "Unfinished": reason}, hands=rec.hands, level=rec.level,
        leader=rec.leader,
        plays=list(rec.plays[:keep]),
    )  # fmt: skip
    return format_record(new)


# --- the scenarios ------------------------------------------------------------------------


def test_odd_swiss_field_byes_and_vp(migrated_engine: Engine, tmp_path: Path) -> None:
    """7 teams, 3 Swiss rounds on the 20-VP scale: round 1 drawn from the seed, byes to
    the lowest team without one (never twice) scoring 12 VP and a round won, no repeat
    opponents, and every round's scores and standings as recomputed."""
    url = url_of(migrated_engine)
    teams = [f"T{c}" for c in "ABCDEFG"]
    ledger, seed_file = new_event(
        url, tmp_path, "Odd Cup", teams, seed="0dd5eed", rounds=3, boards=3, scale="vp20"
    )
    met: set[frozenset[str]] = set()
    had_bye: Counter[str] = Counter()
    for rnd in (1, 2, 3):
        if rnd == 1:
            want, want_bye = round_one(teams, ledger.seed)
        else:
            order = [r["team"] for r in ledger.standings(rnd - 1)]
            want, want_bye = swiss(order, met, had_bye)
        matches = pair_and_play(url, ledger, seed_file, rnd)
        got = [(m["team_x"], m["team_y"]) for m in matches]
        assert got == want, f"round {rnd}"
        ledger.load(url)
        assert ledger.byes[rnd] == want_bye
        assert had_bye[want_bye] == 0, "a second bye"
        had_bye[want_bye] += 1
        tables = {frozenset(xy) for xy in got}
        assert not tables & met, "a repeat opponent"
        met |= tables
        scored = cli(url, "score", ledger.name, "--round", str(rnd), "--json")
        assert scored == ledger.score_rows(rnd)
        assert all(s["points_x"] + s["points_y"] == 20 for s in scored if not s["bye"])
        rows = check_standings(url, ledger, rnd)
        bye_row = next(r for r in rows if r["team"] == want_bye)
        assert bye_row["played"] == rnd - 1 and bye_row["rounds_won"] >= 1
    assert sorted(had_bye.values()) == [1, 1, 1] and len(met) == 9
    final = cli(url, "standings", ledger.name, "--json")
    assert final == check_standings(url, ledger, 3)
    # a bye is no match, but the score listing of its round lists it with its points
    for rnd, team in ledger.byes.items():
        listed = cli(url, "score", ledger.name, "--round", str(rnd), "--json")
        (bye,) = [s for s in listed if team in (s["team_x"], s["team_y"])]
        assert (bye["bye"], bye["team_y"], bye["points_x"]) == (True, None, 12.0)
    # the swings are not all alike: the scenario really exercises the VP table
    assert len({s["points_x"] for r in (1, 2, 3) for s in ledger.score_rows(r)}) > 2


@pytest.mark.parametrize("rule", ["average", "not-scored"])
def test_unfinished_boards_under_each_rule(
    migrated_engine: Engine, tmp_path: Path, rule: str
) -> None:
    """Unfinished boards, marked by the director (`event unfinished`, over a stored result:
    a correction) and by a record that stops before the deal ends (`import --correction`),
    are listed, never dropped, and scored by the event's rule on the VP scale."""
    url = url_of(migrated_engine)
    teams = ["North Star", "East Wind", "South Gate", "West Lake"]
    ledger, seed_file = new_event(
        url, tmp_path, "Late Cup", teams, seed="1a7e", rounds=2, boards=3, scale="vp20",
        fmt="rr", rule=rule,
    )  # fmt: skip
    pair_and_play(url, ledger, seed_file, 1)
    ledger.load(url)
    # table 1: one room of one board runs out of time; pick a board that leaves the margin
    # non-zero, so that the two rules give different VP (the board count differs)
    boards = list(ledger.boards(1))
    full = ledger.match(1, 1)["margin"]
    swing_of = {
        b: ledger.result((1, 1, b, "open")) - ledger.result((1, 1, b, "closed"))  # type: ignore[operator]
        for b in boards
    }
    late = next((b for b in boards if full - swing_of[b] != 0), None)
    assert late is not None, "every choice leaves a 0 margin: pick another seed"
    out = cli_fails(url, "unfinished", ledger.name, "--round", "1", "--table", "1",
                    "--board", str(late), "--room", "closed", "--reason", "time")  # fmt: skip
    assert "correction" in out
    cli(url, "unfinished", ledger.name, "--round", "1", "--table", "1", "--board", str(late),
        "--room", "closed", "--reason", "time", "--by", "TD Wu")  # fmt: skip
    ledger.rulings[(1, 1, late, "closed")] = None
    # table 2: a team withdrew; no board was finished in either room
    for b in boards:
        cli(url, "unfinished", ledger.name, "--round", "1", "--table", "2", "--board", str(b),
            "--reason", "withdrawal", "--by", "TD Wu")  # fmt: skip
        for room in ROOMS:
            ledger.rulings[(1, 2, b, room)] = None
    scored = cli(url, "score", ledger.name, "--round", "1", "--json")
    assert scored == ledger.score_rows(1)
    assert scored[0]["unfinished"] == [late] and scored[1]["unfinished"] == boards
    n_scored = 3 if rule == "average" else 2
    assert scored[0]["boards_scored"] == n_scored
    assert scored[0]["points_x"] == vp_cents(full - swing_of[late], n_scored) / 100
    # a match with nothing finished: 0 swing (average) or nothing scored (a draw): 10–10
    assert (scored[1]["margin"], scored[1]["points_x"], scored[1]["points_y"]) == (0, 10, 10)
    assert scored[1]["boards_scored"] == (3 if rule == "average" else 0)
    shown = cli(url, "boards", ledger.name, "1", "1", "--json")
    assert [b["status"] for b in shown] == ["unfinished" if b == late else "played" for b in boards]
    check_standings(url, ledger, 1)

    # round 2: a record that stops early replaces a played one (import --correction)
    pair_and_play(url, ledger, seed_file, 2)
    records = loads(cli(url, "export", ledger.name, "--round", "2"))
    victim = records[3]  # table 1, board 5, the closed room (open before closed)
    assert victim.plays is not None and victim.tags["Room"] == "Closed"
    short = tmp_path / "short.gdn"
    short.write_text(cut_short(victim, len(victim.plays) // 2), encoding="utf-8")
    import_fails(url, ledger.name, str(short))
    summary = cli(url, "import", ledger.name, str(short), "--correction", "--by", "TD Wu",
                  "--reason", "the closed room ran out of time", "--json")["total"]  # fmt: skip
    assert (summary["corrected"], summary["unfinished"]) == (1, 1)
    ledger.load(url)  # the cut record is exported, and replays to no result
    board = int(victim.tags["Board"])
    assert ledger.rooms[(2, 1, board, "closed")] is None
    scored = cli(url, "score", ledger.name, "--round", "2", "--json")
    assert scored == ledger.score_rows(2) and scored[0]["unfinished"] == [board]
    final = check_standings(url, ledger, 2)
    assert cli(url, "standings", ledger.name, "--json") == final
    log = cli(url, "corrections", ledger.name, "--json")
    assert len(log) == 1 + 2 * 3 + 1 and all(c["by"] == "TD Wu" for c in log)
    assert log[-1]["after"] == "unfinished (time)"
    assert log[-1]["reason"] == "the closed room ran out of time"


def test_corrections_after_scoring_recompute_standings(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    """A ruling (`event correct`) and a replaced record (`import --correction`) after the
    rounds were scored: both logged with who, when, why, before and after; the original
    record is then refused; scores and standings after every round follow the corrections."""
    url = url_of(migrated_engine)
    teams = ["Lions", "Tigers", "Bears", "Wolves", "Eagles", "Sharks"]
    ledger, seed_file = new_event(
        url, tmp_path, "Fix Cup", teams, seed="f1c5", rounds=2, boards=3, scale="wdl"
    )
    for rnd in (1, 2):
        pair_and_play(url, ledger, seed_file, rnd)
        cli(url, "score", ledger.name, "--round", str(rnd))
    ledger.load(url)
    before_1 = check_standings(url, ledger, 1)
    before_2 = check_standings(url, ledger, 2)
    started = datetime.now(UTC)

    # 1. a director's ruling in round 1: the open room of table 1, board 1 goes the other way
    key = (1, 1, 1, "open")
    old = ledger.result(key)
    assert old is not None
    new = -old
    text = f"{'NS' if new > 0 else 'EW'} +{abs(new)}"
    out = cli(url, "correct", ledger.name, "--round", "1", "--table", "1", "--board", "1",
              "--room", "open", "--result", text, "--by", "TD Li", "--reason", "revoke")  # fmt: skip
    assert out.endswith(f"-> {text}\n")
    ledger.rulings[key] = new

    # 2. a mistyped record in round 2 replaced: table 2, the first board and room whose
    # other play changes the result
    records = loads(cli(url, "export", ledger.name, "--round", "2"))
    seat_n = {m["open"]["N"]: m["table"] for m in cli(url, "matches", ledger.name, "--round",
                                                      "2", "--json")}  # fmt: skip
    replaced = None
    for rec in records:
        if seat_n.get(rec.tags["North"]) != 2 or rec.tags["Room"] != "Open":
            continue
        for keep in (0, 4, 8):
            alt = other_play(rec, keep)
            if replay_ns(loads(alt)[0]) != replay_ns(rec):
                replaced = (rec, alt)
                break
        if replaced:
            break
    assert replaced is not None, "no other play changed a result: pick another seed"
    rec, alt = replaced
    fixed = tmp_path / "fixed.gdn"
    fixed.write_text(alt, encoding="utf-8")
    import_fails(url, ledger.name, str(fixed))  # not without --correction
    summary = cli(url, "import", ledger.name, str(fixed), "--correction", "--by", "TD Li",
                  "--reason", "mistyped record", "--json")["total"]  # fmt: skip
    assert (summary["corrected"], summary["added"]) == (1, 0)
    # the bots' original record is now a different one: refused, the correction stands
    original = tmp_path / "original.gdn"
    original.write_text(format_record(rec), encoding="utf-8")
    assert "correction" in import_fails(url, ledger.name, str(original))
    # the exported record of the ruled room is still the played one; the ruling overrides it
    ledger.load(url)
    board2 = int(rec.tags["Board"])
    assert ledger.rooms[(2, 2, board2, "open")] == replay_ns(loads(alt)[0])

    log = cli(url, "corrections", ledger.name, "--json")
    assert [(c["round"], c["table"], c["board"], c["room"], c["by"], c["reason"]) for c in log] == [
        (1, 1, 1, "open", "TD Li", "revoke"),
        (2, 2, board2, "open", "TD Li", "mistyped record"),
    ]
    for c, was, now in zip(
        log, (old, replay_ns(rec)), (new, replay_ns(loads(alt)[0])), strict=True
    ):
        assert was is not None and now is not None
        assert c["before"].startswith(f"{'NS' if was > 0 else 'EW'} +{abs(was)} (")
        assert c["after"].startswith(f"{'NS' if now > 0 else 'EW'} +{abs(now)} (")
        at = datetime.fromisoformat(c["at"])
        if at.tzinfo is None:  # SQLite keeps no offset: the time is UTC (docs/EVENTS.md)
            at = at.replace(tzinfo=UTC)
        assert started - timedelta(seconds=5) <= at <= datetime.now(UTC) + timedelta(seconds=5)

    # every standing is recomputed: after round 1 and after round 2
    assert cli(url, "score", ledger.name, "--round", "1", "--json") == ledger.score_rows(1)
    assert cli(url, "score", ledger.name, "--round", "2", "--json") == ledger.score_rows(2)
    after_1 = check_standings(url, ledger, 1)
    after_2 = check_standings(url, ledger, 2)
    x, y = ledger.matches[(1, 1)]
    swing_1 = {r["team"]: r["swing"] for r in after_1}
    was_1 = {r["team"]: r["swing"] for r in before_1}
    assert swing_1[x] == was_1[x] + new - old and swing_1[y] == was_1[y] - new + old
    assert after_2 != before_2


def test_round_robin_of_four(migrated_engine: Engine, tmp_path: Path) -> None:
    """A round robin of 4 teams: 3 rounds, every team plays each round, every pair meets
    exactly once, each team is X (N–S in the open room) in some match; a 4th round does
    not exist; standings as recomputed after every round, on the 2/1/0 scale."""
    url = url_of(migrated_engine)
    teams = ["Plum", "Orchid", "Bamboo", "Chrysanthemum"]
    ledger, seed_file = new_event(
        url, tmp_path, "RR Cup", teams, seed="4ea5", rounds=4, boards=2, scale="wdl", fmt="rr"
    )
    met: Counter[frozenset[str]] = Counter()
    for rnd in (1, 2, 3):
        matches = pair_and_play(url, ledger, seed_file, rnd)
        assert sorted(t for m in matches for t in (m["team_x"], m["team_y"])) == sorted(teams)
        met.update(frozenset((m["team_x"], m["team_y"])) for m in matches)
        ledger.load(url)
        assert rnd not in ledger.byes
        assert cli(url, "score", ledger.name, "--round", str(rnd), "--json") == (
            ledger.score_rows(rnd)
        )
        check_standings(url, ledger, rnd)
    assert len(met) == 6 and set(met.values()) == {1}
    assert {x for x, _ in ledger.matches.values()} == set(teams)
    assert "round robin of 4 teams has 3 rounds" in cli_fails(url, "pair-round", ledger.name)
    # the default standings are after the last complete round
    assert cli(url, "standings", ledger.name, "--json") == ledger.standings(3)
    # the seating swaps the rooms: X's pair 1 sits N–S open, its pair 2 E–W closed
    for m in cli(url, "matches", ledger.name, "--json"):
        assert m["open"]["N"] == m["team_x"] + "1" and m["closed"]["E"] == m["team_x"] + "3"
        assert m["open"]["E"] == m["team_y"] + "1" and m["closed"]["N"] == m["team_y"] + "3"


def test_every_tie_break_decides_somewhere(migrated_engine: Engine, tmp_path: Path) -> None:
    """Standings built from directors' rulings alone, so that each Jiangsu tie-break in
    turn is what separates two teams: the seeded draw (everyone equal), 累进分 (cut 1) and
    rounds won; ``decided_by`` names it, and each change is a logged correction."""
    url = url_of(migrated_engine)
    teams = ["Ace", "King", "Queen", "Jack"]
    ledger, seed_file = new_event(
        url, tmp_path, "Tie Cup", teams, seed="71e5", rounds=3, boards=1, scale="wdl", fmt="rr"
    )
    for rnd in (1, 2, 3):
        cli(url, "pair-round", ledger.name)
        cli(url, "assign-boards", ledger.name, "--round", str(rnd), "--seed-file", str(seed_file))
    ledger.load(url)
    assert not ledger.rooms  # no record: every result below is a ruling
    # a round robin of 4 is the three perfect matchings of K4: name the teams so that
    # round 1 is p1-p2, p3-p4; round 2 p1-p3, p2-p4; round 3 p1-p4, p2-p3
    opp = {(r, t): u for (r, _), (x, y) in ledger.matches.items() for t, u in ((x, y), (y, x))}
    p1 = teams[0]
    p2, p3, p4 = opp[(1, p1)], opp[(2, p1)], opp[(3, p1)]
    assert {opp[(1, p3)], opp[(2, p2)], opp[(3, p2)]} == {p4, p4, p3}

    calls: list[tuple[int, int, int, str]] = []

    def rule(outcomes: dict[frozenset[str], str | None]) -> None:
        """Set every match's board by rulings: the named team wins by 1, or a draw (None);
        every room is +1 or +2 to N–S, so both teams of a draw gain the same levels."""
        for (rnd, table), (x, y) in sorted(ledger.matches.items()):
            winner = outcomes[frozenset((x, y))]
            o, c = (2, 1) if winner == x else (1, 2) if winner == y else (1, 1)
            for room, ns in (("open", o), ("closed", c)):
                key = (rnd, table, ledger.boards(rnd)[0], room)
                if ledger.rulings.get(key) == ns:
                    continue
                cli(url, "correct", ledger.name, "--round", str(rnd), "--table", str(table),
                    "--board", str(key[2]), "--room", room, "--result", f"NS +{ns}",
                    "--by", "TD Ma", "--reason", "set by the test")  # fmt: skip
                ledger.rulings[key] = ns
                calls.append(key)

    def decided() -> dict[str, str | None]:
        rows = check_standings(url, ledger, 3)
        assert cli(url, "standings", ledger.name, "--json") == rows
        return {r["team"]: r["decided_by"] for r in rows}

    def m(a: str, b: str) -> frozenset[str]:
        return frozenset((a, b))

    # everything drawn, every team 1 level a board: only the lots separate them
    rule({m(p1, p2): None, m(p3, p4): None, m(p1, p3): None, m(p2, p4): None,
          m(p1, p4): None, m(p2, p3): None})  # fmt: skip
    by = decided()
    assert sorted(by.values(), key=str) == [None, "draw", "draw", "draw"]
    # p1 draws everything (3 points, 累进分 2+3 = 5, no round won); p4 wins,
    # loses, draws (3 points, 累进分 2+3 = 5, a round won): rounds won separates them
    rule({m(p1, p2): None, m(p1, p3): None, m(p1, p4): None, m(p3, p4): p4,
          m(p2, p4): p2, m(p2, p3): p2})  # fmt: skip
    assert by != (by := decided()) and by[p1] == "rounds_won"
    # p1 wins, loses, loses (2 points, 累进分 2+2 = 4); p4 loses, loses, wins (2 points,
    # 累进分 0+2 = 2): 累进分 separates them
    rule({m(p1, p2): p1, m(p1, p3): p3, m(p1, p4): p4, m(p3, p4): p3,
          m(p2, p4): p2, m(p2, p3): None})  # fmt: skip
    by = decided()
    assert by[p4] == "progressive"
    log = cli(url, "corrections", ledger.name, "--json")
    assert [(c["round"], c["table"], c["board"], c["room"]) for c in log] == calls
    assert log[0]["before"] == "no result" and log[0]["after"] == "NS +1 (director's ruling)"


def test_even_swiss_until_no_pairing_is_left(migrated_engine: Engine, tmp_path: Path) -> None:
    """4 teams, Swiss, with more rounds than pairings without a repeat: rounds 1..3 as the
    backtracking search pairs them (no bye in an even field), then round 4 is refused with
    one clear line rather than repeating a match."""
    url = url_of(migrated_engine)
    teams = ["Spades", "Hearts", "Clubs", "Diamonds"]
    ledger, seed_file = new_event(
        url, tmp_path, "Even Cup", teams, seed="e7e", rounds=4, boards=2, scale="wdl"
    )
    met: set[frozenset[str]] = set()
    for rnd in (1, 2, 3):
        if rnd == 1:
            want, bye = round_one(teams, ledger.seed)
        else:
            want, bye = swiss([r["team"] for r in ledger.standings(rnd - 1)], met, Counter())
        assert bye is None
        matches = pair_and_play(url, ledger, seed_file, rnd)
        assert [(m["team_x"], m["team_y"]) for m in matches] == want, f"round {rnd}"
        met |= {frozenset(xy) for xy in want}
        ledger.load(url)
        assert cli(url, "score", ledger.name, "--round", str(rnd), "--json") == (
            ledger.score_rows(rnd)
        )
        check_standings(url, ledger, rnd)
    assert len(met) == 6
    assert "avoids a repeat" in cli_fails(url, "pair-round", ledger.name)
    assert len(cli(url, "matches", ledger.name, "--json")) == 6  # nothing half-stored


# --- defects found by this review, now fixed (regression tests) -----------------------------


def test_reimporting_the_record_with_correction_overrides_a_ruling(
    migrated_engine: Engine, tmp_path: Path
) -> None:
    """A director rules on a room, then decides the record stands after all and imports it
    again with ``--correction --by --reason``: the record's result must be restored and the
    second correction logged (DUPLICATE.md: every correction kept with who and why)."""
    url = url_of(migrated_engine)
    ledger, seed_file = new_event(
        url, tmp_path, "Undo Cup", ["Red", "Blue"], seed="0d0", rounds=1, boards=1,
        scale="wdl", fmt="rr",
    )  # fmt: skip
    cli(url, "pair-round", ledger.name)
    cli(url, "assign-boards", ledger.name, "--round", "1", "--seed-file", str(seed_file))
    played = tmp_path / "played.gdn"
    cli(url, "play-bots", ledger.name, "--round", "1", "-o", str(played))
    rec = loads(played.read_text(encoding="utf-8"))[0]
    assert rec.tags["Room"] == "Open"
    ns = replay_ns(rec)
    assert ns is not None
    cli(url, "correct", ledger.name, "--round", "1", "--table", "1", "--board", "1",
        "--room", "open", "--result", f"{'EW' if ns > 0 else 'NS'} +{abs(ns)}",
        "--by", "TD Zhou", "--reason", "claim disputed")  # fmt: skip
    assert cli(url, "boards", ledger.name, "1", "1", "--json")[0]["open"] == f"{-ns:+d}"
    again = tmp_path / "again.gdn"
    again.write_text(format_record(rec), encoding="utf-8")
    summary = cli(url, "import", ledger.name, str(again), "--correction", "--by", "TD Zhou",
                  "--reason", "the claim stands after all", "--json")["total"]  # fmt: skip
    assert summary["corrected"] == 1
    assert cli(url, "boards", ledger.name, "1", "1", "--json")[0]["open"] == f"{ns:+d}"
    assert len(cli(url, "corrections", ledger.name, "--json")) == 2


def test_correction_times_say_they_are_utc(migrated_engine: Engine, tmp_path: Path) -> None:
    """``event corrections`` gives when each correction was made as an ISO time with its UTC
    offset on every database (docs/EVENTS.md: 'who, when (UTC), why')."""
    url = url_of(migrated_engine)
    ledger, seed_file = new_event(
        url, tmp_path, "When Cup", ["Red", "Blue"], seed="0d1", rounds=1, boards=1,
        scale="wdl", fmt="rr",
    )  # fmt: skip
    cli(url, "pair-round", ledger.name)
    cli(url, "assign-boards", ledger.name, "--round", "1", "--seed-file", str(seed_file))
    cli(url, "correct", ledger.name, "--round", "1", "--table", "1", "--board", "1",
        "--room", "open", "--result", "NS +1", "--by", "TD", "--reason", "ruling")  # fmt: skip
    (entry,) = cli(url, "corrections", ledger.name, "--json")
    at = datetime.fromisoformat(entry["at"])
    assert at.utcoffset() == timedelta(0)
