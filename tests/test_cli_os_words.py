"""The operating system's reasons in a refusal ("No such file or directory", "Is a
directory") in the reader's language, from the errno (catalogue domain ``os``), the path
kept; in English as the system words them."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from test_cli_click_words import ROOT, english_left, run

from duplicate.commands.common import os_error_text, write_output
from duplicate.i18n import OsReason, messages, os_phrase, os_reason, phrase


@pytest.mark.parametrize(("code", "chinese"), [
    (errno.ENOENT, "文件或文件夹不存在"), (errno.EACCES, "没有权限"),
    (errno.EISDIR, "这是一个文件夹"), (errno.EEXIST, "文件已存在"),
    (errno.ENOSPC, "磁盘空间不足"), (errno.EADDRINUSE, "地址已被占用"),
])
def test_a_reason_from_its_errno(code: int, chinese: str) -> None:
    exc = OSError(code, os.strerror(code), "/x/y.gdn")
    assert os_reason(exc).text("zh") == chinese
    assert os_reason(exc).text("en") == str(os_reason(exc)) == os.strerror(code)
    worded = phrase("gdn.err.unreadable", reason=os_reason(exc))
    assert str(worded) == f"cannot read the file: {os.strerror(code)}"
    assert chinese in worded.text("zh")
    assert os_phrase(exc).text("zh") == chinese and str(os_phrase(exc)) == os.strerror(code)


def test_an_errno_the_catalogue_does_not_name_keeps_the_systems_words() -> None:
    assert OsReason("Exec format error", errno.ENOEXEC).text("zh") == "Exec format error"
    assert OsReason("odd", None).text("zh") == "odd"
    assert all(set(messages()[k]) == {"en", "zh"} for k in messages() if k.startswith("os."))


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.gdn")
    code, zh = run("--lang", "zh", "replay", missing)
    assert code == 1 and zh == f"错误：{missing}：文件或文件夹不存在\n"
    code, en = run("replay", missing)
    assert code == 1 and en == f"Error: {missing}: No such file or directory\n"


def test_compare_of_a_missing_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.gdn")
    code, zh = run("--lang", "zh", "compare", missing)
    assert code == 1 and f"无法读取“{missing}”：文件或文件夹不存在" in zh
    assert english_left(zh.replace(missing, "")) == []
    code, en = run("compare", missing)
    assert en.endswith(f"cannot read '{missing}': No such file or directory\n")


def test_writing_into_a_folder_that_is_not_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = str(tmp_path / "no" / "out.txt")
    for lang, line in (("zh", f"无法写入“{target}”：文件或文件夹不存在"),
                       ("en", f"cannot write '{target}': No such file or directory")):
        monkeypatch.setenv("GUANDAN_LANG", lang)
        with pytest.raises(click.ClickException) as info:
            write_output("text", target)
        assert info.value.message == line
    monkeypatch.setenv("GUANDAN_LANG", "zh")
    assert os_error_text(IsADirectoryError(errno.EISDIR, "Is a directory", "/tmp")) == \
        "/tmp：这是一个文件夹"


def test_a_real_process_in_chinese(tmp_path: Path) -> None:
    missing = str(tmp_path / "gone.gdn")
    done = subprocess.run(
        [sys.executable, "-m", "cli", "replay", missing], cwd=ROOT, capture_output=True,
        text=True, env={**os.environ, "GUANDAN_LANG": "zh"}, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr == f"错误：{missing}：文件或文件夹不存在\n"
