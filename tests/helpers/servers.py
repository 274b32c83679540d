"""Servers for the tests: a free port, the hall service in a thread of the test's process
(uvicorn: the browser tests drive it), and a command that serves, in a subprocess."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from helpers.hall import PASSWORD


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve_in_thread(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free port of 127.0.0.1, once it has
    started: its base URL; stopped at the end."""
    import uvicorn  # lazy: only the tests that serve import the server

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def running(
    cmd: list[str], port: int, log: Path, cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """``cmd`` (a command that serves on 127.0.0.1:``port``) in a subprocess, once it
    answers; stopped with SIGINT at the end (a failure if it does not stop). Its
    environment: this one with the test's director password and no secret key, or
    ``env`` (added over this one) when given."""
    if env is None:
        env = {**os.environ, "GUANDAN_DIRECTOR_PASSWORD": PASSWORD}
        env.pop("GUANDAN_SECRET_KEY", None)
    else:
        env = {**os.environ, **env}
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 90
            while True:
                if proc.poll() is not None:
                    raise AssertionError(f"the server exited: {log.read_text()}")
                try:
                    if httpx.get(f"{base}/api/events", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise AssertionError(f"the server did not answer: {log.read_text()}")
                time.sleep(0.2)
            yield base
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise AssertionError("the server did not stop on SIGINT") from None
