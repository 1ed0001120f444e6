"""Alpha's 95% interval covers the true alpha of the generating process 95% of the time.

The process: each run has a true level drawn from ``LEVELS`` with ``WEIGHTS``; each rater
scores it ``clip(round(level + N(0, σ)), 0, 3)`` independently. Its population ordinal alpha
is computed analytically here (not with our code): with ``q_l(c)`` the probability that a
rater gives ``c`` to a run of level ``l`` (normal CDFs), two raters of the same run give
``(c, k)`` with probability ``P_ck = Σ_l w_l·q_l(c)·q_l(k)``, the marginal is
``p_c = Σ_k P_ck``, and as the number of runs grows alpha tends to
``1 − Σ P_ck·δ_ck / Σ p_c·p_k·δ_ck`` with Krippendorff's ordinal
``δ_ck = (Σ_{g=c..k} p_g − (p_c + p_k)/2)²``.
"""

from __future__ import annotations

import math

import krippendorff
import numpy as np
import pytest

from reviewer.agreement.alpha import Units
from reviewer.agreement.bootstrap import (
    alphas_from_coincidences,
    bca_interval,
    bootstrap_alpha,
    coincidence_alpha,
    jackknife_alpha,
    unit_coincidences,
)

# Most runs deserve a 3 (as on safety): alpha's sampling distribution is skewed there, and
# the percentile interval it replaces covered 0.915 of 1,500 such studies (BCa: 0.937).
LEVELS = np.array([0.3, 1.2, 2.0, 2.8])
WEIGHTS = np.array([0.05, 0.1, 0.15, 0.7])
SIGMA = 0.7
DOMAIN = (0, 1, 2, 3)
DOMAIN_F = np.asarray(DOMAIN, dtype=float)


def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def true_alpha() -> float:
    """The process's ordinal alpha, analytically (see the module)."""
    sigma = SIGMA
    # q[l, c]: round(level + e) = c, clipped to 0..3: the cut points are c ± 0.5.
    cuts = [-math.inf, 0.5, 1.5, 2.5, math.inf]
    q = np.array(
        [[_phi((cuts[c + 1] - lvl) / sigma) - _phi((cuts[c] - lvl) / sigma) for c in range(4)]
         for lvl in LEVELS]
    )  # fmt: skip
    pairs = np.einsum("l,lc,lk->ck", WEIGHTS, q, q)
    p = pairs.sum(axis=1)
    delta = np.zeros((4, 4))
    for c in range(4):
        for k in range(4):
            lo, hi = min(c, k), max(c, k)
            delta[c, k] = (p[lo : hi + 1].sum() - (p[c] + p[k]) / 2) ** 2
    return float(1 - (pairs * delta).sum() / (np.outer(p, p) * delta).sum())


def simulated(runs: int, raters: int, rng: np.random.Generator) -> Units:
    """One study of the process as value counts per run."""
    level = rng.choice(LEVELS, size=runs, p=WEIGHTS)
    scores = np.clip(np.rint(level[:, None] + rng.normal(0, SIGMA, (runs, raters))), 0, 3)
    counts = np.stack([(scores == v).sum(axis=1) for v in DOMAIN], axis=1)
    return Units(keys=tuple(range(runs)), domain=DOMAIN, counts=counts)


def test_the_analytic_alpha_matches_a_huge_sample_by_the_krippendorff_package() -> None:
    # An independent check of the truth itself: 200,000 runs, the reference package.
    units = simulated(200_000, 4, np.random.default_rng(7))
    big = krippendorff.alpha(
        value_counts=units.counts, value_domain=list(DOMAIN), level_of_measurement="ordinal"
    )
    assert big == pytest.approx(true_alpha(), abs=0.005)


def bca_coverage(runs: int, raters: int, reps: int, resamples: int, seed: int) -> float:
    """The share of ``reps`` simulated studies whose 95% BCa interval covers the truth.

    The bootstrap of every study at once: per-run coincidence matrices, weights drawn for
    all studies and resamples, one product (what :func:`bootstrap_alpha` does per study).
    """
    rng = np.random.default_rng(seed)
    truth = true_alpha()
    hits = 0
    for start in range(0, reps, 100):
        studies = [simulated(runs, raters, rng) for _ in range(min(100, reps - start))]
        per_unit = np.stack([unit_coincidences(u) for u in studies])  # (R, U, 16)
        # Each resample draws ``runs`` runs with replacement: counts per run by one bincount.
        rows = len(studies) * resamples
        drawn = rng.integers(0, runs, (rows, runs)) + runs * np.arange(rows)[:, None]
        weights = np.bincount(drawn.ravel(), minlength=rows * runs).astype(float)
        weights = weights.reshape(len(studies), resamples, runs)
        boot = alphas_from_coincidences(
            (weights @ per_unit).reshape(-1, 4, 4), DOMAIN_F, "ordinal"
        ).reshape(len(studies), resamples)
        for units, replicates in zip(studies, boot, strict=True):
            found = bca_interval(
                coincidence_alpha(units, "ordinal"), replicates, jackknife_alpha(units, "ordinal")
            )
            assert found is not None
            hits += found[0] <= truth <= found[1]
    return hits / reps


def test_bca_intervals_cover_the_true_alpha_95_percent_at_40_runs_by_4_raters() -> None:
    assert 0.93 <= bca_coverage(40, 4, reps=1000, resamples=500, seed=20261202) <= 0.97


def test_the_shipped_bootstrap_covers_the_true_alpha_95_percent_at_30_runs_by_3_raters() -> None:
    # bootstrap_alpha itself (it draws count patterns, not units: the same distribution),
    # with the BCa interval the report prints.
    rng = np.random.default_rng(20261203)
    truth = true_alpha()
    reps, hits = 600, 0
    for _ in range(reps):
        units = simulated(30, 3, rng)
        replicates = bootstrap_alpha(units, "ordinal", resamples=500, rng=rng)
        found = bca_interval(
            coincidence_alpha(units, "ordinal"), replicates, jackknife_alpha(units, "ordinal")
        )
        hits += found is not None and found[0] <= truth <= found[1]
    # 600 studies: the SE of a 95% share is 0.009; a biased draw would miss by far more.
    assert 0.925 <= hits / reps <= 0.975
