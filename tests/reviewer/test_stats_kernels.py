"""The numpy kernels equal SciPy's, to the bit, on random data with ties, constant and tiny
inputs, and NaN where the callers let it through; each caller's figure equals what it was
with ``scipy.stats`` (its old code written out here as the reference)."""

from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest
from scipy import stats

from reviewer.agreement.anchoring import _welch
from reviewer.leaderboard import stats as board_stats
from reviewer.quality import stats as quality_stats
from reviewer.stats_kernels import (
    kendall_tau_rows,
    min_ranks,
    normal_cdf,
    normal_cdfs,
    normal_quantiles,
    slope_stderr,
    t_quantile,
    welch_interval,
)


def _same(a: float, b: float) -> bool:
    """Equal to the bit, NaN equal to NaN."""
    return bool(np.float64(a).tobytes() == np.float64(b).tobytes()) or (
        math.isnan(a) and math.isnan(b)
    )


def _near(a: float, b: float, scale: float = 0.0) -> bool:
    """Within 1e-12 of each other, relatively (the quantiles worked out here, not SciPy's
    to the bit), or of ``scale`` (what a difference of two terms was made from); NaN near
    NaN."""
    return bool(a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b), scale)) or (
        math.isnan(a) and math.isnan(b)
    )


def _scipy(f, *args, **kwargs):  # type: ignore[no-untyped-def]
    """``f(...)`` with SciPy's own warnings (precision loss, small samples) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(*args, **kwargs)


def _values(rng: random.Random, n: int) -> list[float]:
    # Few distinct values (many ties), thirds as the consensus means are, or floats.
    kind = rng.choice(("ties", "thirds", "floats", "constant"))
    if kind == "ties":
        return [float(rng.randint(0, 3)) for _ in range(n)]
    if kind == "thirds":
        return [rng.randint(0, 9) / 9 for _ in range(n)]
    if kind == "constant":
        return [0.5] * n
    return [rng.random() for _ in range(n)]


# -- quantiles ---------------------------------------------------------------------------

# The degrees of freedom the callers use (n - 1, n - 2, clusters - 1, ...) and beyond.
DFS = [*range(1, 400), 500, 1000, 9999, 10_000, 29_999]


def _worked_out(q: float, df: float) -> bool:
    """Whether :func:`t_quantile` works the quantile out itself (else it is SciPy's)."""
    return float(df).is_integer() and 1 <= df <= 400 and 1e-3 <= min(q, 1 - q) <= 0.25


@pytest.mark.parametrize("q", [0.975, 0.5, 0.9, 0.995, 0.025, 1e-6])
def test_t_quantile_is_t_ppf(q: float) -> None:
    for df in DFS:
        same = _near if _worked_out(q, df) else _same
        assert same(t_quantile(q, df), stats.t.ppf(q, df)), (q, df)
    rng = random.Random(q)
    for _ in range(300):
        p, df = rng.random(), rng.uniform(0.5, 200)
        assert _same(t_quantile(p, df), stats.t.ppf(p, df)), (p, df)


def test_t_quantile_worked_out_is_t_ppf_throughout() -> None:
    """Every whole df it works out, at both ends of its tails and at random ones between
    (each side of 0.5): within 1e-12 of ``t.ppf``; one step beyond, SciPy's to the bit."""
    rng = random.Random(7)
    for df in range(1, 401):
        tails = [1e-3, 0.25, 0.005, 0.025, 0.05, rng.uniform(1e-3, 0.25), rng.uniform(1e-3, 0.01)]
        for q in (*tails, *(1 - t for t in tails)):
            assert _worked_out(q, df)
            assert _near(t_quantile(q, df), stats.t.ppf(q, df)), (q, df)
    for q, df in [(0.975, 401), (0.2500001, 3), (0.9999, 3), (0.975, 2.5)]:
        assert not _worked_out(q, df)
        assert _same(t_quantile(q, df), stats.t.ppf(q, df)), (q, df)


def test_percentile_tail_is_scipys() -> None:
    # The expanded percentile interval's tail: norm.cdf(-t.ppf(1 - tail, clusters - 1)).
    for level in (0.95, 0.9, 0.99):
        tail = (1 - level) / 2
        for clusters in range(2, 300):
            old = float(stats.norm.cdf(-stats.t.ppf(1 - tail, clusters - 1)))
            assert _near(normal_cdf(-t_quantile(1 - tail, clusters - 1)), old)
    for x in np.random.default_rng(0).normal(0, 4, 2000):
        assert _near(normal_cdf(float(x)), stats.norm.cdf(x))
    assert normal_cdf(-math.inf) == 0.0 and normal_cdf(math.inf) == 1.0
    assert math.isnan(normal_cdf(math.nan))


def test_normal_cdfs_and_quantiles_are_ndtr_and_ndtri() -> None:
    """The BCa interval's normal CDF and quantile, over what it gives them: the share of
    replicates below the estimate (from 0.5 / n), the tails' quantiles, then their mix."""
    from scipy.special import ndtr, ndtri

    rng = np.random.default_rng(3)
    p = np.concatenate(
        [rng.uniform(1e-6, 1 - 1e-6, 5000), rng.uniform(0.49, 0.51, 1000),
         0.5 / np.arange(1, 5001), [0.025, 0.975, 0.5, 0.005, 0.995]]
    )  # fmt: skip
    found, expected = normal_quantiles(p), ndtri(p)
    assert found.shape == p.shape
    assert all(_near(a, b) for a, b in zip(found, expected, strict=True))
    x = np.concatenate([rng.normal(0, 3, 5000), [-40.0, -8.0, -1.0, 0.0, 0.7, 1.0, 8.0, 40.0]])
    assert all(_near(a, b) for a, b in zip(normal_cdfs(x), ndtr(x), strict=True))
    assert normal_cdfs(np.array([[0.0, 1.0]])).shape == (1, 2)
    assert normal_quantiles(0.5).shape == () and float(normal_quantiles(0.5)) == 0.0


@pytest.mark.parametrize("seed", range(30))
def test_percentile_interval_is_what_it_was(seed: int) -> None:
    rng = np.random.default_rng(seed)
    replicates = rng.normal(0.5, 0.2, int(rng.integers(1, 3000)))
    replicates[rng.random(replicates.size) < 0.05] = np.nan
    for clusters in (None, 1, 2, 3, 5, 17, 60):
        found = board_stats.percentile_interval(replicates, clusters=clusters, bounds=(0, 1))
        finite = replicates[np.isfinite(replicates)]
        tail = (1 - 0.95) / 2  # as the function takes it: 0.025000000000000022
        if clusters is not None and clusters >= 2:
            tail = float(stats.norm.cdf(-stats.t.ppf(1 - tail, clusters - 1)))
        low, high = np.quantile(finite, [tail, 1 - tail])
        expected = (max(float(low), 0), min(float(high), 1))
        assert all(_near(a, b) for a, b in zip(found, expected, strict=True)), clusters


# -- ranks and Kendall's tau ------------------------------------------------------------------


def _rows(rng: np.random.Generator, b: int, m: int) -> np.ndarray:
    kind = rng.integers(0, 4)
    if kind == 0:
        a = rng.integers(0, 4, (b, m)).astype(float)  # many ties
    elif kind == 1:
        a = rng.integers(0, 10, (b, m)) / 9
    elif kind == 2:
        a = np.repeat(rng.random((b, 1)), m, axis=1)  # constant rows
    else:
        a = rng.random((b, m))
    a[rng.random((b, m)) < 0.15] = np.nan  # a model missing from a replicate
    a[rng.random((b, m)) < 0.02] = np.inf
    a[rng.random((b, m)) < 0.02] = -np.inf
    a[rng.random((b, m)) < 0.05] = -0.0
    return a


@pytest.mark.parametrize("seed", range(40))
def test_min_ranks_are_rankdata_min(seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = _rows(rng, int(rng.integers(1, 30)), int(rng.integers(0, 12)))
    found = min_ranks(a)
    for row, ranks in zip(a, found, strict=True):
        ok = np.isfinite(row)
        expected = np.full(row.shape, np.nan)
        expected[ok] = stats.rankdata(row[ok], method="min")
        assert np.array_equal(ranks, expected, equal_nan=True)


@pytest.mark.parametrize("seed", range(40))
def test_leaderboard_ranks_are_what_they_were(seed: int) -> None:
    rng = np.random.default_rng(seed)
    scores = _rows(rng, int(rng.integers(1, 300)), int(rng.integers(1, 12)))
    # The old code: rankdata of each replicate's negated finite scores, ties taking the min.
    ranks = np.full(scores.shape, np.nan)
    for b, row in enumerate(scores):
        ok = np.isfinite(row)
        ranks[b, ok] = stats.rankdata(-row[ok], method="min")
    expected = []
    for m in range(scores.shape[1]):
        r = ranks[:, m][np.isfinite(ranks[:, m])]
        if not r.size:
            expected.append((0, 0))
            continue
        low = int(np.quantile(r, 0.025, method="lower"))
        expected.append((low, int(np.quantile(r, 0.975, method="higher"))))
    assert board_stats.rank_intervals(scores) == expected
    point = scores[0]
    ok = np.isfinite(point)
    old = np.zeros(point.shape, dtype=int)
    old[ok] = stats.rankdata(-point[ok], method="min").astype(int)
    assert board_stats.point_ranks(point) == [int(r) for r in old]


def _old_kendall_tau(x: np.ndarray, y: np.ndarray) -> float:
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 2:
        return math.nan
    tau = _scipy(stats.kendalltau, x[ok], y[ok]).statistic
    return float(tau) if np.isfinite(tau) else math.nan


@pytest.mark.parametrize("seed", range(40))
def test_kendall_taus_are_scipys(seed: int) -> None:
    rng = np.random.default_rng(seed)
    b, m = int(rng.integers(1, 60)), int(rng.integers(0, 14))
    x, y = _rows(rng, b, m), _rows(rng, b, m)
    if seed % 3 == 0:
        y = x + rng.normal(0, 0.1, x.shape)  # mostly concordant, with the same gaps
    found = kendall_tau_rows(x, y)
    assert found.shape == (b,)
    for i in range(b):
        expected = _old_kendall_tau(x[i], y[i])
        assert _same(found[i], expected), (x[i], y[i])
        assert _same(board_stats.kendall_tau(x[i], y[i]), expected)
    assert np.array_equal(board_stats.kendall_taus(x, y), found, equal_nan=True)


def test_kendall_tau_of_too_few_or_constant_is_nan() -> None:
    assert math.isnan(board_stats.kendall_tau([1.0], [2.0]))
    assert math.isnan(board_stats.kendall_tau([1.0, np.nan], [2.0, 3.0]))
    assert math.isnan(board_stats.kendall_tau([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))
    # x 1 2 3, y 1 3 2: (1,2) and (1,3) concordant, (2,3) discordant: (2 − 1) / 3 = 1/3.
    assert board_stats.kendall_tau([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)


# -- the slope and its interval ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(80))
def test_slope_stderr_is_linregress(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice((2, 3, 4, 5, rng.randint(6, 400)))
    x = [float(rng.randint(0, 5)) for _ in range(n)] if seed % 2 else _values(rng, n)
    if len(set(x)) < 2:
        x[0] = max(x) + 1
    y = _values(rng, n) if seed % 5 else [rng.randint(0, 3) - 1.5 for _ in range(n)]
    if seed % 7 == 0:
        y = [2 * v + 1 for v in x]  # a perfect fit: r rounds to 1 or just past it
    if seed % 11 == 0:
        x = [int(v) for v in x]  # positions and days arrive as integers too
    result = _scipy(stats.linregress, x, y)
    value, stderr = slope_stderr(x, y)
    assert _same(value, result.slope) and _same(stderr, result.stderr), (x, y)


@pytest.mark.parametrize("seed", range(40))
def test_quality_slope_is_what_it_was(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(0, 60)
    x, y = _values(rng, n), _values(rng, n)
    if seed % 9 == 0 and n:
        y[rng.randrange(n)] = math.nan  # NaN in: NaN out, as before
    found = quality_stats.slope(x, y)
    if n < 3 or len(set(x)) < 2:
        expected = (math.nan, math.nan, math.nan)
    else:
        result = _scipy(stats.linregress, x, y)
        half = float(stats.t.ppf(0.975, n - 2) * result.stderr)
        value = float(result.slope)
        expected = (value, value - half, value + half)
    assert found.n == n
    # value ± half: the quantile's last bits, within 1e-12 of the terms (not of their sum)
    scale = abs(expected[0]) + abs(expected[2] - expected[0])
    assert _same(found.value, expected[0])
    assert _near(found.low, expected[1], scale) and _near(found.high, expected[2], scale)


def _scipy_quantile(q: float, df: float) -> float:
    return stats.t.ppf(q, df)  # type: ignore[no-any-return]


@pytest.mark.parametrize("seed", range(30))
def test_t_intervals_are_what_they_were(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every caller of :func:`t_quantile` gives the same figures as with ``t.ppf``."""
    from reviewer.agreement import anchoring_pull
    from reviewer.quality import consensus

    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 80))
    values = [float(v) for v in rng.integers(-3, 4, n)]
    x = [float(v) for v in rng.integers(0, 30, n)]
    groups = [str(g) for g in rng.choice(list("abc"), n)]
    d, r = rng.normal(0, 1, n), rng.normal(0, 0.5, n)
    raters, runs = rng.integers(0, 4, n), rng.integers(0, int(rng.integers(1, 9)), n)
    cells = [
        consensus.Cell(run, run, f"r{k}", float(rng.integers(0, 4)))
        for run in range(int(rng.integers(2, 25)))
        for k in rng.choice(5, size=int(rng.integers(2, 5)), replace=False)
    ]

    def figures() -> list[float]:
        estimates = [
            quality_stats.mean_t(values),
            quality_stats.slope(x, values),
            quality_stats.within_slope(x, values, groups),
            *consensus.rater_biases(cells, resamples=60, seed=seed).values(),
        ]
        ends = anchoring_pull.two_way_interval(d, r, raters, runs) if n else None
        flat = [v for e in estimates for v in (e.value, e.low, e.high, e.n)]
        return [float(v) for v in flat + list(ends or ())]

    found = figures()
    for module in (quality_stats, consensus, anchoring_pull):
        monkeypatch.setattr(module, "t_quantile", _scipy_quantile)
    expected = figures()
    assert len(found) == len(expected)
    # estimate ± half: within 1e-12 of the figures' scale (an end near 0 is a difference)
    scale = max((abs(v) for v in found if math.isfinite(v)), default=0.0)
    assert all(_near(a, b, scale) for a, b in zip(found, expected, strict=True)), (found, expected)


# -- Welch's interval -----------------------------------------------------------------------


def _sample(rng: random.Random) -> list[float]:
    n = rng.choice((2, 3, rng.randint(4, 200)))
    kind = rng.choice(("ints", "floats", "constant", "rounding"))
    if kind == "ints":
        return [float(rng.randint(0, 3)) for _ in range(n)]
    if kind == "floats":
        return [3 * rng.random() for _ in range(n)]
    if kind == "constant":
        return [rng.randint(0, 3) * 1.0] * n
    return [3 * 0.3 + rng.choice((0.0, 1e-16, -1e-16)) for _ in range(n)]  # last bits


@pytest.mark.parametrize("seed", range(120))
def test_welch_interval_is_ttest_ind(seed: int) -> None:
    rng = random.Random(seed)
    a, b = _sample(rng), _sample(rng)
    ci = _scipy(stats.ttest_ind, a, b, equal_var=False).confidence_interval(0.95)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no warning of ours
        low, high = welch_interval(a, b, level=0.95)
    assert _same(low, ci.low) and _same(high, ci.high), (a, b)
    for level in (0.9, 0.99):
        ci = _scipy(stats.ttest_ind, a, b, equal_var=False).confidence_interval(level)
        assert (welch_interval(a, b, level=level)) == (float(ci.low), float(ci.high))


@pytest.mark.parametrize("seed", range(40))
def test_anchoring_welch_is_what_it_was(seed: int) -> None:
    rng = random.Random(seed)
    a, b = _sample(rng), _sample(rng)
    low, high, note = _welch(list(a), list(b))
    if note is None:
        from reviewer.agreement.anchoring import _settled

        ci = _scipy(stats.ttest_ind, _settled(a), _settled(b), equal_var=False)
        ci = ci.confidence_interval(0.95)
        assert (low, high) == (float(ci.low), float(ci.high))
