"""The one human consensus of a run's metric: what validity, judge comparison, the dashboard,
the report and ``consensus export`` all show.

The rule (:data:`reviewer.adjudication.rule.CONSENSUS_RULE`): the adjudicated value where
an adjudication in force decided the metric, else the agreed value (the common outcome and
the median score of the human raters), a single rater's value as it is, and **no value
while the dispute is open**. Every figure built on these values leaves open disputes out
and says how many (:meth:`Consensus.open_count`); its sensitivity figure takes each open
dispute at the median of its raters' scores instead (:meth:`Consensus.at_median`).

The reported values come from :mod:`reviewer.adjudication.consensus` (the store's disputes,
the same rows ``consensus export`` writes). A (run, metric) the store does not report (the
blind phase, which no adjudication resolves, or an item only a judge rated) takes the median
of its records' scores.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reviewer.adjudication.model import ReportedValue
from reviewer.agreement.records import RatingRecord

Key = tuple[str, str]  # (run_key, metric_id)


@dataclass(frozen=True)
class Consensus:
    """Per (run, metric): the consensus score, and the open disputes left out.

    ``scores`` hold every (run, metric) with a consensus score; ``open`` the open disputes
    with the raters' median score (``None`` when no rater gave a score); ``adjudicated``
    the keys whose value an adjudicator decided.
    """

    scores: dict[Key, float] = field(default_factory=dict)
    open: dict[Key, float | None] = field(default_factory=dict)
    adjudicated: frozenset[Key] = frozenset()

    def at_median(self) -> dict[Key, float]:
        """The sensitivity table: ``scores`` with each open dispute at its raters' median."""
        out = dict(self.scores)
        out.update({k: v for k, v in self.open.items() if v is not None})
        return out

    def open_count(self, metric_id: str | None = None) -> int:
        """Open disputes left out (of ``metric_id``, or of every metric)."""
        return sum(1 for _, m in self.open if metric_id is None or m == metric_id)

    def open_runs(self) -> set[str]:
        """Runs with at least one open dispute."""
        return {run for run, _ in self.open}


def median_score(records: Sequence[RatingRecord]) -> float | None:
    """The median of the records' scores (Not applicable / Not observed do not vote)."""
    scores = [r.score for r in records if r.score is not None]
    return float(statistics.median(scores)) if scores else None


def build_consensus(
    records: Sequence[RatingRecord], reported: Mapping[Key, ReportedValue] | None = None
) -> Consensus:
    """The consensus of every (run, metric) ``records`` hold: the ``reported`` value where
    there is one (an open dispute left out), else the median of the records' scores."""
    reported = reported or {}
    grouped: dict[Key, list[RatingRecord]] = defaultdict(list)
    for r in records:
        grouped[(r.run_key, r.metric_id)].append(r)
    scores: dict[Key, float] = {}
    open_: dict[Key, float | None] = {}
    adjudicated: set[Key] = set()
    for key, group in grouped.items():
        found = reported.get(key)
        if found is None:
            value = median_score(group)
        elif found.reached == "open":
            open_[key] = found.median if found.median is not None else median_score(group)
            continue
        else:
            value = found.score
            if found.reached == "adjudicated":
                adjudicated.add(key)
        if value is not None:
            scores[key] = value
    return Consensus(scores=scores, open=open_, adjudicated=frozenset(adjudicated))


def open_note(left_out: int, what: str = "open disputes") -> str | None:
    """``"3 open disputes left out"``, or ``None`` when none is."""
    return f"{left_out} {what} left out" if left_out else None
