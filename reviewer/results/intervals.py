"""Intervals the charts and tables draw: each one inside its bounds, each with its method.

- Rates (pass, dangerous, Not applicable, Not observed) get the Wilson score interval
  (Wilson 1927), which stays inside 0–1 and keeps close to its nominal coverage at small n,
  where the normal ("Wald") interval does neither.
- Means of bounded quantities (coverage, order and end state in 0–1) get a BCa bootstrap
  interval (:func:`reviewer.agreement.bootstrap.bca_interval`): its ends are means of
  resamples, so they never leave the range of the values, let alone 0–1. A t interval
  read ``0.80 ± 2.54`` for a 0–1 mean of three runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from reviewer import intervals
from reviewer.agreement.bootstrap import bca_interval

WILSON = "Wilson score"
BOOTSTRAP = "BCa bootstrap"


@dataclass(frozen=True)
class Estimate:
    """A figure, its 95% interval (``None`` when it cannot be formed), method and n."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    method: str

    def text(self, *, percent: bool = False) -> str:
        """``0.80 (0.55–0.93)``, ``40% (18–65%)`` or ``n/a``; the caller says the method."""
        if self.value is None:
            return "n/a"
        if percent:
            body = f"{self.value:.0%}"
            return body if self.low is None else f"{body} ({self.low:.0%}–{self.high:.0%})"
        body = f"{self.value:.2f}"
        return body if self.low is None else f"{body} ({self.low:.2f}–{self.high:.2f})"

    def errors(self) -> tuple[float, float]:
        """The distances below and above the value, for an error bar (0 where none)."""
        if self.value is None or self.low is None or self.high is None:
            return 0.0, 0.0
        return self.value - self.low, self.high - self.value


def wilson(hits: int, n: int) -> Estimate:
    """``hits / n`` with its 95% Wilson score interval; ``n/a`` when ``n`` is 0."""
    if n <= 0:
        return Estimate(None, None, None, 0, WILSON)
    low, high = intervals.wilson(hits, n)
    return Estimate(hits / n, low, high, n, WILSON)


def bounded_mean(values: Sequence[float], *, resamples: int = 2000, seed: int = 0) -> Estimate:
    """The mean with its 95% BCa bootstrap interval (resampling the values); no interval
    below two values or when they are all equal (nothing to resample)."""
    (found,) = bounded_means([values], resamples=resamples, seed=seed)
    return found


def bounded_means(
    columns: Sequence[Sequence[float]], *, resamples: int = 2000, seed: int = 0
) -> list[Estimate]:
    """:func:`bounded_mean` of each of ``columns``, the same numbers.

    Its resamples are positions drawn by a generator seeded with ``seed``, which depend
    on nothing but the seed and the count: columns of as many values (a model's coverage,
    order and end state, of the same runs) resample the same positions, drawn here once
    for them all (``resamples × n`` integers a column: most of its time at thousands of
    runs), not once each.
    """
    drawn: dict[int, np.ndarray] = {}
    out = []
    for values in columns:
        x = np.asarray(values, dtype=np.float64)
        n = len(x)
        if n == 0:
            out.append(Estimate(None, None, None, 0, BOOTSTRAP))
            continue
        mean = float(x.mean())
        if n < 2 or np.all(x == x[0]):
            out.append(Estimate(mean, None, None, n, BOOTSTRAP))
            continue
        if n not in drawn:
            drawn[n] = np.random.default_rng(seed).integers(0, n, (resamples, n))
        replicates = x[drawn[n]].mean(axis=1)
        jackknife = (x.sum() - x) / (n - 1)
        found = bca_interval(mean, replicates, jackknife)
        if found is None:
            out.append(Estimate(mean, None, None, n, BOOTSTRAP))
        else:
            out.append(Estimate(mean, found[0], found[1], n, BOOTSTRAP))
    return out
