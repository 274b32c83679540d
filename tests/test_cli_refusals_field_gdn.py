"""The refusals of an event's creation and teams file (``duplicate.events.field``) and of a
``.gdn`` record (``duplicate.gdn``) in the output's language: each in Chinese with no
untranslated word, and in English as the library always worded it."""

from __future__ import annotations

import re
from pathlib import Path

from test_cli_refusals_lang import chinese, run

#: the .gdn tags and tokens a record error names as the file writes them
TAGS = ("Deal", "Finish", "Result", "Level", "Leader", "Play", "PASS")


def zh_words_left(text: str) -> list[str]:
    """The untranslated words of a Chinese line, the file's tags aside."""
    for tag in TAGS:
        text = text.replace(tag, " ")
    return chinese(text)


def test_event_creation_refusals_in_chinese(migrated_url: str, tmp_path: Path) -> None:
    teams = tmp_path / "teams.txt"
    teams.write_text("Tigers: A, B, C, D\nno colon here\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    assert run("event", "--db", migrated_url, "create", "Cup")[0] == 0
    db = ["event", "--db", migrated_url, "create"]
    for args, zh_words, en_line in (
        ([*db, "Cup"], "名为 'Cup' 的比赛已存在", "an event named 'Cup' already exists"),
        ([*db, "Two", "--seed", "xyz"], "比赛种子须为1到128位十六进制数字，而不是 'xyz'",
         "the event seed must be 1 to 128 hexadecimal digits, not 'xyz'"),
        ([*db, "Two", "--bye-points", "1.234"], "轮空得分须不小于0、最多两位小数，而不是 1.234",
         "bye points must be 0 or more with two decimals, not 1.234"),
        ([*db, "Two", "--teams-file", str(teams)], "teams.txt:2：应写成 '队名: 队员, 队员, ...' 的格式",
         f"{teams}:2: expected 'TEAM: player, player, ...'"),
        ([*db, "Two", "--teams-file", str(empty)], "empty.txt：文件中没有队伍",
         f"{empty}: no team in the file"),
        ([*db, "Two", "--teams-file", str(tmp_path / "none.txt")], "无法读取队伍文件",
         f"cannot read teams file '{tmp_path / 'none.txt'}': No such file or directory"),
    ):
        code, zh = run("--lang", "zh", *args)
        assert code == 1 and zh_words in zh, zh
        line = next(x for x in zh.splitlines() if zh_words in x)
        assert chinese(re.sub(r"'[^']*'|\S+\.txt:?\d*", " ",
                                     line.replace("No such file or directory", ""))) == [], line
        code, en = run(*args)
        assert code == 1 and en.strip() == f"Error: {en_line}", en
