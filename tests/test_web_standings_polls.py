"""The phones' standings polls on the worker's event loop (``duplicate.web.api.get_standings``): a
version read or a computation of new standings runs in one thread for all the polls that
wait for it, and those polls hold no thread meanwhile (SQLite, and PostgreSQL when
configured). Driven on one event loop of the test's own (httpx over ASGI), so that many
polls are in flight at once.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import anyio.to_thread
import httpx
import pytest
from helpers.hall import EV, Hall

from duplicate import hall


def _client(h: Hall) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=h.client.app),
                             base_url="https://testserver")


def test_polls_waiting_for_new_standings_hold_no_thread(
    hall_round: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While one thread computes new standings, the other polls wait for it without a
    thread: with two threads, a request that needs one is answered meanwhile (before,
    each waiting poll held a thread, and the pool the reports need filled up)."""
    h = hall_round
    started, release = threading.Event(), threading.Event()
    computed: list[str] = []
    real = hall.live_standings

    def slow(engine: Any, event: str) -> Any:
        computed.append(event)
        started.set()
        release.wait(60)
        return real(engine, event)

    monkeypatch.setattr(hall, "live_standings", slow)

    async def scene() -> tuple[list[httpx.Response], httpx.Response]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = 2
        async with _client(h) as client:
            polls = [asyncio.create_task(client.get(f"/api/events/{EV}/standings"))
                     for _ in range(6)]
            while not started.is_set():
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)  # the other polls are all waiting by now
            try:
                other = await asyncio.wait_for(client.get("/api/events"), 30)
            finally:
                release.set()
            return list(await asyncio.gather(*polls)), other

    answers, other = asyncio.run(scene())
    assert other.status_code == 200  # a thread was free while the standings were computed
    assert len(computed) == 1  # once for the six polls
    assert {r.status_code for r in answers} == {200}
    assert len({r.content for r in answers}) == 1
    assert len({r.headers["etag"] for r in answers}) == 1


def test_a_version_is_read_once_for_the_polls_that_find_it_old(
    hall_round: Hall, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Polls arriving while the worker reads the standings' version wait for that read
    instead of each reading it again; all get the same ETag."""
    h = hall_round
    reads: list[str] = []
    real = hall.standings_version

    def slow(engine: Any, event: str) -> str:
        reads.append(event)
        time.sleep(0.3)
        return real(engine, event)

    monkeypatch.setattr(hall, "standings_version", slow)

    async def scene() -> list[httpx.Response]:
        async with _client(h) as client:
            return list(await asyncio.gather(
                *(client.get(f"/api/events/{EV}/standings") for _ in range(5))
            ))

    answers = asyncio.run(scene())
    assert len(reads) == 1
    assert {r.status_code for r in answers} == {200}
    assert len({r.headers["etag"] for r in answers}) == 1
