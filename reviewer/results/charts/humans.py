"""The Humans chart: what the raters concluded, per metric and model."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from reviewer.results.charts.common import Links, Region, colour, say_empty, short, titled
from reviewer.results.charts.stats import consensus_by_model
from reviewer.results.data import ResultsData

TITLE = "The humans: mean consensus score (0–3) per metric and model"


def draw_humans(fig: Figure, data: ResultsData) -> Links:
    """A model × metric heatmap of the mean consensus with the values written in (click a
    cell to list that model's runs), and the Not applicable / Not observed rates."""
    if not data.records:
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
                if not np.isnan(grid[i, j]):
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
        fig.colorbar(image, ax=ax, label="mean consensus (median of raters)", shrink=0.8)
        n_runs = len({r.run_key for r in data.records})
        titled(ax, TITLE, f"{n_runs} runs")
    else:
        ax.set_axis_off()
        ax.text(0.5, 0.5, "Every rated item is N/A or N/O: no score.", ha="center")

    rates = data.outcome_rates
    shown = [m for m in data.metrics if m.id in rates]
    ys = np.arange(len(shown))
    na = [rates[m.id][1] for m in shown]
    no = [rates[m.id][2] for m in shown]
    side.barh(ys - 0.2, na, height=0.38, color=colour(1), label="not applicable")
    side.barh(ys + 0.2, no, height=0.38, color=colour(3), hatch="..", label="not observed")
    side.set_yticks(ys, [short(m.title, 16) for m in shown], fontsize=7)
    side.invert_yaxis()
    side.set_xlim(0, max([*na, *no, 0.2]) * 1.25)
    side.set_xlabel("share of rated items")
    side.set_ylabel("rubric metric")
    side.legend(fontsize=7, loc="lower right")
    titled(side, "N/A and N/O rates", len(data.records))
    return links
