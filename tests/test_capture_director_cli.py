"""The director's side of captured boards at the command line: ``guandan event live``
sets the live view and prints a spectator link that opens it; ``event correct-play``,
``stop-capture`` and ``take-back`` change a captured board, print before
and after, and refuse (exit 1, one line) what the library refuses; in both languages."""

from __future__ import annotations

from click.testing import CliRunner
from sqlalchemy import Engine
from test_hall_support import EVENT, make_event, minutes

from cli import main
from duplicate import capture


def _run(url: str, *args: str, lang: str = "en") -> tuple[int, str]:
    out = CliRunner().invoke(main, ["--lang", lang, "event", *args, "--db", url])
    return out.exit_code, out.output


def test_the_director_sets_the_live_view_and_prints_a_link(migrated_engine: Engine,
                                                            migrated_url: str) -> None:
    make_event(migrated_engine, boards=2)
    code, out = _run(migrated_url, "live", EVENT)
    assert code == 0 and "released, delay 15 minutes" in out
    code, out = _run(migrated_url, "live", EVENT, "--mode", "delayed", "--delay", "5", "--link",
                     "--public-url", "https://hall.example.org/")
    assert code == 0, out
    link = out.strip().splitlines()[-1].rsplit("/w/", 1)[1]
    assert capture.watch_event(migrated_engine, link) == EVENT
    assert capture.live_settings(migrated_engine, EVENT).delay == 5
    code, out = _run(migrated_url, "live", EVENT, "--link")
    assert code == 2  # a link needs the hall's address


def test_the_director_corrects_marks_and_takes_back_at_the_command_line(
        migrated_engine: Engine, migrated_url: str) -> None:
    e = migrated_engine
    make_event(e, boards=2)
    token = {(c.table, c.room): c.token
             for c in capture.issue_recorder_tokens(e, EVENT, 1, "director")}[(1, "open")]
    state = capture.start_board(e, token, 1, now=minutes(1))
    leader = state.leader
    capture.enter_action(e, token, 1, 1, leader, [state.hands[leader][0]], now=minutes(2))
    where = ["--round", "1", "--table", "1", "--room", "open", "--board", "1", "--by", "TD"]
    other = state.hands[leader][-1]
    code, out = _run(migrated_url, "correct-play", EVENT, *where, "--reason", "typo",
                     "--seq", "1", "--seat", leader, "--cards", other)
    assert code == 0, out
    assert f"after {leader} {other}" in out
    assert capture.board_state(e, token, 1).actions[0].cards == (other,)
    code, out = _run(migrated_url, "correct-play", EVENT, *where, "--reason", "typo",
                     "--seq", "4", "--seat", leader, lang="zh")
    assert code == 1 and "没有第4步可更正" in out
    code, out = _run(migrated_url, "take-back", EVENT, *where, "--reason", "x")
    assert code == 1 and "only an ended deal" in out
    code, out = _run(migrated_url, "stop-capture", EVENT, *where, "--reason", "time",
                     lang="zh")
    assert code == 0 and "未完成" in out
    assert capture.live_board(e, EVENT, 1, 1, 1, capture.DIRECTOR).rooms[0].state == "unfinished"
