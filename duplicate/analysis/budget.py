"""The work an analysis may do per position valued (:class:`Budget`): counted in nodes of
exact search and playouts, so that the same record and budget give the same values on any
machine (duplicate.analysis.estimate spends it). Kept apart from the search itself, so
that the command line can offer the budget's options without importing the solver."""

from __future__ import annotations

from dataclasses import dataclass, field

from duplicate.shapes import Number, Shaped, unless

__all__ = ["DEFAULT_BUDGET", "NOISE", "Budget"]

#: the share of random plays in a playout, unless the budget says otherwise
NOISE = 0.1


@dataclass(frozen=True, slots=True)
class Budget(Shaped):
    """The work allowed per position valued: ``nodes`` of exact search, then ``playouts``
    playouts seeded from ``seed``; ``seconds``, when given, caps the wall-clock time of
    each (and makes the result depend on the machine: a value it cut says so)."""

    nodes: int = 300_000
    playouts: int = 24
    seed: int = 0
    seconds: Number | None = None
    #: the playouts' policy (written only when not the default heuristic)
    policy: str = field(default="heuristic", metadata=unless("heuristic"))
    #: the share of random plays (written only when not :data:`NOISE`)
    noise: Number = field(default=NOISE, metadata=unless(NOISE))

    def __post_init__(self) -> None:
        if self.nodes < 1 or self.playouts < 1:
            raise ValueError("a budget needs at least one node and one playout")
        if not 0 <= self.noise <= 1:
            raise ValueError("the share of random plays must be 0 to 1")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("a time cap must be a positive number of seconds")
        if self.policy != "heuristic":
            from duplicate.policies import make_player  # lazy: start-up speed (the bots are heavy)

            make_player(self.policy)  # an unknown policy is refused here


#: The budget of ``guandan analyse`` when none is given.
DEFAULT_BUDGET = Budget()
