"""The Leaderboard chart: each model's score with its 95% interval, in rank order, with its
rank range and its dangerous rate beside it (unsafe runs are counted apart, never hidden)."""

from __future__ import annotations

import math

from matplotlib.figure import Figure

from reviewer.leaderboard.board import Board, scale
from reviewer.results.charts.common import GREY, UNSAFE_COLOUR, Links, colour, say_empty, titled

TITLE = "Leaderboard: score per model, 95% interval (scenarios, then runs, resampled)"


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
        danger = f"dangerous {row.unsafe}/{row.n_safety}" if row.unsafe else "no dangerous run"
        ax.text(
            1.01, y, f"rank {row.rank} ({row.rank_low}–{row.rank_high})  ·  {danger}",
            transform=ax.get_yaxis_transform(), va="center", fontsize=8,
            color=UNSAFE_COLOUR if row.unsafe else GREY,
        )  # fmt: skip
    ax.set_yticks(range(len(rows)), [r.model for r in rows])
    ax.invert_yaxis()
    ax.set_xlim(low_bound, high_bound)
    what = "scalar (0–1)" if board.view == "scorer" else f"{board.view} score (0–3)"
    if board.metric:
        what += f", {board.metric}"
    ax.set_xlabel(f"mean over scenarios of the mean {what} per run")
    ax.grid(axis="x", alpha=0.3)
    runs = sum(r.n_runs for r in rows)
    titled(ax, TITLE, f"{len(rows)} models, {runs} runs")
    notes = "; ".join(board.notes)
    fig.text(0.01, 0.005, notes, fontsize=7, color=GREY, ha="left", va="bottom", wrap=True)
    return Links()
