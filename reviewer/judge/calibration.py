"""The judge against the humans: per metric, how the model's ratings compare with the human
consensus of the same runs. Pure: ratings in, figures out; no database, no Qt.

The human consensus of a run's metric is the one every figure uses
(:mod:`reviewer.agreement.consensus`), passed in as ``reported``: the adjudicated value, else
the agreed one (the median of the human raters' scores, so with two raters it can fall on a
half step, 1.5). An open dispute is left out, counted in ``open_left_out``, and
``alpha_ordinal_open_at_median`` gives the headline again with it taken at the raters' median.
Without ``reported`` (plain ratings, no store), :func:`consensus` gives the agreed value: the
median score, and the outcome most humans chose, a tie going to ``applicable``, then
``not_observed`` (a metric somebody could rate counts as ratable).

Per metric, over the runs both the judge and at least one human rated:

- ``alpha_ordinal`` (headline) and ``alpha_interval``: Krippendorff's alpha between the
  judge's score and the consensus, two "coders" per run, on the half-step scale 0, 0.5, ...,
  3; a run where either side has no score (Not applicable, Not observed) is missing, never a
  score. ``alpha_outcome``: nominal alpha over the two outcomes. Undefined alpha (fewer than
  two runs scored by both, or no variation at all) is null with a ``note``, never 0 or 1.
- ``mean_difference``: judge minus consensus; above 0 the judge is softer, below harsher.
- the confusion matrices of scores (judge score → consensus → runs) and of outcomes;
- the runs where they differ most.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, Protocol

import krippendorff
import numpy as np
from pydantic import BaseModel, ConfigDict

from reviewer.adjudication.model import ReportedValue
from reviewer.rubric import OUTCOMES, SCORES, Outcome, RatingItem

#: The consensus scale: the median of integer scores lands on whole or half steps.
HALF_STEPS: tuple[float, ...] = tuple(s / 2 for s in range(2 * SCORES[-1] + 1))
_OUTCOME_PRIORITY: tuple[Outcome, ...] = ("applicable", "not_observed", "not_applicable")


class RatedRun(Protocol):
    """One rater's rating of one run (a stored ``Rating`` is one)."""

    @property
    def run_pk(self) -> int: ...
    @property
    def items(self) -> Mapping[str, RatingItem]: ...


class _Value(BaseModel):
    model_config = ConfigDict(frozen=True)


class Difference(_Value):
    """One run and metric where the judge and the consensus part."""

    run_pk: int
    run_id: str | None
    metric_id: str
    judge_outcome: str | None
    judge_score: int | None
    consensus_outcome: str | None
    consensus_score: float | None
    difference: float | None  # judge − consensus, when both scored


class MetricCalibration(_Value):
    """The judge against the consensus on one metric."""

    metric_id: str
    runs: int  # runs with an outcome from the judge and from at least one human
    scored_pairs: int  # of those, runs both scored
    alpha_ordinal: float | None
    alpha_interval: float | None
    alpha_outcome: float | None
    note: str | None
    mean_difference: float | None
    exact_agreement: float | None
    within_one: float | None
    score_confusion: dict[str, dict[str, int]]  # judge score → consensus score → runs
    outcome_confusion: dict[str, dict[str, int]]  # judge outcome → consensus outcome → runs
    largest_differences: list[Difference]
    open_left_out: int = 0  # runs left out: their human dispute is still open
    alpha_ordinal_open_at_median: float | None = None  # with those at the raters' median


class RunDifference(_Value):
    """A run's total disagreement: the score gaps summed, plus one per outcome that differs."""

    run_pk: int
    run_id: str | None
    total: float
    metrics: list[str]


class Calibration(_Value):
    """Every metric, and the runs to open first."""

    runs_compared: int
    metrics: list[MetricCalibration]
    runs: list[RunDifference]


def consensus(items: Sequence[RatingItem]) -> tuple[str | None, float | None]:
    """``(outcome, score)`` of the humans' items of one run and metric (see the module)."""
    outcomes = Counter(i.outcome for i in items if i.outcome is not None)
    if not outcomes:
        return None, None
    top = max(outcomes.values())
    outcome = next(o for o in _OUTCOME_PRIORITY if outcomes.get(o) == top)
    scores = [i.score for i in items if i.outcome == "applicable" and i.score is not None]
    return outcome, (float(statistics.median(scores)) if scores else None)


def calibrate(
    judge: Iterable[RatedRun],
    humans: Iterable[RatedRun],
    *,
    metric_ids: Sequence[str],
    run_ids: Mapping[int, str | None] | None = None,
    top: int = 10,
    reported: Mapping[tuple[int, str], ReportedValue] | None = None,
) -> Calibration:
    """Compare ``judge``'s ratings with the consensus of ``humans`` (one rating per rater
    and run, judges left out by the caller); ``top`` bounds the lists of differences.
    ``reported``: the reported consensus by ``(run_pk, metric_id)`` (see the module)."""
    reported = reported or {}
    run_ids = run_ids or {}
    judged = {r.run_pk: r.items for r in judge}
    by_run: dict[int, list[Mapping[str, RatingItem]]] = {}
    for rating in humans:
        if rating.run_pk in judged:
            by_run.setdefault(rating.run_pk, []).append(rating.items)
    metrics = []
    totals: dict[int, float] = {}
    parted: dict[int, list[str]] = {}
    for metric_id in metric_ids:
        pairs: list[Difference] = []
        opened: list[Difference] = []  # open disputes, at the raters' median
        for run_pk, human_items in sorted(by_run.items()):
            mine = judged[run_pk].get(metric_id)
            theirs = [h[metric_id] for h in human_items if metric_id in h]
            c_outcome, c_score = consensus(theirs)
            found = reported.get((run_pk, metric_id))
            is_open = found is not None and found.reached == "open"
            if found is not None and not is_open:
                c_outcome, c_score = found.outcome, found.score
            if mine is None or mine.outcome is None or c_outcome is None:
                continue
            diff = None if mine.score is None or c_score is None else mine.score - c_score
            (opened if is_open else pairs).append(
                Difference(
                    run_pk=run_pk,
                    run_id=run_ids.get(run_pk),
                    metric_id=metric_id,
                    judge_outcome=mine.outcome,
                    judge_score=mine.score,
                    consensus_outcome=c_outcome,
                    consensus_score=c_score,
                    difference=diff,
                )
            )
        for p in pairs:
            gap = abs(p.difference or 0.0) + (p.judge_outcome != p.consensus_outcome)
            if gap:
                totals[p.run_pk] = totals.get(p.run_pk, 0.0) + gap
                parted.setdefault(p.run_pk, []).append(metric_id)
        row = _metric(metric_id, pairs, top)
        if opened:
            at_median = _metric(metric_id, sorted(pairs + opened, key=lambda p: p.run_pk), top)
            row = row.model_copy(
                update={
                    "open_left_out": len(opened),
                    "alpha_ordinal_open_at_median": at_median.alpha_ordinal,
                }
            )
        metrics.append(row)
    worst = sorted(totals, key=lambda pk: (-totals[pk], pk))[:top]
    return Calibration(
        runs_compared=len(by_run),
        metrics=metrics,
        runs=[
            RunDifference(run_pk=pk, run_id=run_ids.get(pk), total=totals[pk], metrics=parted[pk])
            for pk in worst
        ],
    )


def _metric(metric_id: str, pairs: list[Difference], top: int) -> MetricCalibration:
    scored = [p for p in pairs if p.difference is not None]
    diffs = [p.difference for p in scored if p.difference is not None]
    score_rows = [
        [p.judge_score if p.judge_score is not None else np.nan for p in pairs],
        [p.consensus_score if p.consensus_score is not None else np.nan for p in pairs],
    ]
    alpha_ordinal, note = _alpha(score_rows, "ordinal", HALF_STEPS)
    alpha_interval, _ = _alpha(score_rows, "interval", None)
    code = {o: float(i) for i, o in enumerate(OUTCOMES)}
    outcome_rows = [
        [code[p.judge_outcome or ""] for p in pairs],
        [code[p.consensus_outcome or ""] for p in pairs],
    ]
    alpha_outcome, outcome_note = _alpha(
        outcome_rows, "nominal", tuple(code.values()), what="rated"
    )
    if outcome_note and not note:
        note = f"alpha_outcome: {outcome_note}"
    ranked = sorted(
        (p for p in pairs if p.difference or p.judge_outcome != p.consensus_outcome),
        key=lambda p: (-(abs(p.difference or 0.0)), p.difference is not None, p.run_pk),
    )
    return MetricCalibration(
        metric_id=metric_id,
        runs=len(pairs),
        scored_pairs=len(scored),
        alpha_ordinal=alpha_ordinal,
        alpha_interval=alpha_interval,
        alpha_outcome=alpha_outcome,
        note=note,
        mean_difference=sum(diffs) / len(diffs) if diffs else None,
        exact_agreement=sum(d == 0 for d in diffs) / len(diffs) if diffs else None,
        within_one=sum(abs(d) <= 1 for d in diffs) / len(diffs) if diffs else None,
        score_confusion=_confusion((str(p.judge_score), _step(p.consensus_score)) for p in scored),
        outcome_confusion=_confusion(
            (p.judge_outcome or "", p.consensus_outcome or "") for p in pairs
        ),
        largest_differences=ranked[:top],
    )


#: Krippendorff's levels of measurement this module uses (``krippendorff.alpha``'s names).
_Level = Literal["nominal", "ordinal", "interval"]


def _alpha(
    rows: list[list[float]],
    level: _Level,
    domain: tuple[float, ...] | None,
    *,
    what: str = "scored",
) -> tuple[float | None, str | None]:
    data = np.array(rows, dtype=float)
    both = data[:, ~np.isnan(data).any(axis=0)] if data.size else data
    if data.size == 0 or both.shape[1] < 2:
        return None, f"undefined: fewer than two runs {what} by both the judge and the humans"
    if len(np.unique(both)) < 2:
        return None, "undefined: no variation, every value is the same"
    value = krippendorff.alpha(
        reliability_data=data, level_of_measurement=level, value_domain=domain
    )
    return float(value), None


def _step(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _confusion(pairs: Iterable[tuple[str, str]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for row, col in pairs:
        out.setdefault(row, {})
        out[row][col] = out[row].get(col, 0) + 1
    return {row: dict(sorted(cols.items())) for row, cols in sorted(out.items())}
