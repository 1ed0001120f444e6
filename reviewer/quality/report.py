"""Rater-quality tables: one row per rater and metric (and ``all`` for the metrics pooled)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from reviewer.quality import consensus, drift, stats
from reviewer.quality.consensus import Columns
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


def _columns(
    scores: Sequence[Score], *, x: Callable[[Score], float] | None = None
) -> tuple[Columns, list[str], np.ndarray]:
    """The scores as the model's columns, each run's metric an item and the runs the
    clusters, with the metrics and each score's metric (an index into them)."""
    names = sorted({s.rater for s in scores})
    metrics = sorted({s.metric for s in scores})
    rater_at = {r: i for i, r in enumerate(names)}
    metric_at = {m: i for i, m in enumerate(metrics)}
    metric = np.array([metric_at[s.metric] for s in scores], dtype=int)
    run = np.array([s.run_pk for s in scores], dtype=int)
    data = Columns(
        raters=tuple(names),
        rater=np.array([rater_at[s.rater] for s in scores], dtype=int),
        run=run,
        item=run * max(len(metrics), 1) + metric,
        score=np.array([s.score for s in scores], dtype=float),
        x=np.array([x(s) if x else math.nan for s in scores], dtype=float),
    )
    return data, metrics, metric


def _position(s: Score) -> float | None:
    return None if s.position is None else float(s.position)


def _days_since(origin: datetime) -> Callable[[Score], float | None]:
    def days(s: Score) -> float | None:
        at = s.submitted_at
        return None if at is None else (at - origin).total_seconds() / 86400

    return days


def _queue_x(scores: Sequence[Score]) -> Callable[[Score], float] | None:
    """What the other raters' drift is corrected along: queue position where the scores
    have one (a study), else days since the first submit, else nothing -- demeaned within
    each rater's study (positions restart in each study: :mod:`reviewer.quality.drift`)."""
    along: Callable[[Score], float | None] = _position
    if not any(_position(s) is not None for s in scores):
        times = [s.submitted_at for s in scores if s.submitted_at is not None]
        if not times:
            return None
        along = _days_since(min(times))
    values: dict[tuple[str, str | None], list[float]] = defaultdict(list)
    for s in scores:
        if (v := along(s)) is not None:
            values[(s.rater, s.study)].append(v)
    means = {key: sum(vs) / len(vs) for key, vs in values.items()}

    def x(s: Score) -> float:
        v = along(s)
        return math.nan if v is None else v - means[(s.rater, s.study)]

    return x


def _run_differences(scores: Sequence[Score]) -> dict[str, dict[int, float]]:
    """``{rater: {run: difference}}``: the rater's score minus the other raters' of the run,
    each corrected for their own bias and drift (the panel's consensus, robustly centred:
    :func:`reviewer.quality.consensus.corrected_differences`), averaged over its metrics."""
    x = _queue_x(scores)
    data, _, _ = _columns(scores, x=x)
    return consensus.corrected_differences(data, drift=x is not None)


def raters(scores: Sequence[Score]) -> list[str]:
    return sorted({s.rater for s in scores})


def bias_rows(
    scores: Sequence[Score], *, resamples: int = 1000, seed: int = 0
) -> list[dict[str, Any]]:
    """Each rater's bias, per metric and pooled: their difference from the panel's
    consensus, robustly centred (:func:`reviewer.quality.consensus.rater_biases`), with a
    cluster-bootstrap 95% interval over runs (``resamples`` replicates); a row is flagged
    when its interval excludes 0."""
    data, metrics, metric_of = _columns(scores)
    # Per metric each run is an item; pooled, each run's metric, the rater's bias shared.
    parts = {m: data.where(metric_of == i) for i, m in enumerate(metrics)}
    found = consensus.panel_biases({**parts, ALL: data}, resamples=resamples, seed=seed)
    rows = []
    for rater in raters(scores):
        for metric, by_rater in found.items():
            if (e := by_rater.get(rater)) is not None:
                rows.append(
                    {"rater": rater, "metric": metric, "n_runs": e.n, "bias": e.value,
                     "low": e.low, "high": e.high, "flagged": e.excludes_zero}
                )  # fmt: skip
    return rows


def run_differences(scores: Sequence[Score]) -> dict[str, dict[int, float]]:
    """:func:`_run_differences`, for a caller that asks :func:`drift_rows` and
    :func:`drift_points` about the same scores: computed once, handed to each (it is most
    of their cost, and the same for every rater)."""
    return _run_differences(scores)


def drift_rows(
    scores: Sequence[Score], *, differences: Mapping[str, dict[int, float]] | None = None
) -> list[dict[str, Any]]:
    """Each rater's per-run difference from the others (their scores corrected for their own
    bias and drift: :func:`_run_differences`), regressed on queue position and on days since
    the rater's first submit within each study (:mod:`reviewer.quality.drift`: a day slope
    needs a study spanning a day, else NaN); flagged when either slope's interval excludes 0.
    ``differences``: :func:`run_differences` of ``scores``, when the caller has it."""
    rows = []
    if differences is None:
        differences = _run_differences(scores)
    for rater in raters(scores):
        diffs = differences.get(rater, {})
        mine = {s.run_pk: s for s in scores if s.rater == rater}
        points = [drift.Point(mine[r].study, mine[r].position, mine[r].submitted_at, d)
                  for r, d in diffs.items()]  # fmt: skip
        by_position, by_day = drift.per_position(points), drift.per_day(points)
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


def drift_points(
    scores: Sequence[Score],
    rater: str,
    *,
    differences: Mapping[str, dict[int, float]] | None = None,
) -> list[tuple[int | None, float, float]]:
    """What :func:`drift_rows` regresses for ``rater``: per run, ``(queue position, days since
    their first submit, difference from the others' corrected scores)``, in queue order (NaN days
    where a rating has no submit time). ``differences``: as :func:`drift_rows` takes it."""
    if differences is None:
        differences = _run_differences(scores)
    diffs = differences.get(rater, {})
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
