"""The tutorials' commands run as written, so that they cannot rot.

A tutorial (``docs/tutorials/*.md``, ``docs/zh/tutorials/*.md``) marks the commands a reader
types as fenced ``sh`` blocks; a fenced ``text`` block right after one (nothing but blank
lines between) is what the page says the commands print. Each page runs in a temporary
folder of its own (so on a temporary SQLite database, ``./guandan.sqlite``), block after
block, each in ``bash -e`` (with what earlier blocks ``export``-ed, as the reader's terminal
keeps it): every block must exit 0 and print every line of its ``text``
block (a line is checked piece by piece around ``…``, which stands for what changes from run
to run: a commitment, a number).

Two kinds of block run differently:

* a block that starts the hall (``guandan serve``) runs in the background on a free port
  (the page's port replaced), is checked while it runs (its ``text`` block, and every
  ``http://127.0.0.1:PORT/…`` address the page tells the reader to open answers 200), then
  stopped, as the reader stops it with Ctrl-C;
* the arena's port (``--port 23456``) is replaced by a free port, so that the test never
  collides with another run on the same machine.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TUTORIALS = sorted((ROOT / "docs" / "tutorials").glob("*.md")) + sorted(
    (ROOT / "docs" / "zh" / "tutorials").glob("*.md"))
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
#: the ports the pages name, each replaced by a free one
HALL_PORT, ARENA_PORT = "8000", "23456"
BLOCK_TIMEOUT = 180


@dataclass
class Step:
    """One ``sh`` block and the lines its ``text`` block promises."""

    commands: str
    expected: list[str]
    line: int


def steps(page: Path) -> list[Step]:
    """The page's ``sh`` blocks in order, each with the ``text`` block that follows it."""
    text = page.read_text(encoding="utf-8")
    found: list[Step] = []
    previous_end = -1
    for match in FENCE.finditer(text):
        lang, body = match.group(1), match.group(2)
        if lang == "sh":
            line = text.count("\n", 0, match.start()) + 1
            found.append(Step(body, [], line))
        elif lang == "text" and found and previous_end >= 0 \
                and text[previous_end:match.start()].strip() == "":
            found[-1].expected = [ln for ln in body.splitlines() if ln.strip(" …")]
        previous_end = match.end() if lang == "sh" else -1
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment() -> dict[str, str]:
    """The reader's shell: this interpreter's ``bin`` first (``guandan``, ``python``), no
    database, language or password of the developer's own."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("GUANDAN_DATABASE_URL", "GUANDAN_LANG", "GUANDAN_DIRECTOR_PASSWORD",
                        "GUANDAN_PUBLIC_URL", "GUANDAN_SECRET_KEY")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = env["LANG"] = "C.UTF-8"
    return env


def assert_promised(step: Step, output: str, where: str) -> None:
    for line in step.expected:
        pieces = [p.strip() for p in line.split("…") if p.strip()]
        assert all(p in output for p in pieces), f"{where}: {line!r} not printed:\n{output}"


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # follows the redirects
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, ""


def run_hall(step: Step, page_text: str, cwd: Path, env: dict[str, str], where: str) -> None:
    port = str(free_port())
    commands = step.commands.replace(f"--port {HALL_PORT}", f"--port {port}")
    assert f"--port {port}" in commands, f"{where}: the hall's port is not --port {HALL_PORT}"
    log = cwd / f"serve-{step.line}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(["bash", "-e", "-c", commands], cwd=cwd, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"{where}: the hall stopped:\n{log.read_text()}"
            try:
                if get(base)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"{where}: the hall never answered"
            time.sleep(0.3)
        promised = Step(step.commands, [ln.replace(f":{HALL_PORT}/", f":{port}/")
                                        for ln in step.expected], step.line)
        assert_promised(promised, log.read_text(), where)
        addresses = set(re.findall(rf"http://127\.0\.0\.1:{HALL_PORT}(/[\w/%.-]*)", page_text))
        assert addresses, f"{where}: the page gives no address to open"
        for path in sorted(addresses):
            status, _ = get(f"http://127.0.0.1:{port}{path}")
            assert status == 200, f"{where}: {path} answered {status}"
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # the reader's Ctrl-C, to the hall this test started
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.slow  # some 30 commands a page, each a process of its own
@pytest.mark.parametrize("page", TUTORIALS, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_tutorial_runs_as_written(page: Path, tmp_path: Path) -> None:
    page_text = page.read_text(encoding="utf-8")
    found = steps(page)
    assert len(found) >= 3, f"{page.name}: its commands are not marked as ```sh blocks"
    env = environment()
    exports = ""  # the reader's terminal keeps what an earlier block exported
    for step in found:
        where = f"{page.relative_to(ROOT)}:{step.line}"
        if re.search(r"^\s*guandan serve\b", step.commands, re.M):
            run_hall(Step(exports + step.commands, step.expected, step.line), page_text,
                     tmp_path, env, where)
        else:
            run_step(Step(exports + step.commands, step.expected, step.line), tmp_path, env,
                     where)
        exports += "".join(ln + "\n" for ln in step.commands.splitlines()
                           if re.match(r"export \w+=", ln))


def run_step(step: Step, cwd: Path, env: dict[str, str], where: str) -> None:
    commands = step.commands.replace(f"--port {ARENA_PORT}", f"--port {free_port()}")
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", commands], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=BLOCK_TIMEOUT)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{where}: exit {done.returncode}:\n{output}"
    assert_promised(step, output, where)


def test_every_tutorial_is_in_both_languages_where_players_read_it() -> None:
    names = {p.relative_to(ROOT / "docs").as_posix() for p in TUTORIALS}
    assert {"tutorials/director.md", "tutorials/player.md", "tutorials/ai-team.md",
            "zh/tutorials/director.md", "zh/tutorials/player.md"} <= names


def test_the_fences_are_read(tmp_path: Path) -> None:
    """The reader of the pages finds a command block and the output promised after it, and
    not an output block that follows prose."""
    page = tmp_path / "tutorial.md"
    page.write_text("x\n\n```sh\necho a\n```\n\n```text\na\n…\n```\n\nProse.\n\n"
                        "```text\nnot promised\n```\n\n```sh\necho b\n```\n", encoding="utf-8")
    assert [(s.commands, s.expected) for s in steps(page)] == [
        ("echo a\n", ["a"]), ("echo b\n", [])]


def test_a_promise_is_checked_around_its_ellipses() -> None:
    step = Step("true", ["commitment (publish this now): …", "stored set 'cup': … boards"], 1)
    assert_promised(step, "commitment (publish this now): 3f1c\nstored set 'cup': 16 boards",
                    "here")
    with pytest.raises(AssertionError):
        assert_promised(step, "commitment (publish this now): 3f1c\nstored set 'cap': 16",
                        "here")
