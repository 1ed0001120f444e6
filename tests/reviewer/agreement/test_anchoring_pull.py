"""Anchoring's size on simulated blind studies with a planted pull.

Raters score blind, see the scorer, and then move all the way to it with probability
``pull`` (else keep their score): the expected revision is ``pull·d`` for a distance ``d``,
so the slope through 0 the module reports must recover ``pull``. A rater effect and a run
effect on revisions make the items of one rater, and of one run, alike: what the clustered
interval must respect.
"""

from __future__ import annotations

import numpy as np
import pytest

from reviewer.agreement.anchoring import anchoring_report
from reviewer.agreement.anchoring_pull import (
    pull,
    pull_items,
    slope_through_origin,
    two_way_interval,
)
from reviewer.agreement.records import RatingRecord

METRICS = ("procedure_application", "safety")


def study(
    rng: np.random.Generator, strength: float, *, raters: int = 8, runs: int = 30
) -> tuple[list[RatingRecord], dict[tuple[str, str], float]]:
    """Blind-arm records of ``raters`` × ``runs`` × two metrics, and the counterparts."""
    counterpart = {
        (f"r{u}", m): float(rng.integers(0, 4)) / 3 for u in range(runs) for m in METRICS
    }
    rater_bias = rng.normal(0, 0.6, raters)  # some raters revise up, some down
    run_bias = rng.normal(0, 0.6, runs)
    records = []
    for j in range(raters):
        for u in range(runs):
            for m in METRICS:
                target = round(3 * counterpart[(f"r{u}", m)])
                blind = int(np.clip(target + rng.integers(-2, 3), 0, 3))
                final = target if rng.random() < strength else blind
                # Noise revisions, independent of the scorer, alike within rater and run; only
                # from 1 or 2, so that the scale's ends never make them lean toward the middle.
                if final == blind and blind in (1, 2) and rng.random() < 0.3:
                    final += int(np.sign(rater_bias[j] + run_bias[u] + rng.normal(0, 0.5)))
                records.append(
                    RatingRecord(
                        run_key=f"r{u}",
                        rater=f"p{j}",
                        metric_id=m,
                        outcome="applicable",
                        score=final,
                        blind_outcome="applicable",
                        blind_score=blind,
                        reveal_first=False,
                    )
                )
    return records, counterpart


def test_the_slope_equals_least_squares_through_the_origin_by_numpy() -> None:
    records, counterpart = study(np.random.default_rng(3), 0.5)
    d, r, _raters, _runs = pull_items(records, counterpart)
    # An independent computation: numpy's least squares with one regressor and no intercept.
    expected = np.linalg.lstsq(d[:, None], r, rcond=None)[0][0]
    assert slope_through_origin(d, r) == pytest.approx(expected)


def test_a_planted_pull_of_one_half_is_recovered_within_its_interval() -> None:
    records, counterpart = study(np.random.default_rng(11), 0.5)
    report = anchoring_report(records, counterpart, list(METRICS))
    assert report is not None
    for row in (report.overall, *report.by_metric):
        assert row.pull_ci_low < 0.5 < row.pull_ci_high, row
        assert row.pull == pytest.approx(0.5, abs=0.12)
    # The mean revision cannot say it: it averages only the revised items.
    assert report.overall.mean_revision > 1


def test_a_zero_pull_interval_covers_zero_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(2026)
    reps, hits = 300, 0
    codes = lambda xs: np.unique(xs, return_inverse=True)[1]  # noqa: E731
    for _ in range(reps):
        records, counterpart = study(rng, 0.0, raters=6, runs=20)
        d, r, raters, runs = pull_items(records, counterpart)
        low, high = two_way_interval(d, r, codes(raters), codes(runs))
        hits += low <= 0 <= high
    assert 0.92 <= hits / reps <= 0.98


def test_too_few_clusters_give_no_interval() -> None:
    records, counterpart = study(np.random.default_rng(5), 0.5, raters=2, runs=10)
    found = pull(records, counterpart)
    assert found.value is not None and found.ci_low is None and "needs 3 raters" in found.note
