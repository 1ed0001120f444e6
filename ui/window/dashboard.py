"""View → Results dashboard (Ctrl+Shift+D) and File → Export report….

The dashboard sends intents (open this run, show these runs in the queue, export) and this
part routes them to the queue and the controller; the report is written off the GUI thread
by the results loader, its progress shown in the status bar. The dashboard window (and
matplotlib with it) is built on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtWidgets import QFileDialog, QMainWindow

from ui.controller import ReviewController
from ui.queue.queue_panel import QueuePanel
from ui.results.results_loader import ResultsLoader
from ui.window.menus import WindowMenus
from ui.window.status import WindowStatus


class DashboardView(Protocol):
    """What this part asks of the results window once built (it is imported lazily)."""

    def show(self) -> None: ...
    def raise_(self) -> None: ...
    def activateWindow(self) -> None: ...
    def selected_scenario(self) -> str | None: ...


class ResultsDashboard:
    """The results dashboard and the report export, for one main window."""

    def __init__(
        self,
        window: QMainWindow,
        controller: ReviewController,
        queue: QueuePanel,
        status: WindowStatus,
        menus: WindowMenus,
    ) -> None:
        self._window = window
        self._controller = controller
        self._queue = queue
        self._status = status
        self.results_loader = ResultsLoader(
            controller.store.path,
            parent=window,
            viewer=lambda: controller.rater,
            study=lambda: controller.studies.study,  # the study chosen above the queue
        )
        self.results_window: DashboardView | None = None
        menus.action(menus.view_menu, "Results dashboard", "Ctrl+Shift+D", self.show_results)
        file_menu = menus.file_menu
        export = menus.action(None, "Export report…", None, self.export_report)
        file_menu.insertAction([a for a in file_menu.actions() if a.isSeparator()][-1], export)
        loader = self.results_loader
        loader.export_progressed.connect(status.show_progress)
        loader.exported.connect(self._export_finished)
        loader.export_failed.connect(self._export_finished)

    def show_results(self) -> None:
        """Open (or raise) the results dashboard."""
        if self.results_window is None:
            from ui.results.results_window import ResultsWindow

            c = self._controller
            window = ResultsWindow(self.results_loader, self._window, viewer=c.rater)
            window.run_requested.connect(self.open_run_from_results)
            window.filter_requested.connect(self._filter_from_results)
            window.export_requested.connect(self.export_report)
            # A submit says which run it touched first: the dashboard updates that run only.
            c.rating_submitted.connect(lambda rating: window.note_submitted(rating.run_pk))
            c.ratings_changed.connect(window.mark_stale)
            c.rater_changed.connect(window.mark_stale)
            c.studies.study_changed.connect(lambda _name: window.mark_stale())
            self.results_window = window
        self.results_window.show()
        self.results_window.raise_()
        self.results_window.activateWindow()

    def open_run_from_results(self, run_pk: int) -> None:
        """Open a run clicked on the dashboard; a queue filter hiding it is cleared."""
        if not self._queue.select_run(run_pk):
            self._queue.show_only({})
            if not self._queue.select_run(run_pk):
                self._controller.open_run(run_pk)  # not in the queue (an older version)
        self._window.raise_()
        self._window.activateWindow()

    def _filter_from_results(self, facets: dict[str, Any], label: str) -> None:
        self._queue.show_only(facets)
        self._status.say(f"Queue: the runs of {label}.")
        self._window.raise_()

    def export_report(self) -> None:
        """Ask where, then write the results report on a worker thread, with progress."""
        path, _ = QFileDialog.getSaveFileName(
            self._window, "Export report", "results.pdf", "PDF (*.pdf);;HTML page (*.html)"
        )
        if path:
            self.start_export(Path(path))

    def start_export(self, path: Path) -> None:
        """Write the report to ``path`` (PDF, or HTML for an .html name)."""
        fmt = "html" if path.suffix.lower() in (".html", ".htm") else "pdf"
        window = self.results_window
        scenario = window.selected_scenario() if window is not None else None
        if not self.results_loader.export(path, fmt, scenario):
            self._status.say("A report is already being written.")
            return
        self._status.show_busy()
        self._status.say(f"Writing {path.name}…")

    def _export_finished(self, message: str) -> None:
        self._status.hide_progress()
        self._status.say(message)
