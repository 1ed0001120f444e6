"""Krippendorff's alpha pinned by the 2011 worked example, and the fast bootstrap path."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewer.agreement.alpha import SCORE_DOMAIN, Units
from reviewer.agreement.bootstrap import bootstrap_alpha, coincidence_alpha, percentile_interval
from reviewer.agreement.records import RatingRecord
from reviewer.agreement.report import agreement_report, score_units

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the example with
# missing data: observers A–D (rows) × units 1–12 (columns), values 1–5, '.' missing.
KRIPPENDORFF_2011 = """
A 1 2 3 3 2 1 4 1 2 . . .
B 1 2 3 3 2 2 4 1 2 5 . 3
C . 3 3 3 2 3 4 2 2 5 1 .
D 1 2 3 3 2 4 4 1 2 5 1 .
"""
PUBLISHED = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def _example_records() -> list[RatingRecord]:
    # Through the same records as ratings: a missing entry is a Not observed item.
    out = []
    for line in KRIPPENDORFF_2011.strip().splitlines():
        rater, *values = line.split()
        for unit, v in enumerate(values, start=1):
            missing = v == "."
            out.append(
                RatingRecord(
                    run_key=f"run-{unit:02d}",
                    rater=rater,
                    metric_id="example",
                    outcome="not_observed" if missing else "applicable",
                    score=None if missing else int(v),
                )
            )
    return out


def _matrix() -> np.ndarray:
    rows = [line.split()[1:] for line in KRIPPENDORFF_2011.strip().splitlines()]
    return np.array([[np.nan if v == "." else float(v) for v in r] for r in rows])


def test_the_matrix_gives_the_published_values_with_the_package_itself() -> None:
    for level, published in PUBLISHED.items():
        value = krippendorff.alpha(
            reliability_data=_matrix(), level_of_measurement=level, value_domain=[1, 2, 3, 4, 5]
        )
        assert round(value, 3) == published


def test_the_2011_example_through_the_ratings_path() -> None:
    report = agreement_report(_example_records(), domain=range(1, 6), resamples=200)
    (metric,) = report.metrics
    assert round(metric.alpha_ordinal, 3) == PUBLISHED["ordinal"]
    assert round(metric.alpha_interval, 3) == PUBLISHED["interval"]
    # 41 values; unit 12 holds one (B's 3), so 40 are pairable in 11 units, as in the paper.
    assert (metric.units, metric.pairable_values) == (11, 40)
    units = score_units(_example_records(), range(1, 6))
    assert round(units.alpha("nominal").value, 3) == PUBLISHED["nominal"]
    assert round(units.alpha("ratio").value, 3) == PUBLISHED["ratio"]


@pytest.mark.parametrize("level", list(PUBLISHED))
def test_the_coincidence_path_equals_the_package_on_the_example(level: str) -> None:
    units = score_units(_example_records(), range(1, 6))
    assert coincidence_alpha(units, level) == pytest.approx(units.alpha(level).value, abs=1e-12)


_cells = st.one_of(st.none(), st.integers(0, 3))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(_cells, min_size=3, max_size=3), min_size=2, max_size=25))
def test_the_coincidence_path_equals_the_package_on_any_data(rows: list[list[int | None]]) -> None:
    units = Units.from_values(((u, v) for u, row in enumerate(rows) for v in row), (0, 1, 2, 3))
    for level in PUBLISHED:
        expected = units.alpha(level).value
        got = coincidence_alpha(units, level)
        if expected is None:
            assert np.isnan(got) or units.undefined_because() is not None
        else:
            assert got == pytest.approx(expected, abs=1e-9)


def test_undefined_alpha_is_none_with_a_reason_never_zero_or_one() -> None:
    one_value = Units.from_values([("r1", 2), ("r1", None), ("r2", 1)], (0, 1, 2, 3))
    assert one_value.alpha("ordinal").value is None
    assert "fewer than two pairable values" in one_value.alpha("ordinal").note
    same = Units.from_values([("r1", 2), ("r1", 2), ("r2", 2), ("r2", 2)], (0, 1, 2, 3))
    assert same.alpha("ordinal").value is None
    assert "no variation" in same.alpha("ordinal").note


def test_the_bootstrap_is_seeded_and_brackets_the_estimate() -> None:
    units = score_units(_example_records(), range(1, 6))
    a = bootstrap_alpha(units, "ordinal", resamples=500, rng=np.random.default_rng(0))
    b = bootstrap_alpha(units, "ordinal", resamples=500, rng=np.random.default_rng(0))
    c = bootstrap_alpha(units, "ordinal", resamples=500, rng=np.random.default_rng(1))
    assert np.array_equal(a, b, equal_nan=True) and not np.array_equal(a, c, equal_nan=True)
    low, high = percentile_interval(a)
    assert low < PUBLISHED["ordinal"] < high <= 1.0


def test_percentile_interval_skips_undefined_resamples() -> None:
    assert percentile_interval(np.array([np.nan, np.nan])) is None
    assert percentile_interval(np.array([np.nan, 0.5, 0.5])) == (0.5, 0.5)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["r1", "r2", "r10", 3, "x"]), st.sampled_from([0, 1, 2, 3, None])
        ),
        max_size=60,
    )
)
def test_units_count_every_value_of_every_unit(pairs) -> None:
    # The counts are made with one bincount; counted one by one they must be the same,
    # units sorted by key as text.
    units = Units.from_values(pairs, SCORE_DOMAIN)
    keys = sorted({key for key, _ in pairs}, key=str)
    assert units.keys == tuple(keys)
    expected = [
        [sum(1 for k, v in pairs if k == key and v == value) for value in SCORE_DOMAIN]
        for key in keys
    ]
    assert units.counts.tolist() == expected
    assert units.counts.shape == (len(keys), len(SCORE_DOMAIN))
