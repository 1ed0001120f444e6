"""The Humans chart: what the raters concluded, per metric and model."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from reviewer.results.charts.common import GREY, Links, Region, colour, say_empty, short, titled
from reviewer.results.charts.stats import consensus_by_model
from reviewer.results.data import ResultsData
from reviewer.results.intervals import wilson

TITLE = "The humans: mean consensus score (0–3) per metric and model"


def draw_humans(fig: Figure, data: ResultsData) -> Links:
    """A model × metric heatmap of the mean consensus with the values written in (click a
    cell to list that model's runs), and the Not applicable / Not observed rates."""
    if not data.n_records:
        return say_empty(fig, TITLE, "No submitted ratings in this selection yet.")
    table = consensus_by_model(data)
    metrics = [m for m in data.metrics if any(m.id in row for row in table.values())]
    models = list(table)
    links = Links()
    ax, side = fig.subplots(1, 2, width_ratios=(3, 1.4))
    if metrics and models:
        grid = np.full((len(models), len(metrics)), np.nan)
        counts = np.zeros_like(grid, dtype=int)
        for i, model in enumerate(models):
            for j, m in enumerate(metrics):
                if m.id in table[model]:
                    grid[i, j], counts[i, j] = table[model][m.id]
        image = ax.imshow(grid, cmap="cividis", vmin=0, vmax=3, aspect="auto")
        for i in range(len(models)):
            for j in range(len(metrics)):
                if np.isnan(grid[i, j]):  # no consensus score: missing, never a colour
                    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///",
                                           edgecolor=GREY, linewidth=0))  # fmt: skip
                    ax.text(j, i, "n/a", ha="center", va="center", fontsize=7, color=GREY)
                else:
                    dark = grid[i, j] < 1.6
                    ax.text(
                        j,
                        i,
                        f"{grid[i, j]:.2f}\nn={counts[i, j]}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if dark else "black",
                    )
            links.regions.append(
                Region(
                    ax,
                    -0.5,
                    len(metrics) - 0.5,
                    i - 0.5,
                    i + 0.5,
                    {"model": models[i]},
                    f"model {models[i]}",
                )
            )
        ax.set_xticks(range(len(metrics)), [short(m.title, 16) for m in metrics], rotation=30)
        ax.tick_params(axis="x", labelsize=7)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
        ax.set_yticks(range(len(models)), [short(m) for m in models], fontsize=8)
        ax.set_xlabel("rubric metric")
        ax.set_ylabel("model")
        fig.colorbar(
            image, ax=ax, label="mean consensus (adjudicated, else agreed median)", shrink=0.8
        )
        n_runs = len(data.rated_runs())
        left_out = data.full_consensus.open_count()
        titled(ax, f"{TITLE}; open disputes left out: {left_out}", f"{n_runs} runs")
    else:
        ax.set_axis_off()
        ax.text(0.5, 0.5, "Every rated item is N/A or N/O: no score.", ha="center")

    rates = data.outcome_rates
    shown = [m for m in data.metrics if m.id in rates]
    ys = np.arange(len(shown))
    highest = 0.2
    for offset, which, colour_, hatch, label in (
        (-0.2, 1, colour(1), None, "not applicable"),
        (0.2, 2, colour(3), "..", "not observed"),
    ):
        estimates = [wilson(round(rates[m.id][which] * rates[m.id][0]), rates[m.id][0])
                     for m in shown]  # fmt: skip
        values = [e.value or 0.0 for e in estimates]
        errs = np.array([e.errors() for e in estimates]).T.reshape(2, -1)
        side.barh(ys + offset, values, height=0.38, color=colour_, hatch=hatch, label=label,
                  xerr=errs, error_kw={"elinewidth": 0.8, "capsize": 2})  # fmt: skip
        for y, e in zip(ys + offset, estimates, strict=True):
            end = e.high if e.high is not None else 0.0
            highest = max(highest, end)
            side.text(end + 0.01, y, f"{e.value:.0%}", va="center", fontsize=6)
    side.set_yticks(ys, [short(m.title, 16) for m in shown], fontsize=7)
    side.invert_yaxis()
    side.set_xlim(0, min(1.0, highest * 1.35) if highest < 0.74 else 1.35)
    side.set_xlabel("share of rated items\n(95% Wilson interval)")
    side.set_ylabel("rubric metric")
    side.yaxis.set_label_position("right")  # on the left it would meet the colour bar's label
    side.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    titled(side, "N/A and N/O rates per metric", data.n_records)
    return links
