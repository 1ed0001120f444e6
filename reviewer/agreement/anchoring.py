"""Anchoring: how far the automatic score pulls human judgment, in blind studies.

Two measures. **Revisions**: in the blind arm, each rater first scores without the scorer's
view (the blind value), then sees it and confirms or revises (the final value); we count
revised items, the mean size of a score revision, and the share of score revisions that
moved toward the counterpart (on the 0–3 scale, ``3·c``). **Arms**: the control arm saw the
scorer from the start; the mean distance of its scores to ``3·c`` against that of the blind
arm's blind scores, their difference (control − blind) and its 95% Welch interval. A
negative difference means scores made with the scorer in view sit closer to it.

The Welch interval treats items as independent; items of the same run are not, so it is
optimistic when raters score many metrics of few runs.

**Pull** (the size of anchoring, :mod:`reviewer.agreement.anchoring_pull`): the share of the
distance to the scorer that blind-arm revisions close, the slope of the revision on the
blind distance through 0, with a 95% two-way cluster bootstrap interval (raters and runs).
The mean revision cannot say this: it averages only revised items.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from reviewer.agreement.anchoring_pull import PULL_METHOD, pull
from reviewer.agreement.records import Output, RatingRecord
from reviewer.stats_kernels import welch_interval


class AnchoringRow(Output):
    """Anchoring figures over one metric (or all metrics with a counterpart: ``"*"``)."""

    metric_id: str
    items: int
    revised: int
    share_revised: float | None
    mean_revision: float | None
    score_revisions: int
    share_toward_counterpart: float | None
    control_n: int
    control_distance: float | None
    blind_n: int
    blind_distance: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    note: str | None
    pull: float | None = None
    pull_ci_low: float | None = None
    pull_ci_high: float | None = None
    pull_items: int = 0
    pull_method: str = PULL_METHOD
    pull_note: str | None = None


class AnchoringReport(Output):
    """Pooled over metrics with a counterpart (``overall``) and per metric."""

    overall: AnchoringRow
    by_metric: list[AnchoringRow]


def _target(r: RatingRecord, counterpart: Mapping[tuple[str, str], float]) -> float | None:
    c = counterpart.get((r.run_key, r.metric_id))
    return None if c is None else 3.0 * c


def _welch(a: list[float], b: list[float]) -> tuple[float | None, float | None, str | None]:
    if len(a) < 2 or len(b) < 2:
        return None, None, "no interval: each arm needs at least two scores"
    a, b = _settled(a), _settled(b)
    if np.var(a) == 0 and np.var(b) == 0:
        return None, None, "no interval: the distances do not vary in either arm"
    # One arm that does not vary has a variance of exactly 0, which Welch's interval takes
    # as it is (scipy.stats warned that its moments lost precision: they did not).
    low, high = welch_interval(a, b, level=0.95)
    return low, high, None


def _settled(values: list[float]) -> list[float]:
    """``values``, or their mean repeated when they differ only by rounding (distances
    computed as 3 x a 0-1 counterpart differ in their last bits)."""
    spread = float(np.ptp(values))
    if spread <= 1e-9 * max(1.0, float(np.max(np.abs(values)))):
        return [float(np.mean(values))] * len(values)
    return values


def anchoring_row(
    metric_id: str,
    records: Sequence[RatingRecord],
    counterpart: Mapping[tuple[str, str], float],
) -> AnchoringRow:
    """The figures over ``records`` (unselected: final and blind values both present)."""
    blind = [r for r in records if r.has_blind and r.reveal_first is not True]
    revised = [r for r in blind if (r.blind_outcome, r.blind_score) != (r.outcome, r.score)]
    sizes, toward = [], []
    for r in revised:
        if r.blind_score is None or r.score is None:
            continue  # an outcome change (e.g. to Not observed) has no size on the scale
        sizes.append(abs(r.score - r.blind_score))
        t = _target(r, counterpart)
        if t is not None:
            toward.append(abs(r.score - t) < abs(r.blind_score - t))
    control = [
        abs(r.score - t)
        for r in records
        if r.reveal_first is True
        and r.score is not None
        and (t := _target(r, counterpart)) is not None
    ]
    first = [
        abs(r.blind_score - t)
        for r in blind
        if r.blind_score is not None and (t := _target(r, counterpart)) is not None
    ]
    diff = float(np.mean(control) - np.mean(first)) if control and first else None
    low, high, note = _welch(control, first)
    size = pull(records, counterpart, key=metric_id)
    return AnchoringRow(
        metric_id=metric_id,
        items=len(blind),
        revised=len(revised),
        share_revised=len(revised) / len(blind) if blind else None,
        mean_revision=float(np.mean(sizes)) if sizes else None,
        score_revisions=len(toward),
        share_toward_counterpart=float(np.mean(toward)) if toward else None,
        control_n=len(control),
        control_distance=float(np.mean(control)) if control else None,
        blind_n=len(first),
        blind_distance=float(np.mean(first)) if first else None,
        difference=diff,
        ci_low=low,
        ci_high=high,
        note=note,
        pull=size.value,
        pull_ci_low=size.ci_low,
        pull_ci_high=size.ci_high,
        pull_items=size.items,
        pull_note=size.note,
    )


def anchoring_report(
    records: Sequence[RatingRecord],
    counterpart: Mapping[tuple[str, str], float],
    metric_ids: Sequence[str],
) -> AnchoringReport | None:
    """Anchoring over the metrics ``metric_ids`` (those with a counterpart); ``None`` when
    no record carries a blind value (not a blind study)."""
    if not any(r.has_blind for r in records):
        return None
    wanted = [r for r in records if r.metric_id in set(metric_ids)]
    return AnchoringReport(
        overall=anchoring_row("*", wanted, counterpart),
        by_metric=[
            anchoring_row(m, [r for r in wanted if r.metric_id == m], counterpart)
            for m in metric_ids
        ],
    )
