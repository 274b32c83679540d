"""The records commands (``replay``, ``simulate``, ``plays``, ``compare``) and the ``.gdn``
reader behind them: an error stays in its own deal, a file not in UTF-8 is said in the
output's language with its byte and place, finishing orders and combinations are said in
words, and ``compare`` of one board of several tables shows each table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate import gdn

GOLDEN = Path(__file__).parent / "golden" / "gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"


def _deal_starts(lines: list[str]) -> list[int]:
    """The 0-based index of each deal's first line in the example (deals are separated by
    one blank line)."""
    return [0] + [i + 1 for i, line in enumerate(lines[:-1]) if not line.strip()]


# 1. one Finish or Result out of place took every deal after it down ---------------------


@pytest.mark.parametrize("tag", ['[Result "EW +1"]', '[Finish "N S E W"]'])
@pytest.mark.parametrize("deal", [0, 13, 25])
def test_a_trailer_tag_out_of_place_fails_only_its_own_deal(
    tmp_path: Path, tag: str, deal: int
) -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n")
    start = _deal_starts(lines)[deal]
    lines.insert(start + 1, tag)  # after the deal's first tag, as awk 'NR==2{…}1' does
    path = tmp_path / "m6.gdn"
    path.write_text("\n".join(lines), encoding="utf-8")

    result = CliRunner().invoke(main, ["replay", "--json", str(path)])
    assert result.exit_code == 1
    rows = json.loads(result.output)
    assert len(rows) == 26  # no phantom deal
    failed = [i for i, r in enumerate(rows) if r["status"] != "ok"]
    assert failed == [deal]
    name = tag[1:].split()[0]
    play_line = start + 1 + lines[start:].index("[Play]") + 1  # the deal's first play, 1-based
    assert rows[deal]["line"] == start + 1
    assert rows[deal]["error"] == (
        f"{path}:{play_line}: a play after the {name} tag of line {start + 2}")
    # every deal after the damaged one starts where it does
    healthy = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert [r["line"] for r in rows[deal + 1:]] == [(h.line or 0) + 1 for h in healthy[deal + 1:]]
    # the file read whole, piece by piece and deal by deal agree
    records = gdn.loads(path.read_text(encoding="utf-8"), strict=False)
    assert [r.ok for r in records] == [i != deal for i in range(26)]
    assert [r.line for r in gdn.iter_file(path, strict=False)] == [r.line for r in records]
    assert gdn.count_deals(path) == 26


def test_a_second_finish_or_result_is_an_error_of_its_deal() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    first, rest = text.split("\n\n", 1)
    spoilt = first + '\n[Result "EW +3"]\n\n' + rest
    records = gdn.loads(spoilt, file="f.gdn", strict=False)
    assert len(records) == 26
    assert str(records[0].errors[0]) == "f.gdn:129: a second Result tag (the first is at line 128)"
    assert all(r.ok for r in records[1:])


def test_a_header_tag_out_of_place_keeps_the_next_deal_whole() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    deals = text.split("\n\n")
    lines = deals[0].split("\n")
    lines.insert(20, '[Board "9"]')  # in the play list: the deal is cut in two there
    records = gdn.loads("\n".join(lines) + "\n\n" + "\n\n".join(deals[1:]), strict=False)
    # the next deal keeps its Event tag (it went to the cut-off part before)
    assert records[2].tags == {"Event": "Played by OpenGuanDan", "Board": "2"}
    assert len(records) == 27 and not records[1].ok and all(r.ok for r in records[2:])


# 2. a file that is not UTF-8 was refused in Chinese with Python's English reason -----------


def test_not_utf8_is_said_wholly_in_chinese(tmp_path: Path) -> None:
    path = tmp_path / "bin.gdn"
    path.write_bytes(b"\xff\xfe bin")
    result = CliRunner().invoke(main, ["--lang", "zh", "replay", str(path)])
    assert result.exit_code == 1
    assert f"{path}：不是UTF-8文本（第0字节处：0xFF不能作为字符的开头）" in result.output
    assert "invalid" not in result.output and "byte" not in result.output
    english = CliRunner().invoke(main, ["replay", str(path)])
    assert f"{path}: not UTF-8 text: invalid start byte at byte 0" in english.output


@pytest.mark.parametrize(
    ("data", "zh"),
    [
        (b"\xef\xbb\xbf[Event \"x\"]\n\xe4x\n", "第15字节处：0xE4开头的字符缺少合法的后续字节"),
        (b"[Event \"x\"]\n\xe4\xb8", "第12字节处：0xE4开头的字符不完整"),
    ],
)
def test_not_utf8_names_the_byte_and_its_place(tmp_path: Path, data: bytes, zh: str) -> None:
    path = tmp_path / "bad.gdn"
    path.write_bytes(data)
    # read whole (a byte-order mark counted as the file's bytes), and deal by deal
    with pytest.raises(gdn.GdnError) as whole:
        gdn.loads(data, file="bad.gdn")
    assert zh in whole.value.text("zh")
    (record,) = gdn.iter_file(path, strict=False)
    assert zh in record.errors[0].text("zh")


# 3. replay and simulate said a finishing order seat by seat (西 北 南 东) in Chinese --------


def test_replay_says_the_finishing_order_in_words() -> None:
    result = CliRunner().invoke(main, ["--lang", "zh", "replay", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    cells = re.split(r"\s{2,}", result.output.splitlines()[2])
    # the result names the double down: the order beside it does not again
    assert cells[4:6] == ["头游东、二游西", "东西升3级（南北双下）"]
    single = [line for line in result.output.splitlines() if "三游" in line]
    assert single and all("末游" in line for line in single)
    rows = json.loads(CliRunner().invoke(main, ["--lang", "zh", "replay", "--json",
                                                str(EXAMPLE)]).output)
    assert rows[0]["finish"] == "E W"  # --json keeps the seat letters


def test_simulate_says_the_finishing_orders_in_words() -> None:
    result = CliRunner().invoke(main, ["--lang", "zh", "simulate", "--seed", "01",
                                       "--boards", "2"])
    assert result.exit_code == 0, result.output
    row = result.output.splitlines()[2].split()
    assert row[:3] == ["1", "2", "北"]  # the leader stays a seat's name
    assert row[3] == row[5] == "头游西、二游东，南北双下"
    csv = CliRunner().invoke(main, ["--lang", "zh", "simulate", "--seed", "01",
                                    "--boards", "2", "--csv"])
    assert ",W E," in csv.output


# 4. plays --follow named a combination with spaces and a record token in Chinese ----------


@pytest.mark.parametrize(("level", "follow", "zh"), [
    ("7", "Straight 9 S3", "打7时3♠不是顺子9-10-J-Q-K：这些牌可读作单张3"),
    ("T", "Pair T S3", "打10时3♠不是对子10：这些牌可读作单张3"),
    ("7", "Bomb 9 S3", "打7时3♠不是炸弹9：这些牌可读作单张3"),
    ("7", "ThreePair A H2 H2 S3 S3 S4 S4", "打7时2♥ 2♥ 3♠ 3♠ 4♠ 4♠不是三连对AA2233：这些牌可读作三连对223344"),
    ("7", "Straight 3 S3 H4", "打7时3♠ 4♥不是顺子3-4-5-6-7：这些牌不成牌型"),
])
def test_plays_names_a_declared_combination_as_the_glossary_writes_it(
    level: str, follow: str, zh: str
) -> None:
    args = ["plays", "--level", level, "--hand", "S2 S3", "--follow", follow]
    result = CliRunner().invoke(main, ["--lang", "zh", *args])
    assert result.exit_code == 1
    assert result.output.strip() == f"错误：--follow：{zh}"
    english = CliRunner().invoke(main, args)  # English keeps the notation --follow reads
    assert f"is not {' '.join(follow.split()[:2])} at level {level}" in english.output


# 5. compare --board showed no detail when several tables played the board ----------------


def test_compare_one_board_of_several_tables_shows_each_tables_detail(tmp_path: Path) -> None:
    import dataclasses

    from test_cli_compare import rooms_of

    first = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))[0]
    records = [dataclasses.replace(r, tags={**r.tags, "Table": table})
               for table, at in (("1", 4), ("2", 2)) for r in rooms_of(first, at, "3")]
    path = tmp_path / "two-tables.gdn"
    path.write_text(gdn.dumps(records), encoding="utf-8")

    result = CliRunner().invoke(main, ["compare", str(path), "--board", "3"])
    assert result.exit_code == 0, result.output
    assert "first divergence at action 5" in result.output  # table 1's rooms
    assert "first divergence at action 3" in result.output  # table 2's rooms
    assert "Table 1: Board 3 (level 2, East leads)" in result.output
    assert "Table 2: Board 3 (level 2, East leads)" in result.output
    zh = CliRunner().invoke(main, ["--lang", "zh", "compare", str(path), "--board", "3"])
    assert "第2桌：第3副牌（打2，东首出）" in zh.output
    plain = CliRunner().invoke(main, ["compare", str(path)])  # every board: the lines only
    assert "first divergence" not in plain.output
    assert "--no-detail" in CliRunner().invoke(main, ["compare", "--help"]).output
    quiet = CliRunner().invoke(main, ["compare", str(path), "--board", "3", "--no-detail"])
    assert "first divergence" not in quiet.output


def test_a_teams_file_or_event_import_not_utf8_is_said_wholly_in_chinese(tmp_path: Path) -> None:
    """The event's own readers (a teams file, ``event import``'s records) name the bad byte
    in Chinese as the .gdn reader does, not with the codec's English reason."""
    from duplicate.events import EventError
    from duplicate.events.field import read_teams_file
    from duplicate.events.imports import _prepare_file

    path = tmp_path / "teams.txt"
    path.write_bytes(b"a\xff\xfeb\n")
    with pytest.raises(EventError) as teams:
        read_teams_file(path)
    assert teams.value.text("zh").endswith("不是UTF-8文本（第1字节处：0xFF不能作为字符的开头）")
    assert "invalid start byte at byte 1" in str(teams.value)
    with pytest.raises(EventError) as records:
        _prepare_file(str(path))
    zh = records.value.text("zh")
    assert "0xFF不能作为字符的开头" in zh and "invalid" not in zh
