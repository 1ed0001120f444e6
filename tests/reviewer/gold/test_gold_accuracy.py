"""Accuracy and drift against gold, on simulated raters with a planted bias or drift,
checked against independent computations (scipy, numpy written out).

Each simulated rater scores gold runs whose reference is 1 (so a bias of +1 never reaches
the clip at 3 and is exactly +1), adding their bias, their drift along the queue and a
symmetric noise (-1, 0, 0, 0, +1).
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from scipy.stats import binomtest, linregress, t

from reviewer.gold.accuracy import gold_drift_rows, reference_scores
from reviewer.gold.model import GOLD_RATER
from reviewer.quality import report
from reviewer.quality.source import Score
from reviewer.tabular import write_rows

RATERS = ("ann", "bob", "cat", "dan")
METRICS = ("safety", "verification")


def simulate(rng, *, runs: int = 40, bias=None, drift=None, metrics=METRICS):
    """``(scores, references)``: each rater's scores of every gold run, and the references."""
    bias, drift = bias or {}, drift or {}
    references = {run: dict.fromkeys(metrics, 1) for run in range(runs)}
    scores = []
    for run in range(runs):
        for rater in RATERS:
            for metric in metrics:
                noise = rng.choice([-1, 0, 0, 0, 1])
                value = 1 + bias.get(rater, 0) + drift.get(rater, 0) * run + noise
                scores.append(Score(run, f"r{run}", rater, metric,
                                    int(np.clip(round(value), 0, 3)), run + 1, None))  # fmt: skip
    return scores, references


def _accuracy(scores, references):
    rows = report.accuracy_rows([*scores, *reference_scores(references, {})], GOLD_RATER)
    return {(r["rater"], r["metric"]): r for r in rows}


def test_accuracy_against_gold_matches_an_independent_computation() -> None:
    scores, refs = simulate(np.random.default_rng(3), runs=25, bias={"dan": 1})
    rows = _accuracy(scores, refs)
    for rater in RATERS:
        mine = np.array([s.score for s in scores if s.rater == rater and s.metric == "safety"])
        diff = mine - 1
        row = rows[(rater, "safety")]
        exact = int((diff == 0).sum())
        ci = binomtest(exact, len(diff)).proportion_ci(method="wilson")
        assert row["n"] == 25 and row["exact"] == pytest.approx(exact / 25)
        assert (row["exact_low"], row["exact_high"]) == pytest.approx((ci.low, ci.high))
        assert row["within_one"] == pytest.approx(float((abs(diff) <= 1).mean()))
        half = t.ppf(0.975, 24) * diff.std(ddof=1) / np.sqrt(25)
        assert row["signed"] == pytest.approx(diff.mean())
        assert (row["signed_low"], row["signed_high"]) == pytest.approx(
            (diff.mean() - half, diff.mean() + half)
        )


@pytest.mark.slow
def test_a_planted_bias_is_recovered_and_unbiased_raters_are_not_flagged() -> None:
    rng = np.random.default_rng(17)
    trials, covered, false_flags, looks = 50, 0, 0, 0
    for _ in range(trials):
        rows = _accuracy(*simulate(rng, bias={"dan": 1}, metrics=("safety",)))
        dan = rows[("dan", "safety")]
        covered += dan["signed_low"] <= 1 <= dan["signed_high"]
        for rater in ("ann", "bob", "cat"):
            r = rows[(rater, "safety")]
            looks += 1
            false_flags += not (r["signed_low"] <= 0 <= r["signed_high"])
    # 95% intervals: coverage near 0.95 (50 trials: sd 0.03, so 0.86 is 3 sd below), and
    # false flags on the unbiased raters at about the nominal 5% (150 looks: sd 0.018).
    assert covered / trials >= 0.86
    assert false_flags / looks <= 0.11


def test_gold_drift_recovers_a_planted_slope_and_spares_steady_raters() -> None:
    rng = np.random.default_rng(23)
    trials, caught, false_flags = 60, 0, 0
    for _ in range(trials):
        # cat drifts from 1 towards 3 over 60 runs: error rises by 1/30 a position.
        scores, refs = simulate(rng, runs=60, drift={"cat": 1 / 30})
        rows = {r["rater"]: r for r in gold_drift_rows(scores, refs)}
        caught += rows["cat"]["gold_flagged"] and rows["cat"]["gold_per_position"] > 0
        false_flags += sum(rows[r]["gold_flagged"] for r in ("ann", "bob", "dan"))
    assert caught / trials >= 0.9
    assert false_flags / (3 * trials) <= 0.12  # two slopes per rater: about 2 x 5%


def test_gold_drift_slope_matches_scipy() -> None:
    scores, refs = simulate(np.random.default_rng(5), runs=30, drift={"bob": 0.05})
    row = next(r for r in gold_drift_rows(scores, refs) if r["rater"] == "bob")
    errors = [
        np.mean([abs(s.score - 1) for s in scores if s.rater == "bob" and s.run_pk == run])
        for run in range(30)
    ]
    fit = linregress(np.arange(1, 31), errors)
    assert row["n_gold"] == 30 and row["gold_per_position"] == pytest.approx(fit.slope)
    half = t.ppf(0.975, 28) * fit.stderr
    assert row["gold_position_low"] == pytest.approx(fit.slope - half)


def test_gold_drift_rows_carry_plain_numbers_and_flags_as_the_tables_write_them() -> None:
    """A flag is a bool, not numpy's (a CSV wrote ``False`` beside ``flagged`` ``false``)."""
    scores, refs = simulate(np.random.default_rng(5), runs=30, drift={"bob": 0.05})
    rows = gold_drift_rows(scores, refs)
    assert all(type(r["gold_flagged"]) is bool for r in rows)
    assert all(type(r["gold_position_low"]) is float for r in rows)
    drift = report.drift_rows(scores)
    assert all(type(r["flagged"]) is bool for r in drift)
    out = io.StringIO()
    write_rows(rows, tuple(rows[0]), "csv", out)
    assert {line.rsplit(",", 1)[1] for line in out.getvalue().splitlines()[1:]} <= {"true", "false"}
