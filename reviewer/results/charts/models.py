"""The Models chart: the scalar per model, every run a point, unsafe runs apart."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from reviewer.results.charts.common import (
    GREY,
    UNSAFE_COLOUR,
    Links,
    Region,
    colour,
    say_empty,
    short,
    titled,
)
from reviewer.results.charts.stats import by_model, model_rates
from reviewer.results.data import ResultsData
from scoring.scorecard import UNSAFE_MEANING

TITLE = "Models: the ranking scalar per model"


def draw_models(fig: Figure, data: ResultsData) -> Links:
    """Box plots of the scalar of safe scored runs, each run a jittered point (click one to
    open it); unsafe runs in their own column with an ✕ and their count; pass and dangerous
    rates beside."""
    groups = by_model(data.runs)
    if not groups:
        return say_empty(fig, TITLE, "No runs in this selection yet: import some trajectories.")
    links = Links()
    ax, side = fig.subplots(1, 2, width_ratios=(3, 1.4))
    rng = np.random.default_rng(0)  # the same jitter every draw: points do not dance
    names = list(groups)
    for i, (model, runs) in enumerate(groups.items()):
        safe = [r for r in runs if r.scored and not r.unsafe and r.scalar is not None]
        unsafe = [r for r in runs if r.unsafe]
        values = [r.scalar for r in safe]
        if values:
            ax.boxplot(
                [values],
                positions=[i],
                widths=0.5,
                showfliers=False,  # every run is drawn as a point anyway
                medianprops={"color": "black"},
                boxprops={"color": colour(i)},
                whiskerprops={"color": colour(i)},
                capprops={"color": colour(i)},
            )
            xs = i + rng.uniform(-0.18, 0.18, len(values))
            points = ax.scatter(
                xs, values, s=14, color=colour(i), alpha=0.55, edgecolors="none", picker=True
            )
            links.points.append((points, [r.run_pk for r in safe]))
        if unsafe:
            ys = [r.scalar if r.scalar is not None else 0.0 for r in unsafe]
            xs = i + 0.38 + rng.uniform(-0.04, 0.04, len(unsafe))
            marks = ax.scatter(xs, ys, s=36, marker="X", color=UNSAFE_COLOUR, picker=True)
            links.points.append((marks, [r.run_pk for r in unsafe]))
            ax.annotate(
                f"unsafe {len(unsafe)}",
                (i + 0.38, -0.06),
                ha="center",
                va="top",
                fontsize=8,
                color=UNSAFE_COLOUR,
                annotation_clip=False,
            )
        links.regions.append(
            Region(ax, i - 0.3, i + 0.3, -0.05, 1.05, {"model": model}, f"model {model}")
        )
    ax.set_xticks(range(len(names)), [short(n) for n in names], rotation=20, ha="right")
    ax.set_xlim(-0.6, len(names) - 0.2)
    ax.set_ylim(-0.12, 1.05)
    ax.set_ylabel("scalar (0–1, safe scored runs)")
    ax.set_xlabel("model")
    n_safe = sum(1 for r in data.runs if r.scored and not r.unsafe and r.scalar is not None)
    n_unsafe = sum(r.unsafe for r in data.runs)
    titled(ax, f"{TITLE}; ✕ = unsafe ({n_unsafe}), apart", n_safe)
    # The definition under the chart, in the dashboard and the report alike.
    fig.text(0.01, 0.005, "✕ " + UNSAFE_MEANING, fontsize=7, color=GREY, va="bottom")
    ax.grid(axis="y", alpha=0.3)

    ys = np.arange(len(names))
    rates = [model_rates(groups[m]) for m in names]
    passed = [p or 0.0 for p, _ in rates]
    dangerous = [d or 0.0 for _, d in rates]
    side.barh(ys - 0.2, passed, height=0.38, color=colour(2), label="pass rate")
    side.barh(ys + 0.2, dangerous, height=0.38, color=UNSAFE_COLOUR, hatch="//", label="dangerous")
    for y, p, d in zip(ys, passed, dangerous, strict=True):
        side.text(p + 0.02, y - 0.2, f"{p:.0%}", va="center", fontsize=7)
        side.text(d + 0.02, y + 0.2, f"{d:.0%}", va="center", fontsize=7, color=GREY)
    side.set_yticks(ys, [short(n) for n in names], fontsize=8)
    side.invert_yaxis()
    side.set_xlim(0, 1.15)
    side.set_xlabel("share of runs")
    side.set_ylabel("model")
    titled(side, "Pass and dangerous rates", len(data.runs))
    side.legend(fontsize=7, loc="lower right")
    return links
