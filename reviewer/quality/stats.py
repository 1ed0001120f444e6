"""Rater-quality estimators, pure functions over plain numbers.

- **Accuracy** of a rater against reference scores of the same items: exact agreement and
  agreement within one point (Wilson intervals), the mean signed difference (t interval),
  and Cohen's quadratically weighted kappa (percentile bootstrap over items).
- **Bias** is not here: it is the panel's consensus model, :mod:`reviewer.quality.consensus`.
- **Drift**: the least-squares slope of a rater's difference from that consensus on queue
  position (or on time), with a t interval on n - 2 degrees of freedom.

References: Cohen, J. (1968) "Weighted kappa", Psychological Bulletin 70(4), 213–220;
Wilson, E. B. (1927) JASA 22, 209–212.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from reviewer import intervals
from reviewer.stats_kernels import slope_stderr, t_quantile

SCORES = (0, 1, 2, 3)


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval and the n it rests on (NaN where it cannot be had)."""

    value: float
    low: float
    high: float
    n: int

    @property
    def excludes_zero(self) -> bool:
        return bool(math.isfinite(self.low) and (self.low > 0 or self.high < 0))


NOTHING = Estimate(math.nan, math.nan, math.nan, 0)


def wilson(successes: int, n: int) -> Estimate:
    """A proportion with Wilson's score interval."""
    if n == 0:
        return NOTHING
    low, high = intervals.wilson(successes, n)
    return Estimate(successes / n, low, high, n)


def mean_t(values: Sequence[float]) -> Estimate:
    """A mean with its t interval (n - 1 degrees of freedom)."""
    n = len(values)
    if n == 0:
        return NOTHING
    mean = float(np.mean(values))
    if n == 1:
        return Estimate(mean, math.nan, math.nan, 1)
    half = float(t_quantile(0.975, n - 1) * np.std(values, ddof=1) / math.sqrt(n))
    return Estimate(mean, mean - half, mean + half, n)


def weighted_kappa(rater: Sequence[int], reference: Sequence[int]) -> float:
    """Cohen's kappa with quadratic weights over the scores 0–3 (NaN when undefined)."""
    k = len(SCORES)
    observed = np.zeros((k, k))
    for a, b in zip(rater, reference, strict=True):
        observed[a, b] += 1
    total = observed.sum()
    if total == 0:
        return math.nan
    observed /= total
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    i, j = np.indices((k, k))
    weights = (i - j) ** 2 / (k - 1) ** 2
    denominator = float((weights * expected).sum())
    if denominator == 0:
        return math.nan
    return 1 - float((weights * observed).sum()) / denominator


def kappa_interval(
    rater: Sequence[int], reference: Sequence[int], *, resamples: int = 1000, seed: int = 0
) -> Estimate:
    """Weighted kappa with a percentile bootstrap interval over the items."""
    n = len(rater)
    value = weighted_kappa(rater, reference)
    if n < 2 or not math.isfinite(value):
        return Estimate(value, math.nan, math.nan, n)
    x, y = np.asarray(rater), np.asarray(reference)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(resamples, n))
    replicates = np.array([weighted_kappa(x[d], y[d]) for d in draws])
    finite = replicates[np.isfinite(replicates)]
    if not finite.size:
        return Estimate(value, math.nan, math.nan, n)
    low, high = np.percentile(finite, [2.5, 97.5])
    return Estimate(value, float(low), float(high), n)


@dataclass(frozen=True)
class Accuracy:
    """One rater's accuracy on one metric against the reference."""

    exact: Estimate
    within_one: Estimate
    signed: Estimate
    kappa: Estimate


def accuracy(
    rater: Sequence[int], reference: Sequence[int], *, seed: int = 0, resamples: int = 1000
) -> Accuracy:
    """Agreement of ``rater`` with ``reference`` over the same items (``resamples``: of the
    kappa's bootstrap)."""
    pairs = list(zip(rater, reference, strict=True))
    exact = sum(a == b for a, b in pairs)
    within = sum(abs(a - b) <= 1 for a, b in pairs)
    return Accuracy(
        exact=wilson(exact, len(pairs)),
        within_one=wilson(within, len(pairs)),
        signed=mean_t([a - b for a, b in pairs]),
        kappa=kappa_interval(rater, reference, resamples=resamples, seed=seed),
    )


def slope(x: Sequence[float], y: Sequence[float]) -> Estimate:
    """The least-squares slope of ``y`` on ``x`` with its t interval (n - 2 df)."""
    n = len(x)
    if n < 3 or len(set(x)) < 2:
        return Estimate(math.nan, math.nan, math.nan, n)
    value, stderr = slope_stderr(x, y)
    half = t_quantile(0.975, n - 2) * stderr
    return Estimate(value, value - half, value + half, n)


def within_slope(x: Sequence[float], y: Sequence[float], groups: Sequence[object]) -> Estimate:
    """The pooled within-group least-squares slope of ``y`` on ``x``: one regression with an
    intercept per group (``x`` and ``y`` demeaned within each group), with its t interval on
    n - groups - 1 degrees of freedom. Groups whose ``x`` does not vary add no slope
    information and are left out; with one group this is :func:`slope`."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    labels = list(groups)
    keys = {g: i for i, g in enumerate(dict.fromkeys(labels))}
    g = np.array([keys[v] for v in labels], dtype=int)
    n_groups = len(keys)
    counts = np.bincount(g, minlength=n_groups)
    x_mean = np.bincount(g, weights=xs, minlength=n_groups) / np.maximum(counts, 1)
    y_mean = np.bincount(g, weights=ys, minlength=n_groups) / np.maximum(counts, 1)
    xd, yd = xs - x_mean[g], ys - y_mean[g]
    varies = np.bincount(g, weights=xd**2, minlength=n_groups) > 1e-12 * (1 + x_mean**2)
    keep = varies[g]
    n, used = int(keep.sum()), int(varies.sum())
    df = n - used - 1
    sxx = float(np.sum(xd[keep] ** 2))
    if used == 0 or df < 1 or sxx <= 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    value = float(np.sum(xd[keep] * yd[keep]) / sxx)
    residual = yd[keep] - value * xd[keep]
    se = math.sqrt(float(np.sum(residual**2)) / df / sxx)
    half = t_quantile(0.975, df) * se
    return Estimate(value, value - half, value + half, n)
