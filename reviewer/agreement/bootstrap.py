"""Alpha from coincidence matrices, fast enough to bootstrap.

Krippendorff's alpha depends on the data only through the coincidence matrix
``o[c, k] = Σ_u n_uc·(n_uk − [c = k]) / (m_u − 1)``, a sum of one matrix per unit (``n_uc``
raters gave unit ``u`` value ``c``; ``m_u`` values in the unit). So each unit's
contribution is computed once, and a bootstrap resample (units drawn with replacement) is
only a weighted sum of those matrices: one matrix product for all resamples at once.
:func:`coincidence_alpha` on the full data equals ``krippendorff.alpha`` (a test pins it).

Alpha of a coincidence matrix is :func:`reviewer.agreement.tally.alphas_from_coincidences`,
the one formula every alpha of the package goes through.
"""

from __future__ import annotations

import numpy as np

from reviewer.agreement.alpha import Level, Units
from reviewer.agreement.tally import alphas_from_coincidences

__all__ = [
    "alphas_from_coincidences",
    "bca_interval",
    "bootstrap_alpha",
    "coincidence_alpha",
    "jackknife_alpha",
    "percentile_interval",
    "unit_coincidences",
]


def unit_coincidences(units: Units) -> np.ndarray:
    """One flattened ``V×V`` coincidence matrix per pairable unit: shape ``(U, V·V)``."""
    return _coincidences(units.pairable().counts)


def _coincidences(value_counts: np.ndarray) -> np.ndarray:
    """The flattened coincidence matrix of each row of value counts (each ≥ 2 values)."""
    counts = value_counts.astype(np.float64)
    m = counts.sum(axis=1)
    outer = counts[:, :, None] * counts[:, None, :]
    # A value is never paired with itself: remove n_uc from the diagonal.
    outer[:, np.arange(counts.shape[1]), np.arange(counts.shape[1])] -= counts
    flat: np.ndarray = (outer / (m - 1)[:, None, None]).reshape(len(counts), counts.shape[1] ** 2)
    return flat


def coincidence_alpha(units: Units, level: Level) -> float:
    """Alpha of all of ``units`` through the coincidence path (NaN when undefined)."""
    per_unit = unit_coincidences(units)
    v = len(units.domain)
    o = per_unit.sum(axis=0).reshape(1, v, v)
    return float(alphas_from_coincidences(o, np.asarray(units.domain, float), level)[0])


def bootstrap_alpha(
    units: Units, level: Level, *, resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """Alpha of ``resamples`` bootstrap samples of the pairable units (NaN where undefined).

    Each sample draws as many units as there are, with replacement. A unit enters alpha
    only through its value counts, and units with the same counts are interchangeable: so
    a sample is summed up by how many of its draws fall on each distinct count vector (a
    pattern), which is multinomial with the patterns' shares as probabilities, exactly as
    the counts of the units drawn would sum to. With four values and a few raters there
    are some tens of patterns, not thousands of units: one small multinomial call and one
    small product for all samples (drawing per unit cost 0.6 s per metric at 10,000 units
    and 1,000 resamples, the same distribution; the draws, so the replicates, differ).
    """
    pairable = units.pairable().counts
    n_units, v = len(pairable), len(units.domain)
    if n_units == 0 or resamples <= 0:
        return np.full(max(resamples, 0), np.nan)
    patterns, sizes = _patterns(pairable)
    weights = rng.multinomial(n_units, sizes / n_units, size=resamples)
    # As floats: an integer matrix times a float one skips BLAS.
    o = (weights.astype(np.float64) @ _coincidences(patterns)).reshape(resamples, v, v)
    return alphas_from_coincidences(o, np.asarray(units.domain, float), level)


def _patterns(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``counts`` (sorted) and how many units have each."""
    patterns, _, sizes = _distinct_rows(counts)
    return patterns, sizes.astype(np.float64)


def _distinct_rows(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(counts, axis=0, return_inverse=True, return_counts=True)``: the distinct
    rows, sorted, each row's index among them and how many rows each has. Rows of
    non-negative counts are read as the digits of one integer each (in the base one above
    the largest count), whose order is the rows' order: a sort of integers, not of rows (a
    tenth of the time at 10,000 units); rows too large for that go through ``np.unique``."""
    counts = np.asarray(counts)
    n_rows, width = counts.shape
    base = int(counts.max(initial=0)) + 1
    if n_rows == 0 or counts.min(initial=0) < 0 or base**width >= 2**62:
        rows, inverse, sizes = np.unique(counts, axis=0, return_inverse=True, return_counts=True)
        return rows, inverse.reshape(-1), sizes
    weights = base ** np.arange(width - 1, -1, -1, dtype=np.int64)
    code = counts.astype(np.int64) @ weights
    _, first, inverse, sizes = np.unique(
        code, return_index=True, return_inverse=True, return_counts=True
    )
    return counts[first], inverse.reshape(-1), sizes


def percentile_interval(values: np.ndarray, *, level: float = 0.95) -> tuple[float, float] | None:
    """The central ``level`` percentile interval of the finite values, or ``None``."""
    finite = values[np.isfinite(values)]
    if len(finite) == 0:
        return None
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return float(low), float(high)


def jackknife_alpha(units: Units, level: Level) -> np.ndarray:
    """Alpha with each pairable unit left out in turn (shape ``(U,)``; NaN where undefined)."""
    per_unit = unit_coincidences(units)
    v = len(units.domain)
    total = per_unit.sum(axis=0)
    # Units with the same counts leave the same matrix out: alpha once per distinct one
    # (tens of them, not thousands of units), each unit then given its own's.
    rows, inverse, _ = _distinct_rows(units.pairable().counts)
    left = (total[None, :] - _coincidences(rows)).reshape(len(rows), v, v)
    alphas = alphas_from_coincidences(left, np.asarray(units.domain, float), level)
    out: np.ndarray = alphas[inverse]
    return out


def bca_interval(
    estimate: float,
    replicates: np.ndarray,
    jackknife: np.ndarray,
    *,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """The bias-corrected and accelerated (BCa) bootstrap interval (Efron 1987; Efron &
    Tibshirani 1993, ch. 14), or ``None`` when it cannot be formed.

    The bias correction ``z0`` is the normal quantile of the share of replicates below the
    estimate (ties count half); the acceleration ``a`` comes from the jackknife values
    ``θ_(i)``: ``a = Σ(θ̄ − θ_(i))³ / (6·(Σ(θ̄ − θ_(i))²)^{3/2})``. The interval's ends are
    the replicates' percentiles at ``Φ(z0 + (z0 + z)/(1 − a·(z0 + z)))``, for ``z`` the
    normal quantiles of ``(1 ∓ level)/2``.
    """
    # The normal CDF and its inverse (scipy.special's ndtr, ndtri, without its import).
    from reviewer.stats_kernels import normal_cdfs as ndtr
    from reviewer.stats_kernels import normal_quantiles as ndtri

    finite = replicates[np.isfinite(replicates)]
    jack = jackknife[np.isfinite(jackknife)]
    if len(finite) < 2 or len(jack) < 2 or not np.isfinite(estimate):
        return None
    below = (np.sum(finite < estimate) + 0.5 * np.sum(finite == estimate)) / len(finite)
    below = min(max(below, 0.5 / len(finite)), 1 - 0.5 / len(finite))
    z0 = float(ndtri(below))
    d = jack.mean() - jack
    denominator = 6.0 * float(np.sum(d**2)) ** 1.5
    a = float(np.sum(d**3)) / denominator if denominator > 0 else 0.0
    z = ndtri(np.array([(1 - level) / 2, (1 + level) / 2]))
    adjusted = ndtr(z0 + (z0 + z) / (1 - a * (z0 + z)))
    low, high = np.quantile(finite, adjusted)
    return float(low), float(high)
