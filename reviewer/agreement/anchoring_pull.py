"""Anchoring's size: the share of the distance to the scorer that revisions close.

For each blind-arm item scored both before and after the reveal, ``d = 3·c − blind`` is the
signed distance from the blind score to the scorer's counterpart on the 0–3 scale and
``r = final − blind`` the revision. The **pull** is the least-squares slope of ``r`` on
``d`` through the origin, ``β = Σ r·d / Σ d²``: 0 when revisions ignore the scorer, 1 when
raters adopt its value, 0.5 when they move halfway toward it. Items already at the scorer
(``d = 0``) add nothing to either sum.

Items of the same rater, and of the same run, are not independent: the 95% interval uses
the two-way cluster-robust variance of Cameron, Gelbach & Miller (2011), clustering by
rater and by run: ``V = V_rater + V_run − V_rater×run``, each
``V_G = c_G·Σ_g (Σ_{i∈g} d_i·e_i)² / (Σ d²)²`` with the residuals ``e = r − β·d`` and the
small-sample factor ``c_G = G/(G − 1)``, and Student's t with ``min(G) − 1`` degrees of
freedom. (A two-way "pigeonhole" bootstrap was tried first: it covered a zero pull in
99.6% of simulated studies, far more than 95%, so it was not kept.)

References: Cameron, A. C., Gelbach, J. B. & Miller, D. L. (2011). Robust inference with
multiway clustering. Journal of Business & Economic Statistics 29(2), 238–249.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from reviewer.agreement.records import RatingRecord
from reviewer.stats_kernels import t_quantile

PULL_METHOD = (
    "slope of revision on distance to the scorer, through 0; t interval, variance clustered "
    "by rater and run (Cameron, Gelbach & Miller 2011)"
)
#: Fewer rater or run clusters than this and the clustered variance has too little to go on.
MIN_CLUSTERS = 3


@dataclass(frozen=True)
class Pull:
    """The pull, its 95% interval (``None`` with ``note`` when it cannot be formed), and n."""

    value: float | None
    ci_low: float | None
    ci_high: float | None
    items: int
    raters: int
    runs: int
    note: str | None


def pull_items(
    records: Sequence[RatingRecord], counterpart: Mapping[tuple[str, str], float]
) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """``(d, r, raters, runs)`` of the blind-arm items with both scores and a counterpart."""
    d, r, raters, runs = [], [], [], []
    for rec in records:
        c = counterpart.get((rec.run_key, rec.metric_id))
        if rec.reveal_first is True or rec.blind_score is None or rec.score is None or c is None:
            continue
        d.append(3.0 * c - rec.blind_score)
        r.append(float(rec.score - rec.blind_score))
        raters.append(rec.rater)
        runs.append(rec.run_key)
    return np.asarray(d), np.asarray(r), raters, runs


def slope_through_origin(d: np.ndarray, r: np.ndarray) -> float | None:
    """``Σ r·d / Σ d²``, or ``None`` when every distance is 0."""
    denominator = float(np.dot(d, d))
    return float(np.dot(r, d)) / denominator if denominator > 0 else None


def _codes(labels: list[str]) -> tuple[np.ndarray, int]:
    names = sorted(set(labels))
    index = {n: i for i, n in enumerate(names)}
    return np.array([index[x] for x in labels], dtype=np.int64), len(names)


def two_way_interval(
    d: np.ndarray, r: np.ndarray, rater_codes: np.ndarray, run_codes: np.ndarray
) -> tuple[float, float] | None:
    """The 95% interval of the slope, clustered by rater and by run (see the module)."""
    sxx = float(d @ d)
    if sxx <= 0:
        return None
    beta = float(r @ d) / sxx
    score = d * (r - beta * d)

    def part(codes: np.ndarray, small_sample: bool) -> float:
        groups = int(codes.max()) + 1
        sums = np.bincount(codes, weights=score, minlength=groups)
        factor = groups / (groups - 1) if small_sample and groups > 1 else 1.0
        return factor * float(np.sum(sums**2)) / sxx**2

    n_runs = int(run_codes.max()) + 1
    cells = rater_codes * n_runs + run_codes
    variance = part(rater_codes, True) + part(run_codes, True) - part(cells, False)
    if variance <= 0:  # the difference can fall below 0 in small samples: take the larger
        variance = max(part(rater_codes, True), part(run_codes, True))
    groups = min(int(rater_codes.max()) + 1, n_runs)
    half = t_quantile(0.975, groups - 1) * variance**0.5
    return beta - half, beta + half


def pull(
    records: Sequence[RatingRecord],
    counterpart: Mapping[tuple[str, str], float],
    *,
    key: str = "",
) -> Pull:
    """The pull of ``records`` (unselected: blind and final values) toward the scorer."""
    d, r, raters, runs = pull_items(records, counterpart)
    rater_codes, n_raters = _codes(raters)
    run_codes, n_runs = _codes(runs)
    value = slope_through_origin(d, r)
    low = high = None
    note = None
    if value is None:
        note = "no blind score differs from the scorer's: the pull is undefined"
    elif n_raters < MIN_CLUSTERS or n_runs < MIN_CLUSTERS:
        note = f"no interval: needs {MIN_CLUSTERS} raters and {MIN_CLUSTERS} runs in the blind arm"
    else:
        found = two_way_interval(d, r, rater_codes, run_codes)
        if found is not None:
            low, high = found
    return Pull(value, low, high, len(d), n_raters, n_runs, note)
