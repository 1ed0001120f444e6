"""The bootstrap of alpha resamples count patterns, not units: the same distribution.

:func:`bootstrap_alpha` draws, per resample, how many of the ``n`` units drawn fall on each
distinct row of value counts (multinomial with the rows' shares). Drawing ``n`` units with
replacement and summing their counts gives the same distribution of alpha; here that
distribution is enumerated exactly (every one of the ``n**n`` equally likely draws, alpha by
the ``krippendorff`` package on the drawn units) and the fast path's frequencies are held
to it.
"""

from __future__ import annotations

import itertools
import warnings
from collections import Counter

import krippendorff
import numpy as np

from reviewer.agreement.alpha import Units
from reviewer.agreement.bootstrap import bootstrap_alpha

DOMAIN = (0, 1, 2, 3)
# Five units, two of them alike (one pattern, share 2/5): value counts per score 0..3.
COUNTS = np.array([[0, 1, 1, 1], [0, 0, 1, 2], [0, 0, 1, 2], [1, 1, 0, 1], [0, 0, 0, 3]])


def _exact_distribution() -> dict[float, float]:
    """``{alpha: probability}`` over every draw of five units from five; NaN as ``nan``."""
    n = len(COUNTS)
    found: Counter[float] = Counter()
    for draw in itertools.product(range(n), repeat=n):
        counts = COUNTS[list(draw)]
        # One value only: alpha undefined, which the package says with a warning and NaN
        # (or a refusal).
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            try:
                value = krippendorff.alpha(
                    value_counts=counts, value_domain=list(DOMAIN), level_of_measurement="ordinal"
                )
            except ValueError:
                value = float("nan")
        found[round(float(value), 9)] += 1
    return {k: v / n**n for k, v in found.items()}


def test_pattern_draws_give_the_exact_bootstrap_distribution() -> None:
    units = Units(keys=tuple(range(len(COUNTS))), domain=DOMAIN, counts=COUNTS)
    resamples = 40_000
    drawn = bootstrap_alpha(units, "ordinal", resamples=resamples, rng=np.random.default_rng(5))
    seen = Counter(round(float(v), 9) for v in drawn)
    exact = _exact_distribution()
    nan_exact = sum(p for k, p in exact.items() if np.isnan(k))
    nan_seen = sum(c for k, c in seen.items() if np.isnan(k)) / resamples
    assert abs(nan_seen - nan_exact) <= 4 * np.sqrt(nan_exact * (1 - nan_exact) / resamples)
    finite = {k: p for k, p in exact.items() if not np.isnan(k)}
    # Every value drawn is one the exact enumeration has; each frequency within 4 SE of it.
    assert {k for k in seen if not np.isnan(k)} <= set(finite)
    for value, p in finite.items():
        got = seen.get(value, 0) / resamples
        assert abs(got - p) <= 4 * np.sqrt(p * (1 - p) / resamples) + 1e-12, value


def test_units_alike_are_one_pattern_and_order_does_not_matter() -> None:
    # Shuffling the units changes nothing: the patterns are sorted before they are drawn.
    units = Units(keys=tuple(range(len(COUNTS))), domain=DOMAIN, counts=COUNTS)
    shuffled = Units(keys=tuple(range(len(COUNTS))), domain=DOMAIN, counts=COUNTS[::-1])
    a = bootstrap_alpha(units, "ordinal", resamples=200, rng=np.random.default_rng(1))
    b = bootstrap_alpha(shuffled, "ordinal", resamples=200, rng=np.random.default_rng(1))
    assert np.array_equal(a, b, equal_nan=True)
