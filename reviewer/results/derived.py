"""Per-run and per-metric figures derived from the rating records, each in one pass.

:class:`~reviewer.results.data.ResultsData` caches them (computed off the GUI thread when
the data is gathered), so drawing a chart on 30,000 ratings only plots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from reviewer.agreement.distinct import distinct
from reviewer.agreement.records import Columns, RatingRecord
from reviewer.rubric import OUTCOMES

_NOT_APPLICABLE = OUTCOMES.index("not_applicable")
_NOT_OBSERVED = OUTCOMES.index("not_observed")


def outcome_counts(records: Sequence[RatingRecord] | Columns) -> dict[str, tuple[int, int, int]]:
    """``{metric_id: (rated items, Not applicable, Not observed)}``: sums over runs."""
    c = records if isinstance(records, Columns) else Columns.of(records)
    width = len(c.metrics)
    items = np.bincount(c.metric, minlength=width)
    na = np.bincount(c.metric[c.outcome == _NOT_APPLICABLE], minlength=width)
    no = np.bincount(c.metric[c.outcome == _NOT_OBSERVED], minlength=width)
    return {m: (int(items[i]), int(na[i]), int(no[i])) for i, m in enumerate(c.metrics)}


def rates_of(counts: Mapping[str, tuple[int, int, int]]) -> dict[str, tuple[int, float, float]]:
    """``{metric_id: (rated items, N/A share, N/O share)}`` of :func:`outcome_counts`."""
    return {m: (n, na / n, no / n) for m, (n, na, no) in counts.items() if n}


def outcome_rates(records: Sequence[RatingRecord]) -> dict[str, tuple[int, float, float]]:
    """``{metric_id: (rated items, Not applicable share, Not observed share)}``."""
    return rates_of(outcome_counts(records))


def rater_spread(records: Sequence[RatingRecord] | Columns) -> dict[str, tuple[int, float]]:
    """``{run_key: (raters, largest max−min score gap over metrics)}`` for runs rated by two
    or more: where the raters disagree most."""
    c = records if isinstance(records, Columns) else Columns.of(records)
    n_runs, n_metrics, n_raters = len(c.runs), len(c.metrics), len(c.raters)
    pairs = distinct(c.run * n_raters + c.rater)  # each (run, rater) once
    raters = np.bincount(pairs // max(n_raters, 1), minlength=n_runs)
    scored = c.score >= 0
    unit = (c.run * n_metrics + c.metric)[scored]
    high = np.full(n_runs * n_metrics, -1, np.int64)
    low = np.full(n_runs * n_metrics, np.iinfo(np.int64).max, np.int64)
    np.maximum.at(high, unit, c.score[scored])
    np.minimum.at(low, unit, c.score[scored])
    gap = np.where(high >= 0, high - low, 0).reshape(n_runs, n_metrics)
    widest = gap.max(axis=1) if n_metrics else np.zeros(n_runs, np.int64)
    counts, gaps = raters.tolist(), widest.tolist()  # not a numpy scalar per run
    return {run: (counts[i], float(gaps[i])) for i, run in enumerate(c.runs) if counts[i] > 1}
