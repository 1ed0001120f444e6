"""The consensus of a run's metric: the one human value validity compares with the scorer.

The step is pluggable: :func:`consensus_table` takes any :data:`ConsensusRule`. Validity uses
:func:`reported_rule` over the values the benchmark reports
(:mod:`reviewer.adjudication.consensus`: adjudicated where adjudicated, else agreed, nothing
while a dispute is open); :func:`median_consensus` covers what that table does not hold.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from reviewer.agreement.records import RatingRecord

#: ``rule(run_key, metric_id, records of that run and metric) -> consensus 0–3 or None``.
ConsensusRule = Callable[[str, str, Sequence[RatingRecord]], float | None]


def median_consensus(run_key: str, metric_id: str, records: Sequence[RatingRecord]) -> float | None:
    """The median of the raters' scores (Not applicable / Not observed do not vote)."""
    scores = [r.score for r in records if r.score is not None]
    return float(statistics.median(scores)) if scores else None


def consensus_table(
    records: Sequence[RatingRecord], rule: ConsensusRule = median_consensus
) -> dict[tuple[str, str], float]:
    """``{(run_key, metric_id): consensus}`` for every run and metric with a value."""
    grouped: dict[tuple[str, str], list[RatingRecord]] = defaultdict(list)
    for r in records:
        grouped[(r.run_key, r.metric_id)].append(r)
    out: dict[tuple[str, str], float] = {}
    for (run_key, metric_id), group in grouped.items():
        value = rule(run_key, metric_id, group)
        if value is not None:
            out[(run_key, metric_id)] = value
    return out


def reported_rule(
    reported: Mapping[tuple[str, str], float | None],
    fallback: ConsensusRule = median_consensus,
) -> ConsensusRule:
    """A rule that takes the reported value of ``(run_key, metric_id)`` where ``reported``
    has one (``None`` there means no value: an open dispute), else ``fallback``."""

    def rule(run_key: str, metric_id: str, records: Sequence[RatingRecord]) -> float | None:
        if (run_key, metric_id) in reported:
            return reported[(run_key, metric_id)]
        return fallback(run_key, metric_id, records)

    return rule
