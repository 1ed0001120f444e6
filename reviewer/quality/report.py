"""Rater-quality tables: one row per rater and metric (and ``all`` for the metrics pooled)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from reviewer.quality import stats
from reviewer.quality.source import Score

ALL = "all"

BIAS_COLUMNS = ("rater", "metric", "n_runs", "bias", "low", "high", "flagged")
DRIFT_COLUMNS = (
    "rater", "n_runs", "per_position", "position_low", "position_high",
    "per_day", "day_low", "day_high", "flagged",
)  # fmt: skip
ACCURACY_COLUMNS = (
    "rater", "metric", "n", "exact", "exact_low", "exact_high", "within_one",
    "within_one_low", "within_one_high", "signed", "signed_low", "signed_high",
    "kappa", "kappa_low", "kappa_high",
)  # fmt: skip


def _by_metric(scores: Sequence[Score]) -> dict[str, dict[int, dict[str, float]]]:
    out: dict[str, dict[int, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for s in scores:
        out[s.metric][s.run_pk][s.rater] = s.score
    return out


def _run_differences(scores: Sequence[Score], rater: str) -> dict[str, dict[int, float]]:
    """Per metric (and ``all``: per run, the mean over its metrics), the rater's
    leave-one-out differences by run."""
    out: dict[str, dict[int, float]] = {}
    pooled: dict[int, list[float]] = defaultdict(list)
    for metric, runs in sorted(_by_metric(scores).items()):
        diffs = stats.leave_one_out(runs, rater)
        if diffs:
            out[metric] = diffs
        for run, d in diffs.items():
            pooled[run].append(d)
    if pooled:
        out[ALL] = {run: sum(v) / len(v) for run, v in pooled.items()}
    return out


def raters(scores: Sequence[Score]) -> list[str]:
    return sorted({s.rater for s in scores})


def bias_rows(scores: Sequence[Score]) -> list[dict[str, Any]]:
    """Each rater's mean signed difference from the others, per metric and pooled; a row is
    flagged when its 95% interval excludes 0."""
    rows = []
    for rater in raters(scores):
        for metric, diffs in _run_differences(scores, rater).items():
            e = stats.mean_t(list(diffs.values()))
            rows.append(
                {"rater": rater, "metric": metric, "n_runs": e.n, "bias": e.value,
                 "low": e.low, "high": e.high, "flagged": e.excludes_zero}
            )  # fmt: skip
    return rows


def drift_rows(scores: Sequence[Score]) -> list[dict[str, Any]]:
    """Each rater's pooled difference from the others, regressed on queue position and on
    days since their first submit; flagged when either slope's interval excludes 0."""
    rows = []
    for rater in raters(scores):
        diffs = _run_differences(scores, rater).get(ALL, {})
        mine = {s.run_pk: s for s in scores if s.rater == rater}
        placed = [(p, d) for r, d in diffs.items() if (p := mine[r].position) is not None]
        timed = [(t, d) for r, d in diffs.items() if (t := mine[r].submitted_at) is not None]
        by_position = stats.slope([float(p) for p, _ in placed], [d for _, d in placed])
        start = min((t for t, _ in timed), default=None)
        days = [((t - start).total_seconds() / 86400, d) for t, d in timed] if start else []
        by_day = stats.slope([x for x, _ in days], [d for _, d in days])
        rows.append(
            {
                "rater": rater,
                "n_runs": len(diffs),
                "per_position": by_position.value,
                "position_low": by_position.low,
                "position_high": by_position.high,
                "per_day": by_day.value,
                "day_low": by_day.low,
                "day_high": by_day.high,
                "flagged": by_position.excludes_zero or by_day.excludes_zero,
            }
        )
    return rows


def accuracy_rows(
    scores: Sequence[Score], reference: str, *, seed: int = 0
) -> list[dict[str, Any]]:
    """Each other rater's accuracy against ``reference`` on the items both scored."""
    ref = {(s.run_pk, s.metric): s.score for s in scores if s.rater == reference}
    return accuracy_against(scores, ref, skip=reference, seed=seed)


def accuracy_against(
    scores: Sequence[Score],
    reference: Mapping[tuple[int, str], int],
    *,
    skip: str | None = None,
    seed: int = 0,
    resamples: int = 1000,
) -> list[dict[str, Any]]:
    """Each rater's (but ``skip``'s) accuracy against ``reference`` scores
    (``{(run_pk, metric): score}``: a reference rater's, or gold) on the items it holds."""
    rows = []
    for rater in raters(scores):
        if rater == skip:
            continue
        pairs: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for s in scores:
            if s.rater == rater and (s.run_pk, s.metric) in reference:
                pair = (s.score, reference[(s.run_pk, s.metric)])
                pairs[s.metric].append(pair)
                pairs[ALL].append(pair)
        for metric in sorted(pairs, key=lambda m: (m == ALL, m)):
            mine, theirs = zip(*pairs[metric], strict=True)
            a = stats.accuracy(list(mine), list(theirs), seed=seed, resamples=resamples)
            row: dict[str, Any] = {"rater": rater, "metric": metric, "n": a.exact.n}
            for name, e in (("exact", a.exact), ("within_one", a.within_one),
                            ("signed", a.signed), ("kappa", a.kappa)):  # fmt: skip
                row.update({name: e.value, f"{name}_low": e.low, f"{name}_high": e.high})
            rows.append(row)
    return rows


def drift_points(scores: Sequence[Score], rater: str) -> list[tuple[int | None, float, float]]:
    """What :func:`drift_rows` regresses for ``rater``: per run, ``(queue position, days since
    their first submit, pooled difference from the others)``, in queue order (NaN days
    where a rating has no submit time)."""
    diffs = _run_differences(scores, rater).get(ALL, {})
    mine = {s.run_pk: s for s in scores if s.rater == rater}
    times = [t for r in diffs if (t := mine[r].submitted_at) is not None]
    start = min(times, default=None)
    points = []
    for run, d in diffs.items():
        s = mine[run]
        at = s.submitted_at
        days = (at - start).total_seconds() / 86400 if at is not None and start else math.nan
        points.append((s.position, days, d))
    return sorted(points, key=lambda p: (p[0] is None, p[0] or 0, p[1]))
