"""The consensus rule applied to columns: every (run, metric) of 210,000 items at once.

:func:`reviewer.agreement.consensus.build_consensus` over the values
:func:`reviewer.adjudication.disputes.reported_values` reports is the one definition
(:data:`reviewer.adjudication.rule.CONSENSUS_RULE`): the adjudicated value where an
adjudication in force decided the metric; else, with fewer than two raters, the rater's
value; else, when the raters' outcomes differ or two of their scores are the run's
threshold apart or more, an open dispute (no value; its raters' median beside); else the
median score. Here the same rule with numpy over a unit per (run, metric), in order of
first appearance; the tests hold it to the definition on random data, to the bit (a
median of integers is ``(low + high) / 2`` in both).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reviewer.adjudication.rule import DEFAULT_THRESHOLD
from reviewer.agreement.consensus import Consensus
from reviewer.agreement.distinct import distinct, first_appearance, sorted_codes
from reviewer.agreement.items import ItemColumns

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
_ARRAYS = ("run", "metric", "value", "open", "median", "adjudicated")
#: ``(run_pk, metric_id)`` decided by an adjudication in force: its outcome and score.
Decided = Mapping[tuple[int, str], tuple[str, int | None]]


@dataclass(frozen=True)
class UnitConsensus:
    """Per (run, metric) unit, in order of first appearance: its run (``run_pk``),
    metric (index into ``metrics``), consensus score (NaN: none), whether its dispute is
    open, its raters' median score (NaN: none) and whether an adjudicator decided it."""

    run: Ints
    metric: Ints
    value: Floats
    open: Bools
    median: Floats
    adjudicated: Bools
    metrics: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.run)

    def part(self, start: int, end: int) -> UnitConsensus:
        """Units ``start:end``."""
        return UnitConsensus(
            **{name: getattr(self, name)[start:end] for name in _ARRAYS}, metrics=self.metrics
        )

    def with_run(self, run_pk: int, new: UnitConsensus) -> UnitConsensus:
        """These units (in run order) with run ``run_pk``'s replaced by ``new`` (coded with
        names that extend these units' names)."""
        start, end = np.searchsorted(self.run, [run_pk, run_pk + 1]).tolist()
        return UnitConsensus(
            **{
                name: np.concatenate(
                    [getattr(self, name)[:start], getattr(new, name), getattr(self, name)[end:]]
                )
                for name in _ARRAYS
            },
            metrics=new.metrics if len(new.metrics) >= len(self.metrics) else self.metrics,
        )

    def consensus(self) -> Consensus:
        """The units as a :class:`Consensus`, keys ``(run_pk as text, metric_id)``."""
        runs, where = sorted_codes(self.run)
        names = [str(pk) for pk in runs.tolist()]
        keys = list(
            zip(
                [names[i] for i in where.reshape(-1).tolist()],
                [self.metrics[i] for i in self.metric.tolist()],
                strict=True,
            )
        )
        scored = ~np.isnan(self.value)
        medians = [None if m != m else m for m in self.median[self.open].tolist()]
        return Consensus(
            scores=dict(
                zip([keys[i] for i in np.flatnonzero(scored).tolist()],
                    self.value[scored].tolist(), strict=True)
            ),
            open=dict(
                zip([keys[i] for i in np.flatnonzero(self.open).tolist()], medians, strict=True)
            ),
            adjudicated=frozenset(keys[i] for i in np.flatnonzero(self.adjudicated).tolist()),
        )  # fmt: skip

    def human_means(self) -> dict[str, float]:
        """Per run with a consensus score, the mean of its scores over 3, summed in unit
        order as ``np.mean`` sums a list (:func:`reviewer.agreement.validity.human_scores`)."""
        valued = np.flatnonzero(~np.isnan(self.value))
        runs = self.run[valued]
        scaled = self.value[valued] / 3.0
        starts = np.flatnonzero(np.concatenate([[len(runs) > 0], runs[1:] != runs[:-1]]))
        counts = np.diff(starts, append=len(runs))
        means = np.empty(len(starts), dtype=np.float64)
        for count in distinct(counts).tolist():
            rows = np.flatnonzero(counts == count)
            cells = scaled[starts[rows][:, None] + np.arange(count)]
            means[rows] = np.add.reduce(cells, axis=1) / count
        return dict(zip([str(pk) for pk in runs[starts].tolist()], means.tolist(), strict=True))


def unit_consensus(
    items: ItemColumns, thresholds: Mapping[int, int], decided: Decided | None
) -> UnitConsensus:
    """The consensus of each (run, metric) of ``items`` (people's items only); ``decided``
    ``None``: nothing is reported for them (the median of the scores everywhere)."""
    width = max(len(items.metrics), 1)
    key = items.run * width + items.metric
    unit, in_order = first_appearance(key)  # the units in order of first appearance
    n_units = len(in_order)
    # Each unit's items together, unscored first, scores ascending.
    order = np.lexsort((items.score, unit))
    ordered_unit, score = unit[order], items.score[order]
    starts = np.searchsorted(ordered_unit, np.arange(n_units))
    count = np.bincount(unit, minlength=n_units)
    scored = np.bincount(unit[items.score >= 0], minlength=n_units)
    first_scored = starts + count - scored
    last = starts + count - 1
    has = scored > 0
    low = np.where(has, score[np.minimum(first_scored + (scored - 1) // 2, last)], 0)
    high = np.where(has, score[np.minimum(first_scored + scored // 2, last)], 0)
    median = np.where(has, (low + high) / 2, np.nan)
    run_of_unit = in_order // width
    metric_of_unit = in_order % width
    value = median.copy()
    is_open = np.zeros(n_units, dtype=np.bool_)
    adjudicated = np.zeros(n_units, dtype=np.bool_)
    if decided is not None and n_units:
        outcomes = items.outcome[order]
        differ = np.minimum.reduceat(outcomes, starts) != np.maximum.reduceat(outcomes, starts)
        spread = np.where(has, score[last] - score[np.minimum(first_scored, last)], 0)
        runs, at = sorted_codes(run_of_unit)
        limit = np.array([thresholds.get(pk, DEFAULT_THRESHOLD) for pk in runs.tolist()],
                         dtype=np.int64)[at.reshape(-1)]  # fmt: skip
        is_open = (count >= 2) & (differ | (has & (spread >= limit)))
        value[is_open] = np.nan
        code = {m: i for i, m in enumerate(items.metrics)}
        by_key = np.argsort(in_order, kind="stable") if decided else in_order[:0]
        distinct = in_order[by_key]  # the units' keys, sorted (each once)
        for (pk, metric), (_outcome, decision) in decided.items():
            if metric not in code:
                continue
            at_key = int(np.searchsorted(distinct, pk * width + code[metric]))
            if at_key == n_units or distinct[at_key] != pk * width + code[metric]:
                continue  # decided, but nobody of this selection rated it
            u = int(by_key[at_key])
            adjudicated[u], is_open[u] = True, False
            value[u] = np.nan if decision is None else float(decision)
    return UnitConsensus(
        run=run_of_unit, metric=metric_of_unit, value=value, open=is_open, median=median,
        adjudicated=adjudicated, metrics=items.metrics,
    )  # fmt: skip
