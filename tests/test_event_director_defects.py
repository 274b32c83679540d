"""What a newcomer running a 4-team Swiss event found (the director's side):

4. "pair it first" for a round the event can never have.

On SQLite, and on PostgreSQL when configured (the ``migrated_*`` fixtures)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Engine

from cli import main
from duplicate import events
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
CUP = "Huai'an Cup"
TEAMS = ["淮安队", "Eagles", "Lions", "Tigers"]


def run(url: str, *args: str, lang: str = "en") -> Result:
    return CliRunner().invoke(main, ["--lang", lang, "event", "--db", url, *args])


def ok(url: str, *args: str, lang: str = "en") -> str:
    r = run(url, *args, lang=lang)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    eng = make_engine(migrated_url)
    try:
        yield eng
    finally:
        eng.dispose()


def _event(engine: Engine, rounds: int = 3, boards: int = 1) -> None:
    """The README's event: 4 teams, Swiss, 20-VP scale (a bye scores 12)."""
    events.create_event(engine, CUP, seed="ab", boards_per_round=boards, rounds=rounds,
                        scale="vp20")
    for i, team in enumerate(TEAMS, 1):
        events.add_team(engine, CUP, team, [f"P{i}{j}" for j in range(1, 5)])


def _play_round(engine: Engine) -> int:
    rnd = events.pair_round(engine, CUP)
    events.assign_boards(engine, CUP, rnd.number, seed=SEED)
    events.play_bots(engine, CUP, rnd.number)
    events.score_event(engine, CUP, rnd.number)
    return rnd.number


def _text(html: str) -> str:
    """A page's visible text, its tags as spaces."""
    html = re.sub(r"<head>.*?</head>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


# --- 4. a round beyond the event's rounds ----------------------------------------------


def test_a_round_the_event_never_has_is_named_as_such(engine: Engine, migrated_url: str) -> None:
    _event(engine)
    _play_round(engine)
    for args in (("standings", CUP, "--after", "9"), ("score", CUP, "--round", "9"),
                 ("boards", CUP, "9", "1"), ("matches", CUP, "--round", "9")):
        r = run(migrated_url, *args)
        assert r.exit_code == 1, args
        assert "has only 3 rounds: there is no round 9" in r.output, r.output
        assert "pair it first" not in r.output
        assert "只有3轮，没有第9轮" in run(migrated_url, *args, lang="zh").output
    # a round still to come is paired first
    assert "pair it first" in run(migrated_url, "score", CUP, "--round", "2").output


# --- 5. words -------------------------------------------------------------------------


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)
