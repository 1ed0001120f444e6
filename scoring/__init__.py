"""Pure, offline scoring of recorded A320 procedure trajectories.

Typical use::

    from scoring import score_file, aggregate
    cards = [score_file(p) for p in paths]
    rows = aggregate(cards)

Nothing here imports Qt, SQLite or the application packages (checked by import-linter).
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.aggregate import GroupRow, aggregate
    from scoring.reader import Trajectory, TrajectoryError, parse_trajectory, read_trajectory
    from scoring.scenario import Scenario
    from scoring.scorecard import VECTOR_FIELDS, CommandVerdict, RequiredAction, ScoreCard
    from scoring.scorer import SCORER_VERSION, score_file, score_trajectory, status_of

#: Where each name of the package lives: a module is imported when one of its names is
#: first used (PEP 562), so a reader of stored ScoreCards (the dashboard, the store opened
#: to read) loads the ScoreCard's models without the trajectory reader and the scorer.
_WHERE = {
    "GroupRow": "aggregate",
    "aggregate": "aggregate",
    "Trajectory": "reader",
    "TrajectoryError": "reader",
    "parse_trajectory": "reader",
    "read_trajectory": "reader",
    "Scenario": "scenario",
    "VECTOR_FIELDS": "scorecard",
    "CommandVerdict": "scorecard",
    "RequiredAction": "scorecard",
    "ScoreCard": "scorecard",
    "SCORER_VERSION": "scorer",
    "score_file": "scorer",
    "score_trajectory": "scorer",
    "status_of": "scorer",
}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    loaded = importlib.import_module(f"scoring.{module}")
    # Every name of that module found directly from now on. All of them at once: importing
    # ``scoring.aggregate`` sets this package's ``aggregate`` to the submodule, which the
    # function of that name must replace even when ``GroupRow`` was asked for first.
    for other, where in _WHERE.items():
        if where == module:
            globals()[other] = getattr(loaded, other)
    return globals()[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
