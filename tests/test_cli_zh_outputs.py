"""``guandan --lang zh …`` prints no English words where a Chinese player reads, and the
English output stays as it was: the demo's hall lines, the import table's rooms and
statuses, the output-file refusals, withheld and released boards, rule variants in words,
and the refusals listed one test each below (catalogue domain ``outputs``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from test_pairs import event_files  # noqa: F401  (the fixture)

from cli import main

#: a run of English words: what a Chinese line must not hold (names, paths, options and
#: the Latin words docs/GLOSSARY.md allows are taken out first)
ENGLISH_RUN = re.compile(r"[A-Za-z]{3,}( [A-Za-z]{2,})+")


def english_runs(text: str, *allowed: str) -> list[str]:
    """The English word runs of ``text`` once the ``allowed`` texts are taken out."""
    for word in sorted(allowed, key=len, reverse=True):
        text = text.replace(word, " ")
    text = re.sub(r"(https?|file)://\S+|--[a-z-]+|'guandan [^']*'|“guandan [^”]*”", " ", text)
    return [m.group(0) for m in ENGLISH_RUN.finditer(text)]


def run(args: list[str], lang: str = "zh", **kw: object) -> Result:
    return CliRunner().invoke(main, ["--lang", lang, *args], **kw)  # type: ignore[arg-type]


def has_chinese(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]", text) is not None


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'g.sqlite'}"
    assert run(["db", "upgrade", "--db", url], "en").exit_code == 0
    return url


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "s.gdn"
    r = run(["simulate", "--boards", "1", "--seed", "2f", "-o", str(path)], "en")
    assert r.exit_code == 0, r.output
    return path


# 1. the demo's hall block -------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_demo_serve_hall_lines_in_the_output_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("duplicate.commands.serve.run_server", lambda *a: None)
    r = run(["demo", "--serve", "--seed", "2f", "--boards", "4", "--port", "8765"], lang)
    assert r.exit_code == 0, r.output
    tail = r.output[r.output.index("closed" if lang == "en" else "公示") - 40:]
    if lang == "en":
        assert "round 1 closed and published (公示)" in r.output
        assert re.search(r"round 2: 2 tables paired, boards 5 to 8, clock running; table 1 "
                         r"open room has reported boards 5 and 6", r.output)
        assert "director's desk: http://127.0.0.1:8765/desk  (password: " in r.output
        assert re.search(r"  table 1 open room: West reports http://\S+  North confirms ", tail)
        assert "  (a phone on this network reaches the links with --host 0.0.0.0)" in tail
        assert "API: http://127.0.0.1:8765/api/docs" in tail
        return
    assert "第1轮已结束并公示" in r.output
    assert "第2轮：已编排2桌，牌号5至8，计时开始；1号桌开室已报分第5、6副" in r.output
    assert "裁判台：http://127.0.0.1:8765/desk（密码：" in tail
    assert "第2轮进行中：" in tail and "1号桌开室：西家报分 " in tail and "北家核对" in tail
    assert "接口文档：http://127.0.0.1:8765/api/docs" in tail
    from duplicate.demo import HALL_TEAMS, TEAMS

    names = [n for team, players in TEAMS + HALL_TEAMS for n in (team, *players)]
    assert english_runs(tail, *names) == []


# 2. the import table: rooms and statuses -------------------------------------------


def test_import_table_rooms_and_statuses(db: str, records: Path) -> None:
    first = run(["import", "--db", db, str(records)])
    assert first.exit_code == 0, first.output
    assert "开室" in first.output and "闭室" in first.output and "已保存" in first.output
    assert "Open" not in first.output and "stored" not in first.output
    again = run(["import", "--db", db, str(records)])
    assert "未变" in again.output and "unchanged" not in again.output
    en = run(["import", "--db", db, str(records)], "en")
    assert re.search(r"\b1\s+Open\s+unchanged\b", en.output), en.output


def test_cell_word_statuses() -> None:
    import click

    from duplicate.commands.common import LANG_KEY, cell_word

    with click.Context(main) as ctx:
        ctx.meta[LANG_KEY] = "zh"
        assert [cell_word(w) for w in ("Open", "Closed", "rolled back", "corrected",
                                        "refused")] == ["开室", "闭室", "已撤回", "已更正", "被拒"]
    with click.Context(main) as ctx:
        ctx.meta[LANG_KEY] = "en"
        assert cell_word("Open") == "Open" and cell_word("rolled back") == "rolled back"


# 3. output-file refusals -------------------------------------------------------------


def test_output_refusals(tmp_path: Path, records: Path) -> None:
    zh = run(["simulate", "--boards", "1", "--seed", "2f", "-o", str(records)])
    assert zh.exit_code == 1 and f"{records} 已存在：加 --force 才会替换它" in zh.output
    en = run(["simulate", "--boards", "1", "--seed", "2f", "-o", str(records)], "en")
    assert f"Error: {records} already exists: give --force to replace it" in en.output
    seed = tmp_path / "cup.seed"
    assert run(["deals", "seed", str(seed)], "en").exit_code == 0
    zh = run(["simulate", "--boards", "1", "--seed", "2f", "-o", str(seed), "--force"])
    assert f"{seed} 是种子文件，永远不会被覆盖" in zh.output
    assert english_runs(zh.output, str(seed)) == []
    folder = tmp_path / "full"
    folder.mkdir()
    (folder / "x.txt").write_text("x")
    import click

    from duplicate.commands.common import LANG_KEY, check_output_dir

    with click.Context(main) as ctx:
        ctx.meta[LANG_KEY] = "zh"
        with pytest.raises(click.ClickException, match="不是空的：加 --force 才会写入"):
            check_output_dir(str(folder))
    with click.Context(main) as ctx:
        ctx.meta[LANG_KEY] = "en"
        with pytest.raises(click.ClickException, match="is not empty: give --force to write"):
            check_output_dir(str(folder))


# 5. withheld boards, a board released twice ----------------------------------------


@pytest.fixture
def cup(db: str, tmp_path: Path) -> str:
    """An event 淮安杯 of two teams, round 1 paired and dealt (boards 1 to 2), no results."""
    from duplicate import events
    from duplicate.db import make_engine
    from duplicate.dealing import parse_seed_file, seed_file_bytes

    engine = make_engine(db)
    try:
        events.create_event(engine, "淮安杯", seed="2f", fmt="rr", rounds=1,
                            boards_per_round=2)
        events.add_team(engine, "淮安杯", "甲队", ["张", "王", "李", "赵"])
        events.add_team(engine, "淮安杯", "乙队", ["钱", "孙", "周", "吴"])
        events.pair_round(engine, "淮安杯")
        events.assign_boards(engine, "淮安杯", 1, seed=parse_seed_file(seed_file_bytes(bytes(32))))
    finally:
        engine.dispose()
    return db


def test_export_names_withheld_boards(cup: str) -> None:
    zh = run(["event", "export", "淮安杯", "--db", cup])
    assert zh.exit_code == 0, zh.output
    assert "暂不导出（还有桌没有交齐）：第1轮：第1、2副；用“guandan event release”公开一副牌" \
        in zh.stderr
    assert english_runs(zh.stderr) == []
    en = run(["event", "export", "淮安杯", "--db", cup], "en")
    assert ("withheld (not every table has them in yet): round 1: boards 1, 2; "
            "'guandan event release' releases a board") in en.stderr


def test_release_twice_says_who_and_when_in_the_readers_language(cup: str) -> None:
    args = ["event", "release", "淮安杯", "--round", "1", "--board", "2", "--by", "吴",
            "--reason", "桌子退出", "--db", cup]
    assert run(args).exit_code == 0
    zh = run(args)
    assert zh.exit_code == 1
    assert re.search(r"赛事“淮安杯”第1轮第2副已由“吴”于2\d{3}年\d+月\d+日 \d\d:\d\d（UTC\+8）公开",
                     zh.output), zh.output
    assert english_runs(zh.output) == []
    en = run(args, "en")
    assert re.search(r"event '淮安杯', round 1, board 2 was already released by '吴' at "
                     r"\d+ \w{3} 2\d{3} \d\d:\d\d \(UTC\+8\)", en.output), en.output
    zh = run([*args[:6], "9", *args[7:]])
    assert "第1轮打的是第1至2副，没有第9副" in zh.output


# 6. rule variants in words ---------------------------------------------------------------


def test_rule_variants_in_words(db: str) -> None:
    made = run(["event", "create", "村杯", "--variant", "jiefeng_next=true",
                "--variant", "double_down_plus4=true", "--db", db])
    assert made.exit_code == 0, made.output
    assert "接风由下家领出、双下升4级" in made.output and "jiefeng" not in made.output
    listed = run(["event", "list", "--db", db])
    assert "接风由下家领出、双下升4级" in listed.output
    assert "jiefeng_next=true, double_down_plus4=true" in run(
        ["event", "list", "--db", db], "en").output
    csv = run(["event", "list", "--csv", "--db", db])
    assert "jiefeng_next=true, double_down_plus4=true" in csv.output  # for programs


def test_report_rules_note_in_chinese() -> None:
    from types import SimpleNamespace

    from duplicate.events.site import _notes
    from duplicate.scoring import VictoryPoints
    from engine.ruleset import Ruleset

    info = SimpleNamespace(format="rr", rounds=1, boards_per_round=2, scale=VictoryPoints(),
                           unfinished=SimpleNamespace(value="average"),
                           rules=Ruleset(jiefeng_next=True, a_fail_limit=3))
    first = _notes(info, (), "zh")[0]
    assert "接风由下家领出、打A失败3次退回打2" in first and "jiefeng" not in first
    assert "jiefeng_next=true, a_fail_limit=3" in _notes(info, (), "en")[0]


# 8. English inside Chinese messages -------------------------------------------------------


def test_seed_file_json_and_level_schedule_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.seed"
    bad.write_text("{bad")
    zh = run(["simulate", "--boards", "1", "--seed-file", str(bad)])
    assert zh.exit_code == 1 and "第1行第2列出错" in zh.output
    assert english_runs(zh.output, str(bad)) == []
    en = run(["simulate", "--boards", "1", "--seed-file", str(bad)], "en")
    assert "invalid JSON: Expecting property name enclosed in double quotes: line 1 column 2" \
        in en.output
    zh = run(["simulate", "--boards", "1", "--seed", "2f", "--level-schedule", "fixed:Z"])
    assert zh.exit_code == 1 and "“z”" in zh.output and "invalid rank" not in zh.output
    en = run(["simulate", "--boards", "1", "--seed", "2f", "--level-schedule", "fixed:Z"], "en")
    assert "invalid level schedule 'fixed:Z': invalid rank 'z': expected one of" in en.output


def test_result_key_in_the_readers_words() -> None:
    from duplicate.store import ResultKey
    from duplicate.store.data import KeyWords
    from engine.ruleset import Ruleset

    key = ResultKey("ab" * 32, "淮安杯", "2", "1", "open", Ruleset(double_down_plus4=True))
    words = key.words()
    assert isinstance(words, KeyWords) and str(words) == key.describe()
    assert words.text("zh") == "DealId abababababab…，赛事“淮安杯”，第2轮，第1桌，开室，规则：双下升4级"
    assert key.describe() == ("DealId abababababab…, event '淮安杯', round '2', table '1', "
                              "room 'open', rules double_down_plus4=true")


# 9. read and plays ------------------------------------------------------------------------


def test_plays_errors_and_chinese_combination_names() -> None:
    zh = run(["plays", "--level", "7", "--hand", "S2 S2 H3", "--follow", "Straight 3 S3 H4"])
    assert zh.exit_code == 1 and "--follow：打7时3♠ 4♥不是顺子3-4-5-6-7：这些牌不成牌型" in zh.output
    en = run(["plays", "--level", "7", "--hand", "S2 S2 H3", "--follow", "Straight 3 S3 H4"],
             "en")
    assert "Error: --follow: S3 H4 is not Straight 3 at level 7: it is no combination" in en.output
    for lang in ("zh", "en"):
        r = run(["read", "--level", "Z", "S5"], lang)
        assert r.exit_code == 1
        assert (("--level：“Z”不是级牌" in r.output) if lang == "zh" else
                ("--level: invalid rank 'Z' for a level: a level is 2-9, T, J, Q, K or A"
                 in r.output))
    for play in ("顺子 3 S3 H4 C5 D6 S7", "顺子3 S3 H4 C5 D6 S7", "Straight 3 S3 H4 C5 D6 S7"):
        r = run(["plays", "--level", "7", "--hand", "S4 H5 C6 D7 S8 S2", "--follow", play,
                 "--json"])
        assert r.exit_code == 0, r.output
        assert '"type": "Straight"' in r.output and '"rank": "4"' in r.output
    for name, follow in (("对子", "对子 5 S5 C5"), ("炸弹", "炸弹 9 S9 H9 C9 D9"),
                         ("天王炸", "天王炸 B SB SB HR HR"), ("四大天王", "四大天王 B SB SB HR HR")):
        r = run(["plays", "--level", "7", "--hand", "S2 S2", "--follow", follow])
        assert r.exit_code == 0, (name, r.output)
    r = run(["plays", "--level", "7", "--hand", "S2", "--follow", "对子 6 S5 C5"])
    assert "打7时5♠ 5♣不是对子6：这些牌可读作对子5" in r.output
    r = run(["plays", "--level", "7", "--hand", "S2", "--follow", "Foo 3 S3"])
    assert "未知牌型“Foo”：应为 单张、对子" in r.output and "Single" not in r.output


# 10. analyse, compare, replay, pairs -------------------------------------------------------


def test_analysis_and_compare_refusals(tmp_path: Path, records: Path) -> None:
    empty = tmp_path / "empty.gdn"
    empty.write_text("; nothing\n")
    one = tmp_path / "one.gdn"
    one.write_text(records.read_text().split("\n\n[Event")[0] + "\n")
    cases = [
        (["analyse", str(records), "--from", "sideways"],
         "起点“sideways”无效：应为 divergence、trick:K、action:K 或 last:N",
         "invalid starting point 'sideways': expected divergence, trick:K, action:K or last:N"),
        (["analyse", str(records), "--from", "action:999"], "起点“action:999”无效：这份牌谱共",
         "invalid starting point 'action:999': the record has "),
        (["compare", str(records), "--board", "9"], "没有第9副的牌谱", "no record of board 9"),
        (["compare", str(empty)], "文件里没有牌局（文件为空或只有注释）",
         "no deal in the file (it is empty or holds only comments)"),
        (["replay", str(empty)], "文件里没有牌局（文件为空或只有注释）",
         "no deal in the file (it is empty or holds only comments)"),
        (["pairs", str(empty)], "没有牌谱：双人赛按各桌的牌谱计分",
         "no records: a pairs event is scored from the records of its tables"),
        (["compare", str(one)], f"第1副，开室（{one}:1）：比较至少需要同一副牌的两个牌室，只有1个",
         f"board 1, room Open ({one}:1): a comparison needs at least two rooms of a board, got 1"),
    ]
    for args, zh_text, en_text in cases:
        zh, en = run(args), run(args, "en")
        assert zh.exit_code == 1 and zh_text in zh.output, (args, zh.output)
        assert english_runs(zh.output, str(tmp_path)) == [], (args, zh.output)
        assert en.exit_code == 1 and en_text in en.output, (args, en.output)


# 11. pairs --html: where a pair sat -------------------------------------------------------


def test_pairs_page_names_the_sides(event_files: list[str], tmp_path: Path) -> None:  # noqa: F811
    zh_page, en_page = tmp_path / "zh.html", tmp_path / "en.html"
    assert run(["pairs", *event_files, "--html", str(zh_page)]).exit_code == 0
    assert run(["pairs", *event_files, "--html", str(en_page)], "en").exit_code == 0
    zh, en = zh_page.read_text(encoding="utf-8"), en_page.read_text(encoding="utf-8")
    assert "<td>南北</td>" in zh and "<td>东西</td>" in zh
    assert "<td>NS</td>" not in zh and "<td>EW</td>" not in zh
    assert "<td>NS</td>" in en and "<td>EW</td>" in en


def test_pairs_sat_both_ways() -> None:
    from duplicate.review.pairs_page import _sat

    assert _sat("NS+EW", "zh") == "南北、东西" and _sat("NS+EW", "en") == "NS+EW"


# 12. simulate: policies in words, the compare page's title -----------------------------


def test_simulate_summary_and_compare_title(tmp_path: Path, records: Path) -> None:
    zh = run(["simulate", "--boards", "1", "--seed", "2f", "--y", "random"])
    assert "甲队（启发式）对乙队（随机）" in zh.output
    en = run(["simulate", "--boards", "1", "--seed", "2f", "--y", "random"], "en")
    assert "team X (heuristic) against team Y (random)" in en.output
    assert '[Event "Self-play (guandan simulate)"]' in records.read_text()  # machine data
    assert run(["compare", str(records), "--html", str(tmp_path / "zh")]).exit_code == 0
    assert run(["compare", str(records), "--html", str(tmp_path / "en")], "en").exit_code == 0
    zh_index = (tmp_path / "zh" / "index.html").read_text(encoding="utf-8")
    en_index = (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    assert "<title>机器人自战（guandan simulate）" in zh_index and "Self-play" not in zh_index
    assert "<title>Self-play (guandan simulate)" in en_index


# 13. db commands ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_db_downgrade_to_an_unknown_revision_is_one_line(db: str, lang: str) -> None:
    r = run(["db", "downgrade", "zzzz", "--db", db], lang)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert (("没有版本“zzzz”" in r.output) if lang == "zh"
            else ("Error: no revision 'zzzz'" in r.output))


def test_db_downgrade_refusal_and_bad_url(db: str) -> None:
    assert run(["event", "create", "村杯", "--db", db]).exit_code == 0
    zh = run(["db", "downgrade", "0007", "--db", db])
    assert zh.exit_code == 1
    assert "降级到 0007 会丢失赛事“村杯”的时区：未作任何改动" in zh.output
    assert english_runs(zh.output, "guandan db downgrade 0007 --force") == []
    en = run(["db", "downgrade", "0007", "--db", db], "en")
    assert ("Error: downgrading to 0007 would lose the time zone of the events '村杯': nothing "
            "changed: 'guandan db downgrade 0007 --force' downgrades and loses them") in en.output
    zh = run(["db", "current", "--db", "foo://bar"])
    assert "无法使用数据库地址“foo://bar”：不认识数据库类型 foo" in zh.output
    assert english_runs(zh.output) == []
    en = run(["db", "current", "--db", "foo://bar"], "en")
    assert "cannot use database URL 'foo://bar': Can't load plugin: sqlalchemy.dialects:foo" \
        in en.output


def test_db_downgrade_to_base_says_empty_in_chinese(db: str) -> None:
    r = run(["db", "downgrade", "base", "--db", db])
    assert r.exit_code == 0 and "无（空库）" in r.output and "none (empty)" not in r.output


def test_redact_only_the_credentials() -> None:
    from duplicate.db import redact

    url = "postgresql://u:pw@db.example/x"
    assert redact("Connection refused", url) == "Connection refused"
    assert redact("could not connect as u with pw", url) == "could not connect as *** with ***"


# 14. PDF without WeasyPrint; table cards' language --------------------------------------


def test_pdf_without_weasyprint(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    real = importlib.import_module

    def no_weasyprint(name: str, *args: object) -> object:
        if name == "weasyprint":
            raise ModuleNotFoundError("No module named 'weasyprint'")
        return real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(importlib, "import_module", no_weasyprint)
    seed = tmp_path / "cup.seed"
    assert run(["deals", "seed", str(seed)], "en").exit_code == 0
    made = run(["deals", "generate", str(seed), "--boards", "2", "--name", "杯", "--store",
                "--db", db], "en")
    assert made.exit_code == 0, made.output
    args = ["deals", "export", "杯", "-f", "pdf", "-o", str(tmp_path / "x.pdf"), "--db", db]
    zh = run(args)
    assert zh.exit_code == 1
    assert "PDF 牌例需要 WeasyPrint：pip install 'guandan-duplicate[pdf]'（未安装）" in zh.output
    en = run(args, "en")
    assert ("PDF hand records need WeasyPrint: pip install 'guandan-duplicate[pdf]' "
            "(No module named 'weasyprint')") in en.output


def test_table_cards_language_help_and_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GUANDAN_LANG", raising=False)
    en = run(["event", "table-cards", "--help"], "en")
    assert "guandan --lang, else $GUANDAN_LANG, else en" in " ".join(en.output.split())
    assert "default: en]" not in en.output
    zh = run(["event", "table-cards", "--help"])
    assert "默认：guandan --lang，其次 $GUANDAN_LANG，否则 en" in zh.output


# 15. grammar: a report said once, a round without boards -----------------------------


def test_event_result_says_report_once(cup: str) -> None:
    zh = run(["event", "result", "淮安杯", "--round", "1", "--table", "1", "--board", "1",
              "--room", "open", "--finish", "N S", "--db", cup])
    assert zh.exit_code == 0, zh.output
    assert "第1轮第1桌第1副，开室：无结果 → 南北升3级（东西双下）（报分）\n" in zh.output
    assert "（报分）（报分）" not in zh.output
    en = run(["event", "result", "淮安杯", "--round", "1", "--table", "1", "--board", "2",
              "--room", "open", "--finish", "N S", "--db", cup], "en")
    assert "round 1, table 1, board 2, open room: no result -> NS +3 (reported, finish N S) " \
        "(report)" in en.output


def test_pair_round_before_boards_are_assigned(db: str) -> None:
    from duplicate import events
    from duplicate.db import make_engine

    engine = make_engine(db)
    try:
        events.create_event(engine, "乡村杯", seed="2f", rounds=2, boards_per_round=2)
        for n in "甲乙丙丁":
            events.add_team(engine, "乡村杯", f"{n}队", [f"{n}{x}" for x in "一二三四"])
        events.pair_round(engine, "乡村杯")
    finally:
        engine.dispose()
    zh = run(["event", "pair-round", "乡村杯", "--db", db])
    assert zh.exit_code == 1
    assert "赛事“乡村杯”：第1轮还没有分配牌，所以还没有结果：请先用“guandan event assign-boards”分配牌" \
        in zh.output
    assert "还没有分配牌 还没有结果" not in zh.output
    en = run(["event", "pair-round", "乡村杯", "--db", db], "en")
    assert ("round 1 has no boards assigned yet, so no results: give them with "
            "'guandan event assign-boards'") in en.output


def test_db_downgrade_names_many_events_in_the_readers_words(db: str) -> None:
    for n in range(6):
        assert run(["event", "create", f"杯{n}", "--db", db]).exit_code == 0
    zh = run(["db", "downgrade", "0013", "--db", db])
    assert "会丢失赛事“杯0”、“杯1”、“杯2”、“杯3”、“杯4”等的时区" in zh.output, zh.output
    assert "and more" not in zh.output
    en = run(["db", "downgrade", "0013", "--db", db], "en")
    assert "the time zone of the events '杯0', '杯1', '杯2', '杯3', '杯4' and more" in en.output
