"""README's first two commands, in order, in one directory:
``guandan demo``, then ``guandan demo --serve``. The second failed with "folder
guandan-demo-report is not empty: give --force …". A folder that holds only a demo's report
is the demo's own, which the served demo writes over unasked; any other file there, or a
second plain ``guandan demo``, still needs ``--force``.
The service itself is not started (``duplicate.commands.serve.run_server`` is replaced): the command
is followed up to the point where it would serve."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main

REPORT = Path("guandan-demo-report")


def _manifest_event() -> str:
    event = json.loads((REPORT / "manifest.json").read_text(encoding="utf-8"))["event"]
    assert isinstance(event, str)
    return event


def test_readme_demo_then_demo_serve_in_one_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    served: list[int] = []
    monkeypatch.setattr("duplicate.commands.serve.run_server",
                        lambda settings, host, port, workers, level: served.append(port))
    runner = CliRunner()
    first = runner.invoke(main, ["demo", "--boards", "2"])  # as README: no options
    assert first.exit_code == 0, first.output
    demo_event = _manifest_event()
    second = runner.invoke(main, ["demo", "--serve", "--boards", "2"])
    assert second.exit_code == 0, second.output
    assert served == [8000]  # it went on to serve, on the default port
    assert "not empty" not in second.output and "director's desk" in second.output
    served_event = _manifest_event()
    assert served_event != demo_event  # the served demo's report, written over the first
    assert (REPORT / "tables.html").is_file()
    # and once more, as a newcomer would after stopping it
    third = runner.invoke(main, ["demo", "--serve", "--boards", "2"])
    assert third.exit_code == 0, third.output
    # a second plain demo does not write over the first's report unasked (an earlier fix)
    plain = runner.invoke(main, ["demo", "--boards", "2"])
    assert plain.exit_code == 1 and "is not empty" in plain.output


def test_a_folder_with_other_files_still_needs_force(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("duplicate.commands.serve.run_server", lambda *args: None)
    runner = CliRunner()
    assert runner.invoke(main, ["demo", "--boards", "2"]).exit_code == 0
    (REPORT / "notes.txt").write_text("mine\n", encoding="utf-8")
    again = runner.invoke(main, ["demo", "--serve", "--boards", "2"])
    assert again.exit_code == 1
    assert "folder guandan-demo-report is not empty: give --force" in again.output
    assert (REPORT / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    forced = runner.invoke(main, ["demo", "--serve", "--boards", "2", "--force"])
    assert forced.exit_code == 0, forced.output


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Error: the served demo needs --boards 2 or more"),
    ("zh", "错误：演示服务需要 --boards 至少为2")])
def test_a_served_demo_of_one_board_is_refused_before_it_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, words: str) -> None:
    """It ended in a traceback (IndexError) after playing round 1."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--lang", lang, "demo", "--serve", "--boards", "1"])
    assert result.exit_code == 2 and words in result.output, result.output
    assert not Path("guandan-demo.sqlite").exists()  # nothing was done


def test_another_events_report_is_not_the_demos(tmp_path: Path) -> None:
    from duplicate.demo import holds_demo_report

    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text("<html></html>", encoding="utf-8")
    (folder / "manifest.json").write_text(
        json.dumps({"event": "Huai'an Cup", "pages": {"index.html": "x"}}), encoding="utf-8")
    assert not holds_demo_report(folder)
    (folder / "manifest.json").write_text(
        json.dumps({"event": "Demo 0123456789ab", "pages": {"index.html": "x"}}),
        encoding="utf-8")
    assert holds_demo_report(folder)
    assert not holds_demo_report(tmp_path / "missing")
