"""``guandan replay`` through click's CliRunner: output, --json, exit codes, --strict, --jobs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from duplicate import gdn
from duplicate.i18n import translator

GOLDEN = Path(__file__).parent / "golden" / "gdn"
EXAMPLE = GOLDEN / "openguandan-26-deals.gdn"


def _bad_file(tmp_path: Path) -> Path:
    """The example's first deal with S's second play out of turn (W plays instead)."""
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n\n")[0].split("\n")
    lines[7] = "W ThreeWithTwo 2 H2 S2 D2 SQ SQ"
    path = tmp_path / "bad.gdn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_prints_every_deal_and_exits_0() -> None:
    result = CliRunner().invoke(main, ["replay", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == [
        "file",
        "line",
        "board",
        "room",
        "plays",
        "finish",
        "result",
        "status",
        "error",
    ]
    assert len(lines) == 2 + 26 + 1
    assert lines[2].split() == [str(EXAMPLE), "1", "1", "120", "E", "W", "EW", "+3", "ok"]
    assert lines[-1] == "26 deals: 26 replayed, 0 failed"


def test_replay_json_agrees_with_the_records() -> None:
    result = CliRunner().invoke(main, ["replay", "--json", str(EXAMPLE)])
    assert result.exit_code == 0
    rows = json.loads(result.output)
    records = gdn.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert len(rows) == len(records) == 26
    for row, rec in zip(rows, records, strict=True):
        assert row["status"] == "ok" and row["error"] is None
        assert row["board"] == rec.board and row["line"] == rec.line
        assert rec.result is not None and row["result"] == gdn.format_result(rec.result)
        assert rec.finish is not None and row["finish"].startswith(
            " ".join(s.name for s in rec.finish)
        )


def test_a_failing_deal_is_reported_and_exits_1(tmp_path: Path) -> None:
    bad = _bad_file(tmp_path)
    result = CliRunner().invoke(main, ["replay", "--json", str(bad), str(EXAMPLE)])
    assert result.exit_code == 1
    rows = json.loads(result.output)
    assert len(rows) == 27
    assert rows[0]["status"] == "error" and rows[0]["finish"] is None
    assert rows[0]["error"].startswith(f"{bad}:8: seat W: W acted out of turn")
    assert "[position N:" in rows[0]["error"]
    assert rows[0]["failure"] == "play"  # a play refused: one a rule variant can cause
    assert all(r["status"] == "ok" and r["failure"] is None for r in rows[1:])


def test_strict_stops_at_the_first_failure(tmp_path: Path) -> None:
    bad = _bad_file(tmp_path)
    result = CliRunner().invoke(main, ["replay", "--strict", str(EXAMPLE), str(bad), str(EXAMPLE)])
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "27 deals: 26 replayed, 1 failed"


def test_unreadable_and_missing_files_are_failures(tmp_path: Path) -> None:
    binary = tmp_path / "x.gdn"
    binary.write_bytes(b"\xff\xfe[Event]")
    result = CliRunner().invoke(main, ["replay", "--json", str(binary)])
    assert result.exit_code == 1
    rows = json.loads(result.stdout)
    assert "not UTF-8" in rows[0]["error"]
    # a missing file is a file error (one line, exit 1), not a deal that failed
    result = CliRunner().invoke(main, ["replay", "--json", str(binary), str(tmp_path / "no.gdn")])
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"Error: {tmp_path / 'no.gdn'}: No such file or directory\n"


def test_jobs_give_the_same_reports(tmp_path: Path) -> None:
    files = []
    for i in range(3):
        files.append(str(shutil.copy(EXAMPLE, tmp_path / f"e{i}.gdn")))
    files.insert(1, str(_bad_file(tmp_path)))
    one = CliRunner().invoke(main, ["replay", "--json", "--jobs", "1", *files])
    two = CliRunner().invoke(main, ["replay", "--json", "--jobs", "2", *files])
    assert one.exit_code == two.exit_code == 1
    assert one.output == two.output
    assert len(json.loads(two.output)) == 3 * 26 + 1


def test_replay_has_help_and_needs_files() -> None:
    result = CliRunner().invoke(main, ["replay", "--help"])
    assert result.exit_code == 0 and "Replay every deal" in result.output
    assert "--strict / --lenient" in result.output and "--jobs" in result.output
    assert CliRunner().invoke(main, ["replay"]).exit_code == 2


def test_rule_variants_change_the_replay() -> None:
    """Under double_down_plus4 the example's 7 double downs gain 4, not the recorded 3."""
    result = CliRunner().invoke(
        main, ["replay", "--json", "--variant", "double_down_plus4=true", str(EXAMPLE)]
    )
    assert result.exit_code == 1
    rows = json.loads(result.output)
    failed = [r for r in rows if r["status"] == "error"]
    assert len(failed) == 7
    assert all("does not match the replay" in r["error"] and "+4" in r["error"] for r in failed)
    same = CliRunner().invoke(main, ["replay", "--variant", "bomb_max=10", str(EXAMPLE)])
    assert same.exit_code == 0


def test_bad_variants_are_usage_errors() -> None:
    for bad, message in (
        ("foo=1", "NAME one of"),
        ("bomb_max=3", "between 4 and 10"),
        ("jiefeng_next=maybe", "true or false"),
        ("bomb_max=x", "is a number"),
    ):
        result = CliRunner().invoke(main, ["replay", "--variant", bad, str(EXAMPLE)])
        assert result.exit_code == 2 and message in result.output


# --- the --variant hint: only for a failure a rule variant can cause ----------------------


def _spoilt(tmp_path: Path, number: int, new: str) -> Path:
    """The example's first deal with its line ``number`` replaced by ``new``."""
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n\n")[0].split("\n")
    lines[number - 1] = new
    path = tmp_path / "spoilt.gdn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


#: Each spoilt record: the line changed, its new text, and whether a rule variant can
#: cause that failure (a play refused, a Result the replay does not find) or not (a
#: malformed Deal tag, a DealId that does not name the hands).
SPOILT = {
    "malformed Deal": (5, '[Deal "N:H3 XX"]', False),
    "wrong DealId": (1, '[Event "Played by OpenGuanDan"]\n[DealId "00"]', False),
    "play out of turn": (8, "W ThreeWithTwo 2 H2 S2 D2 SQ SQ", True),
    "Result": (128, '[Result "EW +4"]', True),
}
#: How the command is told its language: none (English), --lang zh, GUANDAN_LANG=zh.
LANGS = {"en": ([], {}), "zh --lang": (["--lang", "zh"], {}), "zh env": ([], {"GUANDAN_LANG": "zh"})}


@pytest.mark.parametrize("how", list(LANGS))
@pytest.mark.parametrize("case", list(SPOILT))
def test_the_variant_hint_only_for_a_failure_a_variant_can_cause(
    tmp_path: Path, case: str, how: str
) -> None:
    number, new, hinted = SPOILT[case]
    path = _spoilt(tmp_path, number, new)
    args, env = LANGS[how]
    lang = "en" if how == "en" else "zh"
    hint = translator(lang)("cli.replay.variant_hint")
    result = CliRunner().invoke(main, [*args, "replay", str(path)], env={"GUANDAN_LANG": "",
                                                                         **env})
    assert result.exit_code == 1, result.output
    summary = translator(lang)("cli.replay.total", n=1, replayed=0, failed=1)
    assert result.output.splitlines()[-1] == summary  # the language was the one asked for
    assert (hint in result.stderr) is hinted, (case, how, result.stderr)
    # a --variant given: no hint either way
    given = CliRunner().invoke(main, [*args, "replay", "--variant", "jiefeng_next=true",
                                      str(path)], env={"GUANDAN_LANG": "", **env})
    assert given.exit_code == 1 and hint not in given.stderr
