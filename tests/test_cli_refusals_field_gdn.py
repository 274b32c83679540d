"""The refusals of an event's creation and teams file (``duplicate.events.field``) and of a
``.gdn`` record (``duplicate.gdn``) in the output's language: each in Chinese with no
untranslated word, and in English as the library always worded it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sqlalchemy import Engine
from test_cli_refusals_lang import chinese, run
from test_event_import_fixes import make_round

#: the .gdn tags and tokens a record error names as the file writes them
TAGS = ("Deal", "Finish", "Result", "Level", "Leader", "Play", "PASS")


def zh_words_left(text: str) -> list[str]:
    """The untranslated words of a Chinese line, the file's tags and seat letters aside."""
    text = text.replace("N、E、S 或 W", " ")
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
        ([*db, "Cup"], "名为“Cup”的赛事已存在", "an event named 'Cup' already exists"),
        ([*db, "Two", "--seed", "xyz"], "赛事种子须为1到128位十六进制数字，而不是“xyz”",
         "the event seed must be 1 to 128 hexadecimal digits, not 'xyz'"),
        ([*db, "Two", "--bye-points", "1.234"], "轮空得分须不小于0、最多两位小数，而不是 1.234",
         "bye points must be 0 or more with two decimals, not 1.234"),
        ([*db, "Two", "--teams-file", str(teams)], "teams.txt:2：应写成“队名: 队员, 队员, ...”的格式",
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


GOLDEN = Path(__file__).parent / "golden" / "gdn" / "openguandan-26-deals.gdn"


def test_gdn_record_errors_in_chinese(tmp_path: Path) -> None:
    deal = GOLDEN.read_text(encoding="utf-8").split("\n\n")[0]
    lines = deal.split("\n")
    passed = "\n".join([*lines[:7], "W PASS SQ", *lines[8:]])
    cases = (
        ("result.gdn", deal.replace('[Result "', '[Result "X'),
         "：Result 标签“XEW +3”无效：应写明哪一方升几级，如 \"NS +2\"",
         ": invalid Result 'XEW +3': expected a side and its levels, e.g. \"NS +2\""),
        ("finish.gdn", re.sub(r'\[Finish "[^"]*"\]', '[Finish "N Q"]', deal),
         "：Finish 标签中的座位“Q”无效：应为 N、E、S 或 W",
         ": invalid seat 'Q' in Finish: expected N, E, S or W"),
        ("pass.gdn", passed, ":8：西家：过（PASS）后面还有“SQ”", ":8: seat W: PASS with 'SQ' after it"),
        ("hand.gdn", deal.replace('[Deal "N:', '[Deal "N:SQ '),
         ":5：北家：北家的手牌有28张，不是27张", ":5: seat N: the hand of N has 28 cards, not 27"),
        ("notag.gdn", re.sub(r'\[Leader "[^"]*"\]\n', "", deal), "：这副牌没有 Leader 标签",
         ": the deal has no Leader tag"),
        ("twice.gdn", deal.replace("[Play]", "[Play]\n[Play]"), "：一副牌中有第二个 [Play]",
         ": a second [Play] in one deal"),
    )
    for name, text, zh_words, en_words in cases:
        path = tmp_path / name
        path.write_text(text + "\n", encoding="utf-8")
        code, zh = run("--lang", "zh", "replay", str(path))
        assert code == 1 and zh_words in zh, zh
        for line in (x for x in zh.splitlines() if zh_words in x):  # the row and the summary
            assert zh_words in line and zh_words_left(line.split(name)[-1]) == [], line
        code, en = run("replay", str(path))
        assert code == 1 and f"first: {path}:" in en and en_words in en, en
        code, js = run("--lang", "zh", "replay", "--json", str(path))
        assert en_words in json.loads(js)[0]["error"]  # rows for machines: English


def test_gdn_error_carries_its_phrase_through_a_process_boundary() -> None:
    import pickle

    from duplicate.gdn import GdnError, loads

    text = '[Board "1"]\n[Level "2"]\n[Leader "N"]\n[Deal "E:S3"]\n'
    with pytest.raises(GdnError) as info:
        loads(text, file="x.gdn", strict=True)
    back = pickle.loads(pickle.dumps(info.value))  # as --jobs sends it
    for exc in (info.value, back):
        assert str(exc) == "x.gdn:4: the Deal tag has no hand for N, S, W"
        assert exc.text("zh") == "x.gdn:4：Deal 标签没有北、南、西家的手牌"


def test_board_set_refusals_in_chinese(migrated_url: str, tmp_path: Path) -> None:
    seed = tmp_path / "cup.seed"
    assert run("deals", "seed", str(seed))[0] == 0
    deals = ["deals", "--db", migrated_url]
    assert run(*deals, "generate", str(seed), "-n", "3", "--name", "cup")[0] == 0
    code, text = run("deals", "generate", str(seed), "-n", "3", "--no-store")
    assert code == 0
    records = text.strip().split("\n\n")
    twice = tmp_path / "twice.gdn"
    twice.write_text("\n\n".join([*records, records[1]]) + "\n", encoding="utf-8")
    for args, zh_words, en_words in (
        ([*deals, "show", "cup", "-b", "9"], "牌组“cup”没有第9副（只有第1到3副）",
         "set 'cup' has no board 9 (boards 1 to 3)"),
        ([*deals, "show", "nope"], "数据库中没有名为“nope”的牌组",
         "no board set named 'nope' in the database"),
        ([*deals, "generate", str(seed), "-n", "3", "--name", "again"],
         "已生成过牌组“cup”：一个种子只生成一个牌组（请用那个牌组，或新建种子）",
         "already made set 'cup': one seed makes one set (use that set, or create a new seed)"),
        (["deals", "verify", str(seed), "--gdn", str(twice)], "第2副出现了两次（第一次在第",
         ", board 2: board 2 appears twice (first at line"),
        (["deals", "verify", str(seed), "--gdn", str(twice), "--boards", "2"],
         "第3副不在第1到2副之内", ", board 3: board 3 is not one of boards 1 to 2"),
    ):
        code, zh = run("--lang", "zh", *args)
        assert code == 1 and zh_words in zh, zh
        line = next(x for x in zh.splitlines() if zh_words in x)
        assert chinese(line.split("twice.gdn")[-1].replace("guandan deals seed", "")) == [], line
        code, en = run(*args)
        assert code == 1 and en_words in en, en


def test_pairing_refusals_in_chinese() -> None:
    from duplicate.pairing import (
        MatchSeating,
        PairingError,
        SeatingError,
        round_robin,
        swiss_round,
        validate_seating,
    )
    from engine.seat import Seat

    with pytest.raises(PairingError) as info:
        swiss_round(["A", "B"], [("A", "B")])
    assert str(info.value) == ("no pairing of these 2 teams avoids a repeat: every way of "
                               "pairing them meets some two teams a second time")
    assert info.value.text("zh") == "这2支队伍怎么编排都会有重复对阵：无论如何编排，总有两支队伍第二次相遇"
    with pytest.raises(PairingError) as info:
        round_robin(["A"])
    assert (str(info.value), info.value.text("zh")) == (
        "a round robin needs at least 2 teams, not 1", "循环赛至少要有2支队伍，而不是1支")
    x, y = ["a", "b", "c", "d"], ["e", "f", "g", "h"]
    open_room = dict(zip(Seat, ["a", "e", "b", "f"], strict=True))
    closed = dict(zip(Seat, ["g", "c", "h", "a"], strict=True))  # a sits twice
    with pytest.raises(SeatingError) as info:
        validate_seating(MatchSeating(open_room, closed), x, y)
    assert str(info.value) == "closed room, seat W: a already sits in open room N"
    assert info.value.text("zh") == "闭室西家：a 已坐在开室北家"
    assert chinese(info.value.text("zh").replace("：a ", "：")) == []


def test_import_of_a_bad_record_in_chinese(migrated_url: str, tmp_path: Path) -> None:
    deal = GOLDEN.read_text(encoding="utf-8").split("\n\n")[0]
    lines = deal.split("\n")
    path = tmp_path / "pass.gdn"
    path.write_text("\n".join([*lines[:7], "W PASS SQ", *lines[8:]]) + "\n", encoding="utf-8")
    code, zh = run("--lang", "zh", "import", "--db", migrated_url, str(path))
    assert code == 1 and "错误：1副牌中有1副未存；第一个：" in zh, zh
    line = next(x for x in zh.splitlines() if x.startswith("错误："))
    assert line.endswith("pass.gdn:8：西家：过（PASS）后面还有“SQ”"), line
    assert zh_words_left(line.split("pass.gdn")[-1]) == [], line
    code, en = run("import", "--db", migrated_url, str(path))
    assert code == 1 and "pass.gdn:8: seat W: PASS with 'SQ' after it\n" in en, en


def test_a_result_out_of_range_in_chinese(migrated_url: str, migrated_engine: Engine) -> None:
    from duplicate.scoring import ScoringError, check_result

    make_round(migrated_engine)
    args = ["event", "--db", migrated_url, "result", "Cup", "--round", "1", "--table", "1",
            "--board", "1", "--room", "open", "--result", "NS +4"]
    code, zh = run("--lang", "zh", *args)
    assert code == 1 and "：报来的结果：南北的结果须为 ±1 到 ±3（升或降的级数），而不是 4" in zh, zh
    assert chinese(zh.replace("'Cup'", "")) == [], zh
    code, en = run(*args)
    assert code == 1 and ("the reported result: an N–S result must be ±1..±3 (levels won or "
                          "conceded), not 4") in en, en
    with pytest.raises(ScoringError) as info:
        check_result(0)
    assert info.value.text("zh") == "结果：南北的结果须为 ±1 到 ±3（升或降的级数），而不是 0"
