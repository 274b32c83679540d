"""The analysis budget's options (``--exact-cards`` or ``--nodes``, ``--playouts``,
``--seed``, ``--seconds``),
shared by ``guandan analyse``, ``compare --analyse``, ``event report --analyse`` and the
review commands; light, so that those commands' help and their other uses do not import
the analysis."""

from __future__ import annotations

from typing import Any

import click

from duplicate.analysis.budget import DEFAULT_BUDGET, Budget

#: The cards of the positions valued exactly when the budget is counted in cards.
EXACT_CARDS = 24


def budget_options(func: Any) -> Any:
    """``--exact-cards`` or ``--nodes``, ``--playouts``, ``--seed`` and ``--seconds``:
    the analysis budget."""
    for option in reversed([
        click.option("--exact-cards", "exact_cards", type=click.IntRange(min=0, max=108),
                     default=EXACT_CARDS, show_default=True, metavar="K",
                     help="Value exactly every position whose four hands hold K cards or "
                     "fewer, however long the search takes, and estimate the others: the "
                     "same values on either core (compiled or pure Python)."),
        click.option("--nodes", type=click.IntRange(min=1, max=10**9), default=None,
                     metavar="N",
                     help="Instead of --exact-cards: exact search nodes per position valued "
                     "(then an estimate); the two cores count nodes differently, so their "
                     "values may differ."),
        click.option("--playouts", type=click.IntRange(min=1, max=100_000),
                     default=DEFAULT_BUDGET.playouts, show_default=True, metavar="K",
                     help="Playouts per estimate."),
        click.option("--seed", "seed", type=click.IntRange(min=0, max=2**63 - 1), default=0,
                     show_default=True, help="Seed of the playouts' random choices."),
        click.option("--seconds", type=click.FloatRange(min=0.01, max=86_400), default=None,
                     metavar="S", help="Also cap each position at S seconds of wall-clock "
                     "time (values then depend on the machine; those cut are marked !)."),
    ]):
        func = option(func)
    return func


def budget_of(nodes: int | None, playouts: int, seed: int, seconds: float | None,
              policy: str = "heuristic", noise: float = DEFAULT_BUDGET.noise,
              exact_cards: int = EXACT_CARDS) -> Budget:
    """The budget the options name: counted in cards unless ``--nodes`` is given."""
    if nodes is not None:
        return Budget(nodes=nodes, playouts=playouts, seed=seed, seconds=seconds,
                      policy=policy, noise=noise)
    return Budget(playouts=playouts, seed=seed, seconds=seconds, policy=policy, noise=noise,
                  cards=exact_cards)
