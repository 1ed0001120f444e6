"""The report's table pages draw their grid themselves: where ``ax.table`` puts it."""

from __future__ import annotations

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from reviewer.results import pdf_pages
from reviewer.results.tables import Table


@pytest.mark.parametrize("lines", [[1, 1, 1], [2, 1, 3, 1, 1], [3] + [1] * 20])
def test_the_cells_are_where_matplotlib_s_table_puts_them(lines: list[int]) -> None:
    fig = Figure(figsize=(11.0, 8.5))
    fig.subplots_adjust(left=0.06, right=0.96)
    ax = fig.subplots(2, 1, height_ratios=[len(lines) + 3, 4])[0]
    columns = [0.1, 0.35, 0.2, 0.35]
    rows = len(lines) - 1
    drawn = ax.table(cellText=[["x"] * 4] * rows, colLabels=["h"] * 4, colWidths=columns,
                     loc="upper center")  # fmt: skip
    for (row, _col), cell in drawn.get_celld().items():
        cell.set_height(cell.get_height() * lines[row])
    drawn._update_positions(FigureCanvasAgg(fig).get_renderer())
    mine = pdf_pages.grid_cells(ax, columns, lines)
    for (row, col), cell in drawn.get_celld().items():
        x, y, w, h = mine[row][col]
        assert (x, y, w, h) == pytest.approx((*cell.get_xy(), cell.get_width(), cell.get_height()))


def test_a_table_page_shows_every_cell_once_aligned_as_the_table_did() -> None:
    table = Table("Title", ["name", "a long header to wrap here"],
                  [["é ß 名前", "1.00"], ["a much longer cell " * 4, "0.5"]])  # fmt: skip
    fig = pdf_pages.table_page([table])
    texts = {t.get_text(): t for t in fig.axes[0].texts if isinstance(t, Text)}
    wrapped = "\n".join(pdf_pages.textwrap.wrap("a much longer cell " * 4, 40))
    assert set(texts) == {"name", "a long header\nto wrap here", "é ß 名前", "1.00", wrapped,
                          "0.5"}  # fmt: skip
    assert texts["name"].get_ha() == "center" and texts["1.00"].get_ha() == "right"


def test_a_header_word_longer_than_its_line_is_not_cut() -> None:
    """Seen on the leaderboard's pairs table: "distinguishabl" over "e"."""
    table = Table("Pairs", ["pair", "distinguishable", "shared scenarios"], [["a − b", "yes", "3"]])
    fig = pdf_pages.table_page([table])
    texts = {t.get_text() for t in fig.axes[0].texts if isinstance(t, Text)}
    assert {"distinguishable", "shared\nscenarios"} <= texts
