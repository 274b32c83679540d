"""Bounded numbers and names (duplicate.limits), on SQLite and PostgreSQL alike: at and
past each limit the library, the command line and the API accept and refuse the same,
with a one-line error quoting at most a short prefix, never a traceback, SQLite's
OverflowError or PostgreSQL's "integer out of range" / "value too long"; and the smaller
defects of the store's audit (a negative Round tag, a broken pipe, double escapes,
times without a zone)."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DBAPIError

from cli import main
from duplicate import events, models
from duplicate.db import make_engine
from duplicate.dealing import parse_seed_file, seed_file_bytes
from duplicate.errors import DuplicateError
from duplicate.events import EventError
from duplicate.limits import INT_MAX, INT_MIN, TEXT_LIMITS, LimitError, check_int, shown

SEED = parse_seed_file(seed_file_bytes(bytes(range(32))))
FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
_COUNTER = itertools.count()
#: Letters, CJK, an accent that NFC composes, spaces: what names are made of.
ALPHABET = st.sampled_from(list("abcXYZ 张伟赵钱") + ["e\u0301"])


@pytest.fixture
def sqlite_url(_sqlite_template: Path, tmp_path: Path) -> str:
    """A migrated SQLite database, for what does not depend on the database (the checks
    run before any query; the hypothesis tests above cover both databases)."""
    path = tmp_path / "one.sqlite"
    shutil.copyfile(_sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def sqlite_engine(sqlite_url: str) -> Iterator[Engine]:
    engine = make_engine(sqlite_url)
    yield engine
    engine.dispose()


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return result.exit_code, result.output


def url_of(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


def unique(length: int, filler: str) -> str:
    """A name of exactly ``length`` characters (after NFC), unique in the test run."""
    head = f"{next(_COUNTER):05d}"
    body = unicodedata.normalize("NFC", (filler or "x") * length)
    return (head + body)[:length] if length > 0 else ""


# --- names ------------------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=FIXTURES)
@given(length=st.integers(TEXT_LIMITS["event"] - 2, TEXT_LIMITS["event"] + 3), filler=ALPHABET)
def test_event_names_at_and_past_the_limit(
    migrated_engine: Engine, length: int, filler: str
) -> None:
    name = unique(length, filler)
    if len(name.strip()) != len(name):
        name = name.strip() + "z" * (len(name) - len(name.strip()))
    try:
        info = events.create_event(migrated_engine, name, seed="ab")
    except DBAPIError as exc:  # what PostgreSQL said before: "value too long"
        pytest.fail(f"the database refused it, not the library: {exc}")
    except LimitError as exc:
        assert length > TEXT_LIMITS["event"]
        message = str(exc)
        assert "\n" not in message and len(message) < 200
        assert f"at most {TEXT_LIMITS['event']} characters" in message
        assert name not in message  # a short prefix only
        with migrated_engine.connect() as conn:
            assert not conn.scalar(select(func.count()).where(models.Event.name == name))
        return
    assert length <= TEXT_LIMITS["event"] and info.name == name
    assert events.get_event(migrated_engine, name).name == name


@settings(max_examples=10, deadline=None, suppress_health_check=FIXTURES)
@given(team=st.integers(195, 204), player=st.integers(195, 204), filler=ALPHABET)
def test_team_and_player_names_at_and_past_the_limit(
    migrated_engine: Engine, team: int, player: int, filler: str
) -> None:
    event = f"Ev {next(_COUNTER)}"
    events.create_event(migrated_engine, event, seed="ab")
    name = "T" + unique(team - 1, filler).replace(" ", "t")
    players = ["P" + unique(player - 1, filler).replace(" ", "p") for _ in range(4)]
    try:
        events.add_team(migrated_engine, event, name, players)
    except LimitError as exc:
        assert team > TEXT_LIMITS["team"] or player > TEXT_LIMITS["player"]
        assert "\n" not in str(exc) and len(str(exc)) < 200
        assert events.list_teams(migrated_engine, event) == []
        return
    assert team <= TEXT_LIMITS["team"] and player <= TEXT_LIMITS["player"]
    stored = events.list_teams(migrated_engine, event)[0]
    assert stored.name == name and list(stored.players) == players


def test_the_command_line_and_renames_keep_the_same_limits(migrated_engine: Engine) -> None:
    url = url_of(migrated_engine)
    code, out = run("event", "--db", url, "create", "E" * 201, "--seed", "ab")
    assert code == 1 and "at most 200 characters, not 201" in out and len(out) < 200
    assert run("event", "--db", url, "create", "E" * 200, "--seed", "ab")[0] == 0
    assert run("event", "--db", url, "team", "add", "E" * 200, "T", "A", "B", "C", "D")[0] == 0
    code, out = run("event", "--db", url, "team", "add", "E" * 200, "U", "A2", "B2", "C2",
                    "P" * 100_000)
    assert code == 1 and len(out) < 300 and "100,000" in out
    with pytest.raises(LimitError, match="at most 200"):
        events.rename_team(migrated_engine, "E" * 200, "T", "N" * 201, by="TD", reason="typo")
    with pytest.raises(DuplicateError, match="at most 500"):
        events.rename_team(migrated_engine, "E" * 200, "T", "New", by="TD", reason="r" * 501)
    events.rename_team(migrated_engine, "E" * 200, "T", "N" * 200, by="TD", reason="r" * 500)
    code, out = run("event", "--db", url, "withdraw", "E" * 200, "X" * 100_000,
                    "--by", "TD", "--reason", "r")  # a look-up quotes a short prefix too
    assert code == 1 and "has no team named" in out and "100,000 characters" in out
    assert len(out) < 400
    with pytest.raises(EventError, match="1 to 128 hexadecimal digits"):
        events.create_event(migrated_engine, "Seeded", seed="ab" * 65)  # not 'value too long'
    assert events.create_event(migrated_engine, "Seeded", seed="ab" * 64).name == "Seeded"


@pytest.mark.parametrize("name", [".", "..", " .. ", "\u3000.\u3000"])
def test_event_names_no_address_reaches_are_refused(migrated_engine: Engine, name: str) -> None:
    with pytest.raises(LimitError, match="no web address reaches it"):
        events.create_event(migrated_engine, name, seed="ab")
    code, out = run("event", "--db", url_of(migrated_engine), "create", name, "--seed", "ab")
    assert code == 1 and "no web address" in out
    assert events.list_events(migrated_engine) == []
    events.create_event(migrated_engine, "2026/27 Cup", seed="ab")  # a slash is reachable


def test_errors_escape_a_control_character_once(migrated_engine: Engine) -> None:
    code, out = run("event", "--db", url_of(migrated_engine), "create", "a\x1bb", "--seed", "ab")
    assert code == 1
    assert "'a\\x1bb'" in out and "\\\\x1b" not in out and "\x1b" not in out


def test_a_long_set_name_is_not_echoed(migrated_engine: Engine, tmp_path: Path) -> None:
    seed = tmp_path / "seed.json"
    seed.write_bytes(seed_file_bytes(bytes(range(32))))
    code, out = run("deals", "--db", url_of(migrated_engine), "generate", str(seed), "-n", "2",
                    "--name", "S" * 100_000)
    error = out.strip().splitlines()[-1]  # after the seed file's warning
    assert code == 1 and len(error) < 200 and "100,000 characters" in error
    code, out = run("deals", "--db", url_of(migrated_engine), "show", "S" * 100_000)
    assert code == 1 and len(out) < 300


# --- numbers ------------------------------------------------------------------------------

BIG = st.one_of(st.integers(INT_MAX - 1, INT_MAX + 2), st.integers(2**31, 2**80),
                st.integers(-(2**80), INT_MIN + 1), st.just(2**63), st.just(10**30))


@settings(max_examples=15, deadline=None, suppress_health_check=FIXTURES)
@given(number=BIG, which=st.sampled_from(["round", "table"]))
def test_numbers_past_32_bits_are_refused_before_any_query(
    migrated_engine: Engine, number: int, which: str
) -> None:
    if not events.list_events(migrated_engine):  # round 1 paired: its tables looked up
        events.create_event(migrated_engine, "Cup", seed="ab")
        for team in ("A", "B"):
            events.add_team(migrated_engine, "Cup", team, [f"{team}{i}" for i in range(4)])
        events.pair_round(migrated_engine, "Cup")
    round_no, table = (number, 1) if which == "round" else (1, number)
    try:
        events.match_boards(migrated_engine, "Cup", round_no, table)
    except LimitError as exc:
        assert not INT_MIN <= number <= INT_MAX
        assert "out of the range the store holds" in str(exc) and "\n" not in str(exc)
    except EventError as exc:  # a number the store holds: no such round or table
        assert INT_MIN <= number <= INT_MAX
        assert re.search("has no (round|table)|has only 3 rounds: there is no round", str(exc))
    with pytest.raises(LimitError, match="the number of rounds must be 1 to 2147483647"):
        events.create_event(migrated_engine, f"R {number}", seed="ab", rounds=max(number, 2**31))


def test_check_int_names_what_and_the_range() -> None:
    assert check_int(INT_MAX, "--round") == INT_MAX
    with pytest.raises(LimitError, match=r"^--round must be 1 to 2147483647, not 2147483648$"):
        check_int(INT_MAX + 1, "--round")
    with pytest.raises(LimitError, match="not a 31-digit number"):
        check_int(10**30, "--table")
    with pytest.raises(LimitError, match="not 0"):
        check_int(0, "--board")
    assert shown("x" * 50) == repr("x" * 40) + "… (50 characters)"


@pytest.mark.parametrize("args", [
    ("event", "boards", "Cup", "9223372036854775808", "1"),
    ("event", "boards", "Cup", "1", str(10**30)),
    ("event", "standings", "Cup", "--after", "9223372036854775808"),
    ("event", "matches", "Cup", "--round", "2147483648"),
    ("event", "create", "Big", "--rounds", "2147483648"),
    ("event", "correct", "Cup", "--round", "1", "--table", "1", "--board", str(2**64),
     "--room", "open", "--result", "NS +1", "--by", "TD", "--reason", "r"),
])
def test_the_command_line_refuses_huge_numbers_in_one_line(
    sqlite_engine: Engine, args: tuple[str, ...]
) -> None:
    events.create_event(sqlite_engine, "Cup", seed="ab")
    result = CliRunner().invoke(main, [*args[:2], "--db", url_of(sqlite_engine), *args[2:]])
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert "2147483647" in last and "Traceback" not in result.output
    assert "integer out of range" not in result.output and "Overflow" not in result.output


# --- a record's Round tag -----------------------------------------------------------------


def round_one(engine: Engine) -> str:
    """Event "Cup" with round 1 paired and given its boards; one bot record of it."""
    events.create_event(engine, "Cup", seed="ab", boards_per_round=2, rounds=2)
    for i in range(1, 5):
        events.add_team(engine, "Cup", f"T{i}", [f"P{i}{j}" for j in range(1, 5)])
    events.pair_round(engine, "Cup")
    events.assign_boards(engine, "Cup", 1, seed=SEED)
    return events.bot_records(engine, "Cup", 1)[0].strip().split("\n\n")[0] + "\n"


@pytest.mark.parametrize("tag", ["-1", "0", "10^30", str(10**30), "²", "1.5"])
def test_a_bad_round_tag_is_named_as_such(sqlite_engine: Engine, tag: str) -> None:
    record = round_one(sqlite_engine).replace('[Round "1"]', f'[Round "{tag}"]')
    assert f'[Round "{tag}"]' in record
    with pytest.raises(EventError) as info:
        events.import_texts(sqlite_engine, "Cup", [record])
    message = str(info.value)
    assert "no Round tag" not in message and "\n" not in message
    assert f"Round tag {tag!r} is not a number from 1 to 2147483647" in message
    assert events.match_boards(sqlite_engine, "Cup", 1, 1)[0].status == "not in yet"


def test_a_huge_board_tag_is_refused_in_one_line(migrated_engine: Engine) -> None:
    record = round_one(migrated_engine)
    board = next(line for line in record.splitlines() if line.startswith("[Board "))
    with pytest.raises(EventError, match="Board tag '9223372036854775808' is not a number"):
        events.import_texts(migrated_engine, "Cup",
                            [record.replace(board, '[Board "9223372036854775808"]')])


# --- the API -------------------------------------------------------------------------------


def test_the_api_answers_422_to_numbers_past_32_bits(sqlite_url: str) -> None:
    from helpers.hall import BEARER, EV, open_hall

    for h in open_hall(sqlite_url):
        c = h.client
        before = events.match_boards(h.engine, "Hall Cup", 1, 1)
        for method, path, body in (
            ("post", f"/api/events/{EV}/disputes/9223372036854775808/settle",
             {"reason": "r", "ns_result": 1}),
            ("post", f"/api/events/{EV}/rounds/1/corrections",
             {"table": 2**31, "board": 1, "room": "open", "ns_result": 1, "reason": "r"}),
            ("post", f"/api/events/{EV}/rounds/1/rulings",
             {"table": 1, "category": "warning", "effect": "none", "reason": "r",
              "board": 10**30}),
            ("post", f"/api/table/{h.token(1, 'open', 'report')}/reports",
             {"board": 2**40, "finish": "N S E"}),
            ("post", f"/api/table/{h.token(1, 'open', 'confirm')}/reports/{2**63}/confirm",
             None),
        ):
            r = c.request(method, path, json=body, headers=BEARER)
            assert r.status_code == 422, (path, r.text)
            assert r.json()["error"] == "invalid" and "\n" not in r.json()["message"]
        r = c.post(f"/api/events/{EV}/teams", headers=BEARER,
                   json={"name": "Long", "players": ["A", "B", "C", "P" * 500_000]})
        assert r.status_code == 422 and "at most 200" in r.json()["message"]
        assert events.match_boards(h.engine, "Hall Cup", 1, 1) == before


# --- smaller defects ---------------------------------------------------------------------


def test_json_times_carry_their_zone(migrated_engine: Engine, tmp_path: Path) -> None:
    url = url_of(migrated_engine)
    seed = tmp_path / "seed.json"
    seed.write_bytes(seed_file_bytes(bytes(range(32))))
    assert run("deals", "--db", url, "generate", str(seed), "-n", "1", "--name", "S")[0] == 0
    code, out = run("deals", "--db", url, "list", "--json")
    assert code == 0
    created = json.loads(out)[0]["created_at"]
    assert created.endswith("+00:00"), created
    events.create_event(migrated_engine, "Cup", seed="ab")
    code, out = run("event", "--db", url, "list", "--json")
    assert json.loads(out)[0]["created_at"].endswith("+00:00")


def test_a_closed_pipe_ends_the_demo_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.run(
        f"{sys.executable} -m cli demo --boards 1 | head -1", shell=True, cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=120,
    )
    assert proc.stdout.count("\n") == 1
    assert "Broken pipe" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
