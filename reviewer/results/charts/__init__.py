"""The chart builders, in the order the dashboard's tabs and the report's pages show them.

Each builder is ``draw(fig, data) -> Links``: it draws into an empty figure it is given
and returns what a click on it leads to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from matplotlib.figure import Figure

from reviewer.results.charts.agreement import draw_agreement
from reviewer.results.charts.common import Links, new_figure
from reviewer.results.charts.humans import draw_humans
from reviewer.results.charts.leaderboard import draw_leaderboard
from reviewer.results.charts.models import draw_models
from reviewer.results.charts.validity import draw_validity
from reviewer.results.charts.vector import draw_vector
from reviewer.results.data import ResultsData


@dataclass(frozen=True)
class Chart:
    """One chart group: its key, its tab/page title and its builder."""

    key: str
    title: str
    draw: Callable[[Figure, ResultsData], Links]


CHARTS: tuple[Chart, ...] = (
    Chart("models", "Models", draw_models),
    Chart("leaderboard", "Leaderboard", draw_leaderboard),
    Chart("vector", "The vector", draw_vector),
    Chart("humans", "The humans", draw_humans),
    Chart("agreement", "Agreement", draw_agreement),
    Chart("validity", "Validity", draw_validity),
)

__all__ = ["CHARTS", "Chart", "Links", "new_figure"]
