"""The newcomer's first command (``guandan demo``): the whole service at work in seconds.

On an embedded SQLite file (or any database URL) it migrates the schema, generates a fair
board set from a seed, creates a two-team event, seats a match in the open and closed rooms
(RULES.md §11), lets the self-play bots play every board in both rooms, imports the records
(each replayed and checked against the stored board), scores the match, and writes the
HTML report. Everything goes through the same library calls as ``guandan event``.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from duplicate import events, vocab
from duplicate.db import make_engine, upgrade
from duplicate.dealing import SECRET_BYTES, parse_seed_file, seed_file_bytes
from duplicate.errors import DuplicateError
from duplicate.i18n import translator
from duplicate.review.source import write_event_site
from engine.seat import Seat

#: The demo's database when none is given: a SQLite file in the current directory.
DEFAULT_DB = "sqlite:///guandan-demo.sqlite"

#: The two demo teams and their players (pairs: players 1–2 and 3–4).
TEAMS: tuple[tuple[str, tuple[str, str, str, str]], ...] = (
    ("East Lake", ("Zhang Wei", "Li Na", "Wang Fang", "Liu Yang")),
    ("West Hill", ("Chen Jing", "Yang Lei", "Zhao Min", "Huang Tao")),
)


class DemoError(DuplicateError):
    """The demo cannot run: a bad seed, or that seed's demo is already in the database."""


@dataclass(frozen=True, slots=True)
class DemoResult:
    """What the demo made: the event, its one match board by board, the report's index."""

    event: str
    seed: str
    match: events.MatchInfo
    boards: tuple[events.BoardRow, ...]
    score: events.ScoredMatch
    report: Path


def demo_secret(seed: str) -> bytes:
    """The board set's 32-byte secret, stretched from the demo seed with SHA-256."""
    return hashlib.sha256(b"guandan-demo/" + seed.encode("ascii")).digest()


def run_demo(
    db_url: str = DEFAULT_DB,
    outdir: str | os.PathLike[str] = "guandan-demo-report",
    seed: str | None = None,
    boards: int = 8,
    echo: Callable[[str], None] | None = None,
    lang: str = "en",
) -> DemoResult:
    """Run the demo (see the module docstring); ``echo`` receives one line per step, in
    ``lang`` (the report is written in it too)."""
    say = echo or (lambda _line: None)
    t = translator(lang)

    def seating(players: tuple[str, ...]) -> str:
        return t("list.sep").join(
            f"{s.name if lang == 'en' else vocab.seat_name(s, lang)} {p}"
            for s, p in zip(Seat, players, strict=True))
    # 256 bits, as every secret seed of the project (dealing.SECRET_BYTES)
    seed = (secrets.token_hex(SECRET_BYTES) if seed is None else seed).strip().lower()
    if not re.fullmatch(r"[0-9a-f]+", seed) or len(seed) > 2 * SECRET_BYTES:
        raise DemoError(
            f"the seed must be hexadecimal, at most {2 * SECRET_BYTES} digits (e.g. 1f2e), "
            f"not {seed!r}"
        )
    seed_file = parse_seed_file(seed_file_bytes(demo_secret(seed)))
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        say(t("demo.migrated", url=engine.url.render_as_string()))
        # named by the board set's commitment, which tells nothing of the seed
        name = f"Demo {seed_file.commitment[:12]}"
        if any(e.name == name for e in events.list_events(engine)):
            raise DemoError(
                "this database already holds the demo of that seed: give another --seed "
                "or a fresh --db"
            )
        events.create_event(engine, name, seed=seed, fmt="rr", rounds=1, boards_per_round=boards)
        for team, players in TEAMS:
            events.add_team(engine, name, team, players)
        rnd = events.pair_round(engine, name)
        match = rnd.matches[0]
        say(t("demo.event", name=name, x=match.team_x, y=match.team_y,
              boards=t("count.boards", n=boards)))
        say("  " + t("demo.open", seats=seating(match.open_players)))
        say("  " + t("demo.closed", seats=seating(match.closed_players)))
        assigned = events.assign_boards(engine, name, 1, seed=seed_file)
        say(t("demo.set", name=assigned.board_set, commitment=seed_file.commitment[:16]))
        played = events.play_bots(engine, name, 1)
        say(t("demo.played", n=played.records))
        scored = events.score_event(engine, name, 1)[0]
        rows = events.match_boards(engine, name, 1, match.table)
        index = write_event_site(engine, name, str(outdir), None if lang == "en" else lang).index
    finally:
        engine.dispose()
    return DemoResult(name, seed, match, tuple(rows), scored, index)
