"""Each view's per-run values, as plain data the board ranks (no store, no results)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class RunLike(Protocol):
    """What a view needs of a run (``reviewer.leaderboard.runs.RunPoint`` has it)."""

    @property
    def run_pk(self) -> int: ...
    @property
    def run_id(self) -> str | None: ...
    @property
    def scenario_id(self) -> str | None: ...
    @property
    def model(self) -> str | None: ...
    @property
    def scalar(self) -> float | None: ...
    @property
    def unsafe(self) -> bool: ...
    @property
    def all_passed(self) -> bool | None: ...


@dataclass(frozen=True)
class RunValue:
    """One run's value in a view, with the scorer's facts the leaderboard counts apart."""

    run_pk: int
    run_id: str | None
    scenario: str
    model: str
    value: float | None
    unsafe: bool
    passed: bool | None


@dataclass(frozen=True)
class ViewValues:
    """A view's runs, and what it could not give a value (said beside every figure)."""

    view: str
    metric: str | None
    runs: tuple[RunValue, ...]
    #: runs of the selection with no value in this view (not rated, open dispute, no scalar)
    without_value: int
    #: of those, runs whose only consensus is an open dispute
    open_disputes: int = 0


def values_of(
    view: str,
    metric: str | None,
    runs: Sequence[RunLike],
    value_of: dict[int, float],
    opened: int = 0,
) -> ViewValues:
    out = tuple(
        RunValue(
            r.run_pk,
            r.run_id,
            r.scenario_id or "",
            r.model or "",
            value_of.get(r.run_pk),
            r.unsafe,
            r.all_passed,
        )
        for r in runs
    )
    missing = sum(v.value is None for v in out)
    return ViewValues(view, metric, out, missing, opened)


def scorer_values_of(runs: Sequence[RunLike]) -> ViewValues:
    """The scalar of each of ``runs`` that has one (the dashboard passes the runs it shows,
    already narrowed to what the viewer may see)."""
    runs = [r for r in runs if r.scenario_id is not None and r.model is not None]
    return values_of(
        "scorer", None, runs, {r.run_pk: r.scalar for r in runs if r.scalar is not None}
    )
