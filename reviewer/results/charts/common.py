"""What every chart shares: the palette, the empty-data figure and the click links.

Charts draw into a :class:`matplotlib.figure.Figure` they are given (never pyplot's global
state), so the window's canvas and the report's pages use the same builders.
"""

from __future__ import annotations

import textwrap
import unicodedata
import warnings
from dataclasses import dataclass, field
from typing import Any

import matplotlib
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from reviewer.results.charts.layout import ChartFigure

# Model, metric, scenario and rater names come from users and files: draw them literally.
# Mathtext would parse "$...$" (a model named "$$$$$$" crashed the report; a deep
# "$\sqrt{...}$" recursed until Python gave up) and TeX would run an external program.
# Set for the process, before any chart draws: tick labels are made anew at each draw.
matplotlib.rcParams["text.parse_math"] = False
matplotlib.rcParams["text.usetex"] = False
# A character the font lacks (an emoji in a model name) is drawn as a box: say nothing on
# stderr for each one.
warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)

#: Okabe & Ito (2008): distinguishable with every common colour-vision deficiency.
OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#000000",  # black
)
UNSAFE_COLOUR = "#D55E00"  # vermillion, with its own marker: never colour alone
GREY = "#666666"


#: Beyond this many points in a figure, its scatters are drawn as pictures in a PDF
#: (``rasterized``): as vectors, each point is a command the PDF writer formats in Python
#: (10,000 points cost about a second per chart) and a viewer redraws. The window's canvas
#: and PNG pictures are pictures anyway; an SVG (the HTML of small selections) stays vector.
DENSE_POINTS = 2000


def dense(n: int) -> bool:
    """Whether a figure of ``n`` points has its scatters rasterized (:data:`DENSE_POINTS`)."""
    return n > DENSE_POINTS


def colour(i: int) -> str:
    """The ``i``-th palette colour (cycling)."""
    return OKABE_ITO[i % len(OKABE_ITO)]


@dataclass
class Region:
    """A clickable rectangle in data coordinates of ``axes``: filters the queue."""

    axes: Axes
    x0: float
    x1: float
    y0: float
    y1: float
    filter: dict[str, Any]
    label: str

    def contains(self, axes: Axes, x: float, y: float) -> bool:
        """Whether a click at ``(x, y)`` on ``axes`` falls inside."""
        return axes is self.axes and self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


@dataclass
class Links:
    """What a click on a drawn chart leads to.

    ``points``: a pickable artist and the run of each of its points (opens that run);
    ``regions``: boxes and cells that filter the queue to their runs.
    """

    points: list[tuple[Artist, list[int]]] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)

    def run_at(self, artist: Artist, index: int) -> int | None:
        """The run of point ``index`` of ``artist``, if it is one of ours."""
        for candidate, runs in self.points:
            if candidate is artist and 0 <= index < len(runs):
                return runs[index]
        return None

    def region_at(self, axes: Axes, x: float, y: float) -> Region | None:
        """The region under a click, if any."""
        for region in self.regions:
            if region.contains(axes, x, y):
                return region
        return None


def new_figure(width: float = 11.0, height: float = 6.5) -> Figure:
    """A figure for a report page (the window's canvas brings its own)."""
    return ChartFigure(figsize=(width, height))


def say_empty(fig: Figure, title: str, why: str) -> Links:
    """Draw a chart that says why there is nothing to show, instead of an empty axes."""
    ax = fig.add_subplot()
    ax.set_axis_off()
    # Wrapped to the figure (the Raters tab's canvas is half a laptop's width: the title
    # ran past its edge), at the 11 bold characters an inch :func:`titled` counts.
    width = max(20, int(fig.get_figwidth() * 0.9 * 11 * 10 / 12))
    ax.set_title("\n".join(textwrap.wrap(title, width)), loc="left", fontweight="bold")
    ax.text(0.5, 0.5, why, ha="center", va="center", fontsize=12, color=GREY, wrap=True)
    return Links()


def draw_missing(ax: Axes, x: float, width: float, *, top: float = 1.0) -> None:
    """A hatched, labelled "n/a" box where a bar has no value: missing is never drawn as 0."""
    ax.bar(x, top, width, fill=False, hatch="///", edgecolor=GREY, linewidth=0.5)
    ax.text(x, top / 2, "n/a", ha="center", va="center", fontsize=7, rotation=90, color=GREY)


def across(ax: Axes, per_inch: float) -> int:
    """How many characters of a font that sets ``per_inch`` of them an inch fit across
    ``ax`` as it is placed before the layout (which only widens it), at least 20."""
    fig = ax.get_figure(root=False)
    # A subfigure's share of the figure counts (its axes' positions are fractions of it).
    inches = (fig.bbox.width / fig.dpi if fig is not None else 11.0) * ax.get_position().width
    return max(20, int(inches * per_inch))


def titled(ax: Axes, title: str, n: int | str) -> None:
    """A title that says what the chart shows, with its n, wrapped to its axes' width so
    that side-by-side panels never run into each other."""
    width = across(ax, 11)  # bold 10 pt DejaVu Sans: about 11 characters an inch
    lines = textwrap.wrap(title, width) or [""]
    suffix = f"(n = {n})"  # kept whole: the n is what a reader looks for
    if len(lines[-1]) + 2 + len(suffix) <= width:
        lines[-1] += f"  {suffix}"
    else:
        lines.append(suffix)
    ax.set_title("\n".join(lines), loc="left", fontsize=10, fontweight="bold")


def shown(name: str) -> str:
    """A model, rater or metric name with its control, format and line-break characters written
    as escapes (``\\r``, ``\\x01``): the store refuses them in a rater name, a page built
    from other data must not draw or print them raw."""
    return "".join(
        c
        if unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp", "Cs")
        else repr(c)[1:-1]
        if c.isascii()
        else f"\\u{ord(c):04x}"
        for c in name
    )


def short(name: str, width: int = 18) -> str:
    """A model or metric name that fits under a tick, its control characters as escapes
    (:func:`shown`: a model named with a control character made an SVG no browser draws)."""
    name = shown(name)
    return name if len(name) <= width else name[: width - 1] + "…"
