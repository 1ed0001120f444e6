"""The leaderboard's estimators against independent computations and a simulated truth.

The simulation plants a two-level truth like the benchmark's: a scenario effect shared by
every model, a scenario-by-model effect, and run-to-run noise. A model's true score is its
mean over the population of scenarios and runs; the intervals must cover it (and the true
difference between two models) near their nominal 95%.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from scipy.stats import binomtest

from reviewer.intervals import wilson
from reviewer.leaderboard import stats


@pytest.mark.parametrize(("k", "n"), [(0, 1), (0, 12), (3, 10), (7, 7), (11, 12), (40, 97)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson(k, n)
    assert low == pytest.approx(ci.low, abs=1e-9) and high == pytest.approx(ci.high, abs=1e-9)


def test_wilson_of_nothing_is_missing_not_zero() -> None:
    assert all(math.isnan(x) for x in wilson(0, 0))


def _tau_b(x: list[float], y: list[float]) -> float:
    """Kendall's tau-b by counting pairs (Kendall 1945), written out here."""
    concordant = discordant = ties_x = ties_y = 0
    for i, j in combinations(range(len(x)), 2):
        dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif dx == dy:
            concordant += 1
        else:
            discordant += 1
    return (concordant - discordant) / math.sqrt(
        (concordant + discordant + ties_x) * (concordant + discordant + ties_y)
    )


@pytest.mark.parametrize(
    ("x", "y"),
    [([1, 2, 3, 4], [1, 3, 2, 4]), ([0.5, 0.5, 0.9, 0.1], [2, 1, 3, 0]), ([1, 2, 3], [3, 2, 1])],
)
def test_kendall_tau_matches_counting_pairs(x: list[float], y: list[float]) -> None:
    assert stats.kendall_tau(x, y) == pytest.approx(_tau_b(x, y), abs=1e-12)


def test_the_score_is_the_mean_over_scenarios_of_the_mean_over_runs() -> None:
    cells = {("s1", "a"): [1.0, 0.0, 0.5], ("s2", "a"): [0.9], ("s1", "b"): [0.2, 0.4]}
    reps = stats.bootstrap(cells, resamples=50, seed=1)
    # a: (0.5 + 0.9) / 2 = 0.7, not the run mean 2.4 / 4 = 0.6; b: 0.3 from s1 alone.
    assert reps.models == ("a", "b")
    assert reps.point() == pytest.approx([0.7, 0.3])
    diff, _replicates, shared = stats.pair_difference(cells, "a", "b", resamples=50, seed=1)
    assert shared == 1 and diff == pytest.approx(0.5 - 0.3)  # paired on s1 only


def _simulate(rng, *, scenarios: int, runs: int, delta: float) -> dict:
    shared = rng.normal(0, 0.3, scenarios)
    cells = {}
    for s in range(scenarios):
        for model, mu in (("a", delta), ("b", 0.0)):
            noise = rng.normal(0, 0.1) + rng.normal(0, 0.5, runs)
            cells[(f"s{s:02d}", model)] = list(mu + shared[s] + noise)
    return cells


@pytest.mark.parametrize("delta", [0.0, 0.3])
def test_intervals_cover_the_planted_truth_near_95_percent(delta: float) -> None:
    rng = np.random.default_rng(20261202)
    trials, scenarios, hits_mean, hits_diff = 200, 8, 0, 0
    for trial in range(trials):
        cells = _simulate(rng, scenarios=scenarios, runs=5, delta=delta)
        reps = stats.bootstrap(cells, resamples=300, seed=trial)
        low, high = stats.percentile_interval(reps.scores()[:, 0], clusters=scenarios)
        hits_mean += low <= delta <= high
        _, replicates, _ = stats.pair_difference(cells, "a", "b", resamples=300, seed=trial)
        low, high = stats.percentile_interval(replicates, clusters=scenarios)
        hits_diff += low <= delta <= high
    # 95% of 200 trials is 190; the binomial sd is about 3 trials, so 180–199 is ±3 sd.
    assert 180 <= hits_mean <= 199, hits_mean
    assert 180 <= hits_diff <= 199, hits_diff


def test_the_bootstrap_spread_matches_the_estimates_spread() -> None:
    # Plain resampling at both levels would count the run noise twice (sd about 0.17 here).
    rng = np.random.default_rng(7)
    estimates, spreads = [], []
    for trial in range(150):
        cells = _simulate(rng, scenarios=8, runs=5, delta=0.3)
        diff, replicates, _ = stats.pair_difference(cells, "a", "b", resamples=300, seed=trial)
        estimates.append(diff)
        spreads.append(np.std(replicates))
    truth = math.sqrt((2 * 0.1**2 + 2 * 0.5**2 / 5) / 8)  # = 0.1225
    assert np.std(estimates) == pytest.approx(truth, rel=0.15)
    assert np.mean(spreads) == pytest.approx(truth, rel=0.15)


def test_a_clear_gap_gives_separate_ranks_and_none_gives_overlapping_ones() -> None:
    rng = np.random.default_rng(3)
    cells = _simulate(rng, scenarios=10, runs=8, delta=1.5)
    reps = stats.bootstrap(cells, resamples=400, seed=0)
    assert stats.rank_intervals(reps.scores()) == [(1, 1), (2, 2)]
    cells = _simulate(rng, scenarios=10, runs=8, delta=0.0)
    reps = stats.bootstrap(cells, resamples=400, seed=0)
    assert stats.rank_intervals(reps.scores()) == [(1, 2), (1, 2)]


def test_few_scenarios_widen_the_interval() -> None:
    replicates = np.random.default_rng(0).normal(size=20_000)
    plain = stats.percentile_interval(replicates)
    assert plain == pytest.approx((-1.96, 1.96), abs=0.05)
    three = stats.percentile_interval(replicates, clusters=3)  # t with 2 df: 4.30
    assert three[1] - three[0] > plain[1] - plain[0] + 1
