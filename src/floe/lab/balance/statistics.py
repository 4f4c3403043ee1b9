"""The statistics of ``floe balance``: intervals, tests and the Holm–Bonferroni correction.

Every figure comes with a 95% interval: Wilson's for a rate (a win rate, a share of games), the normal
approximation mean ± 1.96·s/√n for a mean (balance runs have thousands of games per group; with fewer
than 30 the interval is too narrow and the output says how many games stand behind each figure).

Figures that have a fair value to be tested against carry a two-sided p-value:

- a win rate against 1/N, the rate of a seat in a fair N-player game: the score test
  z = (p̂ − p₀)/√(p₀(1 − p₀)/n), the test whose inversion is Wilson's interval;
- a mean score against the mean of every other seat-game of the run (Welch's z on the two means);
- a difference between two rule variants against 0: the mean of the paired differences when the same
  seat-games (or games) are in the group under both variants, else the difference of the two means with
  the unpaired standard error √(s²_a/n_a + s²_b/n_b).

Groups of fewer than ``MIN_TESTED`` (30) units get an interval but no test. A run tests dozens of groups,
so some would pass p < 0.05 by chance alone. The p-values of one run (or of one comparison) are corrected
together by Holm–Bonferroni: sorted ascending, the k-th smallest (of m) is significant if it and every
smaller one is below α/(m − k + 1). That holds the chance of even one false "significant" flag in the
family at α = 0.05, whatever the dependence between the tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from floe.lab.stats import Z95, wilson_interval

ALPHA = 0.05
CORRECTION = "Holm–Bonferroni"
# Fewer units than this in a group: no test (the normal approximations behind every test here are poor,
# and a run of a few games would flag groups of four identical seat-games as significant).
MIN_TESTED = 30

Floats = npt.NDArray[np.float64]

__all__ = [
    "ALPHA",
    "CORRECTION",
    "MIN_TESTED",
    "holm",
    "mean_interval",
    "normal_p",
    "proportion_p",
    "welch_p",
    "wilson_interval",
]


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic ``z``."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def proportion_p(successes: int, n: int, p0: float, min_n: int = MIN_TESTED) -> float | None:
    """Two-sided score-test p-value of ``successes`` in ``n`` against the rate ``p0``; None if untestable
    (fewer than ``min_n`` trials, or ``p0`` not strictly between 0 and 1)."""
    if n < max(1, min_n) or not 0.0 < p0 < 1.0:
        return None
    return normal_p((successes / n - p0) / math.sqrt(p0 * (1.0 - p0) / n))


def mean_interval(values: Floats) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its normal 95% interval; the interval is the mean itself with
    fewer than two values (nothing to estimate a spread from)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, mean, mean
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def welch_p(a: Floats, b: Floats, min_n: int = MIN_TESTED) -> float | None:
    """Two-sided p-value of Welch's z for the means of ``a`` and ``b``; None with fewer than ``min_n`` (at
    least two) values in either."""
    if min(len(a), len(b)) < max(2, min_n):
        return None
    se = math.sqrt(float(a.var(ddof=1)) / len(a) + float(b.var(ddof=1)) / len(b))
    diff = float(a.mean()) - float(b.mean())
    if se == 0.0:
        return 1.0 if diff == 0.0 else 0.0
    return normal_p(diff / se)


def difference(
    a: Floats, b: Floats, paired: bool, min_n: int = MIN_TESTED
) -> tuple[float, float, float, float | None]:
    """(b − a, low, high, p): the difference of the means of ``b`` and ``a`` with its 95% interval and
    two-sided p-value against 0, paired (``a[i]`` and ``b[i]`` are the same unit) or not; no p-value with
    fewer than ``min_n`` (at least two) values on a side."""
    enough = min(len(a), len(b)) >= max(2, min_n)
    if paired:
        d = b - a
        mean, low, high = mean_interval(d)
        if not enough:
            return mean, low, high, None
        sd = float(d.std(ddof=1))
        if sd == 0.0:
            return mean, low, high, 1.0 if mean == 0.0 else 0.0
        return mean, low, high, normal_p(mean / (sd / math.sqrt(len(d))))
    if len(a) == 0 or len(b) == 0:
        return math.nan, math.nan, math.nan, None
    diff = float(b.mean()) - float(a.mean())
    if min(len(a), len(b)) < 2:
        return diff, diff, diff, None
    se = math.sqrt(float(a.var(ddof=1)) / len(a) + float(b.var(ddof=1)) / len(b))
    p = (1.0 if diff == 0.0 else 0.0) if se == 0.0 else normal_p(diff / se)
    return diff, diff - Z95 * se, diff + Z95 * se, p if enough else None


def holm(pvalues: Sequence[float | None], alpha: float = ALPHA) -> list[bool]:
    """Holm–Bonferroni: which of ``pvalues`` are significant at family-wise level ``alpha`` (None: not a
    test, never significant, not counted in the family)."""
    tested = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(tested)
    out = [False] * len(pvalues)
    for k, (p, i) in enumerate(tested):
        if p >= alpha / (m - k):
            break  # this one fails, and so does every larger p-value
        out[i] = True
    return out
