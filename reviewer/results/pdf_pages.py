"""The report's PDF pages: the title page, a chart group's tables on a page, and the
PDFs of the chart groups put together (pypdf), each drawn by itself
(:func:`reviewer.results.report.write_pdf`)."""

from __future__ import annotations

import io
import textwrap

from matplotlib.axes import Axes
from matplotlib.figure import Figure

from reviewer.results.tables import Table

#: Inches of the landscape page, and the title page's facts: from 70 % of its height down
#: to a bottom margin, in lines of 1.25 times the font and a gap of 0.6 between facts.
PAGE = (11.0, 8.5)
_FACTS_ROOM = 0.66
_LEADING, _GAP = 1.25, 0.6


def title_page(title: str, shows: str, facts: list[tuple[str, str]]) -> Figure:
    """The report's first page: its ``title``, what it ``shows``, then its ``facts``
    (label, value), each value wrapped."""
    fig = Figure(figsize=PAGE)
    fig.text(0.08, 0.85, title, fontsize=26, fontweight="bold")
    fig.text(0.08, 0.80, shows)
    wrapped = [(label, textwrap.wrap(value, 80) or [""]) for label, value in facts]
    lines = sum(len(v) for _, v in wrapped)

    def height(size: float) -> float:  # as a fraction of the page
        return (lines * _LEADING + len(wrapped) * _GAP) * size / 72 / PAGE[1]

    # 11 points, smaller where the facts would run off the page (the last one once did:
    # a long database path, judges, open disputes).
    size = 11.0
    while size > 6 and height(size) > _FACTS_ROOM:
        size -= 0.5
    line, gap = (k * size / 72 / PAGE[1] for k in (_LEADING, _GAP))
    y = 0.70
    for label, value in wrapped:
        fig.text(0.08, y, label, fontsize=size, fontweight="bold", va="top")
        fig.text(0.27, y, "\n".join(value), fontsize=size, va="top", linespacing=_LEADING)
        y -= line * len(value) + gap
    return fig


#: A table's title: its font, and the characters of it a line of the page holds (bold
#: characters at about 0.62 em, over the page's width less the margins).
_TITLE_SIZE = 11.0
_TITLE_CHARS = int(9.6 * 72 / (0.62 * _TITLE_SIZE))


def table_page(tables: list[Table]) -> Figure:
    """The tables of one chart group, stacked on one page."""
    fig = Figure(figsize=PAGE)
    titles = [textwrap.wrap(t.title, _TITLE_CHARS) for t in tables]
    # header, title lines and a margin per table
    heights = [len(t.rows) + len(lines) + 2 for t, lines in zip(tables, titles, strict=True)]
    fig.subplots_adjust(left=0.06, right=0.96)  # the title starts where the page does
    axes = fig.subplots(len(tables), 1, height_ratios=heights, squeeze=False)[:, 0]
    for ax, table, lines in zip(axes, tables, titles, strict=True):
        ax.set_axis_off()
        # Not drawn, but placing the title would still make and measure the y axis's
        # ticks (a tenth of the table pages' time).
        ax.yaxis.set_visible(False)
        ax.set_title("\n".join(lines), loc="left", fontweight="bold", fontsize=_TITLE_SIZE)
        if not table.rows:
            ax.text(0.5, 0.5, "Nothing to tabulate yet.", ha="center", color="#666666")
            continue
        _fitted_table(ax, table)
    return fig


#: Inches of a landscape page a table may use, and a character's width per point of font.
_PAGE_WIDTH = 10.2
_CHAR_EM = 0.6


def _fitted_table(ax: Axes, table: Table) -> None:
    """Draw ``table`` so that it fits the page: headers and long cells wrapped, columns as
    wide as their text, the font made smaller when the text is wider than the page."""
    # A header's words whole ("distinguishable" was cut into "distinguishabl" and "e"): a
    # long one only widens its column, and the font is made smaller if the page is too narrow.
    headers = ["\n".join(textwrap.wrap(h, 14, break_long_words=False)) or h for h in table.headers]
    rows = [["\n".join(textwrap.wrap(c, 40)) or c for c in row] for row in table.rows]
    widths = [
        max(len(line) for cell in [h, *(r[i] for r in rows)] for line in cell.split("\n")) + 4
        for i, h in enumerate(headers)
    ]
    size = min(9.0 if len(rows) < 15 else 7.0, _PAGE_WIDTH * 72 / (sum(widths) * _CHAR_EM))
    lines = [max(c.count("\n") + 1 for c in row) for row in [headers, *rows]]
    _draw_grid(ax, [headers, *rows], [w / sum(widths) for w in widths], lines, size)


#: What ``ax.table`` draws with (matplotlib's ``Table`` and ``Cell``): a line of a cell is
#: 1.2 times its 10-point font high, the table sits this far below the axes' top, a cell's
#: right-aligned text this fraction of its width from its right edge.
_LINE_INCHES = 10 / 72 * 1.2
_AXES_PAD = 0.02
_CELL_PAD = 0.1


def grid_cells(
    ax: Axes, columns: list[float], lines: list[int]
) -> list[list[tuple[float, float, float, float]]]:
    """Per row (the header first), per column, a cell's ``(x, y, width, height)`` in axes
    coordinates: where ``ax.table(..., colWidths=columns, loc="upper center")`` puts it
    once each row's height is made ``lines`` times the table's own."""
    fig = ax.get_figure(root=True)
    assert fig is not None
    line = _LINE_INCHES / (ax.get_position().height * fig.get_size_inches()[1])
    heights = [line * n for n in lines]
    left = 0.5 - sum(columns) / 2
    xs = [left + sum(columns[:i]) for i in range(len(columns))]
    top = 1 - _AXES_PAD
    cells = []
    for height in heights:
        top -= height
        cells.append([(x, top, w, height) for x, w in zip(xs, columns, strict=True)])
    return cells


def _draw_grid(
    ax: Axes, rows: list[list[str]], columns: list[float], lines: list[int], size: float
) -> None:
    """The table ``ax.table`` would draw (black-edged white cells, the header row's text
    centred, the others' right-aligned, each in the middle of its cell's height), drawn as
    one collection of rectangles and a text per cell: matplotlib's ``Table`` places and
    measures every cell again at every draw (a quarter of the report's drawing)."""
    from matplotlib.collections import PatchCollection
    from matplotlib.font_manager import FontProperties
    from matplotlib.patches import Rectangle

    cells = grid_cells(ax, columns, lines)
    boxes = [Rectangle((x, y), w, h) for row in cells for x, y, w, h in row]
    ax.add_collection(
        PatchCollection(boxes, facecolor="w", edgecolor="k", joinstyle="miter",
                        transform=ax.transAxes, clip_on=False),
        autolim=False,
    )  # fmt: skip
    font = FontProperties(size=size)  # one, copied by every text: made anew, a third of them
    for r, (texts, row) in enumerate(zip(rows, cells, strict=True)):
        for text, (x, y, w, h) in zip(texts, row, strict=True):
            if r == 0:
                at, align = x + w / 2, "center"
            else:
                at, align = x + w * (1 - _CELL_PAD), "right"
            ax.text(at, y + h / 2, text, transform=ax.transAxes, fontproperties=font,
                    ha=align, va="center", clip_on=False)  # fmt: skip


def merged(parts: list[bytes]) -> tuple[bytes, int]:
    """The PDFs ``parts`` as one and its number of pages: their pages in order, the first
    one's document information (title, creator, date) the whole's. Each part keeps the
    fonts it embeds (a subset of DejaVu Sans each: the report is about twice the size of
    one drawn whole, a few hundred kB at 10,000 runs)."""
    from pypdf import PdfReader, PdfWriter

    whole = PdfWriter(clone_from=io.BytesIO(parts[0]))
    for part in parts[1:]:
        whole.append(PdfReader(io.BytesIO(part)))
    buffer = io.BytesIO()
    whole.write(buffer)
    return buffer.getvalue(), len(whole.pages)
