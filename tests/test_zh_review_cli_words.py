"""What a Chinese reader read on the review pages and in the command line, fixed through the
catalogue: the movie's and the report's separators in the page's language, who made a
ruling in words (裁判, never ``director``), Guandan's own terms (一圈牌 for a trick, 级差 for
a board's swing, 开室/闭室 for a room), counts that say boards and rooms right, no English
left in a Chinese line, lists joined with 、, names in “”, one number format, help that
does not break a Chinese word. English stays as it was."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], lang: str = "zh", **kw: object) -> Result:
    return CliRunner().invoke(main, ["--lang", lang, *args], **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str]]:
    """A demo event of 4 boards with a director's ruling on board 1's open room, its
    database URL and its name."""
    where = tmp_path_factory.mktemp("demo")
    old = os.getcwd()
    os.chdir(where)
    try:
        url = f"sqlite:///{where / 'd.sqlite'}"
        r = run(["demo", "--seed", "2f", "--boards", "4", "--db", url], "en")
        assert r.exit_code == 0, r.output
        event = re.search(r"event '([^']+)'", r.output, re.I)
        assert event is not None, r.output
        name = event.group(1)
        r = run(["event", "correct", name, "--round", "1", "--table", "1", "--board", "1",
                 "--room", "open", "--result", "NS +2", "--by", "director", "--reason", "笔误",
                 "--chief", "--db", url], "en")
        assert r.exit_code == 0, r.output
        yield where, url, name
    finally:
        os.chdir(old)


def report(demo: tuple[Path, str, str], lang: str, analyse: bool = False) -> Path:
    where, url, name = demo
    out = where / f"rep-{lang}-{int(analyse)}"
    if not out.exists():
        extra = ["--analyse", "--nodes", "2000", "--playouts", "2"] if analyse else []
        r = run(["event", "report", name, "--out", str(out), "--db", url, *extra], lang)
        assert r.exit_code == 0, r.output
    return out


def movie_words(page: Path) -> dict[str, str]:
    text = page.read_text(encoding="utf-8")
    found = re.search(r'id="movie-data" type="application/json">(.*?)</script>', text, re.S)
    assert found is not None
    words: dict[str, str] = json.loads(found.group(1))["words"]
    return words


# 1. the movie's separators ----------------------------------------------------------


def test_movie_script_types_no_separator_of_its_own() -> None:
    script = (ROOT / "duplicate" / "static" / "movie.js").read_text(encoding="utf-8")
    code = "\n".join(line for line in script.splitlines()
                     if not line.lstrip().startswith(("*", "/*", "//")))
    literals = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)
    # a CSS media query (matchMedia) is not text a reader sees
    media = re.compile(r"\((?:max|min)-width: \d+px\)")
    assert [s for s in literals if re.search(r"[:;,]( |$)|[()]", s)
            and not media.fullmatch(s)] == []
    for word in ("W.colon", "W.open", "W.close", "W.list_sep", "W.said_sep"):
        assert word in code


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_movie_separators_in_the_pages_language(demo: tuple[Path, str, str],
                                                lang: str) -> None:
    words = movie_words(report(demo, lang, analyse=True) / "board-r1-t1-1.html")
    got = {k: words[k] for k in ("colon", "open", "close", "list_sep", "said_sep", "from_to")}
    if lang == "zh":
        assert got == {"colon": "：", "open": "（", "close": "）", "list_sep": "，",
                       "said_sep": "；", "from_to": "出牌前"}
    else:
        assert got == {"colon": ": ", "open": " (", "close": ")", "list_sep": ", ",
                       "said_sep": "; ", "from_to": "before the play"}


# 2. the static report's separators ----------------------------------------------------


def test_static_report_separators_in_chinese(demo: tuple[Path, str, str]) -> None:
    out = report(demo, "zh", analyse=True)
    board = (out / "board-r1-t1-1.html").read_text(encoding="utf-8")
    assert re.search(r"<li>开室：(第\d+步起四家明牌最优：南北[+-]\d|计算量不够，未算出最优结果)</li>",
                     board), board
    assert 'aria-label="开室：估值由' in board
    assert "开室: " not in board
    index = (out / "index.html").read_text(encoding="utf-8")
    assert re.search(r"East Lake – West Hill</a>\n<span class=\"margin\">[+-]\d+</span>（2–0）",
                     index), index
    cross = (out / "crosstable.html").read_text(encoding="utf-8")
    assert re.search(r"#2 [+-]\d+（2）", cross), cross


def test_static_report_separators_in_english(demo: tuple[Path, str, str]) -> None:
    out = report(demo, "en", analyse=True)
    board = (out / "board-r1-t1-1.html").read_text(encoding="utf-8")
    # a side's label as its text (the page keeps it on one line in a span.side)
    board = re.sub(r'<span class="side">(N–S|E–W)</span>', r"\1", board)
    assert re.search(r"<li>Open room: (From step \d+, best play by all four, every hand seen: N–S [+-]\d|Not enough computation)", board), board
    assert re.search(r"#2 [+-]\d+ \(2\)", (out / "crosstable.html").read_text(encoding="utf-8"))
    assert " (2–0)" in (out / "index.html").read_text(encoding="utf-8")


# 3. who made a ruling -------------------------------------------------------------------


def test_ruling_by_the_director_in_words(demo: tuple[Path, str, str]) -> None:
    out = report(demo, "zh")
    for page in ("board-r1-t1-1.html", "match-r1-t1.html", "index.html"):
        text = (out / page).read_text(encoding="utf-8")
        assert "裁判裁定（笔误）：按南北升2级计" in text, page
        assert "director" not in text, page
    _, url, name = demo
    r = run(["event", "corrections", name, "--db", url])
    assert r.exit_code == 0, r.output
    assert "director" not in r.output and "  裁判  " in r.output
    r = run(["event", "corrections", name, "--db", url], "en")
    assert "director" in r.output


def test_printed_hand_records_in_chinese_brackets() -> None:
    from duplicate.boards import BoardSet, SetInfo, generate_set  # noqa: PLC0415
    from duplicate.dealing import parse_seed_file, seed_file_bytes  # noqa: PLC0415
    from duplicate.handrecords import render_html  # noqa: PLC0415

    s = generate_set(parse_seed_file(seed_file_bytes(bytes(range(32)))), 1, "cup")
    i = s.info
    board_set = BoardSet(SetInfo("Cup", i.generator, i.commitment, i.level_schedule, None, 1),
                         s.boards)
    zh = render_html(board_set, lang="zh")
    assert '<b>北</b><span class="meta">（27）</span>' in zh
    assert "牌例：牌组“Cup”" in zh
    en = render_html(board_set, lang="en")
    assert '<b>North</b><span class="meta"> (27)</span>' in en


# 4. Guandan's own words ----------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "s.gdn"
    r = run(["simulate", "--boards", "2", "--seed", "2f", "-o", str(path)], "en")
    assert r.exit_code == 0, r.output
    return path


def test_compare_columns_name_rooms_tricks_and_a_boards_swing(played: Path) -> None:
    r = run(["compare", str(played)])
    assert r.exit_code == 0, r.output
    head = r.output.splitlines()[0].split()
    assert head == ["牌号", "级牌", "首出", "牌室", "第一室南北", "第二室南北", "级差", "首次分歧",
                    "圈数"]
    assert "1     2     北    开室/闭室  1" in r.output
    head = run(["compare", str(played)], "en").output.splitlines()[0]
    assert head.split()[:4] == ["board", "level", "leader", "rooms"] and "tricks" in head


def test_analyse_names_a_trick_by_its_own_word(played: Path) -> None:
    r = run(["analyse", str(played), "--nodes", "2000", "--playouts", "2"])
    assert r.exit_code == 0, r.output
    assert "自第92步（第11圈）起：" in r.output
    assert "  92 第11圈  西  三带二A" in r.output
    assert "（+3 即南北升3级、东西双下；−1 即东西升1级）" in r.output
    assert "轮" not in r.output and "双下东西" not in r.output
    en = run(["analyse", str(played), "--nodes", "2000", "--playouts", "2"], "en").output
    assert "From step 92 (trick 11):" in en
    assert "(+3 = N–S up 3 levels, E–W double down; −1 = E–W up one)" in en


def test_catalogue_speaks_one_word_for_each_thing() -> None:
    """房间, 选手, 重放, 配对 and 牌套 have one word each (牌室, 牌手, 复盘, 编排, 牌组);
    a side is never 双下 of another side; the desk's seed note names its own section."""
    from duplicate.i18n import catalogue  # noqa: PLC0415

    zh = {k: v["zh"] for k, v in catalogue().items() if "zh" in v}
    for word in ("房间", "选手", "重放", "配对", "牌套", "双下东西", "双下南北"):
        assert [k for k, v in zh.items() if word in v] == [], word
    # plays are 手数; a count of turns says that it counts the passes: 出牌次数（含过）
    assert [k for k, v in zh.items() if re.search("出牌次数(?!（含过）)", v)] == []
    # 轮 is a round; 轮到 (whose turn it is: 轮到出牌) is another word
    assert [k for k, v in zh.items() if k.startswith(("cli.col.trick", "report.movie.")) and
            re.search("轮(?!到)", v)] == []
    assert zh["cli.col.tricks"] == "圈数" and zh["cli.col.tricks_won"] == "赢圈数"
    assert zh["cli.col.swing"] == "级差"
    # the standings' total and its tie-break stay 级差分
    assert zh["report.col.swing"] == zh["cli.val.swing"] == zh["cli.col.total_swing"] == "级差分"
    assert zh["cli.col.set"] == "牌组" and zh["cli.col.room"] == "牌室"
    assert zh["cli.col.plays"] == "手数" and zh["desk.col.pairs"] == zh["pairs.col.pair"] == "搭档"
    assert zh["hr.title"] == "牌例：牌组“{name}”"
    assert zh["out.pdf.weasyprint"].startswith("PDF 牌例需要 WeasyPrint：")
    assert f"“{zh['desk.assign.heading']}”" in zh["desk.seed.note"]
    assert zh["desk.pair"] == "编排下一轮" and zh["desk.flash.paired"] == "第{n}轮已编排。"


# 5. counts that say boards and rooms -----------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_demo_says_boards_tables_and_records(tmp_path: Path, lang: str) -> None:
    url = f"sqlite:///{tmp_path / 'd.sqlite'}"
    r = run(["demo", "--seed", "2f", "--boards", "4", "--db", url, "--out",
             str(tmp_path / "rep")], lang)
    assert r.exit_code == 0, r.output
    if lang == "zh":
        assert "机器人在1桌的开室和闭室各打4副，共8份牌谱，已复盘核对并保存" in r.output
        assert r.output.splitlines()[7].split() == ["牌号", "级牌", "首出", "开室", "闭室", "级差",
                                                    "状态"]
    else:
        assert ("the bots played 4 boards at 1 table, in the open and the closed room: "
                "8 records, replayed and stored") in r.output


def test_simulate_stats_counts_deals_played_not_boards() -> None:
    r = run(["simulate", "--boards", "2", "--seed", "2f", "--stats"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^牌局数（副数×牌室数） +4$", r.output, re.M), r.output
    en = run(["simulate", "--boards", "2", "--seed", "2f", "--stats"], "en").output
    assert re.search(r"^deals played \(boards × rooms\) +4$", en, re.M), en


# 6. no English left in a Chinese line ----------------------------------------------------


def test_a_bad_seed_in_the_readers_words(tmp_path: Path) -> None:
    r = run(["simulate", "--boards", "1", "--seed", "zz"])
    assert r.output.strip().splitlines()[-1] == "错误：--seed 的值无效：“zz”不是十六进制数（例如 1f2e）"
    en = run(["simulate", "--boards", "1", "--seed", "zz"], "en").output
    assert "Invalid value for --seed: 'zz' is not hexadecimal (e.g. 1f2e)" in en
    url = f"sqlite:///{tmp_path / 'd.sqlite'}"
    args = ["demo", "--seed", "zz", "--db", url, "--out", str(tmp_path / "r")]
    assert run(args).output.strip() == "错误：种子须为十六进制数，最多64位（例如 1f2e），而不是“zz”"
    assert run(args, "en").output.strip() == (
        "Error: the seed must be hexadecimal, at most 64 digits (e.g. 1f2e), not 'zz'")


def test_an_abbreviations_stops_stay() -> None:
    from duplicate.commands.clickwords import full_stops  # noqa: PLC0415

    assert full_stops("无效：不是 (e.g. 1f2e)") == "无效：不是 (e.g. 1f2e)"
    assert full_stops("缺少参数 'NAME'. 用") == "缺少参数 'NAME'。用"


def test_deals_show_comments_in_the_readers_words(demo: tuple[Path, str, str]) -> None:
    _, url, name = demo
    r = run(["deals", "show", name, "--db", url])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == f"; 牌组“{name}”：4副，生成器 gd-sha256ctr-fy/1，级牌安排 打2"
    assert re.fullmatch(r"; 承诺值 [0-9a-f]{64}；种子未公开", lines[1]), lines[1]
    en = run(["deals", "show", name, "--db", url], "en").output.splitlines()
    assert en[0] == f"; set {name}: 4 boards, generator gd-sha256ctr-fy/1, levels fixed:2"
    assert re.fullmatch(r"; commitment [0-9a-f]{64}; seed not revealed", en[1]), en[1]


def test_db_downgrade_names_tables_by_what_they_hold(demo: tuple[Path, str, str],
                                                     tmp_path: Path) -> None:
    import shutil  # noqa: PLC0415

    where, _, name = demo
    copy = tmp_path / "c.sqlite"
    shutil.copy(where / "d.sqlite", copy)
    r = run(["db", "downgrade", "0001", "--db", f"sqlite:///{copy}"])
    assert r.exit_code != 0
    assert "；1条赛事记录；2条队伍记录；8条牌手记录；1条轮次记录；" in r.output, r.output
    assert "events" not in r.output and "event_teams" not in r.output
    en = run(["db", "downgrade", "0001", "--db", f"sqlite:///{copy}"], "en").output
    assert "1 row of events; 2 rows of event_teams" in en, en


def test_tribute_refusal_names_no_function() -> None:
    from duplicate.i18n import gettext  # noqa: PLC0415

    assert gettext("zh", "engine.tribute_none") == "现在不在进贡阶段：要先发牌"


# 8. names quoted in the reader's language ------------------------------------------------


def test_names_quoted_in_chinese_quotation_marks(demo: tuple[Path, str, str]) -> None:
    _, url, name = demo
    r = run(["event", "standings", "NoSuch", "--db", url])
    assert r.output.strip() == "错误：没有名为“NoSuch”的赛事：请用 'guandan event create' 创建"
    r = run(["event", "matches", name, "--round", "9", "--db", url])
    assert r.output.strip() == f"错误：赛事“{name}”只有1轮，没有第9轮"  # the demo plays one
    r = run(["deals", "show", "NoSet", "--db", url])
    assert r.output.strip() == "错误：数据库中没有名为“NoSet”的牌组"
    en = run(["event", "matches", name, "--round", "9", "--db", url], "en").output
    assert f"event '{name}'" in en and "“" not in en


def test_quoted_turns_only_a_quoted_name() -> None:
    from duplicate.i18n import gettext, phrase, quoted  # noqa: PLC0415

    assert gettext("zh", "out.seed.not_hex", seed=repr("it's")) == "“it's”不是十六进制数（例如 1f2e）"
    assert quoted("'a' and 'b'") == "'a' and 'b'" and quoted(3) == 3 and quoted("x") == "x"
    assert phrase("out.seed.not_hex", seed=repr("zz")).text("en") == "'zz' is not hexadecimal (e.g. 1f2e)"


def test_the_event_is_never_bisai_where_the_catalogue_names_it() -> None:
    from duplicate.i18n import catalogue  # noqa: PLC0415

    assert [k for k, v in catalogue().items()
            if "{event}" in v.get("zh", "") and "比赛" in v["zh"]] == []


# 7. lists and clauses --------------------------------------------------------------------


def test_team_list_joins_names_in_the_readers_way(demo: tuple[Path, str, str]) -> None:
    _, url, name = demo
    zh = run(["event", "team", "list", name, "--db", url]).output.splitlines()
    assert zh[2].split("  ")[0:1] == ["1"]
    assert "Zhang Wei、Li Na、Wang Fang、Liu Yang" in zh[2]
    assert "Zhang Wei/Li Na、Wang Fang/Liu Yang" in zh[2]
    en = run(["event", "team", "list", name, "--db", url], "en").output.splitlines()
    assert "Zhang Wei, Li Na, Wang Fang, Liu Yang" in en[2]
    assert "Zhang Wei/Li Na, Wang Fang/Liu Yang" in en[2]
    csv = run(["event", "team", "list", name, "--db", url, "--csv"], "zh").output
    assert "Zhang Wei Li Na Wang Fang Liu Yang" in csv  # the machine format as it was


def test_event_create_says_each_setting_after_its_name(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite'}"
    assert run(["db", "upgrade", "--db", url], "en").exit_code == 0
    r = run(["event", "create", "X", "--db", url, "--scale", "vp20", "--variant",
             "jiefeng_next=true", "--language", "zh"])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == ("赛事“X”：瑞士移位制，3轮，每轮8副；计分方式：20–0 胜利分；"
                                        "规则：接风由下家领出；页面语言：中文")
    r = run(["event", "create", "Y", "--db", url, "--scale", "vp20"], "en")
    assert r.output.splitlines()[0] == ("event 'Y': swiss, 3 rounds of 8 boards, scale vp20, "
                                        "rules competition, pages in English")


# 9. one number format for points ---------------------------------------------------------


def test_points_in_one_format_on_pages_and_in_listings(demo: tuple[Path, str, str]) -> None:
    from duplicate.i18n.game import points_text  # noqa: PLC0415

    assert [points_text(v) for v in (2.0, 0.0, 12.5, 13.25, -0.0, None)] == [
        "2", "0", "12.5", "13.25", "0", ""]
    _, url, name = demo
    for lang in ("zh", "en"):
        rows = run(["event", "standings", name, "--db", url], lang).output.splitlines()
        assert rows[2].split()[:5] == ["1", "East", "Lake", "1", "2"], rows
        assert rows[3].split()[3:6] == ["1", "0", "0"], rows
    assert run(["event", "standings", name, "--db", url]).output.split()[6] == "级差分"
    index = (report(demo, "zh") / "index.html").read_text(encoding="utf-8")
    index = re.sub(r' data-label="[^"]*"', "", index)  # the column's name, on a phone
    assert "<td>1</td><td>2</td><td>0</td>" in index


# 10. help that does not break a Chinese word ------------------------------------------------


@pytest.mark.parametrize("command", [["event", "create"], ["event", "table-cards"]])
def test_chinese_help_keeps_each_bracketed_aside_on_one_line(command: list[str]) -> None:
    from duplicate.names import display_width  # noqa: PLC0415

    r = run([*command, "--help"])  # click's default width (80 columns under the test runner)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    # a short aside broken over two lines: "（默⏎认：wdl）", "（必⏎填）" (a long one may break)
    assert re.findall(r"（[^）\n]{0,12}\n\s*[^（\n]{0,12}）", r.output) == [], r.output
    assert max(display_width(line) for line in lines if "guandan " not in line) <= 80
    if command[1] == "create":
        assert "（默认：wdl）" in r.output and "（默认：guandan --lang，否则英文）" in r.output
    else:
        assert "（必填）" in r.output
    assert "Default: wdl" not in run([*command, "--help"], "en").output  # English as it was


def test_wrap_breaks_an_aside_only_when_it_is_wider_than_a_line() -> None:
    from duplicate.commands.helps import wrap  # noqa: PLC0415

    assert wrap("积分：胜平负或胜利分（VP）（默认：wdl）。", 30) == "积分：胜平负或胜利分（VP）\n（默认：wdl）。"
    long = "一" * 3 + "（" + "二" * 20 + "）"
    assert all(len(line) <= 16 for line in wrap(long, 30).splitlines())
