"""The compiled core against the pure-Python engine, measured in one run (docs/CORE.md).

Prints, for each figure, the rate of each implementation and their ratio:

* **leads**: every concrete lead of a 27-card hand with 2 wild hearts (bench_moves.py's
  hands): the pure-Python generator consumed play by play, the core's packed
  ``legal_play_list`` (no Python object per play), and the core's ``legal_plays`` building
  every Combo;
* **follows**: bench_moves.py's six plays to beat, every concrete play that beats each
  (packed) and one play per reading (``legal_readings``, Combos built), over hands with 0
  and 2 wild hearts;
* **random-play deals** (engine.bulk.random_deals, one core, every play verified);
* **replay** of logged plays (engine.bulk.replay_log, declared readings: every play
  validated and applied), plays per second.

Each measurement is the best of 3 rounds of about ``--seconds / 3`` of the process's CPU
time (``time.process_time``: the machine is shared, and CPU time counts this work only).
Both implementations do the same work on the same inputs, and a digest of their answers is
compared. The implementation is chosen at import (docs/CORE.md), so the pure-Python figures
come from a child process run with ``GUANDAN_CORE=python``. Run:
``python bench/bench_core.py [--seconds S] [--hands N]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_moves import FOLLOWS, hands_by_wilds  # noqa: E402

from engine import bulk, core  # noqa: E402
from engine.moves import legal_play_list, legal_plays, legal_readings  # noqa: E402
from engine.seat import Seat  # noqa: E402

LEVEL = 5


def best_rate(work: Callable[[], int], seconds: float) -> float:
    """Items per second of ``work`` (which returns its item count): best of 3 rounds."""
    best = 0.0
    for _ in range(3):
        items = 0
        start = time.process_time()
        while True:
            items += work()
            elapsed = time.process_time() - start
            if elapsed >= seconds / 3:
                break
        best = max(best, items / elapsed)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.5, help="time per measurement")
    ap.add_argument("--hands", type=int, default=20, help="hands per wild group")
    ap.add_argument("--child", action="store_true",
                    help="print this process's figures as JSON (the pure-Python side)")
    args = ap.parse_args()
    if args.child:
        print(json.dumps(figures(args.seconds, args.hands)))
        return
    if core.native is None:
        sys.exit("the compiled core is not in use: nothing to compare (docs/CORE.md)")
    # the pure-Python engine is chosen at import: its figures come from a process of its own
    child = subprocess.run(
        [sys.executable, __file__, "--child", "--seconds", str(args.seconds),
         "--hands", str(args.hands)],
        env={**os.environ, "GUANDAN_CORE": "python"}, capture_output=True, text=True, check=True)
    python = json.loads(child.stdout)
    native = figures(args.seconds, args.hands)
    assert python["answers"] == native["answers"], "the two implementations answer differently"
    print(f"Python {platform.python_version()} on {platform.machine()} "
          f"({platform.processor() or 'cpu'}), one core; {args.hands} hands per wild group")
    print(f"{'figure':52} {'pure Python':>12} {'native':>14} {'ratio':>9}")
    for name, (rate, unit) in native["rates"].items():
        a = python["rates"][name][0]
        print(f"{name:52} {a:>12,.0f} {rate:>14,.0f} {rate / a:>8.1f}x  {unit}")


def figures(s: float, hands: int) -> dict[str, Any]:
    """Every figure's rate with the implementation chosen at import, and a digest of the
    answers (the same on both)."""
    nat = core.native is not None
    rates: dict[str, tuple[float, str]] = {}
    answers = hashlib.sha256()

    def compare(name: str, unit: str, py: Callable[[], int], native: Callable[[], int],
                seconds: float) -> None:
        rates[name] = (best_rate(native if nat else py, seconds), unit)

    groups = hands_by_wilds(hands)
    two = groups[2]
    for hand, level in two:  # same answers on both: compared by the parent
        answers.update(repr(list(legal_play_list(hand, level))).encode())

    compare("every concrete lead, 27 cards, 2 wilds (packed)", "hands/s",
            lambda: sum(sum(1 for _ in legal_plays(h, lv)) * 0 + 1 for h, lv in two),
            lambda: sum(len(legal_play_list(h, lv)) * 0 + 1 for h, lv in two), s)
    compare("every concrete lead, 27 cards, 2 wilds (Combos)", "hands/s",
            lambda: sum(sum(1 for _ in legal_plays(h, lv)) * 0 + 1 for h, lv in two),
            lambda: sum(sum(1 for _ in legal_plays(h, lv)) * 0 + 1 for h, lv in two), s)
    for label, tb in FOLLOWS.items():
        hs = groups[0] + groups[2]
        compare(f"following {label}: every play (packed)", "hands/s",
                lambda tb=tb, hs=hs: sum(len(list(legal_plays(h, lv, tb))) * 0 + 1 for h, lv in hs),
                lambda tb=tb, hs=hs: sum(len(legal_play_list(h, lv, tb)) * 0 + 1 for h, lv in hs),
                s / 3)
        compare(f"following {label}: legal_readings", "hands/s",
                lambda tb=tb, hs=hs: sum(len(legal_readings(h, lv, tb)) * 0 + 1 for h, lv in hs),
                lambda tb=tb, hs=hs: sum(len(legal_readings(h, lv, tb)) * 0 + 1 for h, lv in hs),
                s / 3)

    answers.update(repr(bulk.random_deals(3, 11, LEVEL)).encode())
    compare("random-play deals (every play verified)", "deals/s",
            lambda: bulk.random_deals(2, 7, LEVEL)[0],
            lambda: bulk.random_deals(200, 7, LEVEL)[0], s)

    logs = []
    for seed in range(30):
        hands_, log, _, summary = bulk.random_deal_log(seed, LEVEL)
        entries = [None if c is None else (c.cards, c.type, c.rank) for c in log]
        logs.append((hands_, entries, summary, sum(e is not None for e in entries)))
    for hands_, entries, summary, _ in logs:
        assert bulk.replay_log(hands_, LEVEL, Seat.N, entries) == summary
        answers.update(repr(summary).encode())

    def replay_all() -> int:
        for hands_, entries, _, _ in logs:
            bulk.replay_log(hands_, LEVEL, Seat.N, entries)
        return sum(n for *_, n in logs)

    compare("replay of logged plays (validated and applied)", "plays/s", replay_all, replay_all, s)
    return {"rates": rates, "answers": answers.hexdigest()}


if __name__ == "__main__":
    main()
