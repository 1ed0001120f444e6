"""Drift is fitted within each study (issue: a rater at different levels in two studies,
drifting in neither, was flagged), and no day slope is estimated over a tiny span.

Simulated raters as in test_quality_stats: runs of quality 1 or 2, symmetric integer noise
(-1, 0, 0, 0, +1), clipped to 0-3; each study has its own queue (positions restart at 1)
and its own days.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from reviewer.gold.accuracy import gold_drift_rows
from reviewer.quality import drift, report, stats
from reviewer.quality.source import Score

RATERS = ("ann", "bob", "cat", "dan")
T0 = datetime(2026, 1, 5, 8, tzinfo=UTC)


def simulate(rng, *, runs: int = 24, level=None, slope=None, hours: float = 6.0) -> list[Score]:
    """Two studies, ``runs`` runs each, every rater on every run. ``level``:
    ``{(rater, study): offset}``; ``slope``: ``{rater: per position}`` within each study.
    Study B starts 30 days after A; each run is rated ``hours`` after the one before."""
    level, slope = level or {}, slope or {}
    out = []
    for k, study in enumerate(("A", "B")):
        for i in range(runs):
            run = k * 1000 + i
            q = rng.choice((1, 2))
            at = T0 + timedelta(days=30 * k, hours=hours * i)
            for rater in RATERS:
                noise = rng.choice([-1, 0, 0, 0, 1])
                value = q + level.get((rater, study), 0) + slope.get(rater, 0) * i + noise
                score = int(np.clip(round(value), 0, 3))
                out.append(Score(run, f"r{run}", rater, "safety", score, i + 1, at, study))
    return out


def test_within_slope_matches_a_regression_with_study_intercepts() -> None:
    rng = np.random.default_rng(1)
    x = np.concatenate([np.arange(10.0), np.arange(7.0)])
    g = ["a"] * 10 + ["b"] * 7
    y = 0.3 * x + np.where(np.array(g) == "a", 0.0, 5.0) + rng.normal(0, 1, 17)
    e = stats.within_slope(x.tolist(), y.tolist(), g)
    # Independently: least squares on [x, 1{a}, 1{b}], its covariance s^2 (X'X)^-1.
    design = np.column_stack([x, np.array(g) == "a", np.array(g) == "b"]).astype(float)
    coef, *_ = np.linalg.lstsq(design, y, rcond=None)
    residual = y - design @ coef
    df = 17 - 3
    cov = residual @ residual / df * np.linalg.inv(design.T @ design)
    assert e.value == pytest.approx(coef[0])
    assert e.high - e.value == pytest.approx(2.1447866879169273 * math.sqrt(cov[0, 0]))
    # One group: the ordinary slope.
    one = stats.within_slope(x[:10].tolist(), y[:10].tolist(), ["a"] * 10)
    plain = stats.slope(x[:10].tolist(), y[:10].tolist())
    assert (one.value, one.low, one.high) == pytest.approx((plain.value, plain.low, plain.high))


def test_levels_that_differ_between_studies_are_not_drift() -> None:
    """The trial's regression: dan is 1 point higher in B than in A, steady in both."""
    rng = np.random.default_rng(7)
    flagged = 0
    trials = 60
    for _ in range(trials):
        scores = simulate(rng, level={("dan", "B"): 1})
        rows = {r["rater"]: r for r in report.drift_rows(scores)}
        flagged += rows["dan"]["flagged"]
    # Both slopes are tested, so the nominal rate is about 10%; pooled across studies the
    # old fit flagged dan nearly always (the level step looked like a slope).
    assert flagged / trials <= 0.2, flagged


def test_drift_planted_within_each_study_is_recovered() -> None:
    rng = np.random.default_rng(11)
    found = 0
    trials = 30
    for _ in range(trials):
        scores = simulate(rng, slope={"dan": 1.5 / 24}, level={("dan", "B"): -1})
        rows = {r["rater"]: r for r in report.drift_rows(scores)}
        dan = rows["dan"]
        found += dan["flagged"] and dan["per_position"] > 0
    assert found >= 0.8 * trials, found


def test_gold_drift_is_fitted_within_each_study() -> None:
    rng = np.random.default_rng(5)
    scores = simulate(rng)
    references = {s.run_pk: {"safety": 1} for s in scores}
    # dan's error: one level in A, another in B, no drift in either; ann's grows in each.
    tilted = []
    for s in scores:
        i = s.run_pk % 1000
        if s.rater == "dan":
            s = Score(s.run_pk, s.run_id, s.rater, s.metric, 1 if s.study == "A" else 3,
                      s.position, s.submitted_at, s.study)  # fmt: skip
        elif s.rater == "ann":
            s = Score(s.run_pk, s.run_id, s.rater, s.metric, 1 + (i >= 12) + (i >= 18),
                      s.position, s.submitted_at, s.study)  # fmt: skip
        tilted.append(s)
    rows = {r["rater"]: r for r in gold_drift_rows(tilted, references)}
    assert rows["dan"]["gold_per_position"] == pytest.approx(0.0)
    assert not rows["dan"]["gold_flagged"]
    assert rows["ann"]["gold_flagged"] and rows["ann"]["gold_per_position"] > 0


def test_no_day_slope_below_a_day_of_ratings() -> None:
    rng = np.random.default_rng(3)
    # Every run rated within minutes (a minute apart: 24 runs in 23 minutes per study).
    rows = report.drift_rows(simulate(rng, hours=1 / 60, slope={"dan": 1.5 / 24}))
    for row in rows:
        assert math.isnan(row["per_day"]) and math.isnan(row["day_low"])
    dan = next(r for r in rows if r["rater"] == "dan")
    assert dan["flagged"] == (dan["position_low"] > 0 or dan["position_high"] < 0)
    # A day's span or more: estimated (6 hours apart: 24 runs span nearly 6 days).
    rows = report.drift_rows(simulate(rng, hours=6))
    assert all(math.isfinite(r["per_day"]) for r in rows)


def test_the_day_span_is_counted_within_each_study() -> None:
    """Two studies a month apart, each rated within an hour: no day slope (30 days between
    the studies is a level difference, not a span to fit a slope over)."""
    points = [drift.Point(study, i, T0 + timedelta(days=30 * k, minutes=i), float(i % 2))
              for k, study in enumerate(("A", "B")) for i in range(10)]  # fmt: skip
    e = drift.per_day(points)
    assert math.isnan(e.value) and e.n == 0 and not e.excludes_zero
    just = [drift.Point("A", None, T0 + drift.MIN_DAY_SPAN * i / 4, float(i)) for i in range(5)]
    assert math.isfinite(drift.per_day(just).value)
    short = [drift.Point("A", None, T0 + drift.MIN_DAY_SPAN * i / 5, float(i)) for i in range(5)]
    assert math.isnan(drift.per_day(short).value)
