"""The charts' layout: each axes' labels, ticks and title measured once, then the grid
placed so that they fit.

Matplotlib's constrained layout measures every decoration twice per layout and solves a
constraint system for the general case (nested grids, spanning colorbars); it was a third
of the time the report spent on its charts (issue 26). The charts here are simpler:
per figure or subfigure one grid of axes (a colorbar nested in its cell), a title above the
grid and a note below it. :class:`ChartFigure` measures each cell's decorations once, with
the renderer it is drawn by, and sets the grid's margins and spacing to hold the
widest of them; subfigures keep their share of the figure and are laid out inside it.

One measure is enough when what reaches past an axes does not move with its size: titles
and labels, and text anchored to the axes' edge in points (``xycoords=("axes fraction",
"data")``). Text placed at a data position beyond the frame would move as the axes is
resized after the measure: the charts do not place text that way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.figure import Figure, SubFigure
from matplotlib.gridspec import GridSpec, GridSpecBase
from matplotlib.transforms import Bbox

#: Space kept between a decoration and the figure's edge or its neighbour's, in inches
#: (constrained layout's 3 points, and a little more between two cells).
PAD = 4 / 72
GAP = 10 / 72
#: Below this share of its grid's span an axes would be a sliver: when the decorations
#: ask for more than the rest, they are given the rest and may overlap (a canvas that
#: small cannot show the chart whole; the chart stays readable once it is larger).
MIN_SHARE = 0.25


@dataclass
class _Margins:
    """Per grid column and row, what its cells' decorations take beyond their axes (px)."""

    left: list[float]
    right: list[float]
    top: list[float]
    bottom: list[float]


class ChartFigure(Figure):
    """A figure that lays its grids out (one measure) as it is drawn, with the renderer it
    is drawn by.

    Not a :class:`~matplotlib.layout_engine.LayoutEngine`: an engine is given no renderer
    and makes one of its own (for a PDF, a whole PDF writer), whose text measures the
    drawing cannot reuse; measured with the drawing's renderer, every text is measured
    once (matplotlib keeps each renderer's text sizes). As with an engine, the layout is
    redone at each draw (a canvas resized), and ``savefig`` draws once.
    """

    def draw(self, renderer: RendererBase) -> None:
        """Lay out, then draw as a :class:`~matplotlib.figure.Figure` does."""
        if self.axes and self.get_layout_engine() is None:
            _lay_out(self, self.bbox.frozen(), renderer)
        super().draw(renderer)


def _lay_out(fig: Figure | SubFigure, region: Bbox, renderer: RendererBase) -> None:
    """Lay out ``fig`` inside ``region`` (display pixels): its own titles first, then each
    subfigure inside its share, then its grids in what is left."""
    inch = fig.dpi  # pixels
    pad = PAD * inch
    x0, y0, x1, y1 = region.x0, region.y0, region.x1, region.y1
    # The (sub)figure's own titles (matplotlib keeps them in private attributes: there is
    # no public getter of the artist).
    for attribute, side in (("_suptitle", "top"), ("_supxlabel", "bottom"), ("_supylabel", "left")):
        text = getattr(fig, attribute, None)
        if text is None or not text.get_visible() or not text.get_text():
            continue
        box = text.get_window_extent(renderer)
        if side == "top":
            y1 = min(y1, box.y0 - pad)
        elif side == "bottom":
            y0 = max(y0, box.y1 + pad)
        else:
            x0 = max(x0, box.x1 + pad)
    inside = Bbox.from_extents(x0, y0, x1, y1)
    for sub in fig.subfigs:
        share = Bbox.intersection(sub.bbox, inside)
        if share is not None:
            _lay_out(sub, share, renderer)
    # A figure's axes include its subfigures': those are laid out in their own.
    own = [ax for ax in fig.axes if ax.get_figure(root=False) is fig]
    for grid, axes in _grids(own).items():
        _place(fig, grid, axes, inside, renderer, inch)


def _grids(axes: Iterable[Axes]) -> dict[GridSpecBase, list[Axes]]:
    """The axes placed by a grid (a colorbar's nested grid counts as its parent's cell),
    by the outermost grid; axes placed by hand are left where they are."""
    grids: dict[GridSpecBase, list[Axes]] = {}
    for ax in axes:
        spec = ax.get_subplotspec() if ax.get_in_layout() else None
        if spec is not None:
            grids.setdefault(spec.get_topmost_subplotspec().get_gridspec(), []).append(ax)
    return grids


def _margins(
    fig: Figure | SubFigure, grid: GridSpecBase, axes: list[Axes], renderer: RendererBase
) -> _Margins:
    """How far each column's and row's decorations reach past its axes (pixels)."""
    rows, cols = grid.get_geometry()
    found = _Margins([0.0] * cols, [0.0] * cols, [0.0] * rows, [0.0] * rows)
    for ax in axes:
        spec = ax.get_subplotspec()
        assert spec is not None
        top = spec.get_topmost_subplotspec()
        # A nested axes (a colorbar) reaches past its parent's cell only on the sides
        # where its own frame meets the cell's edge: measured from the cell's frame.
        cell = top.get_position(fig).transformed(fig.transSubfigure)  # type: ignore[arg-type]
        drawn = ax.get_tightbbox(renderer) or cell
        first_col, last_col = top.colspan.start, top.colspan.stop - 1
        first_row, last_row = top.rowspan.start, top.rowspan.stop - 1
        found.left[first_col] = max(found.left[first_col], cell.x0 - drawn.x0)
        found.right[last_col] = max(found.right[last_col], drawn.x1 - cell.x1)
        found.top[first_row] = max(found.top[first_row], drawn.y1 - cell.y1)
        found.bottom[last_row] = max(found.bottom[last_row], cell.y0 - drawn.y0)
    return found


def _place(
    fig: Figure | SubFigure,
    grid: GridSpecBase,
    axes: list[Axes],
    region: Bbox,
    renderer: RendererBase,
    inch: float,
) -> None:
    """Set ``grid``'s margins and spacing so its cells' decorations fit inside ``region``."""
    if region.width < 1 or region.height < 1:
        return  # a canvas not shown yet: nothing to fit
    found = _margins(fig, grid, axes, renderer)
    rows, cols = grid.get_geometry()
    pad, gap = PAD * inch, GAP * inch
    box = fig.bbox
    left, right = found.left[0] + pad, found.right[-1] + pad
    between_cols = max((found.right[j] + found.left[j + 1] + gap for j in range(cols - 1)),
                       default=0.0)  # fmt: skip
    top, bottom = found.top[0] + pad, found.bottom[-1] + pad
    between_rows = max((found.bottom[i] + found.top[i + 1] + gap for i in range(rows - 1)),
                       default=0.0)  # fmt: skip
    left, right, between_cols = _fit(region.width, cols, left, right, between_cols)
    bottom, top, between_rows = _fit(region.height, rows, bottom, top, between_rows)
    width = region.width - left - right
    height = region.height - bottom - top
    cell_w = (width - (cols - 1) * between_cols) / cols
    cell_h = (height - (rows - 1) * between_rows) / rows
    params = {
        "left": (region.x0 + left - box.x0) / box.width,
        "right": (region.x1 - right - box.x0) / box.width,
        "bottom": (region.y0 + bottom - box.y0) / box.height,
        "top": (region.y1 - top - box.y0) / box.height,
        "wspace": between_cols / cell_w,
        "hspace": between_rows / cell_h,
    }
    if isinstance(grid, GridSpec):
        grid.update(**params)
    for ax in axes:
        spec = ax.get_subplotspec()
        assert spec is not None  # as _grids found it
        # Where its cell now is; ``set_position`` would take it out of the layout.
        ax._set_position(spec.get_position(fig))  # type: ignore[attr-defined,arg-type]


def _fit(
    span: float, cells: int, low: float, high: float, between: float
) -> tuple[float, float, float]:
    """The margins and spacing along one direction, shrunk together when they would leave
    the cells less than :data:`MIN_SHARE` of ``span``."""
    taken = low + high + (cells - 1) * between
    room = span * (1 - MIN_SHARE)
    if taken <= room or taken <= 0:
        return low, high, between
    scale = max(room, 0.0) / taken
    return low * scale, high * scale, between * scale
