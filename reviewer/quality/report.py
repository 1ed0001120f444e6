"""Rater-quality tables: one row per rater and metric (and ``all`` for the metrics pooled)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from itertools import pairwise
from typing import Any, NamedTuple, cast

import numpy as np

from reviewer.quality import consensus, drift, stats
from reviewer.quality.consensus import Columns
from reviewer.quality.source import NO_POSITION, Score, ScoreColumns, columns_of

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


Scores = Sequence[Score] | ScoreColumns


def _columns(
    scores: ScoreColumns, *, x: np.ndarray | None = None
) -> tuple[Columns, list[str], np.ndarray]:
    """The scores as the model's columns, each run's metric an item and the runs the
    clusters, with the metrics and each score's metric (an index into them)."""
    metrics = list(scores.metrics)
    run = scores.run.astype(int)
    data = Columns(
        raters=scores.raters,
        rater=scores.rater.astype(int),
        run=run,
        item=run * max(len(metrics), 1) + scores.metric,
        score=scores.score.astype(float),
        x=np.full(len(scores), math.nan) if x is None else x,
    )
    return data, metrics, scores.metric.astype(int)


def _queue_x(scores: ScoreColumns) -> np.ndarray | None:
    """What the other raters' drift is corrected along, per score: queue position where the
    scores have one (a study), else days since the first submit, else nothing (``None``) --
    demeaned within each rater's study (positions restart in each study:
    :mod:`reviewer.quality.drift`); NaN where a score has none."""
    known = scores.position != NO_POSITION
    along = scores.position.astype(float)
    if not known.any():
        known = scores.at >= 0
        if not known.any():
            return None
        present = np.unique(scores.at[known]).tolist()
        origin = min(scores.times[i] for i in present)
        days = np.full(len(scores.times), math.nan)
        for i in present:
            days[i] = (scores.times[i] - origin).total_seconds() / 86400
        along = days[scores.at]
    # Each (rater, study)'s mean, its values summed in order as floats (as a list's sum).
    where = np.flatnonzero(known)
    group = scores.rater[where] * (len(scores.studies) + 1) + scores.study[where] + 1
    order = np.argsort(group, kind="stable")
    keys, starts = np.unique(group[order], return_index=True)
    values = along[where[order]].tolist()
    bounds = [*starts.tolist(), len(values)]
    means = np.array([sum(values[a:b]) / (b - a) for a, b in pairwise(bounds)])
    x = np.full(len(scores), math.nan)
    x[where] = along[where] - means[np.searchsorted(keys, group)]
    return x


def _run_differences(scores: ScoreColumns) -> dict[str, dict[int, float]]:
    """``{rater: {run: difference}}``: the rater's score minus the other raters' of the run,
    each corrected for their own bias and drift (the panel's consensus, robustly centred:
    :func:`reviewer.quality.consensus.corrected_differences`), averaged over its metrics."""
    x = _queue_x(scores)
    data, _, _ = _columns(scores, x=x)
    return consensus.corrected_differences(data, drift=x is not None)


def raters(scores: Scores) -> list[str]:
    """The raters who scored something, sorted."""
    if isinstance(scores, ScoreColumns):
        return list(scores.raters)
    return sorted({s.rater for s in scores})


def bias_rows(scores: Scores, *, resamples: int = 1000, seed: int = 0) -> list[dict[str, Any]]:
    """Each rater's bias, per metric and pooled: their difference from the panel's
    consensus, robustly centred (:func:`reviewer.quality.consensus.rater_biases`), with a
    cluster-bootstrap 95% interval over runs (``resamples`` replicates); a row is flagged
    when its interval excludes 0."""
    cols = columns_of(scores)
    data, metrics, metric_of = _columns(cols)
    # Per metric each run is an item; pooled, each run's metric, the rater's bias shared.
    parts = {m: data.where(metric_of == i) for i, m in enumerate(metrics)}
    found = consensus.panel_biases({**parts, ALL: data}, resamples=resamples, seed=seed)
    rows = []
    for rater in raters(cols):
        for metric, by_rater in found.items():
            if (e := by_rater.get(rater)) is not None:
                rows.append(
                    {"rater": rater, "metric": metric, "n_runs": e.n, "bias": e.value,
                     "low": e.low, "high": e.high, "flagged": e.excludes_zero}
                )  # fmt: skip
    return rows


def run_differences(scores: Scores) -> dict[str, dict[int, float]]:
    """:func:`_run_differences`, for a caller that asks :func:`drift_rows` and
    :func:`drift_points` about the same scores: computed once, handed to each (it is most
    of their cost, and the same for every rater)."""
    return _run_differences(columns_of(scores))


class _Rated(NamedTuple):
    """What drift reads of a rater's rating of a run."""

    study: str | None
    position: int | None
    submitted_at: datetime | None


def _rated(scores: ScoreColumns, rater: str) -> dict[int, _Rated]:
    """``{run: its rating's study, position and time}`` of ``rater``'s scores (of the
    run's last score, where they would differ)."""
    if rater not in scores.raters:
        return {}
    mine = np.flatnonzero(scores.rater == scores.raters.index(rater))
    runs = scores.run[mine]
    # Each run's last score: first in the reversed order.
    _, first = np.unique(runs[::-1], return_index=True)
    last = np.sort(mine[len(mine) - 1 - first])
    studies, times = (*scores.studies, None), (*scores.times, None)
    return {
        run: _Rated(studies[study], None if position == NO_POSITION else position, times[at])
        for run, study, position, at in zip(
            scores.run[last].tolist(), scores.study[last].tolist(),
            scores.position[last].tolist(), scores.at[last].tolist(), strict=True,
        )
    }  # fmt: skip


def drift_rows(
    scores: Scores, *, differences: Mapping[str, dict[int, float]] | None = None
) -> list[dict[str, Any]]:
    """Each rater's per-run difference from the others (their scores corrected for their own
    bias and drift: :func:`_run_differences`), regressed on queue position and on days since
    the rater's first submit within each study (:mod:`reviewer.quality.drift`: a day slope
    needs a study spanning a day, else NaN); flagged when either slope's interval excludes 0.
    ``differences``: :func:`run_differences` of ``scores``, when the caller has it."""
    cols = columns_of(scores)
    rows = []
    if differences is None:
        differences = _run_differences(cols)
    for rater in raters(cols):
        diffs = differences.get(rater, {})
        mine = _rated(cols, rater)
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


def accuracy_rows(scores: Scores, reference: str, *, seed: int = 0) -> list[dict[str, Any]]:
    """Each other rater's accuracy against ``reference`` on the items both scored."""
    cols = columns_of(scores)
    return accuracy_against(cols, scores_of(cols, reference), skip=reference, seed=seed)


def scores_of(scores: Scores, rater: str) -> dict[tuple[int, str], int]:
    """``{(run_pk, metric): score}`` of ``rater`` (the last, where one repeats)."""
    cols = columns_of(scores)
    if rater not in cols.raters:
        return {}
    mine = cols.rater == cols.raters.index(rater)
    metrics = cols.metrics
    return {
        (run, metrics[metric]): score
        for run, metric, score in zip(
            cols.run[mine].tolist(),
            cols.metric[mine].tolist(),
            cols.score[mine].tolist(),
            strict=True,
        )
    }


def accuracy_against(
    scores: Scores,
    reference: Mapping[tuple[int, str], int],
    *,
    skip: str | None = None,
    seed: int = 0,
    resamples: int = 1000,
) -> list[dict[str, Any]]:
    """Each rater's (but ``skip``'s) accuracy against ``reference`` scores
    (``{(run_pk, metric): score}``: a reference rater's, or gold) on the items it holds."""
    cols = columns_of(scores)
    names = cols.metrics
    # Each score's reference score (None: the reference holds none for its item).
    theirs_all: list[int | None] = [
        reference.get((run, names[metric]))
        for run, metric in zip(cols.run.tolist(), cols.metric.tolist(), strict=True)
    ]
    has = np.array([t is not None for t in theirs_all], dtype=np.bool_)
    rows = []
    for code, rater in enumerate(cols.raters):
        if rater == skip:
            continue
        pairs: dict[str, list[tuple[int, int]]] = defaultdict(list)
        at = np.flatnonzero((cols.rater == code) & has).tolist()
        for i, metric, score in zip(at, cols.metric[at].tolist(), cols.score[at].tolist(),
                                    strict=True):  # fmt: skip
            pair = (score, cast(int, theirs_all[i]))  # held: ``has``
            pairs[names[metric]].append(pair)
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
    scores: Scores,
    rater: str,
    *,
    differences: Mapping[str, dict[int, float]] | None = None,
) -> list[tuple[int | None, float, float]]:
    """What :func:`drift_rows` regresses for ``rater``: per run, ``(queue position, days since
    their first submit, difference from the others' corrected scores)``, in queue order (NaN days
    where a rating has no submit time). ``differences``: as :func:`drift_rows` takes it."""
    cols = columns_of(scores)
    if differences is None:
        differences = _run_differences(cols)
    diffs = differences.get(rater, {})
    mine = _rated(cols, rater)
    times = [t for r in diffs if (t := mine[r].submitted_at) is not None]
    start = min(times, default=None)
    points = []
    for run, d in diffs.items():
        s = mine[run]
        at = s.submitted_at
        days = (at - start).total_seconds() / 86400 if at is not None and start else math.nan
        points.append((s.position, days, d))
    return sorted(points, key=lambda p: (p[0] is None, p[0] or 0, p[1]))
