"""The leaderboard of one view, its pairwise differences, and how the views agree."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from reviewer.intervals import wilson
from reviewer.leaderboard import stats
from reviewer.leaderboard.values import RunValue, ViewValues

METHOD = (
    "score: mean over scenarios of the model's mean over its runs there; 95% intervals: "
    "bootstrap resampling scenarios, then runs within each, around centres adjusted so run "
    "noise counts once, with Student's t tails for the number of scenarios ({resamples} "
    "replicates, seed {seed}); pass and dangerous rates: Wilson 95% intervals over runs"
)


def scale(view: str) -> tuple[float, float]:
    """Where a view's per-run values lie: the scalar in 0–1, rubric scores in 0–3."""
    return (0.0, 1.0) if view == "scorer" else (0.0, 3.0)


@dataclass(frozen=True)
class ModelRow:
    """One model on the board."""

    model: str
    rank: int
    rank_low: int
    rank_high: int
    score: float
    low: float
    high: float
    n_runs: int
    n_scenarios: int
    #: runs that have a pass/fail verdict, and how many passed every check
    n_checked: int
    passed: int
    pass_low: float
    pass_high: float
    #: runs of the model in this view (before --safe-only), and how many were unsafe
    n_safety: int
    unsafe: int
    unsafe_low: float
    unsafe_high: float
    #: unsafe runs --safe-only left out of the score
    left_out_unsafe: int = 0

    @property
    def pass_rate(self) -> float:
        return self.passed / self.n_checked if self.n_checked else math.nan

    @property
    def dangerous_rate(self) -> float:
        return self.unsafe / self.n_safety if self.n_safety else math.nan


@dataclass(frozen=True)
class PairRow:
    """Model ``a`` minus model ``b``, paired by the scenarios both have."""

    a: str
    b: str
    difference: float
    low: float
    high: float
    shared_scenarios: int

    @property
    def distinguishable(self) -> bool:
        """The interval excludes 0."""
        return (self.low > 0 or self.high < 0) and math.isfinite(self.low)


@dataclass(frozen=True)
class Board:
    """One view's ranking."""

    view: str
    metric: str | None
    rows: tuple[ModelRow, ...]
    pairs: tuple[PairRow, ...]
    method: str
    resamples: int
    seed: int
    safe_only: bool
    #: runs of the selection without a value in this view, and of those the open disputes
    without_value: int
    open_disputes: int
    notes: tuple[str, ...] = field(default=())


def build(
    values: ViewValues, *, resamples: int = 2000, seed: int = 0, safe_only: bool = False
) -> Board:
    """Rank the models of ``values``."""
    valued = [r for r in values.runs if r.value is not None]
    kept = [(r, r.value) for r in valued if r.value is not None and not (safe_only and r.unsafe)]
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r, value in kept:
        cells[(r.scenario, r.model)].append(value)
    notes = []
    if values.without_value:
        notes.append(
            f"{values.without_value} run(s) of the selection have no value in this view"
            + (f" ({values.open_disputes} with an open dispute)" if values.open_disputes else "")
        )
    if safe_only:
        notes.append(f"--safe-only: {len(valued) - len(kept)} unsafe run(s) left out of the scores")
    method = METHOD.format(resamples=resamples, seed=seed)
    bounds = scale(values.view)
    if not cells:
        return Board(values.view, values.metric, (), (), method, resamples, seed, safe_only,
                     values.without_value, values.open_disputes, tuple(notes))  # fmt: skip
    reps = stats.bootstrap(cells, resamples=resamples, seed=seed)
    point = reps.point()
    scores = reps.scores()
    ranks = stats.point_ranks(point)
    rank_ci = stats.rank_intervals(scores)
    by_model: dict[str, list[RunValue]] = defaultdict(list)
    for r in valued:
        by_model[r.model].append(r)
    rows = []
    for m, model in enumerate(reps.models):
        runs = by_model[model]
        n_scenarios = sum(1 for (_, mm) in cells if mm == model)
        low, high = stats.percentile_interval(scores[:, m], clusters=n_scenarios, bounds=bounds)
        checked = [r for r in runs if r.passed is not None]
        passed = sum(bool(r.passed) for r in checked)
        unsafe = sum(r.unsafe for r in runs)
        rows.append(
            ModelRow(
                model=model,
                rank=ranks[m],
                rank_low=rank_ci[m][0],
                rank_high=rank_ci[m][1],
                score=float(point[m]),
                low=low,
                high=high,
                n_runs=sum(len(v) for (_, mm), v in cells.items() if mm == model),
                n_scenarios=n_scenarios,
                n_checked=len(checked),
                passed=passed,
                pass_low=wilson(passed, len(checked))[0],
                pass_high=wilson(passed, len(checked))[1],
                n_safety=len(runs),
                unsafe=unsafe,
                unsafe_low=wilson(unsafe, len(runs))[0],
                unsafe_high=wilson(unsafe, len(runs))[1],
                left_out_unsafe=unsafe if safe_only else 0,
            )
        )
    rows.sort(key=lambda r: (r.rank, r.model))
    pairs = []
    order = {r.model: i for i, r in enumerate(rows)}
    for a, b in combinations(range(len(reps.models)), 2):
        if order[reps.models[a]] > order[reps.models[b]]:
            a, b = b, a
        diff, replicates, shared = stats.pair_difference(
            cells, reps.models[a], reps.models[b], resamples=resamples, seed=seed
        )
        low, high = stats.percentile_interval(
            replicates, clusters=shared, bounds=(bounds[0] - bounds[1], bounds[1] - bounds[0])
        )
        pairs.append(PairRow(reps.models[a], reps.models[b], diff, low, high, shared))
    pairs.sort(key=lambda p: (order[p.a], order[p.b]))
    return Board(values.view, values.metric, tuple(rows), tuple(pairs), method, resamples, seed,
                 safe_only, values.without_value, values.open_disputes, tuple(notes))  # fmt: skip


@dataclass(frozen=True)
class Driver:
    """A run on which two views disagree most, for a pair of models they order differently."""

    run_id: str | None
    model: str
    scenario: str
    a_value: float
    b_value: float


@dataclass(frozen=True)
class ViewAgreement:
    """Kendall's tau between two views' rankings of the models both rank."""

    a: str
    b: str
    tau: float
    low: float
    high: float
    n_models: int
    n_runs: int
    drivers: tuple[Driver, ...]


def _unit(view: str, value: float) -> float:
    """A view's value on a 0–1 scale, so two views' per-run values can be set side by side."""
    return value / scale(view)[1]


def agreement(
    a: ViewValues, b: ViewValues, *, resamples: int = 2000, seed: int = 0, drivers: int = 3
) -> ViewAgreement:
    """Tau between the model rankings of ``a`` and ``b`` over the runs both value, with a
    bootstrap interval (runs drawn jointly for both views), and the runs that drive the
    disagreement: for each pair of models the two views order differently, the runs of
    those models whose values (on a 0–1 scale) differ most between the views."""
    b_value = {r.run_pk: r.value for r in b.runs if r.value is not None}
    both = [
        (r, r.value, b_value[r.run_pk])
        for r in a.runs
        if r.value is not None and r.run_pk in b_value
    ]
    cells: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for r, x, y in both:
        cells[(r.scenario, r.model)].append((x, y))
    models = sorted({m for _, m in cells})
    if len(models) < 2:
        return ViewAgreement(
            a.view, b.view, math.nan, math.nan, math.nan, len(models), len(both), ()
        )
    ra, rb = stats.bootstrap_columns(cells, resamples=resamples, seed=seed)
    tau = stats.kendall_tau(ra.point(), rb.point())
    sa, sb = ra.scores(), rb.scores()
    taus = stats.kendall_taus(sa, sb)
    low, high = stats.percentile_interval(taus)
    pa, pb = ra.point(), rb.point()
    found: list[Driver] = []
    for i, j in combinations(range(len(ra.models)), 2):
        if (pa[i] - pa[j]) * (pb[i] - pb[j]) < 0:
            pair = {ra.models[i], ra.models[j]}
            runs = [x for x in both if x[0].model in pair]
            runs.sort(key=lambda x: -abs(_unit(a.view, x[1]) - _unit(b.view, x[2])))
            found += [Driver(r.run_id, r.model, r.scenario, x, y) for r, x, y in runs[:drivers]]
    return ViewAgreement(a.view, b.view, tau, low, high, len(models), len(both), tuple(found))
