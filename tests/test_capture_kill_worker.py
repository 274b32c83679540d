"""Nothing lost: ``guandan serve --workers 2`` (a real subprocess) has its two workers
killed with SIGKILL, twice, while an action of a deal a device is entering over the
protocol (docs/CAPTURE.md) is being sent; the device, written from the doc, resends what got no answer
and, after each kill, reconnects by reading the board's ``last``. At the end every
acknowledged action is stored, each exactly once, in order."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers.servers import free_port, running
from sqlalchemy import Engine, text
from test_hall_support import EVENT, make_event
from test_web_workers import _serving_pid, children

from duplicate import capture
from duplicate.web import workers

pytestmark = pytest.mark.skipif(not workers.reuse_port_available(), reason="no SO_REUSEPORT")


class Device:
    """A recorder's device as docs/CAPTURE.md describes it: a new connection for each
    request (the kernel spreads them over the workers), every action numbered, resent
    until acknowledged; after a failure it asks the board's state and goes on from
    ``last + 1``."""

    def __init__(self, base: str, token: str) -> None:
        self.url = f"{base}/api/capture/{token}"
        self.failures = 0
        self.in_flight = threading.Event()  # an action is being sent, not yet answered

    def call(self, method: str, path: str, body: Any = None) -> httpx.Response | None:
        try:
            with httpx.Client(timeout=10) as c:
                if path.endswith("/actions"):
                    self.in_flight.set()
                return c.request(method, self.url + path, json=body)
        except httpx.TransportError:  # the worker died under the request: no answer
            self.failures += 1
            return None
        finally:
            self.in_flight.clear()

    def state(self, board: int) -> dict[str, Any]:
        while True:
            r = self.call("POST", f"/boards/{board}/start")
            if r is not None and r.status_code == 200:
                data: dict[str, Any] = r.json()
                return data
            time.sleep(0.05)


#: Actions entered: past both kills, a good part of a deal.
ENOUGH = 40


def _next(state: dict[str, Any]) -> tuple[str, list[str]]:
    """A legal action without the rules engine: the leader plays its first card, a
    follower passes."""
    turn = state["turn"]
    if state["to_beat"] is None:
        return turn, [state["hands"][turn][0]]
    return turn, []


def test_no_acknowledged_action_is_lost_or_doubled_when_workers_are_killed(
        migrated_engine: Engine, migrated_url: str, tmp_path: Path) -> None:
    make_event(migrated_engine, boards=2)
    token = capture.issue_recorder_tokens(migrated_engine, EVENT, 1, "director")[0].token
    port = free_port()
    cmd = [sys.executable, "-m", "cli", "--db", migrated_url, "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", "2", "--threads", "2", "--log-level", "warning"]
    with running(cmd, port, tmp_path / "serve.log") as base:
        parent = _serving_pid(port)
        dev = Device(base, token)
        acked: dict[int, tuple[str, list[str]]] = {}
        kills: list[int] = []
        stop = threading.Event()

        def killer() -> None:
            """After 8 acknowledged actions, then after 25: while an action is being
            sent, SIGKILL every worker (whichever has the request dies under it)."""
            for after in (8, 25):
                while len(acked) < after and not stop.is_set():
                    time.sleep(0.005)
                while not dev.in_flight.wait(0.01) and not stop.is_set():
                    pass
                if stop.is_set():
                    return
                for victim in children(parent):
                    os.kill(victim, signal.SIGKILL)
                    kills.append(victim)

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        try:
            state = dev.state(1)
            while state["turn"] is not None and len(acked) < ENOUGH:
                seq = state["last"] + 1
                seat, cards = _next(state)
                r = dev.call("POST", "/boards/1/actions",
                             {"seq": seq, "seat": seat, "cards": cards})
                if r is None or r.status_code != 200:
                    if r is not None:
                        assert r.status_code >= 500 or r.json().get("refusal") in (
                            "out_of_order",), r.text
                    state = dev.state(1)  # reconnect: go on after the last acknowledged
                    continue
                ack = r.json()
                acked[ack["ack"]] = (seat, cards)
                if ack["stored"] is False:  # a resend of what a dead worker had stored
                    assert ack["ack"] <= ack["last"]
                state = dev.state(1)
        finally:
            stop.set()
            thread.join(10)
        assert len(kills) == 4, "both workers were killed mid-deal, twice"
        final = dev.state(1)
        print(f"{dev.failures} requests got no answer; workers killed: {kills}")
        assert dev.failures >= 1  # a request did die with its worker
    assert final["last"] >= ENOUGH
    stored = {a["seq"]: (a["seat"], a["cards"]) for a in final["actions"]}
    assert list(stored) == list(range(1, final["last"] + 1))
    for seq, action in acked.items():
        assert stored[seq] == action, seq
    with migrated_engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT seq, COUNT(*) FROM capture_actions WHERE live IS NOT NULL "
            "GROUP BY seq HAVING COUNT(*) > 1")).all()
        total = conn.execute(text(
            "SELECT COUNT(*) FROM capture_actions WHERE live IS NOT NULL")).scalar_one()
    assert rows == [] and total == final["last"]
