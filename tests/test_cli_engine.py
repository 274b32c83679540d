"""The engine commands of the CLI (``guandan read``, ``guandan plays``) through CliRunner."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli import main
from engine.cards import parse_cards, parse_level
from engine.moves import legal_plays, legal_readings

HAND = "S2 S2 H3 C4 D5 S6 H7 H7 S9 ST CJ DQ SK SA SB HR"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_read_prints_every_reading_in_the_given_order() -> None:
    code, out = run("read", "--level", "7", "S5", "H7", "D5", "C5")
    assert code == 0
    assert out == "Bomb 5  S5 H7 D5 C5\n"
    code, out = run("read", "--level", "2", "H2 S3 C4 D5 S6")  # one quoted argument works too
    assert code == 0
    assert out == "Straight 2  H2 S3 C4 D5 S6\nStraight 3  H2 S3 C4 D5 S6\n"


def test_read_json_and_variants() -> None:
    code, out = run("read", "--level", "7", "--json", "S5", "S5", "C5", "H7", "H7")
    assert code == 0
    assert json.loads(out) == [
        {"type": "ThreeWithTwo", "rank": "5", "cards": ["S5", "S5", "C5", "H7", "H7"]},
        {"type": "Bomb", "rank": "5", "cards": ["S5", "S5", "C5", "H7", "H7"]},
    ]
    code, out = run("read", "--level", "7", "--bomb-max", "4", "S5", "S5", "C5", "H7", "H7")
    assert out == "ThreeWithTwo 5  S5 S5 C5 H7 H7\n"
    code, out = run("read", "--level", "7", "--no-joker-pair", "SA CA DA SB SB")
    assert (code, out) == (0, "SA CA DA SB SB: no combination at level 7\n")
    code, out = run("read", "--level", "7", "--json", "S3", "S5")
    assert (code, json.loads(out)) == (0, [])


def test_read_errors_name_the_bad_token() -> None:
    code, out = run("read", "--level", "7", "S5", "X7")
    assert code == 1
    assert "invalid card 'X7'" in out
    code, out = run("read", "--level", "Z", "S5")
    assert code == 1 and "invalid rank 'Z'" in out
    code, out = run("read", "--level", "7")
    assert code == 2  # usage error: cards required


def test_plays_readings_match_the_library() -> None:
    code, out = run("plays", "--level", "7", "--hand", HAND)
    assert code == 0
    lines = out.splitlines()
    expected = legal_readings(parse_cards(HAND), parse_level("7"))
    assert lines[-1] == f"{len(expected)} legal readings"
    assert len(lines) == len(expected) + 1
    assert lines[0] == "Single 2         S2"
    assert "StraightFlush 9  S9 ST SK H7 H7" in lines  # wilds listed last
    assert "Pair 7           H7 H7" in lines


def test_plays_follow_and_all_json() -> None:
    code, out = run(
        "plays", "--level", "7", "--hand", HAND, "--follow", "Straight 3 S3 H4 C5 D6 H7"
    )
    assert code == 0
    assert out.splitlines()[0] == "Straight 4       C4 D5 S6 H7 H7"
    assert out.splitlines()[-1] == "11 legal readings beating Straight 3"
    code, out = run(
        "plays", "--level", "7", "--hand", HAND, "--follow", "S3 H4 C5 D6 H7", "--all", "--json"
    )
    assert code == 0
    data = json.loads(out)
    hand, level = parse_cards(HAND), parse_level("7")
    to_beat = next(c for c in legal_plays(hand, level) if c.describe() == "Straight 3")
    assert len(data) == sum(1 for _ in legal_plays(hand, level, to_beat))
    assert {"type": "Bomb", "rank": "2", "cards": ["S2", "S2", "H7", "H7"]} in data
    assert all(set(d) == {"type", "rank", "cards"} for d in data)


def test_plays_nothing_to_play_and_errors() -> None:
    code, out = run("plays", "--level", "7", "--hand", "S2 S3", "--follow", "Bomb 2 S2 C2 D2 D2")
    assert (code, out) == (0, "no legal play beating Bomb 2: pass\n")
    code, out = run(
        "plays", "--level", "7", "--hand", "S2 S3", "--follow", "Straight 4 S3 H4 C5 D6 H7"
    )
    assert code == 1
    assert "S3 H4 C5 D6 H7 is not Straight 4 at level 7" in out
    code, out = run("plays", "--level", "7", "--hand", "S2 S2 S2")
    assert code == 1 and "more than twice" in out
    code, out = run("plays", "--level", "7", "--hand", "S2", "--follow", "Pare 2 S2 C2")
    assert code == 1 and "unknown combination type 'Pare'" in out


def test_plays_csv() -> None:
    code, out = run("plays", "--level", "7", "--hand", "S2 S2", "--csv")
    assert code == 0
    assert out == "type,rank,cards\nSingle,2,S2\nPair,2,S2 S2\n"


def test_engine_commands_have_help() -> None:
    for cmd in ("read", "plays"):
        code, out = run(cmd, "--help")
        assert code == 0
        assert "--json" in out and "--level" in out
