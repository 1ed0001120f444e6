"""The Vector chart: where each model loses points."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from reviewer.results.charts.common import (
    Links,
    Region,
    colour,
    draw_missing,
    say_empty,
    short,
    titled,
)
from reviewer.results.charts.stats import by_model
from reviewer.results.data import ResultsData
from reviewer.results.intervals import BOOTSTRAP, bounded_means

TITLE = f"The vector: mean coverage, order and end state per model, 95% {BOOTSTRAP} intervals"
FIELDS = ("coverage", "order", "end_state")


def vector_table(data: ResultsData) -> list[dict[str, Any]]:
    """Per model: n scored and each field's mean as an
    :class:`~reviewer.results.intervals.Estimate` (95% BCa bootstrap interval, inside 0–1),
    and the counts of anti-procedure and extraneous commands of its scored runs; computed
    once per data (the chart and its table both show it)."""
    return data.once("vector_table", _vector_rows)


def _vector_rows(data: ResultsData) -> list[dict[str, Any]]:
    rows = []
    for model, runs in by_model(data.runs).items():
        scored = [r for r in runs if r.scored]
        row: dict[str, Any] = {"model": model, "n": len(scored)}
        columns = [[getattr(r, f) for r in scored if getattr(r, f) is not None] for f in FIELDS]
        # One draw of resampled positions for the fields with as many values (the same).
        row.update(zip(FIELDS, bounded_means(columns), strict=True))
        row["anti_procedure"] = sum(r.anti_procedure for r in scored)
        row["extraneous"] = sum(r.extraneous for r in scored)
        rows.append(row)
    return rows


def draw_vector(fig: Figure, data: ResultsData) -> Links:
    """Grouped bars of the vector's means with error bars, and the forbidden and
    extraneous command counts per run beside them."""
    rows = [r for r in vector_table(data) if r["n"]]
    if not rows:
        return say_empty(fig, TITLE, "No scored runs in this selection yet.")
    links = Links()
    ax, side = fig.subplots(1, 2, width_ratios=(3, 1.4))
    xs = np.arange(len(rows))
    width = 0.26
    for j, name in enumerate(FIELDS):
        estimates = [r[name] for r in rows]
        means = [e.value if e.value is not None else np.nan for e in estimates]
        errs = np.array([e.errors() for e in estimates]).T  # below, above: asymmetric
        ax.bar(
            xs + (j - 1) * width,
            means,
            width,
            yerr=errs,
            capsize=3,
            color=colour(j),
            label=name.replace("_", " "),
        )
        for x, e in zip(xs + (j - 1) * width, estimates, strict=True):
            if e.value is None:  # no run has this field: missing, never a bar at 0
                draw_missing(ax, x, width)
    for i, r in enumerate(rows):
        links.regions.append(
            Region(ax, i - 0.45, i + 0.45, 0, 1.1, {"model": r["model"]}, f"model {r['model']}")
        )
    ax.set_xticks(xs, [short(r["model"]) for r in rows], rotation=20, ha="right")
    # The band above 1 holds the legend: no mean or interval can reach it.
    ax.set_ylim(0, 1.22)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel("mean (0–1); hatched n/a = no value")
    ax.set_xlabel("model")
    ax.legend(fontsize=8, ncols=3, loc="upper center", frameon=False)
    ax.grid(axis="y", alpha=0.3)
    titled(ax, TITLE, sum(r["n"] for r in rows))

    anti = [r["anti_procedure"] / r["n"] for r in rows]
    extra = [r["extraneous"] / r["n"] for r in rows]
    side.barh(xs - 0.2, anti, height=0.38, color=colour(5), hatch="//", label="anti-procedure")
    side.barh(xs + 0.2, extra, height=0.38, color=colour(4), label="extraneous")
    for y, r, a, e in zip(xs, rows, anti, extra, strict=True):
        side.text(a, y - 0.2, f" {r['anti_procedure']}", va="center", fontsize=7)
        side.text(e, y + 0.2, f" {r['extraneous']}", va="center", fontsize=7)
    side.set_yticks(xs, [short(r["model"]) for r in rows], fontsize=8)
    side.invert_yaxis()
    side.set_xlabel("commands per scored run (total written)")
    side.set_ylabel("model")
    side.set_xlim(0, max([*anti, *extra, 0.5]) * 1.3)
    side.legend(fontsize=7, loc="lower right")
    titled(side, "Forbidden and extraneous commands", sum(r["n"] for r in rows))
    return links
