"""Estimators of the leaderboard, pure functions over plain arrays.

A model's score is the mean over scenarios of its mean over runs in that scenario
(scenarios weigh the same, however many runs each has). Its uncertainty comes from a
two-level bootstrap that follows the benchmark's hierarchy: each replicate draws the
scenarios with replacement and, within each drawn scenario, each model's runs with
replacement (Davison & Hinkley 1997, §3.8, "Strategy 2"). The same scenario draw serves
every model in a replicate, so differences between two models are paired by scenario and
ranks are taken within a replicate.

References: Davison, A. C. & Hinkley, D. V. (1997) *Bootstrap Methods and their
Application*, §3.8; Wilson, E. B. (1927) "Probable inference, the law of succession, and
statistical inference", JASA 22, 209–212; Kendall, M. G. (1945) tau-b; Hesterberg, T. C.
(2015) "What teachers should know about the bootstrap", The American Statistician 69(4).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reviewer.stats_kernels import kendall_tau_rows, min_ranks, normal_cdf, t_quantile

Cells = Mapping[tuple[str, str], Sequence[float]]
"""``{(scenario, model): per-run values}``."""


@dataclass(frozen=True)
class Replicates:
    """Bootstrap replicates of every model's score, on one shared scenario draw."""

    models: tuple[str, ...]
    scenarios: tuple[str, ...]
    #: (B, S, M): the model's mean over its resampled runs in the drawn scenario, NaN where
    #: the model has no run in that scenario.
    cells: NDArray[np.float64]
    #: (S, M): the observed cell means (NaN where empty).
    observed: NDArray[np.float64]

    def scores(self) -> NDArray[np.float64]:
        """(B, M): each model's score in each replicate (NaN if no drawn scenario has it)."""
        return _nanmean(self.cells, axis=1)

    def point(self) -> NDArray[np.float64]:
        """(M,): each model's observed score."""
        return _nanmean(self.observed, axis=0)


def bootstrap(cells: Cells, *, resamples: int, seed: int) -> Replicates:
    """Draw ``resamples`` two-level bootstrap replicates of ``cells``."""
    (out,) = bootstrap_columns(
        {k: [(v,) for v in vs] for k, vs in cells.items()}, resamples=resamples, seed=seed
    )
    return out


def bootstrap_columns(
    cells: Mapping[tuple[str, str], Sequence[Sequence[float]]], *, resamples: int, seed: int
) -> tuple[Replicates, ...]:
    """Replicates of several values per run (one :class:`Replicates` per column), drawn
    together: a run drawn for one column is drawn for all, so two views of the same runs
    can be compared replicate by replicate.

    Each model's runs are resampled from adjusted values (see :func:`_adjusted`), so the
    replicates' spread matches the two-level variance instead of counting the run-to-run
    part twice, which plain resampling at both levels does.
    """
    models = tuple(sorted({m for _, m in cells}))
    scenarios = tuple(sorted({s for s, _ in cells}))
    s_index = {s: i for i, s in enumerate(scenarios)}
    m_index = {m: i for i, m in enumerate(models)}
    width = max((len(row) for rows in cells.values() for row in rows), default=1)
    rng = np.random.default_rng(seed)
    n_s, n_m = len(scenarios), len(models)
    drawn = rng.integers(0, n_s, size=(resamples, n_s))
    # Replicate b's k-th drawn scenario is drawn[b, k]; each draw, repeats included, gets
    # its own resample of runs (a repeat reusing one would double the run noise).
    chosen = np.full((resamples, n_s, n_m, width), np.nan)
    observed = np.full((n_s, n_m, width), np.nan)
    by_model: dict[str, dict[str, NDArray[np.float64]]] = {m: {} for m in models}
    for (scenario, model), rows in cells.items():
        v = np.asarray(rows, dtype=float).reshape(-1, width)
        if v.shape[0]:
            by_model[model][scenario] = v
    slots = {i: np.nonzero(drawn == i) for i in range(n_s)}
    for model, groups in sorted(by_model.items()):
        j = m_index[model]
        for scenario, (centre, residuals) in sorted(_adjusted(groups).items()):
            i = s_index[scenario]
            observed[i, j] = groups[scenario].mean(axis=0)
            rows_b, cols_k = slots[i]
            n = residuals.shape[0]
            draws = rng.integers(0, n, size=(rows_b.size, n))
            chosen[rows_b, cols_k, j] = centre + residuals[draws].mean(axis=1)
    return tuple(
        Replicates(models, scenarios, chosen[..., k], observed[..., k]) for k in range(width)
    )


def _adjusted(
    groups: Mapping[str, NDArray[np.float64]],
) -> dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Per scenario, the centre its bootstrap cell mean is drawn around and the residuals
    its runs are drawn from (Davison & Hinkley 1997, §3.8, the two-stage model).

    A scenario's observed mean varies around the model's mean by the scenario's own effect
    *and* by the noise of its few runs. Resampling runs around the observed means would
    count that noise twice, so the scenario deviations are shrunk by
    ``sqrt(1 - W / V)`` (``V`` the variance of the scenario means, ``W`` the part of it
    that run noise explains) and inflated by ``sqrt(S / (S - 1))`` for the ``S`` scenarios
    drawn with replacement; the run residuals are inflated by ``sqrt(n / (n - 1))``. The
    replicates then spread like the estimate itself: ``V / S``.
    """
    means = {s: v.mean(axis=0) for s, v in groups.items()}
    n_s = len(groups)
    stacked = np.stack(list(means.values()))  # (S, K)
    grand = stacked.mean(axis=0)
    within = np.stack(
        [
            v.var(axis=0, ddof=1) / v.shape[0] if v.shape[0] > 1 else np.zeros(v.shape[1])
            for v in groups.values()
        ]
    ).mean(axis=0)
    if n_s > 1:
        between = stacked.var(axis=0, ddof=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            shrink = np.where(between > 0, np.sqrt(np.clip(1 - within / between, 0, 1)), 0.0)
        shrink = shrink * math.sqrt(n_s / (n_s - 1))
    else:
        shrink = np.zeros_like(grand)
    out = {}
    for scenario, v in groups.items():
        n = v.shape[0]
        scale = math.sqrt(n / (n - 1)) if n > 1 else 0.0
        centre = grand + shrink * (means[scenario] - grand)
        out[scenario] = (centre, scale * (v - means[scenario]))
    return out


def pair_difference(
    cells: Cells, a: str, b: str, *, resamples: int, seed: int
) -> tuple[float, NDArray[np.float64], int]:
    """Model ``a`` minus model ``b`` over the scenarios both have: the observed difference
    (mean over those scenarios of the difference of the two cell means), its bootstrap
    replicates, and how many scenarios they share.

    The scenarios are drawn with replacement and each model's runs within them, around
    centres adjusted as in :func:`_adjusted` but for the *differences*: the scenario
    effect both models share cancels, and the run noise of both is counted once.
    """
    shared = sorted({s for s, m in cells if m == a} & {s for s, m in cells if m == b})
    shared = [s for s in shared if len(cells[(s, a)]) and len(cells[(s, b)])]
    if not shared:
        return math.nan, np.full(resamples, np.nan), 0
    va = [np.asarray(cells[(s, a)], dtype=float) for s in shared]
    vb = [np.asarray(cells[(s, b)], dtype=float) for s in shared]
    diffs = np.array([x.mean() - y.mean() for x, y in zip(va, vb, strict=True)])
    point = float(diffs.mean())
    n_s = len(shared)
    within = float(np.mean([_noise(x) + _noise(y) for x, y in zip(va, vb, strict=True)]))
    shrink = 0.0
    if n_s > 1:
        between = float(diffs.var(ddof=1))
        if between > 0:
            shrink = math.sqrt(max(0.0, 1 - within / between)) * math.sqrt(n_s / (n_s - 1))
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, n_s, size=(resamples, n_s))
    slot_values = np.empty((resamples, n_s))
    for i, (x, y) in enumerate(zip(va, vb, strict=True)):
        rows_b, cols_k = np.nonzero(drawn == i)
        centre = point + shrink * (diffs[i] - point)
        noise = _resampled_noise(x, rng, rows_b.size) - _resampled_noise(y, rng, rows_b.size)
        slot_values[rows_b, cols_k] = centre + noise
    replicates = slot_values.mean(axis=1)
    return point, replicates, n_s


def _noise(v: NDArray[np.float64]) -> float:
    """The variance of ``v``'s mean that run-to-run noise explains (0 for one run)."""
    return float(v.var(ddof=1) / v.size) if v.size > 1 else 0.0


def _resampled_noise(
    v: NDArray[np.float64], rng: np.random.Generator, resamples: int
) -> NDArray[np.float64]:
    """``resamples`` means of runs drawn with replacement from ``v``'s inflated residuals."""
    if v.size < 2:
        return np.zeros(resamples)
    residuals = math.sqrt(v.size / (v.size - 1)) * (v - v.mean())
    means: NDArray[np.float64] = residuals[rng.integers(0, v.size, (resamples, v.size))].mean(1)
    return means


def percentile_interval(
    replicates: NDArray[np.float64],
    *,
    level: float = 0.95,
    clusters: int | None = None,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> tuple[float, float]:
    """The percentile interval of the finite replicates (NaN if none).

    With ``clusters`` (the number of scenarios the figure averages over, two or more) the
    tails are those of the *expanded* percentile interval (Hesterberg 2015, "What teachers
    should know about the bootstrap", §3.4): the normal quantile is replaced by Student's
    t with ``clusters - 1`` degrees of freedom, so that a figure resting on a few
    scenarios gets the width a t interval would give it rather than the too-narrow plain
    percentiles. The interval is clipped to ``bounds``, where the figure must lie (a mean
    of 0–1 values cannot exceed 1, though a replicate drawn around adjusted centres may).
    """
    finite = replicates[np.isfinite(replicates)]
    if not finite.size:
        return math.nan, math.nan
    tail = (1 - level) / 2
    if clusters is not None and clusters >= 2:
        tail = normal_cdf(-t_quantile(1 - tail, clusters - 1))
    low, high = np.quantile(finite, [tail, 1 - tail])
    return max(float(low), bounds[0]), min(float(high), bounds[1])


def rank_intervals(scores: NDArray[np.float64], *, level: float = 0.95) -> list[tuple[int, int]]:
    """Per model, the central ``level`` range of its rank (1 = best) over the replicates.

    Ties share the better rank; a model missing from a replicate is left out of it.
    """
    ranks = min_ranks(-scores)
    out = []
    tail = (1 - level) / 2
    for m in range(scores.shape[1]):
        r = ranks[:, m][np.isfinite(ranks[:, m])]
        if not r.size:
            out.append((0, 0))
            continue
        low = int(np.quantile(r, tail, method="lower"))
        high = int(np.quantile(r, 1 - tail, method="higher"))
        out.append((low, high))
    return out


def point_ranks(point: NDArray[np.float64]) -> list[int]:
    """Ranks of the observed scores (1 = best; ties share the better rank)."""
    ranks = min_ranks(-np.asarray(point, dtype=float)[None, :])[0]
    return [int(r) if np.isfinite(r) else 0 for r in ranks]


def kendall_tau(
    x: Sequence[float] | NDArray[np.float64], y: Sequence[float] | NDArray[np.float64]
) -> float:
    """Kendall's tau-b of two score lists over the same models, those finite in both (NaN
    below 2 models, or when either list is constant)."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return float(kendall_tau_rows(xs[None], ys[None])[0])


def kendall_taus(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`kendall_tau` of each row of ``x`` (replicates × models) with the same row of
    ``y``, all at once."""
    return kendall_tau_rows(x, y)


def _nanmean(a: NDArray[np.float64], axis: int) -> NDArray[np.float64]:
    """``np.nanmean`` without its warning on an all-NaN slice (the result is NaN there)."""
    count = np.sum(~np.isnan(a), axis=axis)
    total = np.nansum(a, axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean: NDArray[np.float64] = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return mean
