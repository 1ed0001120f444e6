"""The Validity chart: does the automatic score agree with the humans?"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from reviewer.results.charts.common import GREY, Links, colour, dense, say_empty, short, titled
from reviewer.results.data import ResultsData

TITLE = "Validity: human consensus against the scorer"


def draw_validity(fig: Figure, data: ResultsData) -> Links:
    """Per metric with a counterpart, a jittered scatter of consensus against 3 × the
    counterpart with Spearman's rho (click a point to open the run); the models ranked by
    humans and by the scorer; the anchoring of blind studies when there is any."""
    report = data.validity
    if report is None:
        return say_empty(fig, TITLE, "No submitted ratings in this selection yet.")
    if not report.metrics:
        return say_empty(fig, TITLE, "No rubric metric names an automatic counterpart.")
    links = Links()
    cols = max(len(report.metrics), 2)
    grid = fig.add_gridspec(2, cols)
    runs = {str(r.run_pk): r for r in data.runs}
    titles = {m.id: m.title for m in data.metrics}
    rng = np.random.default_rng(0)
    for j, mv in enumerate(report.metrics):
        ax = fig.add_subplot(grid[0, j])
        pairs = []
        for (run_key, metric_id), human in data.consensus.items():
            if metric_id == mv.metric_id and run_key in runs:
                auto = data.counterparts.get((run_key, metric_id))
                if auto is not None:
                    pairs.append((runs[run_key].run_pk, 3 * auto, human))
        if pairs:
            pks, xs, ys = zip(*pairs, strict=True)
            xj = np.asarray(xs) + rng.uniform(-0.08, 0.08, len(xs))
            yj = np.asarray(ys) + rng.uniform(-0.12, 0.12, len(ys))
            points = ax.scatter(xj, yj, s=16, alpha=0.5, color=colour(j), picker=True,
                                rasterized=dense(len(xs)))  # fmt: skip
            links.points.append((points, list(pks)))
        ax.plot([0, 3], [0, 3], color=GREY, lw=0.8, ls=":")
        ax.set_xlim(-0.3, 3.3)
        ax.set_ylim(-0.3, 3.3)
        ax.set_xlabel(f"scorer: 3 × {mv.counterpart}\n(points jittered ±0.08 across, ±0.12 up)")
        ax.set_ylabel("consensus score (0–3)")
        rho = "undefined" if mv.rho is None else f"{mv.rho:.2f}"
        left_out = f"; {mv.open_left_out} open disputes left out" if mv.open_left_out else ""
        name = short(titles.get(mv.metric_id, mv.metric_id), 26)
        titled(ax, f"{name}: ρ = {rho}{left_out}", mv.n)
    _ranking(fig.add_subplot(grid[1, 0]), data)
    if report.anchoring is not None:
        _anchoring(fig.add_subplot(grid[1, 1]), data)
    else:
        ax = fig.add_subplot(grid[1, 1])
        ax.set_axis_off()
        ax.text(0.5, 0.5, "Anchoring: no blind study in this selection.", ha="center", color=GREY)
    return links


def _ranking(ax: Axes, data: ResultsData) -> None:
    report = data.validity
    assert report is not None
    models = sorted({m.model for s in report.scenarios for m in s.models}, key=str.casefold)
    index = {m: i for i, m in enumerate(models)}
    n = 0
    for s in report.scenarios:
        for m in s.models:
            if m.human is not None and m.scorer is not None:
                n += 1
                ax.scatter(m.scorer, m.human, color=colour(index[m.model]), s=30)
    for model, i in index.items():
        ax.scatter([], [], color=colour(i), label=short(model))
    ax.plot([0, 1], [0, 1], color=GREY, lw=0.8, ls=":")
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("scorer: mean scalar")
    ax.set_ylabel("humans: mean consensus / 3")
    taus = [s.kendall_tau for s in report.scenarios if s.kendall_tau is not None]
    tau = f"median Kendall τ = {float(np.median(taus)):.2f}" if taus else "τ undefined"
    titled(ax, f"Models per scenario, humans vs scorer; {tau}", n)
    ax.legend(fontsize=7, loc="lower right")


def _anchoring(ax: Axes, data: ResultsData) -> None:
    anchoring = data.validity.anchoring if data.validity else None
    assert anchoring is not None
    rows = [r for r in anchoring.by_metric if r.control_distance is not None]
    xs = np.arange(len(rows))
    control = [r.control_distance for r in rows if r.control_distance is not None]  # all
    blind = [np.nan if r.blind_distance is None else r.blind_distance for r in rows]
    ax.bar(xs - 0.2, control, 0.4, color=colour(1), label="control (scorer shown first)")
    ax.bar(xs + 0.2, blind, 0.4, color=colour(0), hatch="//", label="blind")
    ax.set_xticks(xs, [short(r.metric_id, 14) for r in rows], rotation=20, ha="right")
    ax.set_ylabel("mean |score − 3 × counterpart|")
    ax.set_xlabel("metric")
    ax.legend(fontsize=7)
    overall = anchoring.overall
    pull = "pull undefined"
    if overall.pull is not None:
        pull = f"pull {overall.pull:.2f}"
        if overall.pull_ci_low is not None:
            pull += f" ({overall.pull_ci_low:.2f}–{overall.pull_ci_high:.2f}, clustered 95%)"
    titled(ax, f"Anchoring: distance to the scorer, control vs blind arm; {pull}", overall.items)
