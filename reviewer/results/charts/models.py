"""The Models chart: the scalar per model, every run a point, unsafe runs apart."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.figure import Figure

from reviewer.results.charts.common import (
    GREY,
    UNSAFE_COLOUR,
    Links,
    Region,
    across,
    colour,
    dense,
    say_empty,
    short,
    titled,
)
from reviewer.results.charts.stats import by_model, model_rate_estimates
from reviewer.results.data import ResultsData
from scoring.scorecard import UNSAFE_MEANING

TITLE = "Models: the ranking scalar per model"
#: Said under the chart: the points are spread sideways so that equal values stay visible.
JITTER_NOTE = "points jittered sideways (±0.18) to show every run; the vertical position is exact"


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
    raster = dense(len(data.runs))
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
                xs,
                values,
                s=14,
                color=colour(i),
                alpha=0.55,
                edgecolors="none",
                picker=True,
                rasterized=raster,
            )
            links.points.append((points, [r.run_pk for r in safe]))
        if unsafe:
            ys = [r.scalar if r.scalar is not None else 0.0 for r in unsafe]
            xs = i + 0.38 + rng.uniform(-0.04, 0.04, len(unsafe))
            marks = ax.scatter(xs, ys, s=36, marker="X", color=UNSAFE_COLOUR, picker=True,
                               rasterized=raster)  # fmt: skip
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
    # Under the axis title, in the dashboard and the report alike: how the points are
    # placed and what ✕ means. Anchored to the x label, inside the layout, so the two never
    # overlap each other or the label (a figure text at the bottom and an axes text at a
    # fixed fraction met on a short figure).
    # Wrapped to the axes' width (7 pt: about 17 characters an inch): at a fixed 110 they
    # reached under the side panel on a narrow canvas and pushed it off the figure.
    width = across(ax, 17)
    notes = [*textwrap.wrap(JITTER_NOTE, width), *textwrap.wrap("✕ " + UNSAFE_MEANING, width)]
    ax.annotate("\n".join(notes), xy=(0, 0), xycoords=("axes fraction", ax.xaxis.label),
                xytext=(0, -4), textcoords="offset points", va="top", fontsize=7,
                color=GREY, annotation_clip=False)  # fmt: skip
    ax.grid(axis="y", alpha=0.3)

    rows = np.arange(len(names))
    rates = [model_rate_estimates(groups[m]) for m in names]
    for offset, which, colour_, hatch, label in (
        (-0.2, 0, colour(2), None, "pass rate (scored runs)"),
        (0.2, 1, UNSAFE_COLOUR, "//", "dangerous (all runs)"),
    ):
        estimates = [r[which] for r in rates]
        values = [e.value if e.value is not None else np.nan for e in estimates]
        errs = np.array([e.errors() for e in estimates]).T
        side.barh(rows + offset, values, height=0.38, color=colour_, hatch=hatch, label=label,
                  xerr=errs, error_kw={"elinewidth": 0.8, "capsize": 2})  # fmt: skip
        for y, e in zip(rows + offset, estimates, strict=True):
            if e.value is None:  # no scored run: missing, never a bar at 0
                side.text(0.02, y, "n/a", va="center", fontsize=7, color=GREY)
            else:
                end = e.high if e.high is not None else e.value
                side.text(end + 0.02, y, f"{e.value:.0%} n={e.n}", va="center", fontsize=7)
    side.set_yticks(rows, [short(n) for n in names], fontsize=8)
    side.invert_yaxis()
    side.set_xlim(0, 1.35)
    # Five labels of 10 pt need about 2.2 inches of axis (22 characters at 10 an inch);
    # on a narrower canvas they ran into each other: three then.
    side.set_xticks([0, 0.25, 0.5, 0.75, 1.0] if across(side, 10) > 22 else [0, 0.5, 1.0])
    side.set_xlabel("share of runs, 95% Wilson interval")
    side.set_ylabel("model")
    titled(side, "Pass and dangerous rates", len(data.runs))
    # Below the axes: inside, it would sit on the bars.
    side.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=1)
    return links
