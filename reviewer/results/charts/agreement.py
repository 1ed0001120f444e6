"""The Agreement chart: Krippendorff's alpha per metric against the usual thresholds."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from reviewer.agreement.report import RELIABLE_INTERVAL_RUNS
from reviewer.results.charts.common import GREY, Links, colour, say_empty, short, titled
from reviewer.results.data import ResultsData

TITLE = "Agreement: Krippendorff's alpha (ordinal) per metric, 95% BCa bootstrap interval over runs"
TENTATIVE, RELIABLE = 0.667, 0.8


def draw_agreement(fig: Figure, data: ResultsData) -> Links:
    """Alpha per metric as a point with its interval, the 0.667 and 0.8 lines drawn; a
    metric whose alpha is undefined is listed with its note instead of a point."""
    report = data.agreement
    if report is None or not report.metrics:
        return say_empty(fig, TITLE, "No submitted ratings in this selection yet.")
    if not any(m.alpha_ordinal is not None for m in report.metrics):
        return say_empty(fig, TITLE, "Alpha needs two raters on the same run: no run has that yet.")
    titles = {m.id: m.title for m in data.metrics}
    ax = fig.add_subplot()
    rows = report.metrics
    ys = np.arange(len(rows))
    for y, m in enumerate(rows):  # row y at height y, as ys places the ticks
        if m.alpha_ordinal is None:
            ax.text(0.02, y, f"undefined: {m.note}", va="center", fontsize=8, color=GREY)
            continue
        ok = m.ci_low is not None and m.ci_low >= TENTATIVE
        if m.ci_low is not None and m.ci_high is not None:
            ax.plot([m.ci_low, m.ci_high], [y, y], color=colour(0), lw=2.5, alpha=0.6)
        ax.plot(m.alpha_ordinal, y, "o" if ok else "D", color=colour(0 if ok else 5), ms=7)
        shaky = "; interval unreliable" if m.units < RELIABLE_INTERVAL_RUNS else ""
        # Beside the axes' right edge, not at a data x inside it: placed in data, the text
        # ran past the edge by an amount that changed with the axes' width.
        ax.annotate(f"{m.alpha_ordinal:.2f}  ({m.units} runs{shaky})", (1.0, y),
                    xycoords=("axes fraction", "data"), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8,
                    annotation_clip=False)  # fmt: skip
    ax.axvline(TENTATIVE, color=colour(1), ls="--", lw=1)
    ax.axvline(RELIABLE, color=colour(2), ls="-", lw=1)
    ax.text(TENTATIVE, -0.8, "0.667 tentative", color=colour(1), fontsize=7, ha="right")
    ax.text(RELIABLE, -0.8, " 0.8 reliable", color=colour(2), fontsize=7, ha="left")
    ax.set_yticks(ys, [short(titles.get(m.metric_id, m.metric_id), 28) for m in rows])
    ax.invert_yaxis()
    lows = [m.ci_low for m in rows if m.ci_low is not None] + [0.0]
    ax.set_xlim(min(-0.1, min(lows) - 0.05), 1.05)
    ax.set_ylim(len(rows) - 0.5, -1.2)
    ax.set_xlabel("Krippendorff's alpha (ordinal); ◆ = interval reaches below 0.667")
    ax.set_ylabel("rubric metric")
    ax.grid(axis="x", alpha=0.3)
    raters = len(report.raters)
    runs = max((m.units for m in rows), default=0)
    titled(ax, TITLE, f"{raters} raters, {runs} runs with ≥ 2 scores")
    return Links()  # alpha summarises many runs: nothing here opens one
