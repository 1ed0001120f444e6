"""Accuracy and drift against gold, for ``raters accuracy --study`` and ``raters drift``.

The gold references of a study become scores of a pseudo-rater, :data:`GOLD_RATER`, so
that accuracy against gold is the one accuracy estimator
(:func:`reviewer.quality.report.accuracy_rows`) with gold as its reference. Drift on gold
is the rater's absolute error against the reference on each gold run (the mean over its
scored metrics), regressed on queue position and on days since the rater's first submit
(:func:`reviewer.quality.stats.slope`): a positive slope is a rater growing less accurate.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from reviewer.gold.model import GOLD_RATER
from reviewer.quality import drift
from reviewer.quality.source import Score

GOLD_DRIFT_COLUMNS = (
    "rater",
    "n_gold",
    "gold_error",
    "gold_per_position",
    "gold_position_low",
    "gold_position_high",
    "gold_per_day",
    "gold_day_low",
    "gold_day_high",
    "gold_flagged",
)


def reference_scores(
    references: Mapping[int, Mapping[str, int]], run_ids: Mapping[int, str | None]
) -> list[Score]:
    """The references (``{run_pk: {metric: score}}``) as :data:`GOLD_RATER`'s scores."""
    return [
        Score(
            run_pk=run,
            run_id=run_ids.get(run),
            rater=GOLD_RATER,
            metric=metric,
            score=score,
            position=None,
            submitted_at=None,
        )
        for run, by_metric in sorted(references.items())
        for metric, score in sorted(by_metric.items())
    ]


def gold_errors(
    scores: Sequence[Score], references: Mapping[int, Mapping[str, int]]
) -> dict[str, dict[int, tuple[float, Score]]]:
    """``{rater: {run_pk: (mean |score - reference| over the metrics, a score of the run)}}``
    over the gold runs each rater scored."""
    diffs: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    seen: dict[tuple[str, int], Score] = {}
    for s in scores:
        ref = references.get(s.run_pk, {}).get(s.metric)
        if ref is None or s.rater == GOLD_RATER:
            continue
        diffs[s.rater][s.run_pk].append(abs(s.score - ref))
        seen[(s.rater, s.run_pk)] = s
    return {
        rater: {run: (sum(v) / len(v), seen[(rater, run)]) for run, v in runs.items()}
        for rater, runs in diffs.items()
    }


def gold_drift_rows(
    scores: Sequence[Score], references: Mapping[int, Mapping[str, int]]
) -> list[dict[str, Any]]:
    """Per rater: the mean absolute error on gold, and its slope on queue position and on
    days, within each study (:mod:`reviewer.quality.drift`: no day slope below its minimum
    span); flagged when either slope's 95% interval excludes 0."""
    rows = []
    for rater, runs in sorted(gold_errors(scores, references).items()):
        points = [drift.Point(s.study, s.position, s.submitted_at, e) for e, s in runs.values()]
        by_position, by_day = drift.per_position(points), drift.per_day(points)
        errors = [e for e, _ in runs.values()]
        rows.append(
            {
                "rater": rater,
                "n_gold": len(runs),
                "gold_error": sum(errors) / len(errors),
                "gold_per_position": by_position.value,
                "gold_position_low": by_position.low,
                "gold_position_high": by_position.high,
                "gold_per_day": by_day.value,
                "gold_day_low": by_day.low,
                "gold_day_high": by_day.high,
                "gold_flagged": by_position.excludes_zero or by_day.excludes_zero,
            }
        )
    return rows
