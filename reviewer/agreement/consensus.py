"""The consensus of a run's metric: the one human value validity compares with the scorer.

The step is pluggable: :func:`consensus_table` takes any :data:`ConsensusRule`. Today the
rule is :func:`median_consensus`; once adjudication exists, its rule returns the
adjudicated value where there is one and falls back to the median elsewhere.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence

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
