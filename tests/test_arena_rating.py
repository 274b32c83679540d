"""The rating means what it says: the fit is converged (the gradient of the penalised
likelihood is zero, computed here independently), and the intervals stay honest for an
agent that wins every board (they do not collapse to a point, and they tighten with
more boards)."""

from __future__ import annotations

import math
import random

import pytest

from duplicate.arena.rating import METHOD, BoardGame, fit, rate


def games_of(seed: int) -> list[BoardGame]:
    """A three-agent round robin of random boards with unequal strengths."""
    rng = random.Random(seed)
    strength = {"a": 1.0, "b": 0.0, "c": -0.7}
    out = []
    for m, (x, y) in enumerate((("a", "b"), ("a", "c"), ("b", "c"))):
        for _ in range(24):
            p = 1 / (1 + math.exp(strength[y] - strength[x]))
            u = rng.random()
            out.append(BoardGame(m, x, y, 0 if u < 0.15 else 2 if u < 0.15 + 0.85 * p else -2))
    return out


def penalised_gradient(names: list[str], games: list[BoardGame],
                       theta: dict[str, float]) -> list[float]:
    """d/dθ of Σ log P(result) + Σ_i [θ_i/2 − log(1 + e^θ_i)] (the stated prior)."""
    grad = {n: 0.5 - 1 / (1 + math.exp(-theta[n])) for n in names}
    for g in games:
        p = 1 / (1 + math.exp(theta[g.b] - theta[g.a]))
        score = 1.0 if g.swing > 0 else 0.5 if g.swing == 0 else 0.0
        grad[g.a] += score - p
        grad[g.b] -= score - p
    return [grad[n] for n in names]


def test_the_fit_is_converged_not_stopped_early() -> None:
    names = ["a", "b", "c"]
    games = games_of(3)
    theta = fit(names, games)
    assert max(abs(x) for x in penalised_gradient(names, games, theta)) < 1e-8


def test_a_clean_sweep_has_an_honest_interval() -> None:
    def sweep(n: int) -> tuple[float, float, float]:
        r = rate(["w", "l"], [BoardGame(0, "w", "l", 2)] * n)[0]
        assert r.name == "w"
        return r.low, r.rating, r.high

    lows = []
    for n in (5, 20, 80):
        low, mid, high = sweep(n)
        assert math.isfinite(high) and low < mid < high
        assert high - low > 200  # not the point a bootstrap of identical sweeps gives
        lows.append(low)
    assert lows[0] < lows[1] < lows[2] and lows[1] > 0  # more boards, surer it is better


def test_intervals_hold_the_estimate_and_the_method_is_named() -> None:
    ratings = rate(["a", "b", "c"], games_of(5))
    assert abs(sum(r.rating for r in ratings)) < 1e-6
    for r in ratings:
        assert r.low < r.rating < r.high
    assert [r.name for r in ratings][0] == "a"
    assert "profile-likelihood" in METHOD and "prior" in METHOD


@pytest.mark.parametrize("n", [1, 3])
def test_one_board_each_way_is_symmetric(n: int) -> None:
    games = [BoardGame(0, "x", "y", 1)] * n + [BoardGame(0, "x", "y", -1)] * n
    x, y = rate(["x", "y"], games)
    assert x.rating == pytest.approx(0, abs=1e-9) and x.low == pytest.approx(-x.high)
