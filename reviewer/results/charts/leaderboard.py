"""The Leaderboard chart: each model's score with its 95% interval, in rank order, with its
rank range and its dangerous rate beside it (unsafe runs are counted apart, never hidden)."""

from __future__ import annotations

import math

from matplotlib.figure import Figure

from reviewer.leaderboard.board import Board, scale
from reviewer.results.charts.common import (
    UNSAFE_COLOUR,
    Links,
    colour,
    say_empty,
    short,
    titled,
)
from reviewer.results.data import ResultsData

TITLE = "Leaderboard: score per model, 95% interval (scenarios, then runs, resampled)"


def draw_leaderboard(fig: Figure, data: ResultsData) -> Links:
    """The leaderboard of the selection's runs by the scorer (``a320-review leaderboard``
    prints the same board, and the humans' and judges' too)."""
    if data.leaderboard is None and any(r.scalar is not None for r in data.runs):
        # The dashboard shows the point values first; the board is a bootstrap that follows.
        return say_empty(fig, TITLE, "Computing the leaderboard's intervals…")
    return draw_board(fig, data.leaderboard)


def draw_board(fig: Figure, board: Board | None) -> Links:
    """Draw ``board``: a dot and an interval per model, best at the top."""
    if board is None or not board.rows:
        return say_empty(fig, TITLE, "No run has a score in this selection yet.")
    low_bound, high_bound = scale(board.view)
    ax = fig.add_subplot()
    rows = board.rows
    for y, row in enumerate(rows):
        if math.isfinite(row.low) and math.isfinite(row.high):
            ax.plot([row.low, row.high], [y, y], color=colour(0), lw=2.5, alpha=0.6)
        ax.plot(row.score, y, "o", color=colour(0), ms=7)
        if row.unsafe:  # the dangerous runs, on the row itself: never averaged away
            ax.plot(row.score, y, "X", color=UNSAFE_COLOUR, ms=9, alpha=0.9)
    labels = [
        f"{short(r.model, 24)}\nrank {r.rank} ({r.rank_low}–{r.rank_high}), "
        f"dangerous {r.unsafe}/{r.n_safety}"
        for r in rows
    ]
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.set_ylabel("model, best first (rank range over the replicates)")
    ax.invert_yaxis()
    ax.set_xlim(low_bound, high_bound)
    what = "scalar (0–1)" if board.view == "scorer" else f"{board.view} score (0–3)"
    if board.metric:
        what += f", {board.metric}"
    ax.set_xlabel(f"mean over scenarios of the mean {what} per run")
    ax.grid(axis="x", alpha=0.3)
    runs = sum(r.n_runs for r in rows)
    titled(ax, TITLE, f"{len(rows)} models, {runs} runs")
    marks = "✕: the model flew a dangerous command (dangerous runs / its runs)"
    ax.set_xlabel(
        f"{ax.get_xlabel()}\n" + "; ".join(filter(None, [marks, *board.notes])), fontsize=8
    )
    return Links()
