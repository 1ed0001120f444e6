"""Ranks, correlations, a regression slope and Student's t quantiles, without ``scipy.stats``.

Importing ``scipy.stats`` costs more than a second: the report, the raters' page and the
dashboard's first figures paid it for a handful of ranks and quantiles. Each function here
does the arithmetic SciPy 1.17 does (``rankdata``, ``spearmanr``, ``kendalltau``,
``linregress``, ``t.ppf``, ``norm.cdf``, ``ttest_ind(equal_var=False)``'s confidence
interval), in the same order, so the figures are the same to the bit; the tests hold each
one to ``scipy.stats`` on random data with ties, constant and tiny inputs.

Except two: the normal distribution function (and its inverse), and Student's t quantile
at the degrees of freedom and tails the intervals use (whole degrees of freedom up to 400,
tails of 0.001 to 0.25), are worked out here, within 1e-12 of SciPy's (the tests hold them
to it): importing ``scipy.special`` is a tenth of a second (it loads numpy's f2py and
testing), which the report paid for one quantile. The other quantiles (and Welch's, always)
take ``scipy.special.stdtrit``, imported inside the function.

A module of the lowest floor: every feature may import it.

References: Spearman's rho is Pearson's correlation of the average ranks; Kendall's
tau-b is ``(concordant − discordant) / sqrt((n0 − n1)(n0 − n2))`` with ``n0`` the pairs,
``n1`` and ``n2`` the pairs tied in x and in y (Kendall 1945, "The treatment of ties in
ranking problems"); Welch, B. L. (1947) "The generalization of Student's problem when
several different population variances are involved", Biometrika 34, 28–35; Student's t
distribution function for whole degrees of freedom: Abramowitz & Stegun (1964), 26.7.3
and 26.7.4.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]


def average_ranks(values: Sequence[float] | Floats) -> Floats:
    """Ranks 1..n of ``values``, ties sharing the average of the ranks they span."""
    x = np.asarray(values)
    n = len(x)
    order = np.argsort(x, kind="stable")
    ordered = x[order]
    first = np.concatenate([[True], ordered[:-1] != ordered[1:]]) if n else np.ones(0, bool)
    starts = np.flatnonzero(first)
    counts = np.diff(starts, append=n)
    ordinal = np.arange(1, n + 1, dtype=np.float64)
    ranks = np.repeat(ordinal[first] + (counts.astype(np.float64) - 1) / 2, counts)
    out = np.empty(n, dtype=np.float64)
    out[order] = ranks
    return out


def min_ranks(rows: Floats) -> Floats:
    """Per row of a 2-D array, the ranks 1..k of its finite values (smallest first), ties
    sharing the lowest rank they span (``rankdata(method="min")``); NaN where a value is not
    finite (it is left out of its row's ranking)."""
    a = np.asarray(rows, dtype=np.float64)
    finite = np.isfinite(a)
    key = np.where(finite, a, np.inf)  # the values left out sort after every finite one
    order = np.argsort(key, axis=-1, kind="stable")
    ordered = np.take_along_axis(key, order, axis=-1)
    first = np.ones(a.shape, dtype=bool)
    first[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    ordinal = np.broadcast_to(np.arange(1, a.shape[-1] + 1, dtype=np.float64), a.shape)
    # Each value takes the ordinal of the first of its run of equal values.
    lowest = np.maximum.accumulate(np.where(first, ordinal, 0.0), axis=-1)
    ranks = np.empty(a.shape, dtype=np.float64)
    np.put_along_axis(ranks, order, lowest, axis=-1)
    ranks[~finite] = np.nan
    return ranks


def spearman_rho(x: Floats, y: Floats) -> float:
    """Spearman's rho of two equally long arrays, neither constant, without NaN."""
    ranked = np.column_stack((average_ranks(x), average_ranks(y)))
    matrix: Floats = np.asarray(np.corrcoef(ranked, rowvar=False))
    return float(matrix[1, 0])


def kendall_tau_b(x: Sequence[float] | Floats, y: Sequence[float] | Floats) -> float:
    """Kendall's tau-b of two equally long sequences, each with two distinct values or
    more (a pair at a time: the scenarios rank a handful of models)."""
    n = len(x)
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    i, j = np.triu_indices(n, 1)
    dx, dy = np.sign(xs[i] - xs[j]), np.sign(ys[i] - ys[j])
    discordant = int((dx * dy < 0).sum())
    x_ties, y_ties = int((dx == 0).sum()), int((dy == 0).sum())
    joint = int(((dx == 0) & (dy == 0)).sum())
    total = n * (n - 1) // 2
    con_minus_dis = total - x_ties - y_ties + joint - 2 * discordant
    tau = con_minus_dis / np.sqrt(total - x_ties) / np.sqrt(total - y_ties)
    return float(min(1.0, max(-1.0, tau)))


def kendall_tau_rows(x: Floats, y: Floats) -> Floats:
    """:func:`kendall_tau_b` of each row of ``x`` with the same row of ``y`` (2-D, same
    shape) over the columns finite in both; NaN for a row with fewer than two such columns
    or constant in either (as ``kendalltau`` gives)."""
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    ok = np.isfinite(xs) & np.isfinite(ys)
    i, j = np.triu_indices(xs.shape[-1], 1)
    pair = ok[:, i] & ok[:, j]
    with np.errstate(invalid="ignore"):  # a difference with a left-out inf is not counted
        dx, dy = np.sign(xs[:, i] - xs[:, j]), np.sign(ys[:, i] - ys[:, j])
    discordant = ((dx * dy < 0) & pair).sum(axis=1)
    x_ties, y_ties = ((dx == 0) & pair).sum(axis=1), ((dy == 0) & pair).sum(axis=1)
    joint = ((dx == 0) & (dy == 0) & pair).sum(axis=1)
    total = pair.sum(axis=1)  # n (n - 1) / 2 for the n columns finite in both
    con_minus_dis = total - x_ties - y_ties + joint - 2 * discordant
    defined = (total > 0) & (x_ties < total) & (y_ties < total)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = con_minus_dis / np.sqrt(total - x_ties) / np.sqrt(total - y_ties)
    out: Floats = np.where(defined, np.minimum(1.0, np.maximum(-1.0, tau)), np.nan)
    return out


#: Where :func:`t_quantile` works the quantile out itself: whole degrees of freedom up to
#: this many, and tails (the smaller of ``q`` and ``1 - q``) in ``_T_TAILS``. There the
#: tests find it within 1e-13 of ``stdtrit``; beyond, the sums grow long and the far tails
#: lose digits to the subtraction from 1, so SciPy answers.
_T_MAX_DF = 400
_T_TAILS = (1e-3, 0.25)


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (``t.ppf``), for
    ``0 < q < 1`` and ``df > 0``."""
    tail = min(q, 1.0 - q)  # 1 - q is exact for q >= 0.5
    if float(df).is_integer() and 1 <= df <= _T_MAX_DF and _T_TAILS[0] <= tail <= _T_TAILS[1]:
        return _t_quantile_whole(float(q), int(df))
    return _scipy_t_quantile(q, df)


def _scipy_t_quantile(q: float, df: float) -> float:
    from scipy.special import stdtrit  # what needs no interval does not load it

    return float(stdtrit(df, q))


@lru_cache(maxsize=1024)
def _t_quantile_whole(q: float, nu: int) -> float:
    """Newton's method on the distribution function, from the normal quantile: the upper
    tail ``(1 − A(t)) / 2 = tail`` solved for ``t ≥ 0``, then signed."""
    tail = min(q, 1.0 - q)
    if nu == 1:  # the Cauchy distribution
        t = 1.0 / math.tan(math.pi * tail)
    elif nu == 2:
        t = (1.0 - 2.0 * tail) / math.sqrt(2.0 * tail * (1.0 - tail))
    else:
        t = -NormalDist().inv_cdf(tail)
        scale = math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)
        for _ in range(100):  # a handful: Newton converges fast from there
            density = math.exp(scale - (nu + 1) / 2 * math.log1p(t * t / nu))
            step = ((1.0 - _t_central(t, nu)) / 2 - tail) / density
            t += step
            if abs(step) <= 1e-15 * t:
                break
    return t if q > 0.5 else -t


def _t_central(t: float, nu: int) -> float:
    """``A(t) = P(|T| ≤ t)`` for ``t ≥ 0`` and ``nu`` whole (A&S 26.7.3, 26.7.4): with
    ``cos²θ = nu / (nu + t²)``, ``sinθ·Σ`` of the even terms, or ``2/π·(θ + sinθ·cosθ·Σ)``
    of the odd ones."""
    x2 = t * t / nu
    c2 = 1.0 / (1.0 + x2)
    s = math.sqrt(x2 * c2)
    term = total = 1.0
    if nu % 2 == 0:
        for k in range(1, nu // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        return s * total
    for k in range(1, (nu - 1) // 2):
        term *= c2 * (2 * k) / (2 * k + 1)
        total += term
    theta = math.atan(t / math.sqrt(nu))
    return (theta + (s * math.sqrt(c2) * total if nu > 1 else 0.0)) * (2 / math.pi)


_SQRT1_2 = math.sqrt(0.5)


def normal_cdf(x: float) -> float:
    """The standard normal distribution function at ``x`` (``norm.cdf``), as Cephes'
    ``ndtr`` (SciPy's) works it out: from ``erf`` near 0, from ``erfc`` beyond."""
    z = float(x) * _SQRT1_2
    if math.isnan(z):
        return math.nan
    if abs(z) < _SQRT1_2:
        return 0.5 + 0.5 * math.erf(z)
    y = 0.5 * math.erfc(abs(z))
    return 1.0 - y if z > 0 else y


def normal_cdfs(x: npt.ArrayLike) -> Floats:
    """:func:`normal_cdf` of each value of ``x`` (``ndtr``: an array of its shape)."""
    xs = np.asarray(x, dtype=np.float64)
    return np.array([normal_cdf(v) for v in xs.flat], dtype=np.float64).reshape(xs.shape)


def normal_quantiles(p: npt.ArrayLike) -> Floats:
    """The standard normal quantile of each value of ``p``, all in ``(0, 1)`` (``ndtri``:
    an array of its shape), by Wichura's AS 241 as :class:`statistics.NormalDist` has it."""
    ps = np.asarray(p, dtype=np.float64)
    inverse = NormalDist().inv_cdf
    return np.array([inverse(v) for v in ps.flat], dtype=np.float64).reshape(ps.shape)


def slope_stderr(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """The least-squares slope of ``y`` on ``x`` and its standard error (``linregress``'s
    ``slope`` and ``stderr``), ``x`` with two distinct values or more. ``y`` constant gives
    the slope 0 and a NaN error, and a NaN in either gives NaN for both, as SciPy does."""
    xs, ys = np.asarray(x), np.asarray(y)
    ssxm, ssxym, _, ssym = np.cov(xs, ys, bias=True).flat
    if ssxm == 0.0 or ssym == 0.0:
        r = np.float64(np.nan if ssxym == 0 else 0.0)
    else:
        r = ssxym / np.sqrt(ssxm * ssym)
        if r > 1.0:  # rounding must not put |r| past 1 (a NaN stays NaN)
            r = np.float64(1.0)
        elif r < -1.0:
            r = np.float64(-1.0)
    n = len(xs)
    if n == 2:
        return float(ssxym / ssxm), 0.0  # the line goes through both points
    return float(ssxym / ssxm), float(np.sqrt((1 - r**2) * ssym / ssxm / (n - 2)))


def welch_interval(
    a: Sequence[float], b: Sequence[float], *, level: float = 0.95
) -> tuple[float, float]:
    """The ``level`` confidence interval of ``mean(a) − mean(b)`` by Welch's t
    (``ttest_ind(a, b, equal_var=False).confidence_interval(level)``), two values or more in
    each sample (both constant: the difference of the means at both ends, as SciPy gives)."""
    xa, xb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    n1, n2 = len(xa), len(xb)
    # SciPy's variance: the mean squared deviation, times n / (n - 1).
    v1 = np.mean((xa - np.mean(xa)) ** 2) * (float(n1) / (float(n1) - 1))
    v2 = np.mean((xb - np.mean(xb)) ** 2) * (float(n2) / (float(n2) - 1))
    vn1, vn2 = v1 / n1, v2 / n2
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (vn1 + vn2) ** 2 / (vn1**2 / (n1 - 1) + vn2**2 / (n2 - 1))
    if np.isnan(df):
        df = np.float64(1.0)  # both samples constant: any df will do, the error is 0
    se = np.sqrt(vn1 + vn2)
    estimate = np.mean(xa) - np.mean(xb)
    tail = (1 - np.float64(level)) / 2
    # SciPy takes both ends' quantiles (not one negated): they may differ in the last bit.
    # Its own, always: equal samples make df whole, and the interval stays ttest_ind's to
    # the bit.
    low = _scipy_t_quantile(float(tail), float(df)) * se + estimate
    high = _scipy_t_quantile(float(1 - tail), float(df)) * se + estimate
    return float(low), float(high)
