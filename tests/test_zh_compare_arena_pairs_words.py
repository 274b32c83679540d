"""The Chinese of ``compare``, the arena and ``pairs``, in the words of docs/GLOSSARY.md:

- ``compare --board N``: a double down said once (``南北升3级（东西双下）；头游南、二游北``, not
  again after the order; in English too), the swing ``级差`` (not 得失), the place column
  ``名次`` (not 游次);
- the arena: an agent is 智能体 (never 参赛程序), a match's points 积分 (not 场分) beside the
  standings' 总积分, the standings' total swing 级差分, a seat ``第1桌0号位`` (no spaces);
- ``pairs``: a pair that sat both ways ``南北、东西`` (not ``NS+EW``), and the footer
  ``每副牌应在4桌上打过``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main


def run(*args: str, lang: str = "zh") -> Result:
    return CliRunner().invoke(main, ["--lang", lang, *args])


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four boards of the heuristic bots against random ones: double downs in both rooms."""
    path = tmp_path_factory.mktemp("compare") / "games.gdn"
    made = run("simulate", "--seed", "1f", "--boards", "4", "--x", "heuristic", "--y",
               "random", "-o", str(path), lang="en")
    assert made.exit_code == 0, made.output
    return path


def test_compare_says_a_double_down_once(games: Path) -> None:
    zh = run("compare", str(games), "--board", "4")
    assert zh.exit_code == 0, zh.output
    assert "  开室：南北升3级（东西双下）；头游北、二游南\n" in zh.output
    assert "  闭室：东西升3级（南北双下）；头游西、二游东\n" in zh.output
    assert all(line.count("双下") <= 1 for line in zh.output.splitlines())
    assert "  第一个牌室南北方的级差：+6\n" in zh.output and "得失" not in zh.output
    head = next(line for line in zh.output.splitlines() if line.startswith("牌室"))
    assert head.split()[:5] == ["牌室", "座位", "牌手", "名次", "南北结果"]
    assert "游次" not in zh.output
    en = run("compare", str(games), "--board", "4", lang="en")
    assert "  Open room: N–S up 3 (E–W double down); 1st out North, 2nd out South\n" in en.output
    assert all(line.count("double down") <= 1 for line in en.output.splitlines())


def test_compare_keeps_the_whole_order_without_double_down(tmp_path: Path) -> None:
    path = tmp_path / "mixed.gdn"
    made = run("simulate", "--seed", "1f", "--boards", "3", "--x", "mixed", "--y", "mixed",
               "-o", str(path), lang="en")
    assert made.exit_code == 0, made.output
    zh = run("compare", str(path), "--board", "3")
    assert zh.exit_code == 0, zh.output
    assert "  开室：东西升2级；头游东、二游南、三游西、末游北\n" in zh.output  # in full
    assert "  闭室：南北升3级（东西双下）；头游北、二游南\n" in zh.output


def test_the_catalogue_says_agent_and_points_one_way() -> None:
    from duplicate.i18n import catalogue

    zh = {k: v["zh"] for k, v in catalogue().items() if "zh" in v}
    for word in ("参赛程序", "场分", "(?<!头)游次", "南北方得失"):
        assert [k for k, v in zh.items() if re.search(word, v)] == [], word
    assert zh["rest.col.agent"] == "智能体" and zh["cli.col.place"] == "名次"
    # a table and a position as 第1桌 is written elsewhere: no spaces around the number
    spaced = re.compile(r"第 \{\w+\} [桌副]|\{\w+\} 号位")
    assert [k for k, v in zh.items() if k.startswith(("arena.", "rest.arena."))
            and spaced.search(v)] == []


def test_pairs_says_where_a_pair_sat_and_how_often_a_board_is_due(tmp_path: Path) -> None:
    from test_pairs import event

    from duplicate.gdn import dumps

    rows = [(1, "A", "D", 2), (1, "B", "E", -1), (2, "D", "A", 1), (2, "B", "E", 3)]
    path = tmp_path / "all.gdn"
    path.write_text(dumps(event(rows)), encoding="utf-8")
    zh = run("pairs", str(path), "--method", "xswing")
    assert zh.exit_code == 0, zh.output
    lines = zh.output.splitlines()
    assert lines[2].split() == ["1", "A1", "&", "A2", "南北、东西", "2", "5", "2.5"]
    assert "NS" not in zh.output and "EW" not in zh.output
    assert lines[-1] == "4对搭档，2副，每副牌应在2桌上打过；计分方式：交叉级差"
    en = run("pairs", str(path), "--method", "xswing", lang="en")
    assert en.output.splitlines()[2].split()[4] == "NS+EW"  # English keeps the field's value
    assert en.output.splitlines()[-1] == "4 pairs, 2 boards, each due at 2 tables; scored by xswing"
