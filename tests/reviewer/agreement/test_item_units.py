"""Alpha's units counted from the item columns equal the records' units, and a plain count.

The report's bootstrap intervals of alpha read each metric's scores by run
(:class:`~reviewer.agreement.alpha.Units`). :meth:`ItemColumns.score_units` counts them from
the columns without building a record; here it is held, on random items, to
:func:`~reviewer.agreement.report.score_units` of the records the same columns build, to a
count written from the definition with dicts, and the intervals drawn from both to each
other (same seed: the same numbers, to the bit).
"""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np
import pytest

from reviewer.agreement.items import ItemColumns
from reviewer.agreement.report import metric_interval, score_units

METRICS = ("safety", "procedure", "verification", "extra")


def items(seed: int, *, n_runs: int = 60) -> ItemColumns:
    rnd = random.Random(seed)
    rows = []
    # Run numbers of different lengths: their keys sort as text ("100" < "23").
    for run in rnd.sample(range(1, 400), n_runs):
        for rater in rnd.sample(range(4), rnd.randint(1, 4)):
            for metric in rnd.sample(range(3), 3):  # "extra" (3) has no item
                outcome = rnd.choice([0, 0, 0, 0, 1, 2])
                score = rnd.randint(0, 3) if outcome == 0 else -1
                rows.append((run, rater, metric, outcome, score))
    rnd.shuffle(rows)
    cols = np.array(rows, dtype=np.int64).reshape(-1, 5)
    none = np.full(len(cols), -1, dtype=np.int64)
    return ItemColumns(
        run=cols[:, 0], rater=cols[:, 1], study=none, reveal=none, metric=cols[:, 2],
        outcome=cols[:, 3], score=cols[:, 4], blind_outcome=none, blind_score=none,
        raters=("ann", "bob", "cy", "dee"), judges=(False,) * 4, studies=(), metrics=METRICS,
    )  # fmt: skip


def plain_units(cols: ItemColumns, metric: str) -> tuple[list[str], list[list[int]]]:
    """Each run with an item of ``metric`` (as text, sorted as text) and its count of each
    score 0-3, item by item."""
    counts: dict[str, list[int]] = {}
    for run, m, score in zip(cols.run.tolist(), cols.metric.tolist(), cols.score.tolist(),
                             strict=True):  # fmt: skip
        if METRICS[m] != metric:
            continue
        row = counts.setdefault(str(run), [0, 0, 0, 0])
        if score >= 0:
            row[score] += 1
    keys = sorted(counts)
    return keys, [counts[k] for k in keys]


@pytest.mark.parametrize("seed", range(6))
def test_units_from_the_columns_equal_the_records_units(seed: int) -> None:
    cols = items(seed)
    by_metric = defaultdict(list)
    for r in cols.records():
        by_metric[r.metric_id].append(r)
    for metric in METRICS:
        fast, slow = cols.score_units(metric), score_units(by_metric[metric])
        assert fast.keys == slow.keys and fast.domain == slow.domain
        assert fast.counts.dtype == slow.counts.dtype
        assert np.array_equal(fast.counts, slow.counts)
        keys, counts = plain_units(cols, metric)
        assert list(fast.keys) == keys
        assert fast.counts.reshape(-1, 4).tolist() == counts
    assert cols.score_units("nowhere").counts.shape == (0, 4)


@pytest.mark.parametrize("seed", range(3))
def test_the_interval_from_the_columns_is_the_records_interval(seed: int) -> None:
    cols = items(seed, n_runs=120)
    for metric in METRICS[:3]:
        records = [r for r in cols.records() if r.metric_id == metric]
        units = cols.score_units(metric)
        estimate = units.alpha("ordinal").value
        assert estimate is not None
        fast = metric_interval(metric, units, estimate, seed=seed, resamples=300)
        slow = metric_interval(metric, records, estimate, seed=seed, resamples=300)
        assert fast is not None and fast == slow  # to the bit


def test_a_score_outside_the_domain_is_refused_as_the_records_refuse_it() -> None:
    cols = items(0)
    with pytest.raises(ValueError, match="outside the domain"):
        cols.score_units("safety", domain=(0, 1, 2))
    with pytest.raises(ValueError, match="outside the domain"):
        score_units([r for r in cols.records() if r.metric_id == "safety"], (0, 1, 2))
