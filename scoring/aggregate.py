"""Aggregation of ScoreCards per (scenario, model), as scoring.md defines it."""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict

from scoring.scorecard import ScoreCard

#: Group key for runs whose model cannot be known (harness errors, unreadable files).
UNKNOWN = "(unknown)"


class GroupRow(BaseModel):
    """One (scenario, model) group.

    ``n`` counts every run; the means are over the scored runs only (``n_scored``), with
    nulls skipped.  ``score_std`` is the sample standard deviation, null below two scores.
    Rates of ``dangerous``, ``provider_error`` and ``invalid`` are shares of ``n``.
    """

    model_config = ConfigDict(frozen=True)

    scenario: str
    model: str
    n: int
    n_scored: int
    score_mean: float | None
    score_std: float | None
    coverage_mean: float | None
    order_mean: float | None
    end_state_mean: float | None
    pass_rate: float | None
    dangerous_rate: float
    provider_error_rate: float
    invalid_rate: float


def aggregate(cards: Iterable[ScoreCard], *, include_errors: bool = False) -> list[GroupRow]:
    """Group ``cards`` by (scenario, model) and summarise each group, sorted by key.

    Provider-error runs are infrastructure failures: counted in ``n`` and their rate, but
    left out of the means unless ``include_errors``.
    """
    groups: dict[tuple[str, str], list[ScoreCard]] = {}
    for card in cards:
        key = (card.scenario_id or UNKNOWN, card.model or UNKNOWN)
        groups.setdefault(key, []).append(card)
    scored_statuses = {"scored", "provider_error"} if include_errors else {"scored"}
    return [
        _summarise(scenario, model, runs, scored_statuses)
        for (scenario, model), runs in sorted(groups.items())
    ]


def _summarise(scenario: str, model: str, runs: list[ScoreCard], statuses: set[str]) -> GroupRow:
    scored = [c for c in runs if c.status in statuses]
    scores = [c.scalar for c in scored if c.scalar is not None]
    n = len(runs)
    return GroupRow(
        scenario=scenario,
        model=model,
        n=n,
        n_scored=len(scored),
        score_mean=_mean(scores),
        score_std=statistics.stdev(scores) if len(scores) >= 2 else None,
        coverage_mean=_mean(c.coverage for c in scored),
        order_mean=_mean(c.order for c in scored),
        end_state_mean=_mean(c.end_state for c in scored),
        pass_rate=_mean(float(bool(c.all_passed)) for c in scored),
        dangerous_rate=sum(1 for c in runs if c.safety_dangerous) / n,
        provider_error_rate=sum(1 for c in runs if c.status == "provider_error") / n,
        invalid_rate=sum(1 for c in runs if c.status == "invalid") / n,
    )


def _mean(values: Iterable[Any]) -> float | None:
    present = [float(v) for v in values if v is not None]
    return statistics.fmean(present) if present else None
