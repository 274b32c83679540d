"""Benchmark of deal records: parsing ``.gdn`` and replaying; a script that prints figures.

Run: ``python bench/bench_records.py [--copies N] [--repeat R] [--jobs J]``.

The input is the 26 OpenGuanDan deals of ``tests/golden/gdn`` repeated ``N`` times (about
130 plays each). Figures, best of ``R`` runs:

* parse: ``gdn.loads`` (strict), records per second, one core;
* replay: ``replay.replay`` of already parsed records (every play checked: turn, cards held,
  declared reading, beats the play to beat; Finish and Result compared), deals per second,
  one core; and its cost relative to parsing (goal: at most 3×);
* parse + replay: both, one core (goal: at least 1,000 deals/s);
* ``check_files`` (what ``guandan replay`` runs) with 1 and with ``J`` processes;
* ``guandan replay``'s library on ``--simulated`` self-play deals (default 2,000), one
  process, CPU time: the fast path on the compiled core, the same on the pure-Python core,
  and the reference reader (``check_text``: read, parse, step the Python ``Deal``) on the
  pure-Python core, with the ratios, all in this one run (the pure-Python side in a child
  process with ``GUANDAN_CORE=python``: the implementation is chosen at import).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate import gdn  # noqa: E402
from duplicate.replay import check_text, replay  # noqa: E402
from duplicate.replay_files import check_files  # noqa: E402
from duplicate.simulate import simulate_boards  # noqa: E402
from engine import core  # noqa: E402

EXAMPLE = (
    Path(__file__).resolve().parent.parent
    / "tests"
    / "golden"
    / "gdn"
    / ("openguandan-26-deals.gdn")
)


def best(repeat: int, work: Callable[[], object]) -> float:
    """The best wall time of ``repeat`` runs of ``work``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        work()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=20, help="copies of the 26 example deals")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure (best is kept)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    ap.add_argument("--simulated", type=int, default=2000, help="self-play deals to replay")
    ap.add_argument("--replay-child", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--deals", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.replay_child:  # the pure-Python side of simulated(), as JSON
        print(json.dumps(timed_replays(args.replay_child, args.deals, args.repeat)))
        return

    one = EXAMPLE.read_text(encoding="utf-8")
    text = "\n".join([one] * args.copies)
    records = gdn.loads(text)
    n = len(records)
    plays = sum(len(r.plays or ()) for r in records)

    def replay_all() -> None:
        for r in records:
            if not replay(r).ok:
                raise SystemExit(f"deal at line {r.line} does not replay")

    def both() -> None:
        for r in gdn.iter_records(text):
            if not replay(r).ok:
                raise SystemExit(f"deal at line {r.line} does not replay")

    t_parse = best(args.repeat, lambda: gdn.loads(text))
    t_replay = best(args.repeat, replay_all)
    t_both = best(args.repeat, both)
    t_dump = best(args.repeat, lambda: gdn.dumps(records))

    print(
        f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}"
    )
    print(f"input: {n} deals, {plays} plays ({plays / n:.0f} per deal), {len(text) / 1e6:.1f} MB")
    print(
        f"parse (loads):          {n / t_parse:8.0f} records/s  ({t_parse / n * 1e6:6.0f} µs each)"
    )
    print(f"write (dumps):          {n / t_dump:8.0f} records/s")
    print(
        f"replay and check:       {n / t_replay:8.0f} deals/s    ({t_replay / n * 1e6:6.0f} µs each)"
        f"  = {t_replay / t_parse:.2f} x parsing"
    )
    print(f"parse + replay, 1 core: {n / t_both:8.0f} deals/s")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.gdn"
        path.write_text(text, encoding="utf-8")
        for jobs in sorted({1, args.jobs}):
            t = best(args.repeat, lambda j=jobs: list(check_files([path], jobs=j).reports()))  # type: ignore[misc]
            print(
                f"check_files, {jobs} process{'es' if jobs > 1 else '  '}: {n / t:8.0f} deals/s"
                f"  (guandan replay)"
            )


    simulated(args.simulated, args.repeat)


def cpu_best(repeat: int, work: Callable[[], object]) -> float:
    """The least CPU time of ``repeat`` runs of ``work`` (this process)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        work()
        times.append(time.process_time() - t)
    return min(times)


def simulated(deals: int, repeat: int) -> None:
    """``guandan replay``'s library on self-play deals: both cores and the reference. The
    implementation is chosen at import (docs/CORE.md): the pure-Python figures come from a
    child process run with ``GUANDAN_CORE=python`` on the same file."""
    records = [r for o in simulate_boards(b"bench-replay", max(1, deals // 2), "heuristic",
                                          "heuristic") for r in (o.open, o.closed)]
    text = gdn.dumps(records)
    n = len(records)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "simulated.gdn"
        path.write_text(text, encoding="utf-8")
        t_native = timed_replays(path, n, repeat, reference=False)["fast"] \
            if core.native is not None else float("nan")
        child = subprocess.run(
            [sys.executable, __file__, "--replay-child", str(path), "--deals", str(n),
             "--repeat", str(repeat)],
            env={**os.environ, "GUANDAN_CORE": "python"}, capture_output=True, text=True,
            check=True)
        python = json.loads(child.stdout)
    t_python, t_reference = python["fast"], python["reference"]
    print(f"guandan replay, {n} self-play deals, one process (CPU, best of {repeat}):")
    print(f"  fast path, compiled core:   {n / t_native:8.0f} deals/s")
    print(f"  fast path, pure-Python core: {n / t_python:7.0f} deals/s")
    print(f"  reference (pure Python):    {n / t_reference:8.0f} deals/s")
    print(f"  compiled fast path / pure-Python reference: {t_reference / t_native:.1f}x")


def timed_replays(path: Path, n: int, repeat: int, reference: bool = True) -> dict[str, float]:
    """The CPU time of the fast path over the file of ``n`` deals at ``path`` (and of the
    reference reader when ``reference``), with the implementation chosen at import."""

    def fast() -> None:
        assert sum(r.ok for r in check_files([path], jobs=1).reports()) == n

    def ref() -> None:
        assert sum(r.ok for r in check_text(path.read_bytes(), file=str(path))) == n

    got = {"fast": cpu_best(repeat, fast)}
    if reference:
        got["reference"] = cpu_best(max(1, repeat // 2), ref)
    return got


if __name__ == "__main__":
    main()
