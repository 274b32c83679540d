"""A rating of agents from duplicate board swings: Bradley–Terry with profile-likelihood intervals.

Every board of every match is one game between two agents: the agent with the positive
swing won it, a swing of 0 is a tie (half a win each). With log-strengths ``θ``,
P(i beats j) = 1 / (1 + exp(θ_j − θ_i)).

**Prior.** Every agent has one virtual game against a reference agent of log-strength 0,
tied (half a win each): the same as a prior density on each ``θ_i`` proportional to
``e^{θ/2} / (1 + e^θ)`` (a logistic-beta prior centred on the reference). It keeps the fit
and the intervals finite when an agent wins or loses every board, and it fixes the scale's
zero: a rating of 0 is the reference's strength.

**Fit.** The penalised likelihood is strictly concave; it is maximised by Newton's method
(step halving when a step does not climb) until no log-strength moves by more than
:data:`TOLERANCE`; a fit that does not get there within :data:`MAX_ITERATIONS` raises.

**Interval.** 95% profile likelihood: the ratings ``r`` of an agent for which twice the
drop of the penalised log-likelihood, maximised over every other strength with that
agent's fixed at ``r``, is at most 3.841 (χ² with one degree of freedom). Unlike a
bootstrap over boards, it does not shrink to a point when every resample is the same sweep:
an agent that won all its boards gets a lower bound that rises with the number of boards
and an upper bound set by the prior. The profiled quantity is the centred rating shown
(``θ_i`` minus the mean of all ``θ``).

Ratings are on the Elo scale, ``400 · log10(e^θ)``, centred on 0: a difference of 200
means the stronger agent wins about 76% of the boards that are not tied.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from duplicate.errors import DuplicateError
from duplicate.i18n import phrase

__all__ = ["METHOD", "TOLERANCE", "BoardGame", "Rating", "fit", "fit_strengths", "overlaps",
           "rate"]

#: convergence: the largest change of a log-strength in the last Newton step
TOLERANCE = 1e-10
MAX_ITERATIONS = 200
#: χ² quantile (1 degree of freedom, 95%)
_CHI2_95 = 3.841458820694124
_ELO = 400.0 / math.log(10.0)
#: what the report says about the method (docs/ARENA.md "Tournaments")
METHOD = ("Elo scale, centred on 0; Bradley-Terry over board swings (ties half a win); "
          "prior: one virtual tie of every agent against a reference rated 0; 95% "
          "profile-likelihood interval")


class RatingError(DuplicateError):
    """The fit did not converge."""


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board between agents ``a`` and ``b`` in match ``match``; ``swing`` is a's."""

    match: int
    a: str
    b: str
    swing: int


@dataclass(frozen=True, slots=True)
class Rating:
    """An agent's rating (Elo scale, centred on 0) and its 95% interval."""

    name: str
    rating: float
    low: float
    high: float
    boards: int


@dataclass(frozen=True, slots=True)
class _Data:
    k: int
    wins: list[float]  # per agent, the virtual half win included
    pairs: dict[tuple[int, int], int]  # games between i < j


def _data(names: Sequence[str], games: Sequence[BoardGame]) -> _Data:
    index = {n: i for i, n in enumerate(names)}
    wins = [0.5] * len(names)
    pairs: dict[tuple[int, int], int] = {}
    for g in games:
        i, j = index[g.a], index[g.b]
        wins[i] += 1.0 if g.swing > 0 else 0.5 if g.swing == 0 else 0.0
        wins[j] += 1.0 if g.swing < 0 else 0.5 if g.swing == 0 else 0.0
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0) + 1
    return _Data(len(names), wins, pairs)


def _logaddexp(a: float, b: float) -> float:
    m = max(a, b)
    return m + math.log1p(math.exp(-abs(a - b)))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _loglik(d: _Data, theta: Sequence[float]) -> float:
    ll = sum(d.wins[i] * theta[i] - _logaddexp(theta[i], 0.0) for i in range(d.k))
    for (i, j), n in d.pairs.items():
        ll -= n * _logaddexp(theta[i], theta[j])
    return ll


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for cc in range(c, n + 1):
                m[r][cc] -= f * m[c][cc]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][cc] * x[cc] for cc in range(r + 1, n))) / m[r][r]
    return x


def _gradient(d: _Data, theta: Sequence[float]) -> tuple[list[float], list[list[float]]]:
    """The gradient of the penalised log-likelihood and its negated Hessian."""
    grad = [d.wins[i] - _sigmoid(theta[i]) for i in range(d.k)]
    neg_h = [[0.0] * d.k for _ in range(d.k)]
    for i in range(d.k):
        s = _sigmoid(theta[i])
        neg_h[i][i] = s * (1 - s)
    for (i, j), n in d.pairs.items():
        p = _sigmoid(theta[i] - theta[j])
        grad[i] -= n * p
        grad[j] -= n * (1 - p)
        w = n * p * (1 - p)
        neg_h[i][i] += w
        neg_h[j][j] += w
        neg_h[i][j] -= w
        neg_h[j][i] -= w
    return grad, neg_h


def _maximise(d: _Data, base: Sequence[float], basis: Sequence[Sequence[float]],
              phi: Sequence[float]) -> list[float]:
    """The penalised maximum likelihood over ``theta = base + basis · phi`` (``basis``
    is k rows of m columns): every strength free, or one centred rating held fixed."""
    k, m = d.k, len(phi)
    phi = list(phi)

    def theta_of(x: Sequence[float]) -> list[float]:
        return [base[i] + sum(basis[i][c] * x[c] for c in range(m)) for i in range(k)]

    theta = theta_of(phi)
    ll = _loglik(d, theta)
    for _ in range(MAX_ITERATIONS):
        grad, neg_h = _gradient(d, theta)
        g = [sum(basis[i][c] * grad[i] for i in range(k)) for c in range(m)]
        hj = [[sum(neg_h[i][r] * basis[r][c] for r in range(k)) for c in range(m)]
              for i in range(k)]
        h = [[sum(basis[i][a] * hj[i][c] for i in range(k)) for c in range(m)]
             for a in range(m)]
        step = _solve(h, g)
        t = 1.0
        while True:
            trial_phi = [phi[c] + t * step[c] for c in range(m)]
            trial = theta_of(trial_phi)
            new_ll = _loglik(d, trial)
            if new_ll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        moved = max((abs(t * s) for s in step), default=0.0)
        phi, theta, ll = trial_phi, trial, new_ll
        if moved < TOLERANCE:
            return theta
    raise RatingError(phrase("rest.arena.err.converge", n=MAX_ITERATIONS))


def _free(d: _Data) -> list[float]:
    """The unconstrained fit."""
    eye = [[1.0 if i == c else 0.0 for c in range(d.k)] for i in range(d.k)]
    return _maximise(d, [0.0] * d.k, eye, [0.0] * d.k)


def _centred(theta: Sequence[float]) -> list[float]:
    mean = sum(theta) / len(theta)
    return [t - mean for t in theta]


def fit(names: Sequence[str], games: Sequence[BoardGame]) -> dict[str, float]:
    """The fitted log-strengths ``θ`` by agent (see the module doc)."""
    theta = _free(_data(names, games))
    return {n: theta[i] for i, n in enumerate(names)}


def fit_strengths(names: Sequence[str], games: Sequence[BoardGame]) -> dict[str, float]:
    """Bradley–Terry strengths ``e^θ`` (the prior's reference has strength 1)."""
    return {n: math.exp(t) for n, t in fit(names, games).items()}


def _profile(d: _Data, theta: list[float], i: int, c: float) -> float:
    """The highest penalised log-likelihood with agent ``i``'s centred log-strength at
    ``c``: every other ``θ_j`` free, ``θ_i = (k·c + Σ θ_j) / (k − 1)``."""
    k = d.k
    others = [j for j in range(k) if j != i]
    base = [0.0] * k
    base[i] = k * c / (k - 1)
    basis = [[0.0] * (k - 1) for _ in range(k)]
    for col, j in enumerate(others):
        basis[j][col] = 1.0
        basis[i][col] = 1.0 / (k - 1)
    return _loglik(d, _maximise(d, base, basis, [theta[j] for j in others]))


def _bound(d: _Data, theta: list[float], i: int, ll_hat: float, sign: int) -> float:
    """The end of agent ``i``'s 95% interval on one side (``sign`` ±1), centred ``θ``."""
    floor = ll_hat - _CHI2_95 / 2
    centre = _centred(theta)[i]
    inside, width = centre, 0.5
    outside = centre + sign * width
    while _profile(d, theta, i, outside) >= floor:
        inside, width = outside, width * 2
        outside = inside + sign * width
        if width > 64:  # the prior bounds every rating: never reached
            raise RatingError(phrase("rest.arena.err.bound"))
    while abs(outside - inside) > 1e-7:
        mid = (inside + outside) / 2
        if _profile(d, theta, i, mid) >= floor:
            inside = mid
        else:
            outside = mid
    return (inside + outside) / 2


def rate(names: Sequence[str], games: Sequence[BoardGame]) -> list[Rating]:
    """Ratings of ``names`` (centred on 0) from their board games, best first, with 95%
    profile-likelihood intervals (:data:`METHOD`)."""
    d = _data(names, games)
    theta = _free(d)
    ll_hat = _loglik(d, theta)
    centre = _centred(theta)
    count = {n: sum(g.a == n or g.b == n for g in games) for n in names}
    out = []
    for i, n in enumerate(names):
        lo = _bound(d, theta, i, ll_hat, -1) if d.k > 1 else centre[i]
        hi = _bound(d, theta, i, ll_hat, +1) if d.k > 1 else centre[i]
        out.append(Rating(n, _ELO * centre[i], _ELO * lo, _ELO * hi, count[n]))
    out.sort(key=lambda r: -r.rating)
    return out


def overlaps(ratings: Sequence[Rating]) -> list[tuple[str, str]]:
    """The pairs of agents whose 95% intervals overlap, in the order given: the boards
    played do not yet separate them."""
    return [(a.name, b.name) for i, a in enumerate(ratings) for b in ratings[i + 1:]
            if a.low <= b.high and b.low <= a.high]
