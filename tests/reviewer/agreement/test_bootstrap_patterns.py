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
import pytest

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


def test_distinct_rows_are_numpys_unique_rows() -> None:
    """The rows read as integers give what ``np.unique(axis=0)`` gives: the same rows in the
    same order, each row's place and the counts; also empty, one row, and rows too large."""
    from reviewer.agreement.bootstrap import _distinct_rows

    rng = np.random.default_rng(5)
    cases = [rng.integers(0, high, size=(n, width)) for n, width, high in
             ((500, 4, 4), (200, 3, 9), (50, 4, 2), (1, 4, 3), (30, 1, 5))]  # fmt: skip
    cases += [np.zeros((0, 4), np.int64), np.array([[2**40, 1, 0], [0, 2**40, 1]])]
    for counts in cases:
        rows, inverse, sizes = _distinct_rows(counts)
        want_rows, want_inverse, want_sizes = np.unique(
            counts, axis=0, return_inverse=True, return_counts=True
        )
        assert np.array_equal(rows, want_rows)
        assert np.array_equal(inverse, want_inverse.reshape(-1))
        assert np.array_equal(sizes, want_sizes)
        assert np.array_equal(rows[inverse], counts)


def test_the_jackknife_is_alpha_with_each_unit_left_out() -> None:
    """Alpha computed once per distinct unit and handed to each unit like it equals alpha
    of the units with that one unit left out, computed by the package, unit by unit."""
    from reviewer.agreement.bootstrap import jackknife_alpha

    rng = np.random.default_rng(11)
    data = rng.integers(0, 4, size=(3, 40)).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    data[:, 0] = np.nan  # a unit with no value: not pairable, not in the jackknife
    units = Units.from_values(
        [(u, None if np.isnan(v) else int(v)) for row in data for u, v in enumerate(row)],
        (0, 1, 2, 3),
    )
    pairable = [u for u in range(data.shape[1]) if np.sum(~np.isnan(data[:, u])) >= 2]
    by_key = sorted(pairable, key=str)  # units sort by key, as text
    got = jackknife_alpha(units, "ordinal")
    assert len(got) == len(by_key)
    for value, left_out in zip(got, by_key, strict=True):
        kept = [u for u in pairable if u != left_out]
        want = krippendorff.alpha(reliability_data=data[:, kept], value_domain=[0, 1, 2, 3],
                                  level_of_measurement="ordinal")  # fmt: skip
        assert value == pytest.approx(want, rel=1e-9, abs=1e-12)
    assert len(jackknife_alpha(Units.from_values([], (0, 1, 2, 3)), "ordinal")) == 0
