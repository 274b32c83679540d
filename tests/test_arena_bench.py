"""bench/bench_arena.py keeps working: its socket-free measure (a stand-in table and
clients) runs a match through the arena's own code, so a change to what a match reads
from its clients is caught here and not on the next benchmark run."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

from duplicate.dealing import generate_boards
from duplicate.simulate import simulation_key


def test_the_bench_server_work_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parent.parent / "bench" / "bench_arena.py"
    spec = importlib.util.spec_from_file_location("bench_arena", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    asyncio.run(asyncio.wait_for(
        bench.server_work(list(generate_boards(simulation_key(b"\x05"), 2))), 60))
    out = capsys.readouterr().out
    assert "server work without sockets" in out and "ms a deal" in out
