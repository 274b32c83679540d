"""The browser of the browser tests: Debian's Chromium through Playwright for Python.

``playwright install`` is never run: the tests drive /usr/bin/chromium. In CI (``CI`` set
to ``true``) a missing browser is a failure, never a skip; elsewhere the tests skip with
the way to install it. ``served`` serves a folder on 127.0.0.1 (a free port) for a test.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = Path(__file__).parent / "artifacts"
HOW = ("install it with `apt-get install -y chromium` (and `pip install -e '.[test]'` for "
       "Playwright for Python); .ci/run does both")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (Playwright ``Browser``) for a test module.

    Module scope, not session: Playwright's sync API keeps an event loop running in the
    main thread while it is open, and a later test's ``asyncio.run`` would find it there."""
    problem = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        problem = "Playwright for Python is not installed"
    if problem is None and not os.access(CHROMIUM, os.X_OK):
        problem = f"{CHROMIUM} is missing"
    if problem is not None:
        if _in_ci():
            pytest.fail(f"browser tests cannot run in CI: {problem}; {HOW}")
        pytest.skip(f"{problem}: {HOW}")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def served() -> Iterator[Callable[[Path], str]]:
    """``served(folder)`` -> base URL of a local HTTP server on that folder (stopped after)."""
    servers: list[http.server.ThreadingHTTPServer] = []

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    def serve(folder: Path) -> str:
        handler = functools.partial(Quiet, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield serve
    for s in servers:
        s.shutdown()
        s.server_close()


def screenshot(page: Any, name: str) -> None:
    """Save a full-page screenshot under tests/artifacts/ (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
