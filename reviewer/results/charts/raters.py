"""The Raters chart: each rater's bias against the others, and their drift along the queue.

Draws a :class:`~reviewer.quality.summary.QualitySummary` (not the results data: the
dashboard's Raters tab computes it on its own, the report takes it from
:attr:`~reviewer.results.data.ResultsData.quality`). Marked raters are drawn in vermillion
with a diamond and say why in words: never colour alone.
"""

from __future__ import annotations

import math
import textwrap

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from reviewer.quality.summary import QualitySummary, RaterLine
from reviewer.results.charts.common import (
    GREY,
    UNSAFE_COLOUR,
    Links,
    across,
    colour,
    dense,
    say_empty,
    short,
    shown,
    titled,
)

TITLE = "Raters: difference from the panel's consensus of the same runs (all metrics), 95% interval"
#: Drift panels drawn; beyond, the marked raters first, then the busiest.
PANELS = 6
MARK = UNSAFE_COLOUR


def draw_raters(fig: Figure, summary: QualitySummary | None) -> Links:
    """Bias per rater as a point with its interval (left), and per rater the difference
    from the others along their queue with its least-squares line (right)."""
    if summary is None:
        return say_empty(fig, TITLE, "Rater quality was not computed for this report.")
    lines = [r for r in summary.raters if r.bias is not None]
    if not lines:
        return say_empty(
            fig, TITLE, "Bias needs two raters scoring the same run: no run has that yet."
        )
    if not any(_series(line) for line in lines):
        ax = fig.add_subplot()
        _draw_bias(ax, lines)
        ax.set_xlabel(f"{ax.get_xlabel()}\nDrift: no queue positions (ratings made outside a "
                      "study)\nand no spread of submit times to estimate it from")  # fmt: skip
        return Links()
    halves = fig.subfigures(1, 2, width_ratios=(1, 1.5), squeeze=False)[0]
    left, right = halves[0], halves[1]
    _draw_bias(left.add_subplot(), lines)
    panels = sorted(lines, key=lambda r: (not (r.biased or r.drifting), -r.n_runs, r.rater))
    panels = panels[:PANELS]
    cols = 2 if len(panels) > 1 else 1
    rows = math.ceil(len(panels) / cols)
    axes = np.atleast_1d(right.subplots(rows, cols, sharey=True, squeeze=False).ravel())
    for ax, line in zip(axes, panels, strict=False):
        _draw_drift(ax, line)
    for ax in axes[len(panels) :]:
        ax.set_axis_off()
    more = len(lines) - len(panels)
    note = f" ({more} more in the table)" if more > 0 else ""
    # Wrapped to its half (bold 10 pt: 11 characters an inch), as the panels' titles are to
    # theirs: on the Raters tab's half-screen canvas they ran into each other.
    drift = f"Drift: difference from the others along each rater's queue{note}"
    chars = max(20, int(right.bbox.width / right.dpi * 0.95 * 11))
    right.suptitle("\n".join(textwrap.wrap(drift, chars)), fontsize=10, fontweight="bold",
                   x=0.02, ha="left")  # fmt: skip
    return Links()  # a rater's figure sums up many runs: nothing here opens one


def _draw_bias(ax: Axes, lines: list[RaterLine]) -> None:
    ys = np.arange(len(lines))
    for y, line in zip(ys, lines, strict=True):
        cell = line.bias
        assert cell is not None
        marked = cell.flagged
        tint = MARK if marked else colour(0)
        if math.isfinite(cell.low):
            ax.plot([cell.low, cell.high], [y, y], color=tint, lw=2.5, alpha=0.6)
        ax.plot(cell.bias, y, "D" if marked else "o", color=tint, ms=7)
        why = "  biased" if marked else ""
        ax.annotate(f"{cell.bias:+.2f}{why}", (1.0, y), xycoords=("axes fraction", "data"),
                    xytext=(4, 0), textcoords="offset points", va="center", fontsize=8,
                    color=tint, annotation_clip=False)  # fmt: skip
    ax.axvline(0, color=GREY, lw=1)
    ax.set_yticks(ys, [short(shown(r.rater), 16) for r in lines], fontsize=8)
    ax.invert_yaxis()
    words = "score points (rater − the panel's consensus); ◆ = interval excludes 0"
    ax.set_xlabel("\n".join(textwrap.wrap(words, across(ax, 12))))
    ax.grid(axis="x", alpha=0.3)
    titled(ax, "Bias per rater", f"{sum(r.n_runs for r in lines)} rater-runs")


def _series(line: RaterLine) -> tuple[list[tuple[float, float]], float, str, str] | None:
    """What to plot: along queue position where the rater has one, else over time."""
    by_position = [(float(p.position), p.difference) for p in line.points
                   if p.position is not None]  # fmt: skip
    by_day = [(p.days, p.difference) for p in line.points if math.isfinite(p.days)]
    if len({x for x, _ in by_position}) >= 2:
        return by_position, line.per_position, "run", "queue position"
    if len({x for x, _ in by_day}) >= 2:
        return by_day, line.per_day, "day", "days since first submit"
    return None


def _draw_drift(ax: Axes, line: RaterLine) -> None:
    series = _series(line)
    if series is None:
        ax.set_axis_off()
        ax.set_title(short(shown(line.rater), 24), loc="left", fontsize=9, fontweight="bold")
        why = "no queue positions or times to\nestimate drift from"
        ax.text(0.5, 0.5, why, ha="center", va="center", fontsize=8, color=GREY,
                transform=ax.transAxes)  # fmt: skip
        return
    pts, slope, unit, axis = series
    tint = MARK if line.drifting else colour(0)
    xs = np.array([x for x, _ in pts])
    ys = np.array([d for _, d in pts])
    ax.scatter(xs, ys, s=10, color=tint, alpha=0.6, marker="D" if line.drifting else "o",
               rasterized=dense(len(xs)))  # fmt: skip
    if math.isfinite(slope):
        intercept = ys.mean() - slope * xs.mean()
        ends = np.array([xs.min(), xs.max()])
        ax.plot(ends, intercept + slope * ends, color=tint, lw=1.5)
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xlabel(axis, fontsize=7)
    ax.tick_params(labelsize=7)
    state = "DRIFTING" if line.drifting else "steady"
    text = f"{slope:+.3f}/{unit}" if math.isfinite(slope) else "slope n/a"
    title = f"{short(shown(line.rater), 18)}: {text}, {state}"
    ax.set_title("\n".join(textwrap.wrap(title, across(ax, 13))), loc="left", fontsize=8,
                 fontweight="bold", color=tint)  # fmt: skip
