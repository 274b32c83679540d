"""CPU per searched decision of the search player, budget by budget, on the same views.

Four heuristic players play ``--deals`` boards (``duplicate.simulate.play_deal``); every
``--every``-th view of a seat with more than one candidate is kept. Each budget then
decides every kept view (its decisions are a function of seed and view, so the same work
is timed on any machine), and the mean CPU per decision is printed: a quick way to find the
budget that fits a time per decision (the ladder, ``bench_ladder.py``, measures strength).

    python bench/bench_search_cpu.py --budgets 1024,4096,16384,65536
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from duplicate.bots import HeuristicPlayer, View  # noqa: E402
from duplicate.dealing import generate_boards  # noqa: E402
from duplicate.search import SearchBudget, SearchPlayer, candidates  # noqa: E402
from duplicate.simulate import play_deal, simulation_key  # noqa: E402
from engine import core  # noqa: E402
from engine.combo import Combo  # noqa: E402


class Keeper(HeuristicPlayer):
    """The heuristic player, keeping every ``every``-th view worth a search."""

    def __init__(self, views: list[View], every: int) -> None:
        super().__init__()
        self.views = views
        self.every = every
        self.seen = 0

    def act(self, view: View) -> Combo | None:
        if len(candidates(view, 2)) > 1:
            self.seen += 1
            if self.seen % self.every == 0:
                self.views.append(view)
        return super().act(view)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="128,512,2048,8192")
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--seed", default="c0de")
    args = ap.parse_args()
    views: list[View] = []
    for board in generate_boards(simulation_key(bytes.fromhex(args.seed)), args.deals):
        keeper = Keeper(views, args.every)
        play_deal(board, [keeper] * 4)
    print(f"core: {'native' if core.native is not None else 'python'}; {len(views)} views; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    print("| budget | CPU ms / searched decision | playouts / CPU s |")
    print("| --- | ---: | ---: |")
    for b in args.budgets.split(","):
        player = SearchPlayer(b"cpu", SearchBudget(playouts=int(b)))
        t = time.process_time()
        for v in views:
            player.act(v)
        cpu = time.process_time() - t
        print(f"| search:{b} | {1000 * cpu / max(1, player.decisions):.1f} | "
              f"{player.playouts / cpu:.0f} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
