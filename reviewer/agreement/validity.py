"""Validity: does the scorer agree with the humans?

Per metric with a counterpart: Spearman's rho between the runs' consensus and the
counterpart, with a 95% interval by Fisher's z with the standard error 1.06/√(n − 3) that
Fieller, Hartley & Pearson (1957) give for Spearman's rho. Per scenario: the models ranked
by the humans (mean consensus over metrics, scaled 0–1) and by the scorer (mean scalar),
with Kendall's tau. And the runs where the two disagree most.

The consensus is :mod:`reviewer.agreement.consensus`'s (adjudicated, else agreed median;
open disputes left out). Each metric says how many of its runs an open dispute left out
(``open_left_out``) and gives rho again with them taken at their raters' median
(``rho_open_at_median``): the sensitivity of the figure to the disputes still open.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np

from reviewer.adjudication.rule import CONSENSUS_RULE
from reviewer.agreement.anchoring import AnchoringReport, anchoring_report
from reviewer.agreement.consensus import Consensus, build_consensus
from reviewer.agreement.correlation import average_ranks, kendall_tau_b, spearman_rho
from reviewer.agreement.counterparts import counterpart_table, rubric_counterparts
from reviewer.agreement.records import Output, RatingRecord, RunInfo
from reviewer.agreement.validity_table import Floats, Ints, ValidityTable
from reviewer.rubric import Rubric

INTERVAL_METHOD = "Fisher z, SE 1.06/sqrt(n-3) (Fieller, Hartley & Pearson 1957)"


class MetricValidity(Output):
    """Spearman's rho between a metric's consensus and its counterpart, over runs.

    ``open_left_out``: runs with a counterpart left out because their dispute is open;
    ``rho_open_at_median``/``n_open_at_median``: rho with those runs at their raters' median.
    """

    metric_id: str
    counterpart: str
    n: int
    rho: float | None
    ci_low: float | None
    ci_high: float | None
    note: str | None
    open_left_out: int = 0
    rho_open_at_median: float | None = None
    n_open_at_median: int | None = None


class ModelRank(Output):
    """One model of one scenario: human and scorer means (both 0–1) and ranks (1 = best)."""

    model: str
    runs: int
    human: float | None
    scorer: float | None
    human_rank: float | None
    scorer_rank: float | None


class ScenarioRanking(Output):
    """The models of one scenario ranked both ways, and Kendall's tau between the means."""

    scenario_id: str
    models: list[ModelRank]
    kendall_tau: float | None
    note: str | None


class Disagreement(Output):
    """A run where the humans (mean consensus / 3) and the scalar differ; open it."""

    run_key: str
    run_id: str | None
    scenario_id: str | None
    model: str | None
    human: float
    scorer: float
    difference: float


class ValidityReport(Output):
    """Everything ``a320-review validity`` reports."""

    interval_method: str
    consensus_rule: str = CONSENSUS_RULE
    open_disputes: int = 0
    runs_with_open_disputes: int = 0
    adjudicated: int = 0
    metrics: list[MetricValidity]
    scenarios: list[ScenarioRanking]
    disagreements: list[Disagreement]
    anchoring: AnchoringReport | None


def spearman(
    x: Sequence[float] | Floats, y: Sequence[float] | Floats
) -> tuple[float | None, float | None, float | None, str | None]:
    """``(rho, ci_low, ci_high, note)``; ``None`` with a note where it is undefined."""
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n = len(xs)
    if n < 3:
        return None, None, None, f"too few runs with both values ({n})"
    if xs.min() == xs.max() or ys.min() == ys.max():
        side = "consensus" if xs.min() == xs.max() else "counterpart"
        return None, None, None, f"the {side} is the same on every run: rho is undefined"
    rho = spearman_rho(xs, ys)
    if n < 4 or abs(rho) >= 1:
        return rho, None, None, "no interval: needs at least 4 runs and |rho| < 1"
    half = 1.96 * 1.06 / math.sqrt(n - 3)
    z = math.atanh(rho)
    return rho, math.tanh(z - half), math.tanh(z + half), None


def _rho_over(
    values: Floats, auto: Floats, order: Ints
) -> tuple[int, tuple[float | None, float | None, float | None, str | None]]:
    # Over the runs with both values, in their key's string order (as sorted keys were).
    x, y = values[order], auto[order]
    both = ~np.isnan(x) & ~np.isnan(y)
    return int(both.sum()), spearman(x[both], y[both])


def metric_validity(table: ValidityTable, metric_id: str, name: str) -> MetricValidity:
    """Rho of one metric over the runs that have both a consensus and a counterpart; the
    open disputes left out are counted and the sensitivity given."""
    auto, order = table.auto[metric_id], table.by_key()
    n, (rho, low, high, note) = _rho_over(table.score[metric_id], auto, order)
    is_open = table.open[metric_id]
    left_out = int((is_open & ~np.isnan(auto)).sum())
    at_median: float | None = None
    n_median: int | None = None
    if left_out:
        median = table.median[metric_id]
        taken = np.where(is_open & ~np.isnan(median), median, table.score[metric_id])
        n_median, (at_median, *_rest) = _rho_over(taken, auto, order)
        extra = f"{left_out} runs with an open dispute left out"
        note = f"{note}; {extra}" if note else extra
    return MetricValidity(
        metric_id=metric_id,
        counterpart=name,
        n=n,
        rho=rho,
        ci_low=low,
        ci_high=high,
        note=note,
        open_left_out=left_out,
        rho_open_at_median=at_median,
        n_open_at_median=n_median,
    )


def human_scores(consensus: Mapping[tuple[str, str], float]) -> dict[str, float]:
    """Per run, the mean consensus over its metrics, scaled 0–1 (divided by 3)."""
    per_run: dict[str, list[float]] = defaultdict(list)
    for (run_key, _metric), value in consensus.items():
        per_run[run_key].append(value / 3.0)
    return {k: float(np.mean(v)) for k, v in per_run.items()}


def _mean(values: Floats) -> float | None:
    return float(np.mean(values)) if len(values) else None


def _ranks(values: list[float | None]) -> list[float | None]:
    # Rank 1 is the best (highest) mean; ties share their average rank.
    present = [i for i, v in enumerate(values) if v is not None]
    ranked = average_ranks([-v for v in values if v is not None])  # in ``present``'s order
    out: list[float | None] = [None] * len(values)
    for i, r in zip(present, ranked, strict=True):
        out[i] = float(r)
    return out


def _grouped(table: ValidityTable) -> dict[str, dict[str, Ints]]:
    """``{scenario: {model: rows}}`` of the runs with a human score, rows in table order."""
    rows = np.flatnonzero((table.group >= 0) & ~np.isnan(table.human))
    codes = table.group[rows]
    order = np.argsort(codes, kind="stable")
    rows, codes = rows[order], codes[order]
    bounds = np.flatnonzero(np.diff(codes)) + 1
    grouped: dict[str, dict[str, Ints]] = defaultdict(dict)
    for part in np.split(rows, bounds) if len(rows) else []:
        scenario, model = table.groups[int(table.group[part[0]])]
        grouped[scenario][model] = part
    return grouped


def scenario_rankings(table: ValidityTable) -> list[ScenarioRanking]:
    """Per scenario, each model's mean human score and mean scalar, and Kendall's tau."""
    grouped = _grouped(table)
    out = []
    for scenario in sorted(grouped):
        models = sorted(grouped[scenario])
        parts = [grouped[scenario][m] for m in models]
        h = [_mean(table.human[rows]) for rows in parts]
        s = [_mean(_present(table.scalar[rows])) for rows in parts]
        both = [(a, b) for a, b in zip(h, s, strict=True) if a is not None and b is not None]
        tau, note = None, None
        if len(both) < 2:
            note = "fewer than two models with both a human and a scorer mean"
        elif len({a for a, _ in both}) < 2 or len({b for _, b in both}) < 2:
            note = "every model has the same mean on one side: tau is undefined"
        else:
            tau = kendall_tau_b([a for a, _ in both], [b for _, b in both])
        rows = [
            ModelRank(
                model=m,
                runs=len(part),
                human=a,
                scorer=b,
                human_rank=hr,
                scorer_rank=sr,
            )
            for m, part, a, b, hr, sr in zip(models, parts, h, s, _ranks(h), _ranks(s), strict=True)
        ]
        out.append(ScenarioRanking(scenario_id=scenario, models=rows, kendall_tau=tau, note=note))
    return out


def _present(values: Floats) -> Floats:
    return values[~np.isnan(values)]


def disagreements(table: ValidityTable, *, top: int = 10) -> list[Disagreement]:
    """The ``top`` runs with the largest |human − scalar|, largest first (ties: by key)."""
    rows = np.flatnonzero(~np.isnan(table.human) & ~np.isnan(table.scalar))
    difference = table.human[rows] - table.scalar[rows]
    # Ranked first, rows built for the top only (a row per run was most of the time).
    first = np.lexsort((table.key_rank()[rows], -np.abs(difference)))[:top]
    out = []
    for j in first:
        key = table.keys[int(rows[j])]
        run = table.runs[key]
        assert run.scalar is not None  # a row with a scalar has its run
        out.append(
            Disagreement(
                run_key=key,
                run_id=run.run_id,
                scenario_id=run.scenario_id,
                model=run.model,
                human=float(table.human[rows[j]]),
                scorer=run.scalar,
                difference=float(difference[j]),
            )
        )
    return out


def validity_report(
    records: Sequence[RatingRecord],
    runs: Mapping[str, RunInfo],
    counterparts: Mapping[str, str],
    *,
    consensus: Consensus | None = None,
    top: int = 10,
    anchoring: AnchoringReport | None = None,
    auto: Mapping[tuple[str, str], float] | None = None,
    human: Mapping[str, float] | None = None,
    table: ValidityTable | None = None,
) -> ValidityReport:
    """The validity report of ``records`` (one phase) against the scorer's ``runs``;
    ``consensus`` defaults to the median of ``records`` (no adjudication known).

    ``auto`` (:func:`counterpart_table` of ``runs``) and ``human`` (:func:`human_scores` of
    the consensus) may be passed in when already computed; ``table`` too, the
    :class:`ValidityTable` of all of them (the dashboard keeps one, row by row), and then
    ``records``, ``consensus``, ``auto`` and ``human`` are not read.
    """
    if table is None:
        if consensus is None:
            consensus = build_consensus(records)
        if auto is None:
            auto = counterpart_table(runs, counterparts)
        if human is None:
            human = human_scores(consensus.scores)
        table = ValidityTable.of(consensus, human, runs, counterparts, auto)
    return ValidityReport(
        interval_method=INTERVAL_METHOD,
        open_disputes=int(table.n_open.sum()),
        runs_with_open_disputes=int((table.n_open > 0).sum()),
        adjudicated=int(table.n_adjudicated.sum()),
        metrics=[metric_validity(table, m, n) for m, n in counterparts.items()],
        scenarios=scenario_rankings(table),
        disagreements=disagreements(table, top=top),
        anchoring=anchoring,
    )


def rubric_validity(
    records: Sequence[RatingRecord],
    unselected: Sequence[RatingRecord],
    runs: Mapping[str, RunInfo],
    rubric: Rubric,
    *,
    consensus: Consensus | None = None,
    top: int = 10,
    auto: Mapping[tuple[str, str], float] | None = None,
    human: Mapping[str, float] | None = None,
    table: ValidityTable | None = None,
) -> ValidityReport:
    """Validity with the counterparts ``rubric`` declares, anchoring included.

    ``records`` carry one phase's values; ``unselected`` both phases (anchoring compares
    them), as :class:`reviewer.agreement.source.Inputs` holds them. ``auto`` and ``human``
    and ``table`` as :func:`validity_report` takes them.
    """
    declared = rubric_counterparts(rubric)
    if auto is None:
        auto = counterpart_table(runs, declared)
    anchoring = anchoring_report(unselected, auto, list(declared))
    return validity_report(
        records,
        runs,
        declared,
        consensus=consensus,
        top=top,
        anchoring=anchoring,
        auto=auto,
        human=human,
        table=table,
    )
