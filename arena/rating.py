"""A rating of agents from duplicate board swings: Bradley–Terry with bootstrap intervals.

Every board of every match is one game between two agents: the agent with the positive
swing won it, a swing of 0 is a tie (half a win each). Strengths ``p`` are fitted by
maximum likelihood with Hunter's MM algorithm (P(i beats j) = p_i / (p_i + p_j)); one
virtual tie of every agent against a reference of strength 1 keeps the fit finite when an
agent wins every board. Ratings are on the Elo scale, ``400 · log10(p)``, centred on 0.
The uncertainty is a bootstrap over boards: each match's boards are resampled with
replacement, the model refitted, and the 2.5% and 97.5% quantiles reported.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BoardGame", "Rating", "fit_strengths", "rate"]


@dataclass(frozen=True, slots=True)
class BoardGame:
    """One board between agents ``a`` and ``b`` in match ``match``; ``swing`` is a's."""

    match: int
    a: str
    b: str
    swing: int


@dataclass(frozen=True, slots=True)
class Rating:
    """An agent's rating (Elo scale, centred on 0) and its 95% bootstrap interval."""

    name: str
    rating: float
    low: float
    high: float
    boards: int


def fit_strengths(names: Sequence[str], games: Sequence[BoardGame],
                  iterations: int = 200) -> dict[str, float]:
    """Bradley–Terry strengths by Hunter's MM algorithm (ties count half a win each)."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.5] * k  # the virtual tie against the reference (strength 1)
    pairs: dict[tuple[int, int], int] = {}
    for g in games:
        i, j = index[g.a], index[g.b]
        wins[i] += 1.0 if g.swing > 0 else 0.5 if g.swing == 0 else 0.0
        wins[j] += 1.0 if g.swing < 0 else 0.5 if g.swing == 0 else 0.0
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0) + 1
    p = [1.0] * k
    for _ in range(iterations):
        denom = [1.0 / (p[i] + 1.0) for i in range(k)]  # the virtual game
        for (i, j), n in pairs.items():
            s = n / (p[i] + p[j])
            denom[i] += s
            denom[j] += s
        new = [wins[i] / denom[i] for i in range(k)]
        done = max(abs(math.log(new[i] / p[i])) for i in range(k)) < 1e-10
        p = new
        if done:
            break
    return {n: p[index[n]] for n in names}


def _elo(strengths: dict[str, float]) -> dict[str, float]:
    raw = {n: 400.0 * math.log10(s) for n, s in strengths.items()}
    mean = sum(raw.values()) / len(raw)
    return {n: r - mean for n, r in raw.items()}


def rate(names: Sequence[str], games: Sequence[BoardGame], resamples: int = 200,
         seed: int = 0) -> list[Rating]:
    """Ratings of ``names`` from their board games, best first, with bootstrap intervals."""
    point = _elo(fit_strengths(names, games))
    by_match: dict[int, list[BoardGame]] = {}
    for g in games:
        by_match.setdefault(g.match, []).append(g)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(resamples):
        sample = [rng.choice(bs) for bs in by_match.values() for _ in bs]
        for n, r in _elo(fit_strengths(names, sample)).items():
            samples[n].append(r)
    count = {n: sum(g.a == n or g.b == n for g in games) for n in names}
    out = []
    for n in names:
        xs = sorted(samples[n])
        lo = xs[int(0.025 * (len(xs) - 1))] if xs else point[n]
        hi = xs[int(math.ceil(0.975 * (len(xs) - 1)))] if xs else point[n]
        out.append(Rating(n, point[n], lo, hi, count[n]))
    out.sort(key=lambda r: -r.rating)
    return out
