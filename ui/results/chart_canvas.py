"""One chart group on a matplotlib canvas, and what a click on it means.

A click on a run's point asks to open it (``run_requested``); a click on a box or a
heatmap row asks to filter the queue to those runs (``filter_requested``). The chart
builders say which artist and region lead where (:class:`reviewer.results.charts.Links`).
"""

from __future__ import annotations

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from reviewer.results.charts import Chart, Links
from reviewer.results.charts.layout import ChartFigure
from reviewer.results.data import ResultsData


class ChartCanvas(QWidget):
    """A canvas that draws one :class:`~reviewer.results.charts.Chart` of some data."""

    run_requested = Signal(int)
    filter_requested = Signal(object, str)  # {"model": ...}, what it shows

    def __init__(self, chart: Chart, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chart = chart
        self.figure = ChartFigure()
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setToolTip("Click a point to open its run; a box or a row to filter the queue")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas)
        self.links = Links()
        self._data: ResultsData | None = None
        self._drawn_for: ResultsData | None = None
        self.canvas.mpl_connect("button_press_event", self._clicked)

    def set_data(self, data: ResultsData) -> None:
        """Keep ``data``; draw now only when visible (hidden tabs draw when shown)."""
        self._data = data
        if self.isVisible():
            self.redraw()

    def redraw(self) -> None:
        """Draw the chart for the current data, unless it already shows it."""
        if self._data is None or self._drawn_for is self._data:
            return
        self.figure.clear()
        self.links = self.chart.draw(self.figure, self._data)
        self._drawn_for = self._data
        self.canvas.draw()

    def showEvent(self, event) -> None:
        """A tab shown for the first time since the data changed draws it."""
        super().showEvent(event)
        self.redraw()

    def _clicked(self, event) -> None:
        if event.inaxes is None or event.button != 1:
            return
        for artist, _runs in self.links.points:
            hit, info = artist.contains(event)
            if hit and len(info.get("ind", ())):
                run = self.links.run_at(artist, int(info["ind"][0]))
                if run is not None:
                    self.run_requested.emit(run)
                    return
        if event.xdata is None or event.ydata is None:
            return
        region = self.links.region_at(event.inaxes, event.xdata, event.ydata)
        if region is not None:
            self.filter_requested.emit(dict(region.filter), region.label)
