"""The work an analysis may do per position valued (:class:`Budget`): counted in cards or
in nodes of exact search, and in playouts, so that the same record and budget give the same
values on any machine (duplicate.analysis.estimate spends it). Counted in cards (``cards``:
a position holding that many cards or fewer, the four hands together, is valued exactly,
however long the search takes) the values are also the same on either core, the compiled
one and pure Python: both settle the same positions. Counted in nodes they may differ
between the cores, whose searches visit different numbers of nodes. Kept apart from the search itself, so
that the command line can offer the budget's options without importing the solver."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_BUDGET", "NOISE", "Budget"]

#: the share of random plays in a playout, unless the budget says otherwise
NOISE = 0.1


@dataclass(frozen=True, slots=True)
class Budget:
    """The work allowed per position valued: ``nodes`` of exact search (or, with
    ``cards``, an exact search whatever it takes of every position holding ``cards`` cards
    or fewer, and none of larger ones), then ``playouts`` playouts seeded from ``seed``;
    ``seconds``, when given, caps the wall-clock time of each (and makes the result depend
    on the machine: a value it cut says so)."""

    nodes: int = 300_000
    playouts: int = 24
    seed: int = 0
    seconds: float | None = None
    policy: str = "heuristic"
    noise: float = 0.1
    cards: int | None = None

    def __post_init__(self) -> None:
        if self.nodes < 1 or self.playouts < 1:
            raise ValueError("a budget needs at least one node and one playout")
        if self.cards is not None and not 0 <= self.cards <= 108:
            raise ValueError("a number of cards must be 0 to 108")
        if not 0 <= self.noise <= 1:
            raise ValueError("the share of random plays must be 0 to 1")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("a time cap must be a positive number of seconds")
        if self.policy != "heuristic":
            from duplicate.policies import make_player  # lazy: start-up speed (the bots are heavy)

            make_player(self.policy)  # an unknown policy is refused here

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (``policy`` only when it is not the default heuristic)."""
        out: dict[str, Any] = {"nodes": self.nodes, "playouts": self.playouts,
                               "seed": self.seed, "seconds": self.seconds}
        if self.policy != "heuristic":
            out["policy"] = self.policy
        if self.noise != NOISE:
            out["noise"] = self.noise
        if self.cards is not None:
            out["cards"] = self.cards
            del out["nodes"]
        return out


#: The budget of ``guandan analyse`` when none is given.
DEFAULT_BUDGET = Budget()
