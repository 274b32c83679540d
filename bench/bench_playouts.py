"""Heuristic playouts of whole deals: the compiled core's against the Python reference.

Plays ``--deals`` random deals (27 cards a hand, random level and leader) to their end with
four heuristic players each seeing its own hand (:func:`duplicate.search.heuristic_playout`),
first in pure Python (``py_heuristic_playout``: ``duplicate.analysis.solver.step`` around the native
heuristic's choice when the core is built), then in the compiled core, checks that the
values agree and prints the CPU per deal of each (best of ``--rounds``).

    python bench/bench_playouts.py --deals 300
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from duplicate.analysis.state import Position  # noqa: E402
from duplicate.search import heuristic_playout, py_heuristic_playout  # noqa: E402
from engine import core  # noqa: E402
from engine.bulk import SplitMix64, shuffled_hands  # noqa: E402
from engine.ruleset import COMPETITION  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if core.native is None:
        sys.exit("the compiled core is not in use: nothing to compare")
    deals = [(Position(shuffled_hands(SplitMix64(i)), i % 4, None, -1, 0, -1, 0), i % 13)  # type: ignore[arg-type]
             for i in range(args.deals)]
    print(f"{args.deals} deals; load average {os.getloadavg()[0]:.1f}", flush=True)
    got: dict[str, list[int]] = {}
    best: dict[str, float] = {}
    for name, f in (("python (native heuristic choice)", py_heuristic_playout),
                    ("native playout", heuristic_playout)):
        for _ in range(args.rounds):
            t = time.process_time()
            got[name] = [f(p, lv, COMPETITION) for p, lv in deals]
            cpu = time.process_time() - t
            best[name] = min(best.get(name, cpu), cpu)
        print(f"{name}: {1000 * best[name] / args.deals:.3f} ms a deal "
              f"({args.deals / best[name]:.0f} deals a CPU second)", flush=True)
    a, b = got.values()
    assert a == b, "the two implementations disagree"
    ratio = best["python (native heuristic choice)"] / best["native playout"]
    print(f"same values; native {ratio:.1f} times faster")


if __name__ == "__main__":
    main()
