"""The library's refusals and ``guandan version`` in the output's language: an import that
conflicts with a stored result (``event import`` and ``guandan import``), a record that is
not the round's board, a cut record, a report without a reason, and the engine core's line,
each in Chinese with no untranslated word and in English as the library words it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine
from test_event_import_fixes import cut, make_round
from test_i18n_words import allowed_latin, untranslated

from cli import main
from duplicate import store
from duplicate.errors import DuplicateError
from duplicate.i18n import Term, phrase
from duplicate.i18n.stored import StateText
from duplicate.records import Correction
from duplicate.store import Author

#: what the fixture's records hold: the event, the reason a record was cut short (typed)
NAMES = {"Cup", "DealId", "time"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def chinese(text: str) -> list[str]:
    """The untranslated words of a Chinese line (names of the fixture and tags aside)."""
    text = re.sub(r"\S+\.gdn(?::\d+)?|'[^']*'|\"[^\"]*\"|“[^”]*”|P\d\d|T\d", " ", text)
    return [w for w in untranslated(text, allowed_latin() | NAMES)
            if w not in ("Round", "Board", "Room", "Open", "Closed", "Unfinished", "Play")]


def test_version_speaks_the_output_language() -> None:
    code, zh = run("--lang", "zh", "version")
    assert code == 0 and zh.splitlines()[1].startswith("引擎核心：")
    assert chinese(zh.splitlines()[1].replace("engine/_native", "")) == []
    code, en = run("version")
    assert en.splitlines()[1].startswith("engine core: ")
    assert en.splitlines()[0] == zh.splitlines()[0]  # guandan-duplicate 0.1.0


def test_event_import_conflict_in_chinese_and_english(
        migrated_url: str, migrated_engine: Engine, tmp_path: Path) -> None:
    texts = make_round(migrated_engine)
    first = tmp_path / "t1.gdn"
    first.write_text(texts[0], encoding="utf-8")
    assert run("event", "--db", migrated_url, "import", "Cup", str(first))[0] == 0
    other = make_round_other(migrated_engine, texts[0])
    second = tmp_path / "t1b.gdn"
    second.write_text(other, encoding="utf-8")
    code, zh = run("--lang", "zh", "event", "--db", migrated_url, "import", "Cup", str(second))
    assert code == 1
    line = next(x for x in zh.splitlines() if "未保存" in x and "已有" in x)
    assert "第1桌这副牌这一室已有" in line and "须按更正处理" in line
    assert re.search(r"[南东][北西]升\d级", line)  # the stored result in a player's words
    assert chinese(line.split("t1b.gdn:")[-1]) == []
    code, en = run("event", "--db", migrated_url, "import", "Cup", str(second))
    assert "table 1 already has" in en and "a different record is a correction" in en


def make_round_other(engine: Engine, text: str) -> str:
    """Table 1's records with the first one's result changed: a record cut short and
    marked unfinished (a different result for the same board and room)."""
    first, *rest = text.strip().split("\n\n")
    return "\n\n".join([cut(first, 5, "time"), *rest]) + "\n"


def test_event_import_refusals_in_chinese(migrated_url: str, migrated_engine: Engine,
                                          tmp_path: Path) -> None:
    texts = make_round(migrated_engine)
    rec = texts[0].strip().split("\n\n")[0]
    for name, text, words in (
        ("cut.gdn", cut(rec, 5), "打了5手就中止"),
        ("board.gdn", rec.replace('[Board "1"]', '[Board "2"]'), "手牌与本轮牌组的第2副"),
        ("seat.gdn", re.sub(r'\[South "([^"]+)"\]', r'[South "X\1"]', rec), "南家是"),
        ("round.gdn", rec.replace('[Round "1"]', '[Round "7"]'), "第7轮"),
    ):
        path = tmp_path / name
        path.write_text(text + "\n", encoding="utf-8")
        code, zh = run("--lang", "zh", "event", "--db", migrated_url, "import", "Cup", str(path))
        assert code == 1 and words in zh, zh
        line = next(x for x in zh.splitlines() if words in x)
        assert re.search(r"：第[12]副，开室：", line) or "第7轮" in line, line
        assert chinese(line.split(name)[-1]) == [], line


def test_guandan_import_refusals_in_chinese(migrated_url: str, migrated_engine: Engine,
                                            tmp_path: Path) -> None:
    texts = make_round(migrated_engine)
    open_rec, closed_rec = texts[0].strip().split("\n\n")[:2]
    first, other, short = tmp_path / "one.gdn", tmp_path / "other.gdn", tmp_path / "cut.gdn"
    first.write_text(open_rec + "\n", encoding="utf-8")
    other.write_text(re.sub(r'\[Room "Closed"\]', '[Room "Open"]', closed_rec) + "\n",
                     encoding="utf-8")  # another play of the same board and room
    short.write_text(cut(open_rec, 5) + "\n", encoding="utf-8")
    assert run("import", "--db", migrated_url, str(first))[0] == 0
    for path, words in ((other, "已存有另一份牌谱（第1版，来自"), (short, "这副牌打了5手还没打完")):
        code, zh = run("--lang", "zh", "import", "--db", migrated_url, str(path))
        assert code == 1 and words in zh, zh
        assert "错误：1副牌中有1副未存；第一个：" in zh and "1副牌：存入0副" in zh
        line = next(x for x in zh.splitlines() if x.startswith("错误："))
        assert chinese(line.split(path.name)[-1]) == [], line
    code, en = run("import", "--db", migrated_url, str(short))
    assert "the deal is unfinished after 5 plays" in en and "Error: 1 of 1 deal not stored" in en
    assert "1 deal: 0 stored, 0 already stored, 0 corrected, 1 not stored" in en


def test_store_refusals_and_worded_values() -> None:
    with pytest.raises(DuplicateError) as exc:
        Author(" ", "why")
    assert exc.value.text("zh") == "改动须写明由谁改动（最多200个字符）"
    assert str(exc.value) == "a change needs the name of who makes it (at most 200 characters)"
    with pytest.raises(DuplicateError) as exc:
        Correction(reason=" ", by="Li")
    assert (exc.value.text("zh"), str(exc.value)) == ("更正须写明原因", "a correction needs a reason")
    conflict = phrase("store.err.conflict", where="x", stored=StateText("NS +2 (record abc123)"),
                      new=StateText("EW +1"))
    assert conflict.text("zh") == "x：已存的结果是南北升2级（牌谱 abc123），这次是东西升1级：替换它须按更正处理（由谁、为何）"
    assert str(conflict).startswith("x: the stored result is NS +2 (record abc123), this one EW +1")
    seat = phrase("imports.seat", where="f", seat=Term("S", "seat.S"), seated="'A'", table=2,
                  got="'B'")
    assert (str(seat), seat.text("zh")) == (
        "f: seat S is 'A' in the seating of table 2, not 'B'", "f：按第2桌的座位表，南家是“A”，不是“B”")
    assert store.default_by()  # the store's own words are untouched


def test_director_refusals_in_chinese(migrated_url: str, migrated_engine: Engine) -> None:
    make_round(migrated_engine)
    cases = (
        (["event", "--db", migrated_url, "result", "Cup", "--round", "1", "--table", "1",
          "--board", "9", "--room", "open", "--result", "NS +2"],
         "第1轮打的是第1至2副，没有第9副", "round 1 plays boards 1 to 2, not board 9"),
        (["event", "--db", migrated_url, "rename-team", "Cup", "Nobody", "T9", "--by", "Li",
          "--reason", "typo"],
         "赛事“Cup”没有名为“Nobody”的队伍", "event 'Cup' has no team named 'Nobody'"),
        (["event", "--db", migrated_url, "correct", "Cup", "--round", "1", "--table", "1",
          "--board", "1", "--room", "open", "--result", "NS +9", "--by", "Li", "--reason", "x"],
         "无效的结果“NS +9”：应写作如 南北+2、东西+1", "invalid result 'NS +9'"),
    )
    for args, zh_words, en_words in cases:
        code, zh = run("--lang", "zh", *args)
        assert code == 1 and zh_words in zh, zh
        assert chinese(zh.replace("Nobody", "")) == [], zh
        code, en = run(*args)
        assert code == 1 and en_words in en, en


def test_seed_file_refusals_in_chinese(tmp_path: Path) -> None:
    seed = tmp_path / "cup.seed"
    assert run("deals", "seed", str(seed))[0] == 0
    for args, zh_words, en_words in (
        (["deals", "seed", str(seed)], "已存在：不会覆盖", "already exists: not overwritten"),
        (["deals", "generate", str(tmp_path / "none.seed"), "-n", "2"], "无法读取种子文件",
         "cannot read seed file"),
        (["deals", "generate", str(seed), "-n", "2", "--level-schedule", "often"],
         "无效的级牌安排“often”", "invalid level schedule 'often'"),
    ):
        code, zh = run("--lang", "zh", *args)
        assert code != 0 and zh_words in zh and "错误：" in zh, zh
        code, en = run(*args)
        assert en_words in en, en


def test_a_hint_the_catalogue_holds_is_in_chinese(migrated_url: str) -> None:
    code, zh = run("--lang", "zh", "event", "--db", migrated_url, "standings", "Nope")
    assert code == 1 and "没有名为“Nope”的赛事：请用 'guandan event create' 创建" in zh, zh
    code, en = run("event", "--db", migrated_url, "standings", "Nope")
    assert en.rstrip().endswith(": create it with 'guandan event create'"), en
