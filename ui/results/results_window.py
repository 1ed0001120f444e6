"""The results dashboard: one tab per chart group, then the Agreement and Validity views.

Opened from View → Results dashboard. It asks its :class:`ResultsLoader` for data (gathered
off the GUI thread) and draws only the tab in view; it emits intents — open a run, filter
the queue — that the main window routes to the other panes.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMainWindow,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from reviewer.results.charts import CHARTS
from reviewer.results.data import ResultsData
from ui.layout_state import first_start_size
from ui.results.chart_canvas import ChartCanvas
from ui.results.raters_tab import RatersTab
from ui.results.results_loader import ResultsLoader
from ui.results.table_views import AgreementView, ValidityView

ALL = "All scenarios"


#: The dashboard's size on a screen with room for it.
PREFERRED = QSize(1400, 900)


class ResultsWindow(QMainWindow):
    """The dashboard window; ``refresh()`` re-reads the store (after a rating, an import)."""

    run_requested = Signal(int)
    filter_requested = Signal(object, str)  # {"model": ..., "scenario_id": ...}, label
    export_requested = Signal()
    updated = Signal()  # new data is shown (tests wait for it)

    def __init__(
        self, loader: ResultsLoader, parent: QWidget | None = None, *, viewer: str | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("a320-review — results")
        # 1400 × 900 where the screen has room; never more than the screen (at 1366 × 768 a
        # fixed size put the charts' axes below its edge), and on a laptop maximized: a
        # client area of the whole screen put the status bar below its edge, the frame
        # above it.
        if parent is not None:
            self.setScreen(parent.screen())
        first_start_size(self, PREFERRED)
        self.loader = loader
        self.data: ResultsData | None = None
        self._stale = True
        self._submitted: set[int] = set()  # runs a submit touched, until the update
        self.scenario = QComboBox(minimumContentsLength=28)
        self.scenario.addItem(ALL)
        self.scenario.currentIndexChanged.connect(lambda _i: self.refresh())
        self.status = QLabel("Loading…")
        # Rubric title, scorer versions and error messages come from files: never as HTML.
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        bar = QToolBar("Results")
        bar.setMovable(False)
        bar.addWidget(QLabel(" Scenario: "))
        bar.addWidget(self.scenario)
        refresh = bar.addAction("Refresh", self.refresh)
        refresh.setShortcut(QKeySequence.StandardKey.Refresh)
        bar.addAction("Export report…", self.export_requested.emit)
        self.addToolBar(bar)
        # What is loaded, and what is still being computed, in the status bar: at the end of
        # the toolbar it went behind the overflow chevron on a 1280-pixel screen.
        self.status.setWordWrap(True)
        self.statusBar().addWidget(self.status, 1)

        self.tabs = QTabWidget()
        self.canvases: dict[str, ChartCanvas] = {}
        for chart in CHARTS:
            canvas = ChartCanvas(chart)
            canvas.run_requested.connect(self.run_requested)
            canvas.filter_requested.connect(self._filter)
            self.canvases[chart.key] = canvas
            self.tabs.addTab(canvas, chart.title)
        self.agreement = AgreementView(viewer=viewer)
        self.validity = ValidityView()
        for view, title in ((self.agreement, "Agreement table"), (self.validity, "Validity table")):
            view.run_requested.connect(self.run_requested)
            self.tabs.addTab(view, title)
        self.raters = RatersTab(loader)  # reads its own summary when the loader has loaded
        self.tabs.addTab(self.raters, "Raters")
        # Runs still in the rater's blind phase are left out of every tab; this line says so
        # above all of them (hidden when none are).
        self.left_out = QLabel()
        self.left_out.setTextFormat(Qt.TextFormat.PlainText)
        self.left_out.setWordWrap(True)
        self.left_out.hide()
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.left_out)
        column.addWidget(self.tabs)
        self.setCentralWidget(central)
        # The main window's Quit and Close keys work from here too (its shortcuts are
        # bound to its own window, so they would not reach this one).
        for standard, own, slot in (
            (QKeySequence.StandardKey.Quit, "Ctrl+Q", self._quit),
            (QKeySequence.StandardKey.Close, "Ctrl+W", self.close),
        ):
            action = QAction(self)
            keys = QKeySequence.keyBindings(standard)
            if QKeySequence(own) not in keys:  # not every platform theme binds it
                keys.append(QKeySequence(own))
            action.setShortcuts(keys)
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(slot)
            self.addAction(action)
        loader.loading.connect(lambda: self.status.setText("Loading…"))
        loader.loaded.connect(self.set_data)
        loader.load_failed.connect(lambda msg: self.status.setText(f"Could not load: {msg}"))

    def selected_scenario(self) -> str | None:
        """The scenario chosen in the selector, ``None`` for all."""
        text = self.scenario.currentText()
        return None if self.scenario.currentIndex() <= 0 else text

    def refresh(self) -> None:
        """Re-read the results now when shown, else when next shown."""
        if self.isVisible():
            self._stale = False
            self.loader.load(self.selected_scenario())
        else:
            self._stale = True

    def note_submitted(self, run_pk: int) -> None:
        """A rating of ``run_pk`` was submitted: the ``mark_stale`` that follows updates
        that run only (the controller says ``rating_submitted``, then ``ratings_changed``)."""
        self._submitted.add(run_pk)

    def mark_stale(self) -> None:
        """The ratings or runs changed: refresh (now if shown); after a submit, only the
        runs it touched are read again."""
        runs, self._submitted = self._submitted, set()
        if runs and self.isVisible() and not self._stale:
            self.loader.update_runs(runs, self.selected_scenario())
            return
        self.refresh()

    def set_data(self, data: ResultsData) -> None:
        """Show ``data``: every tab gets it, the visible one draws."""
        self.data = data
        self._fill_scenarios(data.scenarios)
        m = data.meta
        # The point values come first; the bootstrap intervals (and the leaderboard) follow.
        pending = " · intervals: computing…" if data.leaderboard is None and data.runs else ""
        # The study chosen above the queue, in the title: the line below is full at 1280 px.
        self.setWindowTitle("a320-review — results" + (f" — study {m.study}" if m.study else ""))
        self.status.setText(
            f"  {_counted(m.n_runs, 'run')} · {_counted(m.n_ratings, 'rating')} by "
            f"{_counted(m.n_raters, 'rater')} · "
            f"rubric {m.rubric} · scorer {', '.join(m.scorer_versions) or '—'}{pending}"
        )
        self.left_out.setText(m.left_out_note or "")
        self.left_out.setVisible(bool(m.left_out_note))
        for canvas in self.canvases.values():
            canvas.set_data(data)
        self.agreement.set_data(data)
        self.validity.set_data(data)
        self.updated.emit()

    def _fill_scenarios(self, scenarios: list[str]) -> None:
        keep = self.selected_scenario()
        current = [self.scenario.itemText(i) for i in range(1, self.scenario.count())]
        if current == scenarios:
            return
        self.scenario.blockSignals(True)  # refilling is not the user choosing
        self.scenario.clear()
        self.scenario.addItem(ALL)
        self.scenario.addItems(scenarios)
        if keep in scenarios:
            self.scenario.setCurrentIndex(scenarios.index(keep) + 1)
        self.scenario.blockSignals(False)

    def _filter(self, what: dict, label: str) -> None:
        scenario = self.selected_scenario()
        if scenario is not None:
            what = {**what, "scenario_id": scenario}
        self.filter_requested.emit(what, label)

    def showEvent(self, event) -> None:
        """Load what changed while the window was hidden, and take the keys: they once
        went on to the adjudication grid behind the dashboard."""
        super().showEvent(event)
        if self._stale:
            self.refresh()
        # Once mapped: a window manager ignores an activation asked before that.
        QTimer.singleShot(0, self._take_focus)

    def _take_focus(self) -> None:
        if self.isVisible():
            self.raise_()
            self.activateWindow()
            self.tabs.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _quit(self) -> None:
        """The main window's Quit, from here: close this, then the window it belongs to."""
        owner = self.parentWidget()
        self.close()
        if owner is not None:
            owner.window().close()


def _counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one ("1 rating by 1 rater")."""
    return f"{n} {noun}" + ("" if n == 1 else "s")
