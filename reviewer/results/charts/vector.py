"""The Vector chart: where each model loses points."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from reviewer.results.charts.common import Links, Region, colour, say_empty, short, titled
from reviewer.results.charts.stats import by_model, mean_ci
from reviewer.results.data import ResultsData

TITLE = "The vector: mean coverage, order and end state per model, 95% intervals"
FIELDS = ("coverage", "order", "end_state")


def vector_table(data: ResultsData) -> list[dict[str, Any]]:
    """Per model: n scored and each field's mean with its 95% half-width, and the mean
    counts of anti-procedure and extraneous commands per scored run."""
    rows = []
    for model, runs in by_model(data.runs).items():
        scored = [r for r in runs if r.scored]
        row: dict[str, Any] = {"model": model, "n": len(scored)}
        for name in FIELDS:
            values = [getattr(r, name) for r in scored if getattr(r, name) is not None]
            row[name], row[f"{name}_ci"] = mean_ci(values)
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
        means = [r[name] if r[name] is not None else np.nan for r in rows]
        errs = [r[f"{name}_ci"] or 0.0 for r in rows]
        ax.bar(
            xs + (j - 1) * width,
            means,
            width,
            yerr=errs,
            capsize=3,
            color=colour(j),
            label=name.replace("_", " "),
        )
    for i, r in enumerate(rows):
        links.regions.append(
            Region(ax, i - 0.45, i + 0.45, 0, 1.1, {"model": r["model"]}, f"model {r['model']}")
        )
    ax.set_xticks(xs, [short(r["model"]) for r in rows], rotation=20, ha="right")
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("mean (0–1)")
    ax.set_xlabel("model")
    ax.legend(fontsize=8, ncols=3, loc="upper center")
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
