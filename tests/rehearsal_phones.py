"""The tables' phones of the dress rehearsal (tests/test_browser_rehearsal.py): West
reports every board of a room by tapping the seats on the page at 390 px, North confirms
each on his own phone (or disputes one, with a note), several tables at once as in a
hall. Debian's Chromium through Playwright's asyncio API, in a thread of its own (the
test's browser fixture holds the synchronous API's loop in the main thread).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conftest_browser import ARGS, CHROMIUM
from rehearsal_recount import room_result

PHONE = {"width": 390, "height": 844}


@dataclass
class Room:
    """One table's room of a round: its cards' two tokens and what happens there."""

    table: int
    room: str
    west: str
    north: str
    orders: dict[int, str]  # board -> the finishing order West reports, in this order
    dispute: int | None = None  # the board North disputes


@dataclass
class Outcome:
    reports: int = 0
    confirms: int = 0
    disputed: dict[tuple[int, str], int] = field(default_factory=dict)  # -> report id


def play(base: str, rooms: list[Room], shots: Path, phones: int = 4) -> Outcome:
    """Every room's West reports and North confirms, ``phones`` rooms at a time."""
    outcome = Outcome()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(_play(base, rooms, shots, phones, outcome))
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome


async def _play(base: str, rooms: list[Room], shots: Path, phones: int,
                outcome: Outcome) -> None:
    from playwright.async_api import async_playwright

    queue: asyncio.Queue[Room] = asyncio.Queue()
    for r in rooms:
        queue.put_nowait(r)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            await asyncio.gather(*(_phones(browser, base, queue, shots, outcome)
                                   for _ in range(phones)))
        finally:
            await browser.close()


async def _phones(browser: Any, base: str, queue: asyncio.Queue[Room], shots: Path,
                  outcome: Outcome) -> None:
    """A pair of phones (West's, North's: two devices) going from table to table."""
    contexts = [await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                          locale="en-GB") for _ in range(2)]
    try:
        west, north = [await c.new_page() for c in contexts]
        while not queue.empty():
            room = queue.get_nowait()
            await _west(west, base, room, shots, outcome)
            await _north(north, base, room, shots, outcome)
    finally:
        for c in contexts:
            await c.close()


_taken: set[str] = set()


async def _shoot(page: Any, shots: Path, name: str) -> None:
    """A full-page screenshot of a page type, the first time it is seen."""
    if name not in _taken:
        _taken.add(name)
        shots.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


async def _west(p: Any, base: str, room: Room, shots: Path, outcome: Outcome) -> None:
    await p.goto(f"{base}/t/{room.west}")
    heading = await p.inner_text("h1")
    assert heading == f"Table {room.table}, {room.room.capitalize()} room", heading
    for board, order in room.orders.items():
        await p.click(f".boardpick label:has(input[value='{board}'])")
        for seat in order.split():
            await p.tap(f"#picker button[data-seat={seat}]")
        ns = room_result(order)
        words = f"{'N–S' if ns > 0 else 'E–W'} up {abs(ns)}"
        await p.wait_for_function(  # the page says what the order implies before sending
            "(w) => document.getElementById('preview').textContent.startsWith('That is: ' + w)",
            arg=words)
        assert await p.inner_text("#send") == f"Send board {board}"
        await _shoot(p, shots, "table-west")
        async with p.expect_navigation():
            await p.click("#send")
        said = await p.inner_text("#flash")
        assert said == f"Board {board} received: North now checks it.", said
        outcome.reports += 1


async def _north(p: Any, base: str, room: Room, shots: Path, outcome: Outcome) -> None:
    await p.goto(f"{base}/t/{room.north}")
    assert await p.locator(".report-card").count() == len(room.orders)
    await _shoot(p, shots, "table-north")
    for board in room.orders:
        card = p.locator(f".report-card[data-board='{board}']")
        if board == room.dispute:
            outcome.disputed[room.table, room.room] = int(
                (await card.get_attribute("id") or "").removeprefix("report-"))
            await card.locator("summary").click()
            await card.locator("textarea").fill("West tapped the wrong seat: ask the director")
            async with p.expect_navigation():
                await card.locator("button.danger").click()
            assert "your dispute went to the director" in await p.inner_text("#flash")
            continue
        async with p.expect_navigation():
            await card.locator("button.confirm").click()
        said = await p.inner_text("#flash")
        assert said == f"Board {board} confirmed: the result counts.", said
        outcome.confirms += 1
    assert await p.locator(".report-card").count() == 0
