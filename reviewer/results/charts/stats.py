"""Small numeric helpers the charts and tables share (numpy and scipy, no matplotlib)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

from reviewer.leaderboard.runs import RunPoint
from reviewer.results.data import ResultsData
from reviewer.results.intervals import Estimate, wilson


def by_model(runs: Iterable[RunPoint]) -> dict[str, list[RunPoint]]:
    """Runs grouped by model, models sorted case-insensitively; a run without a model (an
    unreadable file) belongs to none."""
    groups: dict[str, list[RunPoint]] = defaultdict(list)
    for r in runs:
        if r.model is not None:
            groups[r.model].append(r)
    return dict(sorted(groups.items(), key=lambda kv: kv[0].casefold()))


def rate(hits: int, n: int) -> float | None:
    """``hits / n``, or ``None`` for no denominator."""
    return hits / n if n else None


def model_rates(runs: Sequence[RunPoint]) -> tuple[float | None, float | None]:
    """Pass rate (share of scored runs with every check passed) and dangerous rate (share of
    every run with a dangerous command), as the scoring spec's aggregation defines them."""
    scored = [r for r in runs if r.scored]
    return (
        rate(sum(bool(r.all_passed) for r in scored), len(scored)),
        rate(sum(r.unsafe for r in runs), len(runs)),
    )


def model_rate_estimates(runs: Sequence[RunPoint]) -> tuple[Estimate, Estimate]:
    """:func:`model_rates` with their 95% Wilson intervals and n."""
    scored = [r for r in runs if r.scored]
    return (
        wilson(sum(bool(r.all_passed) for r in scored), len(scored)),
        wilson(sum(r.unsafe for r in runs), len(runs)),
    )


def consensus_by_model(data: ResultsData) -> dict[str, dict[str, tuple[float, int]]]:
    """``{model: {metric_id: (mean consensus 0–3, runs)}}`` over the runs with a consensus;
    a rated model without any has an empty row. Computed once per data: the Humans chart
    and its table both show it (a pass over every record and consensus value, each)."""
    return data.once("consensus_by_model", _consensus_by_model)


def _consensus_by_model(data: ResultsData) -> dict[str, dict[str, tuple[float, int]]]:
    model_of = {str(r.run_pk): r.model or "?" for r in data.runs}
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (run_key, metric_id), value in data.consensus.items():
        if run_key in model_of:
            sums[model_of[run_key]][metric_id].append(value)
    # Every rated model gets its row: one whose every value is still disputed shows as
    # missing (n/a), never left off.
    rated = {model_of[k] for k in data.rated_runs() if k in model_of}
    return {
        model: {m: (math.fsum(v) / len(v), len(v)) for m, v in sums.get(model, {}).items()}
        for model in sorted(set(sums) | rated, key=str.casefold)
    }
