"""Pure, offline scoring of recorded A320 procedure trajectories.

Typical use::

    from scoring import score_file, aggregate
    cards = [score_file(p) for p in paths]
    rows = aggregate(cards)

Nothing here imports Qt, SQLite or the application packages (checked by import-linter).
"""

from scoring.aggregate import GroupRow, aggregate
from scoring.reader import Trajectory, TrajectoryError, parse_trajectory, read_trajectory
from scoring.scenario import Scenario
from scoring.scorecard import VECTOR_FIELDS, CommandVerdict, RequiredAction, ScoreCard
from scoring.scorer import SCORER_VERSION, score_file, score_trajectory, status_of

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
