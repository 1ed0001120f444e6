"""Pure, offline scoring of recorded A320 procedure trajectories.

Typical use::

    from scoring import score_file, aggregate
    cards = [score_file(p) for p in paths]
    rows = aggregate(cards)

Nothing here imports Qt, SQLite or the application packages (checked by import-linter).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Where each public name lives.  They are imported on first use: ``score`` needs neither
#: the aggregation nor the statistics module it brings, and every command's start-up counts.
_HOMES = {
    "GroupRow": "scoring.aggregate",
    "aggregate": "scoring.aggregate",
    "Trajectory": "scoring.reader",
    "TrajectoryError": "scoring.reader",
    "parse_trajectory": "scoring.reader",
    "read_trajectory": "scoring.reader",
    "Scenario": "scoring.scenario",
    "VECTOR_FIELDS": "scoring.scorecard",
    "CommandVerdict": "scoring.scorecard",
    "RequiredAction": "scoring.scorecard",
    "ScoreCard": "scoring.scorecard",
    "SCORER_VERSION": "scoring.scorer",
    "score_file": "scoring.scorer",
    "score_trajectory": "scoring.scorer",
    "status_of": "scoring.scorer",
}

if TYPE_CHECKING:
    from scoring.aggregate import GroupRow, aggregate
    from scoring.reader import Trajectory, TrajectoryError, parse_trajectory, read_trajectory
    from scoring.scenario import Scenario
    from scoring.scorecard import VECTOR_FIELDS, CommandVerdict, RequiredAction, ScoreCard
    from scoring.scorer import SCORER_VERSION, score_file, score_trajectory, status_of


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # found once; later lookups never come back here
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = [
    "SCORER_VERSION",
    "VECTOR_FIELDS",
    "CommandVerdict",
    "GroupRow",
    "RequiredAction",
    "Scenario",
    "ScoreCard",
    "Trajectory",
    "TrajectoryError",
    "aggregate",
    "parse_trajectory",
    "read_trajectory",
    "score_file",
    "score_trajectory",
    "status_of",
]
