"""The arena takes its port at once: the agents' launch scripts start their clients half a
second after the arena, and a client that finds no one listening dies. The port accepts
connections before the match's libraries are imported and its boards made; clients that
connect in that time are answered when the arena is ready, and play.

The bound is generous for a loaded machine: the best of three starts under 1 s (the
competition's scripts wait 0.5 s), or under four times the start of ``python -c "import
click"`` measured alongside when the machine is so loaded that this takes more than a
quarter of a second (the arena listened 1.6-4 s after start when it imported its match
first). The figures are printed (``pytest -s``) and recorded in docs/ARENA.md."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.servers import free_port
from protocol_client import play_four

from duplicate.arena.port import take_port
from duplicate.gdn import load

ROOT = Path(__file__).resolve().parent.parent
GUANDAN = [sys.executable, "-c", "import sys; from cli import main; sys.exit(main())"]
#: what the competition's launch scripts wait before starting their clients
SCRIPTS_WAIT = 0.5
#: the bound this test holds the arena to, a loaded test machine allowed for
BOUND = 1.0


def _env(cache: Path) -> dict[str, str]:
    """Python keeping its bytecode (under ``cache``), as an installed package has it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def _arena(port: int, out: Path, wait: float, env: dict[str, str]) -> list[str]:
    return [*GUANDAN, "arena", "duplicate", "--a", "mine", "--b", "theirs", "--seed", "1f",
            "--boards", "1", "--seating", "order", "--port", str(port), "--wait", str(wait),
            "--out", str(out)]


def _until_accepted(port: int, server: subprocess.Popen[str], limit: float) -> None:
    """Return when ``port`` accepts a TCP connection."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            assert server.poll() is None, server.communicate()
            time.sleep(0.002)
    raise AssertionError(f"port {port} not listening after {limit} s")


def _click_start(env: dict[str, str]) -> float:
    """Wall seconds of ``python -c "import click"`` on this machine now."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "import click"], env=env, check=True, timeout=60)
    return time.monotonic() - started


def _start(port: int, out: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], float]:
    """The arena started for a one-board match on ``port``, once the port accepts; the
    seconds that took."""
    started = time.monotonic()
    server = subprocess.Popen(_arena(port, out, 60, env), env=env, cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _until_accepted(port, server, 30)
    return server, time.monotonic() - started


def test_the_arena_listens_at_once_and_plays_the_clients_that_came_early(
        tmp_path: Path) -> None:
    env = _env(tmp_path / "pycache")
    warm = subprocess.run(_arena(free_port(), tmp_path / "warm", 0.1, env), env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert "no table of four clients" in warm.stderr, warm.stderr  # bytecode written
    times, click_times = [], []
    for attempt in range(2):  # two starts stopped at once, then the one that plays
        click_times.append(_click_start(env))
        probe, seconds = _start(free_port(), tmp_path / f"probe{attempt}", env)
        probe.kill()
        probe.communicate()
        times.append(seconds)
    click_times.append(_click_start(env))
    port = free_port()
    server, seconds = _start(port, tmp_path, env)
    times.append(seconds)
    try:
        bound = max(BOUND, 4 * min(click_times))
        print(f"arena listening {min(times):.3f} s after start (best of {times}); "
              f"python -c 'import click': {min(click_times):.3f} s")
        assert min(times) < bound
        # the clients start at once, before the arena is ready: none is lost
        asyncio.run(asyncio.wait_for(play_four(f"ws://127.0.0.1:{port}/game/"), 120))
        out, err = server.communicate(timeout=120)
    finally:
        server.kill()
        server.wait()
    assert server.returncode == 0, err
    assert "client1" in err and "client4" in err  # the seating printed
    with open(tmp_path / "mine-vs-theirs.gdn", encoding="utf-8") as f:
        assert len(list(load(f))) == 2  # the board's two rooms


def test_the_port_is_taken_for_numeric_addresses_only() -> None:
    sock = take_port("127.0.0.1", 0)
    assert sock is not None
    with sock:
        port = sock.getsockname()[1]
        socket.create_connection(("127.0.0.1", port), timeout=1).close()  # listening
        with pytest.raises(OSError):  # taken: another arena cannot listen there
            take_port("127.0.0.1", port)
    assert take_port("localhost", 0) is None  # a name: the server listens on each address
