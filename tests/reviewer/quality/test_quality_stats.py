"""Rater-quality estimators on simulated raters with a planted truth, and against
independent computations.

Simulated raters score runs whose true quality is 1 or 2; each adds its own bias (and
drift along its queue) and a symmetric integer noise (-1, 0, 0, 0, +1), clipped to 0–3.
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from scipy.stats import binomtest, linregress

from reviewer.quality import report, stats
from reviewer.quality.source import Score

RATERS = ("ann", "bob", "cat", "dan")


def simulate(rng, *, runs: int = 40, bias=None, drift=None, quality=(1, 2)) -> list[Score]:
    bias, drift = bias or {}, drift or {}
    out = []
    for run in range(runs):
        q = rng.choice(quality)
        for rater in RATERS:
            noise = rng.choice([-1, 0, 0, 0, 1])
            value = q + bias.get(rater, 0) + drift.get(rater, 0) * run + noise
            out.append(Score(run, f"r{run}", rater, "safety", int(np.clip(round(value), 0, 3)),
                             run + 1, None))  # fmt: skip
    return out


def _kappa_by_hand(x: list[int], y: list[int]) -> float:
    """Cohen (1968): 1 - sum w*observed / sum w*expected, with w = (i - j)^2, by loops."""
    n = len(x)
    cats = range(4)
    observed = {(i, j): sum(1 for a, b in zip(x, y, strict=True) if (a, b) == (i, j)) / n
                for i, j in product(cats, cats)}  # fmt: skip
    row = {i: sum(observed[(i, j)] for j in cats) for i in cats}
    col = {j: sum(observed[(i, j)] for i in cats) for j in cats}
    num = sum((i - j) ** 2 * observed[(i, j)] for i, j in product(cats, cats))
    den = sum((i - j) ** 2 * row[i] * col[j] for i, j in product(cats, cats))
    return 1 - num / den


@pytest.mark.parametrize(
    ("x", "y"),
    [
        ([0, 1, 2, 3, 2, 1], [0, 1, 2, 3, 2, 1]),
        ([0, 1, 2, 3, 2, 1, 3, 0], [1, 1, 2, 2, 3, 0, 3, 0]),
        ([3, 3, 2, 2, 1, 1, 0, 0], [0, 1, 2, 3, 3, 2, 1, 0]),
    ],
)
def test_weighted_kappa_matches_the_formula_written_out(x: list[int], y: list[int]) -> None:
    assert stats.weighted_kappa(x, y) == pytest.approx(_kappa_by_hand(x, y), abs=1e-12)


def test_accuracy_figures_against_independent_computations() -> None:
    x, y = [2, 2, 3, 1, 0, 2, 3, 1, 2, 2], [2, 3, 3, 1, 2, 2, 2, 0, 2, 1]
    a = stats.accuracy(x, y)
    exact = binomtest(5, 10).proportion_ci(method="wilson")  # 2,3,1,2,2 equal: 5 of 10
    assert a.exact.value == 0.5 and a.exact.low == pytest.approx(exact.low)
    within = binomtest(9, 10).proportion_ci(method="wilson")  # only 0 vs 2 is 2 apart
    assert a.within_one.value == 0.9 and a.within_one.high == pytest.approx(within.high)
    # signed: (0-1+0+0-2+0+1+1+0+1)/10 = 0.0
    assert a.signed.value == pytest.approx(0.0) and a.signed.low < 0 < a.signed.high
    assert a.kappa.low <= a.kappa.value <= a.kappa.high


def test_a_planted_bias_is_recovered_within_its_interval() -> None:
    rng = np.random.default_rng(11)
    covered, trials = 0, 150
    for _ in range(trials):
        # Quality 1 only: dan's +1 never reaches the clip, so his true bias is exactly +1.
        rows = report.bias_rows(simulate(rng, bias={"dan": 1}, quality=(1,)), resamples=200)
        dan = next(r for r in rows if r["rater"] == "dan" and r["metric"] == "safety")
        covered += dan["low"] <= 1 <= dan["high"]
    assert 0.88 * trials <= covered <= 0.995 * trials, covered


def test_unbiased_raters_are_flagged_at_about_the_nominal_rate() -> None:
    rng = np.random.default_rng(12)
    flags = total = 0
    for _ in range(150):
        for row in report.bias_rows(simulate(rng), resamples=200):
            if row["metric"] == "safety":
                flags += row["flagged"]
                total += 1
    assert flags / total <= 0.10, flags / total  # nominal 5%; 600 rows, sd about 0.9%


def test_drift_is_found_where_planted_and_rarely_elsewhere() -> None:
    rng = np.random.default_rng(13)
    found = false = 0
    for _ in range(100):
        rows = {r["rater"]: r for r in report.drift_rows(simulate(rng, drift={"dan": 1.5 / 40}))}
        found += rows["dan"]["flagged"] and rows["dan"]["per_position"] > 0
        false += sum(rows[r]["flagged"] for r in ("ann", "bob", "cat"))
    # Power at this drift: about 75% (over 300 trials; 79% with the median of the others).
    assert found >= 65, found
    # The others' consensus is corrected for dan's drift, so an unbiased, steady rater beside
    # him is flagged at no more than the nominal 5% (about 4%; 12% with the median of the
    # others, which carried part of dan's drift). 300 raters: 10% is 4 sd above 5%.
    assert false / 300 <= 0.10, false


def test_drift_slope_matches_linregress() -> None:
    x, y = [1.0, 2.0, 3.0, 4.0, 5.0], [0.0, 0.5, 0.4, 1.2, 1.1]
    e = stats.slope(x, y)
    ref = linregress(x, y)
    assert e.value == pytest.approx(ref.slope)
    assert (e.high - e.value) == pytest.approx(3.182446305284263 * ref.stderr)  # t(0.975, 3)


def test_edges_are_missing_not_zero() -> None:
    assert math.isnan(stats.mean_t([]).value) and math.isnan(stats.slope([1], [1]).value)
    assert math.isnan(stats.weighted_kappa([], []))
