"""``floe balance``'s statistics on cases worked by hand: tests, intervals, differences, Holm–Bonferroni."""

from __future__ import annotations

import math

import numpy as np
import pytest

from floe.lab.balance.statistics import (
    MIN_TESTED,
    difference,
    holm,
    mean_interval,
    normal_p,
    proportion_p,
    welch_p,
)


def test_normal_p_two_sided() -> None:
    assert normal_p(0.0) == 1.0
    assert normal_p(1.959963984540054) == pytest.approx(0.05)
    assert normal_p(-2.0) == normal_p(2.0) == pytest.approx(0.0455003, abs=1e-6)


def test_proportion_score_test() -> None:
    # 60 of 100 against 1/2: z = (0.6 - 0.5) / sqrt(0.25 / 100) = 2.
    assert proportion_p(60, 100, 0.5) == pytest.approx(0.0455003, abs=1e-6)
    # 25 of 100 against 1/4: exactly fair.
    assert proportion_p(25, 100, 0.25) == 1.0
    # Too few trials for the normal approximation: no test at all.
    assert proportion_p(4, 4, 0.25) is None
    assert proportion_p(4, MIN_TESTED - 1, 0.25) is None
    assert proportion_p(3, 4, 0.25, min_n=1) == pytest.approx(normal_p((0.75 - 0.25) / math.sqrt(0.1875 / 4)))


def test_mean_interval_by_hand() -> None:
    # 1, 2, 3, 4: mean 2.5, s = sqrt(5/3) = 1.290994, half-width 1.959964 * s / 2 = 1.265151.
    mean, low, high = mean_interval(np.array([1.0, 2.0, 3.0, 4.0]))
    assert mean == 2.5
    assert (low, high) == (pytest.approx(1.234849, abs=1e-6), pytest.approx(3.765151, abs=1e-6))
    assert mean_interval(np.array([7.0])) == (7.0, 7.0, 7.0)
    assert all(math.isnan(x) for x in mean_interval(np.array([])))


def test_welch_by_hand() -> None:
    a = np.array([1.0, 2.0, 3.0, 4.0])  # mean 2.5, var 5/3
    b = np.array([3.0, 4.0, 5.0, 6.0])  # mean 4.5, var 5/3
    z = 2.0 / math.sqrt(5 / 3 / 4 + 5 / 3 / 4)
    assert welch_p(a, b, min_n=2) == pytest.approx(normal_p(z))
    assert welch_p(a, b) is None  # fewer than MIN_TESTED


def test_paired_and_unpaired_differences_by_hand() -> None:
    a = np.array([1.0, 2.0, 3.0])
    b = np.array([2.0, 4.0, 3.0])
    # Paired: d = 1, 2, 0; mean 1, s = 1, se = 1/sqrt(3), z = sqrt(3).
    diff, low, high, p = difference(a, b, paired=True, min_n=2)
    assert diff == 1.0
    assert (low, high) == (
        pytest.approx(1 - 1.959964 / math.sqrt(3)),
        pytest.approx(1 + 1.959964 / math.sqrt(3)),
    )
    assert p == pytest.approx(normal_p(math.sqrt(3)))
    # Unpaired: means 2 and 3, variances 1 and 1, se = sqrt(2/3).
    diff, low, high, p = difference(a, b, paired=False, min_n=2)
    se = math.sqrt(2 / 3)
    assert diff == 1.0
    assert (low, high) == (pytest.approx(1 - 1.959964 * se), pytest.approx(1 + 1.959964 * se))
    assert p == pytest.approx(normal_p(1 / se))
    assert difference(a, b, paired=True)[3] is None  # too few for a test by default


def test_holm_bonferroni_by_hand() -> None:
    # Sorted: 0.005 < 0.05/4 yes; 0.01 < 0.05/3 yes; 0.03 < 0.05/2 no, and everything above stops too.
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    # Holm is less strict than Bonferroni: 0.04 > 0.05/2, but after 0.01 passes it is tested at 0.05/1.
    assert holm([0.01, 0.04]) == [True, True]
    # None is not a test: it neither counts in m nor is ever significant.
    assert holm([None, 0.02, None]) == [False, True, False]
    assert holm([0.02, 0.03, 0.04]) == [False, False, False]  # 0.02 >= 0.05/3
    assert holm([]) == []
