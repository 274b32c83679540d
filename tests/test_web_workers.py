"""``guandan serve --workers N``: a listening socket a worker (``duplicate.web.workers``), so that
the kernel spreads connections over the workers; every worker answers, all stop with the
service, an address in use is refused clearly; ``--threads`` sizes each worker."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from helpers.servers import free_port, running

from duplicate.web.settings import DEFAULT_THREADS, Settings, SettingsError
from duplicate.web.workers import check_address, reuse_port_available

pytestmark = pytest.mark.skipif(not reuse_port_available(), reason="no SO_REUSEPORT here")


def children(pid: int) -> list[int]:
    """The worker processes of ``pid`` (Linux /proc; not multiprocessing's resource
    tracker, also a child)."""
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [
        int(p) for p in text.split()
        if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()
    ]


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_every_worker_answers_and_all_stop_with_the_service(
    migrated_url: str, tmp_path: Path
) -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "cli", "--db", migrated_url, "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", "2", "--threads", "4", "--log-level", "warning"]
    log = tmp_path / "serve.log"
    with running(cmd, port, log) as base:
        parent = _serving_pid(port)
        workers = children(parent)
        assert len(workers) == 2
        before = {w: cpu_ticks(w) for w in workers}
        # a new connection each: the kernel's hash of the addresses gives each worker a share
        for _ in range(120):
            httpx.get(f"{base}/api/openapi.json", timeout=10)
        busy = [cpu_ticks(w) - before[w] for w in workers]
        assert all(b > 0 for b in busy), busy
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{w}").exists() for w in workers), "a worker outlived the service"


def _serving_pid(port: int) -> int:
    """The pid of the ``guandan serve`` process started for ``port``."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in cmd and str(port).encode() in cmd and b"cli" in cmd:
            return int(proc.name)
    raise AssertionError("no guandan serve process")


def test_an_address_in_use_is_refused_clearly(migrated_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            check_address("127.0.0.1", port)
        r = subprocess.run(
            [sys.executable, "-m", "cli", "--db", migrated_url, "serve", "--host", "127.0.0.1",
             "--port", str(port), "--workers", "2", "--director-password", "a long password"],
            capture_output=True, text=True, timeout=60,
        )
    assert r.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in r.stderr
    assert "Traceback" not in r.stderr


def test_threads_are_a_checked_setting() -> None:
    s = Settings("sqlite://", "a long password", "k" * 32)
    assert s.threads == DEFAULT_THREADS
    env = Settings("sqlite://", "a long password", "k" * 32, threads=3).to_env()
    assert env["GUANDAN_THREADS"] == "3" and Settings.from_env(env).threads == 3
    for bad in (0, 257):
        with pytest.raises(SettingsError, match="threads must be 1 to 256"):
            Settings("sqlite://", "a long password", "k" * 32, threads=bad)
    with pytest.raises(SettingsError, match="must be a number"):
        Settings.from_env({**env, "GUANDAN_THREADS": "many"})
