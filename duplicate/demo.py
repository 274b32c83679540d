"""The newcomer's first command (``guandan demo``): the whole service at work in seconds.

On an embedded SQLite file (or any database URL) it migrates the schema, generates a fair
board set from a seed, creates a two-team event, seats a match in the open and closed rooms
(RULES.md §11), lets the self-play bots play every board in both rooms, imports the records
(each replayed and checked against the stored board), scores the match, and writes the
HTML report. Everything goes through the same library calls as ``guandan event``.

For the hall service (``guandan demo --serve``, ``hall=True``) the event has four teams
(a round robin of three rounds): round 1 is played by the bots, then run through the hall
as a director would (clock started, closed, published); round 2 is paired, dealt from the
same secret seed, its table cards issued and its clock running, one board reported and
confirmed and one waiting for North: :func:`open_next_round`. The table cards' tokens are
returned to the caller only (who shows them on a page of the demo's own).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine

from duplicate import events, hall
from duplicate.db import display_url, make_engine, upgrade
from duplicate.dealing import SECRET_BYTES, SeedFile, parse_seed_file, seed_file_bytes
from duplicate.errors import DuplicateError
from duplicate.events.site import write_event_site
from duplicate.i18n import game as vocab
from duplicate.i18n import phrase, translator
from duplicate.review.site import MANIFEST
from engine.seat import Seat

#: The demo's database when none is given: a SQLite file in the current directory.
DEFAULT_DB = "sqlite:///guandan-demo.sqlite"

#: Who runs the demo's hall.
DIRECTOR = "director"

#: The two demo teams and their players (pairs: players 1–2 and 3–4).
TEAMS: tuple[tuple[str, tuple[str, str, str, str]], ...] = (
    ("East Lake", ("Zhang Wei", "Li Na", "Wang Fang", "Liu Yang")),
    ("West Hill", ("Chen Jing", "Yang Lei", "Zhao Min", "Huang Tao")),
)


#: Two more teams for the hall's demo (a second round needs four teams: no rematch).
HALL_TEAMS: tuple[tuple[str, tuple[str, str, str, str]], ...] = (
    ("South Gate", ("Sun Hui", "Zhou Jie", "Wu Qiang", "Xu Ming")),
    ("North Bridge", ("Ma Li", "Zhu Hong", "Hu Jun", "Guo Ping")),
)


#: A demo's event: named by its board set's commitment (:func:`run_demo`).
DEMO_EVENT = re.compile(r"Demo [0-9a-f]{12}")

#: The page of table links only ``guandan demo --serve`` writes beside its report.
TABLES_PAGE = "tables.html"


def holds_demo_report(outdir: str | os.PathLike[str]) -> bool:
    """Whether ``outdir`` holds a demo's report and nothing else: its manifest names a
    demo's event and every file there is one of that report's pages, the manifest or
    the demo's :data:`TABLES_PAGE`. Such a folder is the demo's own, which the served demo
    (``guandan demo --serve`` after ``guandan demo``, as README shows) writes over."""
    import json

    folder = Path(outdir)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        names = {p.name for p in folder.iterdir()}
    except (OSError, ValueError):
        return False
    if not isinstance(manifest, dict) or not isinstance(manifest.get("event"), str):
        return False
    pages = manifest.get("pages")
    ours = {MANIFEST, TABLES_PAGE, *(pages if isinstance(pages, dict) else ())}
    return bool(DEMO_EVENT.fullmatch(manifest["event"])) and names <= ours


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
    #: the hall's demo: round 2's table cards (tokens in plain text), else empty
    cards: tuple[hall.TableCard, ...] = ()


def demo_secret(seed: str) -> bytes:
    """The board set's 32-byte secret, stretched from the demo seed with SHA-256."""
    return hashlib.sha256(b"guandan-demo/" + seed.encode("ascii")).digest()


def run_demo(
    db_url: str = DEFAULT_DB,
    outdir: str | os.PathLike[str] = "guandan-demo-report",
    seed: str | None = None,
    boards: int = 8,
    echo: Callable[[str], None] | None = None,
    hall_round: bool = False,
    lang: str = "en",
) -> DemoResult:
    """Run the demo (see the module docstring); ``echo`` receives one line per step, in
    ``lang`` (the report is written in it too). ``hall_round``: four teams, round 1 closed
    and published, round 2 running (:func:`open_next_round`)."""
    say = echo or (lambda _line: None)
    t = translator(lang)

    def seating(players: tuple[str, ...]) -> str:
        return t("list.sep").join(
            f"{s.name if lang == 'en' else vocab.seat_name(s, lang)} {p}"
            for s, p in zip(Seat, players, strict=True))
    # 256 bits, as every secret seed of the project (dealing.SECRET_BYTES)
    seed = (secrets.token_hex(SECRET_BYTES) if seed is None else seed).strip().lower()
    if not re.fullmatch(r"[0-9a-f]+", seed) or len(seed) > 2 * SECRET_BYTES:
        raise DemoError(phrase("demo.err.seed", most=2 * SECRET_BYTES, seed=repr(seed)))
    if hall_round and boards < 2:  # open_next_round reports one board and leaves another
        raise DemoError(phrase("demo.err.serve_boards"))
    seed_file = parse_seed_file(seed_file_bytes(demo_secret(seed)))
    engine = make_engine(db_url)
    try:
        upgrade(engine)
        say(t("demo.migrated", url=display_url(engine.url)))
        # named by the board set's commitment, which tells nothing of the seed
        name = f"Demo {seed_file.commitment[:12]}"
        if any(e.name == name for e in events.list_events(engine)):
            raise DemoError(phrase("demo.err.exists"))
        teams = TEAMS + HALL_TEAMS if hall_round else TEAMS
        events.create_event(engine, name, seed=seed, fmt="rr", rounds=len(teams) - 1,
                            boards_per_round=boards)
        for team, players in teams:
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
        # each board at each table in both rooms: say boards, tables and records apart
        say(t("demo.played", n=played.records, boards=t("count.boards", n=boards),
              tables=t("demo.tables", n=len(rnd.matches))))
        scored = events.score_event(engine, name, 1)[0]
        rows = events.match_boards(engine, name, 1, match.table)
        cards = open_next_round(engine, name, seed_file, say, lang) if hall_round else []
        index = write_event_site(engine, name, str(outdir), None if lang == "en" else lang).index
    finally:
        engine.dispose()
    return DemoResult(name, seed, match, tuple(rows), scored, index, tuple(cards))


def open_next_round(
    engine: Engine, name: str, seed_file: SeedFile, say: Callable[[str], None],
    lang: str = "en",
) -> list[hall.TableCard]:
    """Round 1 (played) through the hall: started, closed, published; round 2 paired,
    dealt, its cards issued and its clock running, table 1's open room having reported
    and confirmed its first board and reported its second (waiting for North). Round 2's
    cards; ``say`` receives the steps in ``lang``."""
    t = translator(lang)
    hall.start_round(engine, name, 1, DIRECTOR)
    hall.close_round(engine, name, 1, DIRECTOR)
    hall.publish_round(engine, name, 1, DIRECTOR)
    say(t("out.demo.published", round=1))
    rnd = events.pair_round(engine, name)
    events.assign_boards(engine, name, rnd.number, seed=seed_file)
    cards = hall.issue_tokens(engine, name, rnd.number, DIRECTOR)
    hall.start_round(engine, name, rnd.number, DIRECTOR)
    first = next(c for c in cards if (c.table, c.room) == (1, "open"))
    boards = events.get_round(engine, name, rnd.number).boards
    report, _ = hall.west_report(engine, first.report_token, boards[0], finish="N S E")
    hall.north_confirm(engine, first.confirm_token, boards[0], report.id)
    hall.west_report(engine, first.report_token, boards[1], finish="E W")
    tables = len({c.table for c in cards})
    say(t("out.demo.round_running", round=rnd.number, tables=tables, first=boards[0],
          last=boards[-1], second=boards[1]))
    return cards
