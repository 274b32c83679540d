"""How far a duplicate match's margin can be trusted: the mean swing a board, its standard
error and a 95% interval (Student's t over the boards played in both rooms).

A match of 8 boards won by a margin of +1 says little when a board's swing varies by ±2.4:
the mean is +0.13 a board, its standard error 0.85, and the 95% interval −1.88..+2.13 holds
0, so the boards do not yet separate the agents. Conceded and forfeited boards count in the
margin but are no measure of play: they are left out here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from duplicate.shapes import Round3, Shaped, named

__all__ = ["MarginEstimate", "margin_estimate", "t95"]

#: two-sided 95% quantiles of Student's t, by degrees of freedom
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_Z95 = 1.959963984540054
#: the confidence of the interval
CONFIDENCE = 0.95


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (a table to
    30, then the Cornish–Fisher expansion, within 0.001)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True, slots=True)
class MarginEstimate(Shaped):
    """A's mean swing a board over ``boards`` boards, its standard error and 95% interval."""

    boards: int
    per_board: Round3 = field(metadata=named("mean"))
    stderr: Round3
    low: Round3
    high: Round3

    JSON_COMPUTED = ("confidence", "separated")

    @property
    def confidence(self) -> float:
        """The interval's confidence, 0.95."""
        return CONFIDENCE

    @property
    def separated(self) -> bool:
        """True when the interval leaves out 0: the boards separate the two agents."""
        return self.low > 0 or self.high < 0


def margin_estimate(swings: Sequence[int]) -> MarginEstimate | None:
    """The estimate from the boards' swings (``None`` under two boards: no spread to
    measure)."""
    n = len(swings)
    if n < 2:
        return None
    mean = sum(swings) / n
    var = sum((s - mean) ** 2 for s in swings) / (n - 1)
    se = math.sqrt(var / n)
    half = t95(n - 1) * se
    return MarginEstimate(n, mean, se, mean - half, mean + half)
