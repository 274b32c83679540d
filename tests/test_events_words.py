"""The events' guards on stored data (nothing to score, no boards assigned, a board not
of the round, a release made already) in the reader's language, English unchanged."""

from __future__ import annotations

from datetime import UTC, datetime

from test_cli_click_words import english_left, run

from duplicate.i18n import phrase


def test_nothing_to_score_in_both_languages(migrated_url: str) -> None:
    assert run("event", "--db", migrated_url, "create", "Cup")[0] == 0
    code, zh = run("--lang", "zh", "event", "--db", migrated_url, "score", "Cup")
    assert (code, zh) == (1, "错误：赛事“Cup”没有可计分的对局：请先编排一轮\n")
    code, en = run("event", "--db", migrated_url, "score", "Cup")
    assert (code, en) == (1, "Error: event 'Cup' has no match to score: pair a round first\n")


def test_the_guards_words() -> None:
    from duplicate.zones import When

    said = phrase("out.release.already", event="'Cup'", round=2, board=3, by="'Lee'",
                  when=When(datetime(2026, 12, 1, 12, 15, tzinfo=UTC), "Asia/Shanghai"))
    assert str(said) == ("event 'Cup', round 2, board 3 was already released by 'Lee' at "
                         "1 Dec 2026 20:15 (UTC+8)")
    assert said.text("zh").startswith("赛事“Cup”第2轮第3副已由“Lee”于2026年12月1日")
    assert english_left(said.text("zh").replace("UTC", "")) == []
    said = phrase("events.err.not_round_board", round=2, first=5, last=8, board=9)
    assert str(said) == "round 2 plays boards 5 to 8, not board 9"
    assert said.text("zh") == "第2轮打的是第5至8副，没有第9副"
    said = phrase("events.err.no_boards", event="'Cup'", round=1)
    assert str(said) == "event 'Cup', round 1 has no boards assigned"
    assert said.text("zh") == "赛事“Cup”第1轮还没有分配牌"


def test_a_change_without_its_why_in_both_languages(migrated_url: str) -> None:
    assert run("event", "--db", migrated_url, "create", "Cup")[0] == 0
    long = "r" * 3000
    args = ("event", "--db", migrated_url, "time-zone", "Cup", "Asia/Shanghai", "--by", "Lee",
            "--reason", long)
    code, zh = run("--lang", "zh", *args)
    assert code == 1 and zh.startswith("错误：修改赛事的时区：原因有 3,000 个字符，最多 500 个")
    code, en = run(*args)
    assert en.startswith("Error: changing an event's time zone: the reason is 3,000 "
                         "characters, at most 500")


def test_every_change_the_events_check_has_its_words() -> None:
    """Each ``checked(by, reason, "what")`` of the library names a change the catalogue
    words (duplicate.events.log._WHAT)."""
    import re
    from pathlib import Path

    from duplicate.events.log import _WHAT
    from duplicate.i18n import messages

    root = Path(__file__).parent.parent / "duplicate"
    found = {m for path in root.rglob("*.py")
             for m in re.findall(r'checked\([^()]*?, "([^"]+)"\)', path.read_text("utf-8"))}
    assert len(found) >= 10
    assert sorted(found - set(_WHAT)) == []
    assert all(key in messages() for key in _WHAT.values())
