"""The main window's part in the results dashboard and the results report.

A mixin of :class:`ui.main_window.MainWindow`, like :mod:`ui.study_window`: View → Results
dashboard (Ctrl+Shift+D) and File → Export report…. The dashboard sends intents (open this
run, show these runs in the queue, export) and the window routes them to the queue and the
controller; the report is written off the GUI thread by the results loader.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from ui.results.results_loader import ResultsLoader


class DashboardWindow:
    """The results dashboard and report export, on the main window."""

    def _build_results(self) -> None:
        """View → Results dashboard and File → Export report…; the window itself (and
        matplotlib with it) is built on first use."""
        self.results_loader = ResultsLoader(
            self.controller.store.path, parent=self, viewer=lambda: self.controller.rater
        )
        self.results_window = None
        menus = self.menuBar()
        self._action(self.view_menu, "Results dashboard", "Ctrl+Shift+D", self.show_results)
        file_menu = menus.actions()[0].menu()
        export = self._action(None, "Export report…", None, self.export_report)
        file_menu.insertAction([a for a in file_menu.actions() if a.isSeparator()][-1], export)
        loader = self.results_loader
        loader.export_progressed.connect(self._import_progressed)
        loader.exported.connect(self._export_finished)
        loader.export_failed.connect(self._export_finished)

    def show_results(self) -> None:
        """Open (or raise) the results dashboard."""
        if self.results_window is None:
            from ui.results.results_window import ResultsWindow

            window = ResultsWindow(self.results_loader, self, viewer=self.controller.rater)
            window.run_requested.connect(self.open_run_from_results)
            window.filter_requested.connect(self._filter_from_results)
            window.export_requested.connect(self.export_report)
            self.controller.ratings_changed.connect(window.mark_stale)
            self.controller.rater_changed.connect(window.mark_stale)
            self.results_window = window
        self.results_window.show()
        self.results_window.raise_()
        self.results_window.activateWindow()

    def open_run_from_results(self, run_pk: int) -> None:
        """Open a run clicked on the dashboard; a queue filter hiding it is cleared."""
        if not self.queue.select_run(run_pk):
            self.queue.show_only({})
            if not self.queue.select_run(run_pk):
                self.controller.open_run(run_pk)  # not in the queue (an older version)
        self.raise_()
        self.activateWindow()

    def _filter_from_results(self, facets: dict, label: str) -> None:
        self.queue.show_only(facets)
        self._say(f"Queue: the runs of {label}.")
        self.raise_()

    def export_report(self) -> None:
        """Ask where, then write the results report on a worker thread, with progress."""
        path, _ = QFileDialog.getSaveFileName(
            self, "Export report", "results.pdf", "PDF (*.pdf);;HTML page (*.html)"
        )
        if path:
            self.start_export(Path(path))

    def start_export(self, path: Path) -> None:
        """Write the report to ``path`` (PDF, or HTML for an .html name)."""
        fmt = "html" if path.suffix.lower() in (".html", ".htm") else "pdf"
        window = self.results_window
        scenario = window.selected_scenario() if window is not None else None
        if not self.results_loader.export(path, fmt, scenario):
            self._say("A report is already being written.")
            return
        self.progress.setRange(0, 0)
        self.progress.show()
        self._say(f"Writing {path.name}…")

    def _export_finished(self, message: str) -> None:
        self.progress.hide()
        self._say(message)
