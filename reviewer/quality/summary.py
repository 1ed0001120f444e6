"""Rater quality as one frozen value: what the dashboard's Raters tab and the report show.

:func:`read_summary` reads the human scores once, leaves out the runs the blind protocol
hides from the viewer (a :class:`Gate`, which the results build from
:func:`reviewer.studies.visibility.hidden_runs`, the rule every view applies:
:func:`reviewer.results.raters_source.gate_for`) and computes
bias, drift and, when a reference is named, accuracy with the functions of
:mod:`reviewer.quality.report` (the ones ``a320-review raters`` prints).

A rater is *marked biased* when the interval of their pooled bias (all metrics, one test
per rater) excludes 0; a per-metric cell whose interval excludes 0 is marked too, but with
eight metrics about one unbiased rater in four has such a cell by chance, so it is a lead,
not a verdict. A rater is *marked drifting* when either drift slope's interval excludes 0.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict

from reviewer.prevalidated import prevalidated
from reviewer.quality import report
from reviewer.quality.facade import QualityStore
from reviewer.quality.reference import Reference, load_reference, reference_choices
from reviewer.quality.source import Phase, Score, ScoreColumns, columns_of, score_columns

ALL = report.ALL


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class BiasCell(_Frozen):
    """One rater's mean signed difference from the others on one metric (or ``all``)."""

    rater: str
    metric: str
    n_runs: int
    bias: float
    low: float
    high: float
    flagged: bool


class DriftPoint(_Frozen):
    """One run of a rater's queue: its position, days since their first submit (NaN
    without a time), and the difference from the other raters' corrected scores (pooled
    over the metrics: :func:`reviewer.quality.report.drift_points`)."""

    position: int | None
    days: float
    difference: float


class RaterLine(_Frozen):
    """One rater: pooled bias, the two drift slopes, and whether each is marked."""

    rater: str
    n_runs: int
    bias: BiasCell | None
    per_position: float
    position_low: float
    position_high: float
    per_day: float
    day_low: float
    day_high: float
    drifting: bool
    #: Metrics (not ``all``) whose bias interval excludes 0.
    biased_metrics: list[str]
    points: list[DriftPoint]

    @property
    def biased(self) -> bool:
        """The pooled bias interval excludes 0 (the rater is marked)."""
        return self.bias is not None and self.bias.flagged


class AccuracyLine(_Frozen):
    """One rater's accuracy on one metric (or ``all``) against the reference."""

    rater: str
    metric: str
    n: int
    exact: float
    exact_low: float
    exact_high: float
    within_one: float
    within_one_low: float
    within_one_high: float
    signed: float
    signed_low: float
    signed_high: float
    kappa: float
    kappa_low: float
    kappa_high: float


class AccuracySection(_Frozen):
    """Accuracy against one reference (a rater today, gold later)."""

    reference: str
    lines: list[AccuracyLine]


class QualitySummary(_Frozen):
    """Everything the Raters tab and page show, for the runs the viewer may see."""

    n_scores: int
    n_runs: int
    metrics: list[str]
    raters: list[RaterLine]
    bias: list[BiasCell]
    #: What :func:`~reviewer.quality.reference.load_reference` accepts here.
    references: list[str]
    accuracy: AccuracySection | None = None
    #: A reference was asked for but is not among these scores.
    missing_reference: str | None = None
    #: Runs left out for the viewer's blind phase, whose phase that is, and the sentence the
    #: views show (the results write it: :func:`reviewer.studies.visibility.left_out_note`).
    n_left_out: int = 0
    blind_for: list[str] = []
    left_out_note: str | None = None

    def marked(self) -> list[str]:
        """The raters marked biased or drifting."""
        return [r.rater for r in self.raters if r.biased or r.drifting]


@dataclass(frozen=True)
class Gate:
    """The runs left out for the viewer (their pks and run ids: every version of a run
    file), and whose blind phase that is."""

    run_pks: frozenset[int]
    run_ids: frozenset[str]
    blind_for: tuple[str, ...]

    def keeps(self, score: Score) -> bool:
        """Whether the viewer may see ``score``'s run."""
        return score.run_pk not in self.run_pks and score.run_id not in self.run_ids

    def hides(self, scores: ScoreColumns) -> np.ndarray:
        """Per score, whether its run is hidden from the viewer (not :meth:`keeps`)."""
        hidden = np.isin(scores.run, np.fromiter(self.run_pks, np.int64, len(self.run_pks)))
        ids = [i for i, run_id in enumerate(scores.run_ids) if run_id in self.run_ids]
        return hidden | np.isin(scores.run_id, np.array(ids, dtype=np.int64))


def summarize(
    kept: Sequence[Score] | ScoreColumns,
    *,
    reference: Reference | None = None,
    seed: int = 0,
    resamples: int = 1000,
) -> QualitySummary:
    """The summary of ``kept`` scores (pure: no store), with accuracy against ``reference``."""
    kept = columns_of(kept)
    bias = [BiasCell(**row) for row in report.bias_rows(kept)]
    pooled = {c.rater: c for c in bias if c.metric == ALL}
    lines = []
    # Every rater's differences from the others, once: drift's rows and points read them.
    differences = report.run_differences(kept)
    for row in report.drift_rows(kept, differences=differences):
        name = row["rater"]
        drifted = report.drift_points(kept, name, differences=differences)
        # Plain ints, None and floats from drift_points: built without validating again
        # (30,000 points at 10,000 runs).
        points = [
            prevalidated(DriftPoint, {"position": p, "days": float(d), "difference": float(x)})
            for p, d, x in drifted
        ]
        fields = {k: v for k, v in row.items() if k not in ("rater", "n_runs", "flagged")}
        lines.append(
            RaterLine(
                rater=name, n_runs=row["n_runs"], bias=pooled.get(name), drifting=row["flagged"],
                biased_metrics=[c.metric for c in bias
                                if c.rater == name and c.flagged and c.metric != ALL],
                points=points, **fields,
            )
        )  # fmt: skip
    accuracy = None
    if reference is not None:
        rows = report.accuracy_against(
            kept, reference.scores, skip=reference.skip, seed=seed, resamples=resamples
        )
        accuracy = AccuracySection(reference=reference.label,
                                   lines=[AccuracyLine(**r) for r in rows])  # fmt: skip
    return QualitySummary(
        n_scores=len(kept),
        n_runs=len(np.unique(kept.run)),
        metrics=list(kept.metrics),
        raters=lines,
        bias=bias,
        references=reference_choices(kept),
        accuracy=accuracy,
    )


def read_summary(
    store: QualityStore,
    gate: Gate,
    *,
    study: str | None = None,
    runs: Collection[int] | None = None,
    reference: str | None = None,
    phase: Phase = "final",
    seed: int = 0,
    resamples: int = 1000,
    gold: Reference | None = None,
) -> QualitySummary:
    """The summary of the human scores (of ``study``; of the runs ``runs`` when given) the
    ``gate`` lets through, with accuracy against the reference named ``reference``: a rater,
    or ``gold`` (the study's gold references, read by the caller: quality imports no gold)."""
    every = score_columns(store, study=study, phase=phase)
    hidden = gate.hides(every)
    keep = ~hidden
    if runs is not None:
        keep &= np.isin(every.run, np.fromiter(runs, np.int64, len(runs)))
    kept = every.take(keep)
    n_left_out = len(np.unique(every.run[hidden]))
    if reference is not None and gold is not None and reference == gold.name:
        ref: Reference | None = gold
    else:
        ref = load_reference(store, reference, kept) if reference else None
    summary = summarize(kept, reference=ref, seed=seed, resamples=resamples)
    choices = ([gold.name] if gold is not None else []) + summary.references
    return summary.model_copy(
        update={
            "references": choices,
            "missing_reference": reference if reference and ref is None else None,
            "n_left_out": n_left_out,
            "blind_for": list(gate.blind_for) if n_left_out else [],
        }
    )


def finite(value: float) -> float | None:
    """``value``, or ``None`` where it could not be had (NaN): for the tables."""
    return value if math.isfinite(value) else None
