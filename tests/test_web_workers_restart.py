"""``guandan serve --workers 2`` stays up when its workers die, however often: each is
replaced after a short back-off while the others answer. (A worker killed within 10 s of
its start stopped the whole service: "a worker did not start: see the messages above".)
Only an address a worker cannot bind stops the service, saying why."""

from __future__ import annotations

import os
import signal
import socket
import sys
import time
from pathlib import Path

import httpx
import pytest
from helpers.servers import free_port, running
from test_web_workers import _serving_pid, children

from duplicate import db
from duplicate.web import workers

pytestmark = pytest.mark.skipif(not workers.reuse_port_available(), reason="no SO_REUSEPORT")


def _new_worker(parent: int, old: set[int], timeout: float) -> int:
    """The pid of a worker of ``parent`` not in ``old``, once it has started."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = set(children(parent)) - old
        if new:
            return new.pop()
        time.sleep(0.05)
    raise AssertionError(f"no new worker within {timeout} s")


def test_killed_workers_are_replaced_however_often(tmp_path: Path) -> None:
    """On SQLite only: the workers' fate does not depend on the database."""
    url = f"sqlite:///{tmp_path}/hall.sqlite"
    engine = db.make_engine(url)
    db.upgrade(engine)
    engine.dispose()
    port = free_port()
    cmd = [sys.executable, "-m", "cli", "--db", url, "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", "2", "--threads", "2", "--log-level", "warning"]
    log = tmp_path / "serve.log"
    with running(cmd, port, log) as base:
        parent = _serving_pid(port)
        first = children(parent)
        assert len(first) == 2
        seen = set(first)
        victim = first[0]
        for _ in range(2):  # a worker, then its replacement as soon as it starts
            os.kill(victim, signal.SIGKILL)
            victim = _new_worker(parent, seen, timeout=10)
            seen.add(victim)
            # the service answers all the while: the other worker takes the connections
            assert httpx.get(f"{base}/api/events", timeout=5).status_code == 200
        assert Path(f"/proc/{parent}").exists(), log.read_text()
        # the last replacement starts serving: both workers answer again, for good
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if len(children(parent)) == 2:
                break
            time.sleep(0.1)
        for _ in range(20):
            assert httpx.get(f"{base}/api/events", timeout=5).status_code == 200
        assert len(children(parent)) == 2
    said = log.read_text()
    assert said.count("stopped (killed by SIGKILL): a new one starts in") == 2, said
    assert "starts in 0.5 s" in said and "starts in 1 s" in said  # the back-off
    assert "did not start" not in said


def test_a_worker_that_cannot_bind_stops_the_service_saying_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The address taken after the service's own check: a worker's bind fails; the
    service stops, with the system's reason (not a loop of replacements)."""
    said: list[str] = []
    monkeypatch.setattr(workers, "check_address", lambda host, port: None)
    with socket.socket() as taken:  # without SO_REUSEPORT: no one else binds the port
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        began = time.monotonic()
        with pytest.raises(workers.ListenError) as failed:
            config = {"app": "duplicate.web.app:app_from_env", "factory": True}
            workers.run_workers("127.0.0.1", port, 2, config, said.append)
    assert failed.value.strerror == "Address already in use"
    assert time.monotonic() - began < 30
    assert said == []
