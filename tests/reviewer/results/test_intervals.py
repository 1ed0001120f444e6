"""The chart intervals against independent computations and simulated truths."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from reviewer.agreement.bootstrap import bca_interval
from reviewer.results.intervals import BOOTSTRAP, Estimate, bounded_mean, bounded_means, wilson


@pytest.mark.parametrize(("hits", "n"), [(0, 3), (1, 3), (3, 3), (7, 20), (50, 51)])
def test_wilson_equals_scipys_and_stays_in_0_1(hits: int, n: int) -> None:
    found = wilson(hits, n)
    expected = stats.binomtest(hits, n).proportion_ci(0.95, method="wilson")
    assert (found.low, found.high) == pytest.approx((expected.low, expected.high), abs=1e-9)
    assert 0 <= found.low <= found.value <= found.high <= 1
    assert wilson(0, 0).text() == "n/a"


def test_wilson_covers_a_rate_about_95_percent_at_small_n() -> None:
    rng = np.random.default_rng(1)
    hits = rng.binomial(12, 0.3, 4000)
    covered = [(e := wilson(int(k), 12)).low <= 0.3 <= e.high for k in hits]
    assert 0.92 <= np.mean(covered) <= 0.98


def test_a_bounded_mean_never_leaves_0_1_even_at_three_values() -> None:
    # The t interval of these three values reads 0.67 ± 1.43: far outside 0–1.
    found = bounded_mean([0.0, 1.0, 1.0])
    assert 0 <= found.low <= found.value <= found.high <= 1
    assert bounded_mean([0.5]).low is None and bounded_mean([]).text() == "n/a"


def test_the_bootstrap_mean_covers_a_beta_mean_about_95_percent() -> None:
    # Beta(2, 5) has mean 2/7; 30 values per study.
    rng = np.random.default_rng(7)
    covered = []
    for i in range(400):
        found = bounded_mean(rng.beta(2, 5, 30), resamples=1000, seed=i)
        covered.append(found.low <= 2 / 7 <= found.high)
    assert 0.92 <= np.mean(covered) <= 0.98


def _reference_bounded_mean(values: list[float], *, resamples: int, seed: int) -> Estimate:
    """The interval as it was made before the draws were shared: one draw per column."""
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n == 0:
        return Estimate(None, None, None, 0, BOOTSTRAP)
    if n < 2 or np.all(x == x[0]):
        return Estimate(float(x.mean()), None, None, n, BOOTSTRAP)
    rng = np.random.default_rng(seed)
    replicates = x[rng.integers(0, n, (resamples, n))].mean(axis=1)
    found = bca_interval(float(x.mean()), replicates, (x.sum() - x) / (n - 1))
    assert found is not None
    return Estimate(float(x.mean()), found[0], found[1], n, BOOTSTRAP)


@pytest.mark.parametrize("seed", [0, 3])
def test_bounded_means_are_exactly_each_columns_own_bounded_mean(seed: int) -> None:
    # Columns of the same length share one draw of positions; others get their own; the
    # constant and the empty ones none. Every number must be the one-at-a-time one.
    rng = np.random.default_rng(11)
    columns = [
        rng.beta(2, 5, 40).tolist(),
        rng.beta(5, 2, 40).tolist(),
        rng.uniform(0, 1, 25).tolist(),
        [0.5] * 40,
        [],
        rng.beta(1, 1, 40).tolist(),
    ]
    found = bounded_means(columns, resamples=300, seed=seed)
    expected = [_reference_bounded_mean(c, resamples=300, seed=seed) for c in columns]
    assert found == expected  # dataclass equality: every float bit for bit
    assert found[0].low != found[1].low  # the shared positions still give each its own
    assert bounded_mean(columns[2], resamples=300, seed=seed) == expected[2]
