"""The dashboard's Raters tab (issue 30): bias, drift and accuracy of the human raters.

It follows the dashboard's loads: each :class:`~reviewer.results.data.ResultsData` the
loader hands over says which runs are shown (the scenario chosen, the runs still in the
viewer's blind phase already left out); the tab then reads the rater-quality summary of
those runs on a pool thread, from a read-only connection of its own, behind the same blind
gate (:func:`reviewer.results.raters_source.quality_for`), and only while it is in view.
Accuracy is measured against the reference picked above its table (a rater today;
:func:`reviewer.quality.reference.load_reference` says which names exist).
"""

from __future__ import annotations

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer.quality.summary import QualitySummary
from reviewer.results.charts.layout import ChartFigure
from reviewer.results.charts.raters import draw_raters
from reviewer.results.data import ResultsData
from reviewer.results.raters_page import LEGEND
from reviewer.workspace import ReviewStore
from ui.results.raters_models import AccuracyModel, BiasMatrixModel, RaterLineModel
from ui.results.results_loader import WINDOW_RESAMPLES, ResultsLoader
from ui.results.rows_model import SortRole
from ui.worker import TaskContext, TaskRunner

NO_REFERENCE = "(none)"


def _table(model, parent: QWidget) -> QTableView:
    view = QTableView(parent)
    proxy = QSortFilterProxyModel(view)
    proxy.setSourceModel(model)
    proxy.setSortRole(SortRole)
    view.setModel(proxy)
    view.setSortingEnabled(True)
    view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the summary's order until asked
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.verticalHeader().setVisible(isinstance(model, BiasMatrixModel))  # raters label rows
    return view


def _titled(title: str, widget: QWidget, *extra: QWidget) -> QWidget:
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(2, 2, 2, 2)
    head = QHBoxLayout()
    label = QLabel(title)
    label.setStyleSheet("font-weight: bold")
    head.addWidget(label)
    for w in extra:
        head.addWidget(w)
    head.addStretch(1)
    column.addLayout(head)
    column.addWidget(widget, 1)
    return box


class RatersTab(QWidget):
    """Raters (marked ones tinted, with a tooltip), bias per metric, accuracy, the chart."""

    updated = Signal()  # a new summary is shown (tests wait for it)
    load_failed = Signal(str)

    def __init__(self, loader: ResultsLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._db_path = loader.db_path
        self._viewer = loader.viewer  # who is looking, asked at each load (it can change)
        self._runner = TaskRunner()
        self._data: ResultsData | None = None
        # What the shown (or running) summary is of: (runs, study, viewer, reference). Not the
        # data object: the loader hands the same runs over twice (point values, then the
        # intervals), and the raters of the same runs need no second read.
        self._asked: tuple[object, ...] | None = None
        self._running = False
        self._pending = False
        self.summary: QualitySummary | None = None
        self.lines = RaterLineModel(self)
        self.bias = BiasMatrixModel(self)
        self.accuracy = AccuracyModel(self)
        self.reference = QComboBox(minimumContentsLength=14)
        self.reference.addItem(NO_REFERENCE)
        self.reference.setToolTip("Measure each rater's accuracy against this rater's scores")
        self.reference.currentIndexChanged.connect(lambda _i: self._load())
        self.status = QLabel("Loading…")
        self.status.setTextFormat(Qt.TextFormat.PlainText)  # rater names come from files
        legend = QLabel(LEGEND)
        legend.setWordWrap(True)
        legend.setTextFormat(Qt.TextFormat.PlainText)
        legend.setStyleSheet("color: #444; font-size: 11px")
        self.figure = ChartFigure()
        self.canvas = FigureCanvasQTAgg(self.figure)
        self.canvas.setMinimumHeight(160)
        self.line_view = _table(self.lines, self)
        self.bias_view = _table(self.bias, self)
        self.accuracy_view = _table(self.accuracy, self)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(_titled("Raters (tinted: marked; hover for why)", self.line_view))
        top.addWidget(_titled("Bias per metric (± half the 95% interval; * excludes 0)",
                              self.bias_view))  # fmt: skip
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.canvas)
        bottom.addWidget(_titled("Accuracy against", self.accuracy_view, self.reference))
        bottom.setSizes([600, 400])
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(top)
        split.addWidget(bottom)
        split.setSizes([300, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.status)
        layout.addWidget(split, 1)
        layout.addWidget(legend)
        loader.loaded.connect(self.set_data)

    def chosen_reference(self) -> str | None:
        """The reference picked (``None``: no accuracy)."""
        return None if self.reference.currentIndex() <= 0 else self.reference.currentText()

    def set_data(self, data: ResultsData) -> None:
        """The dashboard shows ``data``: read the raters of its runs (now when in view)."""
        self._data = data
        self._load()

    def showEvent(self, event) -> None:
        """A tab shown after the data changed reads its summary now."""
        super().showEvent(event)
        self._load()

    def _load(self) -> None:
        data = self._data
        if data is None or not self.isVisible():
            return
        db_path, viewer, reference = self._db_path, self._viewer(), self.chosen_reference()
        runs = frozenset(r.run_pk for r in data.runs)
        study = data.meta.study
        asked = (runs, study, viewer, reference)
        if self._asked == asked:
            return  # shown already, or being read
        if self._running:
            self._pending = True  # the last request wins, once this one is back
            return
        self._running = True
        self._asked = asked
        self.status.setText("Reading the raters…")

        def work(_ctx: TaskContext) -> QualitySummary:  # a pool thread: no widget here
            from reviewer.results.raters_source import quality_for

            with ReviewStore.open(db_path, create=False, readonly=True) as store:
                return quality_for(store, viewer=viewer, study=study, runs=runs,
                                   reference=reference, resamples=WINDOW_RESAMPLES)  # fmt: skip

        self._runner.start(work, self._loaded, self._failed)

    def _next(self) -> bool:
        self._running = False
        if not self._pending:
            return False
        self._pending = False
        self._asked = None
        self._load()
        return self._running

    def _loaded(self, summary: QualitySummary) -> None:
        if not self._next():
            self.show_summary(summary)

    def _failed(self, message: str) -> None:
        self._asked = None
        if not self._next():
            self.status.setText(f"Could not read the raters: {message}")
            self.load_failed.emit(message)

    def show_summary(self, summary: QualitySummary) -> None:
        """Fill the tables and draw the chart of ``summary``."""
        self.summary = summary
        self._fill_references(summary.references)
        self.lines.set_rows(summary.raters)
        self.bias.set_cells([r.rater for r in summary.raters], summary.metrics, summary.bias)
        self.accuracy.set_rows(summary.accuracy.lines if summary.accuracy else [])
        marked = summary.marked()
        who = ", ".join(marked) if marked else "nobody"
        self.status.setText(
            f"{len(summary.raters)} raters, {summary.n_runs} runs, {summary.n_scores} scores "
            f"(people only: judges are left out) · marked: {who}"
        )
        self.figure.clear()
        draw_raters(self.figure, summary)
        self.canvas.draw_idle()
        self.updated.emit()

    def _fill_references(self, names: list[str]) -> None:
        keep = self.chosen_reference()
        current = [self.reference.itemText(i) for i in range(1, self.reference.count())]
        if current == names:
            return
        self.reference.blockSignals(True)  # refilling is not the person choosing
        self.reference.clear()
        self.reference.addItem(NO_REFERENCE)
        self.reference.addItems(names)
        if keep in names:
            self.reference.setCurrentIndex(names.index(keep) + 1)
        self.reference.blockSignals(False)
        if keep is not None and keep not in names:  # that rater is gone from this selection
            self._load()

    def busy(self) -> bool:
        """True while a read runs or waits to run."""
        return self._running or self._pending

    def wait_idle(self, msecs: int = 30000) -> bool:
        """Block until the pool's work is done (tests, screenshots)."""
        return self._runner.wait_idle(msecs)
