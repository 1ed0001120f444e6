"""The charts' layout (:class:`reviewer.results.charts.layout.ChartFigure`): every title,
label and tick label inside the figure and clear of its neighbours', at the report's page
and at the window's canvases, measured once."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from reviewer.quality.summary import BiasCell, DriftPoint, QualitySummary, RaterLine
from reviewer.results.charts.layout import ChartFigure
from reviewer.results.charts.raters import draw_raters
from reviewer.workspace import ReviewStore


def _drawn(fig: Figure) -> list[tuple[str, Bbox]]:
    """What each axes and each (sub)figure title draws, once laid out and drawn (pixels)."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [(ax.get_title(loc="left")[:30] or "axes", ax.get_tightbbox(renderer))
             for ax in fig.axes if ax.get_visible()]  # fmt: skip
    for sub in [fig, *fig.subfigs]:
        for name in ("_suptitle", "_supxlabel"):
            text = getattr(sub, name, None)
            if text is not None and text.get_text():
                boxes.append((text.get_text()[:30], text.get_window_extent(renderer)))
    return [(name, box) for name, box in boxes if box is not None]


def _problems(fig: Figure) -> list[str]:
    """Boxes past the figure's edge, and pairs of boxes on top of each other."""
    boxes = _drawn(fig)
    edge = fig.bbox
    found = [f"{name!r} outside {box.bounds}" for name, box in boxes
             if box.x0 < edge.x0 - 1 or box.y0 < edge.y0 - 1
             or box.x1 > edge.x1 + 1 or box.y1 > edge.y1 + 1]  # fmt: skip
    for i, (a, box) in enumerate(boxes):
        for b, other in boxes[i + 1 :]:
            overlap = Bbox.intersection(box, other)
            if overlap is not None and overlap.width > 1 and overlap.height > 1:
                found.append(f"{a!r} on {b!r}")
    return found


def _summary(raters: int) -> QualitySummary:
    """Raters with a bias and a drift along 40 queue positions each (no randomness: a
    slope and a saw-tooth)."""
    lines = []
    for k in range(raters):
        name = "a-rater-with-a-rather-long-name" if k == 2 else f"rater-{k}"
        bias = 0.1 * (k - 2)
        points = [DriftPoint(position=i, days=i / 10, difference=bias + 0.01 * k * i
                             + 0.3 * math.sin(i)) for i in range(40)]  # fmt: skip
        cell = BiasCell(rater=name, metric="all", n_runs=40, bias=bias, low=bias - 0.15,
                        high=bias + 0.15, flagged=abs(bias) > 0.15)  # fmt: skip
        lines.append(RaterLine(rater=name, n_runs=40, bias=cell, per_position=0.01 * k,
                               position_low=-0.01, position_high=0.02 + 0.01 * k, per_day=0.1,
                               day_low=-0.1, day_high=0.3, drifting=k == 3,
                               biased_metrics=[], points=points))  # fmt: skip
    return QualitySummary(n_scores=400, n_runs=40, metrics=["all"], raters=lines, bias=[],
                          references=[])  # fmt: skip


@pytest.mark.parametrize(
    ("width", "height"),
    [(11.0, 8.5), (6.6, 4.0)],
    ids=["report page", "Raters tab at 1366 x 768"],
)
def test_the_raters_chart_with_drift_panels_fits_its_figure(width: float, height: float) -> None:
    # On the Raters tab's canvas (half a laptop's width) the bias panel's title ran into the
    # drift title, and the drift panels' titles into each other, before they were wrapped
    # to their own width and the layout counted them.
    fig = ChartFigure(figsize=(width, height))
    draw_raters(fig, _summary(5))
    assert _problems(fig) == []


@pytest.mark.parametrize(
    ("width", "height"),
    [(11.0, 8.5), (7.92, 6.77), (12.8, 5.8)],
    ids=["report page", "window's first size in the tests", "wide and short"],
)
def test_every_chart_fits_its_figure(rated_db: Path, width: float, height: float) -> None:
    # At 7.92 x 6.77 inches the Models chart's notes, wrapped at 110 characters, reached
    # under its side panel and pushed it off the figure (constrained layout gave up and
    # said so in a warning).
    from reviewer.results.report import PAGES
    from reviewer.results.source import gather

    with ReviewStore.open(rated_db, create=False, readonly=True) as store:
        data = gather(store, resamples=20)
    for chart in PAGES:
        fig = ChartFigure(figsize=(width, height))
        chart.draw(fig, data)
        assert _problems(fig) == [], chart.key


def test_a_colorbar_takes_its_place_in_its_axes_cell() -> None:
    fig = ChartFigure(figsize=(8, 4))
    ax, side = fig.subplots(1, 2, width_ratios=(3, 1.4))
    image = ax.imshow([[0, 1], [2, 3]], aspect="auto")
    fig.colorbar(image, ax=ax, label="a long colour bar label, on its right")
    side.set_yticks([0, 1], ["a tick label long enough to reach", "b"])
    side.yaxis.set_label_position("right")
    side.set_ylabel("on the right too")
    assert _problems(fig) == []


def test_a_canvas_too_small_for_the_chart_still_draws_quietly() -> None:
    # The window draws at whatever size it has (a tab's first show can be tiny): no
    # warning, no error; the axes keep a quarter of the span.
    fig = ChartFigure(figsize=(1.2, 0.8))
    ax = fig.add_subplot()
    ax.set_ylabel("a label far longer than this canvas is high")
    ax.set_yticks([0, 1], ["long tick label one", "long tick label two"])
    FigureCanvasAgg(fig).draw()
    assert ax.get_position().width >= 0.25 - 1e-9
