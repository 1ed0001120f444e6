"""The agreement report's point figures as sums over runs, updated run by run.

Every figure of :func:`reviewer.agreement.report.agreement_report` but the bootstrap
interval is a function of sums over runs: alpha of the coincidence sums
(:class:`~reviewer.agreement.tally.CoincidenceTally`), per metric with the run as the unit
and pooled with each (run, metric) as the unit, with every rater and with each rater left
out; the pair shares; each rater's counts and score sums; each pair's shared runs and equal
scores. An :class:`AgreementTally` keeps those sums. :meth:`AgreementTally.add` adds the
records of some runs (all of each run's records), or takes them out again (``sign=-1``),
so after a rater submits, the dashboard takes the run's old records out, adds its new ones,
and reads the figures: integers added and taken out, the same as summed from scratch.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np

from reviewer.agreement.alpha import SCORE_DOMAIN
from reviewer.agreement.records import Columns, RatingRecord
from reviewer.agreement.tally import CoincidenceTally, unit_counts
from reviewer.rubric import OUTCOMES

_NOT_APPLICABLE = OUTCOMES.index("not_applicable")
_NOT_OBSERVED = OUTCOMES.index("not_observed")


class AgreementTally:
    """Sums over the runs added so far, from which every point figure is read."""

    def __init__(self, domain: Sequence[float] = SCORE_DOMAIN) -> None:
        self.domain = tuple(domain)
        self.scores: dict[str, CoincidenceTally] = {}  # per metric, a run is a unit
        self.outcomes: dict[str, CoincidenceTally] = {}  # per metric, outcome codes
        self.pooled = CoincidenceTally(self.domain)  # a (run, metric) is a unit
        self.without: dict[str, CoincidenceTally] = {}  # pooled, one rater left out
        # Items per metric, in order of first appearance (metrics outside the rubric follow
        # the rubric's in that order).
        self.metric_items: Counter[str] = Counter()
        self.rater_items: Counter[str] = Counter()
        self.rater_runs: Counter[str] = Counter()
        self.rater_na: Counter[str] = Counter()
        self.rater_no: Counter[str] = Counter()
        self.score_sum: Counter[tuple[str, str]] = Counter()  # (rater, metric)
        self.score_n: Counter[tuple[str, str]] = Counter()
        self.shared_runs: Counter[tuple[str, str]] = Counter()  # (a, b), a < b
        self.score_pairs: Counter[tuple[str, str]] = Counter()
        self.equal_scores: Counter[tuple[str, str]] = Counter()

    @classmethod
    def of(
        cls, records: Sequence[RatingRecord], domain: Sequence[float] = SCORE_DOMAIN
    ) -> AgreementTally:
        """A tally of ``records``."""
        tally = cls(domain)
        tally.add(records)
        return tally

    def raters(self) -> list[str]:
        """The raters with at least one item, sorted."""
        return sorted(r for r, n in self.rater_items.items() if n > 0)

    def metrics(self, rubric_ids: Sequence[str] = ()) -> list[str]:
        """Metric ids with items: the rubric's order first, then the others as they came."""
        seen = dict.fromkeys(rubric_ids)
        for m in self.metric_items:
            seen.setdefault(m)
        return [m for m in seen if self.metric_items[m] > 0]

    def add(self, records: Sequence[RatingRecord], sign: int = 1) -> None:
        """Add the records of some runs (every record of each of them), or take them out
        (``sign=-1``, with the very records they were added with)."""
        if records:
            self.add_columns(Columns.of(records), sign)

    def add_columns(self, columns: Columns, sign: int = 1) -> None:
        """:meth:`add` of records already read as :class:`Columns`."""
        if not len(columns.run):
            return
        runs = {k: i for i, k in enumerate(columns.runs)}
        metrics = {k: i for i, k in enumerate(columns.metrics)}
        raters = {k: i for i, k in enumerate(columns.raters)}
        run, metric, rater = columns.run, columns.metric, columns.rater
        outcome, score = columns.outcome, columns.score
        code = np.full(len(score), -1, np.int64)
        for i, v in enumerate(self.domain):
            code[score == v] = i
        outside = (score >= 0) & (code < 0)
        if outside.any():
            found = int(score[outside][0])
            raise ValueError(f"score {found!r} is outside the domain {self.domain}")
        n_runs, n_metrics, width = len(runs), len(metrics), len(self.domain)
        # Every metric's counts per run at once, a (metric, run) unit each, then a metric's
        # slice at a time: the same counts as the items of each metric apart.
        by_metric = metric * n_runs + run
        n_items = np.bincount(metric, minlength=n_metrics)
        score_counts = unit_counts(by_metric, code, n_metrics * n_runs, width)
        outcome_counts = unit_counts(by_metric, outcome, n_metrics * n_runs, len(OUTCOMES))
        for name, m in metrics.items():
            self.metric_items[name] += sign * int(n_items[m])
            scores = self.scores.setdefault(name, CoincidenceTally(self.domain))
            scores.add(score_counts[m * n_runs : (m + 1) * n_runs], sign)
            outcomes = self.outcomes.setdefault(name, CoincidenceTally(tuple(range(len(OUTCOMES)))))
            outcomes.add(outcome_counts[m * n_runs : (m + 1) * n_runs], sign)
        unit = run * n_metrics + metric
        pooled = unit_counts(unit, code, n_runs * n_metrics, width)
        for name in raters:
            if name not in self.without:
                # No record of theirs was added before: leaving them out is the pooled tally.
                self.without[name] = copy.deepcopy(self.pooled)
        self.pooled.add(pooled, sign)
        for name, tally in self.without.items():
            r = raters.get(name)
            if r is None:
                tally.add(pooled, sign)
                continue
            own = rater == r
            tally.add(pooled - unit_counts(unit[own], code[own], n_runs * n_metrics, width), sign)
        self._add_raters(raters, metrics, run, metric, rater, outcome, score, n_runs, sign)

    def _add_raters(
        self,
        raters: dict[str, int],
        metrics: dict[str, int],
        run: np.ndarray,
        metric: np.ndarray,
        rater: np.ndarray,
        outcome: np.ndarray,
        score: np.ndarray,
        n_runs: int,
        sign: int,
    ) -> None:
        """Each rater's counts and score sums, and each pair's shared runs and scores."""
        n_metrics, n_raters = len(metrics), len(raters)
        present = np.zeros((n_runs, n_raters), np.int64)
        present[run, rater] = 1
        by_unit = np.full((n_runs * n_metrics, n_raters), -1, np.int64)
        by_unit[run * n_metrics + metric, rater] = score
        metric_names = list(metrics)
        for name, r in raters.items():
            own = rater == r
            self.rater_items[name] += sign * int(own.sum())
            self.rater_runs[name] += sign * int(present[:, r].sum())
            self.rater_na[name] += sign * int((outcome[own] == _NOT_APPLICABLE).sum())
            self.rater_no[name] += sign * int((outcome[own] == _NOT_OBSERVED).sum())
            scored = own & (score >= 0)
            sums = np.bincount(metric[scored], weights=score[scored], minlength=n_metrics)
            counts = np.bincount(metric[scored], minlength=n_metrics)
            for m, metric_name in enumerate(metric_names):
                self.score_sum[(name, metric_name)] += sign * int(sums[m])
                self.score_n[(name, metric_name)] += sign * int(counts[m])
        shared = present.T @ present
        for a, b in combinations(sorted(raters), 2):
            ia, ib = raters[a], raters[b]
            both = (by_unit[:, ia] >= 0) & (by_unit[:, ib] >= 0)
            equal = both & (by_unit[:, ia] == by_unit[:, ib])
            self.shared_runs[(a, b)] += sign * int(shared[ia, ib])
            self.score_pairs[(a, b)] += sign * int(both.sum())
            self.equal_scores[(a, b)] += sign * int(equal.sum())

    def mean_score(self, rater: str, metric_id: str) -> float | None:
        """The rater's mean score on the metric (``None`` without a score)."""
        n = self.score_n[(rater, metric_id)]
        return self.score_sum[(rater, metric_id)] / n if n else None
