"""File → Import files… / Import folder…: the dialogs, the progress, and the report.

The controller imports on a pool thread; this part asks what to import, shows the progress
in the status bar and the unreadable files in the problems dock, then calls ``then`` (the
window opens a run to rate when none is open).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from reviewer.store.models import ImportReport
from ui.controller import ReviewController
from ui.run.import_problems import ImportProblemsDock
from ui.window.status import WindowStatus


class ImportFlow:
    """The window's import: asks, shows the progress, reports."""

    def __init__(
        self,
        parent: QWidget,
        controller: ReviewController,
        status: WindowStatus,
        problems: ImportProblemsDock,
        *,
        then: Callable[[], None],
    ) -> None:
        self._parent = parent
        self._controller = controller
        self._status = status
        self._problems = problems
        self._then = then
        controller.import_started.connect(self._started)
        controller.import_progressed.connect(status.show_progress)
        controller.import_finished.connect(self._finished)

    def import_files(self) -> None:
        """Ctrl+I: pick trajectory files and import them."""
        files, _ = QFileDialog.getOpenFileNames(
            self._parent, "Import trajectories", "", "Trajectories (*.jsonl)"
        )
        if files:
            self._controller.import_paths([Path(f) for f in files])

    def import_folder(self) -> None:
        """Ctrl+Shift+I: pick a folder and import every trajectory under it."""
        folder = QFileDialog.getExistingDirectory(self._parent, "Import a folder of trajectories")
        if folder:
            self._controller.import_paths([Path(folder)])

    def _started(self) -> None:
        self._status.show_busy(cancellable=True)
        self._status.say("Importing…")

    def _finished(self, report: ImportReport | None) -> None:
        self._status.hide_progress(cancellable=True)
        if report is None:
            return
        text = (
            f"Imported {report.added} new, {report.new_versions} changed, "
            f"{report.unchanged} unchanged, {len(report.unreadable)} unreadable"
            + (" — cancelled" if report.cancelled else "")
        )
        self._status.say(text)
        self._problems.show_report(report, self._controller.last_import_roots)
        self._then()
